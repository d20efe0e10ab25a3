/*
 * spin_nested.c - a hook that never returns but keeps calling a hook of
 * its own (->wake_wide, through wake_wide()): the time limit measures the
 * kernel's call into ->sis_candidate, so the nested calls do not hide the
 * loop (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static volatile int forever = 1;

static int narrow(struct task_struct *p)
{
	(void)p;
	return 0;
}

static bool spin(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	(void)which;
	(void)cpu;
	(void)prev_cpu;
	(void)target;
	while (sched_clock() > 1000000 && forever)
		(void)wake_wide(p);
	return false;
}

WAKESIM_POLICY(.name = "spin-nested", .wake_wide = narrow, .sis_candidate = spin);
