/*
 * test_delay_dequeue.c - DELAY_DEQUEUE and DELAY_ZERO of the mainline
 * profile (kernel/sched/fair.c and core.c, v6.12), on hand-built runqueues
 * of ideal-2cpu (nice-0 tasks, weight 1024):
 * - a sleeper with negative lag (vruntime above V) stays queued and
 *   counted, sched_delayed; one with lag >= 0 leaves at once;
 * - a pick never returns it while it is not eligible; once a pick would
 *   choose it, it is dequeued for real, its positive lag clipped to 0;
 * - its wake-up requeues it in place: no CPU selection, no migration, and
 *   with DELAY_ZERO a positive lag rejoins at V with a fresh deadline;
 * - the v6.6 profile has neither.
 */
#include "testutil.h"

#define NOW (10 * NSEC_PER_MSEC)

static struct machine *m;

static int setup(void **state)
{
	(void)state;
	m = tu_machine("tests/data/ideal-2cpu.json");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_machine_free(m);
	return 0;
}

/* Set a queued (not running) entity's vruntime, keeping the queue's sums. */
static void set_vruntime(struct sim *sim, struct rq *rq, struct sched_entity *se, u64 v)
{
	timeline_del(&rq->cfs, se);
	se->vruntime = v;
	timeline_add(sim, &rq->cfs, se);
}

/*
 * CPU 0 runs a and has b queued; a's vruntime is 2000 above b's, so V is
 * b's + 1000 and a's lag is -1000: not eligible. Returns the sim.
 */
static struct sim *scene(int kver, struct task_struct **a, struct task_struct **b)
{
	struct sim *sim = tu_sim_kernel(m, "default", kver);
	struct rq *rq = &sim->rq[0];

	sim->now = NOW;
	*a = tu_busy(sim, 0);
	*b = tu_task(sim, 0);
	(*b)->__state = TASK_RUNNING;
	sim->this_cpu = 0;
	activate_task(sim, rq, *b, ENQUEUE_WAKEUP);
	(*a)->se.exec_start = NOW;
	(*a)->se.vruntime = (*b)->se.vruntime + 2000;
	(*a)->se.deadline = (*a)->se.vruntime + 100000;
	assert_false(entity_eligible(&rq->cfs, &(*a)->se));
	assert_int_equal(avg_vruntime(&rq->cfs), (*b)->se.vruntime + 1000);
	return sim;
}

/* a sleeps: it is delayed, still queued and counted; the pick takes b. */
static void test_sleeper_with_negative_lag_stays(void **state)
{
	(void)state;
	struct task_struct *a, *b;
	struct sim *sim = scene(KV_MAINLINE, &a, &b);
	struct rq *rq = &sim->rq[0];

	a->__state = TASK_INTERRUPTIBLE;
	deactivate_task(sim, rq, a, DEQUEUE_SLEEP);
	assert_true(a->se.sched_delayed);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(rq->nr_running, 2);
	assert_int_equal(rq->cfs.nr_queued, 2);
	put_prev_entity(sim, rq, &a->se);
	rq->curr = NULL;
	assert_ptr_equal(pick_next_entity(sim, rq), &b->se);
	assert_true(a->se.sched_delayed);
	assert_int_equal(rq->nr_running, 2);

	/*
	 * Its wake-up (from CPU 1) requeues it where it is: no placement, no
	 * move, the negative lag kept (vruntime unchanged), counted once, as
	 * a wake-up onto its previous CPU.
	 */
	u64 v = a->se.vruntime;

	sim->this_cpu = 1;
	assert_int_equal(try_to_wake_up(sim, a, WF_SYNC), 1);
	assert_int_equal(a->__state, TASK_RUNNING);
	assert_false(a->se.sched_delayed);
	assert_int_equal(task_cpu(a), 0);
	assert_int_equal(a->se.vruntime, v);
	assert_int_equal(sim->met.wakeups, 1);
	assert_int_equal(sim->met.wake_requeued, 1);
	/* On its previous CPU, not the waker's, busy, in the waker's LLC (the only one). */
	assert_int_equal(sim->met.wake_prev_cpu, 1);
	assert_int_equal(sim->met.wake_waker_cpu, 0);
	assert_int_equal(sim->met.wake_idle, 0);
	assert_int_equal(sim->met.wake_cross_llc, 0);
	uint64_t placed = 0;

	for (int r = 0; r < PR_NR; r++)
		placed += sim->met.place_reason[r];
	assert_int_equal(placed, 0);
	assert_int_equal(rq->nr_running, 2);
	tu_sim_free(sim);
}

