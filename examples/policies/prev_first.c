/*
 * prev_first.c - the policy docs/writing-a-policy.md builds: "if the
 * wakee's previous CPU is idle, wake it there, whatever the waker's LLC".
 * Mainline may pull such a wake-up toward the waker (wake_affine()), into
 * another LLC, where its cache is cold; this keeps it home and skips the
 * search. Everything else is template.c, unchanged.
 */
#include "wakesim/policy.h"

static int prev_first_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
{
	/* The idea: a wake-up (not a fork) whose previous CPU is idle stays there. */
	if ((wake_flags & WF_TTWU) && cpumask_test_cpu(prev_cpu, task_cpus_ptr(p)) &&
	    available_idle_cpu(prev_cpu))
		return prev_cpu;
	/* Otherwise, mainline's path (template.c spells it out). */
	return select_task_rq_fair(p, prev_cpu, wake_flags);
}

WAKESIM_POLICY(.name = "prev-first", .summary = "an idle previous CPU wins, else mainline",
	       .select_task_rq = prev_first_select_task_rq);
