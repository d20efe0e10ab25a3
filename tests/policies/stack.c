/*
 * stack.c - select_idle_sibling() that never looks for an idle CPU: no
 * cheap candidate is taken and the scan has no budget, so every wake-up
 * lands on wake_affine()'s target (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static bool no_candidate(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	(void)p;
	(void)which;
	(void)cpu;
	(void)prev_cpu;
	(void)target;
	return false;
}

static int no_budget(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
		     int target, int *nr)
{
	(void)p;
	(void)sd;
	(void)has_idle_core;
	(void)target;
	*nr = 0;
	return -1;
}

WAKESIM_POLICY(.name = "stack", .sis_candidate = no_candidate, .sis_scan_budget = no_budget);
