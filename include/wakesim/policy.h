/*
 * wakesim/policy.h - write a wake-up policy in the kernel's vocabulary.
 *
 * A policy decides where a waking (WF_TTWU) or forked (WF_FORK) task
 * runs, as select_task_rq_fair() does in kernel/sched/fair.c: whole
 * (->select_task_rq), or one decision of mainline's path at a time (the
 * hooks ->wake_wide, ->sis_candidate, ->select_idle_cpu, ...: see
 * policy_abi.h), each calling mainline's function of the same name for
 * what it leaves alone. It is a C file that includes only this header and
 * defines its hooks with WAKESIM_POLICY(); build it as a shared object and
 * pass it to wakesim:
 *
 *   cc -shared -fPIC -O2 -I include -o my.so my.c
 *   wakesim run --policy ./my.so -- hackbench -g 4 -l 1000
 *
 * The helpers below have the kernel's names and meanings, so code moves
 * between a patch and a policy with few edits. They act on the simulated
 * machine: reading another CPU's runqueue costs a cache-line transfer (the
 * coherence model, charged to the waking CPU), exactly as the built-in
 * path pays it, so a policy that scans more pays more. Work of the
 * policy's own that the helpers do not cover can be charged with
 * policy_charge_ns(), and a shared structure of its own can be made a
 * cache line (struct policy_cacheline) whose reads and writes are priced
 * like the kernel's. Policies run single-threaded: one simulation at a
 * time per process, but several one after another, so reset static state
 * in ->init, which runs before each simulation.
 *
 * Differences from the kernel: task and domain fields are read through
 * functions (task_cpu(p), task_cpus_ptr(p), sd_flags(sd)) since the
 * structures are wakesim's; there is no RCU or locking to do. A CPU
 * number outside the machine passed to a helper, or a helper called
 * outside any hook, ends the run with a message naming the hook.
 *
 * The API's version is WAKESIM_POLICY_API; wakesim refuses an object
 * built against another version.
 */
#ifndef WAKESIM_POLICY_H
#define WAKESIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "wakesim/cpumask.h"
#include "wakesim/policy_abi.h"
#include "wakesim/sched_flags.h"

/* ---- the kernel's names ---- */

/* The CPU the code runs on: the waker's, -1 in a timer's callback. */
static inline int smp_processor_id(void) { return wsk_smp_processor_id(); }
/* The task running on smp_processor_id() (the waker), or NULL. */
#define current wsk_current()
/* The simulated time, ns (sched_clock()). */
static inline uint64_t sched_clock(void) { return wsk_clock_ns(); }
/* Whether a feature is on: sched_feat(SIS_UTIL), as in fair.c (a misspelt one: off, with a warning). */
#define sched_feat(x) wsk_sched_feat(#x)
/* Charge ns of the policy's own work to the waking CPU. */
static inline void policy_charge_ns(uint64_t ns) { wsk_charge_ns(ns); }
/*
 * A cost of the simulated machine's profile, ns, by its name in the cost
 * files (docs/costs.md): "select_ns" (select_task_rq_fair()'s fixed part),
 * "scan_cpu_ns" (select_idle_cpu()'s work per CPU), "ttwu_ns", ...; 0 for
 * a name that is not one.
 */
static inline uint64_t machine_cost_ns(const char *name) { return wsk_cost_ns(name); }

/*
 * The policy's own data (its cpu_data_size and task_data_size bytes),
 * zeroed at each simulation's start and a task's fork; NULL if it asked
 * for none.
 */
static inline void *cpu_data(int cpu) { return wsk_cpu_data(cpu); }
static inline void *task_data(struct task_struct *p) { return wsk_task_data(p); }
/*
 * A counter of the policy's own, shown with the run's metrics (run,
 * compare's diagnostics, JSON, CSV) as "policy.NAME": register it by name
 * (letters, digits, '_', at most 31 of them; at most 8 counters) in ->init,
 * which runs before each simulation: it returns its id (the same for the
 * same name; -1: a name refused), then policy_counter_add(id, n). An id
 * this simulation did not register loses its counts, with a warning.
 */
static inline int policy_counter(const char *name) { return wsk_counter(name); }
static inline void policy_counter_add(int id, uint64_t n) { wsk_counter_add(id, n); }

/*
 * A seed feature's built-in form (src/features/) counts its hits with
 * this; in a plug-in built from the same source it does nothing.
 */
#ifdef WAKESIM_BUILTIN
#define feature_hit(kind) wsk_feature_hit(kind)
#else
#define feature_hit(kind) ((void)0)
#endif

