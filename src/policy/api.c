/*
 * api.c - the helpers of include/wakesim/policy.h, on the simulation a
 * policy hook was called from (policy_sim, set by policy.h's callers).
 * Each is a thin call into the kernel model, so a policy pays what the
 * built-in path pays for the same step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/kernel.h"
#include "kern/topology.h"
#include "registry.h"
#include "kern/sim.h"
#include "wakesim/policy_abi.h"

_Static_assert(sizeof(struct cacheline) <= sizeof(struct policy_cacheline),
	       "struct policy_cacheline must hold a struct cacheline");

/* The simulation of the hook running now; a helper called outside any hook is refused. */
static inline struct sim *cur_sim(void)
{
	if (!policy_sim)
		policy_misuse("called a helper");
	return policy_sim;
}

#define S cur_sim()

/* A CPU number a policy passed: one of the machine's, or the run ends saying so. */
static void bad_cpu(int cpu, const char *fn)
{
	char what[160];

	snprintf(what, sizeof(what), "passed CPU %d to %s() (the machine's CPUs are 0..%d)", cpu, fn,
		 policy_sim->nr_cpus - 1);
	policy_misuse(what);
}

#define CPU_OK(cpu, fn)                                                  \
	do {                                                             \
		if ((cpu) < 0 || (cpu) >= cur_sim()->nr_cpus)            \
			bad_cpu((cpu), (fn));                            \
	} while (0)

/*
 * Where a policy's call of the decision function of hook goes: from that
 * hook itself, to the layers after the caller's (its default); from
 * anywhere else, to the first layer that has it, as the kernel asks
 * (kern/hooks.h). -1: to the kernel's function.
 */
static int decide_layer(const char *hook, size_t off)
{
	const char *running = policy_hook;
	int from = running && !strcmp(running, hook) ? policy_layer + 1 : 0;

	return policy_layer_of(S, from, off);
}

#define LAYER(hook) decide_layer(#hook, offsetof(struct wakesim_policy, hook))

int wsk_smp_processor_id(void)
{
	return S->this_cpu;
}

struct task_struct *wsk_current(void)
{
	return current_task(S);
}

void *wsk_cpu_data(int cpu)
{
	/* The --policy's own; the built-in layers keep theirs in statics. */
	if (cpu < 0 || cpu >= S->nr_cpus || !S->policy_cpu_data ||
	    S->layer[policy_layer] != S->cfg.policy)
		return NULL;
	return (char *)S->policy_cpu_data + (size_t)cpu * S->cfg.policy->cpu_data_size;
}

void *wsk_task_data(struct task_struct *p)
{
	unsigned int n = S->layer[policy_layer] == S->cfg.policy ? S->cfg.policy->task_data_size : 0;

	/* Made at first use: zero, as a fork's would be. */
	if (!p->policy_data && n && n <= POLICY_DATA_MAX) {
		p->policy_data = calloc(1, n);
		if (!p->policy_data)
			abort(); /* out of memory in the engine */
	}
	return p->policy_data;
}

int wsk_counter(const char *name)
{
	return policy_counter_register(&S->met, name);
}

void wsk_counter_add(int id, uint64_t n)
{
	static bool warned;

	if (id >= 0 && id < S->met.nr_policy_counters) {
		S->met.policy_counter[id] += n;
		return;
	}
	/* Counts that go nowhere would read as zero in every report: say so, once. */
	if (!warned)
		fprintf(stderr, "wakesim: policy %s: policy_counter_add() with counter %d, which "
			"this simulation has not registered: its counts are lost (register counters "
			"in ->init, which runs before each simulation)\n",
			S->layer[policy_layer]->name, id);
	warned = true;
}

uint64_t wsk_clock_ns(void)
{
	return S->now;
}

int wsk_nr_cpus(void)
{
	return S->nr_cpus;
}

