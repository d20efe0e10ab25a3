/*
 * compare_out.h - the result of `wakesim compare` as a table of sides x
 * load levels x runs, with its statistics and three renderings:
 *
 * - text, laid out as mmtests' compare-kernels prints (a block per
 *   statistic, a row per load level, a column per side, the change
 *   against the first side as "(  1.23%)", or "*  1.23%*" when Welch's
 *   t-test finds it significant), then per load level the diagnostic
 *   metrics and the idle exits per state, ranked by how much they moved;
 * - CSV, a row per (load level, side);
 * - JSON, the same figures with every run's value and the run manifest.
 *
 * Built from values alone (no simulation), so a table can be checked
 * against one built by hand.
 */
#ifndef WS_COMPARE_OUT_H
#define WS_COMPARE_OUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "metrics_out.h"
#include "robust_out.h"
#include "stats.h"

#define CMP_MAX_METRICS METRICS_MAX	/* as struct metrics_view */
/* Diagnostic numbers (d below) of the policies' counters start here. */
#define CMP_POLICY0 (CMP_MAX_METRICS + WS_MAX_IDLE_STATES)

/* One (load level, side): its runs and what is derived from them. */
struct cmp_cell {
	const double *values;	/* [n]: each run's result, in seed order */
	int n;
	double metric[CMP_MAX_METRICS];	/* mean over runs, by metric_defs[] index */
	double idle_exits[WS_MAX_IDLE_STATES];	/* mean exits per run, by idle state */
	double place[PLACE_ALL];	/* mean placements per run, by place_key (metrics_out.h) */
	double policy[POLICY_MAX_COUNTERS];	/* mean per run, by the table's policy_counter[] */
	/*
	 * 1: every run placed every task where the base's run of the same
	 * seed did (their placement digests are equal), so the side cannot
	 * differ but by costs; 0: some run did not; -1: not known.
	 */
	int same_placements;
	/*
	 * Runs with a steady-state rule on (--until-steady, --fast-forward),
	 * and how many of them it never engaged in: those measured the whole
	 * length, so the cell mixes two kinds of run.
	 */
	int steady_runs, not_steady;
	/* filled by cmp_table_stats() */
	struct summary s;
	double coeffvar;	/* 100 x stddev / arithmetic mean, % */
	double change_pct;	/* against the first side, positive = better */
	double p_value;		/* Welch's t-test against the first side; 1 for it */
	bool significant;	/* p_value < 1 - sig_level */
};

struct cmp_table {
	/* what was run: the manifest every rendering records */
	const char *version, *commit, *machine, *kernel, *cost_profile, *cpus, *sysctls, *workload;
	const char *assumed;	/* what the machine reader assumed, a line each; NULL or "": none */
	int nr_cpus, runs;
	unsigned long long first_seed;
	const char *unit;
	bool higher_is_better;	/* rates: Hmean; times and latencies: Amean */
	double sig_level;	/* confidence of the significance marker, 0.95 = 95% */
	int nsides, nloads;
	const char *const *side_name;	/* [nsides]; side 0 is the base */
	const char *const *side_features; /* [nsides] */
	/*
	 * [nsides], or NULL (not known): the side's policy replaces
	 * select_task_rq() whole, so placements of its own code
	 * ("policy:NAME") count its own choices; a policy of decision-point
	 * hooks leaves mainline's reasons, and no such count exists.
	 */
	const bool *side_whole_policy;
	const char *const *load;	/* [nloads]: "g=32", or "default" */
	json_object *command;		/* the command line for `wakesim rerun`, or NULL */
	int nr_idle_states;
	const char *const *idle_state;	/* [nr_idle_states]: keys, "POLL", "C1" */
	/* The sides' policies' counters, by name, in the order first met; 0 and NULL: none. */
	int nr_policy_counters;
	const char *const *policy_counter;
	struct cmp_cell *cell;		/* [nloads * nsides], load-major */
	/* compare --robust: the verdict under drawn costs (robust_out.h), or NULL */
	const struct robust_report *robust;
};

static inline struct cmp_cell *cmp_cell_at(const struct cmp_table *t, int load, int side)
{
	return &t->cell[load * t->nsides + side];
}

/*
 * Diagnostics are numbered d: a metric_defs[] index below CMP_MAX_METRICS
 * (those marked diagnostic), CMP_MAX_METRICS + i for idle state i's exits,
 * CMP_POLICY0 + k for the policies' counter k ("policy.NAME").
 * cmp_rank_diagnostics() fills out[] (up to max) with the ones shown,
 * ranked by the largest relative change of any side against the base at
 * load level load (-1: at any level); returns how many.
 */
int cmp_rank_diagnostics(const struct cmp_table *t, int load, int *out, int max);
double cmp_diag_value(const struct cmp_table *t, int load, int side, int d);
void cmp_diag_name(const struct cmp_table *t, int d, char *buf, size_t len);

/* Summaries, changes and p-values of every cell from its values. */
void cmp_table_stats(struct cmp_table *t);
/* The text report (mmtests layout, then ranked diagnostics). */
void cmp_print_text(const struct cmp_table *t, FILE *f);
/* CSV: a header, then a row per (load, side). */
void cmp_print_csv(const struct cmp_table *t, FILE *f);
/* JSON: manifest, sides, rows of per-side figures. Caller puts it. */
json_object *cmp_json(const struct cmp_table *t);

#endif