/* task_cpu(): the CPU p last ran or was placed on. */
static inline int task_cpu(const struct task_struct *p) { return wsk_task_cpu(p); }
static inline int task_pid_nr(const struct task_struct *p) { return wsk_task_pid(p); }
static inline const char *task_comm(const struct task_struct *p) { return wsk_task_comm(p); }
/* p->cpus_ptr and p->nr_cpus_allowed. */
static inline const struct cpumask *task_cpus_ptr(const struct task_struct *p)
{
	return wsk_task_cpus_ptr(p);
}
static inline int task_nr_cpus_allowed(const struct task_struct *p)
{
	return wsk_task_nr_cpus_allowed(p);
}
/* p->recent_used_cpu, read and written as select_idle_sibling() does. */
static inline int task_recent_used_cpu(const struct task_struct *p)
{
	return wsk_task_recent_used_cpu(p);
}
static inline void task_set_recent_used_cpu(struct task_struct *p, int cpu)
{
	wsk_task_set_recent_used_cpu(p, cpu);
}
/* task_util(): p's PELT util_avg, CPU capacity units 0..1024. */
static inline unsigned long task_util(const struct task_struct *p) { return wsk_task_util(p); }
/* task_util_est(): max(util_avg, util_est), 0..1024. */
static inline unsigned long task_util_est(const struct task_struct *p)
{
	return wsk_task_util_est(p);
}
/* p->wakee_flips (record_wakee(), halved every second). */
static inline unsigned int task_wakee_flips(const struct task_struct *p)
{
	return wsk_task_wakee_flips(p);
}
/* p->se.dur_avg of SIS_SHORT (S4): average run between sleeps, ns. */
static inline uint64_t task_dur_avg(const struct task_struct *p) { return wsk_task_dur_avg(p); }
/* p's average sleep, wake-up to wake-up's dequeue, update_avg() weight 1/8, ns (wakesim's). */
static inline uint64_t task_avg_sleep(const struct task_struct *p)
{
	return wsk_task_avg_sleep(p);
}
/* p->se.avg.load_avg: weight units, 1024 for a nice-0 task always running. */
static inline unsigned long task_load_avg(const struct task_struct *p)
{
	return wsk_task_load_avg(p);
}
/* SIS_SHORT's test of a task (S4 v6), whether or not the feature is on. */
static inline bool is_short_task(const struct task_struct *p) { return wsk_is_short_task(p); }

/* idle_cpu(): nothing runs or waits on cpu (the policy's ->idle_cpu if it has one). */
static inline bool idle_cpu(int cpu) { return wsk_idle_cpu(cpu); }
/* The plain answer: nothing runs or waits on cpu now, as the calling CPU reads it (for an ->idle_cpu hook). */
static inline bool rq_idle(int cpu) { return wsk_rq_idle(cpu); }
/* available_idle_cpu(): idle_cpu() and not a preempted vCPU. */
static inline bool available_idle_cpu(int cpu) { return wsk_available_idle_cpu(cpu); }
/* sched_idle_cpu(): only SCHED_IDLE tasks run there (never, in wakesim); its reads of nr_running and cfs.idle_h_nr_running are charged. */
static inline bool sched_idle_cpu(int cpu) { return wsk_sched_idle_cpu(cpu); }
/* cpu_rq(cpu)->nr_running. */
static inline unsigned int rq_nr_running(int cpu) { return wsk_nr_running(cpu); }
/* cpu_util_cfs(): the CPU's PELT utilisation, 0..capacity. */
static inline unsigned long cpu_util(int cpu) { return wsk_cpu_util(cpu); }
/* cpu_load(): the CPU's cfs_rq load_avg; cpu_load_without(): less p's, if p is counted there. */
static inline unsigned long cpu_load(int cpu) { return wsk_cpu_load(cpu); }
static inline unsigned long cpu_load_without(int cpu, struct task_struct *p)
{
	return wsk_cpu_load_without(cpu, p);
}
/* cpu_rq(cpu)->avg_idle: its average idle period, ns (new-idle balancing's gate). */
static inline uint64_t rq_avg_idle(int cpu) { return wsk_rq_avg_idle(cpu); }
/* capacity_of(): capacity left for CFS, 0..1024; capacity_orig_of(): the CPU's. */
static inline unsigned long capacity_of(int cpu) { return wsk_capacity_of(cpu); }
static inline unsigned long capacity_orig_of(int cpu) { return wsk_capacity_orig_of(cpu); }
/* cpus_share_cache(): same LLC (sd_llc_id). */
static inline bool cpus_share_cache(int this_cpu, int that_cpu)
{
	return wsk_cpus_share_cache(this_cpu, that_cpu);
}
/* test_idle_cores(): sd_llc_shared->has_idle_cores of cpu's LLC. */
static inline bool test_idle_cores(int cpu) { return wsk_test_idle_cores(cpu); }
/* cpu_smt_mask(): cpu's SMT siblings, itself included. */
static inline const struct cpumask *cpu_smt_mask(int cpu) { return wsk_cpu_smt_mask(cpu); }
static inline bool sched_smt_active(void) { return wsk_sched_smt_active(); }
static inline int cpu_to_node(int cpu) { return wsk_cpu_to_node(cpu); }

