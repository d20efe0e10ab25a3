/*
 * workload.h - the benchmarks a simulation can run, created from the
 * command line the real tool takes (`hackbench -g 4 --pipe`).
 */
#ifndef WS_WORKLOAD_H
#define WS_WORKLOAD_H

#include "sim/sim.h"

/*
 * Parse argv (argv[0] is the tool's name) into a workload. Returns NULL
 * with a message in err for an unknown tool or a bad flag (exit status 2);
 * "--help" returns NULL with the usage in err and *help set.
 */
struct workload *workload_create(int argc, char **argv, bool *help, char *err, size_t errlen);
/* Names of the workloads, NULL-terminated. */
extern const char *const workload_names[];

struct workload *hackbench_create(int argc, char **argv, bool *help, char *err, size_t errlen);
/*
 * After a run: every message sent was read exactly once (per-task message
 * counts, empty channels, bytes in == bytes out). Returns 0 or -1 with why.
 */
int hackbench_check(struct workload *wl, char *why, size_t len);

#endif
