/*
 * abort.c - a policy that calls abort() in select_task_rq() once the run
 * is under way: wakesim must name the policy and the hook, not end with
 * status 134 and no word (tests/test_policy.c).
 */
#include <stdlib.h>

#include "wakesim/policy.h"

static int abort_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	(void)p;
	(void)wake_flags;
	if (sched_clock() > 1000000)
		abort();
	return prev_cpu;
}

WAKESIM_POLICY(.name = "abort", .select_task_rq = abort_select);
