/*
 * progress.h - a progress bar with ETA on stderr for long comparisons.
 *
 * Only on a terminal (and not with --quiet): a log or a pipe gets nothing,
 * so captured outputs stay byte-identical. The ETA reads the host's
 * monotonic clock; that clock never reaches a result.
 */
#ifndef WS_PROGRESS_H
#define WS_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct progress {
	FILE *f;		/* NULL when off */
	int total;
	double t0;		/* host seconds at the start */
	const char *what;	/* "runs" */
};

/* Start over total steps (drawing nothing yet); shown when enabled and f is a terminal. */
void progress_start(struct progress *p, FILE *f, bool enabled, int total, const char *what);
/* done of total finished: redraw the bar. */
void progress_update(struct progress *p, int done);
/*
 * One simulation's progress: a bar and ETA when the fraction done is
 * known (frac >= 0), else the simulated time and events so far.
 */
void progress_sim(struct progress *p, double frac, double sim_s, unsigned long long events);
/* Erase the bar. */
void progress_end(struct progress *p);
/* The bar's line for done of total after elapsed seconds (for tests). */
void progress_format(char *buf, size_t len, int done, int total, double elapsed,
		     const char *what);

#endif
