/*
 * sis_short.c - seed S4 as a policy: "sched/fair: Introduce SIS_SHORT to
 * wake up short task on current CPU" v6 (Chen Yu, LKML, 2023-02-22). The
 * built-in form, --features SIS_SHORT, is this file compiled into wakesim
 * (src/features/sis_short.c).
 *
 * The idea: when waker and wakee both run only briefly between sleeps (a
 * "short" task: average run under sis_short_ns, the slice / 8, and no
 * wakee flips), scanning a busy LLC for an idle CPU costs more than it
 * gains; waking the task on the waker's CPU is cheap and, since the waker
 * sleeps soon, quick. The patch adds two conditions to mainline's path,
 * and so does this file, each at its decision point, deferring to
 * mainline for the rest:
 *   1. wake_affine_idle(): a short waker alone on its CPU keeps the wakee;
 *   2. select_idle_cpu(), before the scan: when the wake-up is already
 *      affine (target is the waker's CPU), the LLC is busy (SIS_UTIL's
 *      scan budget under 60% of it) and both tasks are short, take target.
 */
#include "wakesim/policy.h"

static int s4_wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	int target = wake_affine_idle(this_cpu, prev_cpu, sync);

	/* Hook 1: the short waker (current) is alone on its CPU. */
	if (target < 0 && rq_nr_running(this_cpu) == 1 && is_short_task(current)) {
		feature_hit(HIT_SIS_SHORT_AFFINE);
		return this_cpu;
	}
	return target;
}

static int s4_sis_scan_budget(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			      int target, int *nr)
{
	/* SIS_UTIL's "no budget" returns before hook 2, as in the patch. */
	if (*nr <= 1)
		return sis_scan_budget(p, sd, has_idle_core, target, nr);
	/* Hook 2: affine already, a busy LLC, two short tasks: no scan. */
	if (!has_idle_core && target == smp_processor_id() && 5LL * *nr < 3LL * sd_span_weight(sd) &&
	    rq_nr_running(target) <= 1 && is_short_task(p) && is_short_task(current)) {
		feature_hit(HIT_SIS_SHORT_SCAN);
		return target;
	}
	return sis_scan_budget(p, sd, has_idle_core, target, nr);
}

WAKESIM_POLICY(.name = "sis-short", .summary = "S4: wake short tasks on the waker's CPU (SIS_SHORT)",
	       .wake_affine_idle = s4_wake_affine_idle, .sis_scan_budget = s4_sis_scan_budget);
