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
 * cpumask changes (2: masks of 8192 CPUs, from 1024; 3: hooks at the
 * decision points, idle_enter's task, per-CPU and per-task data, counters).
 */
#define WAKESIM_POLICY_API 3

struct task_struct;	/* a simulated task (opaque) */
struct sched_domain;	/* a sched domain of the simulated machine (opaque) */
struct sched_group;	/* a group of a domain (opaque) */

/* Which of select_idle_sibling()'s cheap candidates ->sis_candidate judges. */
enum sis_candidate_kind {
	SIS_TARGET,	/* target: the waker's CPU or prev, as wake_affine() chose */
	SIS_PREV,	/* prev_cpu, where the task last ran */
	SIS_RECENT,	/* p->recent_used_cpu */
};

/*
 * What a policy provides: a name and at least one hook; every hook left
 * NULL is mainline's (this wakesim's --kernel profile). The decision
 * points replace the kernel function of the same name wherever mainline's
 * path calls it; the policy calls that function by its name (policy.h) to
 * get mainline's answer, which never calls the policy's hook again, so a
 * hook changes one condition and defers the rest:
 *
 *   static int my_wake_wide(struct task_struct *p)
 *   {
 *           return task_wakee_flips(p) > 64 ? 1 : wake_wide(p);
 *   }
 *   WAKESIM_POLICY(.name = "wide64", .wake_wide = my_wake_wide);
 *
 * A decision hook that answers a CPU must answer one of the machine's (or
 * -1 where it may say "none"): anything else ends the run with a message.
 */
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
	 * select_fallback_rq() does. NULL: select_task_rq_fair(), with the
	 * decision points below.
	 */
	int (*select_task_rq)(struct task_struct *p, int prev_cpu, int wake_flags);
	/* cpu enters the idle loop (do_idle()), prev the task that left it (NULL: none), or leaves it. */
	void (*idle_enter)(int cpu, struct task_struct *prev);
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

	/* ---- decision points of select_task_rq_fair() (fair.c, v6.12) ---- */
	/* 1: spread a waker's many wakees (the LLC-size flip test), 0: try affine. */
	int (*wake_wide)(struct task_struct *p);
	/* this_cpu or prev_cpu, as the affine choice between them. */
	int (*wake_affine)(struct sched_domain *sd, struct task_struct *p, int this_cpu,
			   int prev_cpu, int sync);
	/* wake_affine()'s parts: the idle test and the load comparison; -1: no choice. */
	int (*wake_affine_idle)(int this_cpu, int prev_cpu, int sync);
	int (*wake_affine_weight)(struct sched_domain *sd, struct task_struct *p, int this_cpu,
				  int prev_cpu, int sync);
	/* The fast path from target; a CPU, never -1. */
	int (*select_idle_sibling)(struct task_struct *p, int prev_cpu, int target);
	/*
	 * Whether the cheap candidate cpu (which: SIS_TARGET, SIS_PREV,
	 * SIS_RECENT) is taken before any scan: the whole condition
	 * select_idle_sibling() tests for it (idle, in target's LLC, allowed,
	 * fits; recent: neither prev nor target). Mainline's answer:
	 * sis_candidate(p, which, cpu, prev_cpu, target).
	 */
	bool (*sis_candidate)(struct task_struct *p, int which, int cpu, int prev_cpu, int target);
	/* The LLC scan: an idle CPU, or -1. */
	int (*select_idle_cpu)(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			       int target);
	/*
	 * Before the scan, with its budget: *nr is mainline's (SIS_UTIL's
	 * nr_idle_scan + 1, or SIS_PROP's; 1 << 30 without either), which the
	 * loop pre-decrements before each CPU outside idle-core mode, as
	 * fair.c's does; 1 when SIS_UTIL found no budget (the kernel would
	 * return -1 here). Return -1 to scan with *nr (changed or not; 1 or
	 * less is no scan), or a CPU to take without scanning (S4's hook 2).
	 */
	int (*sis_scan_budget)(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			       int target, int *nr);
	/*
	 * The CPU the scan's wrap-around walk of the LLC starts at (mainline:
	 * target + 1); any int is taken modulo the number of CPUs.
	 */
	int (*sis_scan_first)(struct task_struct *p, struct sched_domain *sd, int target);
	/* One CPU of the scan outside idle-core mode, as __select_idle_cpu(): cpu if taken, else -1. */
	int (*sis_scan_cpu)(struct task_struct *p, int cpu);
	/* The idle-core scan's step, and prev's idle SMT sibling (as the kernel's). */
	int (*select_idle_core)(struct task_struct *p, int core, struct cpumask *cpus,
				int *idle_cpu);
	int (*select_idle_smt)(struct task_struct *p, struct sched_domain *sd, int target);
	/* SIS_SHORT's test of a task (S4): short between sleeps, no wakee flips. */
	bool (*is_short_task)(const struct task_struct *p);

	/* ---- events a heuristic keeps state on ---- */
	/*
	 * p joins cpu's runqueue; flags ENQUEUE_WAKEUP, ENQUEUE_MIGRATED, ...
	 * (sched_flags.h). A wake-up of a task still queued (a delayed
	 * sleeper, DELAY_DEQUEUE) requeues it: no enqueue.
	 */
	void (*enqueue_task)(int cpu, struct task_struct *p, int flags);
	/* p leaves it; flags DEQUEUE_SLEEP when p goes to sleep. */
	void (*dequeue_task)(int cpu, struct task_struct *p, int flags);
	/* p moves between CPUs (set_task_cpu()), before it is enqueued on to_cpu. */
	void (*migrate_task)(struct task_struct *p, int from_cpu, int to_cpu);

	/*
	 * Bytes of the policy's own data per CPU and per task, zeroed at the
	 * start of each simulation and at a task's fork: cpu_data(cpu),
	 * task_data(p). At most 4096 each.
	 */
	unsigned int cpu_data_size;
	unsigned int task_data_size;
};

