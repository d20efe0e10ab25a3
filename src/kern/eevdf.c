/*
 * eevdf.c - the fair runqueue: EEVDF pick, placement and accounting, after
 * kernel/sched/fair.c of v6.12 (avg_vruntime(), entity_eligible(),
 * place_entity(), update_entity_lag(), update_curr(), update_deadline(),
 * pick_eevdf(), set_next_entity(), put_prev_entity()), plus the PELT and
 * util_est glue of enqueue/dequeue.
 *
 * The kernel keeps queued entities in an rbtree ordered by deadline and
 * augmented with subtree min_vruntime; we keep a small array per CPU and
 * scan it, which gives the same pick (earliest eligible deadline, ties to
 * the earliest enqueued) at the queue lengths simulated. DELAY_DEQUEUE
 * and DELAY_ZERO (v6.12): dequeue_entity_delayed(), pick_next_entity()'s
 * purge, requeue_delayed_entity(). Not modelled: custom slices, cgroups.
 */
#include <stdlib.h>

#include "kernel.h"
#include "pelt.h"

void cfs_rq_init(struct cfs_rq *cfs)
{
	*cfs = (struct cfs_rq){ 0 };
}

void cfs_rq_free(struct cfs_rq *cfs)
{
	free(cfs->queue);
	cfs->queue = NULL;
}

void timeline_add(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	if (cfs->nr_queue == cfs->cap_queue) {
		int ncap = cfs->cap_queue ? 2 * cfs->cap_queue : 8;
		struct sched_entity **q = realloc(cfs->queue, sizeof(*q) * (size_t)ncap);

		if (!q)
			abort(); /* the engine cannot continue without memory */
		cfs->queue = q;
		cfs->cap_queue = ncap;
	}
	se->rq_idx = cfs->nr_queue;
	se->enqueue_seq = sim->enqueue_seq++;
	cfs->queue[cfs->nr_queue++] = se;
	/* avg_vruntime_add(): queued entities' vruntimes do not move. */
	cfs->sum_wv += (__int128)(s64)(se->vruntime - cfs->zero_vruntime) * (s64)se->weight;
	cfs->sum_w += (long long)se->weight;
}

void timeline_del(struct cfs_rq *cfs, struct sched_entity *se)
{
	int i = se->rq_idx;

	cfs->queue[i] = cfs->queue[--cfs->nr_queue];
	cfs->queue[i]->rq_idx = i;
	se->rq_idx = -1;
	cfs->sum_wv -= (__int128)(s64)(se->vruntime - cfs->zero_vruntime) * (s64)se->weight;
	cfs->sum_w -= (long long)se->weight;
}

/* The sums with curr added when it is runnable. */
static void weighted_sums(const struct cfs_rq *cfs, __int128 *sum, long long *load)
{
	*sum = cfs->sum_wv;
	*load = cfs->sum_w;
	if (cfs->curr && cfs->curr->on_rq) {
		*sum += (__int128)(s64)(cfs->curr->vruntime - cfs->zero_vruntime) *
			(s64)cfs->curr->weight;
		*load += (long long)cfs->curr->weight;
	}
}

/*
 * V, the load-weighted average vruntime of the queued entities and of curr
 * while it is runnable, floored toward -inf. The queue's sums are kept
 * incrementally relative to zero_vruntime, which then moves to V
 * (update_zero_vruntime()), as the kernel does, so this is O(1).
 */
u64 avg_vruntime(struct cfs_rq *cfs)
{
	__int128 sum;
	long long load;
	s64 delta = 0;

	weighted_sums(cfs, &sum, &load);
	if (load) {
		__int128 q = sum / load;

		if (sum < 0 && q * load != sum)
			q--;
		delta = (s64)q;
	}
	cfs->sum_wv -= (__int128)cfs->sum_w * delta;
	cfs->zero_vruntime += (u64)delta;
	return cfs->zero_vruntime;
}

/*
 * entity_eligible(): lag >= 0, i.e. vruntime <= V, tested exactly as
 * sum(w * (v - ref)) >= (v_se - ref) * sum(w), without the division.
 */
bool entity_eligible(struct cfs_rq *cfs, struct sched_entity *se)
{
	__int128 sum;
	long long load;

	weighted_sums(cfs, &sum, &load);
	return sum >= (__int128)(s64)(se->vruntime - cfs->zero_vruntime) * load;
}

/* Runnable weight on the cfs_rq: queued entities plus a runnable curr. */
static unsigned long cfs_load(const struct cfs_rq *cfs)
{
	unsigned long load = (unsigned long)cfs->sum_w;

	if (cfs->curr && cfs->curr->on_rq)
		load += cfs->curr->weight;
	return load;
}

