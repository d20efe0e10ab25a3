/*
 * hier.c - the per-CPU lines of a task's group hierarchy, which every
 * enqueue and dequeue writes level by level.
 *
 * With CONFIG_FAIR_GROUP_SCHED a task in a group (a session's autogroup,
 * a cgroup) is queued on its group's cfs_rq of the CPU, and that cfs_rq
 * is the queue of a group sched_entity on the parent's cfs_rq, up to the
 * root. enqueue_task_fair() and dequeue_task_fair() (kernel/sched/fair.c,
 * v5.12 to v6.12) walk that chain: at each level the group's cfs_rq has
 * its h_nr_running changed (and, when its entity joins or leaves the
 * parent, the entity is enqueued or dequeued there), update_load_avg()
 * brings the group entity's and the cfs_rq's struct sched_avg up to now,
 * se_update_runnable() sets the group entity's runnable_weight, and
 * update_cfs_group() reweights it (reweight_entity()) when the group's
 * share on this CPU moved. So each level writes five lines of the CPU's
 * (struct cfs_rq and struct sched_entity, kernel/sched/sched.h and
 * include/linux/sched.h): the cfs_rq's counts (load, nr_running,
 * h_nr_running, curr), its struct sched_avg (____cacheline_aligned), the
 * entity's first line (load, run_node, on_rq), its runnable_weight (past
 * the exec statistics and the parent pointers, two lines in) and its
 * struct sched_avg (____cacheline_aligned). A remote waker that enqueues
 * under the CPU's lock takes each of them from the CPU that last wrote
 * it, so they lengthen the section that other wakers spin on.
 *
 * Who else writes them, on the CPU's own paths: pick_next_task_fair()'s
 * put_prev_entity() and set_next_entity() on the leaf cfs_rq (its curr
 * and its average: a task switch within one group goes no higher), and
 * entity_tick() at every level (update_curr() on the cfs_rq,
 * update_load_avg() on the entity and the cfs_rq, update_cfs_group() on
 * the entity's weight). The root cfs_rq's lines are rq->cfs_line and
 * rq->avg_line (kern/sched.h); with no group (cgroup_depth 0) nothing
 * here is written.
 */
#include <stdlib.h>

#include "kernel.h"

/* A level's lines, in the order above. */
enum { GRP_CFS, GRP_AVG, GRP_SE_LOAD, GRP_SE_RUNNABLE, GRP_SE_AVG, GRP_LINES };

int group_lines_alloc(struct sim *sim)
{
	size_t n = (size_t)sim->nr_cpus * sim->tun->cgroup_depth * GRP_LINES;

	if (!n)
		return 0;
	sim->grp_lines = calloc(n, sizeof(*sim->grp_lines));
	if (!sim->grp_lines)
		return -1;
	for (size_t i = 0; i < n; i++)
		cacheline_init(&sim->grp_lines[i]);
	sim->grp_depth = (int)sim->tun->cgroup_depth;
	return 0;
}

/* Level d's lines (0: the root's child) of rq's CPU. */
static struct cacheline *level_lines(struct sim *sim, const struct rq *rq, int d)
{
	return &sim->grp_lines[((size_t)rq->cpu * (size_t)sim->grp_depth + (size_t)d) * GRP_LINES];
}

/*
 * Write the lines in mask (bits of GRP_*) of levels first..deepest. The
 * levels priced are those of sim_init()'s depth, for which the lines were
 * made (a test may deepen the group after it, for tg.c's line only).
 */
static void write_levels(struct sim *sim, struct rq *rq, int first, unsigned int mask)
{
	if (sim->this_cpu < 0 || !sim->grp_depth)
		return;
	for (int d = sim->grp_depth - 1; d >= first; d--) {
		struct cacheline *l = level_lines(sim, rq, d);

		for (int i = 0; i < GRP_LINES; i++)
			if (mask & (1u << i))
				line_write(sim, &l[i]);
	}
}

#define GRP_ALL ((1u << GRP_LINES) - 1)

void group_lines_enqueue(struct sim *sim, struct rq *rq)
{
	write_levels(sim, rq, 0, GRP_ALL);
}

void group_lines_pick(struct sim *sim, struct rq *rq)
{
	write_levels(sim, rq, sim->grp_depth - 1, 1u << GRP_CFS | 1u << GRP_AVG);
}

void group_lines_tick(struct sim *sim, struct rq *rq)
{
	write_levels(sim, rq, 0, GRP_ALL & ~(1u << GRP_SE_RUNNABLE));
}
