/*
 * test_wc.c - the work-conservation checker: a hand-built idle-while-
 * waiting interval is counted once with its length, short ones and ones
 * the waiting task may not fill (affinity) are not, and a schedule that
 * keeps every CPU busy reports nothing.
 */
#include "testutil.h"

#include "kern/wc.h"

/* A runnable task queued on cpu behind its current one, allowed on mask. */
static struct task_struct *queue_waiting(struct sim *sim, int cpu, const char *allowed)
{
	struct task_struct *p = tu_task(sim, cpu);
	struct cpumask m;
	char err[128];

	assert_int_equal(cpulist_parse(allowed, &m, err, sizeof(err)), 0);
	p->cpus_ptr = sim_cpumask(sim, &m);
	assert_non_null(p->cpus_ptr);
	p->nr_cpus_allowed = cpumask_weight(p->cpus_ptr);
	p->__state = TASK_RUNNING;
	sim->this_cpu = cpu;
	activate_task(sim, cpu_rq(sim, cpu), p, ENQUEUE_WAKEUP);
	sim->this_cpu = -1;
	sim->kcost_ns = 0;
	return p;
}

static void test_hand_built_interval(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
	struct sim *sim = tu_sim(m, "default");
	struct wc_checker wc = { .threshold_ns = 1000000, .period_ns = 125000 };
	u64 since[2] = { WC_NONE, WC_NONE };

	wc.since = since;
	/* CPU 0 runs a task and has another waiting that may run on CPU 1,
	 * which is idle: from the first sample at 0 ... */
	tu_busy(sim, 0);
	struct task_struct *w = queue_waiting(sim, 0, "0-1");

	assert_true(rq_is_idle(cpu_rq(sim, 1)));
	sim->now = 0;
	wc_sample(sim, &wc);
	sim->now = 1500000;
	wc_sample(sim, &wc);
	assert_int_equal(sim->met.wc_intervals, 0); /* still open */
	/* ... to the first sample that no longer sees it, at 2 ms: one interval of 2 ms. */
	sim->this_cpu = 0;
	deactivate_task(sim, cpu_rq(sim, 0), w, DEQUEUE_SLEEP);
	sim->this_cpu = -1;
	sim->now = 2000000;
	wc_sample(sim, &wc);
	assert_int_equal(sim->met.wc_intervals, 1);
	assert_int_equal(sim->met.wc_wasted_ns, 2000000);
	/* Shorter than the threshold: 0.5 ms, not counted. */
	sim->this_cpu = 0;
	activate_task(sim, cpu_rq(sim, 0), w, ENQUEUE_WAKEUP);
	sim->this_cpu = -1;
	sim->now = 3000000;
	wc_sample(sim, &wc);
	sim->this_cpu = 0;
	deactivate_task(sim, cpu_rq(sim, 0), w, DEQUEUE_SLEEP);
	sim->this_cpu = -1;
	sim->now = 3500000;
	wc_sample(sim, &wc);
	assert_int_equal(sim->met.wc_intervals, 1);
	assert_int_equal(sim->met.wc_wasted_ns, 2000000);
	/* A waiting task bound to CPU 0 cannot use the idle CPU 1: no waste. */
	queue_waiting(sim, 0, "0");
	sim->now = 4000000;
	wc_sample(sim, &wc);
	sim->now = 9000000;
	wc_sample(sim, &wc);
	assert_int_equal(since[1], WC_NONE);
	assert_int_equal(sim->met.wc_intervals, 1);
	tu_sim_free(sim);
	tu_machine_free(m);
}

static void test_work_conserving_schedule(void **state)
{
	(void)state;
	char out[1 << 15], path[] = "/tmp/wakesim-wc-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");

	/* One thread per CPU, each bound there: nobody ever waits. */
	fputs("{ \"tasks\": { \"a\": { \"cpus\": [0], \"loop\": 20, \"run\": 1000 },\n"
	      " \"b\": { \"cpus\": [1], \"loop\": 20, \"run\": 1000 } } }\n", f);
	fclose(f);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json -- "
			       "rt-app %s", tu_wakesim(), path), 0);
	assert_non_null(strstr(out, "wc_violations                             0"));
	assert_non_null(strstr(out, "wc_wasted_cpu_pct                     0.000"));
	/* The option sets the threshold, and nonsense is refused. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json "
			       "--wc-threshold 250us -- rt-app %s", tu_wakesim(), path), 0);
	assert_non_null(strstr(out, "wc_threshold_ns=250000"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json "
			       "--wc-threshold 5parsecs -- hackbench", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--wc-threshold \"5parsecs\": expected a duration"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_built_interval),
		cmocka_unit_test(test_work_conserving_schedule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
