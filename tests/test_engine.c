/*
 * test_engine.c - the engine's pieces: cpumasks and cpulists as the kernel
 * spells them, the event queue's (time, seq) order, and the seeded jitter.
 */
#include "testutil.h"

#include "kern/check.h"
#include "sim/engine.h"

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
	assert_int_not_equal(cpulist_parse("8192", &m, err, sizeof(err)), 0); /* CPUs 0..8191 */
	assert_int_equal(cpulist_parse("8191", &m, err, sizeof(err)), 0);
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

/* "%*pb" as bitmap_string() prints it: 32-bit chunks, the first only as wide as needed. */
static void test_cpumask_bitmap(void **state)
{
	(void)state;
	struct cpumask m;
	char buf[256], err[64];

	nr_cpu_ids = 384;
	cpulist_parse("0-1", &m, err, sizeof(err));
	assert_string_equal(cpumask_print_bitmap(&m, 2, buf, sizeof(buf)), "3");
	cpulist_parse("0-3", &m, err, sizeof(err));
	assert_string_equal(cpumask_print_bitmap(&m, 40, buf, sizeof(buf)), "00,0000000f");
	cpulist_parse("63", &m, err, sizeof(err));
	assert_string_equal(cpumask_print_bitmap(&m, 64, buf, sizeof(buf)), "80000000,00000000");
	cpulist_parse("0,383", &m, err, sizeof(err));
	assert_string_equal(cpumask_print_bitmap(&m, 384, buf, sizeof(buf)),
			    "80000000,00000000,00000000,00000000,00000000,00000000,"
			    "00000000,00000000,00000000,00000000,00000000,00000001");
	cpulist_parse("4-7,32", &m, err, sizeof(err));
	assert_string_equal(cpumask_print_bitmap(&m, 48, buf, sizeof(buf)), "0001,000000f0");
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

/*
 * The ring and the heap together pop in (time, seq) order, whatever mix of
 * near events (ring), far ones (heap), moves and cancels: checked against
 * a plain scan for the minimum over every queued event, while the clock
 * crosses the ring's span many times (so buckets wrap).
 */
static void test_event_queue_split(void **state)
{
	(void)state;
	enum { N = 300 };
	struct evq q;
	struct event e[N];
	u64 t[N], seq[N], next_seq = 0, now = 0;
	bool on[N] = { false };
	struct rng r;
	int pops = 0;

	rng_seed(&r, 7);
	assert_int_equal(evq_init(&q), 0);
	for (int i = 0; i < N; i++)
		event_init(&e[i], 0, i, NULL);
	for (int step = 0; step < 200000; step++) {
		int i = (int)rng_below(&r, N);
		u64 kind = rng_below(&r, 10);

		if (kind < 5) {
			/* Near (same instant, same bucket, ring), far (heap), or
			 * exactly at the ring's end. */
			u64 d = kind == 0 ? 0 : kind == 1 ? rng_below(&r, 16)
				: kind == 2 ? rng_below(&r, EVQ_RING_SPAN_NS)
				: kind == 3 ? EVQ_RING_SPAN_NS + rng_below(&r, 5 * EVQ_RING_SPAN_NS)
				: EVQ_RING_SPAN_NS - 8 + rng_below(&r, 16);

			evq_schedule(&q, &e[i], now + d);
			t[i] = now + d;
			seq[i] = next_seq++;
			on[i] = true;
		} else if (kind < 6) {
			evq_cancel(&q, &e[i]);
			on[i] = false;
		} else {
			int want = -1;

			for (int j = 0; j < N; j++)
				if (on[j] && (want < 0 || t[j] < t[want] ||
					      (t[j] == t[want] && seq[j] < seq[want])))
					want = j;
			struct event *got = evq_pop(&q);

			if (want < 0) {
				assert_null(got);
				continue;
			}
			assert_ptr_equal(got, &e[want]);
			assert_false(event_queued(got));
			on[want] = false;
			now = t[want];
			pops++;
		}
		int queued = 0;

		for (int j = 0; j < N; j++)
			queued += on[j];
		assert_int_equal(evq_size(&q), queued);
	}
	/* The clock crossed the ring's span many times. */
	assert_true(now > 100 * EVQ_RING_SPAN_NS);
	assert_true(pops > 50000);
	evq_free(&q);
}

/*
 * rng_jitter_ns() computes ns + ns * dev / 75675 * pct_x10 / 1000 in 64
 * bits when it fits and in 128 otherwise: both give the formula's value,
 * truncated toward zero, on each side of the switch.
 */
static void test_jitter_width(void **state)
{
	(void)state;
	const u64 sizes[] = { 1, 999, (1ULL << 30) - 1, 1ULL << 30, 5ULL << 40 };

	for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (int s = 1; s < 200; s++) {
			struct rng a, b;

			rng_seed(&a, (u64)s);
			rng_seed(&b, (u64)s);
			u64 v = rng_next(&b);
			__int128 sum = (__int128)(v & 0xffff) + ((v >> 16) & 0xffff) +
				       ((v >> 32) & 0xffff) + (v >> 48);
			__int128 dev = 2 * sum - 4 * 65535;
			__int128 want = (__int128)sizes[k] + (__int128)sizes[k] * dev * 50 / 75675000;

			if (want < 1)
				want = 1;
			assert_true((__int128)rng_jitter_ns(&a, sizes[k], 50) == want);
		}
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

/* A log of the events an engine_run() handled, by arg, and where to stop. */
struct run_log {
	int seen[8], n;
	u64 at[8];
	int stop_after;		/* handle returns false after this many (0: never) */
	bool done_after_two;
};

static bool log_done(void *ctx)
{
	const struct run_log *l = ctx;

	return l->done_after_two && l->n >= 2;
}

static bool log_handle(void *ctx, struct event *ev)
{
	struct run_log *l = ctx;

	l->seen[l->n] = ev->arg;
	l->at[l->n++] = ev->time;
	return !(l->stop_after && l->n >= l->stop_after);
}

/*
 * The engine's loop on its own (no kernel): events at 10, 5 and 5 ns,
 * scheduled in that order, are handled 5 (the first scheduled), 5, 10;
 * the clock is the handled event's time. A handler's false ends the run
 * after that event; done() is asked before each; an event past max_ns is
 * a run that did not finish (-1, no handling); an event before the clock
 * is an internal error.
 */
static void test_engine_run(void **state)
{
	(void)state;
	const struct engine_ops ops = { .done = log_done, .handle = log_handle };
	struct event ev[3];
	struct engine e;
	char err[160];
	const u64 t[3] = { 10, 5, 5 };

	for (int k = 0; k < 5; k++) {
		struct run_log l = { .stop_after = k == 1 ? 2 : 0, .done_after_two = k == 2 };
		const u64 max_ns = k == 3 ? 7 : 0;

		assert_int_equal(engine_init(&e), 0);
		for (int i = 0; i < 3; i++) {
			memset(&ev[i], 0, sizeof(ev[i]));
			ev[i].heap_idx = EVQ_NOT_QUEUED;
			ev[i].arg = i;
			evq_schedule(&e.evq, &ev[i], t[i]);
		}
		if (k == 4)
			e.now = 6; /* as if an event at 6 had been handled */
		int r = engine_run(&e, &ops, &l, max_ns, err, sizeof(err));

		switch (k) {
		case 0:
			assert_int_equal(r, 0);
			assert_int_equal(l.n, 3);
			assert_int_equal(l.seen[0], 1);
			assert_int_equal(l.seen[1], 2);
			assert_int_equal(l.seen[2], 0);
			assert_int_equal(e.now, 10);
			assert_int_equal(e.events, 3);
			break;
		case 1:
		case 2:
			assert_int_equal(r, 0);
			assert_int_equal(l.n, 2);
			assert_int_equal(e.now, 5);
			assert_int_equal(evq_size(&e.evq), 1);
			break;
		case 3:
			assert_int_equal(r, -1);
			assert_int_equal(l.n, 2);
			assert_string_equal(err, "the workload did not finish within 0.000 simulated seconds");
			break;
		case 4:
			assert_int_equal(r, -1);
			assert_int_equal(l.n, 0);
			assert_string_equal(err, "internal error: time went back from 6 to 5");
			break;
		}
		engine_free(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_event_order),
		cmocka_unit_test(test_cpumask_bitmap),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_jitter_width),
		cmocka_unit_test(test_event_queue_split),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_engine_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
