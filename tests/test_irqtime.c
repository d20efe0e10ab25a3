/*
 * test_irqtime.c - CONFIG_IRQ_TIME_ACCOUNTING (kern/irqtime.c): softirq
 * time leaves rq->clock_task as update_rq_clock_task() takes it out, and
 * with it update_curr()'s charge and PELT's clock. Expected values follow
 * from the kernel's rule by hand; the fixture is this repository's copy of
 * a 2-CPU machine's sysfs (full-speed CPUs: work ns = wall ns).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

static struct machine *m;

static int setup(void **state)
{
	(void)state;
	m = tu_machine(TU_HOST);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_machine_free(m);
	return 0;
}

static struct sim *sim_irqtime(u64 on)
{
	struct sim *sim = tu_sim(m, "default");

	sim->cfg.tunables.irq_time_accounting = on;
	return sim;
}

/*
 * 3000 ns of softirq end at 10 us. The clock advances 1000 ns by 11 us,
 * all of it irq time: clock_task stays at 10000. By 15 us 4000 ns more,
 * the 2000 ns of irq time left come out: 12000. By 20 us nothing is left
 * to take: 17000. Without the option clock_task is the clock.
 */
static void test_clock_task_skips_irq_time(void **state)
{
	(void)state;
	static const u64 at[] = { 10000, 11000, 15000, 20000 };
	static const u64 with[] = { 10000, 10000, 12000, 17000 };

	for (u64 on = 0; on <= 1; on++) {
		struct sim *sim = sim_irqtime(on);
		struct rq *rq = cpu_rq(sim, 0);

		for (int i = 0; i < 4; i++) {
			sim->now = at[i];
			assert_int_equal(rq_clock_task(sim, rq), on ? with[i] : at[i]);
			if (i == 0)
				account_softirq(sim, 0, 3000);
		}
		/* /proc/stat's softirq time is counted either way. */
		assert_int_equal(sim->met.softirq_ns, 3000);
		assert_int_equal(rq_clock_task(sim, cpu_rq(sim, 1)), 20000);
		tu_sim_free(sim);
	}
}

/*
 * A task runs 1 ms, 400 us of it in a softirq that interrupted it: with
 * the option it is charged 600 us (sum_exec_runtime, hence dur_avg and
 * vruntime) and its CPU's PELT signals stop at clock_task, 600000 ns
 * rounded down to whole 1024-ns units: 585 x 1024 = 599040. Without it,
 * 1 ms and 976 x 1024 = 999424.
 */
static void test_task_not_charged_for_softirq(void **state)
{
	(void)state;
	for (u64 on = 0; on <= 1; on++) {
		struct sim *sim = sim_irqtime(on);
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *a = tu_busy(sim, 0);

		sim->now = 1000000;
		account_softirq(sim, 0, 400000);
		update_curr(sim, rq);
		update_load_avg_se(sim, rq, &a->se);
		assert_int_equal(a->se.sum_exec_runtime, on ? 600000 : 1000000);
		assert_int_equal(rq->cfs.avg.last_update_time, on ? 599040 : 999424);
		assert_int_equal(a->se.avg.last_update_time, on ? 599040 : 999424);
		tu_sim_free(sim);
	}
}

/*
 * Loopback TCP_RR and UDP_RR on ideal-1cpu, where only the syscalls cost:
 * a round trip is two sends (1000 ns) and two receives (500 ns), 3000 ns,
 * of which the two sends' receive sides, 400 ns each over TCP and 300 ns
 * over UDP, run in the NET_RX softirq (the wake-ups cost nothing here):
 * 800 / 3000 = 26.67% and 600 / 3000 = 20% of busy time. The measured
 * window cuts a round trip (3333 in 10 ms): within 0.01.
 */
