/*
 * registry.h - wake-up policies by name: the built-in ones (mainline's
 * select_task_rq_fair(), sched_ext's scx_select_cpu_dfl()) and shared
 * objects written against include/wakesim/policy.h.
 */
#ifndef WS_POLICY_REGISTRY_H
#define WS_POLICY_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include "kern/hooks.h"
#include "wakesim/policy_abi.h"

struct sim;

/*
 * A hook call may use POLICY_HOOK_LIMIT_S seconds of CPU time; the
 * watchdog (a profiling timer's signal every that many seconds) ends a run
 * whose hook call outlasts one whole period, naming the policy and hook.
 * run_one() (cli/runner.c) arms it in each process that runs a policy object.
 */
#define POLICY_HOOK_LIMIT_S 1
void policy_watchdog_arm(void);

/*
 * A policy's misuse of the API that no result could survive (a CPU
 * number out of range, a helper called outside any hook): "wakesim:
 * --policy PATH: its hook HOOK " then what, on stderr, and the process
 * ends with status 1, as a crash in a hook does.
 */
_Noreturn void policy_misuse(const char *what);

/*
 * The policy spec names: "mainline" (*out = NULL: the kernel model's own
 * select_task_rq_fair(), with no indirection), "scx-default", or a path
 * to a shared object (one with a '/' or ending in ".so"), loaded with
 * dlopen() and checked: its wakesim_policy symbol, API version, a name
 * and at least one hook. Returns 0, or -1 with err naming the file and
 * what is wrong.
 */
int policy_lookup(const char *spec, const struct wakesim_policy **out, char *err, size_t errlen);

/* "mainline" for NULL, else the policy's name. */
const char *policy_name(const struct wakesim_policy *p);

/* The built-in policies, one per line: name and summary. */
void policy_list(FILE *out);

/* sched_ext's default idle-CPU selection (scx_default.c). */
extern const struct wakesim_policy scx_default_policy;

#endif
