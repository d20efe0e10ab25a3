/*
 * cfs.c - the fair runqueue of the CFS kernels (--kernel v5.12, v6.4),
 * which EEVDF replaced in v6.6: vruntime order, min_vruntime, sleeper
 * credit and start debit, wake-up and tick preemption by granularity, and
 * the last/next buddies. After kernel/sched/fair.c of v5.12
 * (update_min_vruntime(), sched_slice(), place_entity(), enqueue_entity(),
 * dequeue_entity(), check_preempt_tick(), pick_next_entity(),
 * wakeup_preempt_entity(), check_preempt_wakeup(), task_fork_fair(),
 * migrate_task_rq_fair()) with v6.4's BASE_SLICE floor.
 *
 * The queue is eevdf.c's array (the kernel's rbtree ordered by vruntime);
 * ties go to the earlier enqueued entity, as the tree puts an equal key to
 * the right. sched_slice() divides exactly instead of with __calc_delta()'s
 * 32-bit inverse weights (a difference below 1 ns per ms). Not modelled:
 * the skip buddy (nothing yields), NEXT_BUDDY (off in both versions), the
 * v6.3 reset of vruntime for entities asleep over 2^53 ns, SCHED_IDLE.
 */
#include "kernel.h"

/* entity_before(): a is left of b in the timeline. */
static bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	s64 d = (s64)(a->vruntime - b->vruntime);

	return d < 0 || (d == 0 && a->enqueue_seq < b->enqueue_seq);
}

/* __pick_first_entity(): the queued entity with the smallest vruntime. */
static struct sched_entity *leftmost(const struct cfs_rq *cfs)
{
	struct sched_entity *left = NULL;

	for (int i = 0; i < cfs->nr_queue; i++)
		if (!left || entity_before(cfs->queue[i], left))
			left = cfs->queue[i];
	return left;
}

/*
 * update_min_vruntime(): min_vruntime follows the smaller of a runnable
 * curr's and the leftmost's vruntime, and never goes backwards.
 */
static void update_min_vruntime(struct cfs_rq *cfs)
{
	struct sched_entity *curr = cfs->curr, *left = leftmost(cfs);
	u64 v = cfs->min_vruntime;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (curr)
		v = curr->vruntime;
	if (left && (!curr || (s64)(left->vruntime - v) < 0))
		v = left->vruntime;
	if ((s64)(v - cfs->min_vruntime) > 0)
		cfs->min_vruntime = v;
}

bool cfs_update_curr(struct sim *sim, struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *curr = cfs->curr;

	u64 now = rq_clock_task(sim, rq);

	if (!curr || now <= curr->exec_start)
		return false;
	u64 delta = now - curr->exec_start;

	curr->exec_start = now;
	curr->sum_exec_runtime += delta;
	curr->vruntime += calc_delta_fair(delta, curr);
	update_min_vruntime(cfs);
	return false;
}

static unsigned int sched_nr_latency(const struct sched_tunables *t)
{
	u64 n = (t->sched_latency_ns + t->min_granularity_ns - 1) / t->min_granularity_ns;

	return n ? (unsigned int)n : 1;
}

u64 cfs_sched_slice(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	const struct sched_tunables *t = sim->tun;
	unsigned int nr = cfs->nr_queued + !se->on_rq;
	unsigned long load = cfs->load + (se->on_rq ? 0 : se->weight);
	/* __sched_period(): stretch the latency once more than
	 * sched_nr_latency entities share it. */
	u64 period = nr > sched_nr_latency(t) ? nr * t->min_granularity_ns : t->sched_latency_ns;
	u64 slice = load ? (u64)((unsigned __int128)period * se->weight / load) : period;

	/* BASE_SLICE (v5.13+): never below min_granularity. */
	if (kernel_profile(t->kver)->base_slice_floor && slice < t->min_granularity_ns)
		slice = t->min_granularity_ns;
	return slice;
}

/*
 * place_entity(): a waking entity gets at most half a latency period of
 * sleeper credit behind min_vruntime (GENTLE_FAIR_SLEEPERS; a whole one
 * without); a new one starts a virtual slice after it (START_DEBIT). An
 * entity already further right keeps its vruntime.
 */
static void place_entity(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se,
			 bool initial)
{
	u64 v = cfs->min_vruntime;

	if (initial && sched_feat(START_DEBIT))
		v += calc_delta_fair(cfs_sched_slice(sim, cfs, se), se);
	if (!initial) {
		u64 thresh = sim->tun->sched_latency_ns;

		if (sched_feat(GENTLE_FAIR_SLEEPERS))
			thresh /= 2;
		v -= thresh;
	}
	if ((s64)(v - se->vruntime) > 0)
		se->vruntime = v;
}

