/*
 * idle_cores_no_smt.c - seed S1 as a policy: "sched/fair: remove
 * redundant test_idle_cores for non-smt" (Barry Song, LKML, 2021-03-20).
 * S1 was merged (v5.13), so mainline (template.c) is the patched kernel;
 * like the built-in switch --features IDLE_CORES_NO_SMT, this file is the
 * kernel before the patch, and gives the same placements
 * (tests/test_policy.c).
 *
 * What the patch removed: on machines without SMT, has_idle_cores is
 * never set (update_idle_core() only runs with SMT), yet every idle-CPU
 * search read sd_llc_shared->has_idle_cores, a cache line every CPU of the
 * LLC writes. The read finds nothing and costs a transfer when the line
 * bounces. Everything else is mainline's select_idle_sibling() (fair.c,
 * v6.12); on machines with CPUs of unequal capacity mainline's is used
 * whole: its capacity-aware search returns before the read.
 */
#include "wakesim/policy.h"

static int s1_select_idle_sibling(struct task_struct *p, int prev, int target)
{
	bool clusters = sched_cluster_active(), has_idle_core = false;
	int i, recent_used_cpu, prev_aff = -1;
	struct sched_domain *sd;

	if (sched_asym_cpucap_active())
		return select_idle_sibling(p, prev, target);
	if (available_idle_cpu(target) || sched_idle_cpu(target))
		return target;
	if (prev != target && cpus_share_cache(prev, target) &&
	    (available_idle_cpu(prev) || sched_idle_cpu(prev))) {
		if (!clusters || cpus_share_resources(prev, target))
			return prev;
		prev_aff = prev;
	}
	recent_used_cpu = task_recent_used_cpu(p);
	task_set_recent_used_cpu(p, prev);
	if (recent_used_cpu != prev && recent_used_cpu != target &&
	    cpus_share_cache(recent_used_cpu, target) &&
	    (available_idle_cpu(recent_used_cpu) || sched_idle_cpu(recent_used_cpu)) &&
	    cpumask_test_cpu(recent_used_cpu, task_cpus_ptr(p))) {
		if (!clusters || cpus_share_resources(recent_used_cpu, target))
			return recent_used_cpu;
	} else {
		recent_used_cpu = -1;
	}
	sd = sd_llc(target);
	if (!sd)
		return target;
	/* Before S1: the flag is read with or without SMT (never set without). */
	has_idle_core = test_idle_cores(target) && sched_smt_active();
	if (sched_smt_active() && !has_idle_core && cpus_share_cache(prev, target)) {
		i = select_idle_smt(p, sd, prev);
		if (i >= 0)
			return i;
	}
	i = select_idle_cpu(p, sd, has_idle_core, target);
	if (i >= 0)
		return i;
	if (prev_aff >= 0)
		return prev_aff;
	if (recent_used_cpu >= 0)
		return recent_used_cpu;
	return target;
}

static int s1_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int sync = (wake_flags & WF_SYNC) && current;
	int sd_flag = wake_flags & 0xF;
	struct sched_domain *tmp, *sd = NULL;
	int cpu = smp_processor_id() >= 0 ? smp_processor_id() : prev_cpu;
	int new_cpu = prev_cpu;
	int want_affine = 0;

	policy_charge_ns(machine_cost_ns("select_ns"));
	if ((wake_flags & WF_TTWU) && current) {
		record_wakee(p);
		want_affine = !wake_wide(p) && cpumask_test_cpu(cpu, task_cpus_ptr(p));
	}
	for_each_domain(cpu, tmp) {
		if (want_affine && (sd_flags(tmp) & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu(prev_cpu, sched_domain_span(tmp))) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine(tmp, p, cpu, prev_cpu, sync);
			sd = NULL;
			break;
		}
		if (sd_flags(tmp) & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}
	if (sd)
		new_cpu = find_idlest_cpu(sd, p, cpu, prev_cpu, sd_flag);
	else if (wake_flags & WF_TTWU)
		new_cpu = s1_select_idle_sibling(p, prev_cpu, new_cpu);
	return new_cpu;
}

WAKESIM_POLICY(.name = "idle-cores-no-smt",
	       .summary = "S1 reversed: read has_idle_cores without SMT too (the kernel before S1)",
	       .select_task_rq = s1_select_task_rq);
