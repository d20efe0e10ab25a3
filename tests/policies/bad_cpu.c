/*
 * bad_cpu.c - a policy that answers CPU -5: every answer is replaced by
 * the task's first allowed CPU, and wakesim says how often
 * (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static int bad_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	(void)p;
	(void)prev_cpu;
	(void)wake_flags;
	return -5;
}

WAKESIM_POLICY(.name = "bad-cpu", .select_task_rq = bad_select);
