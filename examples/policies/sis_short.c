/*
 * sis_short.c - seed S4 as a policy: "sched/fair: Introduce SIS_SHORT to
 * wake up short task on current CPU" v6 (Chen Yu, LKML, 2023-02-22). The
 * built-in form is --features SIS_SHORT; this file gives the same
 * placements (tests/test_policy.c).
 *
 * The idea: when waker and wakee both run only briefly between sleeps (a
 * "short" task: average run under sis_short_ns, the slice / 8, and no
 * wakee flips), scanning a busy LLC for an idle CPU costs more than it
 * gains; waking the task on the waker's CPU is cheap and, since the waker
 * sleeps soon, quick. Two hooks:
 *   1. wake_affine_idle(): a short waker alone on its CPU keeps the wakee;
 *   2. select_idle_cpu(): when the wake-up is already affine (target is
 *      the waker's CPU), the LLC is busy (SIS_UTIL's scan budget under 60%
 *      of it) and both tasks are short, take target without scanning.
 * Everything else is mainline's (fair.c, v6.12, as wakesim models it):
 * select_task_rq_fair(), wake_affine(), select_idle_sibling() and
 * select_idle_cpu() with the two hooks in place. On machines with CPUs of
 * unequal capacity mainline's select_idle_sibling() is used whole: its
 * capacity-aware search returns before either hook.
 */
#include "wakesim/policy.h"

static bool is_short_task(const struct task_struct *t)
{
	return t && task_wakee_flips(t) == 0 && task_dur_avg(t) != 0 &&
	       task_dur_avg(t) < sched_tunable("sis_short_ns");
}

static int s4_wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	/* A wake-up from an idle CPU's interrupt: prefer prev if it is idle too. */
	if (available_idle_cpu(this_cpu) && cpus_share_cache(this_cpu, prev_cpu))
		return available_idle_cpu(prev_cpu) ? prev_cpu : this_cpu;
	if (sync && rq_nr_running(this_cpu) == 1)
		return this_cpu;
	if (available_idle_cpu(prev_cpu))
		return prev_cpu;
	/* Hook 1: the short waker (current) is alone on its CPU. */
	if (rq_nr_running(this_cpu) == 1 && is_short_task(current))
		return this_cpu;
	return -1;
}

static int s4_wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			  int prev_cpu, int sync)
{
	int target = -1;

	if (sched_feat(WA_IDLE))
		target = s4_wake_affine_idle(this_cpu, prev_cpu, sync);
	if (sched_feat(WA_WEIGHT) && target == -1)
		target = wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
	if (target != this_cpu)
		return prev_cpu;
	schedstat_ttwu_move_affine(sd);
	return this_cpu;
}

/* One CPU of the scan: an idle core (core mode), -1 when the budget is out, -2 next. */
static int scan_one(struct task_struct *p, int cpu, struct cpumask *cpus, bool has_idle_core,
		    int *nr, int *idle_cpu, bool *found)
{
	if (has_idle_core) {
		int i = select_idle_core(p, cpu, cpus, idle_cpu);

		return i >= 0 ? i : -2;
	}
	if (--*nr <= 0)
		return -1;
	*idle_cpu = __select_idle_cpu(cpu, p);
	*found = *idle_cpu >= 0;
	return -2;
}

static int s4_scan(struct task_struct *p, struct sched_domain *sd, bool has_idle_core, int target)
{
	struct cpumask cpus;
	int nr = 1 << 30, cpu, i, idle_cpu = -1, this_cpu = smp_processor_id();
	bool found = false;

	cpumask_and(&cpus, sched_domain_span(sd), task_cpus_ptr(p));
	if (sched_feat(SIS_UTIL)) {
		int idle_scan = llc_nr_idle_scan(target);

		if (idle_scan >= 0) {
			nr = idle_scan + 1;	/* the loop pre-decrements */
			if (nr == 1)
				return -1;
		}
	}
	/* Hook 2: affine already, a busy LLC, two short tasks: no scan. */
	if (!has_idle_core && target == this_cpu && 5LL * nr < 3LL * sd_span_weight(sd) &&
	    rq_nr_running(target) <= 1 && is_short_task(p) && is_short_task(current))
		return target;
	/* v6.7+: the target's cluster first, where any idle CPU ends the search. */
	if (sched_cluster_active() && (sd_local_group_flags(sd) & SD_CLUSTER)) {
		const struct cpumask *cluster = sd_local_group_span(sd);

		for_each_cpu_wrap(cpu, cluster, target + 1) {
			if (!cpumask_test_cpu(cpu, &cpus))
				continue;
			i = scan_one(p, cpu, &cpus, has_idle_core, &nr, &idle_cpu, &found);
			if (i != -2)
				return i;
			if (found)
				return idle_cpu;
		}
		cpumask_andnot(&cpus, &cpus, cluster);
	}
	for_each_cpu_wrap(cpu, &cpus, target + 1) {
		i = scan_one(p, cpu, &cpus, has_idle_core, &nr, &idle_cpu, &found);
		if (found)
			break;
		if (i != -2)
			return i;
	}
	if (has_idle_core)
		set_idle_cores(target, 0);
	return idle_cpu;
}

static int s4_select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			      int target)
{
	uint64_t t = sis_begin();
	int cpu = s4_scan(p, sd, has_idle_core, target);

	sis_end(t);
	return cpu;
}

static int s4_select_idle_sibling(struct task_struct *p, int prev, int target)
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
	if (sched_smt_active())
		has_idle_core = test_idle_cores(target);
	else if (sched_feat(IDLE_CORES_NO_SMT))
		(void)test_idle_cores(target);	/* S1 reversed, if asked for too */
	if (sched_smt_active() && !has_idle_core && cpus_share_cache(prev, target)) {
		i = select_idle_smt(p, sd, prev);
		if (i >= 0)
			return i;
	}
	i = s4_select_idle_cpu(p, sd, has_idle_core, target);
	if (i >= 0)
		return i;
	if (prev_aff >= 0)
		return prev_aff;
	if (recent_used_cpu >= 0)
		return recent_used_cpu;
	return target;
}

static int s4_select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags)
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
				new_cpu = s4_wake_affine(tmp, p, cpu, prev_cpu, sync);
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
		new_cpu = s4_select_idle_sibling(p, prev_cpu, new_cpu);
	return new_cpu;
}

WAKESIM_POLICY(.name = "sis-short", .summary = "S4: wake short tasks on the waker's CPU (SIS_SHORT)",
	       .select_task_rq = s4_select_task_rq);
