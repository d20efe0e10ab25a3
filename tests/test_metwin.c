/*
 * test_metwin.c - the metrics of a workload's measured window: every
 * counter is subtracted, the run-delay maximum is bounded as metrics.h
 * says, the copies read a CPU's open busy segment without closing it,
 * and a netperf pair on a machine where only its syscalls cost reports
 * the wake-ups and busy time of its measurement, not of its warm-up.
 */
#include "testutil.h"

#include <stddef.h>

#include "kern/metwin.h"

/* Whether byte i of struct metrics lies in the field at off of size n. */
static bool in_field(size_t i, size_t off, size_t n)
{
	return i >= off && i < off + n;
}

#define FIELD(f) offsetof(struct metrics, f), sizeof(((struct metrics *)0)->f)

/*
 * Every byte 3 minus every byte 1 leaves every counter's bytes at 2: a
 * counter added to struct metrics and forgotten in metrics_sub() keeps
 * its 3s and fails here. The fields metrics.h names as not subtracted
 * keep to's bytes, and the histogram's maximum, higher in to, stays. The
 * one gap the compiler leaves (after the policy counters' names, before
 * their u64 values) is skipped; the struct ends with those values.
 */
static void test_sub_covers_every_counter(void **state)
{
	(void)state;
	static struct metrics to, from;
	size_t pad_from = offsetof(struct metrics, policy_counter_name) + sizeof(to.policy_counter_name);
	size_t pad_to = offsetof(struct metrics, policy_counter);

	assert_int_equal(sizeof(to), pad_to + sizeof(to.policy_counter));
	memset(&to, 3, sizeof(to));
	memset(&from, 1, sizeof(from));
	metrics_sub(&to, &from);

	const unsigned char *b = (const unsigned char *)&to;

	for (size_t i = 0; i < sizeof(to); i++) {
		if (i >= pad_from && i < pad_to)
			continue;
		bool kept = in_field(i, FIELD(place_digest)) || in_field(i, FIELD(events)) ||
			    in_field(i, FIELD(elapsed_ns)) || in_field(i, FIELD(from_ns)) ||
			    in_field(i, FIELD(run_ns)) || in_field(i, FIELD(nr_policy_counters)) ||
			    in_field(i, FIELD(policy_counter_name)) || in_field(i, FIELD(run_delay.max_ns));

		if (b[i] != (kept ? 3 : 2))
			fail_msg("byte %zu of struct metrics: %d (%s)", i, b[i],
				 kept ? "not a counter, changed" : "a counter, not subtracted");
	}
}

/*
 * Values 100 and 5000 before the window, 300 and 700 in it. The maximum,
 * 5000, is older than the window, so the window's is the top of 700's
 * bucket: 700 = 0b1010111100, its leading bit 9, the four bits below it
 * 0101, so the bucket spans (16 + 5) << 5 = 672 to 672 + 31 = 703.
 */
static void test_hist_window_max(void **state)
{
	(void)state;
	static struct metrics to, from;

	hist_add(&from.run_delay, 100);
	hist_add(&from.run_delay, 5000);
	to = from;
	hist_add(&to.run_delay, 300);
	hist_add(&to.run_delay, 700);
	metrics_sub(&to, &from);
	assert_int_equal(to.run_delay.count, 2);
	assert_int_equal(to.run_delay.sum_ns, 1000);
	assert_int_equal(to.run_delay.max_ns, 703);
	assert_int_equal(hist_quantile(&to.run_delay, 0.5), 303); /* 300: 288..303 */

	/* A new maximum in the window is the window's own. */
	memset(&to, 0, sizeof(to));
	memset(&from, 0, sizeof(from));
	hist_add(&from.run_delay, 100);
	to = from;
	hist_add(&to.run_delay, 900);
	metrics_sub(&to, &from);
	assert_int_equal(to.run_delay.max_ns, 900);

	/* Nothing in the window: no maximum. */
	to = from;
	metrics_sub(&to, &from);
	assert_int_equal(to.run_delay.count, 0);
	assert_int_equal(to.run_delay.max_ns, 0);
}

/*
 * CPU 0 has run its task since 100 ns, CPU 1 has balanced on its way to
 * idle since 200 ns (busy, CPU_MODE_NEWIDLE). A copy at 250 ns counts the
 * 150 + 50 ns of those open segments and leaves them open (the run must
 * not change with the window); one at 900 ns, after 5000 ns were closed
 * into busy_ns, counts 800 + 700 more. The window's busy time is then
 * 6500 - 1200 = 5300 ns over its 650 ns. Of the 10 wake-ups begun before
 * the window 2 were still choosing their CPU: they claim it inside, so
 * the window has the 20 begun in it and those 2. SIS_UTIL's
 * budget of the one LLC (2 CPUs) is 2 until 600 ns and 1 after: over the
 * window 2 x 350 + 1 x 300 = 1000 CPU-ns of 2 x 650. An earlier end, at
 * 700 ns, gives way to the last; the run's events and placement digest
 * are the final ones, not the window's.
 */
