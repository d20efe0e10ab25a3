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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_task_skips_irq_time),
		cmocka_unit_test(test_task_not_charged_for_softirq),
		cmocka_unit_test(test_loopback_softirq_share),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
