/*
 * hooks.h - how the kernel model calls a wake-up policy's hooks (struct
 * wakesim_policy, include/wakesim/policy_abi.h): which simulation and hook
 * are running, for the helpers of policy/api.c and for the crash and time
 * guards of policy/registry.c, which name them.
 */
#ifndef WS_KERN_HOOKS_H
#define WS_KERN_HOOKS_H

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
/* Whether the run's policy has this hook (a decision point it takes over). */
#define POLICY_HAS(sim, hook) ((sim)->cfg.policy && (sim)->cfg.policy->hook)
/* The same for a hook with a result, stored in *out; the policy has it. */
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

#endif
