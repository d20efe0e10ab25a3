/*
 * bad_affine.c - a decision hook answering a CPU the machine does not
 * have: the run ends naming the policy and hook before the kernel model
 * uses it (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static int far_away(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		    int sync)
{
	(void)sd;
	(void)p;
	(void)this_cpu;
	(void)prev_cpu;
	(void)sync;
	return 99999;
}

WAKESIM_POLICY(.name = "bad-affine", .wake_affine = far_away);
