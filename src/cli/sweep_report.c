/*
 * sweep_report.c - a sweep's report from its shard documents (sweep.h):
 * each document checked against the shard schema and the plan, the jobs
 * gathered, a compare table per machine and workload.
 */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/compare_out.h"
#include "report/winloss.h"
#include "report/winmap.h"
#include "util/jsondoc.h"
#include "util/jsonin.h"

/* ---- rendering the report from shard documents ---- */

struct merged {
	struct sweep_plan plan;
	const char *plan_file;
	json_object **res;		/* [nr_jobs]: each job's result object */
	json_object *machines;		/* from the first document */
	/*
	 * The summary's cells: [policy - 1][the plan's (machine, workload,
	 * load) in order], filled as the tables are; labels owned here.
	 */
	struct wl_cell *wl;
	int nr_wl;			/* cells per policy */
	char (*wl_load)[96];		/* [nr_wl]: their load labels */
};

static int doc_fail(const char *name, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", name, what);
	return -1;
}

/* A field a checked document has: check_doc() has vouched for it. */
static json_object *get(json_object *o, const char *key, json_type type)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* Array field key of o (at prefix) of exactly n elements (any length if n < 0). */
static int get_array(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		     long long n, json_object **v)
{
	if (json_in_get(in, o, prefix, key, json_type_array, true, v))
		return -1;
	if (n >= 0 && (long long)json_object_array_length(*v) != n) {
		char path[256];

		snprintf(path, sizeof(path), "%s%s", prefix, key);
		return json_in_fail(in, path, "%zu element%s, where the plan implies %lld",
				    json_object_array_length(*v),
				    json_object_array_length(*v) == 1 ? "" : "s", n);
	}
	return 0;
}

/* Every element of array a (at path) a figure: a number, or null. */
static int figures(const struct json_in *in, json_object *a, const char *path)
{
	char ep[300];

	for (size_t k = 0; k < json_object_array_length(a); k++) {
		snprintf(ep, sizeof(ep), "%s[%zu]", path, k);
		if (json_in_figure(in, json_object_array_get_idx(a, k), ep, true))
			return -1;
	}
	return 0;
}

/*
 * A machine's "robust" (the costs drawn and each draw's values): there
 * exactly when the plan has "robust", with a draw per cost draw and a
 * value per cost.
 */
static int check_robust(const struct json_in *in, json_object *o, const char *pre,
			const struct sweep_plan *p)
{
	static const char *const rkeys[] = { "costs", "draw_costs", NULL };
	static const char *const ckeys[] = { "cost", "unit", "nominal", "min", "max", NULL };
	char rpre[96], path[160];
	json_object *r, *costs, *draws, *v;

	snprintf(path, sizeof(path), "%srobust", pre);
	if (json_in_get(in, o, pre, "robust", json_type_object, p->robust > 0, &r))
		return -1;
	if (!p->robust)
		return r ? json_in_fail(in, path, "present, where the plan has no \"robust\"") : 0;
	snprintf(rpre, sizeof(rpre), "%s.", path);
	if (json_in_known(in, r, rpre, rkeys) || get_array(in, r, rpre, "costs", -1, &costs))
		return -1;
	long long nc = (long long)json_object_array_length(costs);

	if (nc < 1 || nc > COST_KEYS_MAX) {
		snprintf(path, sizeof(path), "%scosts", rpre);
		return json_in_fail(in, path, "expected 1..%d costs", COST_KEYS_MAX);
	}
	for (long long k = 0; k < nc; k++) {
		char cpre[200];
		json_object *c = json_object_array_get_idx(costs, (size_t)k);

		snprintf(cpre, sizeof(cpre), "%scosts[%lld]", rpre, k);
		if (!json_object_is_type(c, json_type_object))
			return json_in_fail(in, cpre, "expected an object");
		strcat(cpre, ".");
		if (json_in_known(in, c, cpre, ckeys) ||
		    json_in_get(in, c, cpre, "cost", json_type_string, true, &v) ||
		    json_in_get(in, c, cpre, "unit", json_type_string, true, &v))
			return -1;
		for (int f = 2; f < 5; f++) {
			snprintf(path, sizeof(path), "%s%s", cpre, ckeys[f]);
			if (json_in_get(in, c, cpre, ckeys[f], json_type_double, true, &v) ||
			    json_in_figure(in, v, path, false))
				return -1;
		}
	}
	if (get_array(in, r, rpre, "draw_costs", p->robust, &draws))
		return -1;
	for (int i = 0; i < p->robust; i++) {
		char dpre[200];

		snprintf(dpre, sizeof(dpre), "%sdraw_costs[%d]", rpre, i);
		v = json_object_array_get_idx(draws, (size_t)i);
		if (!json_object_is_type(v, json_type_array) ||
		    (long long)json_object_array_length(v) != nc)
			return json_in_fail(in, dpre, "expected an array of %lld numbers", nc);
		for (long long k = 0; k < nc; k++) {
			json_object *c = json_object_array_get_idx(costs, (size_t)k), *x, *lv, *hv;
			double lo, hi, d;

			snprintf(path, sizeof(path), "%s[%lld]", dpre, k);
			x = json_object_array_get_idx(v, (size_t)k);
			if (json_in_figure(in, x, path, false))
				return -1;
			/* Checked as figures above. */
			json_object_object_get_ex(c, "min", &lv);
			json_object_object_get_ex(c, "max", &hv);
			lo = json_object_get_double(lv);
			hi = json_object_get_double(hv);
			d = json_object_get_double(x);
			if (d < lo || d > hi)
				return json_in_fail(in, path, "%g is outside the cost's range %g..%g", d, lo,
						    hi);
		}
	}
	return 0;
}

