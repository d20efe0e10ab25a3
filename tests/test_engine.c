/*
 * test_engine.c - the engine's pieces: cpumasks and cpulists as the kernel
 * spells them, the event queue's (time, seq) order, and the seeded jitter.
 */
#include "testutil.h"

#include "kern/check.h"

static void test_cpulist(void **state)
{
	(void)state;
	struct cpumask m;
	char err[128], buf[256];
	int cpu, order[8], n = 0;

	nr_cpu_ids = 16;
	assert_int_equal(cpulist_parse("0-3,8,10-11\n", &m, err, sizeof(err)), 0);
	assert_int_equal(cpumask_weight(&m), 7);
	assert_string_equal(cpumask_print_list(&m, buf, sizeof(buf)), "0-3,8,10-11");
	assert_int_equal(cpulist_parse("4-7\n\0", &m, err, sizeof(err)), 0); /* hwloc dumps */
	assert_int_not_equal(cpulist_parse("3-1", &m, err, sizeof(err)), 0);
	assert_int_not_equal(cpulist_parse("1,x", &m, err, sizeof(err)), 0);
	assert_int_not_equal(cpulist_parse("2000", &m, err, sizeof(err)), 0);
	/* for_each_cpu_wrap() from 9 over {0-3, 8, 10-11}: 10 11 0 1 2 3 8 */
	cpulist_parse("0-3,8,10-11", &m, err, sizeof(err));
	for_each_cpu_wrap(cpu, &m, 9)
		order[n++] = cpu;
	const int want[] = { 10, 11, 0, 1, 2, 3, 8 };

	assert_int_equal(n, 7);
	assert_memory_equal(order, want, sizeof(want));
	/* Starting on a member visits it first, each CPU once. */
	n = 0;
	for_each_cpu_wrap(cpu, &m, 8)
		order[n++] = cpu;
	assert_int_equal(n, 7);
	assert_int_equal(order[0], 8);
	assert_int_equal(order[6], 3);
}

static void test_event_order(void **state)
{
	(void)state;
	struct evq q;
	struct event e[4];

	assert_int_equal(evq_init(&q), 0);
	for (int i = 0; i < 4; i++)
		event_init(&e[i], 0, i, NULL);
	evq_schedule(&q, &e[0], 100);
	evq_schedule(&q, &e[1], 50);
	evq_schedule(&q, &e[2], 100);	/* same time as e[0], scheduled later */
	evq_schedule(&q, &e[3], 10);
	evq_cancel(&q, &e[3]);
	evq_schedule(&q, &e[1], 100);	/* moved: now last among the 100s */
	assert_ptr_equal(evq_pop(&q), &e[0]);
	assert_ptr_equal(evq_pop(&q), &e[2]);
	assert_ptr_equal(evq_pop(&q), &e[1]);
	assert_null(evq_pop(&q));
	assert_false(event_queued(&e[3]));
	evq_free(&q);
}

static void test_jitter(void **state)
{
	(void)state;
	struct rng a, b;
	double sum = 0, sq = 0;
	const int n = 100000;

	rng_seed(&a, 1);
	rng_seed(&b, 1);
	for (int i = 0; i < 10; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&b, 2);
	assert_int_not_equal(rng_next(&a), rng_next(&b));
	/* 5% relative sigma around 1000 ns: mean 1000, sigma 50, never below 827. */
	for (int i = 0; i < n; i++) {
		u64 v = rng_jitter_ns(&a, 1000, 50);

		assert_true(v >= 826 && v <= 1174);
		sum += (double)v;
		sq += (double)v * (double)v;
	}
	double mean = sum / n, sd = sqrt(sq / n - mean * mean);

	assert_float_equal(mean, 1000, 1.0);
	assert_float_equal(sd, 50, 1.0);
	assert_int_equal(rng_jitter_ns(&a, 1000, 0), 1000);
}

/* Run the invariant check on sim in a child; true if it aborted. */
static bool check_aborts(struct sim *sim, u64 last_now)
{
	fflush(NULL);
	pid_t pid = fork();

	if (pid == 0) {
		/* Keep the child's abort message out of the test's output. */
		freopen("/dev/null", "w", stderr);
		sim_check_invariants(sim, last_now);
		_exit(0);
	}
	int st;

	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void test_invariants(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
	struct sim *sim = tu_sim(m, "default");

	/* A consistent state passes: one running task, one queued behind it. */
	tu_busy(sim, 0);
	struct task_struct *q = tu_task(sim, 0);

	q->__state = TASK_RUNNING;
	sim->this_cpu = 0;
	activate_task(sim, cpu_rq(sim, 0), q, ENQUEUE_WAKEUP);
	sim->this_cpu = -1;
	sim->now = 1000;
	assert_false(check_aborts(sim, 0));
	/* Each kind of corruption is caught. */
	assert_true(check_aborts(sim, 2000)); /* time went backwards */
	cpu_rq(sim, 0)->nr_running++;
	assert_true(check_aborts(sim, 0));
	cpu_rq(sim, 0)->nr_running--;
	q->cpu = 1;
	assert_true(check_aborts(sim, 0)); /* queued on 0, names 1 */
	q->cpu = 0;
	q->se.avg.util_avg = 1025;
	assert_true(check_aborts(sim, 0));
	q->se.avg.util_avg = 0;
	assert_false(check_aborts(sim, 0));
	tu_sim_free(sim);
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_event_order),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_invariants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
