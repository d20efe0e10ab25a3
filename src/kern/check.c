/*
 * check.c - invariants of the kernel model, checked after every event in
 * debug builds (-DWS_DEBUG: the sanitizer build of `make check`):
 *  - each runqueue's nr_running is its queued tasks plus a running curr,
 *    and its cfs_rq counts agree;
 *  - every task on a runqueue is on exactly one, the one task_cpu() names,
 *    and every task marked on_rq is found on it;
 *  - PELT averages stay within their bounds (util 0..1024 per task);
 *  - simulated time never goes backwards (also checked by the event loop).
 * A violation is a bug in wakesim, not in the input: it aborts with what
 * was found.
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernel.h"

static void fail(struct sim *sim, const char *what, int cpu, const struct task_struct *p)
{
	fprintf(stderr, "wakesim: invariant broken at %.9f s: %s (CPU %d, task %s/%d)\n",
		(double)sim->now / 1e9, what, cpu, p ? p->comm : "-", p ? p->pid : 0);
	abort();
}

void sim_check_invariants(struct sim *sim, u64 last_now)
{
	int on_rq_seen = 0, on_rq_marked = 0;

	if (sim->now < last_now)
		fail(sim, "time went backwards", -1, NULL);
	for (int c = 0; c < sim->nr_cpus; c++) {
		const struct rq *rq = &sim->rq[c];
		const struct cfs_rq *cfs = &rq->cfs;
		const struct task_struct *curr = cfs->curr ? task_of(cfs->curr) : NULL;
		unsigned int n = (unsigned int)cfs->nr_queue + (curr && curr->se.on_rq ? 1 : 0);

		if (rq->nr_running != n)
			fail(sim, "nr_running differs from the tasks queued and running", c, curr);
		if (cfs->nr_queued != n)
			fail(sim, "cfs_rq nr_queued differs from its tasks", c, curr);
		if (rq->curr && (!curr || rq->curr != curr))
			fail(sim, "rq->curr is not the cfs_rq's current entity", c, rq->curr);
		for (int i = 0; i < cfs->nr_queue; i++) {
			const struct task_struct *p = task_of(cfs->queue[i]);

			if (task_cpu(p) != c || !p->se.on_rq)
				fail(sim, "a queued task names another CPU or is not on_rq", c, p);
			if (p == curr)
				fail(sim, "curr is also in the queue", c, p);
		}
		on_rq_seen += (int)n;
	}
	for (int i = 0; i < sim->nr_tasks; i++) {
		const struct task_struct *p = sim->tasks[i];

		if (p->__state == TASK_DEAD)
			continue;
		on_rq_marked += p->se.on_rq ? 1 : 0;
		if (p->se.avg.util_avg > 1024)
			fail(sim, "util_avg above 1024", task_cpu(p), p);
		if (p->cpu < 0 || p->cpu >= sim->nr_cpus)
			fail(sim, "task_cpu() outside the machine", p->cpu, p);
	}
	if (on_rq_seen != on_rq_marked)
		fail(sim, "tasks marked on_rq and tasks found on runqueues differ", -1, NULL);
}