/* A shard's machine m against the plan's. */
static int check_machine(const struct json_in *in, json_object *o, int m,
			 const struct sweep_plan *p)
{
	static const char *const mkeys[] = { "spec", "name", "nr_cpus", "cost_profile", "idle_states",
					     "assumed", "robust", NULL };
	char pre[64], path[96];
	json_object *v;
	int nc = 0;

	snprintf(pre, sizeof(pre), "machines[%d].", m);
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(path, sizeof(path), "machines[%d]", m);
		return json_in_fail(in, path, "expected an object");
	}
	if (json_in_known(in, o, pre, mkeys) ||
	    json_in_get(in, o, pre, "spec", json_type_string, true, &v))
		return -1;
	if (strcmp(json_object_get_string(v), p->machine[m])) {
		snprintf(path, sizeof(path), "%sspec", pre);
		return json_in_fail(in, path, "\"%s\", where the plan has \"%s\"",
				    json_object_get_string(v), p->machine[m]);
	}
	if (json_in_get(in, o, pre, "name", json_type_string, true, &v) ||
	    json_in_get(in, o, pre, "cost_profile", json_type_string, true, &v) ||
	    json_in_get(in, o, pre, "assumed", json_type_string, true, &v) ||
	    json_in_int(in, o, pre, "nr_cpus", true, 1, WS_MAX_CPUS, &nc) ||
	    json_in_get(in, o, pre, "idle_states", json_type_array, true, &v))
		return -1;
	snprintf(path, sizeof(path), "%sidle_states", pre);
	if (json_object_array_length(v) > WS_MAX_IDLE_STATES)
		return json_in_fail(in, path, "more than %d idle states", WS_MAX_IDLE_STATES);
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string)) {
			snprintf(path, sizeof(path), "%sidle_states[%zu]", pre, i);
			return json_in_fail(in, path, "expected a string");
		}
	return check_robust(in, o, pre, p);
}

