/*
 * test_cfs.c - the CFS pick of the v5.12 and v6.4 profiles against
 * kernel/sched/fair.c of v5.12 (and v6.4's BASE_SLICE), and the same
 * scenes giving other answers on the EEVDF profiles.
 *
 * The machine has 2 CPUs, so every tunable is scaled by 1 + ilog2(2) = 2:
 * sched_latency 12 ms, min_granularity 1.5 ms, wakeup_granularity 2 ms,
 * sched_nr_latency 8; EEVDF's base slice is 1.4 ms (mainline) or 1.5 ms
 * (v6.6).
 */
#include "testutil.h"

static struct machine *m;

static int setup(void **state)
{
	(void)state;
	m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_machine_free(m);
	return 0;
}

static void test_tunables(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(m, "default", KV_5_12);

	assert_int_equal(sim->tun->sched_latency_ns, 12000000);
	assert_int_equal(sim->tun->min_granularity_ns, 1500000);
	assert_int_equal(sim->tun->wakeup_granularity_ns, 2000000);
	assert_true(sched_cfs(sim));
	/* v5.12's features.h: SIS_PROP, not SIS_UTIL. */
	assert_true(sim->feat.on[__SCHED_FEAT_SIS_PROP]);
	assert_false(sim->feat.on[__SCHED_FEAT_SIS_UTIL]);
	tu_sim_free(sim);
	sim = tu_sim_kernel(m, "default", KV_6_6);
	assert_false(sched_cfs(sim));
	assert_int_equal(sim->tun->base_slice_ns, 1500000);
	tu_sim_free(sim);
	sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	assert_int_equal(sim->tun->base_slice_ns, 1400000);
	assert_false(sim->feat.on[__SCHED_FEAT_SIS_PROP]);
	tu_sim_free(sim);
}

/*
 * A has run alone on CPU 0 since t=0 when B, asleep for ever (vruntime 0,
 * no lag), wakes there at t. Does B preempt A?
 *  - CFS: B is placed at max(0, min_vruntime - 12/2 ms) = 0, so
 *    vdiff = t; it preempts iff t > wakeup_granularity = 2 ms.
 *  - EEVDF: B joins at V = t with deadline t + slice. A's first deadline is
 *    one slice after 0; before it, RUN_TO_PARITY keeps A; after it A's new
 *    deadline equals B's and the tie goes to the queued B: preempt iff
 *    t >= slice (1.4 ms mainline, 1.5 ms v6.6).
 */
static bool wake_preempts(int kver, u64 t)
{
	struct sim *sim = tu_sim_kernel(m, "default", kver);
	struct rq *rq = cpu_rq(sim, 0);

	tu_busy(sim, 0);
	struct task_struct *b = tu_task(sim, 0);

	sim->now = t;
	sim->this_cpu = 0;
	activate_task(sim, rq, b, ENQUEUE_WAKEUP);
	wakeup_preempt(sim, rq, b, WF_TTWU);
	bool preempt = rq->need_resched;

	if (kver < KV_6_6) {
		assert_int_equal(b->se.vruntime, 0);
		/* The preempting wakee is the next buddy (check_preempt_wakeup()). */
		assert_ptr_equal(rq->cfs.next, preempt ? &b->se : NULL);
	}
	tu_sim_free(sim);
	return preempt;
}

static void test_wakeup_preemption_per_kernel(void **state)
{
	(void)state;
	const struct {
		u64 t;
		bool v5_12, v6_4, v6_6, mainline;
	} rows[] = {
		{ 1200000, false, false, false, false },
		{ 1450000, false, false, false, true },
		{ 1600000, false, false, true, true },
		{ 2100000, true, true, true, true },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(wake_preempts(KV_5_12, rows[i].t), rows[i].v5_12);
		assert_int_equal(wake_preempts(KV_6_4, rows[i].t), rows[i].v6_4);
		assert_int_equal(wake_preempts(KV_6_6, rows[i].t), rows[i].v6_6);
		assert_int_equal(wake_preempts(KV_MAINLINE, rows[i].t), rows[i].mainline);
	}
}

/*
 * check_preempt_tick() with a nice-5 task (weight 335) running among 8
 * nice-0 tasks: 9 > sched_nr_latency, so the period is 9 x 1.5 = 13.5 ms
 * and A's slice 13.5 ms x 335 / (8 x 1024 + 335) = 530374 ns. After 1 ms
 * v5.12 preempts it; v6.4's BASE_SLICE raises the slice to 1.5 ms and a
 * task that ran less than min_granularity is left alone.
 */
