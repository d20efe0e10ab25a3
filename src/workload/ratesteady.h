/*
 * ratesteady.h - --until-steady for the workloads that report a rate
 * (netperf, tbench, context_switch1, pgbench): end the measured window
 * once the rate has settled, by hackbench's fast-forward rule (steady.h).
 *
 * Why: published rates come from runs of 60-600 s at steady state, and a
 * simulation cannot afford them; what it can do is run until its own rate
 * is steady. The warm-up comes first and is long enough for the slowest
 * periodic state the wake-up path reads (rate_steady_warmup_ns()); then a
 * checkpoint every window/5 of simulated time samples the units done
 * (transactions, operations, bytes); once the two halves of the measured
 * span, each at least window long, agree within tol, the workload ends its
 * measurement there and its rate is the whole span's. The workload's own
 * length (-l, -t, -T, -s) stays the cap: a run that never settles is the
 * plain run, and says so.
 */
#ifndef WS_RATESTEADY_H
#define WS_RATESTEADY_H

#include <stdio.h>

#include "kern/timer.h"
#include "steady.h"

/* The long options, for a workload's getopt_long() table. */
#define RS_OPT_UNTIL 0x1101
#define RS_OPT_WINDOW 0x1102
#define RS_OPT_TOL 0x1103
#define RATE_STEADY_LONGOPTS                                                    \
	{ "until-steady", no_argument, NULL, RS_OPT_UNTIL },                      \
	{ "steady-window", required_argument, NULL, RS_OPT_WINDOW },              \
	{ "steady-tolerance", required_argument, NULL, RS_OPT_TOL }

/* The usage lines of those options. */
#define RATE_STEADY_USAGE                                                                \
	"  --until-steady    end the measurement once the rate is steady (wakesim;\n"   \
	"              docs/performance.md): halves of the measured span agree; the\n"  \
	"              warm-up defaults to the slowest periodic state of the wake-up\n" \
	"              path (two of wakee_flips' 1 s decays, SIS_UTIL, PELT)\n"                 \
	"  --steady-window S   shortest half of the measured span (default 0.1)\n"       \
	"  --steady-tolerance PCT   how far the halves' rates may differ, a whole\n"   \
	"              percentage of 1 to 50 (default 2)\n"

struct rate_steady {
	bool on;		/* --until-steady */
	bool opts;		/* a --steady-* option was given */
	u64 window_ns;		/* ns */
	double tol;		/* fraction */
	/* what the workload provides at rate_steady_begin() */
	u64 (*units)(const struct sim *sim, void *arg);	/* units done since the start */
	void (*stop)(struct sim *sim, void *arg);	/* steady: end the measurement now */
	void *arg;
	/* state */
	u64 warm_ns;		/* the warm-up used, ns (reported) */
	struct steady st;
	struct sim_timer tm;
};

/* Defaults: off, window 0.1 s, tolerance 2%. */
void rate_steady_init(struct rate_steady *rs);

/*
 * One of RATE_STEADY_LONGOPTS (opt: getopt's code, arg its value).
 * Returns 1 if opt was ours, 0 if not, -1 with a message in err for a
 * bad value (exit status 2).
 */
int rate_steady_option(struct rate_steady *rs, int opt, const char *tool, const char *arg,
		       char *err, size_t errlen);

/*
 * The warm-up an --until-steady run needs before it measures (ns): the
 * longest of two decay periods of wakee_flips (record_wakee() halves them
 * once its stamp is more than HZ jiffies old: 1 s and a tick each; the
 * tasks start with their parent's stamp and flips, and after n periods a
 * level that grows from nothing is 1 - 2^-n of its steady value: one
 * period left S3's pgbench at 48 clients 10% short, docs/performance.md),
 * two refreshes of SIS_UTIL's budget by a busy CPU's LLC balancing
 * (sis_util_refresh_ns()) and three PELT half-lives (32 ms each).
 */
u64 rate_steady_warmup_ns(struct sim *sim);

/*
 * The measurement starts at start_ns (after the workload's warm-up of
 * warm_ns, for the report): with units set (and stop, arg), a timer takes
 * the checkpoints; without, the workload gives them (rate_steady_point()).
 */
void rate_steady_begin(struct sim *sim, struct rate_steady *rs, u64 start_ns, u64 warm_ns);

/*
 * A checkpoint the workload takes itself (at its own sample boundaries):
 * units done by now. True once, when the rate becomes steady.
 */
bool rate_steady_point(struct rate_steady *rs, u64 now, u64 units);

/* The measurement ended by the workload's own length: stop checking. */
void rate_steady_end(struct sim *sim, struct rate_steady *rs);

/*
 * One line for the workload's output: the rule's figures, and whether it
 * engaged. The halves' rates are printed in unit, which is per_ms times
 * the units per ms (1000 for "per second" of the same units).
 */
void rate_steady_report(const struct rate_steady *rs, const char *unit, double per_ms,
			FILE *out);

/* What the rule did, for the run's JSON (workload_ops.steady). */
void rate_steady_info(const struct rate_steady *rs, struct wl_steady *out);

void rate_steady_free(struct rate_steady *rs);

#endif
