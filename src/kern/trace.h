/*
 * trace.h - the sched tracepoints, written as ftrace text (the format of
 * /sys/kernel/tracing/trace, which trace-cmd users and Perfetto's systrace
 * importer read): sched_switch, sched_waking, sched_wakeup,
 * sched_wakeup_new, sched_migrate_task, sched_process_fork and
 * sched_process_exit, each with the print format of
 * include/trace/events/sched.h (as its tracefs format file shows it on
 * Linux 6.18). Lines are
 *   "<comm>-<pid> [<cpu>] <flags> <sec>.<usec>: <event>: <fields>",
 * current being the task running on that CPU ("<idle>-0" when none), at
 * the simulated time. Simplifications: the flags column is "d..2." for
 * every event, or "d.h2." (hardirq) for one in a timer's callback (no
 * other context flag is modelled), every task has prio
 * 120 (nice 0), and a task's pid is its wakesim task id.
 */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stdio.h>

#include "kernel.h"

struct ftrace {
	FILE *f;		/* events, in simulation order */
	u64 from_ns, to_ns;	/* only events in [from, to) are written */
	u64 nr;			/* events written */
	/*
	 * --trace-max-size: the events stop once they reach max_bytes (0: no
	 * bound), after a marker line; cut_ns is when (ns of simulated time).
	 */
	u64 max_bytes, bytes;
	bool cut;
	u64 cut_ns;
	/*
	 * Once, when the workload's progress puts the whole run's trace over
	 * the bound: estimate_bytes is that size, and on_estimate (if set) is
	 * told, so the user hears early, not at the end.
	 */
	bool warned;
	u64 estimate_bytes;
	void (*on_estimate)(const struct ftrace *t);
};

/* Writers of the events, when now is in the window (call through the wrappers). */
void __trace_sched_switch(struct sim *sim, int cpu, const struct task_struct *prev,
			  const struct task_struct *next);
void __trace_sched_wakeup(struct sim *sim, const struct task_struct *p, int target_cpu, bool new);
void __trace_sched_waking(struct sim *sim, const struct task_struct *p);
void __trace_sched_process_fork(struct sim *sim, const struct task_struct *parent,
				const struct task_struct *child);
void __trace_sched_migrate_task(struct sim *sim, const struct task_struct *p, int orig, int dest);
void __trace_sched_process_exit(struct sim *sim, const struct task_struct *p);
void __trace_sched_select_rq(struct sim *sim, const struct task_struct *p,
			     const struct placement *pl, int dest, int examined, bool idle, int dist);

/*
 * The tracepoints. They sit on the per-switch and per-wake-up paths: when
 * tracing is off (sim->trace NULL), they cost one test, inline, as a
 * static key does in the kernel.
 */
static inline void trace_sched_switch(struct sim *sim, int cpu, const struct task_struct *prev,
				      const struct task_struct *next)
{
	if (sim->trace)
		__trace_sched_switch(sim, cpu, prev, next);
}

static inline void trace_sched_wakeup(struct sim *sim, const struct task_struct *p, int target_cpu,
				      bool new)
{
	if (sim->trace)
		__trace_sched_wakeup(sim, p, target_cpu, new);
}

/*
 * try_to_wake_up() once p's state matched, before ttwu_runnable(): in the
 * waker's context (kernel/sched/core.c, v6.12).
 */
static inline void trace_sched_waking(struct sim *sim, const struct task_struct *p)
{
	if (sim->trace)
		__trace_sched_waking(sim, p);
}

/* kernel_clone() after copy_process(), before wake_up_new_task() (kernel/fork.c, v6.12). */
static inline void trace_sched_process_fork(struct sim *sim, const struct task_struct *parent,
					    const struct task_struct *child)
{
	if (sim->trace)
		__trace_sched_process_fork(sim, parent, child);
}

/*
 * select_task_rq()'s answer and why (kern/placement.h): wakesim's own
 * event, its format in the header. dest is the CPU chosen, examined the
 * CPUs scanned, idle whether dest was idle, dist its c2c class from prev.
 */
static inline void trace_sched_select_rq(struct sim *sim, const struct task_struct *p,
					 const struct placement *pl, int dest, int examined,
					 bool idle, int dist)
{
	if (sim->trace)
		__trace_sched_select_rq(sim, p, pl, dest, examined, idle, dist);
}

static inline void trace_sched_migrate_task(struct sim *sim, const struct task_struct *p, int orig,
					    int dest)
{
	if (sim->trace)
		__trace_sched_migrate_task(sim, p, orig, dest);
}

static inline void trace_sched_process_exit(struct sim *sim, const struct task_struct *p)
{
	if (sim->trace)
		__trace_sched_process_exit(sim, p);
}

/*
 * The header /sys/kernel/tracing/trace starts with: the tracer, the event
 * count and the CPU count (#P), and the column legend.
 */
void trace_write_header(FILE *f, u64 nr, int nr_cpus);

#endif
