/*
 * affine_same_llc.c - seed S3 as a policy: "sched: fair: don't depend on
 * wake_wide if waker and wakee are already in same LLC" (Barry Song,
 * LKML, 2021-05-26). The built-in form, --features AFFINE_SAME_LLC, is
 * this file compiled into wakesim (src/features/affine_same_llc.c).
 *
 * The idea: wake_wide() stops pulling a wakee toward its waker when the
 * pair flips between many partners, so that a 1:N waker does not pile its
 * wakees onto its own LLC. If the wakee's previous CPU already shares the
 * waker's LLC, nothing is piled anywhere new, so the patch keeps the
 * wake-up affine and lets wake_affine() and select_idle_sibling() choose
 * within the LLC. The patch changes one condition of select_task_rq_fair(),
 * and this file one decision point: wake_wide()'s answer.
 */
#include "wakesim/policy.h"

static int s3_wake_wide(struct task_struct *p)
{
	/* Mainline's test first: its read of p's flips is paid either way. */
	int wide = wake_wide(p), cpu = smp_processor_id();

	/* S3: wide only matters when the wakee's CPU is in another LLC. */
	if (wide && cpus_share_cache(cpu, task_cpu(p)) && cpumask_test_cpu(cpu, task_cpus_ptr(p))) {
		feature_hit(HIT_AFFINE_SAME_LLC);
		return 0;
	}
	return wide;
}

WAKESIM_POLICY(.name = "affine-same-llc",
	       .summary = "S3: skip wake_wide() when waker and wakee share the LLC",
	       .wake_wide = s3_wake_wide);
