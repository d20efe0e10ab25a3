/*
 * idle_cores_no_smt.c - seed S1 as a policy: "sched/fair: remove
 * redundant test_idle_cores for non-smt" (Barry Song, LKML, 2021-03-20).
 * S1 was merged (v5.13), so mainline (template.c) is the patched kernel;
 * this file is the kernel before the patch, and the built-in switch
 * --features IDLE_CORES_NO_SMT is this file compiled into wakesim
 * (src/features/idle_cores_no_smt.c).
 *
 * What the patch removed: on machines without SMT, has_idle_cores is
 * never set (update_idle_core() only runs with SMT), yet every idle-CPU
 * search read sd_llc_shared->has_idle_cores, a cache line every CPU of the
 * LLC writes. The read finds nothing and costs a transfer when the line
 * bounces. The read came right before the LLC scan, so this file puts it
 * back at that decision point, in front of mainline's select_idle_cpu();
 * on machines with CPUs of unequal capacity the capacity-aware search
 * returns before it, as before the patch.
 */
#include "wakesim/policy.h"

static int s1_select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			      int target)
{
	/* The read the patch removed: has_idle_cores is never set without SMT. */
	if (!sched_smt_active()) {
		(void)test_idle_cores(target);
		feature_hit(HIT_IDLE_CORES_NO_SMT);
	}
	return select_idle_cpu(p, sd, has_idle_core, target);
}

WAKESIM_POLICY(.name = "idle-cores-no-smt",
	       .summary = "S1 reversed: read has_idle_cores without SMT too (the kernel before S1)",
	       .select_idle_cpu = s1_select_idle_cpu);
