/*
 * template.c - start a wake-up policy here.
 *
 * This is mainline's select_task_rq_fair() (kernel/sched/fair.c, v6.12)
 * written against wakesim/policy.h: on kernels from v5.16 on it places
 * every task exactly where the built-in path does, at the same cost
 * (tests/test_policy.c checks it). Change what your patch changes, then
 * compare it with mainline:
 *
 *   make policies        (or: cc -shared -fPIC -O2 -I include -o my.so my.c)
 *   wakesim compare --side mainline=default --side mine=policy=./my.so \
 *       --runs 5 -- hackbench -g 8 -l 2000 --pipe
 *
 * docs/writing-a-policy.md walks through an example. A patch that changes
 * one condition needs none of this: a hook at that decision point
 * (.wake_wide, .sis_candidate, .select_idle_cpu, ... in policy_abi.h),
 * calling mainline's function of the same name for the rest, is shorter
 * (sis_short.c).
 */
#include "wakesim/policy.h"

static int template_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
{
	/* A sync wake-up needs a waker (a timer's wake-up has none). */
	int sync = (wake_flags & WF_SYNC) && current;
	/* WF_TTWU/WF_FORK/WF_EXEC equal SD_BALANCE_WAKE/FORK/EXEC. */
	int sd_flag = wake_flags & 0xF;
	struct sched_domain *tmp, *sd = NULL;
	int cpu = smp_processor_id() >= 0 ? smp_processor_id() : prev_cpu;
	int new_cpu = prev_cpu;
	int want_affine = 0;

	policy_charge_ns(machine_cost_ns("select_ns"));
	if ((wake_flags & WF_TTWU) && current) {
		record_wakee(p);
		/* Pull toward the waker unless the pair flips between many partners. */
		want_affine = !wake_wide(p) && cpumask_test_cpu(cpu, task_cpus_ptr(p));
	}
	for_each_domain(cpu, tmp) {
		/* The lowest domain holding both CPUs decides between them. */
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
		new_cpu = find_idlest_cpu(sd, p, cpu, prev_cpu, sd_flag); /* fork, exec: slow path */
	else if (wake_flags & WF_TTWU)
		new_cpu = select_idle_sibling(p, prev_cpu, new_cpu); /* wake-up: fast path */
	return new_cpu;
}

WAKESIM_POLICY(.name = "template", .summary = "mainline's select_task_rq_fair(), to start from",
	       .select_task_rq = template_select_task_rq);
