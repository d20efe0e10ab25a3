/*
 * trace.c - the ftrace text of trace.h.
 */
#include "trace.h"

#include <string.h>

/* sim->trace is set (the wrappers checked): is now in its window? */
static bool on(const struct sim *sim)
{
	return sim->now >= sim->trace->from_ns && sim->now < sim->trace->to_ns;
}

/*
 * The line's start: curr (the task running on cpu; NULL: idle), the CPU,
 * the context flags and the time. A timer's callback runs in hardirq
 * context: "d.h2.", the 'h' an importer reads as "the task shown did not
 * do this".
 */
static void lead(struct sim *sim, int cpu, const struct task_struct *curr)
{
	const char *flags = sim->in_irq ? "d.h2." : "d..2.";
	char who[40];

	if (curr)
		snprintf(who, sizeof(who), "%s-%d", curr->comm, curr->pid);
	else
		snprintf(who, sizeof(who), "<idle>-0");
	/* ftrace pads "comm-pid" so that the pid ends at column 24. */
	const char *dash = strrchr(who, '-');
	int comm_len = (int)(dash - who);

	/* ns2usecs() of kernel/trace/trace.h (v6.12): microseconds rounded to nearest. */
	unsigned long long us = (sim->now + 500) / 1000;

	fprintf(sim->trace->f, "%*.*s-%-7s [%03d] %s %5llu.%06llu: ", 16, comm_len, who,
		dash + 1, cpu, flags, us / 1000000, us % 1000000);
	sim->trace->nr++;
}

/* prev_state as the print format renders it: R, R+ (preempted), S, Z (no D: no
 * uninterruptible sleep is modelled). */
static const char *state_str(const struct task_struct *p)
{
	if (!p)
		return "R";
	switch (p->__state) {
	case TASK_RUNNING:
		return "R+";
	case TASK_INTERRUPTIBLE:
		return "S";
	case TASK_DEAD:
		return "Z";
	default:
		return "R";
	}
}

void __trace_sched_switch(struct sim *sim, int cpu, const struct task_struct *prev,
			  const struct task_struct *next)
{
	char idle[16];

	if (!on(sim))
		return;
	snprintf(idle, sizeof(idle), "swapper/%d", cpu);
	/* The line belongs to prev: it is the one running when it is written. */
	lead(sim, cpu, prev);
	fprintf(sim->trace->f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 "
		"prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n",
		prev ? prev->comm : idle, prev ? prev->pid : 0, state_str(prev),
		next ? next->comm : idle, next ? next->pid : 0);
}

void __trace_sched_wakeup(struct sim *sim, const struct task_struct *p, int target_cpu, bool new)
{
	if (!on(sim))
		return;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : target_cpu;

	lead(sim, cpu, sim->rq[cpu].curr);
	fprintf(sim->trace->f, "%s: comm=%s pid=%d prio=120 target_cpu=%03d\n",
		new ? "sched_wakeup_new" : "sched_wakeup", p->comm, p->pid, target_cpu);
}

void __trace_sched_waking(struct sim *sim, const struct task_struct *p)
{
	if (!on(sim))
		return;
	/* The waker's context: its CPU, or the wakee's for a timer. */
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : task_cpu(p);

	lead(sim, cpu, sim->rq[cpu].curr);
	fprintf(sim->trace->f, "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n", p->comm,
		p->pid, task_cpu(p));
}

void __trace_sched_process_fork(struct sim *sim, const struct task_struct *parent,
				const struct task_struct *child)
{
	if (!on(sim))
		return;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : task_cpu(parent);

	lead(sim, cpu, sim->rq[cpu].curr);
	fprintf(sim->trace->f, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d\n",
		parent->comm, parent->pid, child->comm, child->pid);
}

void __trace_sched_migrate_task(struct sim *sim, const struct task_struct *p, int orig, int dest)
{
	if (!on(sim))
		return;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : dest;

	lead(sim, cpu, sim->rq[cpu].curr);
	fprintf(sim->trace->f, "sched_migrate_task: comm=%s pid=%d prio=120 orig_cpu=%d "
		"dest_cpu=%d\n", p->comm, p->pid, orig, dest);
}

void __trace_sched_process_exit(struct sim *sim, const struct task_struct *p)
{
	bool group_dead = true;

	if (!on(sim))
		return;
	/* The last task of its address space takes the thread group with it. */
	for (int i = 0; i < sim->nr_tasks; i++) {
		const struct task_struct *t = sim->tasks[i];

		if (t != p && t->mm_id == p->mm_id && t->__state != TASK_DEAD)
			group_dead = false;
	}
	lead(sim, task_cpu(p), p);
	fprintf(sim->trace->f, "sched_process_exit: comm=%s pid=%d prio=120 group_dead=%s\n",
		p->comm, p->pid, group_dead ? "true" : "false");
}

void trace_write_header(FILE *f, u64 nr, int nr_cpus)
{
	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		(unsigned long long)nr, (unsigned long long)nr, nr_cpus);
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", f);
}
