/*
 * wc.h - the work-conservation checker (wc.c): counts the intervals of at
 * least a threshold in which a CPU the workload may use is idle while a
 * task that may run on it waits elsewhere, and their total length, into
 * met.wc_intervals and met.wc_wasted_ns.
 */
#ifndef WS_WC_H
#define WS_WC_H

#include "kern/sim.h"

#define WC_NONE UINT64_MAX

struct wc_checker {
	u64 threshold_ns;	/* shortest interval that counts */
	u64 period_ns;		/* sampling period: threshold / 8 */
	u64 *since;		/* [nr_cpus]: wasting since (ns), or WC_NONE */
	struct sim_timer timer;
};

/* One look at the machine at sim->now (what the sampling timer runs). */
void wc_sample(struct sim *sim, struct wc_checker *wc);
/* Start sampling now; returns 0 or -1 (out of memory). */
int wc_start(struct sim *sim, struct wc_checker *wc, u64 threshold_ns);
/* At the end of the run: count the intervals still open, stop. */
void wc_finish(struct sim *sim, struct wc_checker *wc);

#endif