/* for_each_domain(cpu, sd): cpu's domains, lowest first. */
#define for_each_domain(cpu, __sd) \
	for ((__sd) = wsk_cpu_sd(cpu); (__sd); (__sd) = wsk_sd_parent(__sd))
/* rcu_dereference(per_cpu(sd_llc, cpu)): cpu's LLC domain, or NULL. */
static inline struct sched_domain *sd_llc(int cpu) { return wsk_sd_llc(cpu); }
/* per_cpu(sd_llc_size, cpu). */
static inline int sd_llc_size(int cpu) { return wsk_sd_llc_size(cpu); }
static inline const struct cpumask *sched_domain_span(const struct sched_domain *sd)
{
	return wsk_sched_domain_span(sd);
}
/* sd->avg_scan_cost: SIS_PROP's running average of a scan's cost (LLC domains), ns. */
static inline uint64_t sd_avg_scan_cost(const struct sched_domain *sd)
{
	return wsk_sd_avg_scan_cost(sd);
}
/* sd's groups, the local one (this CPU's) first: for_each_group(sg, sd) { ... }. */
#define for_each_group(__sg, sd) \
	for ((__sg) = wsk_sd_groups(sd); (__sg); (__sg) = wsk_sg_next(sd, __sg))
static inline const struct cpumask *sched_group_span(const struct sched_group *sg)
{
	return wsk_sched_group_span(sg);
}
/* sg->flags: the child domain's SD_* flags (SD_CLUSTER, SD_SHARE_LLC, ...). */
static inline int sg_flags(const struct sched_group *sg) { return wsk_sg_flags(sg); }
/* sd->flags (SD_* of wakesim/sched_flags.h) and sd->span_weight. */
static inline int sd_flags(const struct sched_domain *sd) { return wsk_sd_flags(sd); }
static inline unsigned int sd_span_weight(const struct sched_domain *sd)
{
	return wsk_sd_span_weight(sd);
}

/*
 * Mainline's own steps (this wakesim's kernel profile: --kernel), to build
 * on: the whole select_task_rq_fair(), select_idle_sibling() (the fast
 * path's LLC search from target), wake_wide(), wake_affine(),
 * find_idlest_cpu() (the fork/exec slow path) and record_wakee() (counts
 * current's wakee flips). They charge what the built-in path charges.
 */
static inline int select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags)
{
	return wsk_select_task_rq_fair(p, prev_cpu, wake_flags);
}
static inline int select_idle_sibling(struct task_struct *p, int prev, int target)
{
	return wsk_select_idle_sibling(p, prev, target);
}
static inline int wake_wide(struct task_struct *p) { return wsk_wake_wide(p); }
static inline int wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			      int prev_cpu, int sync)
{
	return wsk_wake_affine(sd, p, this_cpu, prev_cpu, sync);
}
static inline int find_idlest_cpu(struct sched_domain *sd, struct task_struct *p, int cpu,
				  int prev_cpu, int sd_flag)
{
	return wsk_find_idlest_cpu(sd, p, cpu, prev_cpu, sd_flag);
}
static inline void record_wakee(struct task_struct *p) { wsk_record_wakee(p); }
/* wake_affine()'s parts: the idle test, the load comparison, and its schedstat. */
static inline int wake_affine_idle(int this_cpu, int prev_cpu, int sync)
{
	return wsk_wake_affine_idle(this_cpu, prev_cpu, sync);
}
static inline int wake_affine_weight(struct sched_domain *sd, struct task_struct *p, int this_cpu,
				     int prev_cpu, int sync)
{
	return wsk_wake_affine_weight(sd, p, this_cpu, prev_cpu, sync);
}
static inline void schedstat_ttwu_move_affine(struct sched_domain *sd)
{
	wsk_schedstat_ttwu_move_affine(sd);
}