static void test_loopback_softirq_share(void **state)
{
	(void)state;
	static const char *const test[] = { "TCP_RR", "UDP_RR" };
	static const double share[] = { 800.0 / 3000 * 100, 600.0 / 3000 * 100 };
	char out[256];

	for (int i = 0; i < 2; i++) {
		double trans, pct;

		assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-1cpu.json "
				       "--json -- netperf -t %s -l 0.01 | jq -r "
				       "'[.result.value, .metrics.softirq_time_pct] | @tsv'",
				       tu_wakesim(), test[i]), 0);
		assert_int_equal(sscanf(out, "%lf %lf", &trans, &pct), 2);
		assert_true(fabs(trans - 1e9 / 3000) < 1);
		assert_true(fabs(pct - share[i]) < 0.01);
	}
}

/*
 * An interruption (costs.irq_ns, kern/irqtime.c) of a CPU running a task:
 * its length, drawn from irq_ns / 2 to 3 x irq_ns / 2, becomes the task's
 * kernel work (at full speed, nominal ns = wall ns), counted in
 * met.irq_ns, and in rq->irq_time only with the option; the next one
 * starts after it, at most 2 x (irq_interval_ns - irq_ns) later. On an idle CPU
 * it charges nothing and still arms the next.
 */
static void irq_fires(struct sim *sim, int cpu)
{
	/* As sim_handle() pops it. */
	evq_cancel(&sim->eng.evq, &cpu_rq(sim, cpu)->ev_irq);
	sim->nr_irqs_queued--;
	exec_handle_irq(sim, cpu);
}

static void test_irq_charges_curr(void **state)
{
	(void)state;
	struct costs saved = m->costs;

	m->costs.irq_ns = 20000;
	m->costs.irq_interval_ns = 1000000;
	for (u64 on = 0; on <= 1; on++) {
		struct sim *sim = sim_irqtime(on);
		struct rq *rq = cpu_rq(sim, 0), *idle = cpu_rq(sim, 1);

		/* Armed on every CPU from the start. */
		assert_true(event_queued(&rq->ev_irq) && event_queued(&idle->ev_irq));
		assert_int_equal(sim->nr_irqs_queued, 2);
		struct task_struct *a = tu_busy(sim, 0);

		sim->now = 5000;
		irq_fires(sim, 0);
		u64 ns = sim->met.irq_ns;

		assert_true(ns >= 10000 && ns <= 30000);
		assert_int_equal(a->kwork_left, ns);
		assert_int_equal(rq->irq_time, on ? ns : 0);
		assert_true(event_queued(&rq->ev_irq) && rq->ev_irq.time >= 5000 + ns &&
			    rq->ev_irq.time <= 5000 + ns + 2 * (1000000 - 20000));
		irq_fires(sim, 1);
		assert_int_equal(sim->met.irq_ns, ns);
		assert_int_equal(idle->irq_time, 0);
		assert_true(event_queued(&idle->ev_irq));
		assert_int_equal(sim->nr_irqs_queued, 2);
		tu_sim_free(sim);
	}
	m->costs = saved;
}

/*
 * An interruption of a CPU balancing on its way to idle (interrupts off
 * in __schedule()) waits for the balance and takes its time before the
 * CPU goes on: a window whose levels end at 7000 and 9000 ns, interrupted
 * at 8000 for 500 ns, ends at 9500, its first level (done) unmoved.
 */
static void test_irq_delays_newidle(void **state)
{
	(void)state;
	struct sim *sim = sim_irqtime(0);
	struct rq *rq = cpu_rq(sim, 0);

	rq->mode = CPU_MODE_NEWIDLE;
	rq->newidle_levels = 2;
	rq->newidle_level_end[0] = 7000;
	rq->newidle_level_end[1] = 9000;
	evq_schedule(&sim->eng.evq, &rq->ev_run, 9000);
	sim->now = 8000;
	newidle_delay(sim, rq, 500);
	assert_int_equal(rq->newidle_level_end[0], 7000);
	assert_int_equal(rq->newidle_level_end[1], 9500);
	assert_int_equal(rq->ev_run.time, 9500);
	rq->mode = CPU_MODE_RUNNING;
	newidle_delay(sim, rq, 500);
	assert_int_equal(rq->ev_run.time, 9500);
	evq_cancel(&sim->eng.evq, &rq->ev_run);
	tu_sim_free(sim);
}

