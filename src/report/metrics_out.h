/*
 * metrics_out.h - a run's metrics as text (for people) and as JSON (for
 * scripts): one table of names drives both, and compare's diagnostics.
 */
#ifndef WS_METRICS_OUT_H
#define WS_METRICS_OUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "machine/machine.h"
#include "metrics/metrics.h"

/* Derived figures of a run, in the units their names say. */
struct metrics_view {
	double v[40];			/* by index of metric_defs[] */
	double idle_exits[WS_MAX_IDLE_STATES];
};

struct metric_def {
	const char *name;		/* as printed and as the JSON key */
	int decimals;			/* 0: a count (a JSON integer) */
	bool diagnostic;		/* shown under compare's table */
	bool only_if_nonzero;		/* a seed's hit counter: shown when it fired */
};

extern const struct metric_def metric_defs[];
extern const int nr_metric_defs;

/* An idle state's name as a key: "C1E" stays, "C1-ACPI" becomes "C1_ACPI". */
void metrics_state_key(const char *name, char *out, size_t len);
/* Derive the view; utilisation is over nr_cpus (the CPUs the workload may use). */
void metrics_view(const struct metrics *met, int nr_cpus, struct metrics_view *v);
/* "name  value" lines, indented. */
void metrics_print(FILE *out, const struct machine *m, const struct metrics_view *v);
/* A JSON object of the view (idle exits keyed by state name). */
json_object *metrics_json(const struct machine *m, const struct metrics_view *v);

#endif
