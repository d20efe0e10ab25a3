/*
 * workload.h - the benchmarks a simulation can run, created from the
 * command line the real tool takes (`hackbench -g 4 --pipe`, `tbench 8`).
 */
#ifndef WS_WORKLOAD_H
#define WS_WORKLOAD_H

#include "kern/sim.h"

typedef struct workload *(*workload_create_fn)(int argc, char **argv, bool *help, char *err,
					       size_t errlen);

/* A load-level name for `compare --loads NAME=...` and the option it sets. */
struct load_alias {
	const char *name;	/* "clients" */
	const char *opt;	/* "-c", or "--nprocs" */
};

struct workload_def {
	const char *name;	/* argv[0] that selects it */
	const char *summary;	/* one line: what it is, what it reports */
	const char *usage;	/* --help text, flags as the real tool spells them */
	workload_create_fn create;
	const struct load_alias *loads;	/* {NULL} terminated; may be NULL */
};

/* Every workload, in the order `wakesim workloads` lists them. */
extern const struct workload_def workload_defs[];
extern const int nr_workload_defs;

/* The definition selected by argv[0] (a path's last part), or NULL. */
const struct workload_def *workload_find(const char *argv0);

/*
 * The option that --loads NAME sets for this workload: an alias it
 * declares, else "-N" for a one-letter name, else "--NAME". Returns 0, or
 * -1 if NAME is not an option name at all.
 */
int workload_load_option(const char *argv0, const char *name, char *opt, size_t len);

/*
 * Parse argv (argv[0] is the tool's name) into a workload. Returns NULL
 * with a message in err for an unknown tool or a bad flag (exit status 2);
 * "--help" returns NULL with the usage in err and *help set.
 */
struct workload *workload_create(int argc, char **argv, bool *help, char *err, size_t errlen);

/* The workloads (workload/NAME.c). */
struct workload *hackbench_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *wis_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *netperf_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *tbench_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *pgbench_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *schbench_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *rtapp_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *perf_create(int argc, char **argv, bool *help, char *err, size_t errlen);
struct workload *replay_create(int argc, char **argv, bool *help, char *err, size_t errlen);

extern const char hackbench_usage[], wis_usage[], netperf_usage[], tbench_usage[],
	pgbench_usage[], schbench_usage[], rtapp_usage[], replay_usage[],
	perf_usage[];

/*
 * The longest time option a workload accepts (s): a run stops after an
 * hour of simulated time (cli/runner.c), warm-ups and set-up included.
 */
#define WL_MAX_SECONDS 3000

/* After a run: the workload's conservation check (ops->check). */
int workload_check(struct workload *wl, char *why, size_t len);

#endif