/*
 * select_idle_sibling()'s parts (fair.c, v6.12). Each CPU examined costs
 * scan_cpu_ns and a read of its runqueue line, and counts in the
 * cpus_examined_per_call diagnostic. select_idle_cpu() is the whole LLC
 * scan; a policy that rewrites it brackets its own scan with
 * sis_begin()/sis_end() so the scan's time and calls are accounted
 * (sis_domain_search; sis_search and sis_failed count only mainline's
 * select_idle_sibling() and select_idle_cpu()). A CPU a policy returns
 * from code of its own, not mainline's, is a "policy:NAME" placement in
 * the reasons table.
 */
static inline int __select_idle_cpu(int cpu, struct task_struct *p)
{
	return wsk___select_idle_cpu(cpu, p);
}
static inline int select_idle_core(struct task_struct *p, int core, struct cpumask *cpus,
				   int *idle_cpu)
{
	return wsk_select_idle_core(p, core, cpus, idle_cpu);
}
static inline int select_idle_smt(struct task_struct *p, struct sched_domain *sd, int target)
{
	return wsk_select_idle_smt(p, sd, target);
}
static inline int select_idle_cpu(struct task_struct *p, struct sched_domain *sd,
				  bool has_idle_core, int target)
{
	return wsk_select_idle_cpu(p, sd, has_idle_core, target);
}
/*
 * The defaults of ->sis_scan_budget (-1: scan with *nr as it is) and
 * ->sis_scan_first (target + 1; target itself on --kernel v5.12), or the
 * answers of the layers after the caller's.
 */
static inline int sis_scan_budget(struct task_struct *p, struct sched_domain *sd,
				  bool has_idle_core, int target, int *nr)
{
	return wsk_sis_scan_budget(p, sd, has_idle_core, target, nr);
}
static inline int sis_scan_first(struct task_struct *p, struct sched_domain *sd, int target)
{
	return wsk_sis_scan_first(p, sd, target);
}
/*
 * select_idle_sibling()'s test of a cheap candidate (SIS_TARGET, SIS_PREV,
 * SIS_RECENT): mainline's answer for ->sis_candidate.
 */
static inline bool sis_candidate(struct task_struct *p, int which, int cpu, int prev_cpu,
				 int target)
{
	return wsk_sis_candidate(p, which, cpu, prev_cpu, target);
}
/* set_idle_cores(): write the LLC's has_idle_cores flag. */
static inline void set_idle_cores(int cpu, int val) { wsk_set_idle_cores(cpu, val); }
/* SIS_UTIL: sd_llc_shared->nr_idle_scan of cpu's LLC (a read of its line), -1 if none. */
static inline int llc_nr_idle_scan(int cpu) { return wsk_llc_nr_idle_scan(cpu); }
static inline uint64_t sis_begin(void) { return wsk_sis_begin(); }
static inline void sis_end(uint64_t token) { wsk_sis_end(token); }

/* A tunable of the run (wakesim sysctls): "base_slice_ns", "sis_short_ns", ...; 0 if none. */
static inline uint64_t sched_tunable(const char *name) { return wsk_tunable(name); }
/* sched_cluster_active, sched_asym_cpucapacity static keys. */
static inline bool sched_cluster_active(void) { return wsk_sched_cluster_active(); }
static inline bool sched_asym_cpucap_active(void) { return wsk_sched_asym_cpucap_active(); }
/* cpus_share_resources(): same cluster (sd_share_id), or same LLC without clusters. */
static inline bool cpus_share_resources(int this_cpu, int that_cpu)
{
	return wsk_cpus_share_resources(this_cpu, that_cpu);
}
/* sched_group_span(sd->groups) and sd->groups->flags: sd's local group. */
static inline const struct cpumask *sd_local_group_span(const struct sched_domain *sd)
{
	return wsk_sd_local_group_span(sd);
}
static inline int sd_local_group_flags(const struct sched_domain *sd)
{
	return wsk_sd_local_group_flags(sd);
}

/*
 * The policy's shared data as cache lines: init in ->init (a line nobody
 * touched costs a memory fetch first); a read or write from
 * smp_processor_id() costs the transfer the coherence model prices for
 * the machine (docs/costs.md), charged to that CPU.
 */
static inline void policy_cacheline_init(struct policy_cacheline *l) { wsk_cacheline_init(l); }
static inline void policy_cacheline_read(struct policy_cacheline *l) { wsk_cacheline_read(l); }
static inline void policy_cacheline_write(struct policy_cacheline *l) { wsk_cacheline_write(l); }

#endif