/* A lone sleeper has lag 0 (V is its own vruntime): dequeued at once. */
static void test_eligible_sleeper_leaves(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct task_struct *c = tu_busy(sim, 1);
	struct rq *rq = &sim->rq[1];

	c->__state = TASK_INTERRUPTIBLE;
	sim->this_cpu = 1;
	deactivate_task(sim, rq, c, DEQUEUE_SLEEP);
	assert_false(c->se.sched_delayed);
	assert_int_equal(c->se.on_rq, 0);
	assert_int_equal(rq->nr_running, 0);
	tu_sim_free(sim);
}

/* a sleeps, delayed, and is switched out; b's vruntime then moves 4000 above a's. */
static void sleep_behind(struct sim *sim, struct rq *rq, struct task_struct *a, struct task_struct *b)
{
	a->__state = TASK_INTERRUPTIBLE;
	deactivate_task(sim, rq, a, DEQUEUE_SLEEP);
	put_prev_entity(sim, rq, &a->se);
	rq->curr = NULL;
	set_vruntime(sim, rq, &b->se, a->se.vruntime + 4000);
}

/*
 * a delayed, then b's vruntime moves 4000 above a's: V is a's + 2000, a
 * is eligible with the earlier deadline, so the pick would choose it: it
 * is dequeued for real (nr_running 1), its lag +2000 clipped to 0
 * (DELAY_ZERO), and the pick goes on to b.
 */
static void test_purged_when_picked(void **state)
{
	(void)state;
	struct task_struct *a, *b;
	struct sim *sim = scene(KV_MAINLINE, &a, &b);
	struct rq *rq = &sim->rq[0];

	sleep_behind(sim, rq, a, b);
	b->se.deadline = a->se.deadline + 1;
	assert_true(entity_eligible(&rq->cfs, &a->se));
	assert_ptr_equal(pick_next_entity(sim, rq), &b->se);
	assert_int_equal(a->se.on_rq, 0);
	assert_false(a->se.sched_delayed);
	assert_int_equal(a->se.vlag, 0);
	assert_int_equal(rq->nr_running, 1);
	assert_int_equal(rq->cfs.nr_queued, 1);
	tu_sim_free(sim);
}

/*
 * a delayed; b then moves 4000 above it, so a's lag is +2000 when it
 * wakes: with DELAY_ZERO it rejoins at V (b's vruntime, a left out of the
 * average) with a fresh deadline, V + base slice (a nice-0 slice is its
 * virtual slice).
 */
static void test_requeue_with_positive_lag(void **state)
{
	(void)state;
	struct task_struct *a, *b;
	struct sim *sim = scene(KV_MAINLINE, &a, &b);
	struct rq *rq = &sim->rq[0];

	sleep_behind(sim, rq, a, b);
	sim->this_cpu = 1;
	assert_int_equal(try_to_wake_up(sim, a, 0), 1);
	assert_int_equal(a->se.vruntime, b->se.vruntime);
	assert_int_equal(a->se.deadline, a->se.vruntime + sim->tun->base_slice_ns);
	assert_int_equal(task_cpu(a), 0);
	tu_sim_free(sim);
}

/* v6.6 has no DELAY_DEQUEUE: the same sleeper leaves its queue at once. */
static void test_not_before_v6_12(void **state)
{
	(void)state;
	struct task_struct *a, *b;
	struct sim *sim = scene(KV_6_6, &a, &b);
	struct rq *rq = &sim->rq[0];

	a->__state = TASK_INTERRUPTIBLE;
	deactivate_task(sim, rq, a, DEQUEUE_SLEEP);
	assert_false(a->se.sched_delayed);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(rq->nr_running, 1);
	tu_sim_free(sim);
}

/*
 * Found by a run: a new-idle pull of a delayed sleeper, purged by the
 * pick, left need_resched set on a CPU that then went idle; the next
 * wake-up onto it sent no IPI and the run deadlocked (hackbench on one
 * Kunpeng node, 4 groups, 300 loops).
 */
static void test_idle_cpu_starts_without_resched(void **state)
{
	(void)state;
	char out[8192];

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --node 0 -- "
			       "hackbench -g 4 -l 300 -p", tu_wakesim()), 0);
	assert_non_null(strstr(out, "wake_requeued_pct"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeper_with_negative_lag_stays),
		cmocka_unit_test(test_eligible_sleeper_leaves),
		cmocka_unit_test(test_purged_when_picked),
		cmocka_unit_test(test_requeue_with_positive_lag),
		cmocka_unit_test(test_not_before_v6_12),
		cmocka_unit_test(test_idle_cpu_starts_without_resched),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
