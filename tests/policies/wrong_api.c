/*
 * wrong_api.c - a policy that claims a policy API version this wakesim
 * does not have, as an object built against another release would:
 * wakesim must refuse it (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static int stay(struct task_struct *p, int prev_cpu, int wake_flags)
{
	(void)p;
	(void)wake_flags;
	return prev_cpu;
}

const struct wakesim_policy wakesim_policy = {
	.api = WAKESIM_POLICY_API + 1, .name = "wrong-api", .select_task_rq = stay,
};
