/*
 * steady.c - the steady-state rule of steady.h.
 */
#include <stdlib.h>

#include "kern/lb.h"
#include "kern/pelt.h"
#include "steady.h"

/* PELT halves history every LOAD_AVG_PERIOD periods of 1024 x 1024 ns. */
#define PELT_HALFLIFE_NS ((u64)LOAD_AVG_PERIOD << 20)

u64 steady_sched_settle_ns(struct sim *sim)
{
	u64 w = 2 * sis_util_refresh_ns(sim);

	return w > 3 * PELT_HALFLIFE_NS ? w : 3 * PELT_HALFLIFE_NS;
}

void steady_start(struct steady *s, u64 start_ns, u64 warm_ns, u64 window_ns, double tol,
		  u64 units_per_round)
{
	steady_free(s);
	*s = (struct steady){
		.warm_ns = warm_ns,
		.window_ns = window_ns ? window_ns : 1,
		.tol = tol,
		.units_per_round = units_per_round ? units_per_round : 1,
		.start_ns = start_ns,
		.next_ns = start_ns + warm_ns,
	};
}

void steady_free(struct steady *s)
{
	free(s->pt);
	s->pt = NULL;
	s->nr = s->cap = 0;
}

/* The last checkpoint at or before t (the first one if none is). */
static int point_at(const struct steady *s, u64 t)
{
	int lo = 0, hi = s->nr - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (s->pt[mid].t <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static double rate(const struct steady_point *a, const struct steady_point *b)
{
	return (double)(b->units - a->units) / (double)(b->t - a->t);
}

bool steady_unit_done(struct steady *s, u64 now, u64 units)
{
	if (s->steady || s->oom || now < s->next_ns)
		return false;
	if (s->nr == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		struct steady_point *pt = realloc(s->pt, (size_t)cap * sizeof(*pt));

		if (!pt) {
			s->oom = true;
			return false;
		}
		s->pt = pt;
		s->cap = cap;
	}
	s->pt[s->nr++] = (struct steady_point){ now, units };
	s->next_ns = now + (s->window_ns / 5 ? s->window_ns / 5 : 1);

	const struct steady_point *a = &s->pt[0], *c = &s->pt[s->nr - 1];
	u64 span = (c->t - a->t) / 2;

	if (span < s->window_ns)
		return false;
	const struct steady_point *b = &s->pt[point_at(s, a->t + span)];

	if (a->t == b->t || b->t == c->t)
		return false;
	s->halves_seen = true;
	double ra = rate(a, b), rb = rate(b, c);

	if (ra <= 0 || rb <= 0 || (ra > rb ? ra - rb : rb - ra) > s->tol * (ra + rb) / 2)
		return false;
	s->steady = true;
	s->steady_at_ns = now - s->start_ns;
	s->span_ns = span;
	s->rate_a = ra * 1e6 / (double)s->units_per_round;
	s->rate_b = rb * 1e6 / (double)s->units_per_round;
	s->ns_per_round = (double)(c->t - a->t) * (double)s->units_per_round /
			  (double)(c->units - a->units);
	return true;
}
