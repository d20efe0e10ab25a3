/*
 * stats.c - means, deviation and Welch's t-test (with GSL's t CDF).
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

void summarize(const double *v, int n, bool hmean, struct summary *s)
{
	double sum = 0, inv = 0, var = 0;

	*s = (struct summary){ .n = n };
	if (n <= 0)
		return;
	s->min = s->max = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		inv += v[i] != 0 ? 1.0 / v[i] : 0;
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->amean = sum / n;
	s->mean = hmean && inv > 0 ? n / inv : s->amean;
	for (int i = 0; i < n; i++)
		var += (v[i] - s->amean) * (v[i] - s->amean);
	s->stddev = n > 1 ? sqrt(var / (n - 1)) : 0;
}

double welch_p(const double *a, int na, const double *b, int nb)
{
	struct summary sa, sb;

	if (na < 2 || nb < 2)
		return 1.0;
	summarize(a, na, false, &sa);
	summarize(b, nb, false, &sb);
	double va = sa.stddev * sa.stddev / na, vb = sb.stddev * sb.stddev / nb;

	if (va + vb == 0)
		return sa.amean == sb.amean ? 1.0 : 0.0;
	double t = (sa.amean - sb.amean) / sqrt(va + vb);
	/* Welch-Satterthwaite degrees of freedom. */
	double df = (va + vb) * (va + vb) /
		    (va * va / (na - 1) + vb * vb / (nb - 1));

	if (!isfinite(t) || !isfinite(df))
		return 1.0;	/* figures too large for the test: no claim of significance */
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);

	return isfinite(p) ? p : 1.0;
}

double change_pct(double base, double test, bool higher_is_better)
{
	if (base == 0)
		return 0;
	return higher_is_better ? (test - base) / base * 100 : (base - test) / base * 100;
}
