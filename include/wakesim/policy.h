/*
 * wakesim/policy.h - write a wake-up policy in the kernel's vocabulary.
 *
 * A policy decides where a waking (WF_TTWU) or forked (WF_FORK) task
 * runs, as select_task_rq_fair() does in kernel/sched/fair.c. It is a C
 * file that includes only this header and defines its hooks with
 * WAKESIM_POLICY(); build it as a shared object and pass it to wakesim:
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
 * structures are wakesim's; there is no RCU or locking to do.
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
/* Whether a feature is on: sched_feat(SIS_UTIL), as in fair.c. */
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
/* p->recent_used_cpu. */
static inline int task_recent_used_cpu(const struct task_struct *p)
{
	return wsk_task_recent_used_cpu(p);
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

/* idle_cpu(): nothing runs or waits on cpu (reads its runqueue line). */
static inline bool idle_cpu(int cpu) { return wsk_idle_cpu(cpu); }
/* available_idle_cpu(): idle_cpu() and not a preempted vCPU. */
static inline bool available_idle_cpu(int cpu) { return wsk_available_idle_cpu(cpu); }
/* sched_idle_cpu(): only SCHED_IDLE tasks run there (never, in wakesim). */
static inline bool sched_idle_cpu(int cpu) { return wsk_sched_idle_cpu(cpu); }
/* cpu_rq(cpu)->nr_running. */
static inline unsigned int rq_nr_running(int cpu) { return wsk_nr_running(cpu); }
/* cpu_util_cfs(): the CPU's PELT utilisation, 0..capacity. */
static inline unsigned long cpu_util(int cpu) { return wsk_cpu_util(cpu); }
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