/* Result i of shard si of sn against the plan; ms the shard's machines. */
static int check_result(const struct json_in *in, json_object *o, size_t i, int si, int sn,
			const struct sweep_plan *p, json_object *ms)
{
	static const char *const rkeys[] = { "job", "value", "unit", "higher_is_better", "metrics",
					     "idle_exits", "placements", "placement_digest", "steady",
					     NULL };
	int nm = nr_metric_defs < CMP_MAX_METRICS ? nr_metric_defs : CMP_MAX_METRICS;
	char pre[64], path[96];
	json_object *v, *jv;
	long long j;
	struct plan_job c;

	snprintf(pre, sizeof(pre), "results[%zu].", i);
	snprintf(path, sizeof(path), "results[%zu]", i);
	if (!json_object_is_type(o, json_type_object))
		return json_in_fail(in, path, "expected an object");
	if (json_in_known(in, o, pre, rkeys) ||
	    json_in_get(in, o, pre, "job", json_type_int, true, &jv))
		return -1;
	snprintf(path, sizeof(path), "%sjob", pre);
	if (json_in_llong(in, jv, path, 0, p->nr_jobs - 1, &j))
		return -1;
	if (j % sn != si - 1)
		return json_in_fail(in, path, "job %lld is not one of shard %d/%d's", j, si, sn);
	sweep_plan_job(p, j, &c);
	json_object *mj = json_object_array_get_idx(ms, (size_t)c.machine);
	long long nst = (long long)json_object_array_length(get(mj, "idle_states", json_type_array));

	if (json_in_get(in, o, pre, "value", json_type_double, true, &v))
		return -1;
	snprintf(path, sizeof(path), "%svalue", pre);
	if (json_in_figure(in, v, path, false) ||
	    json_in_get(in, o, pre, "unit", json_type_string, true, &v) ||
	    json_in_get(in, o, pre, "higher_is_better", json_type_boolean, true, &v) ||
	    /* "steady": present only when the job's rule was on. */
	    json_in_get(in, o, pre, "steady", json_type_boolean, false, &v))
		return -1;
	static const char *const arrays[] = { "metrics", "idle_exits", "placements" };
	const long long len[] = { nm, nst, PLACE_ALL };

	for (int a = 0; a < 3; a++) {
		snprintf(path, sizeof(path), "%s%s", pre, arrays[a]);
		if (get_array(in, o, pre, arrays[a], len[a], &v) || figures(in, v, path))
			return -1;
	}
	if (json_in_get(in, o, pre, "placement_digest", json_type_string, true, &v))
		return -1;
	if (json_object_get_string_len(v) != 16 ||
	    strspn(json_object_get_string(v), "0123456789abcdef") != 16) {
		snprintf(path, sizeof(path), "%splacement_digest", pre);
		return json_in_fail(in, path, "expected 16 hex digits");
	}
	return 0;
}

/*
 * Everything of a shard document besides its plan: its header, machines
 * and results, each of the type and size the plan implies. A hand-edited
 * or foreign document is refused with what is wrong, not rendered.
 */
static int check_doc(const struct json_in *in, json_object *doc, const struct sweep_plan *p,
		     int *si, int *sn)
{
	static const char *const top[] = { "wakesim_sweep", "wakesim_version", "wakesim_commit",
		"plan_file", "plan_hash", "plan", "shard", "jobs_total", "machines", "results", NULL };
	json_object *sh, *v, *ms, *res;
	char hash[32];
	long long x;

	if (json_in_known(in, doc, "", top) ||
	    json_in_get(in, doc, "", "wakesim_version", json_type_string, true, &v) ||
	    json_in_get(in, doc, "", "plan_hash", json_type_string, true, &v))
		return -1;
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)p->hash);
	if (strcmp(json_object_get_string(v), hash))
		return json_in_fail(in, "plan_hash", "the plan text does not hash to it (edited?)");
	if (get_array(in, doc, "", "shard", 2, &sh) ||
	    json_in_llong(in, json_object_array_get_idx(sh, 1), "shard[1]", 1, p->nr_jobs, &x))
		return -1;
	*sn = (int)x;
	if (json_in_llong(in, json_object_array_get_idx(sh, 0), "shard[0]", 1, *sn, &x))
		return -1;
	*si = (int)x;
	if (json_in_get(in, doc, "", "jobs_total", json_type_int, true, &v) ||
	    json_in_llong(in, v, "jobs_total", p->nr_jobs, p->nr_jobs, &x) ||
	    get_array(in, doc, "", "machines", p->nr_machines, &ms))
		return -1;
	for (int m = 0; m < p->nr_machines; m++)
		if (check_machine(in, json_object_array_get_idx(ms, (size_t)m), m, p))
			return -1;
	if (get_array(in, doc, "", "results", -1, &res))
		return -1;
	for (size_t i = 0; i < json_object_array_length(res); i++)
		if (check_result(in, json_object_array_get_idx(res, i), i, *si, *sn, p, ms))
			return -1;
	return 0;
}

