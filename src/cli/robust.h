/*
 * robust.h - cost profiles drawn across the costs' ranges for `compare
 * --robust N` (docs/costs.md, "Ranges"): a Latin hypercube over the costs
 * whose range is not a single value, each draw a copy of the machine with
 * those costs set.
 */
#ifndef WS_ROBUST_H
#define WS_ROBUST_H

#include <stdint.h>

#include "machine/cost_keys.h"

/*
 * A Latin hypercube of n points in d dimensions, u[i * d + j] in (0, 1):
 * in every dimension each of the n strata [s/n, (s+1)/n) holds exactly one
 * point, at its midpoint (s + 0.5) / n; which point gets which stratum is
 * a permutation per dimension drawn from seed (Fisher-Yates on the
 * simulator's PRNG), so the same seed gives the same design everywhere.
 */
void lhs_design(int n, int d, uint64_t seed, double *u);

/* What a robust comparison varies: the keys, their ranges and their names. */
struct robust_costs {
	int n;				/* keys varied */
	int key[COST_KEYS_MAX];		/* cost keys (cost_keys.h) */
	struct cost_range range[COST_KEYS_MAX];
	double nominal[COST_KEYS_MAX];	/* the machine's own value */
	char name[COST_KEYS_MAX][64];
};

/* The costs of m whose range holds more than one value, in key order. */
void robust_costs_of(const struct machine *m, struct robust_costs *rc);

/*
 * Draw i of a design u (n points, rc->n dimensions): *out becomes a copy of
 * m sharing its topology arrays (never machine_free() it) with each varied
 * cost at min + u * (max - min); idle states kept in cpuidle's order.
 * value[] (rc->n) gets the values as set, after rounding.
 */
void robust_draw(const struct machine *m, const struct robust_costs *rc, const double *u, int i,
		 struct machine *out, double *value);

#endif
