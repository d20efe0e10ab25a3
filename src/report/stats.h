/*
 * stats.h - summary statistics of repeated runs, as mmtests reports them:
 * arithmetic mean (times), harmonic mean (rates), sample standard
 * deviation, and Welch's t-test for "is this change real".
 */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stdbool.h>

struct summary {
	int n;
	double mean;	/* Amean, or Hmean when the figure is a rate */
	double amean;
	double stddev;	/* sample (n - 1) standard deviation */
	double min, max;
};

/* Summarise n values; hmean selects the harmonic mean for .mean. */
void summarize(const double *v, int n, bool hmean, struct summary *s);
/*
 * Two-sided Welch's t-test p-value for different means of a and b (GSL's
 * t distribution). Returns 1.0 when it cannot tell (n < 2, no variance
 * and equal means); 0.0 when both are constant but differ.
 */
double welch_p(const double *a, int na, const double *b, int nb);
/*
 * Change of test against base in percent, positive meaning better
 * (mmtests' convention): lower is better -> (base - test) / base.
 */
double change_pct(double base, double test, bool higher_is_better);

#endif
