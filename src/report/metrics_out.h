/*
 * metrics_out.h - a run's metrics as text (for people) and as JSON (for
 * scripts), with the same names in both.
 */
#ifndef WS_METRICS_OUT_H
#define WS_METRICS_OUT_H

#include <json-c/json.h>
#include <stdio.h>

#include "machine/machine.h"
#include "metrics/metrics.h"

/* Derived figures of a run, in the units their names say. */
struct metrics_view {
	double wakeups;
	double wake_idle_pct, wake_waker_cpu_pct, wake_prev_cpu_pct, wake_queued_pct;
	double sis_calls, sis_cpus_per_call;
	double migrations_llc, migrations_cross_llc, migrations_cross_node;
	double run_delay_mean_us, run_delay_p99_us;
	double context_switches, ipis, forks;
	double newidle_pulls, lb_pulls;
	double cpu_util_pct;
	double coherence_pct;	/* share of busy CPU time spent on line transfers */
	double sim_seconds;
	double events;
	double idle_exits[WS_MAX_IDLE_STATES];
};

void metrics_view(const struct metrics *met, int nr_cpus, struct metrics_view *v);
/* "name  value" lines, indented. */
void metrics_print(FILE *out, const struct machine *m, const struct metrics_view *v);
/* A JSON object of the view (idle exits keyed by state name). */
json_object *metrics_json(const struct machine *m, const struct metrics_view *v);

#endif
