/*
 * perfbench.h - `perf bench`: its own options (-r, -f), then the
 * collection and benchmark (tools/perf/builtin-bench.c). Two are
 * simulated: sched pipe (schedpipe.c) and futex wake (futexwake.c).
 */
#ifndef WS_PERFBENCH_H
#define WS_PERFBENCH_H

#include "workload.h"

/* perf bench's options before the collection. */
struct perf_bench_opts {
	long repeat;	/* -r, --repeat: runs of a benchmark that repeats (futex wake); 10 */
	bool simple;	/* -f simple: the benchmark's terse output */
};

/*
 * Each benchmark's parser, given argv from its own name ("pipe", "wake")
 * on and perf bench's options; NULL with a message in err (and *help set
 * for --help), as workload_create() documents.
 */
struct workload *schedpipe_new(int argc, char **argv, const struct perf_bench_opts *o, char *err,
			       size_t errlen, bool *help);
struct workload *futexwake_create(int argc, char **argv, const struct perf_bench_opts *o,
				  char *err, size_t errlen, bool *help);

/*
 * What a benchmark's getopt loop does with any c it does not take: 'h'
 * (--help) puts the usage in err and sets *help; ':' (a missing value)
 * and anything else put the error in err. The caller returns NULL.
 */
void perf_opt_fail(int c, const char *tool, int argc, char **argv, char *err, size_t errlen,
		   bool *help);
/* After getopt: 0, or -1 with err set when an argument is left over. */
int perf_no_operands(const char *tool, int argc, char **argv, char *err, size_t errlen);

#endif