/* Check shard documents against each other and gather every job once. */
static int gather(const struct sweep_doc *docs, int n, struct merged *mg, char *err, size_t errlen)
{
	const char *hash0 = NULL, *commit0 = NULL;
	int shards = 0;

	memset(mg, 0, sizeof(*mg));
	for (int d = 0; d < n; d++) {
		json_object *doc = docs[d].doc, *res, *ms, *v;
		const char *hash, *commit, *text, *file;
		const char *name = docs[d].name;
		struct json_in in = { .file = name, .text = docs[d].text, .len = docs[d].len,
				      .err = err, .errlen = errlen };

		if (!json_object_is_type(doc, json_type_object) ||
		    !(v = get(doc, "wakesim_sweep", json_type_int)) || json_object_get_int(v) != SHARD_FORMAT)
			return doc_fail(name, "not a wakesim sweep shard (no \"wakesim_sweep\": 1)", err,
					errlen);
		if (json_in_get(&in, doc, "", "plan_hash", json_type_string, true, &v))
			return -1;
		hash = json_object_get_string(v);
		if (json_in_get(&in, doc, "", "wakesim_commit", json_type_string, true, &v))
			return -1;
		commit = json_object_get_string(v);
		if (json_in_get(&in, doc, "", "plan", json_type_string, true, &v))
			return -1;
		text = json_object_get_string(v);
		if (json_in_get(&in, doc, "", "plan_file", json_type_string, true, &v))
			return -1;
		file = json_object_get_string(v);
		if (json_in_get(&in, doc, "", "results", json_type_array, true, &res) ||
		    json_in_get(&in, doc, "", "machines", json_type_array, true, &ms))
			return -1;
		int sn = 0, si = 0;

		if (!d) {
			hash0 = hash;
			commit0 = commit;
			mg->plan_file = file;
			mg->machines = ms;
			if (sweep_plan_parse(text, strlen(text), file, &mg->plan, err, errlen))
				return -1;
			/* A job's result, NULL until a shard gives it. */
			mg->res = calloc((size_t)mg->plan.nr_jobs, sizeof(*mg->res));
			if (!mg->res)
				return doc_fail(name, "out of memory", err, errlen);
		} else if (strcmp(hash, hash0)) {
			snprintf(err, errlen, "%s: a shard of another plan (plan_hash %s) than %s's (%s)",
				 name, hash, docs[0].name, hash0);
			return -1;
		} else if (strcmp(text, mg->plan.text)) {
			return json_in_fail(&in, "plan", "differs from the first shard's (edited?)");
		} else if (strcmp(commit, commit0)) {
			snprintf(err, errlen, "%s: made by wakesim %s, %s by %s: shards must come from one "
				 "build", name, commit, docs[0].name, commit0);
			return -1;
		}
		if (check_doc(&in, doc, &mg->plan, &si, &sn))
			return -1;
		/* Every shard drew the same costs: the design comes from the plan. */
		for (int m = 0; d && m < mg->plan.nr_machines; m++)
			if (!json_object_equal(get(json_object_array_get_idx(ms, (size_t)m), "robust",
						   json_type_object),
					       get(json_object_array_get_idx(mg->machines, (size_t)m),
						   "robust", json_type_object))) {
				char path[64];

				snprintf(path, sizeof(path), "machines[%d].robust", m);
				return json_in_fail(&in, path, "differs from %s's (edited?)",
						    docs[0].name);
			}
		if (!d)
			shards = sn;
		if (sn != shards) {
			snprintf(err, errlen, "%s: a shard of %d, %s one of %d", name, sn, docs[0].name,
				 shards);
			return -1;
		}
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			/* check_doc() has vouched for every job number. */
			json_object *o = json_object_array_get_idx(res, i);
			long long j = json_object_get_int64(get(o, "job", json_type_int));

			if (mg->res[j]) {
				snprintf(err, errlen, "%s: job %lld is in two shards (one given twice?)",
					 name, j);
				return -1;
			}
			mg->res[j] = o;
		}
	}
	for (long long j = 0; j < mg->plan.nr_jobs; j++)
		if (!mg->res[j]) {
			struct plan_job c;

			sweep_plan_job(&mg->plan, j, &c);
			snprintf(err, errlen, "job %lld (machine %s, workload %s, policy %s, seed %llu) has "
				 "no result: shard %lld of %d is missing", j, mg->plan.machine[c.machine],
				 mg->plan.wl[c.workload].name, mg->plan.pol[c.policy].name,
				 (unsigned long long)(mg->plan.seed + (uint64_t)c.run), j % shards + 1, shards);
			return -1;
		}
	/* One workload on one machine reports one unit, one way. */
	for (long long j = 0; j < mg->plan.nr_jobs; j++) {
		struct plan_job c;

		sweep_plan_job(&mg->plan, j, &c);
		c.load = c.policy = c.run = c.draw = 0;
		json_object *a = mg->res[sweep_plan_index(&mg->plan, &c)], *b = mg->res[j];

		if (strcmp(json_object_get_string(get(a, "unit", json_type_string)),
			   json_object_get_string(get(b, "unit", json_type_string))) ||
		    json_object_get_boolean(get(a, "higher_is_better", json_type_boolean)) !=
			    json_object_get_boolean(get(b, "higher_is_better", json_type_boolean))) {
			snprintf(err, errlen, "job %lld: its unit or direction differs from the rest of "
				 "its workload's (an edited shard?)", j);
			return -1;
		}
	}
	return 0;
}

