/*
 * wakesim/policy_abi.h - what a policy object and wakesim exchange: the
 * policy's descriptor and the helpers wakesim exports (prefixed wsk_, so
 * that they never clash with the kernel model's own functions). Policies
 * include wakesim/policy.h, which gives these helpers the kernel's names.
 */
#ifndef WAKESIM_POLICY_ABI_H
#define WAKESIM_POLICY_ABI_H

#include <stdbool.h>
#include <stdint.h>

#include "wakesim/cpumask.h"

/*
 * Bumped whenever a helper, a hook, struct wakesim_policy or struct
 * cpumask changes (2: masks of 8192 CPUs, from 1024).
 */
#define WAKESIM_POLICY_API 2

struct task_struct;	/* a simulated task (opaque) */
struct sched_domain;	/* a sched domain of the simulated machine (opaque) */

/* What a policy provides. select_task_rq is required; the rest optional. */
struct wakesim_policy {
	unsigned int api;	/* WAKESIM_POLICY_API of the header it was built with */
	const char *name;	/* shown in outputs: "policy NAME" */
	const char *summary;	/* one line */
	/* Once per simulation, after the machine is built; 0, or -1 to refuse it. */
	int (*init)(void);
	/*
	 * The CPU p runs on: p wakes up (WF_TTWU, with WF_SYNC if the waker
	 * will sleep soon) or was forked (WF_FORK), on smp_processor_id()
	 * (the waker's CPU; -1 for a timer's wake-up, which has none). Called
	 * only for tasks allowed on more than one CPU. A CPU outside
	 * task_cpus_ptr(p) is replaced by the first allowed CPU, as
	 * select_fallback_rq() does.
	 */
	int (*select_task_rq)(struct task_struct *p, int prev_cpu, int wake_flags);
	/* cpu enters or leaves the idle loop (do_idle()). */
	void (*idle_enter)(int cpu);
	void (*idle_exit)(int cpu);
	/* The scheduler tick on cpu, p its running task (NULL: idle). */
	void (*task_tick)(int cpu, struct task_struct *p);
	/* cpu is about to go idle and runs sched_balance_newidle(). */
	void (*newidle)(int cpu);
	/*
	 * idle_cpu() itself, wherever the kernel model asks it (wake-up
	 * path, scans, load balancing, nohz): a policy that redefines what
	 * "idle" means, as S2 does. rq_idle(cpu) is the plain answer.
	 */
	bool (*idle_cpu)(int cpu);
};

/*
 * Define the policy: the object exports it as "wakesim_policy".
 *   WAKESIM_POLICY(.name = "mine", .select_task_rq = my_select);
 */
#define WAKESIM_POLICY(...)                                                    \
	const struct wakesim_policy wakesim_policy = { .api = WAKESIM_POLICY_API, \
						       __VA_ARGS__ }

/* ---- the helpers wakesim exports (implemented in src/policy/api.c) ---- */

int wsk_smp_processor_id(void);
struct task_struct *wsk_current(void);
uint64_t wsk_clock_ns(void);
int wsk_nr_cpus(void);
bool wsk_sched_feat(const char *name);
void wsk_charge_ns(uint64_t ns);
uint64_t wsk_cost_ns(const char *name);

int wsk_task_cpu(const struct task_struct *p);
int wsk_task_pid(const struct task_struct *p);
const char *wsk_task_comm(const struct task_struct *p);
const struct cpumask *wsk_task_cpus_ptr(const struct task_struct *p);
int wsk_task_nr_cpus_allowed(const struct task_struct *p);
int wsk_task_recent_used_cpu(const struct task_struct *p);
void wsk_task_set_recent_used_cpu(struct task_struct *p, int cpu);
unsigned long wsk_task_util(const struct task_struct *p);
unsigned long wsk_task_util_est(const struct task_struct *p);
unsigned int wsk_task_wakee_flips(const struct task_struct *p);
uint64_t wsk_task_dur_avg(const struct task_struct *p);

bool wsk_idle_cpu(int cpu);
bool wsk_rq_idle(int cpu);
bool wsk_available_idle_cpu(int cpu);
bool wsk_sched_idle_cpu(int cpu);
unsigned int wsk_nr_running(int cpu);
unsigned long wsk_cpu_util(int cpu);
unsigned long wsk_capacity_of(int cpu);
unsigned long wsk_capacity_orig_of(int cpu);
bool wsk_cpus_share_cache(int this_cpu, int that_cpu);
bool wsk_test_idle_cores(int cpu);
const struct cpumask *wsk_cpu_smt_mask(int cpu);
bool wsk_sched_smt_active(void);
int wsk_cpu_to_node(int cpu);

struct sched_domain *wsk_cpu_sd(int cpu);
struct sched_domain *wsk_sd_parent(const struct sched_domain *sd);
struct sched_domain *wsk_sd_llc(int cpu);
const struct cpumask *wsk_sched_domain_span(const struct sched_domain *sd);
int wsk_sd_flags(const struct sched_domain *sd);
unsigned int wsk_sd_span_weight(const struct sched_domain *sd);
int wsk_sd_llc_size(int cpu);

int wsk_select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags);
int wsk_select_idle_sibling(struct task_struct *p, int prev_cpu, int target);
int wsk_wake_wide(struct task_struct *p);
int wsk_wake_affine(struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		    int sync);
int wsk_find_idlest_cpu(struct sched_domain *sd, struct task_struct *p, int cpu, int prev_cpu,
			int sd_flag);
void wsk_record_wakee(struct task_struct *p);
int wsk_wake_affine_weight(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			   int prev_cpu, int sync);
void wsk_schedstat_ttwu_move_affine(struct sched_domain *sd);
int wsk___select_idle_cpu(int cpu, struct task_struct *p);
int wsk_select_idle_core(struct task_struct *p, int core, struct cpumask *cpus, int *idle_cpu);
int wsk_select_idle_smt(struct task_struct *p, struct sched_domain *sd, int target);
int wsk_select_idle_cpu(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			int target);
void wsk_set_idle_cores(int cpu, int val);
int wsk_llc_nr_idle_scan(int cpu);
uint64_t wsk_sis_begin(void);
void wsk_sis_end(uint64_t token);
uint64_t wsk_tunable(const char *name);
bool wsk_sched_cluster_active(void);
bool wsk_sched_asym_cpucap_active(void);
bool wsk_cpus_share_resources(int this_cpu, int that_cpu);
const struct cpumask *wsk_sd_local_group_span(const struct sched_domain *sd);
int wsk_sd_local_group_flags(const struct sched_domain *sd);

/* A cache line of the policy's own data (e.g. a global idle mask). */
struct policy_cacheline {
	uint64_t opaque[24];
};
void wsk_cacheline_init(struct policy_cacheline *l);
void wsk_cacheline_read(struct policy_cacheline *l);
void wsk_cacheline_write(struct policy_cacheline *l);

#endif