void cfs_task_fork(struct sim *sim, struct task_struct *p)
{
	struct rq *rq = cpu_rq(sim, task_cpu(p));
	struct cfs_rq *cfs = &rq->cfs;

	cfs_update_curr(sim, rq);
	p->se.vruntime = cfs->curr ? cfs->curr->vruntime : 0;
	place_entity(sim, cfs, &p->se, true);
	/* Relative until the enqueue on whichever CPU the fork picks. */
	p->se.vruntime -= cfs->min_vruntime;
}

void cfs_migrate_task_rq(struct sim *sim, struct task_struct *p)
{
	if (p->__state == TASK_WAKING)
		p->se.vruntime -= sim->rq[task_cpu(p)].cfs.min_vruntime;
}

void cfs_enqueue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;
	/* Relative vruntimes: a migrated wake-up (cfs_migrate_task_rq()), a
	 * balance move (dequeued without DEQUEUE_SLEEP), a fork. */
	bool renorm = !(flags & ENQUEUE_WAKEUP) || (flags & ENQUEUE_MIGRATED);

	cfs_update_curr(sim, rq);
	if (renorm)
		se->vruntime += cfs->min_vruntime;
	enqueue_entity_load(sim, rq, se, flags);
	if (flags & ENQUEUE_WAKEUP)
		place_entity(sim, cfs, se, false);
	account_entity_enqueue(sim, cfs, se);
}

static void clear_buddies(struct cfs_rq *cfs, struct sched_entity *se)
{
	if (cfs->last == se)
		cfs->last = NULL;
	if (cfs->next == se)
		cfs->next = NULL;
}

void cfs_dequeue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;

	cfs_update_curr(sim, rq);
	dequeue_entity_load(sim, rq, se);
	clear_buddies(cfs, se);
	account_entity_dequeue(sim, rq, se, flags);
	if (!(flags & DEQUEUE_SLEEP))
		se->vruntime -= cfs->min_vruntime;
	update_min_vruntime(cfs);
}

/*
 * wakeup_preempt_entity(): 1 if se is more than a wake-up granularity
 * (in se's virtual time) left of curr, -1 if it is not left of it at all.
 */
static int wakeup_preempt_entity(struct sim *sim, const struct sched_entity *curr,
				 const struct sched_entity *se)
{
	s64 vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	if (vdiff > (s64)calc_delta_fair(sim->tun->wakeup_granularity_ns, se))
		return 1;
	return 0;
}

struct sched_entity *cfs_pick_next_entity(struct sim *sim, struct cfs_rq *cfs)
{
	struct sched_entity *left = leftmost(cfs), *curr = cfs->curr, *se;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (!left || (curr && entity_before(curr, left)))
		left = curr;
	se = left;
	/* Give the CPU back to a task a wake-up preempted, then to the wakee,
	 * as long as neither is a granularity behind the leftmost. */
	if (cfs->last && wakeup_preempt_entity(sim, cfs->last, left) < 1)
		se = cfs->last;
	if (cfs->next && wakeup_preempt_entity(sim, cfs->next, left) < 1)
		se = cfs->next;
	if (se)
		clear_buddies(cfs, se);
	return se;
}

void cfs_check_preempt_wakeup(struct sim *sim, struct rq *rq, struct task_struct *p)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *se = &rq->curr->se;
	bool scale = cfs->nr_queued >= sched_nr_latency(sim->tun);

	cfs_update_curr(sim, rq);
	if (wakeup_preempt_entity(sim, se, &p->se) != 1)
		return;
	cfs->next = &p->se;
	resched_curr(sim, rq);
	if (se->on_rq && scale && sched_feat(LAST_BUDDY))
		cfs->last = se;
}

void cfs_check_preempt_tick(struct sim *sim, struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *curr = cfs->curr;
	u64 ideal = cfs_sched_slice(sim, cfs, curr);
	u64 ran = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;

	if (ran > ideal) {
		resched_curr(sim, rq);
		clear_buddies(cfs, curr);
		return;
	}
	/* Let a task that just got the CPU run a little before it yields it
	 * to one that is merely further left. */
	if (ran < sim->tun->min_granularity_ns)
		return;
	struct sched_entity *left = leftmost(cfs);

	if (left && (s64)(curr->vruntime - left->vruntime) > (s64)ideal)
		resched_curr(sim, rq);
}
