/*
 * ratesteady.c - --until-steady (ratesteady.h).
 */

#include "launcher.h"
#include "ratesteady.h"

void rate_steady_init(struct rate_steady *rs)
{
	*rs = (struct rate_steady){ .window_ns = 100 * NSEC_PER_MSEC, .tol = 0.02 };
}

int rate_steady_option(struct rate_steady *rs, int opt, const char *tool, const char *arg,
		       char *err, size_t errlen)
{
	switch (opt) {
	case RS_OPT_UNTIL:
		rs->on = true;
		return 1;
	case RS_OPT_WINDOW:
		rs->opts = true;
		return wl_parse_seconds(tool, "--steady-window", arg, NSEC_PER_MSEC,
					WL_MAX_SECONDS * NSEC_PER_SEC, &rs->window_ns, err, errlen)
			       ? -1
			       : 1;
	case RS_OPT_TOL: {
		long v;

		rs->opts = true;
		if (wl_parse_long(tool, "--steady-tolerance", arg, 1, 50, &v, err, errlen))
			return -1;
		rs->tol = (double)v / 100;
		return 1;
	}
	}
	return 0;
}

u64 rate_steady_warmup_ns(struct sim *sim)
{
	u64 flips = 2 * (NSEC_PER_SEC + sim->tun->tick_ns), settle = steady_sched_settle_ns(sim);

	return flips > settle ? flips : settle;
}

static void checkpoint(struct sim *sim, struct sim_timer *t)
{
	struct rate_steady *rs = t->data;

	if (steady_unit_done(&rs->st, sim->now, rs->units(sim, rs->arg))) {
		rs->stop(sim, rs->arg);
		return;
	}
	if (!rs->st.oom)
		timer_arm(sim, &rs->tm, -1, rs->st.next_ns);
}

void rate_steady_begin(struct sim *sim, struct rate_steady *rs, u64 start_ns, u64 warm_ns)
{
	rs->warm_ns = warm_ns;
	steady_start(&rs->st, start_ns, 0, rs->window_ns, rs->tol, 1);
	timer_init(&rs->tm, checkpoint, rs);
	if (rs->units)
		timer_arm(sim, &rs->tm, -1, start_ns);
}

bool rate_steady_point(struct rate_steady *rs, u64 now, u64 units)
{
	return rs->on && steady_unit_done(&rs->st, now, units);
}

void rate_steady_end(struct sim *sim, struct rate_steady *rs)
{
	if (!rs->on || rs->st.steady)
		return;
	timer_cancel(sim, &rs->tm);
}

void rate_steady_report(const struct rate_steady *rs, const char *unit, double per_ms,
			FILE *out)
{
	if (!rs->on)
		return;
	if (rs->st.steady) {
		fprintf(out, "until-steady: steady at %.3f s of measurement (%.2f and %.2f %s in two "
			"%.3f s halves, within %g%%), after a warm-up of %.3f s; the rate is the "
			"whole span's\n",
			(double)rs->st.steady_at_ns / 1e9, rs->st.rate_a * per_ms,
			rs->st.rate_b * per_ms, unit, (double)rs->st.span_ns / 1e9, rs->tol * 100,
			(double)rs->warm_ns / 1e9);
		return;
	}
	fprintf(out, "until-steady: not steady, the whole length measured (%s; warm-up %.3f s, "
		"halves of at least %.3f s within %g%%)\n",
		rs->st.halves_seen ? "the two halves never agreed"
				   : "the length ended before two halves",
		(double)rs->warm_ns / 1e9, (double)rs->window_ns / 1e9, rs->tol * 100);
}

void rate_steady_info(const struct rate_steady *rs, struct wl_steady *out)
{
	*out = (struct wl_steady){ .asked = rs->on, .engaged = rs->on && rs->st.steady,
				   .warm_ns = rs->warm_ns, .window_ns = rs->window_ns, .tol = rs->tol,
				   .at_ns = rs->st.steady ? rs->st.steady_at_ns : 0 };
}

void rate_steady_free(struct rate_steady *rs)
{
	steady_free(&rs->st);
}
