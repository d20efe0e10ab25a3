/*
 * sync_stack.c - an upper bound, not a proposal: every sync wake-up
 * (WF_SYNC: a pipe's or a socket's reader woken by the writer) from a CPU
 * running only its waker goes to that CPU, with no other check. That is
 * where SIS_SHORT (S4, examples/policies/sis_short.c) puts a short pair
 * once its hook is reached, so a comparison against mainline says what
 * SIS_SHORT could give at most on a machine and load: the stacked regime
 * of request/response pairs, each pair on one CPU (docs/fidelity.md,
 * "S4's two regimes").
 */
#include "wakesim/policy.h"

static int sync_stack_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int this_cpu = smp_processor_id();

	/* A timer's wake-up runs on no CPU (-1); a fork is not a wake-up. */
	if ((wake_flags & WF_TTWU) && (wake_flags & WF_SYNC) && this_cpu >= 0 &&
	    cpumask_test_cpu(this_cpu, task_cpus_ptr(p)) && rq_nr_running(this_cpu) == 1)
		return this_cpu;
	return select_task_rq_fair(p, prev_cpu, wake_flags);
}

WAKESIM_POLICY(.name = "sync-stack",
	       .summary = "every sync wake-up on its lone waker's CPU: SIS_SHORT's upper bound",
	       .select_task_rq = sync_stack_select_task_rq);