static double jnum(json_object *o)
{
	return o ? json_object_get_double(o) : NAN;
}

/* A table's robustness block ("robust"), built from the shards' draws. */
struct robust_block {
	struct robust_report rep;
	double *vals, *change, *cmin, *cmax, *nominal, *value;
	const char **cost, **unit;
	struct robust_row *rows;
};

static void robust_block_free(struct robust_block *b)
{
	free(b->vals);
	free(b->change);
	free(b->cmin);
	free(b->cmax);
	free(b->nominal);
	free(b->value);
	free(b->cost);
	free(b->unit);
	free(b->rows);
}

/*
 * Machine m's draws of workload w: each draw's changes, computed from its
 * jobs as compare --robust computes them, against t (the nominal table,
 * its statistics done). Returns 0 or -1 (out of memory).
 */
static int robust_block(const struct merged *mg, int m, int w, const struct cmp_table *t,
			struct robust_block *b)
{
	const struct sweep_plan *p = &mg->plan;
	int nd = p->robust, np = t->nsides, nl = t->nloads, runs = t->runs, ncell = nl * np;
	json_object *rb = get(json_object_array_get_idx(mg->machines, (size_t)m), "robust",
			      json_type_object);
	json_object *r = get(rb, "costs", json_type_array), *dc = get(rb, "draw_costs",
								      json_type_array);
	int nc = (int)json_object_array_length(r);

	b->vals = calloc((size_t)nd * (size_t)ncell * (size_t)runs, sizeof(*b->vals));
	b->change = calloc((size_t)nd * (size_t)ncell, sizeof(*b->change));
	b->cmin = calloc((size_t)nc, sizeof(double));
	b->cmax = calloc((size_t)nc, sizeof(double));
	b->nominal = calloc((size_t)nc, sizeof(double));
	b->value = calloc((size_t)nc * (size_t)nd, sizeof(double));
	b->cost = calloc((size_t)nc, sizeof(*b->cost));
	b->unit = calloc((size_t)nc, sizeof(*b->unit));
	b->rows = calloc((size_t)ncell, sizeof(*b->rows));
	if (!b->vals || !b->change || !b->cmin || !b->cmax || !b->nominal || !b->value ||
	    !b->cost || !b->unit || !b->rows)
		return -1;
	for (int d = 0; d < nd; d++)
		for (int c = 0; c < ncell; c++)
			for (int k = 0; k < runs; k++) {
				struct plan_job j = { .machine = m, .workload = w, .load = c / np,
						      .policy = c % np, .draw = d + 1, .run = k };
				json_object *o = mg->res[sweep_plan_index(p, &j)], *v;

				b->vals[((size_t)d * (size_t)ncell + (size_t)c) * (size_t)runs + (size_t)k] =
					json_object_object_get_ex(o, "value", &v) ? jnum(v) : NAN;
			}
	if (robust_changes(t, nd, b->vals, b->change))
		return -1;
	for (int k = 0; k < nc; k++) {
		json_object *c = json_object_array_get_idx(r, (size_t)k), *v;

		b->cost[k] = json_object_get_string(get(c, "cost", json_type_string));
		b->unit[k] = json_object_get_string(get(c, "unit", json_type_string));
		b->cmin[k] = jnum(json_object_object_get_ex(c, "min", &v) ? v : NULL);
		b->cmax[k] = jnum(json_object_object_get_ex(c, "max", &v) ? v : NULL);
		b->nominal[k] = jnum(json_object_object_get_ex(c, "nominal", &v) ? v : NULL);
		for (int d = 0; d < nd; d++)
			b->value[d * nc + k] = jnum(json_object_array_get_idx(
				json_object_array_get_idx(dc, (size_t)d), (size_t)k));
	}
	for (int c = 0; c < ncell; c++) {
		b->rows[c].nominal = t->cell[c].change_pct;
		b->rows[c].change = b->change + (size_t)c * (size_t)nd;
	}
	b->rep = (struct robust_report){ .ndraws = nd, .ncosts = nc,
		.seed = (unsigned long long)p->seed, .cost = b->cost, .unit = b->unit,
		.cmin = b->cmin, .cmax = b->cmax, .nominal = b->nominal, .value = b->value,
		.nloads = nl, .nsides = np, .row = b->rows };
	robust_analyse(&b->rep);
	return 0;
}