bool wsk_sched_feat(const char *name)
{
	static bool warned;

	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		if (!strcmp(sched_feature_name(i), name))
			return S->feat.on[i];
	/* In the kernel a misspelt feature does not compile. */
	if (!warned)
		fprintf(stderr, "wakesim: policy %s: sched_feat(%s): no such feature, taken as off "
			"(wakesim features lists them)\n", S->layer[policy_layer]->name, name);
	warned = true;
	return false;
}

void wsk_charge_ns(uint64_t ns)
{
	charge(S, ns);
}

uint64_t wsk_cost_ns(const char *name)
{
	const u64 *v = costs_field_ns(&S->m->costs, name);

	return v ? *v : 0;
}

int wsk_task_cpu(const struct task_struct *p)
{
	return task_cpu(p);
}

int wsk_task_pid(const struct task_struct *p)
{
	return p->pid;
}

const char *wsk_task_comm(const struct task_struct *p)
{
	return p->comm;
}

const struct cpumask *wsk_task_cpus_ptr(const struct task_struct *p)
{
	return p->cpus_ptr;
}

int wsk_task_nr_cpus_allowed(const struct task_struct *p)
{
	return p->nr_cpus_allowed;
}

int wsk_task_recent_used_cpu(const struct task_struct *p)
{
	return p->recent_used_cpu;
}

void wsk_task_set_recent_used_cpu(struct task_struct *p, int cpu)
{
	if (cpu >= 0 && cpu < S->nr_cpus)
		p->recent_used_cpu = cpu;
}

unsigned long wsk_task_util(const struct task_struct *p)
{
	return task_util(p);
}

unsigned long wsk_task_util_est(const struct task_struct *p)
{
	return task_util_est(p);
}

unsigned int wsk_task_wakee_flips(const struct task_struct *p)
{
	return p->wakee_flips;
}

uint64_t wsk_task_dur_avg(const struct task_struct *p)
{
	return p->dur_avg;
}

uint64_t wsk_task_avg_sleep(const struct task_struct *p)
{
	return p->avg_sleep_ns;
}

unsigned long wsk_task_load_avg(const struct task_struct *p)
{
	return p->se.avg.load_avg;
}

bool wsk_is_short_task(const struct task_struct *p)
{
	int li = LAYER(is_short_task);
	bool r;

	if (li < 0)
		return is_short_task(S, p);
	POLICY_CALL_AT(S, li, &r, is_short_task, p);
	return r;
}

bool wsk_idle_cpu(int cpu)
{
	int li = LAYER(idle_cpu);
	bool r;

	CPU_OK(cpu, "idle_cpu");
	if (li < 0)
		return rq_idle_seen(S, cpu);
	POLICY_CALL_AT(S, li, &r, idle_cpu, cpu);
	return r;
}

bool wsk_available_idle_cpu(int cpu)
{
	CPU_OK(cpu, "available_idle_cpu");
	return available_idle_cpu(S, cpu);
}

bool wsk_rq_idle(int cpu)
{
	CPU_OK(cpu, "rq_idle");
	return rq_idle_seen(S, cpu);
}

bool wsk_sched_idle_cpu(int cpu)
{
	CPU_OK(cpu, "sched_idle_cpu");
	sched_idle_cpu_reads(S, cpu);
	return false;
}

/* Another CPU's runqueue fields: a read of its line, as idle_cpu()'s callers pay. */
static void read_rq(int cpu)
{
	if (S->this_cpu >= 0 && cpu != S->this_cpu)
		line_read(S, &S->rq[cpu].line);
}

unsigned int wsk_nr_running(int cpu)
{
	CPU_OK(cpu, "rq_nr_running");
	read_rq(cpu);
	return S->rq[cpu].nr_running;
}

unsigned long wsk_cpu_util(int cpu)
{
	CPU_OK(cpu, "cpu_util");
	read_rq(cpu);
	return cpu_util(S, cpu, NULL, -1);
}

unsigned long wsk_cpu_load(int cpu)
{
	CPU_OK(cpu, "cpu_load");
	read_rq(cpu);
	return cpu_load(S, cpu);
}

