/*
 * migrate.c - what a wake-up that moves its task reads and writes of the
 * CPU the task leaves, and what that CPU pays to take the task's load
 * back out of its averages. After try_to_wake_up() -> set_task_cpu() ->
 * migrate_task_rq_fair() and update_cfs_rq_load_avg(), kernel/sched/fair.c
 * and core.c, read at v5.12 (5.12.9), v6.4 and v6.12:
 *
 * - migrate_task_rq_fair(), CFS profiles only: the waking task's vruntime
 *   is made relative to the old cfs_rq's min_vruntime, read unlocked from
 *   the cfs_rq's first line (with its load and nr_running). v6.6 and later
 *   have no such step.
 * - remove_entity_load_avg(): sync_entity_load_avg() reads the old
 *   cfs_rq's avg.last_update_time (struct sched_avg is
 *   ____cacheline_aligned, so that is the line of the averages its CPU
 *   keeps writing), then under removed.lock adds the task's
 *   load, util and runnable averages to cfs_rq->removed, a line of its own
 *   (the lock ____cacheline_aligned).
 * - migrate_se_pelt_lag() (v6.0 on, CONFIG_NO_HZ_COMMON): for a task whose
 *   averages have not decayed to 0, reads the old rq's curr to see whether
 *   that CPU idles; only an idle one's clocks are read further (not
 *   modelled: the clock lines are not, and an idle CPU leaves them alone).
 * - Every update_cfs_rq_load_avg() reads removed.nr. The next one of the
 *   old cfs_rq (an enqueue, dequeue or tick on that CPU, a remote
 *   wake-up's locked enqueue there, with --cgroup a balancer's update of
 *   its blocked averages) finds it set, takes the lock, swaps the sums out
 *   and clears them: it writes the removed line back from the waker. An
 *   update writes the averages' line when it took load out or a 1024-ns
 *   step of the PELT clock passed (___update_load_sum() returns early
 *   before that).
 *
 * All these happen before the wake-up's claim of its new CPU (the
 * ttwu_pending write or the locked enqueue), so they lengthen the window
 * in which another wake-up can see that CPU idle.
 *
 * Not modelled: the task's own lines (p->se), which the wake-up writes
 * anyway; the group entity's averages one level up (--cgroup), which
 * follow the leaf's; the blocked-average updates of balancing in the root
 * group, which the model does not run (kern/tg.c's
 * update_blocked_averages() is there for the task group's line).
 */
#include "kernel.h"

/* load_avg_is_decayed(): nothing left of the task's sums. */
static bool avg_decayed(const struct sched_avg *sa)
{
	return !sa->load_sum && !sa->util_sum && !sa->runnable_sum;
}

void migrate_task_rq_lines(struct sim *sim, struct task_struct *p, int old)
{
	struct rq *rq = cpu_rq(sim, old);

	rq->cfs.removed_nr++;
	if (sim->this_cpu < 0)
		return;
	if (sched_cfs(sim))
		line_read(sim, &rq->cfs_line);
	line_read(sim, &rq->avg_line);
	line_write(sim, &rq->removed_line);
	if (kernel_profile(sim->tun->kver)->migrate_pelt_lag && !avg_decayed(&p->se.avg))
		line_read(sim, &rq->curr_line);
}

void cfs_avg_update_lines(struct sim *sim, struct rq *rq, bool moved)
{
	bool removed = rq->cfs.removed_nr;

	rq->cfs.removed_nr = 0;
	if (sim->this_cpu < 0)
		return;
	/* removed.nr is read at every update, written back when set. */
	if (removed)
		line_write(sim, &rq->removed_line);
	else
		line_read(sim, &rq->removed_line);
	if (removed || moved)
		line_write(sim, &rq->avg_line);
}
