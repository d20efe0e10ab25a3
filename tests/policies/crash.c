/*
 * crash.c - a policy that dereferences NULL in select_task_rq() once the
 * run is under way: wakesim must name the policy, not die silently
 * (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static int crash_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	(void)p;
	(void)wake_flags;
	if (sched_clock() > 1000000)
		return *(volatile int *)0;
	return prev_cpu;
}

WAKESIM_POLICY(.name = "crash", .select_task_rq = crash_select);