unsigned long wsk_cpu_load_without(int cpu, struct task_struct *p)
{
	CPU_OK(cpu, "cpu_load_without");
	read_rq(cpu);
	return cpu_load_without(S, cpu, p);
}

uint64_t wsk_rq_avg_idle(int cpu)
{
	CPU_OK(cpu, "rq_avg_idle");
	read_rq(cpu);
	return S->rq[cpu].avg_idle;
}

unsigned long wsk_capacity_of(int cpu)
{
	CPU_OK(cpu, "capacity_of");
	return capacity_of(S, cpu);
}

unsigned long wsk_capacity_orig_of(int cpu)
{
	CPU_OK(cpu, "capacity_orig_of");
	return S->m->topo.cpu[cpu].capacity;
}

bool wsk_cpus_share_cache(int this_cpu, int that_cpu)
{
	CPU_OK(this_cpu, "cpus_share_cache");
	CPU_OK(that_cpu, "cpus_share_cache");
	return doms_share_cache(&S->doms, this_cpu, that_cpu);
}

bool wsk_test_idle_cores(int cpu)
{
	CPU_OK(cpu, "test_idle_cores");
	return test_idle_cores(S, cpu);
}

const struct cpumask *wsk_cpu_smt_mask(int cpu)
{
	CPU_OK(cpu, "cpu_smt_mask");
	return machine_smt_mask(S->m, cpu);
}

bool wsk_sched_smt_active(void)
{
	return S->doms.smt_present;
}

int wsk_cpu_to_node(int cpu)
{
	CPU_OK(cpu, "cpu_to_node");
	return S->m->topo.cpu[cpu].node;
}

struct sched_domain *wsk_cpu_sd(int cpu)
{
	CPU_OK(cpu, "for_each_domain");
	return S->doms.cpu[cpu].sd;
}

struct sched_domain *wsk_sd_parent(const struct sched_domain *sd)
{
	return sd->parent;
}

struct sched_domain *wsk_sd_llc(int cpu)
{
	CPU_OK(cpu, "sd_llc");
	return S->doms.cpu[cpu].sd_llc;
}

const struct cpumask *wsk_sched_domain_span(const struct sched_domain *sd)
{
	return &sd->span;
}

int wsk_sd_flags(const struct sched_domain *sd)
{
	return (int)sd->flags;
}

unsigned int wsk_sd_span_weight(const struct sched_domain *sd)
{
	return (unsigned int)sd->span_weight;
}

int wsk_sd_llc_size(int cpu)
{
	CPU_OK(cpu, "sd_llc_size");
	return S->doms.cpu[cpu].sd_llc_size;
}

uint64_t wsk_sd_avg_scan_cost(const struct sched_domain *sd)
{
	return sd->avg_scan_cost;
}

struct sched_group *wsk_sd_groups(const struct sched_domain *sd)
{
	return sd->groups;
}

struct sched_group *wsk_sg_next(const struct sched_domain *sd, const struct sched_group *sg)
{
	/* The kernel's list is circular; NULL ends a walk here. */
	return sg->next != sd->groups ? sg->next : NULL;
}

const struct cpumask *wsk_sched_group_span(const struct sched_group *sg)
{
	return &sg->span;
}

int wsk_sg_flags(const struct sched_group *sg)
{
	return (int)sg->flags;
}

int wsk_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags)
{
	return select_task_rq_fair(S, p, prev_cpu, wake_flags);
}

int wsk_select_idle_sibling(struct task_struct *p, int prev_cpu, int target)
{
	int li = LAYER(select_idle_sibling), r;

	CPU_OK(prev_cpu, "select_idle_sibling");
	CPU_OK(target, "select_idle_sibling");
	if (li < 0)
		return select_idle_sibling(S, p, prev_cpu, target);
	POLICY_CALL_AT(S, li, &r, select_idle_sibling, p, prev_cpu, target);
	return r;
}

int wsk_wake_wide(struct task_struct *p)
{
	struct task_struct *waker = current_task(S);
	int li = LAYER(wake_wide), r;

	if (li < 0)
		return waker ? wake_wide(S, waker, p) : 0;
	POLICY_CALL_AT(S, li, &r, wake_wide, p);
	return r;
}

