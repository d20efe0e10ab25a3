/*
 * steady.h - steady-state detection and fast-forward for workloads that
 * repeat a fixed number of identical rounds (hackbench's -l loops).
 *
 * Why: S2's full hackbench is 12.3 billion pipe operations, out of reach
 * of per-message simulation on one core (docs/performance.md). Once the
 * rate of rounds has settled, the time of the remaining rounds is their
 * count times the measured time per round, as sampled simulators of
 * processors fast-forward between detailed windows. So a run simulates
 * until it is steady, then a tail that keeps the run's end (tasks
 * finishing unevenly), and adds the skipped rounds' time.
 *
 * The rule: the warm-up warm_ns comes first, long enough for the model's
 * slowest state to settle (on S2's machine the rate falls by a fifth
 * between 0.2 and 0.5 s while each LLC's nr_idle_scan is refreshed at the
 * busy balance interval, 256 ms there). Then checkpoints every window_ns/5
 * (each taken at the first completed unit at or after its due time). At a
 * checkpoint t, the time since the warm-up is split into halves, each at
 * least window_ns long; when their rates differ by at most tol (a fraction
 * of their mean), the state is steady and the time per round is the whole
 * measured span's time over its rounds. The halves grow with the run, so
 * a drift that outlasts the warm-up keeps them apart. Without a steady
 * pair the whole run is simulated: no fast-forward is better than a wrong
 * one.
 */
#ifndef WS_STEADY_H
#define WS_STEADY_H

#include "kern/kernel.h"

struct steady_point {
	u64 t;		/* ns */
	u64 units;	/* done by then */
};

struct steady {
	u64 warm_ns, window_ns;	/* ns of measured time; window_ns: shortest half */
	double tol;		/* fraction, 0.02 = 2% */
	u64 units_per_round;	/* units (messages) that make one round */
	/* state */
	u64 start_ns, next_ns;
	struct steady_point *pt;	/* checkpoints, in time order */
	int nr, cap;
	bool steady;		/* decided: fast-forward from here */
	double ns_per_round;	/* measured over the two windows */
	double rate_a, rate_b;	/* rounds per ms in the earlier and the later half */
	u64 steady_at_ns;	/* when it was decided, from start */
	u64 span_ns;		/* length of each half then */
	bool oom;		/* out of memory: never steady */
	bool halves_seen;	/* two halves were ever compared */
};

/*
 * Arm the detector at the measured run's start (ns). warm_ns >= 0,
 * window_ns > 0, units_per_round >= 1.
 */
void steady_start(struct steady *s, u64 start_ns, u64 warm_ns, u64 window_ns, double tol,
		  u64 units_per_round);

/*
 * A unit of work completed at now (ns) with units done in total. Returns
 * true once, at the checkpoint where the state becomes steady; then
 * s->ns_per_round holds the measured time per round.
 */
bool steady_unit_done(struct steady *s, u64 now, u64 units);

/*
 * The time the scheduler's averages take to settle (ns): the longer of two
 * refreshes of SIS_UTIL's budget by a busy CPU's LLC balancing
 * (sis_util_refresh_ns()) and three PELT half-lives (32 ms each). The
 * fast-forward's default warm-up; --until-steady's adds wakee_flips.
 */
u64 steady_sched_settle_ns(struct sim *sim);

/* Free the checkpoints. */
void steady_free(struct steady *s);

#endif