/* One compare table: machine m, workload w; rendered as text or added to tables. */
static int render_table(struct merged *mg, int m, int w, bool json, json_object *tables,
			FILE *f)
{
	const struct sweep_plan *p = &mg->plan;
	const struct plan_workload *wl = &p->wl[w];
	int np = p->nr_policies, nl = wl->nr_loads, runs = p->runs;
	json_object *mj = json_object_array_get_idx(mg->machines, (size_t)m);
	json_object *st = get(mj, "idle_states", json_type_array);
	int nst = st ? (int)json_object_array_length(st) : 0;
	struct cmp_cell *cells = calloc((size_t)(nl * np), sizeof(*cells));
	double *vals = calloc((size_t)(nl * np * runs), sizeof(*vals));
	const char **lname = calloc((size_t)nl, sizeof(*lname)), **sn = calloc((size_t)np, sizeof(*sn));
	const char **sf = calloc((size_t)np, sizeof(*sf)), *sp[WS_MAX_IDLE_STATES];
	char (*lbuf)[96] = calloc((size_t)nl, sizeof(*lbuf)), cmd[4096];
	struct robust_block rb = { 0 };
	int ret = -1;

	if (!cells || !vals || !lname || !sn || !sf || !lbuf || nst > WS_MAX_IDLE_STATES)
		goto out;
	size_t off = 0;

	cmd[0] = '\0';
	for (int i = 0; i < wl->argc && off < sizeof(cmd); i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, "%s%s", i ? " " : "", wl->argv[i]);
	for (int i = 0; i < nst; i++)
		sp[i] = json_object_get_string(json_object_array_get_idx(st, (size_t)i));
	for (int l = 0; l < nl; l++) {
		if (wl->load_name)
			snprintf(lbuf[l], sizeof(lbuf[l]), "%s=%s", wl->load_name, wl->load_val[l]);
		else
			snprintf(lbuf[l], sizeof(lbuf[l]), "default");
		lname[l] = lbuf[l];
	}
	for (int s = 0; s < np; s++) {
		sn[s] = p->pol[s].name;
		sf[s] = p->pol[s].features;
	}
	json_object *first = NULL;

	for (int l = 0; l < nl; l++)
		for (int s = 0; s < np; s++) {
			struct cmp_cell *cl = &cells[l * np + s];

			cl->values = vals + (size_t)(l * np + s) * (size_t)runs;
			cl->n = runs;
			for (int r = 0; r < runs; r++) {
				struct plan_job c = { .machine = m, .workload = w, .load = l, .policy = s,
						      .run = r };
				json_object *o = mg->res[sweep_plan_index(p, &c)], *v;

				if (!first)
					first = o;
				vals[(l * np + s) * runs + r] = json_object_object_get_ex(o, "value", &v)
									? jnum(v) : NAN;
				json_object *mv = get(o, "metrics", json_type_array);
				json_object *ie = get(o, "idle_exits", json_type_array);

				for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
					cl->metric[d] += jnum(json_object_array_get_idx(mv, (size_t)d)) / runs;
				for (int i = 0; i < nst; i++)
					cl->idle_exits[i] += jnum(json_object_array_get_idx(ie, (size_t)i)) / runs;
				json_object *pl = get(o, "placements", json_type_array);

				for (int k = 0; k < PLACE_ALL; k++)
					cl->place[k] += jnum(json_object_array_get_idx(pl, (size_t)k)) / runs;
				json_object *sv;

				if (json_object_object_get_ex(o, "steady", &sv)) {
					cl->steady_runs++;
					cl->not_steady += !json_object_get_boolean(sv);
				}
				/* The same seed's run of the first policy is the base. */
				struct plan_job bc = { .machine = m, .workload = w, .load = l, .run = r };
				json_object *bo = mg->res[sweep_plan_index(p, &bc)];
				const char *d1 = json_object_get_string(get(o, "placement_digest",
									   json_type_string));
				const char *d0 = json_object_get_string(get(bo, "placement_digest",
									   json_type_string));

				if (r == 0)
					cl->same_placements = 1;
				if (strcmp(d0, d1))
					cl->same_placements = 0;
			}
		}
	json_object *hv = get(first, "higher_is_better", json_type_boolean);
	bool per_side_kernel = false;

	for (int s = 0; s < np; s++)
		per_side_kernel |= strstr(p->pol[s].features, "kernel=") != NULL;
	struct cmp_table t = {
		.version = WAKESIM_VERSION,
		.commit = WAKESIM_COMMIT,
		.machine = json_object_get_string(get(mj, "name", json_type_string)),
		.kernel = per_side_kernel ? "per side" : p->kernel ? p->kernel : "mainline",
		.cost_profile = json_object_get_string(get(mj, "cost_profile", json_type_string)),
		.assumed = json_object_get_string(get(mj, "assumed", json_type_string)),
		.cpus = "all",
		.sysctls = "default",
		.workload = cmd,
		.nr_cpus = json_object_get_int(get(mj, "nr_cpus", json_type_int)),
		.runs = runs,
		.first_seed = (unsigned long long)p->seed,
		.unit = json_object_get_string(get(first, "unit", json_type_string)),
		.higher_is_better = hv && json_object_get_boolean(hv),
		.sig_level = 0.95,
		.nsides = np,
		.nloads = nl,
		.side_name = sn,
		.side_features = sf,
		.load = lname,
		.nr_idle_states = nst,
		.idle_state = sp,
		.cell = cells,
	};

	cmp_table_stats(&t);
	if (p->robust && robust_block(mg, m, w, &t, &rb))
		goto out;
	if (p->robust)
		t.robust = &rb.rep;
	/* Each policy's cells for the summary, in plan order. */
	int at = 0;

	for (int ww = 0; ww < p->nr_workloads; ww++)
		at += (ww < w ? m + 1 : m) * p->wl[ww].nr_loads;
	for (int l = 0; l < nl; l++) {
		snprintf(mg->wl_load[at + l], sizeof(mg->wl_load[at + l]), "%s", lbuf[l]);
		for (int s = 1; s < np; s++) {
			const struct cmp_cell *cl = &cells[l * np + s];

			mg->wl[(s - 1) * mg->nr_wl + at + l] = (struct wl_cell){
				.machine = t.machine,
				.workload = wl->name,
				.load = mg->wl_load[at + l],
				.load_pct = winloss_load_pct(wl->load_name, wl->load_name ? wl->load_val[l] : NULL,
							     t.nr_cpus),
				.change_pct = cl->change_pct,
				.significant = cl->significant,
				.never_changed = cl->same_placements == 1,
			};
		}
	}
	if (json) {
		json_object *o = cmp_json(&t);

		json_object_object_add(o, "workload_name", json_object_new_string(wl->name));
		json_object_array_add(tables, o);
	} else {
		fprintf(f, "== machine %s, workload %s\n", p->machine[m], wl->name);
		cmp_print_text(&t, f);
		fputc('\n', f);
	}
	ret = 0;
out:
	robust_block_free(&rb);
	free(cells);
	free(vals);
	free(lname);
	free(sn);
	free(sf);
	free(lbuf);
	return ret;
}

