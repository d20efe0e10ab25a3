/*
 * recurse.c - a hook that calls the fast path it is part of, which calls
 * the hook again, without end: the stack overflows, and wakesim must
 * still name the policy and the hook (its crash handler runs on a stack
 * of its own) (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static bool again(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	(void)which;
	(void)cpu;
	return select_idle_sibling(p, prev_cpu, target) >= 0;
}

WAKESIM_POLICY(.name = "recurse", .sis_candidate = again);
