/*
 * affine_same_llc.c - seed S3 as a policy: "sched: fair: don't depend on
 * wake_wide if waker and wakee are already in same LLC" (Barry Song,
 * LKML, 2021-05-26). The built-in form is --features AFFINE_SAME_LLC;
 * this file gives the same placements (tests/test_policy.c).
 *
 * The idea: wake_wide() stops pulling a wakee toward its waker when the
 * pair flips between many partners, so that a 1:N waker does not pile its
 * wakees onto its own LLC. If the wakee's previous CPU already shares the
 * waker's LLC, nothing is piled anywhere new, so the patch keeps the
 * wake-up affine and lets wake_affine() and select_idle_sibling() choose
 * within the LLC. The rest is mainline (template.c).
 */
#include "wakesim/policy.h"

static int s3_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
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
		/* S3: wide only matters when the wakee's CPU is in another LLC. */
		want_affine = (!wake_wide(p) || cpus_share_cache(cpu, prev_cpu)) &&
			      cpumask_test_cpu(cpu, task_cpus_ptr(p));
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
		new_cpu = select_idle_sibling(p, prev_cpu, new_cpu);
	return new_cpu;
}

WAKESIM_POLICY(.name = "affine-same-llc",
	       .summary = "S3: skip wake_wide() when waker and wakee share the LLC",
	       .select_task_rq = s3_select_task_rq);
