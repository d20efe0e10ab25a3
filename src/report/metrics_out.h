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
#include "kern/metrics.h"

#define METRICS_MAX 56

/*
 * Placement counts (kern/placement.h) as one array: the reasons, then the
 * affine steps, then the distances moved. place_key_name() names each.
 */
#define PLACE_AFFINE0 PR_NR
#define PLACE_DIST0 (PR_NR + PA_NR)
#define PLACE_ALL (PR_NR + PA_NR + PLACE_DIST_NR)

/* Derived figures of a run, in the units their names say. */
struct metrics_view {
	double v[METRICS_MAX];		/* by index of metric_defs[] */
	double idle_exits[WS_MAX_IDLE_STATES];
	double place[PLACE_ALL];	/* counts, by place_key */
	/* The policy's own counters (struct metrics), named as it registered them. */
	int nr_policy;
	const char *policy_name[POLICY_MAX_COUNTERS];
	double policy[POLICY_MAX_COUNTERS];
};

/* Group ("reason", "affine", "migrate") and name of placement key k. */
const char *place_key_group(int k);
const char *place_key_name(int k);
/* Keys [*from, *to) of group g: 0 reasons, 1 affine steps, 2 distances. */
void place_group_range(int g, int *from, int *to);
extern const char *const place_group_title[3];
/* Whether key k has a row in the tables (forks' "none" affine step has not). */
bool place_key_shown(int k);

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
/*
 * The placements by reason, by affine step and by distance moved, each
 * row a count and its share of the group's total; policy names PR_POLICY
 * (NULL: "policy").
 */
void placements_print(FILE *out, const struct metrics_view *v, const char *policy);
/*
 * {"reason": {name: n}, "affine": {...}, "migrate": {...}} of place[]
 * (PLACE_ALL values): integers if counts, else (means over runs) doubles.
 */
json_object *placements_json(const double *place, bool counts);
/* A JSON object of the view (idle exits keyed by state name, placements by group). */
json_object *metrics_json(const struct machine *m, const struct metrics_view *v);

#endif
