/*
 * defaults.c - every decision point of policy_abi.h taken over, each
 * answering with mainline's own function: a run with it must place every
 * task as mainline does, at the same cost (tests/test_policy.c), which
 * checks that each hook is called where its kernel function is, with the
 * kernel's arguments, and that a default never calls the hook back.
 */
#include "wakesim/policy.h"

static int d_wake_wide(struct task_struct *p)
{
	return wake_wide(p);
}

static int d_wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			 int prev_cpu, int sync)
{
	return wake_affine(sd, p, this_cpu, prev_cpu, sync);
}

static int d_wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	return wake_affine_idle(this_cpu, prev_cpu, sync);
}

static int d_wake_affine_weight(struct sched_domain *sd, struct task_struct *p, int this_cpu,
				int prev_cpu, int sync)
{
	return wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
}

static int d_select_idle_sibling(struct task_struct *p, int prev_cpu, int target)
{
	return select_idle_sibling(p, prev_cpu, target);
}

static bool d_sis_candidate(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	return sis_candidate(p, which, cpu, prev_cpu, target);
}

static int d_select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			     int target)
{
	return select_idle_cpu(p, sd, has_idle_core, target);
}

static int d_sis_scan_budget(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			     int target, int *nr)
{
	return sis_scan_budget(p, sd, has_idle_core, target, nr);
}

static int d_sis_scan_first(struct task_struct *p, struct sched_domain *sd, int target)
{
	return sis_scan_first(p, sd, target);
}

static int d_sis_scan_cpu(struct task_struct *p, int cpu)
{
	return __select_idle_cpu(cpu, p);
}

static int d_select_idle_core(struct task_struct *p, int core, struct cpumask *cpus, int *idle_cpu)
{
	return select_idle_core(p, core, cpus, idle_cpu);
}

static int d_select_idle_smt(struct task_struct *p, struct sched_domain *sd, int target)
{
	return select_idle_smt(p, sd, target);
}

static bool d_is_short_task(const struct task_struct *p)
{
	return is_short_task(p);
}

WAKESIM_POLICY(.name = "defaults", .wake_wide = d_wake_wide, .wake_affine = d_wake_affine,
	       .wake_affine_idle = d_wake_affine_idle, .wake_affine_weight = d_wake_affine_weight,
	       .select_idle_sibling = d_select_idle_sibling, .sis_candidate = d_sis_candidate,
	       .select_idle_cpu = d_select_idle_cpu, .sis_scan_budget = d_sis_scan_budget,
	       .sis_scan_first = d_sis_scan_first, .sis_scan_cpu = d_sis_scan_cpu,
	       .select_idle_core = d_select_idle_core, .select_idle_smt = d_select_idle_smt,
	       .is_short_task = d_is_short_task);
