/*
 * misuse.c - mistakes a policy can make that wakesim must not pass over in
 * silence (tests/test_policy.c): a counter it never registered and a
 * misspelt feature are warned about once and the run goes on; a CPU
 * number outside the machine ends the run naming the hook and helper.
 */
#include "wakesim/policy.h"

static bool odd(int cpu)
{
	policy_counter_add(7, 1);
	if (sched_feat(SIS_UTILL))
		return false;
	if (sched_clock() > 2000000)
		return rq_idle(-3);
	return rq_idle(cpu);
}

WAKESIM_POLICY(.name = "misuse", .idle_cpu = odd);
