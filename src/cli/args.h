/*
 * args.h - options shared by wakesim's commands, and writing output files
 * atomically.
 */
#ifndef WS_ARGS_H
#define WS_ARGS_H

#include <json-c/json.h>
#include <stdio.h>

#include "runner.h"

#define EXIT_USAGE 2

struct common_opts {
	const char *machine;		/* --machine */
	const char *cost_profile;	/* --cost-profile NAME|FILE */
	char wc_buf[64];		/* --wc-threshold, as a --sysctl assignment */
	char cgroup_buf[32];		/* --cgroup PATH, as cgroup_depth=N */
	char qos_buf[48];		/* --cpu-dma-latency US, as cpu_latency_qos_ns=N */
	int kver;			/* --kernel: enum kernel_version */
	const char *features;		/* --features (run) */
	const char *policy;		/* --policy NAME|FILE.so (NULL: mainline) */
	const char *sysctl[32];		/* --sysctl, repeated */
	int nr_sysctl;
	const char *cpus;		/* --cpus LIST */
	int node;			/* --node N, -1 if not given */
	const char *output;		/* -o/--output FILE */
	int json;
	uint64_t seed;
};

/*
 * Load opts->machine (host if unset) into m, with opts->cost_profile if
 * given; prints the error and returns -1.
 */
int load_machine(const struct common_opts *o, struct machine *m);
/*
 * Fill a spec's tunables and allowed CPUs from the options for machine m,
 * features from the list given (NULL: defaults), and the wake-up policy:
 * an item "policy=NAME|FILE.so" of the list (a compare side's own), else
 * --policy, else mainline. Prints the error ("wakesim CMD: " and
 * features_opt where the list is at fault) and returns -1 on bad input.
 */
int build_spec(const char *cmd, const struct common_opts *o, const struct machine *m,
	       const char *features, const char *features_opt, struct run_spec *spec);

/*
 * After runs with a --policy: warn (stderr) if it returned CPUs the task
 * may not run on, n in all; they were replaced by the first allowed one.
 */
void warn_policy_fallbacks(const char *cmd, unsigned long long n);

/* The long options --policy, --cgroup and --cpu-dma-latency, handled by common_opt(). */
#define OPT_POLICY 1100
#define OPT_CGROUP 1101
#define OPT_CPU_DMA_LATENCY 1102

/*
 * What a result depends on besides machine, features and seed: the CPU
 * binding ("all" or a cpulist) and the tunables that differ from
 * their defaults ("default" or "name=value,..."), for headers and JSON.
 */
void describe_binding(const struct run_spec *spec, char *buf, size_t len);
void describe_sysctls(const struct run_spec *spec, char *buf, size_t len);

/*
 * Check before simulating that an output file (opt FILE: -o, --schedstat,
 * --trace) can be created: a name, not an option ("--json"), whose
 * directory exists and is writable. Prints the error and returns -1.
 */
int check_output_path(const char *cmd, const char *opt, const char *path);
/* Two output options must not name the same file; prints and returns -1 if they do. */
int check_distinct_outputs(const char *cmd, const char *opt_a, const char *a, const char *opt_b,
			   const char *b);

/*
 * Output goes to a memory stream; out_commit() then writes it to stdout or
 * atomically to opts->output (a temporary file renamed into place), so a
 * failed command never leaves a partial file.
 */
struct out_buf {
	char *data;
	size_t len;
	FILE *f;
};
/* Start buffering; returns 0 or -1 (out of memory). */
int out_open(struct out_buf *ob);
/* Write the buffer to path (NULL: stdout); returns 0, or -1 after printing why. */
int out_commit(struct out_buf *ob, const char *path);
/* Drop the buffer without writing anything. */
void out_discard(struct out_buf *ob);

/*
 * The options run and compare share (--machine, --cost-profile, --sysctl,
 * --seed, --node, --cpus, --json, -o, and getopt's errors), for
 * getopt_long()'s result c.
 * Returns 1 if c was one of them, 0 if not, -1 after printing an error;
 * usage is printed after an unknown option.
 */
int common_opt(const char *cmd, int c, int argc, char **argv, const char *usage,
	       struct common_opts *o);

/*
 * The command line to record in a result file, so `wakesim rerun` can
 * replay it: argv (argv[0] is "run" or "compare") without what does not
 * change the result, before "--": the output path (-o FILE, -oFILE,
 * --output FILE, --output=FILE), the worker count (-j N, --jobs N), so -j 1
 * and -j 2 still write the same bytes, and the side outputs (--schedstat,
 * --trace, --trace-window, --plot), so a rerun never writes files the
 * result does not ask for.
 * Returns a new JSON array of strings.
 */
json_object *invocation_json(int argc, char **argv);

/* Parse a non-negative integer option; prints the error and returns -1. */
int parse_count(const char *cmd, const char *opt, const char *arg, long min, long max, long *out);

/*
 * A --plot DIR given to cmd: a directory, or a name whose parent exists
 * (figures are drawn in it, created if missing). Prints why not and
 * returns -1.
 */
int check_plot_dir(const char *cmd, const char *dir);

#endif
