/*
 * registry.h - wake-up policies by name: the built-in ones (mainline's
 * select_task_rq_fair(), sched_ext's scx_select_cpu_dfl()) and shared
 * objects written against include/wakesim/policy.h.
 */
#ifndef WS_POLICY_REGISTRY_H
#define WS_POLICY_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include "wakesim/policy_abi.h"

struct sim;

/* The simulation whose policy hook runs now: the helpers act on it. */
extern struct sim *policy_sim;
/*
 * The hook running now (its field name in struct wakesim_policy) and a
 * count of hook calls: what a crash or the time limit's watchdog names.
 */
extern const char *volatile policy_hook;
extern volatile unsigned long policy_calls;

/*
 * A hook call may use POLICY_HOOK_LIMIT_S seconds of CPU time; the
 * watchdog (a profiling timer's signal every that many seconds) ends a run
 * whose hook call outlasts one whole period, naming the policy and hook.
 * sim_init() arms it in each process that runs a policy object.
 */
#define POLICY_HOOK_LIMIT_S 1
void policy_watchdog_arm(void);

/*
 * The kernel model calls a policy's hooks through these: policy_sim is the
 * calling simulation while a hook runs (a hook reached from inside another,
 * idle_cpu() from select_task_rq(), restores the outer one), and a NULL
 * hook is no call. Each costs one test when no policy is loaded.
 */
#define POLICY_CALL(sim, hook, ...)                                            \
	do {                                                                   \
		const struct wakesim_policy *pol_ = (sim)->cfg.policy;        \
		if (pol_ && pol_->hook) {                                      \
			struct sim *outer_ = policy_sim;                       \
			const char *outer_hook_ = policy_hook;                 \
			policy_sim = (sim);                                    \
			policy_hook = #hook;                                   \
			policy_calls++;                                        \
			pol_->hook(__VA_ARGS__);                               \
			policy_hook = outer_hook_;                             \
			policy_sim = outer_;                                   \
		}                                                              \
	} while (0)
/* The same for a hook with a result, stored in *out. */
#define POLICY_CALL_RET(sim, out, hook, ...)                                   \
	do {                                                                   \
		struct sim *outer_ = policy_sim;                               \
		const char *outer_hook_ = policy_hook;                         \
		policy_sim = (sim);                                            \
		policy_hook = #hook;                                           \
		policy_calls++;                                                \
		*(out) = (sim)->cfg.policy->hook(__VA_ARGS__);                 \
		policy_hook = outer_hook_;                                     \
		policy_sim = outer_;                                           \
	} while (0)

/*
 * The policy spec names: "mainline" (*out = NULL: the kernel model's own
 * select_task_rq_fair(), with no indirection), "scx-default", or a path
 * to a shared object (one with a '/' or ending in ".so"), loaded with
 * dlopen() and checked: its wakesim_policy symbol, API version and
 * select_task_rq. Returns 0, or -1 with err naming the file and what is
 * wrong.
 */
int policy_lookup(const char *spec, const struct wakesim_policy **out, char *err, size_t errlen);

/* "mainline" for NULL, else the policy's name. */
const char *policy_name(const struct wakesim_policy *p);

/* The built-in policies, one per line: name and summary. */
void policy_list(FILE *out);

/* sched_ext's default idle-CPU selection (scx_default.c). */
extern const struct wakesim_policy scx_default_policy;

#endif
