/*
 * test_eevdf.c - EEVDF on hand-built runqueues (kernel/sched/fair.c,
 * v6.12): V is the weighted mean vruntime floored toward -inf, an entity
 * is eligible iff its vruntime <= V, the pick is the eligible entity with
 * the earliest deadline (ties: first enqueued), RUN_TO_PARITY keeps curr,
 * placement preserves lag, dequeue clamps it.
 */
#include "testutil.h"

static struct sim *sim;
static struct machine *m;

static int setup(void **state)
{
	(void)state;
	m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	sim = tu_sim(m, "default");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_sim_free(sim);
	tu_machine_free(m);
	return 0;
}

/* Recompute the queue's weighted sums relative to reference ref. */
static void rebase(struct cfs_rq *cfs, u64 ref)
{
	cfs->zero_vruntime = ref;
	cfs->sum_wv = 0;
	cfs->sum_w = 0;
	for (int i = 0; i < cfs->nr_queue; i++) {
		cfs->sum_wv += (__int128)(s64)(cfs->queue[i]->vruntime - ref) * (s64)cfs->queue[i]->weight;
		cfs->sum_w += (long long)cfs->queue[i]->weight;
	}
}

/* A cfs_rq holding entities with the given weights, vruntimes, deadlines. */
static struct cfs_rq *build(struct sched_entity *se, int n, const unsigned long *w,
			    const u64 *v, const u64 *d)
{
	static struct cfs_rq cfs;
	static struct sched_entity *q[8];

	cfs = (struct cfs_rq){ .queue = q, .cap_queue = 8 };
	for (int i = 0; i < n; i++) {
		se[i] = (struct sched_entity){ .weight = w[i], .vruntime = v[i], .deadline = d[i],
					       .on_rq = 1, .rq_idx = i, .enqueue_seq = (u64)i };
		q[i] = &se[i];
		cfs.load += w[i];
	}
	cfs.nr_queue = n;
	cfs.nr_queued = (unsigned int)n;
	rebase(&cfs, 0);
	return &cfs;
}

static void test_avg_vruntime(void **state)
{
	(void)state;
	struct sched_entity se[3];
	const unsigned long w1[] = { 1024, 1024, 1024 };
	const u64 v1[] = { 1000, 2000, 6000 }, d1[] = { 5000, 3000, 1500 };
	struct cfs_rq *cfs = build(se, 3, w1, v1, d1);

	/* (1000 + 2000 + 6000) / 3 */
	assert_int_equal(avg_vruntime(cfs), 3000);
	assert_true(entity_eligible(cfs, &se[0]));
	assert_true(entity_eligible(cfs, &se[1]));
	assert_false(entity_eligible(cfs, &se[2]));

	/* Weights count: (2048 * 0 + 1024 * 3000) / 3072 = 1000. */
	const unsigned long w2[] = { 2048, 1024 };
	const u64 v2[] = { 0, 3000 }, d2[] = { 0, 0 };

	cfs = build(se, 2, w2, v2, d2);
	assert_int_equal(avg_vruntime(cfs), 1000);

	/* Floor toward -inf: mean of 0 and 1 is 0 from any reference. */
	const unsigned long w3[] = { 1024, 1024 };
	const u64 v3[] = { 0, 1 }, d3[] = { 0, 0 };

	cfs = build(se, 2, w3, v3, d3);
	rebase(cfs, 1);
	assert_int_equal(avg_vruntime(cfs), 0);
	/* ...and the entity at 1 is not eligible (1 > 0.5), the one at 0 is. */
	assert_false(entity_eligible(cfs, &se[1]));
	assert_true(entity_eligible(cfs, &se[0]));
}

static void test_pick(void **state)
{
	(void)state;
	struct sched_entity se[3];
	const unsigned long w[] = { 1024, 1024, 1024 };
	const u64 v[] = { 1000, 2000, 6000 }, d[] = { 5000, 3000, 1500 };
	struct cfs_rq *cfs = build(se, 3, w, v, d);

	/* C has the earliest deadline but is not eligible: B. */
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[1]);

	/* Equal deadlines: the one enqueued first wins. */
	const u64 d2[] = { 3000, 3000, 1500 };

	cfs = build(se, 3, w, v, d2);
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[0]);
	se[0].enqueue_seq = 9;
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[1]);
}