int wsk_wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		    int sync)
{
	int li = LAYER(wake_affine), r;

	CPU_OK(this_cpu, "wake_affine");
	CPU_OK(prev_cpu, "wake_affine");
	if (li < 0)
		return wake_affine(S, sd, p, this_cpu, prev_cpu, sync);
	POLICY_CALL_AT(S, li, &r, wake_affine, sd, p, this_cpu, prev_cpu, sync);
	return r;
}

int wsk_find_idlest_cpu(struct sched_domain *sd, struct task_struct *p, int cpu, int prev_cpu,
			int sd_flag)
{
	return find_idlest_cpu(S, sd, p, cpu, prev_cpu, sd_flag);
}

void wsk_record_wakee(struct task_struct *p)
{
	struct task_struct *waker = current_task(S);

	if (waker)
		record_wakee(S, waker, p);
}

int wsk_wake_affine_weight(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			   int prev_cpu, int sync)
{
	int li = LAYER(wake_affine_weight), r;

	CPU_OK(this_cpu, "wake_affine_weight");
	CPU_OK(prev_cpu, "wake_affine_weight");
	if (li < 0)
		return wake_affine_weight(S, sd, p, this_cpu, prev_cpu, sync);
	POLICY_CALL_AT(S, li, &r, wake_affine_weight, sd, p, this_cpu, prev_cpu, sync);
	return r;
}

int wsk_wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	int li = LAYER(wake_affine_idle), r;

	CPU_OK(this_cpu, "wake_affine_idle");
	CPU_OK(prev_cpu, "wake_affine_idle");
	if (li < 0)
		return wake_affine_idle(S, this_cpu, prev_cpu, sync);
	POLICY_CALL_AT(S, li, &r, wake_affine_idle, this_cpu, prev_cpu, sync);
	return r;
}

bool wsk_sis_candidate(struct task_struct *p, int which, int cpu, int prev_cpu, int target)
{
	int li = LAYER(sis_candidate);
	bool fits = S->tun->kver != KV_5_12, r;
	unsigned long util = fits && S->doms.asym_cpucap_active ? task_util_est(p) : 0;

	CPU_OK(cpu, "sis_candidate");
	CPU_OK(prev_cpu, "sis_candidate");
	CPU_OK(target, "sis_candidate");
	if (li < 0)
		return sis_candidate(S, p, which, cpu, prev_cpu, target, util, fits);
	POLICY_CALL_AT(S, li, &r, sis_candidate, p, which, cpu, prev_cpu, target);
	return r;
}

int wsk_sis_scan_budget(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			int target, int *nr)
{
	int li = LAYER(sis_scan_budget), r;

	CPU_OK(target, "sis_scan_budget");
	if (li < 0)
		return -1;
	POLICY_CALL_AT(S, li, &r, sis_scan_budget, p, sd, has_idle_core, target, nr);
	return r;
}

int wsk_sis_scan_first(struct task_struct *p, struct sched_domain *sd, int target)
{
	int li = LAYER(sis_scan_first), r;

	CPU_OK(target, "sis_scan_first");
	if (li < 0)
		return S->tun->kver == KV_5_12 ? target : target + 1;
	POLICY_CALL_AT(S, li, &r, sis_scan_first, p, sd, target);
	return r;
}

void wsk_feature_hit(int kind)
{
	struct metrics *m = &S->met;

	switch (kind) {
	case HIT_IDLE_DELAY:
		m->hits_idle_delay++;
		break;
	case HIT_AFFINE_SAME_LLC:
		m->hits_affine_same_llc++;
		break;
	case HIT_SIS_SHORT_AFFINE:
		m->hits_sis_short_affine++;
		S->plc.affine = PA_SIS_SHORT;
		break;
	case HIT_SIS_SHORT_SCAN:
		m->hits_sis_short_scan++;
		S->plc.take_reason = PR_SIS_SHORT_SCAN;
		break;
	case HIT_IDLE_CORES_NO_SMT:
		m->hits_idle_cores_no_smt++;
		break;
	}
}