static bool tick_preempts(int kver, u64 ran)
{
	struct sim *sim = tu_sim_kernel(m, "default", kver);
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_task(sim, 0);

	set_user_nice_new(a, 5);
	assert_int_equal(a->se.weight, 335);
	sim->this_cpu = 0;
	activate_task(sim, rq, a, ENQUEUE_WAKEUP);
	set_next_entity(sim, rq, &a->se);
	rq->curr = a;
	a->on_cpu = 1;
	rq->mode = CPU_MODE_RUNNING;
	for (int i = 0; i < 8; i++)
		activate_task(sim, rq, tu_task(sim, 0), ENQUEUE_WAKEUP);
	if (kver == KV_5_12)
		assert_int_equal(cfs_sched_slice(sim, &rq->cfs, &a->se), 530374);
	else
		assert_int_equal(cfs_sched_slice(sim, &rq->cfs, &a->se), 1500000);
	sim->now = ran;
	sim->this_cpu = 0;
	entity_tick(sim, rq);
	bool r = rq->need_resched;

	tu_sim_free(sim);
	return r;
}

static void test_tick_preemption_base_slice(void **state)
{
	(void)state;
	assert_false(tick_preempts(KV_5_12, 500000));
	assert_true(tick_preempts(KV_5_12, 1000000));
	assert_false(tick_preempts(KV_6_4, 1000000));
	assert_true(tick_preempts(KV_6_4, 1600000));
}

/*
 * Two nice-0 tasks: period 12 ms, 6 ms each. A runs from t=0 with B queued
 * at vruntime 0: at 5 ms A is 5 ms right of B, under its 6 ms slice, so it
 * keeps the CPU; past 6 ms of running it is preempted.
 */
static void test_tick_two_tasks(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(m, "default", KV_5_12);
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_busy(sim, 0), *b = tu_task(sim, 0);

	sim->this_cpu = 0;
	activate_task(sim, rq, b, ENQUEUE_WAKEUP);
	assert_int_equal(cfs_sched_slice(sim, &rq->cfs, &a->se), 6000000);
	sim->now = 5000000;
	entity_tick(sim, rq);
	assert_false(rq->need_resched);
	assert_int_equal(a->se.vruntime, 5000000);
	/* min_vruntime follows the leftmost, B at 0. */
	assert_int_equal(rq->cfs.min_vruntime, 0);
	sim->now = 6000001;
	entity_tick(sim, rq);
	assert_true(rq->need_resched);
	/* The pick after A is put back: B, the leftmost. */
	put_prev_entity(sim, rq, &a->se);
	assert_ptr_equal(pick_next_entity(sim, rq), &b->se);
	tu_sim_free(sim);
}

/*
 * place_entity(): a long sleeper gets latency/2 = 6 ms of credit behind
 * min_vruntime (12 ms with NO_GENTLE_FAIR_SLEEPERS); a short sleeper keeps
 * its own vruntime.
 */
static void test_sleeper_credit(void **state)
{
	(void)state;
	const char *feats[] = { "default", "NO_GENTLE_FAIR_SLEEPERS" };
	const u64 credit[] = { 6000000, 12000000 };

	for (int f = 0; f < 2; f++) {
		struct sim *sim = tu_sim_kernel(m, feats[f], KV_5_12);
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *a = tu_busy(sim, 0);
		struct task_struct *b = tu_task(sim, 0), *c = tu_task(sim, 0);

		sim->now = 20000000;
		sim->this_cpu = 0;
		entity_tick(sim, rq);
		assert_int_equal(a->se.vruntime, 20000000);
		assert_int_equal(rq->cfs.min_vruntime, 20000000);
		activate_task(sim, rq, b, ENQUEUE_WAKEUP);
		assert_int_equal(b->se.vruntime, 20000000 - credit[f]);
		c->se.vruntime = 19000000;
		activate_task(sim, rq, c, ENQUEUE_WAKEUP);
		assert_int_equal(c->se.vruntime, 19000000);
		tu_sim_free(sim);
	}
}

/*
 * A wake-up that migrates carries vruntime relative to min_vruntime: from
 * CPU 0 (min_vruntime 10 ms) at 10.5 ms to CPU 1 (min_vruntime 2 ms) it
 * arrives at 2.5 ms. A load-balance move (dequeue without DEQUEUE_SLEEP)
 * does the same.
 */
