/*
 * robust_out.h - how sure a comparison's verdict is under the costs'
 * uncertainty (`compare --robust N`): per load level and side, the change
 * under the nominal costs, its range over N cost profiles drawn across
 * the costs' ranges, the share of draws with the nominal's sign, and the
 * costs the change follows most (Spearman's rank correlation, GSL).
 *
 * Built from values alone, so a report can be checked by hand.
 */
#ifndef WS_ROBUST_OUT_H
#define WS_ROBUST_OUT_H

#include <json-c/json.h>
#include <stdio.h>

struct cmp_table;

#define ROBUST_TOP 3

/* One (load level, side other than the base). */
struct robust_row {
	double nominal;		/* change under the nominal costs, %, positive = better */
	const double *change;	/* [ndraws]: the change under each draw, % */
	/* filled by robust_analyse() */
	double min, max;	/* over the draws */
	int same_sign;		/* draws whose change has the nominal's sign (0 counts as a sign) */
	int ntop;		/* costs ranked, up to ROBUST_TOP (0: the change never moved) */
	int top[ROBUST_TOP];	/* cost indexes, largest |rho| first */
	double rho[ROBUST_TOP];	/* Spearman's rho of the change against that cost */
};

struct robust_report {
	int ndraws, ncosts;
	unsigned long long seed;	/* the design's */
	const char *const *cost;	/* [ncosts] names ("c2c_ns.llc") */
	const char *const *unit;	/* [ncosts] */
	const double *cmin, *cmax, *nominal;	/* [ncosts] range and nominal value */
	const double *value;		/* [ndraws * ncosts] each draw's cost values */
	int nloads, nsides;		/* as the comparison's */
	struct robust_row *row;		/* [nloads * nsides], load-major; side 0 unused */
};

static inline struct robust_row *robust_row_at(const struct robust_report *r, int load, int side)
{
	return &r->row[load * r->nsides + side];
}

/*
 * The change of every (load, side) cell of t under each of ndraws cost
 * draws, computed as cmp_table_stats() computes t's (the same seeds, the
 * same statistic): vals[(d * cells + c) * t->runs + r] is run r of cell c
 * (load-major, as t->cell) under draw d; change[c * ndraws + d] gets the
 * change. Returns 0, or -1 when out of memory.
 */
int robust_changes(const struct cmp_table *t, int ndraws, const double *vals, double *change);

/*
 * Fill each row's range, same-sign count and ranking: a cost's rho is
 * Spearman's (ties ranked by their mean rank) over the draws; costs whose
 * rho is not defined (the change or the cost never varied) are not ranked;
 * equal |rho| keep the costs' order.
 */
void robust_analyse(struct robust_report *r);

/*
 * Text: a block under the comparison's tables, a line per load and side
 * (load[] and side[] name them). JSON: the design, each draw's costs and
 * per row every draw's change. CSV: extra columns of a row
 * (robust_csv_header() once, robust_csv_row() per load and side; empty
 * for the base).
 */
void robust_print_text(const struct robust_report *r, const char *const *load,
		       const char *const *side, FILE *f);
json_object *robust_json(const struct robust_report *r, const char *const *load,
			 const char *const *side);
void robust_csv_header(FILE *f);
void robust_csv_row(const struct robust_report *r, int load, int side, FILE *f);

#endif
