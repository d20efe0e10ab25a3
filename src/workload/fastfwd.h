/*
 * fastfwd.h - --fast-forward for workloads of a fixed number of identical
 * rounds (hackbench's -l loops): once the rate of rounds is steady
 * (steady.h's rule), the workload simulates a short tail and the skipped
 * rounds are booked at the measured time per round. The workload keeps
 * only what is its own: which unit completes, and how each task's target
 * is cut to the tail (fast_forward_tail_rounds()).
 */
#ifndef WS_FASTFWD_H
#define WS_FASTFWD_H

#include <stdio.h>

#include "steady.h"
#include "workload.h"

/* The long options, for a workload's getopt_long() table. */
#define FF_OPT_ON 0x1201
#define FF_OPT_WARMUP 0x1202
#define FF_OPT_WINDOW 0x1203
#define FF_OPT_TOL 0x1204
#define FAST_FORWARD_LONGOPTS                                  \
	{ "fast-forward", no_argument, NULL, FF_OPT_ON },        \
	{ "ff-warmup", required_argument, NULL, FF_OPT_WARMUP }, \
	{ "ff-window", required_argument, NULL, FF_OPT_WINDOW }, \
	{ "ff-tolerance", required_argument, NULL, FF_OPT_TOL }

/* The usage lines of those options, for rounds called round ("loop"). */
#define FAST_FORWARD_USAGE(round)                                                         \
	"  --fast-forward        once the " round " rate is steady, simulate a short tail and\n" \
	"                        add the remaining " round "s at the measured time per " round "\n" \
	"  --ff-warmup S         time before measuring (default: two SIS_UTIL refreshes\n"    \
	"                        of a busy CPU, at least three PELT half-lives: 0.1)\n"       \
	"  --ff-window S         shortest half of the measured span (default 0.1, at\n"       \
	"                        least 0.001)\n"                                              \
	"  --ff-tolerance PCT    how far their rates may differ (default 2)\n"

/* --ff-warmup not given: steady_sched_settle_ns() of the machine. */
#define FF_WARM_AUTO UINT64_MAX

struct fast_forward {
	bool on;		/* --fast-forward */
	bool opts;		/* an --ff-* option was given */
	u64 warm_ns;		/* ns, or FF_WARM_AUTO */
	u64 window_ns;		/* ns */
	double tol;		/* fraction */
	long long rounds;	/* of the whole run */
	/* state */
	struct steady st;
	double rounds_sim;	/* rounds really simulated (a mean over tasks) */
	double skip_ns;		/* ns of the rounds skipped */
};

/* Off, warm-up by the machine, window 0.1 s, tolerance 2%; rounds in all. */
void fast_forward_init(struct fast_forward *ff, long long rounds);

/*
 * One of FAST_FORWARD_LONGOPTS (opt: getopt's code, arg its value, tool
 * the workload's name for messages). Returns 1 if opt was ours, 0 if not,
 * -1 with a message in err for a bad value.
 */
int fast_forward_option(struct fast_forward *ff, int opt, const char *tool, const char *arg,
			char *err, size_t errlen);

/* After the options: an --ff-* option without --fast-forward is an error (-1, err). */
int fast_forward_check(const struct fast_forward *ff, const char *tool, char *err, size_t errlen);

/* The measurement starts at start_ns (ns); a round is units_per_round units. */
void fast_forward_begin(struct sim *sim, struct fast_forward *ff, u64 start_ns,
			u64 units_per_round);

/* A unit done at now (ns), units in all. True once: steady, cut to the tail now. */
static inline bool fast_forward_unit_done(struct fast_forward *ff, u64 now, u64 units)
{
	return ff->on && steady_unit_done(&ff->st, now, units);
}

/*
 * Once steady: the rounds each task goes on for past where it is, one
 * checkpoint interval's worth (window / 5), so the run still ends with its
 * tasks finishing as they do.
 */
long long fast_forward_tail_rounds(const struct fast_forward *ff);

/* The workload cut its tasks to rounds_sim rounds (a mean): book the rest. */
void fast_forward_skipped(struct fast_forward *ff, double rounds_sim);

/*
 * The line for the workload's output (none without --fast-forward); round
 * as in the usage, who the tasks whose rounds rounds_sim is the mean of.
 */
void fast_forward_report(const struct fast_forward *ff, const char *round, const char *who,
			 FILE *out);

/* What the rule did, for the run's JSON; engaged means rounds were skipped. */
void fast_forward_info(const struct fast_forward *ff, struct wl_steady *out);

void fast_forward_free(struct fast_forward *ff);

#endif
