/*
 * trace.c - the ftrace text of trace.h.
 */
#include "trace.h"

#include <stdarg.h>
#include <string.h>

#include "hooks.h"

/*
 * Every this many events, a bounded trace estimates the whole run's size
 * from the workload's progress, to warn early that it will be cut.
 */
#define ESTIMATE_EVERY 4096

static void check_bound(struct sim *sim)
{
	struct ftrace *t = sim->trace;

	if (t->bytes >= t->max_bytes) {
		fprintf(t->f, "# wakesim: --trace-max-size %llu bytes reached at %.6f s of simulated "
			"time: no events after this line\n", (unsigned long long)t->max_bytes,
			(double)sim->now / 1e9);
		t->cut = true;
		t->cut_ns = sim->now;
		return;
	}
	if (!t->warned && t->nr % ESTIMATE_EVERY == 0 && sim->wl && sim->wl->ops->done_fraction) {
		double f = sim->wl->ops->done_fraction(sim, sim->wl);

		if (f >= 0.01 && (double)t->bytes / f > (double)t->max_bytes) {
			t->warned = true;
			t->estimate_bytes = (u64)((double)t->bytes / f);
			if (t->on_estimate)
				t->on_estimate(t);
		}
	}
}

/* sim->trace is set (the wrappers checked): is now in its window, under the bound? */
static bool on(struct sim *sim)
{
	struct ftrace *t = sim->trace;

	if (sim->now < t->from_ns || sim->now >= t->to_ns || t->cut)
		return false;
	if (t->max_bytes)
		check_bound(sim);
	return !t->cut;
}

/* fprintf() to the trace, counting its bytes for the bound. */
static void emit(struct sim *sim, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct sim *sim, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(sim->trace->f, fmt, ap);
	va_end(ap);
	if (n > 0)
		sim->trace->bytes += (u64)n;
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

	emit(sim, "%*.*s-%-7s [%03d] %s %5llu.%06llu: ", 16, comm_len, who,
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
	emit(sim, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 "
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
	emit(sim, "%s: comm=%s pid=%d prio=120 target_cpu=%03d\n",
		new ? "sched_wakeup_new" : "sched_wakeup", p->comm, p->pid, target_cpu);
}

void __trace_sched_waking(struct sim *sim, const struct task_struct *p)
{
	if (!on(sim))
		return;
	/* The waker's context: its CPU, or the wakee's for a timer. */
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : task_cpu(p);

	lead(sim, cpu, sim->rq[cpu].curr);
	emit(sim, "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n", p->comm,
		p->pid, task_cpu(p));
}

void __trace_sched_process_fork(struct sim *sim, const struct task_struct *parent,
				const struct task_struct *child)
{
	if (!on(sim))
		return;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : task_cpu(parent);

	lead(sim, cpu, sim->rq[cpu].curr);
	emit(sim, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d\n",
		parent->comm, parent->pid, child->comm, child->pid);
}

void __trace_sched_migrate_task(struct sim *sim, const struct task_struct *p, int orig, int dest)
{
	if (!on(sim))
		return;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : dest;

	lead(sim, cpu, sim->rq[cpu].curr);
	emit(sim, "sched_migrate_task: comm=%s pid=%d prio=120 orig_cpu=%d "
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
	emit(sim, "sched_process_exit: comm=%s pid=%d prio=120 group_dead=%s\n",
		p->comm, p->pid, group_dead ? "true" : "false");
}

void __trace_sched_select_rq(struct sim *sim, const struct task_struct *p,
			     const struct placement *pl, int dest, int examined, bool idle, int dist)
{
	if (!on(sim))
		return;
	/* Selection runs where the waker runs (or on prev, for a timer's wake-up). */
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : pl->prev;
	char reason[48];

	if (pl->reason == PR_POLICY && sim->cfg.policy)
		snprintf(reason, sizeof(reason), "policy:%s", sim->cfg.policy ? sim->cfg.policy->name : "mainline");
	else
		snprintf(reason, sizeof(reason), "%s", place_reason_name(pl->reason));
	lead(sim, cpu, sim->rq[cpu].curr);
	emit(sim, "sched_select_rq: comm=%s pid=%d prev_cpu=%d target_cpu=%d "
		"dest_cpu=%d affine=%s reason=%s examined=%d idle=%d sync=%d migrate=%s\n",
		p->comm, p->pid, pl->prev, pl->target, dest, place_affine_name(pl->affine), reason,
		examined, idle, pl->sync, place_dist_name(dist));
}

/*
 * sched_select_rq is wakesim's, not a kernel tracepoint: its format is
 * given in the header as tracefs gives a kernel event's (events/sched/
 * NAME/format), so that a consumer such as libtraceevent can parse it.
 */
static const char select_rq_format[] =
	"name: sched_select_rq\n"
	"ID: 65001\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_cpu;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] affine;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] reason;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:int examined;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:int idle;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\tfield:int sync;\toffset:44;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] migrate;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prev_cpu=%d target_cpu=%d dest_cpu=%d affine=%s reason=%s "
	"examined=%d idle=%d sync=%d migrate=%s\", __get_str(comm), REC->pid, REC->prev_cpu, "
	"REC->target_cpu, REC->dest_cpu, __get_str(affine), __get_str(reason), REC->examined, "
	"REC->idle, REC->sync, __get_str(migrate)\n";

void trace_write_header(FILE *f, u64 nr, int nr_cpus)
{
	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		(unsigned long long)nr, (unsigned long long)nr, nr_cpus);
	fputs("# sched_select_rq (wakesim's, not the kernel's): why select_task_rq() chose\n"
	      "# dest_cpu, written right before the sched_waking/sched_wakeup pair (or the\n"
	      "# sched_wakeup_new) it explains. affine: select_task_rq_fair()'s target step\n"
	      "# (wake_wide(), wake_affine()); reason: the branch that returned dest_cpu;\n"
	      "# examined: CPUs select_idle_sibling() scanned; idle: dest_cpu was idle;\n"
	      "# migrate: how far from prev_cpu (none, smt, cluster, llc, node, package,\n"
	      "# remote). Its format, as tracefs shows a kernel event's:\n", f);
	for (const char *l = select_rq_format; *l;) {
		size_t n = strcspn(l, "\n");

		fprintf(f, "#%s%.*s\n", n ? " " : "", (int)n, l);
		l += n + (l[n] == '\n');
	}
	fputs("#\n", f);
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", f);
}
