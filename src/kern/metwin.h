/*
 * metwin.h - the run's metrics over the workload's measured window.
 *
 * A benchmark that warms up reports only what it measured after, and a
 * developer reads perf or schedstat counters over that same stretch; the
 * metrics (kern/metrics.h) follow: a workload calls metrics_window_begin()
 * when its measurement starts and metrics_window_end() when it ends, and
 * the run's metrics become the difference of the two copies taken then.
 * A workload that calls neither (hackbench, whose time is the whole run)
 * keeps whole-run metrics. The copies read the state as it stands without
 * changing it (a running CPU's open busy segment, SIS_UTIL's budget since
 * its last write), so a run's simulation and result are the same with or
 * without a window.
 *
 * A wake-up's shares (its target, its placement, its wake-list entry)
 * count when it claims its CPU (kern/core.c, ttwu_claim()), and a copy
 * counts a wake-up still choosing on the side where it will claim, so no
 * share straddles an edge; its re-reads (wake_rechecks) count where they
 * happen.
 *
 * What the subtraction cannot split: a work-conservation interval
 * (kern/wc.c) counts where it closes, and the run-delay histogram's
 * maximum is bounded as metrics_sub() says. --schedstat's per-CPU
 * counters and --trace stay the whole run's.
 */
#ifndef WS_METWIN_H
#define WS_METWIN_H

struct sim;

/*
 * The measured window starts now. Only the first call counts (each of
 * netperf's instances calls it at its first measured transaction).
 * Returns -1 if the copy cannot be allocated (the run keeps whole-run
 * metrics and says so on stderr), else 0.
 */
int metrics_window_begin(struct sim *sim);
/*
 * The measured window ends now; the last call counts (the last instance
 * to finish). Without a begin before it, nothing happens.
 */
void metrics_window_end(struct sim *sim);
/*
 * At the run's end, after the busy accounting is closed: sim->met becomes
 * the window's (begin to end, or to the run's end if no end came), with
 * elapsed_ns its length, from_ns its start and run_ns the whole run's
 * simulated ns. Frees the copies.
 */
void metrics_window_finish(struct sim *sim);

#endif