static void test_migration_renormalises(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(m, "default", KV_5_12);
	struct task_struct *p = tu_task(sim, 0);

	sim->rq[0].cfs.min_vruntime = 10000000;
	sim->rq[1].cfs.min_vruntime = 2000000;
	p->se.vruntime = 10500000;
	p->__state = TASK_WAKING;
	sim->this_cpu = 0;
	set_task_cpu(sim, p, 1);
	assert_int_equal((s64)p->se.vruntime, 500000);
	sim->this_cpu = 1;
	activate_task(sim, &sim->rq[1], p, ENQUEUE_WAKEUP);
	assert_int_equal(p->se.vruntime, 2500000);

	/* Balance: 1 -> 0 while queued. */
	p->__state = TASK_RUNNING;
	deactivate_task(sim, &sim->rq[1], p, 0);
	set_task_cpu(sim, p, 0);
	activate_task(sim, &sim->rq[0], p, 0);
	assert_int_equal(p->se.vruntime, 10500000);
	tu_sim_free(sim);
}

/*
 * A new task starts one virtual slice right of min_vruntime (START_DEBIT):
 * alone with its running parent the period is 12 ms over 2 tasks, 6 ms;
 * with NO_START_DEBIT it starts at the parent's vruntime.
 */
static void test_fork_start_debit(void **state)
{
	(void)state;
	const char *feats[] = { "default", "NO_START_DEBIT" };
	const u64 want[] = { 4000000 + 6000000, 4000000 };

	for (int f = 0; f < 2; f++) {
		struct sim *sim = tu_sim_kernel(m, feats[f], KV_5_12);
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *parent = tu_busy(sim, 0);

		sim->now = 4000000;
		sim->this_cpu = 0;
		struct task_struct *child = task_create(sim, "child", tu_nop_step, NULL, 1, parent);

		assert_non_null(child);
		cfs_task_fork(sim, child);
		assert_int_equal(child->se.vruntime + rq->cfs.min_vruntime, want[f]);
		tu_sim_free(sim);
	}
}

/*
 * Buddies: with 8 or more queued, a wake-up preemption marks the wakee
 * "next" and the preempted curr "last". The next pick returns the wakee;
 * once it is gone, the last buddy is picked over a leftmost less than a
 * wake-up granularity ahead of it.
 */
static void test_buddies(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(m, "default", KV_5_12);
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_busy(sim, 0), *w, *q[7];

	sim->this_cpu = 0;
	sim->now = 30000000;
	entity_tick(sim, rq);
	/* Seven tasks queued at 29 ms (short sleepers keep their vruntime). */
	for (int i = 0; i < 7; i++) {
		q[i] = tu_task(sim, 0);
		q[i]->se.vruntime = 29000000;
		activate_task(sim, rq, q[i], ENQUEUE_WAKEUP);
	}
	/* min_vruntime moved last at the tick (A alone, 30 ms): the wakee is
	 * placed at 30 - 6 = 24 ms, 6 ms left of A. */
	w = tu_task(sim, 0);
	activate_task(sim, rq, w, ENQUEUE_WAKEUP);
	assert_int_equal(w->se.vruntime, 24000000);
	assert_int_equal(rq->cfs.nr_queued, 9);
	wakeup_preempt(sim, rq, w, WF_TTWU);
	assert_true(rq->need_resched);
	assert_ptr_equal(rq->cfs.next, &w->se);
	assert_ptr_equal(rq->cfs.last, &a->se);

	put_prev_entity(sim, rq, &a->se);
	rq->curr = NULL;
	assert_ptr_equal(pick_next_entity(sim, rq), &w->se);
	assert_null(rq->cfs.next);
	assert_ptr_equal(rq->cfs.last, &a->se);
	/* w leaves; A (30 ms) is 1 ms right of the leftmost (29 ms), within
	 * the 2 ms granularity: the last buddy wins over the leftmost. */
	deactivate_task(sim, rq, w, DEQUEUE_SLEEP);
	assert_ptr_equal(pick_next_entity(sim, rq), &a->se);
	assert_null(rq->cfs.last);
	/* Buddies are used once: then the leftmost, the first queued at 29 ms. */
	assert_ptr_equal(pick_next_entity(sim, rq), &q[0]->se);
	tu_sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_wakeup_preemption_per_kernel),
		cmocka_unit_test(test_tick_preemption_base_slice),
		cmocka_unit_test(test_tick_two_tasks),
		cmocka_unit_test(test_sleeper_credit),
		cmocka_unit_test(test_migration_renormalises),
		cmocka_unit_test(test_fork_start_debit),
		cmocka_unit_test(test_buddies),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
