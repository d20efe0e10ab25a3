/*
 * robust.c - the design and draws of `compare --robust` (robust.h).
 */
#include "robust.h"

#include <string.h>

#include "sim/rng.h"

void lhs_design(int n, int d, uint64_t seed, double *u)
{
	struct rng r;
	int perm[n > 0 ? n : 1];

	rng_seed(&r, seed);
	for (int j = 0; j < d; j++) {
		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int k = (int)rng_below(&r, (uint64_t)i + 1), t = perm[i];

			perm[i] = perm[k];
			perm[k] = t;
		}
		for (int i = 0; i < n; i++)
			u[i * d + j] = (perm[i] + 0.5) / n;
	}
}

void robust_costs_of(const struct machine *m, struct robust_costs *rc)
{
	memset(rc, 0, sizeof(*rc));
	for (int k = 0; k < cost_key_count(m); k++) {
		struct cost_range r;

		cost_key_range(m, k, &r);
		if (!(r.max > r.min))
			continue;
		rc->key[rc->n] = k;
		rc->range[rc->n] = r;
		rc->nominal[rc->n] = cost_key_value(m, k);
		cost_key_name(m, k, rc->name[rc->n], sizeof(rc->name[0]));
		rc->n++;
	}
}

void robust_draw(const struct machine *m, const struct robust_costs *rc, const double *u, int i,
		 struct machine *out, double *value)
{
	*out = *m;
	for (int j = 0; j < rc->n; j++) {
		const struct cost_range *r = &rc->range[j];

		cost_key_set(out, rc->key[j], r->min + u[i * rc->n + j] * (r->max - r->min));
	}
	cost_keys_order_idle(out);
	for (int j = 0; j < rc->n; j++)
		value[j] = cost_key_value(out, rc->key[j]);
}
