/*
 * sis_cache.c - a proposal written from its LKML description in a few
 * lines: "SIS_CACHE" (Chen Yu, "sched/fair: Introduce SIS_CACHE", RFC,
 * 2023-09): when a task that sleeps briefly goes to sleep, its CPU stays
 * "cache hot" for it for its average sleep time; during that window the
 * idle-CPU search passes the CPU over for other tasks, so the sleeper
 * finds it idle, and its cache warm, when it wakes. The window is taken
 * only for sleeps shorter than the migration cost (a long sleeper's cache
 * is cold anyway). Told from the description: the patch itself was not
 * read (docs/writing-a-policy.md, section 7).
 */
#include "wakesim/policy.h"

struct reservation {
	uint64_t until;		/* ns */
	struct task_struct *owner;
};

static void cache_dequeue(int cpu, struct task_struct *p, int flags)
{
	struct reservation *r = cpu_data(cpu);

	if ((flags & DEQUEUE_SLEEP) && task_avg_sleep(p) < sched_tunable("migration_cost_ns"))
		*r = (struct reservation){ sched_clock() + task_avg_sleep(p), p };
}

static bool hot_for_another(int cpu, struct task_struct *p)
{
	const struct reservation *r = cpu_data(cpu);

	return r->owner != p && sched_clock() < r->until;
}

static bool cache_candidate(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	return !hot_for_another(cpu, p) && sis_candidate(p, which, cpu, prev_cpu, target);
}

static int cache_scan_cpu(struct task_struct *p, int cpu)
{
	return hot_for_another(cpu, p) ? -1 : __select_idle_cpu(cpu, p);
}

WAKESIM_POLICY(.name = "sis-cache", .summary = "SIS_CACHE: a short sleeper's CPU waits for it",
	       .dequeue_task = cache_dequeue, .sis_candidate = cache_candidate,
	       .sis_scan_cpu = cache_scan_cpu, .cpu_data_size = sizeof(struct reservation));
