/*
 * fastfwd.c - --fast-forward (fastfwd.h).
 */
#include "fastfwd.h"

#include <stdlib.h>
#include <string.h>

#include "launcher.h"

void fast_forward_init(struct fast_forward *ff, long long rounds)
{
	*ff = (struct fast_forward){ .warm_ns = FF_WARM_AUTO, .window_ns = 100 * NSEC_PER_MSEC,
				     .tol = 0.02, .rounds = rounds, .rounds_sim = (double)rounds };
}

int fast_forward_option(struct fast_forward *ff, int opt, const char *tool, const char *arg,
			char *err, size_t errlen)
{
	switch (opt) {
	case FF_OPT_ON:
		ff->on = true;
		return 1;
	case FF_OPT_WARMUP:
		ff->opts = true;
		return wl_parse_seconds(tool, "--ff-warmup", arg, 0, WL_MAX_SECONDS * NSEC_PER_SEC,
					&ff->warm_ns, err, errlen) ? -1 : 1;
	case FF_OPT_WINDOW:
		/* Checkpoints come every window/5: below 1 ms they would
		 * sample single units, not a rate. */
		ff->opts = true;
		return wl_parse_seconds(tool, "--ff-window", arg, NSEC_PER_MSEC,
					WL_MAX_SECONDS * NSEC_PER_SEC, &ff->window_ns, err, errlen)
			       ? -1
			       : 1;
	case FF_OPT_TOL: {
		char *end;
		double v = strtod(arg, &end);

		ff->opts = true;
		/* Plain decimal digits, as the other --ff- options take. */
		if (strspn(arg, "0123456789.") != strlen(arg) || end == arg || *end ||
		    !(v >= 0 && v <= 100)) {
			snprintf(err, errlen, "%s: option --ff-tolerance: \"%s\" is not a percentage "
				 "in 0..100", tool, arg);
			return -1;
		}
		ff->tol = v / 100;
		return 1;
	}
	}
	return 0;
}

int fast_forward_check(const struct fast_forward *ff, const char *tool, char *err, size_t errlen)
{
	if (ff->opts && !ff->on) {
		snprintf(err, errlen, "%s: --ff-warmup, --ff-window and --ff-tolerance tune "
			 "--fast-forward, which is not given", tool);
		return -1;
	}
	return 0;
}

void fast_forward_begin(struct sim *sim, struct fast_forward *ff, u64 start_ns,
			u64 units_per_round)
{
	if (ff->on)
		steady_start(&ff->st, start_ns,
			     ff->warm_ns != FF_WARM_AUTO ? ff->warm_ns : steady_sched_settle_ns(sim),
			     ff->window_ns, ff->tol, units_per_round);
}

long long fast_forward_tail_rounds(const struct fast_forward *ff)
{
	return (long long)((double)ff->window_ns / 5 / ff->st.ns_per_round) + 1;
}

void fast_forward_skipped(struct fast_forward *ff, double rounds_sim)
{
	ff->rounds_sim = rounds_sim;
	ff->skip_ns = ((double)ff->rounds - rounds_sim) * ff->st.ns_per_round;
}

void fast_forward_report(const struct fast_forward *ff, const char *round, const char *who,
			 FILE *out)
{
	if (!ff->on)
		return;
	if (ff->rounds_sim == (double)ff->rounds) {
		const char *why = ff->st.steady ? "steady only near the end"
				  : ff->st.halves_seen ? "the two halves never agreed within the tolerance"
						       : "the run ended before the warm-up and two halves";

		fprintf(out, "Fast-forward: none, every %s simulated (%s: warm-up %.3f s, halves of "
			"at least %.3f s, simulated time)\n", round, why, (double)ff->st.warm_ns / 1e9,
			(double)ff->window_ns / 1e9);
		return;
	}
	fprintf(out, "Fast-forward: steady at %.3f s of simulated time (%.4g and %.4g %ss/ms in "
		"two %.3g ms halves), %.1f of %lld %ss simulated (mean of the %s), %.1f at %.1f "
		"us per %s added (%.3f s); a run's metrics cover the simulated part only\n",
		(double)ff->st.steady_at_ns / 1e9, ff->st.rate_a, ff->st.rate_b, round,
		(double)ff->st.span_ns / 1e6, ff->rounds_sim, ff->rounds, round, who,
		(double)ff->rounds - ff->rounds_sim, ff->st.ns_per_round / 1e3, round,
		ff->skip_ns / 1e9);
}

void fast_forward_info(const struct fast_forward *ff, struct wl_steady *out)
{
	*out = (struct wl_steady){ .asked = ff->on,
				   .engaged = ff->on && ff->rounds_sim < (double)ff->rounds,
				   .warm_ns = ff->st.warm_ns, .window_ns = ff->window_ns,
				   .tol = ff->tol, .at_ns = ff->st.steady ? ff->st.steady_at_ns : 0 };
}

void fast_forward_free(struct fast_forward *ff)
{
	steady_free(&ff->st);
}