/* RUN_TO_PARITY: curr keeps the CPU until it gets a new deadline. */
static inline bool protect_slice(const struct sched_entity *se)
{
	return se->vprot == se->deadline;
}

/*
 * update_deadline(): once vruntime reaches the deadline, request a new
 * slice. Returns true if a new deadline was set.
 */
static bool update_deadline(struct sim *sim, struct sched_entity *se)
{
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;
	se->slice = sim->tun->base_slice_ns;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	return true;
}

/*
 * update_curr(): charge curr the time since exec_start. Returns true if it
 * reached its deadline while others are queued (the caller reschedules).
 */
bool update_curr(struct sim *sim, struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	struct sched_entity *curr = cfs->curr;

	if (!curr)
		return false;
	if (sched_cfs(sim))
		return cfs_update_curr(sim, rq);
	u64 now = rq_clock_task(sim, rq);

	if (now <= curr->exec_start)
		return false;
	u64 delta = now - curr->exec_start;

	curr->exec_start = now;
	curr->sum_exec_runtime += delta;
	curr->vruntime += calc_delta_fair(delta, curr);
	bool resched = update_deadline(sim, curr);

	return resched && cfs->nr_queued > 1;
}

/*
 * pick_eevdf(): the eligible entity with the earliest virtual deadline;
 * curr is kept while RUN_TO_PARITY protects it and it is eligible.
 */
struct sched_entity *pick_eevdf(struct sim *sim, struct cfs_rq *cfs)
{
	struct sched_entity *curr = cfs->curr, *best = NULL;

	if (cfs->nr_queued == 1)
		return curr && curr->on_rq ? curr : (cfs->nr_queue ? cfs->queue[0] : NULL);
	if (curr && (!curr->on_rq || !entity_eligible(cfs, curr)))
		curr = NULL;
	if (sched_feat(RUN_TO_PARITY) && curr && protect_slice(curr))
		return curr;
	for (int i = 0; i < cfs->nr_queue; i++) {
		struct sched_entity *se = cfs->queue[i];

		if (best && ((s64)(se->deadline - best->deadline) > 0 ||
			     (se->deadline == best->deadline && se->enqueue_seq > best->enqueue_seq)))
			continue;
		if (!entity_eligible(cfs, se))
			continue;
		best = se;
	}
	if (!best || (curr && (s64)(curr->deadline - best->deadline) < 0))
		best = curr;
	if (!best && cfs->nr_queue) {
		/* Nothing eligible can only come from rounding: take the earliest deadline. */
		best = cfs->queue[0];
		for (int i = 1; i < cfs->nr_queue; i++)
			if ((s64)(cfs->queue[i]->deadline - best->deadline) < 0)
				best = cfs->queue[i];
	}
	return best;
}

void entity_tick(struct sim *sim, struct rq *rq)
{
	if (!sched_cfs(sim)) {
		if (update_curr(sim, rq))
			resched_curr(sim, rq);
		return;
	}
	cfs_update_curr(sim, rq);
	if (rq->cfs.nr_queued > 1)
		cfs_check_preempt_tick(sim, rq);
}

/*
 * place_entity(): join at V minus the saved lag (inflated so the lag
 * survives our own weight joining the average), deadline one virtual
 * slice later (half a slice for a new task with PLACE_DEADLINE_INITIAL).
 */