/*
 * ideal-1cpu with interruptions of 20 us, 1 ms apart on average, as a
 * machine file (a cost profile would put costs/default.json's costs
 * under them).
 */
static void irq_machine(char *path, size_t len)
{
	char out[64];

	snprintf(path, len, "/tmp/wakesim-irq-%d.json", (int)getpid());
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.name = \"ideal-1cpu-irq\" | .costs.irq_ns = 20000 | "
			       ".costs.irq_interval_ns = 1000000' tests/data/ideal-1cpu.json > %s", path), 0);
}

/*
 * TCP_RR on ideal-1cpu keeps its CPU busy (a round trip of 3000 ns and
 * nothing else: test_loopback_softirq_share). Interruptions of 20 us
 * (uniform in 10-30 us) start 1 ms apart (each 0-1.96 ms after the last
 * one's end) and take their share of it, 20 / 1000 = 2%: about 1,000 of
 * them in 1 s, whose count (a renewal process: variance T x sigma^2 /
 * mu^3, under 333) and mean length (5.77 us / sqrt(1000)) leave that
 * share within 0.05 at one standard deviation; bounds at three. The transactions are what
 * the rest of the second holds: 1e9 / 3000 x (1 - share), within 0.1%.
 */
static void test_irq_share_of_busy_cpu(void **state)
{
	(void)state;
	char out[256], prof[64];
	double trans, pct;

	irq_machine(prof, sizeof(prof));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --json -- netperf -t TCP_RR -l 1 | jq -r "
			       "'[.result.value, .metrics.irq_time_pct] | @tsv'", tu_wakesim(), prof), 0);
	assert_int_equal(sscanf(out, "%lf %lf", &trans, &pct), 2);
	assert_true(pct > 1.85 && pct < 2.15);
	assert_true(fabs(trans / (1e9 / 3000 * (1 - pct / 100)) - 1) < 0.001);
	unlink(prof);
}

/*
 * rt-app, 1 ms of work every 2 ms for 10 s on ideal-1cpu: interruptions
 * that land while the CPU idles cost nothing, so the busy time holds the
 * same 2% share (about 5,000 of them: within 0.1 at five standard
 * deviations), and a period's work takes 1 ms / (1 - share): the CPU is
 * busy 50% / (1 - share) of the run, within 0.05 (the run's edges). The
 * run ends at its 10 s though interruptions stay armed.
 */
static void test_irq_spares_idle_cpu(void **state)
{
	(void)state;
	char out[256], prof[64], json[80];
	double pct, util, secs;

	irq_machine(prof, sizeof(prof));
	snprintf(json, sizeof(json), "/tmp/wakesim-irq-rtapp-%d.json", (int)getpid());
	assert_int_equal(tu_sh(out, sizeof(out), "printf '{ \"tasks\": { \"t\": { \"loop\": -1, "
			       "\"run\": 1000, \"timer\": { \"ref\": \"u\", \"period\": 2000 } } }, "
			       "\"global\": { \"duration\": 10 } }' > %s", json), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --json -- rt-app %s | jq -r '.metrics | [.irq_time_pct, "
			       ".cpu_util_pct, .simulated_seconds] | @tsv'", tu_wakesim(), prof, json), 0);
	assert_int_equal(sscanf(out, "%lf %lf %lf", &pct, &util, &secs), 3);
	assert_true(pct > 1.9 && pct < 2.1);
	assert_true(fabs(util - 50 / (1 - pct / 100)) < 0.05);
	assert_true(secs > 9.99 && secs < 10.01);
	unlink(prof);
	unlink(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_task_skips_irq_time),
		cmocka_unit_test(test_task_not_charged_for_softirq),
		cmocka_unit_test(test_loopback_softirq_share),
		cmocka_unit_test(test_irq_charges_curr),
		cmocka_unit_test(test_irq_delays_newidle),
		cmocka_unit_test(test_irq_share_of_busy_cpu),
		cmocka_unit_test(test_irq_spares_idle_cpu),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