static void test_window_reads_open_segment(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
	struct sim *sim = tu_sim(m, "default");
	struct sched_domain_shared *sds = &sim->doms.shared[0];

	assert_int_equal(sim->doms.nr_shared, 1);
	sim->rq[0].curr = tu_task(sim, 0);
	sim->rq[0].mode = CPU_MODE_RUNNING;
	sim->rq[0].seg_start = 100;
	sim->rq[1].mode = CPU_MODE_NEWIDLE;
	sim->rq[1].seg_start = 200;
	sds->nr_idle_scan = 2;
	sds->scan_budget_area = 0;
	sds->scan_budget_since = 0;
	sim->now = 250;
	sim->met.busy_ns = 1000;
	sim->met.wakeups = 10;
	sim->wakes_in_flight = 2;
	assert_int_equal(metrics_window_begin(sim), 0);
	assert_int_equal(sim->rq[0].seg_start, 100);
	assert_int_equal(sim->rq[1].seg_start, 200);
	assert_int_equal(sim->met.busy_ns, 1000);
	assert_int_equal(sim->met_from->busy_ns, 1200);
	assert_int_equal(sim->met_from->sis_budget_area, 500);
	assert_int_equal(sds->scan_budget_since, 0);
	/* A second begin changes nothing: the first measured instance's counts. */
	sim->now = 300;
	assert_int_equal(metrics_window_begin(sim), 0);
	assert_int_equal(sim->met_from_ns, 250);

	sim->wakes_in_flight = 0;
	sim->now = 600;
	sis_budget_set(sim, sds, 1);
	sim->now = 700;
	metrics_window_end(sim);
	sim->now = 900;
	sim->met.busy_ns = 5000;
	sim->met.wakeups = 30;
	metrics_window_end(sim);
	sim->met.busy_ns = 7000;
	sim->met.wakeups = 40;
	sim->met.events = 77;
	sim->met.place_digest = 0xabc;
	sim->met.elapsed_ns = 1000;
	metrics_window_finish(sim);
	assert_int_equal(sim->met.busy_ns, 5300);
	assert_int_equal(sim->met.wakeups, 22);
	assert_int_equal(sim->met.sis_budget_area, 1000);
	assert_int_equal(sim->met.sis_budget_span, 1300);
	assert_int_equal(sim->met.elapsed_ns, 650);
	assert_int_equal(sim->met.from_ns, 250);
	assert_int_equal(sim->met.run_ns, 1000);
	assert_int_equal(sim->met.events, 77);
	assert_int_equal(sim->met.place_digest, 0xabc);
	assert_null(sim->met_from);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * netperf TCP_RR, one pair on CPUs 0 and 1 of ideal-2cpu, where only the
 * TCP syscalls cost: a transaction is the client's send (1000 ns), the
 * server's receive (500, after its wake-up), its send (1000) and the
 * client's receive (500), one after another: 3000 ns, two wake-ups, each
 * CPU busy half of it. The window opens at the first transaction after
 * the 0.02 s warm-up and closes at the pair's end, 0.01 s later rounded
 * up to a whole transaction: 3334 transactions, 10,002 us. So the metrics
 * say 6668 wake-ups and 50% of the CPUs busy, no forks (all before); over
 * the whole run, as before the window, they said 20,005 and 3.
 */
static void test_netperf_window(void **state)
{
	(void)state;
	char out[256];
	double trans_s, busy, meas_s, from_s, sim_s;
	long wakeups, forks;

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json --json "
			       "-- netperf -t TCP_RR -T 0,1 -l 0.01 --warmup 0.02 | jq -r '[.result.value, "
			       ".metrics.wakeups, .metrics.cpu_util_pct, .metrics.measured_seconds, "
			       ".metrics.measured_from_s, .metrics.simulated_seconds, .metrics.forks] | @tsv'",
			       tu_wakesim()), 0);
	assert_int_equal(sscanf(out, "%lf %ld %lf %lf %lf %lf %ld", &trans_s, &wakeups, &busy, &meas_s,
				&from_s, &sim_s, &forks), 7);
	assert_true(fabs(trans_s - 1e9 / 3000) < 0.01);
	assert_true(fabs(meas_s - 3334 * 3e-6) < 1e-9);
	assert_int_equal(wakeups, 2 * 3334);
	/* Pinned, each end is woken on its own CPU, idle since it slept there. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json --json "
			       "-- netperf -t TCP_RR -T 0,1 -l 0.01 --warmup 0.02 | jq -e '.metrics | "
			       ".wake_prev_cpu_pct == 100 and .wake_idle_cpu_pct == 100'", tu_wakesim()), 0);
	assert_true(fabs(busy - 50) < 1e-6);
	assert_int_equal(forks, 0);
	/* The warm-up starts once the pair runs, 1 us in (its fork and exec). */
	assert_true(from_s >= 0.02 && from_s < 0.02 + 3e-6);
	assert_true(fabs(sim_s - (from_s + meas_s)) < 3e-6);
}

/*
 * A wake-up is counted once, where its target is: in a window that opens
 * while wake-ups are in flight every share stays within 0-100%, and the
 * placements by reason add up to the wake-ups (no fork falls in the
 * window). Before, a wake-up that began before the window and chose its
 * CPU in it counted in the shares but not in the wake-ups: 100.044% of
 * them idle on tensor-gs101 and -0.044% migrating.
 */
static void test_window_edge_wakeups(void **state)
{
	(void)state;
	char out[256];

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tensor-gs101 --json -- tbench -t 0.02 "
			       "--warmup 0.02 4 | jq -e '.metrics as $m | ([$m.wake_idle_cpu_pct, "
			       "$m.wake_waker_cpu_pct, $m.wake_prev_cpu_pct, $m.wake_migrated_pct, "
			       "$m.wake_via_wakelist_pct, $m.wake_cross_llc_pct] | all(. >= 0 and . <= 100)) and "
			       "$m.forks == 0 and ([$m.placements.reason[]] | add) == $m.wakeups'",
			       tu_wakesim()), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sub_covers_every_counter),
		cmocka_unit_test(test_hist_window_max),
		cmocka_unit_test(test_window_reads_open_segment),
		cmocka_unit_test(test_netperf_window),
		cmocka_unit_test(test_window_edge_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
