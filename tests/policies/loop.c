/*
 * loop.c - a policy whose select_task_rq() never returns once the run is
 * under way: wakesim must end the run after the time limit of a hook call,
 * naming the policy and the hook, not hang (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static volatile int forever = 1;

static int loop_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	(void)p;
	(void)wake_flags;
	while (sched_clock() > 1000000 && forever)
		;
	return prev_cpu;
}

WAKESIM_POLICY(.name = "loop", .select_task_rq = loop_select);
