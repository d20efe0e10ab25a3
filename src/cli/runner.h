/*
 * runner.h - run one simulation from a spec, and many in parallel.
 *
 * A spec is everything that decides a run except the seed: machine,
 * features, tunables, CPU binding and the workload's command line. Runs
 * with the same spec and seed give the same outcome on any machine, in
 * any process: compare spreads its runs over worker processes (-j) and
 * gathers them by index, so its output does not depend on -j.
 */
#ifndef WS_RUNNER_H
#define WS_RUNNER_H

#include "kern/metrics.h"
#include "kern/sim.h"

struct run_spec {
	const struct machine *m;
	struct sched_features features;
	const struct wakesim_policy *policy;	/* NULL: mainline (policy/registry.h) */
	struct sched_tunables tunables;
	struct cpumask allowed;
	int argc;
	char **argv;		/* the workload's command line */
	FILE *schedstat;	/* if set, the run's /proc/schedstat text goes here */
	struct ftrace *trace;	/* if set, the run's sched events (kern/trace.h) */
	void (*progress)(const struct sim *sim, void *arg);	/* sim_config's, or NULL */
	void *progress_arg;
};

struct run_outcome {
	int ok;			/* 1 if the run finished */
	bool bad_input;		/* it failed because the workload does not fit the machine */
	double result;		/* the benchmark's figure */
	char unit[16];
	bool higher_is_better;
	struct wl_steady steady;	/* its steady-state rule, if it has one */
	struct metrics met;
	char err[256];		/* why it failed, if !ok */
};

/*
 * Run spec with seed; the workload's own report goes to report (may be
 * NULL). Returns 0, or -1 with outcome->err (outcome->bad_input set when
 * the workload's input does not fit the machine: exit status 2).
 */
int run_one(const struct run_spec *spec, uint64_t seed, struct run_outcome *out, FILE *report);

/* Called as runs finish: done of n (in any order of jobs). */
typedef void (*run_progress_fn)(int done, int n, void *arg);

/*
 * Run n jobs (job i = specs[i] with seeds[i]) on up to jobs worker
 * processes; outcomes land in out[i]. progress (may be NULL) hears of each
 * finished run. Returns 0, or -1 if a worker could not be started (err
 * set). Failed runs are marked in their outcome.
 */
int run_many(int n, const struct run_spec *const *specs, const uint64_t *seeds,
	     struct run_outcome *out, int jobs, run_progress_fn progress, void *arg, char *err,
	     size_t errlen);

/*
 * A run's steady-state rule as JSON: {"engaged", "warmup_s", "window_s",
 * "tolerance_pct", "steady_at_s"} (s of simulated time; steady_at_s null
 * when it did not engage). Caller puts it.
 */
struct json_object *steady_json(const struct wl_steady *s);

/* Online CPUs of this host, for the default -j. */
int host_cpus(void);

#endif