static void place_entity(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se,
			 int flags)
{
	u64 vruntime = avg_vruntime(cfs);
	s64 lag = 0;

	se->slice = sim->tun->base_slice_ns;
	u64 vslice = calc_delta_fair(se->slice, se);

	if (sched_feat(PLACE_LAG) && cfs->nr_queued) {
		long long load = (long long)cfs_load(cfs);

		lag = se->vlag;
		if (!load)
			load = 1;
		lag = (s64)((__int128)lag * (load + (long long)se->weight) / load);
	}
	se->vruntime = vruntime - (u64)lag;
	if (se->rel_deadline) {
		/* PLACE_REL_DEADLINE: a migrated task keeps its relative deadline. */
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (sched_feat(PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/* update_entity_lag(): vlag = V - v, clamped to max(2 slices, a tick). */
static void update_entity_lag(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	u64 span = 2 * se->slice > sim->tun->tick_ns ? 2 * se->slice : sim->tun->tick_ns;
	s64 limit = (s64)calc_delta_fair(span, se);
	s64 lag = (s64)(avg_vruntime(cfs) - se->vruntime);

	if (lag > limit)
		lag = limit;
	if (lag < -limit)
		lag = -limit;
	se->vlag = lag;
}

/*
 * The final dequeue of a delayed sleeper (dequeue_entity() with
 * DEQUEUE_DELAYED, finish_delayed_dequeue_entity(), v6.12): its lag is
 * saved, clipped to 0 if positive (DELAY_ZERO); util_est left it when it
 * slept. Returns with the task off the runqueue.
 */
static void dequeue_delayed_at_pick(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	update_load_avg_se(sim, rq, se);
	update_entity_lag(sim, &rq->cfs, se);
	if (sched_feat(DELAY_ZERO) && se->vlag > 0)
		se->vlag = 0;
	account_entity_dequeue(sim, rq, se, 0);
	se->sched_delayed = false;
	rq_dequeued(sim, rq);
}

struct sched_entity *pick_next_entity(struct sim *sim, struct rq *rq)
{
	struct sched_entity *se;

	if (sched_cfs(sim))
		return cfs_pick_next_entity(sim, &rq->cfs);
	/* pick_task_fair(): a delayed sleeper picked is dequeued, and the pick retried. */
	while ((se = pick_eevdf(sim, &rq->cfs)) && se->sched_delayed)
		dequeue_delayed_at_pick(sim, rq, se);
	return se;
}

bool dequeue_entity_delayed(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	if (sched_cfs(sim) || !sched_feat(DELAY_DEQUEUE))
		return false;
	if (update_curr(sim, rq))
		resched_curr(sim, rq);
	if (entity_eligible(&rq->cfs, se))
		return false;
	/* dequeue_task_fair() still takes it out of util_est, as any sleeper. */
	dequeue_entity_load(sim, rq, se);
	if (sched_feat(UTIL_EST))
		util_est_update(&se->avg, rq->cpu_capacity);
	se->sched_delayed = true;
	return true;
}

void requeue_delayed_entity(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	struct cfs_rq *cfs = &rq->cfs;

	if (sched_feat(DELAY_ZERO)) {
		update_entity_lag(sim, cfs, se);
		if (se->vlag > 0) {
			/* Owed time: rejoin at V with a fresh deadline, itself left out of V. */
			cfs->nr_queued--;
			if (se != cfs->curr)
				timeline_del(cfs, se);
			se->vlag = 0;
			place_entity(sim, cfs, se, 0);
			if (se != cfs->curr)
				timeline_add(sim, cfs, se);
			cfs->nr_queued++;
		}
	}
	update_load_avg_se(sim, rq, se);
	se->sched_delayed = false;
	if (sched_feat(UTIL_EST))
		cfs->util_est += task_util_est_raw(&se->avg);
}

unsigned long task_util(const struct task_struct *p)
{
	return p->se.avg.util_avg;
}

unsigned long task_util_est(const struct task_struct *p)
{
	unsigned long est = task_util_est_raw(&p->se.avg);

	return est > p->se.avg.util_avg ? est : p->se.avg.util_avg;
}

/* The root cfs_rq's PELT brought to now (ns of its clock_task). */
static int cfs_avg_pelt(struct rq *rq, u64 now)
{
	struct cfs_rq *cfs = &rq->cfs;

	return pelt_update(&cfs->avg, now, cfs->load, cfs->nr_queued,
			   cfs->curr ? rq->cpu_capacity : 0, 1);
}

int update_load_avg_se(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	struct cfs_rq *cfs = &rq->cfs;
	u64 now = rq_clock_task(sim, rq);

	/* A delayed sleeper keeps its load (on_rq) but is not runnable (se_runnable()). */
	if (se)
		pelt_update(&se->avg, now, !!se->on_rq, se->on_rq && !se->sched_delayed,
			    cfs->curr == se ? rq->cpu_capacity : 0, se->weight);
	u64 last = cfs->avg.last_update_time;
	int decayed = cfs_avg_pelt(rq, now);

	cfs_avg_update_lines(sim, rq, cfs->avg.last_update_time != last);
	return decayed;
}

int cfs_avg_sync(struct sim *sim, struct rq *rq)
{
	return cfs_avg_pelt(rq, rq_clock_task(sim, rq));
}

/*
 * The load-tracking half of enqueue_entity(), common to EEVDF and CFS:
 * bring the blocked entity's signals up to now, attach a migrated one to
 * the cfs_rq (attach_entity_load_avg()), add its util_est.
 */
void enqueue_entity_load(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;

	pelt_update(&se->avg, rq_clock_task(sim, rq), 0, 0, 0, se->weight);
	int decayed = update_load_avg_se(sim, rq, NULL);

	if (flags & ENQUEUE_MIGRATED) {
		pelt_attach(&cfs->avg, &se->avg);
		/* DO_ATTACH's update_tg_load_avg() covers load removed before it. */
		cfs->tg_removed = false;
		update_tg_load_avg(sim, rq);
	} else {
		update_tg_load_avg_if(sim, rq, decayed);
	}
	update_cfs_group(sim);
	/* A delayed sleeper moved by the balancer is not in util_est (v6.12). */
	if (sched_feat(UTIL_EST) && !se->sched_delayed)
		cfs->util_est += task_util_est_raw(&se->avg);
}

/* account_entity_enqueue() and the queue insertion: se is on the rq. */
void account_entity_enqueue(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	cfs->load += se->weight;
	cfs->nr_queued++;
	if (se != cfs->curr)
		timeline_add(sim, cfs, se);
	se->on_rq = 1;
}

/* The load-tracking half of dequeue_entity(): update, then drop util_est. */
void dequeue_entity_load(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	struct cfs_rq *cfs = &rq->cfs;

	update_tg_load_avg_if(sim, rq, update_load_avg_se(sim, rq, se));
	update_cfs_group(sim);
	if (sched_feat(UTIL_EST) && !se->sched_delayed) {
		unsigned int est = task_util_est_raw(&se->avg);

		cfs->util_est = cfs->util_est > est ? cfs->util_est - est : 0;
	}
}

/* account_entity_dequeue() and the queue removal; util_est_update() on sleep. */
void account_entity_dequeue(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	struct cfs_rq *cfs = &rq->cfs;

	if (se != cfs->curr)
		timeline_del(cfs, se);
	se->on_rq = 0;
	cfs->load -= se->weight;
	cfs->nr_queued--;
	if ((flags & DEQUEUE_SLEEP) && sched_feat(UTIL_EST))
		util_est_update(&se->avg, rq->cpu_capacity);
}

void enqueue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	if (sched_cfs(sim)) {
		cfs_enqueue_entity(sim, rq, se, flags);
		return;
	}
	if (rq->cfs.curr && update_curr(sim, rq))
		resched_curr(sim, rq);
	enqueue_entity_load(sim, rq, se, flags);
	place_entity(sim, &rq->cfs, se, flags);
	account_entity_enqueue(sim, &rq->cfs, se);
}

void dequeue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags)
{
	if (sched_cfs(sim)) {
		cfs_dequeue_entity(sim, rq, se, flags);
		return;
	}
	if (update_curr(sim, rq))
		resched_curr(sim, rq);
	dequeue_entity_load(sim, rq, se);
	update_entity_lag(sim, &rq->cfs, se);
	if (!(flags & DEQUEUE_SLEEP)) {
		/* A migration keeps its deadline relative to vruntime. */
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	account_entity_dequeue(sim, rq, se, flags);
}

/* set_next_entity(): se leaves the queue to run; protect its slice. */
void set_next_entity(struct sim *sim, struct rq *rq, struct sched_entity *se)
{
	struct cfs_rq *cfs = &rq->cfs;

	if (se->on_rq) {
		timeline_del(cfs, se);
		update_tg_load_avg_if(sim, rq, update_load_avg_se(sim, rq, se));
		se->vprot = se->deadline;
	}
	cfs->curr = se;
	se->exec_start = rq_clock_task(sim, rq);
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* put_prev_entity(): curr stops running; a runnable one goes back in the queue. */
void put_prev_entity(struct sim *sim, struct rq *rq, struct sched_entity *prev)
{
	struct cfs_rq *cfs = &rq->cfs;

	if (prev->on_rq) {
		update_curr(sim, rq);
		update_load_avg_se(sim, rq, prev);
		timeline_add(sim, cfs, prev);
	}
	cfs->curr = NULL;
}

/*
 * cpu_util() of v6.12 without boost: the CPU's util_avg with p's
 * contribution removed (p is accounted here and moves away) or added
 * (p moves here), floored by util_est, capped at the CPU's capacity.
 */
unsigned long cpu_util(struct sim *sim, int cpu, struct task_struct *p, int dst_cpu)
{
	struct cfs_rq *cfs = &sim->rq[cpu].cfs;
	unsigned long util = cfs->avg.util_avg;
	unsigned long cap = sim->m->topo.cpu[cpu].capacity;

	if (!p)
		return cpu_util_cfs(sim, cpu);
	if (task_cpu(p) == cpu && dst_cpu != cpu)
		util = util > task_util(p) ? util - task_util(p) : 0;
	else if (task_cpu(p) != cpu && dst_cpu == cpu)
		util += task_util(p);
	if (sched_feat(UTIL_EST)) {
		unsigned long est = cfs->util_est;

		if (dst_cpu == cpu && task_cpu(p) != cpu)
			est += task_util_est(p);
		else if (task_cpu(p) == cpu && dst_cpu != cpu && p->se.on_rq)
			est = est > task_util_est(p) ? est - task_util_est(p) : 0;
		if (est > util)
			util = est;
	}
	return util < cap ? util : cap;
}
