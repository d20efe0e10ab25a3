/*
 * scx_default.c - `--policy scx-default`: sched_ext's built-in idle-CPU
 * selection, scx_select_cpu_dfl() of kernel/sched/ext_idle.c (mainline,
 * commit 0022b328504d, read 2026-11), as its default ops.select_cpu()
 * uses it: the CPU it claims if one is idle, else prev_cpu. Only the CPU
 * choice is sched_ext's; the tasks still run on the fair class's
 * runqueues. Written against the public policy API only, as an example.
 *
 * sched_ext keeps its own idle masks: a CPU is set when it enters the
 * idle loop and cleared when it leaves or when a selection claims it
 * (test-and-clear, so two wake-ups cannot pick the same idle CPU). The
 * SMT mask holds the CPUs of wholly idle cores. One global pair of masks
 * (no SCX_OPS_BUILTIN_IDLE_PER_NODE), a shared cache line here. The order:
 *   1. WF_SYNC: prev_cpu if it shares the waker's LLC and is idle; else the
 *      waker's CPU if nothing else waits there and some CPU is idle;
 *   2. with SMT: prev_cpu if its whole core is idle, else a wholly idle
 *      core in prev's LLC, then in its node, then anywhere;
 *   3. prev_cpu if idle, then an idle SMT sibling of prev_cpu;
 *   4. an idle CPU in prev's LLC, then its node, then anywhere;
 * LLC and node steps only when the machine has several LLCs (nodes that
 * differ from its LLCs). Within a mask, picks rotate from the last CPU this
 * CPU picked (cpumask_any_and_distribute()).
 */
#include "wakesim/policy.h"

static struct cpumask idle_cpus, idle_smts;
static struct policy_cacheline idle_line;
static int last_pick[WS_MAX_CPUS + 1];	/* per CPU; the last slot for timer wake-ups */
static bool topo_llc, topo_numa;

static void node_span(int cpu, struct cpumask *m)
{
	int node = cpu_to_node(cpu);

	cpumask_clear(m);
	for (int i = 0; i < nr_cpu_ids; i++)
		if (cpu_to_node(i) == node)
			cpumask_set_cpu(i, m);
}

static int scx_init(void)
{
	struct sched_domain *llc = sd_llc(0);
	struct cpumask node;

	/* reset_idle_masks(): every online CPU idle; it converges at once. */
	cpumask_clear(&idle_cpus);
	for (int i = 0; i < nr_cpu_ids; i++)
		cpumask_set_cpu(i, &idle_cpus);
	cpumask_copy(&idle_smts, &idle_cpus);
	for (int i = 0; i <= WS_MAX_CPUS; i++)
		last_pick[i] = 0;
	policy_cacheline_init(&idle_line);
	/* scx_idle_update_selcpu_topology() */
	topo_llc = llc && (int)sd_span_weight(llc) < nr_cpu_ids;
	node_span(0, &node);
	topo_numa = false;
	if (cpumask_weight(&node) < nr_cpu_ids)
		for (int i = 0; i < nr_cpu_ids; i++) {
			struct sched_domain *l = sd_llc(i);

			node_span(i, &node);
			if (!l || (int)sd_span_weight(l) != cpumask_weight(&node))
				topo_numa = true;
		}
	return 0;
}

/* update_builtin_idle() */
static void update_idle(int cpu, bool idle)
{
	policy_cacheline_write(&idle_line);
	if (idle)
		cpumask_set_cpu(cpu, &idle_cpus);
	else
		cpumask_clear_cpu(cpu, &idle_cpus);
	if (!sched_smt_active())
		return;
	const struct cpumask *smt = cpu_smt_mask(cpu);

	if (!idle)
		cpumask_andnot(&idle_smts, &idle_smts, smt);
	else if (cpumask_subset(smt, &idle_cpus))
		cpumask_or(&idle_smts, &idle_smts, smt);
}

static void scx_idle_enter(int cpu, struct task_struct *prev)
{
	(void)prev;
	update_idle(cpu, true);
}

static void scx_idle_exit(int cpu)
{
	update_idle(cpu, false);
}

/* scx_idle_test_and_clear_cpu(): claim cpu; its core is no longer wholly idle. */
static bool claim(int cpu)
{
	policy_cacheline_write(&idle_line);
	if (sched_smt_active())
		cpumask_andnot(&idle_smts, &idle_smts, cpu_smt_mask(cpu));
	if (!cpumask_test_cpu(cpu, &idle_cpus))
		return false;
	cpumask_clear_cpu(cpu, &idle_cpus);
	return true;
}

