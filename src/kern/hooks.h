/*
 * hooks.h - how the kernel model calls the hooks of a run's policy layers
 * (struct wakesim_policy, include/wakesim/policy_abi.h): the --policy, if
 * any, first, then the seed features switched on (their sources,
 * examples/policies/, compiled in: kern/layers.c). Which simulation, hook
 * and layer are running, for the helpers of policy/api.c and for the crash
 * and time guards of policy/registry.c, which name them.
 *
 * A decision point (wake_wide, sis_candidate, idle_cpu, ...) goes to the
 * first layer that has its hook, else to the kernel's function; an event
 * (enqueue_task, idle_exit, init, ...) goes to every layer that has it, in
 * order. A hook that calls its own decision function (the policy.h name)
 * gets the layers after it, then the kernel: its default.
 */
#ifndef WS_KERN_HOOKS_H
#define WS_KERN_HOOKS_H

#include <stddef.h>

#include "wakesim/policy_abi.h"

struct sim;

/* The simulation whose policy hook runs now: the helpers act on it. */
extern struct sim *policy_sim;
/*
 * The hook running now (its field name in struct wakesim_policy), the
 * layer it belongs to (an index of sim->layer[]) and a count of the calls
 * the kernel made into hooks (not of the hooks they call in turn): what a
 * crash names, and the time limit's watchdog measures a call by.
 */
extern const char *volatile policy_hook;
/*
 * The hook the kernel called, of which policy_hook may be a nested call:
 * what the time limit names.
 */
extern const char *volatile policy_top_hook;
extern int policy_layer;
extern volatile unsigned long policy_calls;

/* The most layers a run has: a policy and the four seed features. */
#define SIM_MAX_LAYERS 5

/*
 * The first of sim's layers from index from on whose hook at offset off
 * (offsetof(struct wakesim_policy, HOOK)) is set, or -1.
 */
int policy_layer_of(const struct sim *sim, int from, size_t off);

#define POLICY_LAYER(sim, from, hook) \
	policy_layer_of((sim), (from), offsetof(struct wakesim_policy, hook))

/* A hook's slot: its offset in struct wakesim_policy in function pointers. */
#define POLICY_SLOT(hook) (offsetof(struct wakesim_policy, hook) / sizeof(void (*)(void)))
#define POLICY_SLOTS (sizeof(struct wakesim_policy) / sizeof(void (*)(void)) + 1)

/*
 * The first layer with the hook, looked up once per simulation
 * (sim_layers_build()): a decision point costs one load, not a scan of
 * the layers, on the paths every wake-up takes.
 */
#define POLICY_FIRST(sim, hook) ((sim)->first_layer[POLICY_SLOT(hook)])

/* Whether a layer of the run takes this decision. */
#define POLICY_HAS(sim, hook) (POLICY_FIRST(sim, hook) >= 0)

/* Call layer li's hook (li from POLICY_LAYER), its result in *out. */
#define POLICY_CALL_AT(s_, li, out, hook, ...)                                \
	do {                                                                   \
		struct sim *outer_ = policy_sim;                               \
		const char *outer_hook_ = policy_hook;                         \
		int outer_layer_ = policy_layer, li_ = (li);                   \
		policy_sim = (s_);                                             \
		policy_hook = #hook;                                           \
		policy_layer = li_;                                            \
		policy_calls += !outer_;                                       \
		if (!outer_)                                                   \
			policy_top_hook = #hook;                               \
		*(out) = (s_)->layer[li_]->hook(__VA_ARGS__);                  \
		policy_hook = outer_hook_;                                     \
		policy_layer = outer_layer_;                                   \
		policy_sim = outer_;                                           \
	} while (0)

/*
 * A CPU the decision hook at layer li returned: one of the machine's, or
 * -1 where the hook may answer "none" (allow_none). Anything else ends the
 * run (status 1) naming the layer and the hook, before the kernel model
 * indexes a runqueue with it.
 */
void policy_cpu_check(const struct sim *sim, int li, const char *hook, int cpu, int allow_none);

#define POLICY_CPU_CHECK(sim, hook, cpu, allow_none) \
	policy_cpu_check((sim), POLICY_FIRST(sim, hook), #hook, (cpu), (allow_none))

/* A decision point taken by a layer: the first that has it (POLICY_HAS said one does). */
#define POLICY_CALL_RET(sim, out, hook, ...) \
	POLICY_CALL_AT(sim, POLICY_FIRST(sim, hook), out, hook, __VA_ARGS__)

/* A decision that answers a CPU: the call, then POLICY_CPU_CHECK() of *out. */
#define POLICY_DECIDE_CPU(sim, out, allow_none, hook, ...)                     \
	do {                                                                   \
		POLICY_CALL_RET(sim, out, hook, __VA_ARGS__);                  \
		POLICY_CPU_CHECK(sim, hook, *(out), allow_none);               \
	} while (0)

/* An event: every layer that has the hook, in order; none, no call. */
#define POLICY_CALL(s_, hook, ...)                                            \
	do {                                                                   \
		for (int l_ = 0; l_ < (s_)->nr_layers; l_++) {                 \
			if (!(s_)->layer[l_]->hook)                            \
				continue;                                      \
			struct sim *outer_ = policy_sim;                       \
			const char *outer_hook_ = policy_hook;                 \
			int outer_layer_ = policy_layer;                       \
			policy_sim = (s_);                                     \
			policy_hook = #hook;                                   \
			policy_layer = l_;                                     \
			policy_calls += !outer_;                               \
			if (!outer_)                                           \
				policy_top_hook = #hook;                       \
			(s_)->layer[l_]->hook(__VA_ARGS__);                    \
			policy_hook = outer_hook_;                             \
			policy_layer = outer_layer_;                           \
			policy_sim = outer_;                                   \
		}                                                              \
	} while (0)

#endif