static void test_run_to_parity(void **state)
{
	(void)state;
	struct sched_entity se[3];
	const unsigned long w[] = { 1024, 1024, 1024 };
	const u64 v[] = { 1000, 2000, 6000 }, d[] = { 5000, 3000, 1500 };
	struct cfs_rq *cfs = build(se, 3, w, v, d);

	/* A runs: out of the queue, curr, protected until its deadline changes. */
	cfs->queue[0] = &se[2];
	se[2].rq_idx = 0;
	cfs->nr_queue = 2;
	rebase(cfs, 0);
	cfs->curr = &se[0];
	se[0].vprot = se[0].deadline;
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[0]);
	sim->feat.on[__SCHED_FEAT_RUN_TO_PARITY] = false;
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[1]);
	sim->feat.on[__SCHED_FEAT_RUN_TO_PARITY] = true;
	/* A protected but ineligible curr is not kept. */
	se[0].vruntime = 5000;
	se[0].vprot = se[0].deadline;
	rebase(cfs, 0);
	assert_ptr_equal(pick_eevdf(sim, cfs), &se[1]);
}

/*
 * place_entity(): with one entity of weight w at V, a task of weight w with
 * saved lag L is placed at V - 2L, so the new average is V - L and its lag
 * is exactly L again.
 */
static void test_place_keeps_lag(void **state)
{
	(void)state;
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_task(sim, 0), *b = tu_task(sim, 0);
	const s64 L = 400000;

	sim->now = 1000;
	enqueue_entity(sim, rq, &a->se, ENQUEUE_WAKEUP);
	u64 V = avg_vruntime(&rq->cfs);

	b->se.vlag = L;
	enqueue_entity(sim, rq, &b->se, ENQUEUE_WAKEUP);
	assert_int_equal(b->se.vruntime, V - 2 * (u64)L);
	assert_int_equal((s64)(avg_vruntime(&rq->cfs) - b->se.vruntime), L);
	/* Deadline one virtual slice (base_slice 1.4 ms on 2 CPUs) later. */
	assert_int_equal(sim->tun->base_slice_ns, 1400000);
	assert_int_equal(b->se.deadline - b->se.vruntime, 1400000);
	/* b is eligible (positive lag), a is not: b is picked. */
	assert_ptr_equal(pick_eevdf(sim, &rq->cfs), &b->se);

	/* Dequeue clamps lag to max(2 * slice, tick) = max(2.8, 4) ms. */
	a->se.vruntime = avg_vruntime(&rq->cfs) - 10000000;
	dequeue_entity(sim, rq, &a->se, DEQUEUE_SLEEP);
	assert_int_equal(a->se.vlag, 4000000);
	dequeue_entity(sim, rq, &b->se, DEQUEUE_SLEEP);
	assert_int_equal(rq->cfs.nr_queued, 0);
	assert_int_equal(rq->cfs.load, 0);
}

/* A new task's first deadline is half a slice away (PLACE_DEADLINE_INITIAL). */
static void test_initial_deadline(void **state)
{
	(void)state;
	struct rq *rq = cpu_rq(sim, 1);
	struct task_struct *a = tu_task(sim, 1);

	enqueue_entity(sim, rq, &a->se, ENQUEUE_INITIAL);
	assert_int_equal(a->se.deadline - a->se.vruntime, 700000);
	dequeue_entity(sim, rq, &a->se, DEQUEUE_SLEEP);
}

/* update_curr(): runtime becomes vruntime; the deadline moves when reached. */
static void test_update_curr(void **state)
{
	(void)state;
	struct rq *rq = cpu_rq(sim, 1);
	struct task_struct *a = tu_task(sim, 1), *b = tu_task(sim, 1);

	sim->now = 10000000;
	enqueue_entity(sim, rq, &a->se, ENQUEUE_WAKEUP);
	enqueue_entity(sim, rq, &b->se, ENQUEUE_WAKEUP);
	set_next_entity(sim, rq, &a->se);
	u64 v0 = a->se.vruntime, d0 = a->se.deadline;

	sim->now += 1000000;
	assert_false(update_curr(sim, rq));
	assert_int_equal(a->se.vruntime, v0 + 1000000);
	assert_int_equal(a->se.sum_exec_runtime, 1000000);
	sim->now += 400000; /* reaches the 1.4 ms deadline: new one, reschedule */
	assert_true(update_curr(sim, rq));
	assert_int_equal(a->se.deadline, d0 + 1400000);
	put_prev_entity(sim, rq, &a->se);
	dequeue_entity(sim, rq, &a->se, DEQUEUE_SLEEP);
	dequeue_entity(sim, rq, &b->se, DEQUEUE_SLEEP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avg_vruntime),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_run_to_parity),
		cmocka_unit_test(test_place_keeps_lag),
		cmocka_unit_test(test_initial_deadline),
		cmocka_unit_test(test_update_curr),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