/* cpumask_any_and_distribute(): the next CPU of a & b after this CPU's last pick. */
static int any_and_distribute(const struct cpumask *a, const struct cpumask *b)
{
	int slot = smp_processor_id() >= 0 ? smp_processor_id() : WS_MAX_CPUS;
	int prev = last_pick[slot];

	for (int k = 1; k <= nr_cpu_ids; k++) {
		int cpu = (prev + k) % nr_cpu_ids;

		if (cpumask_test_cpu(cpu, a) && cpumask_test_cpu(cpu, b)) {
			last_pick[slot] = cpu;
			return cpu;
		}
	}
	return -1;
}

/* pick_idle_cpu_in_node(): an idle CPU of allowed (of a wholly idle core if core). */
static int pick_idle(const struct cpumask *allowed, bool core)
{
	for (;;) {
		int cpu = -1;

		policy_cacheline_read(&idle_line);
		if (sched_smt_active()) {
			cpu = any_and_distribute(&idle_smts, allowed);
			if (cpu < 0 && core)
				return -1;
		}
		if (cpu < 0)
			cpu = any_and_distribute(&idle_cpus, allowed);
		if (cpu < 0)
			return -1;
		if (claim(cpu))
			return cpu;
	}
}

static int scx_select_cpu_dfl(struct task_struct *p, int prev_cpu, int wake_flags)
{
	const struct cpumask *allowed = task_cpus_ptr(p);
	struct cpumask llc_cpus, numa_cpus;
	bool prev_ok = cpumask_test_cpu(prev_cpu, allowed), llc = false, numa = false;
	int cpu;

	if (topo_numa) {
		node_span(prev_cpu, &numa_cpus);
		numa = cpumask_and(&numa_cpus, &numa_cpus, allowed);
	}
	if (topo_llc && sd_llc(prev_cpu))
		llc = cpumask_and(&llc_cpus, sched_domain_span(sd_llc(prev_cpu)), allowed);

	cpu = smp_processor_id();
	if ((wake_flags & WF_SYNC) && cpu >= 0) {
		if (prev_ok && cpus_share_cache(cpu, prev_cpu) && claim(prev_cpu))
			return prev_cpu;
		/* The waker's local DSQ is empty: nothing waits behind the waker. */
		policy_cacheline_read(&idle_line);
		if (rq_nr_running(cpu) <= 1 && !cpumask_empty(&idle_cpus) &&
		    cpumask_test_cpu(cpu, allowed))
			return cpu;
	}
	if (sched_smt_active()) {
		if (prev_ok && cpumask_test_cpu(prev_cpu, &idle_smts) && claim(prev_cpu))
			return prev_cpu;
		if (llc && (cpu = pick_idle(&llc_cpus, true)) >= 0)
			return cpu;
		if (numa && (cpu = pick_idle(&numa_cpus, true)) >= 0)
			return cpu;
		if ((cpu = pick_idle(allowed, true)) >= 0)
			return cpu;
	}
	if (prev_ok && claim(prev_cpu))
		return prev_cpu;
	if (sched_smt_active())
		for_each_cpu(cpu, cpu_smt_mask(prev_cpu))
			if (cpu != prev_cpu && cpumask_test_cpu(cpu, allowed) && claim(cpu))
				return cpu;
	if (llc && (cpu = pick_idle(&llc_cpus, false)) >= 0)
		return cpu;
	if (numa && (cpu = pick_idle(&numa_cpus, false)) >= 0)
		return cpu;
	return pick_idle(allowed, false);
}

/* The default ops.select_cpu(): the claimed idle CPU, else stay on prev_cpu. */
static int scx_select(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int cpu = scx_select_cpu_dfl(p, prev_cpu, wake_flags);

	return cpu >= 0 ? cpu : prev_cpu;
}

const struct wakesim_policy scx_default_policy = {
	.api = WAKESIM_POLICY_API,
	.name = "scx-default",
	.summary = "sched_ext's default idle-CPU selection, scx_select_cpu_dfl() "
		   "(kernel/sched/ext_idle.c); tasks still run on the fair class",
	.init = scx_init,
	.select_task_rq = scx_select,
	.idle_enter = scx_idle_enter,
	.idle_exit = scx_idle_exit,
};
