/*
 * sweep_plan.h - a sweep's plan: the grid of machines x workloads x load
 * levels x policies x seeds that `wakesim sweep` runs (docs/sweeps.md).
 *
 *   {
 *     "name": "s4-check",                       (optional)
 *     "machines": ["epyc9654-2s", "hwloc:me.xml"],
 *     "kernel": "mainline",                     (optional: v5.12, v6.4, v6.6)
 *     "workloads": [
 *       { "name": "hb", "command": ["hackbench", "--pipe", "-l", "500"],
 *         "loads": { "g": [2, 8] } },           (optional: one load level)
 *       { "command": ["netperf", "-t", "TCP_RR", "-l", "0.05"] }
 *     ],
 *     "policies": [                             (the first is the base)
 *       { "name": "mainline" },
 *       { "name": "s4", "features": "SIS_SHORT" },
 *       { "name": "mine", "policy": "./my.so", "features": "default" }
 *     ],
 *     "runs": 3, "seed": 1,                     (optional: 5 and 1)
 *     "robust": 8                               (optional: cost draws, as
 *   }                                            compare --robust)
 *
 * Jobs are numbered machine-major, then workload, load level, policy, cost
 * draw (0: the nominal costs; none without "robust") and seed: the same plan numbers its jobs the same way everywhere, which is
 * what shards and merging rely on.
 */
#ifndef WS_SWEEP_PLAN_H
#define WS_SWEEP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define PLAN_MAX 64	/* machines, workloads, load levels, policies each */

struct plan_workload {
	char *name;		/* "hb", or the command's first word */
	char **argv;		/* the command, NULL-terminated */
	int argc;
	char *load_name;	/* "g", or NULL: one level, the command as given */
	char *load_val[PLAN_MAX];
	int nr_loads;		/* >= 1 */
};

struct plan_policy {
	char *name;
	char *features;		/* a feature list, with "policy=X" when one is given */
};

struct sweep_plan {
	char *name;
	char *text;		/* the plan's JSON as read: embedded in shard results */
	size_t len;
	uint64_t hash;		/* FNV-1a of text: shards of one plan agree on it */
	char *machine[PLAN_MAX];
	int nr_machines;
	char *kernel;		/* NULL: mainline */
	struct plan_workload wl[PLAN_MAX];
	int nr_workloads;
	struct plan_policy pol[PLAN_MAX];
	int nr_policies;
	int runs;
	uint64_t seed;
	int robust;		/* cost draws per policy (compare --robust), 0: none */
	long long nr_jobs;
};

/*
 * Parse plan text (len bytes) read from file. Returns 0, or -1 with err
 * "FILE:LINE: key \"K\": what was expected" (unknown keys, wrong types,
 * empty lists, a grid above 10^6 jobs); plan is then freed.
 */
int sweep_plan_parse(const char *text, size_t len, const char *file, struct sweep_plan *plan,
		     char *err, size_t errlen);
/* Read and parse the file. */
int sweep_plan_load(const char *file, struct sweep_plan *plan, char *err, size_t errlen);
void sweep_plan_free(struct sweep_plan *plan);

/* Job j's coordinates. */
struct plan_job {
	int machine, workload, load, policy, run;
	int draw;		/* 0: the nominal costs; 1..robust: a cost draw */
};
void sweep_plan_job(const struct sweep_plan *p, long long j, struct plan_job *out);
/* The job number of a coordinate. */
long long sweep_plan_index(const struct sweep_plan *p, const struct plan_job *c);

#endif