/*
 * Define the policy: the object exports it as "wakesim_policy".
 *   WAKESIM_POLICY(.name = "mine", .select_task_rq = my_select);
 */
#ifndef WAKESIM_BUILTIN
#define WAKESIM_POLICY(...)                                                    \
	const struct wakesim_policy wakesim_policy = { .api = WAKESIM_POLICY_API, \
						       __VA_ARGS__ }
#else
/* Compiled into wakesim as a --features switch (src/features/): its own name. */
#define WAKESIM_POLICY(...)                                                      \
	const struct wakesim_policy WAKESIM_BUILTIN = { .api = WAKESIM_POLICY_API, \
							__VA_ARGS__ }
#endif

/* ---- the helpers wakesim exports (implemented in src/policy/api.c) ---- */

int wsk_smp_processor_id(void);
struct task_struct *wsk_current(void);
void *wsk_cpu_data(int cpu);
void *wsk_task_data(struct task_struct *p);
int wsk_counter(const char *name);
void wsk_counter_add(int id, uint64_t n);
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
uint64_t wsk_task_avg_sleep(const struct task_struct *p);
unsigned long wsk_task_load_avg(const struct task_struct *p);
bool wsk_is_short_task(const struct task_struct *p);

bool wsk_idle_cpu(int cpu);
bool wsk_rq_idle(int cpu);
bool wsk_available_idle_cpu(int cpu);
bool wsk_sched_idle_cpu(int cpu);
unsigned int wsk_nr_running(int cpu);
unsigned long wsk_cpu_util(int cpu);
unsigned long wsk_cpu_load(int cpu);
unsigned long wsk_cpu_load_without(int cpu, struct task_struct *p);
uint64_t wsk_rq_avg_idle(int cpu);
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
uint64_t wsk_sd_avg_scan_cost(const struct sched_domain *sd);
struct sched_group *wsk_sd_groups(const struct sched_domain *sd);
struct sched_group *wsk_sg_next(const struct sched_domain *sd, const struct sched_group *sg);
const struct cpumask *wsk_sched_group_span(const struct sched_group *sg);
int wsk_sg_flags(const struct sched_group *sg);

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
int wsk_wake_affine_idle(int this_cpu, int prev_cpu, int sync);
bool wsk_sis_candidate(struct task_struct *p, int which, int cpu, int prev_cpu, int target);
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

/*
 * What a seed feature's built-in form counts (its hits_* metric) and, for
 * S4, the placement reason and affine step it reports: feature_hit() of
 * policy.h, live only in the built-in form.
 */
enum feature_hit_kind {
	HIT_IDLE_DELAY,		/* idle_cpu() true only for the delay */
	HIT_AFFINE_SAME_LLC,	/* a wide wake-up kept affine */
	HIT_SIS_SHORT_AFFINE,	/* wake_affine_idle() kept the short waker's CPU */
	HIT_SIS_SHORT_SCAN,	/* the scan skipped for two short tasks */
	HIT_IDLE_CORES_NO_SMT,	/* the has_idle_cores read without SMT */
};
void wsk_feature_hit(int kind);
int wsk_sis_scan_budget(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			int target, int *nr);
int wsk_sis_scan_first(struct task_struct *p, struct sched_domain *sd, int target);

/* A cache line of the policy's own data (e.g. a global idle mask). */
struct policy_cacheline {
	uint64_t opaque[24];
};
void wsk_cacheline_init(struct policy_cacheline *l);
void wsk_cacheline_read(struct policy_cacheline *l);
void wsk_cacheline_write(struct policy_cacheline *l);

#endif