int sweep_render(const struct sweep_doc *docs, int n, bool json, const char *plot_dir, FILE *f,
		 char *err, size_t errlen)
{
	struct merged mg;
	int ret = -1;

	if (gather(docs, n, &mg, err, errlen))
		goto out;
	const struct sweep_plan *p = &mg.plan;
	json_object *tables = json ? json_object_new_array() : NULL;

	/* The plan's file by its base name: the same sweep run from elsewhere prints the same. */
	const char *base = strrchr(mg.plan_file, '/') ? strrchr(mg.plan_file, '/') + 1 : mg.plan_file;

	int levels = 0;

	for (int w = 0; w < p->nr_workloads; w++)
		levels += p->wl[w].nr_loads;
	char draws[64] = "";

	if (p->robust)
		snprintf(draws, sizeof(draws), " x %d cost profiles (nominal and %d drawn)",
			 p->robust + 1, p->robust);
	if (!json)
		fprintf(f, "wakesim sweep %s (%s): %d machine%s x %d workload load level%s (%d "
			"workload%s) x %d polic%s x %d seed%s%s = %lld simulations\n\n", p->name, base,
			p->nr_machines, p->nr_machines == 1 ? "" : "s", levels, levels == 1 ? "" : "s",
			p->nr_workloads, p->nr_workloads == 1 ? "" : "s", p->nr_policies,
			p->nr_policies == 1 ? "y" : "ies", p->runs, p->runs == 1 ? "" : "s", draws,
			p->nr_jobs);
	mg.nr_wl = p->nr_machines * levels;
	mg.wl = calloc((size_t)(mg.nr_wl * (p->nr_policies > 1 ? p->nr_policies - 1 : 1)),
		       sizeof(*mg.wl));
	mg.wl_load = calloc((size_t)mg.nr_wl, sizeof(*mg.wl_load));
	if (!mg.wl || !mg.wl_load) {
		snprintf(err, errlen, "out of memory");
		json_object_put(tables);
		goto out;
	}
	for (int m = 0; m < p->nr_machines; m++)
		for (int w = 0; w < p->nr_workloads; w++)
			if (render_table(&mg, m, w, json, tables, f)) {
				snprintf(err, errlen, "out of memory");
				json_object_put(tables);
				goto out;
			}
	/* Under the tables: each policy's wins and losses in one paragraph. */
	json_object *summary = json ? json_object_new_object() : NULL;

	if (!json && p->nr_policies > 1)
		fprintf(f, "summary: significant changes against %s (Welch's t-test, 95%%), by "
			"machine, workload and adjacent load levels\n", p->pol[0].name);
	for (int s = 1; s < p->nr_policies; s++) {
		char text[16384];
		json_object *one = json ? json_object_new_object() : NULL;

		winloss_summary(mg.wl + (size_t)(s - 1) * (size_t)mg.nr_wl, mg.nr_wl, p->pol[s].name,
				text, sizeof(text), one);
		if (json)
			json_object_object_add(summary, p->pol[s].name, one);
		else
			fprintf(f, "  %s\n", text);
	}
	if (plot_dir && p->nr_policies > 1) {
		const char **names = calloc((size_t)p->nr_policies, sizeof(*names));

		for (int s = 1; names && s < p->nr_policies; s++)
			names[s - 1] = p->pol[s].name;
		if (!names || winmap_plot(mg.wl, mg.nr_wl, names, p->nr_policies - 1, plot_dir, err,
					  errlen)) {
			if (!names)
				snprintf(err, errlen, "out of memory");
			free(names);
			json_object_put(tables);
			json_object_put(summary);
			goto out;
		}
		free(names);
	}
	if (json) {
		json_object *root = json_object_new_object();

		json_object_object_add(root, "sweep", json_object_new_string(p->name));
		json_object_object_add(root, "plan_file", json_object_new_string(base));
		json_object_object_add(root, "simulations", json_object_new_int64(p->nr_jobs));
		json_object_object_add(root, "tables", tables);
		json_object_object_add(root, "summary", summary);
		fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	ret = 0;
out:
	free(mg.res);
	free(mg.wl);
	free(mg.wl_load);
	sweep_plan_free(&mg.plan);
	return ret;
}