void wsk_schedstat_ttwu_move_affine(struct sched_domain *sd)
{
	sd->ttwu_move_affine++;
}

int wsk___select_idle_cpu(int cpu, struct task_struct *p)
{
	int li = LAYER(sis_scan_cpu), r;

	CPU_OK(cpu, "__select_idle_cpu");
	if (li < 0)
		return __select_idle_cpu(S, cpu);
	POLICY_CALL_AT(S, li, &r, sis_scan_cpu, p, cpu);
	return r;
}

int wsk_select_idle_core(struct task_struct *p, int core, struct cpumask *cpus, int *idle_cpu)
{
	int li = LAYER(select_idle_core), r;

	CPU_OK(core, "select_idle_core");
	if (li < 0)
		return select_idle_core(S, core, cpus, idle_cpu);
	POLICY_CALL_AT(S, li, &r, select_idle_core, p, core, cpus, idle_cpu);
	return r;
}

int wsk_select_idle_smt(struct task_struct *p, struct sched_domain *sd, int target)
{
	int li = LAYER(select_idle_smt), r;

	CPU_OK(target, "select_idle_smt");
	if (li < 0)
		return select_idle_smt(S, p, sd, target);
	POLICY_CALL_AT(S, li, &r, select_idle_smt, p, sd, target);
	return r;
}

int wsk_select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			int target)
{
	int li = LAYER(select_idle_cpu), r;

	CPU_OK(target, "select_idle_cpu");
	if (li < 0)
		return select_idle_cpu(S, p, sd, has_idle_core, target);
	POLICY_CALL_AT(S, li, &r, select_idle_cpu, p, sd, has_idle_core, target);
	return r;
}

void wsk_set_idle_cores(int cpu, int val)
{
	CPU_OK(cpu, "set_idle_cores");
	set_idle_cores(S, cpu, val);
}

int wsk_llc_nr_idle_scan(int cpu)
{
	struct sched_domain_shared *sds = S->doms.cpu[cpu].sd_llc_shared;

	CPU_OK(cpu, "llc_nr_idle_scan");
	if (!sds)
		return -1;
	line_read(S, &sds->line);
	return sds->nr_idle_scan;
}

uint64_t wsk_sis_begin(void)
{
	S->met.sis_calls++;
	S->rq[S->this_cpu >= 0 ? S->this_cpu : S->plc.prev >= 0 ? S->plc.prev : 0].sis_domain_search++;
	return S->kcost_ns;
}

void wsk_sis_end(uint64_t token)
{
	S->met.scan_ns += S->kcost_ns - token;
}

uint64_t wsk_tunable(const char *name)
{
	unsigned long long v;

	return sched_tunable_get(S->tun, name, &v) ? 0 : v;
}

bool wsk_sched_cluster_active(void)
{
	return S->doms.cluster_active;
}

bool wsk_sched_asym_cpucap_active(void)
{
	return S->doms.asym_cpucap_active;
}

bool wsk_cpus_share_resources(int this_cpu, int that_cpu)
{
	CPU_OK(this_cpu, "cpus_share_resources");
	CPU_OK(that_cpu, "cpus_share_resources");
	return doms_share_resources(&S->doms, this_cpu, that_cpu);
}

const struct cpumask *wsk_sd_local_group_span(const struct sched_domain *sd)
{
	return &sd->groups->span;
}

int wsk_sd_local_group_flags(const struct sched_domain *sd)
{
	return (int)sd->groups->flags;
}

void wsk_cacheline_init(struct policy_cacheline *l)
{
	cacheline_init((struct cacheline *)l);
}

void wsk_cacheline_read(struct policy_cacheline *l)
{
	if (S->this_cpu >= 0)
		line_read(S, (struct cacheline *)l);
}

void wsk_cacheline_write(struct policy_cacheline *l)
{
	if (S->this_cpu >= 0)
		line_write(S, (struct cacheline *)l);
}
