/*
 * tg.c - the price of one task group's load_avg, shared by every CPU.
 *
 * With CONFIG_FAIR_GROUP_SCHED a task in a cgroup (a systemd session
 * scope, a docker container) runs in a per-CPU group cfs_rq whose load
 * each CPU adds into the group's one atomic, tg->load_avg, kept on a cache
 * line of its own (struct task_group, kernel/sched/sched.h). After
 * kernel/sched/fair.c (v6.4 and v6.12):
 *
 * - update_tg_load_avg(): the atomic_long_add() of the cfs_rq's change,
 *   only when it moved by more than 1/64 of what it last added
 *   (tg_load_avg_contrib), and from v6.7 (1528c661c24b, "sched/fair:
 *   Ratelimit update to tg->load_avg"; the TG_LOAD_RATELIMIT switch) at
 *   most once per ms per cfs_rq. It runs after a load update that decayed
 *   (a PELT period crossed, or load removed by a wake-up migration away:
 *   update_cfs_rq_load_avg()) from enqueue, dequeue, the tick and
 *   set_next_entity() (UPDATE_TG), after an attach (a migrated task's
 *   enqueue) and a detach (a queued task moved by the balancer), and from
 *   update_blocked_averages().
 * - update_cfs_group() -> calc_group_shares(): an atomic_long_read() of it
 *   for each group entity enqueued, dequeued or ticked, one per level.
 *
 * So a migration costs two writes of a line every CPU reads on every
 * enqueue and dequeue. 1528c661c24b's message profiles the kernel before
 * it on a 224-CPU Sapphire Rapids: netperf UDP_RR with as many clients as
 * CPUs spends ~25% of its cycles in update_cfs_group() and ~16% in
 * update_load_avg(), mostly on tg->load_avg (docs/costs.md).
 *
 * What is modelled is the line and these accesses, levels deep
 * (--cgroup PATH: one per component). Not modelled: the group entities'
 * weights (calc_group_shares()'s result). With every task of the run in
 * the one group, each CPU's group entity is alone at each level, so the
 * pick inside the group is the flat one; the load balancer's load figures
 * are not rescaled to the group's shares. All levels are assumed to write
 * when the leaf does: each level's cfs_rq holds only the child's entity,
 * whose load follows the leaf's.
 */
#include <stdlib.h>

#include "kernel.h"

/* The /64 rule and, with TG_LOAD_RATELIMIT, the 1 ms rate limit; then the write at each level. */
void update_tg_load_avg(struct sim *sim, struct rq *rq)
{
	struct cfs_rq *cfs = &rq->cfs;
	int depth = (int)sim->tun->cgroup_depth;

	if (!depth)
		return;
	/* 0: never written (the kernel's clock is far past 1 ms by then). */
	if (sched_feat(TG_LOAD_RATELIMIT) && cfs->last_update_tg_load_avg &&
	    sim->now - cfs->last_update_tg_load_avg < NSEC_PER_MSEC)
		return;
	long delta = (long)cfs->avg.load_avg - (long)cfs->tg_load_avg_contrib;

	if (labs(delta) <= (long)(cfs->tg_load_avg_contrib / 64))
		return;
	for (int d = 0; d < depth; d++)
		sim->met.tg_load_ns += line_write(sim, &sim->tg_load_line[d]);
	cfs->tg_load_avg_contrib = cfs->avg.load_avg;
	cfs->last_update_tg_load_avg = sim->now;
	sim->met.tg_load_writes++;
}

/* After a load update with UPDATE_TG: decayed, or removed load to account. */
void __update_tg_load_avg_if(struct sim *sim, struct rq *rq, int decayed)
{
	if (rq->cfs.tg_removed) {
		rq->cfs.tg_removed = false;
		decayed = 1;
	}
	if (decayed)
		update_tg_load_avg(sim, rq);
}

void __update_cfs_group(struct sim *sim)
{
	int depth = (int)sim->tun->cgroup_depth;

	for (int d = 0; d < depth; d++)
		sim->met.tg_load_ns += line_read(sim, &sim->tg_load_line[d]);
}

void update_blocked_averages(struct sim *sim, struct rq *rq)
{
	if (!sim->tun->cgroup_depth)
		return;
	update_tg_load_avg_if(sim, rq, update_load_avg_se(sim, rq, NULL));
}
