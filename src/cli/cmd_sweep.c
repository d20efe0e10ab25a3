/*
 * cmd_sweep.c - `wakesim sweep PLAN` and `wakesim merge SHARD...`: a grid
 * of simulations (sweep_plan.h), run whole or one shard at a time, and
 * its report: a compare table per machine and workload.
 *
 * Every route to the report goes through the same document: a run (or a
 * shard of one) writes its results as a shard document (JSON: the plan's
 * text, its hash, the machines' descriptions, each job's result and
 * metrics); the report is rendered from a set of such documents. An
 * unsharded sweep renders its own document after a round trip through
 * its text, so `sweep` and `merge` of its shards print the same bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "kern/features.h"
#include "report/compare_out.h"
#include "report/progress.h"
#include "util/jsondoc.h"
#include "util/jsonpos.h"
#include "util/textfile.h"
#include "sweep_plan.h"
#include "workload/workload.h"

#define SHARD_FORMAT 1

static const char sweep_usage[] =
	"Usage: wakesim sweep PLAN.json [--shard I/N] [-j N] [--json] [-o FILE] [--quiet]\n"
	"       wakesim sweep PLAN.json --emit parallel|slurm --shards N [--out-dir DIR]\n"
	"                     [--sshlogin LIST] [-j N]\n"
	"       wakesim merge SHARD.json... [--json] [-o FILE]\n"
	"Runs the plan's grid of machines x workloads x load levels x policies x seeds\n"
	"(docs/sweeps.md) and prints a compare table per machine and workload.\n"
	"--shard I/N runs the jobs j with j mod N = I-1 and writes their results (JSON);\n"
	"wakesim merge prints the report of a complete set of shards, the same bytes as\n"
	"the unsharded sweep. --emit writes a script that runs N shards with GNU\n"
	"parallel (-j jobs per host, --sshlogin as parallel takes it) or as a Slurm job\n"
	"array, each writing DIR/shard-I.json (default sweep-out), then merges them.\n";

/* ---- running jobs into a shard document ---- */

struct sweep_run {
	const struct sweep_plan *plan;
	struct machine *m;		/* [nr_machines] */
	struct run_spec *spec;		/* [machine][workload][load][policy] */
	char ****argv;			/* [workload][load]: a command line */
	int nspec;
};

/* The spec of (machine, workload, load level, policy): dense, levels counted across workloads. */
static int spec_index(const struct sweep_plan *p, int m, int w, int l, int pol)
{
	int k = 0, levels = 0;

	for (int i = 0; i < p->nr_workloads; i++) {
		if (i < w)
			k += p->wl[i].nr_loads;
		levels += p->wl[i].nr_loads;
	}
	return ((m * levels) + (k + l)) * p->nr_policies + pol;
}

static void show_progress(int done, int n, void *arg)
{
	(void)n;
	progress_update(arg, done);
}

/* "FILE:LINE: field \"K\"" of the plan, for errors found after parsing. */
static void where(const char *file, const struct sweep_plan *p, const char *key, char *buf,
		  size_t len)
{
	int line = json_path_line_or_parent(p->text, p->len, key);

	snprintf(buf, len, "%s:%d: field \"%s\"", file, line, key);
}

/* Machines, specs and workload command lines; prints the error. */
static int prepare(const char *file, const struct sweep_plan *p, struct sweep_run *r)
{
	struct common_opts o = { .node = -1, .seed = p->seed, .kver = KV_MAINLINE };
	int nlevels = 0;

	if (p->kernel) {
		o.kver = kernel_version_parse(p->kernel);
		if (o.kver < 0) {
			fprintf(stderr, "wakesim sweep: %s: field \"kernel\": \"%s\": expected v5.12, v6.4, "
				"v6.6 or mainline\n", file, p->kernel);
			return -1;
		}
	}
	for (int w = 0; w < p->nr_workloads; w++)
		nlevels += p->wl[w].nr_loads;
	r->plan = p;
	r->nspec = p->nr_machines * nlevels * p->nr_policies;
	r->m = calloc((size_t)p->nr_machines, sizeof(*r->m));
	r->spec = calloc((size_t)r->nspec, sizeof(*r->spec));
	r->argv = calloc((size_t)p->nr_workloads + 1, sizeof(*r->argv));
	if (!r->m || !r->spec || !r->argv) {
		fprintf(stderr, "wakesim sweep: out of memory\n");
		return -1;
	}
	for (int w = 0; w < p->nr_workloads; w++) {
		const struct plan_workload *wl = &p->wl[w];

		r->argv[w] = calloc((size_t)wl->nr_loads + 1, sizeof(**r->argv));
		if (!r->argv[w])
			return -1;
		for (int l = 0; l < wl->nr_loads; l++) {
			char **a = calloc((size_t)wl->argc + 3, sizeof(*a));
			int n = wl->argc;

			if (!a)
				return -1;
			r->argv[w][l] = a;
			memcpy(a, wl->argv, sizeof(*a) * (size_t)wl->argc);
			if (wl->load_name) {
				char opt[80];

				if (workload_load_option(wl->argv[0], wl->load_name, opt, sizeof(opt))) {
					char key[64], at[512];

					snprintf(key, sizeof(key), "workloads[%d].loads", w);
					where(file, p, key, at, sizeof(at));
					fprintf(stderr, "wakesim sweep: %s: \"%s\" is not an option name of %s\n",
						at, wl->load_name, wl->argv[0]);
					return -1;
				}
				a[n++] = strdup(opt);
				a[n++] = wl->load_val[l];
			}
			bool help;
			char err[2048];
			struct workload *x = workload_create(n, a, &help, err, sizeof(err));

			if (!x) {
				char key[64], at[512];

				snprintf(key, sizeof(key), "workloads[%d]", w);
				where(file, p, key, at, sizeof(at));
				fprintf(stderr, "wakesim sweep: %s%s%s: %s\n", at,
					wl->load_name ? " at load " : "", wl->load_name ? wl->load_val[l] : "",
					help ? "--help is not a workload" : err);
				return -1;
			}
			x->ops->free(x);
		}
	}
	for (int m = 0; m < p->nr_machines; m++) {
		char key[32], at[512], err[512];

		snprintf(key, sizeof(key), "machines[%d]", m);
		where(file, p, key, at, sizeof(at));
		if (machine_load(p->machine[m], &r->m[m], err, sizeof(err))) {
			fprintf(stderr, "wakesim sweep: %s: %.300s\n", at, err);
			return -1;
		}
		for (int w = 0; w < p->nr_workloads; w++)
			for (int l = 0; l < p->wl[w].nr_loads; l++)
				for (int pol = 0; pol < p->nr_policies; pol++) {
					struct run_spec *s = &r->spec[spec_index(p, m, w, l, pol)];
					char what[512], pk[32];

					snprintf(pk, sizeof(pk), "policies[%d]", pol);
					where(file, p, pk, what, sizeof(what));
					if (build_spec(&o, &r->m[m], p->pol[pol].features, what, s))
						return -1;
					s->argv = r->argv[w][l];
					s->argc = p->wl[w].argc + (p->wl[w].load_name ? 2 : 0);
				}
	}
	return 0;
}

static void release(struct sweep_run *r)
{
	const struct sweep_plan *p = r->plan;

	if (r->argv)
		for (int w = 0; p && w < p->nr_workloads; w++) {
			for (int l = 0; r->argv[w] && l < p->wl[w].nr_loads; l++) {
				if (r->argv[w][l] && p->wl[w].load_name)
					free(r->argv[w][l][p->wl[w].argc]);
				free(r->argv[w][l]);
			}
			free(r->argv[w]);
		}
	if (r->m)
		for (int m = 0; p && m < p->nr_machines; m++)
			machine_free(&r->m[m]);
	free(r->m);
	free(r->spec);
	free(r->argv);
}

static json_object *num(double v)
{
	/* Non-finite figures are not JSON: null, read back as NaN. */
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *machine_json(const char *spec, const struct machine *m, int ncpus)
{
	json_object *o = json_object_new_object(), *st = json_object_new_array();

	json_object_object_add(o, "spec", json_object_new_string(spec));
	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "nr_cpus", json_object_new_int(ncpus));
	json_object_object_add(o, "cost_profile",
			       json_object_new_string(m->cost_profile[0] ? m->cost_profile : "default"));
	for (int i = 0; i < m->nr_idle_states; i++) {
		char key[24];

		metrics_state_key(m->idle[i].name, key, sizeof(key));
		json_object_array_add(st, json_object_new_string(key));
	}
	json_object_object_add(o, "idle_states", st);
	char assumed[MACHINE_ASSUMED_NR * 204];

	machine_assumed_text(m, assumed, sizeof(assumed));
	json_object_object_add(o, "assumed", json_object_new_string(assumed));
	return o;
}

/* Run shard si of sn (1-based) of the plan; *doc gets the shard document. */
static int run_shard(const char *file, const struct sweep_plan *p, int si, int sn, int jobs,
		     bool quiet, json_object **doc)
{
	struct sweep_run r = { 0 };
	long long n = 0;
	int ret = 1;

	if (prepare(file, p, &r)) {
		release(&r);
		return 2;
	}
	for (long long j = si - 1; j < p->nr_jobs; j += sn)
		n++;
	const struct run_spec **js = calloc((size_t)n + 1, sizeof(*js));
	uint64_t *seeds = calloc((size_t)n + 1, sizeof(*seeds));
	long long *ids = calloc((size_t)n + 1, sizeof(*ids));
	struct run_outcome *out = calloc((size_t)n + 1, sizeof(*out));

	if (!js || !seeds || !ids || !out) {
		fprintf(stderr, "wakesim sweep: out of memory\n");
		goto done;
	}
	long long k = 0;

	for (long long j = si - 1; j < p->nr_jobs; j += sn, k++) {
		struct plan_job c;

		sweep_plan_job(p, j, &c);
		js[k] = &r.spec[spec_index(p, c.machine, c.workload, c.load, c.policy)];
		seeds[k] = p->seed + (uint64_t)c.run;
		ids[k] = j;
	}
	{
		char err[256];
		struct progress bar;

		progress_start(&bar, stderr, !quiet, (int)n, "runs");
		progress_update(&bar, 0);
		int rr = run_many((int)n, js, seeds, out, jobs, show_progress, &bar, err, sizeof(err));

		progress_end(&bar);
		if (rr) {
			fprintf(stderr, "wakesim sweep: %s\n", err);
			goto done;
		}
	}
	unsigned long long fb = 0;

	for (k = 0; k < n; k++)
		fb += out[k].met.policy_fallbacks;
	warn_policy_fallbacks("sweep", fb);
	json_object *root = json_object_new_object(), *res = json_object_new_array();
	json_object *ms = json_object_new_array(), *sh = json_object_new_array();
	char hash[32];

	for (k = 0; k < n; k++) {
		struct plan_job c;

		if (out[k].ok)
			continue;
		sweep_plan_job(p, ids[k], &c);
		fprintf(stderr, "wakesim sweep: machine %s, workload %s, load %s, policy %s, seed %llu: "
			"%s\n", p->machine[c.machine], p->wl[c.workload].name,
			p->wl[c.workload].load_name ? p->wl[c.workload].load_val[c.load] : "default",
			p->pol[c.policy].name, (unsigned long long)seeds[k], out[k].err);
		ret = out[k].bad_input ? 2 : 1;
		json_object_put(root);
		json_object_put(res);
		json_object_put(ms);
		json_object_put(sh);
		goto done;
	}
	for (k = 0; k < n; k++) {
		struct metrics_view v;
		struct plan_job c;
		json_object *o = json_object_new_object(), *mv = json_object_new_array();
		json_object *ie = json_object_new_array(), *pl = json_object_new_array();
		char digest[24];

		sweep_plan_job(p, ids[k], &c);
		metrics_view(&out[k].met, cpumask_weight(&js[k]->allowed), &v);
		for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
			json_object_array_add(mv, num(v.v[d]));
		for (int i = 0; i < r.m[c.machine].nr_idle_states; i++)
			json_object_array_add(ie, num(v.idle_exits[i]));
		for (int i = 0; i < PLACE_ALL; i++)
			json_object_array_add(pl, num(v.place[i]));
		/* A hex string: JSON numbers are not exact to 64 bits everywhere. */
		snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)out[k].met.place_digest);
		json_object_object_add(o, "job", json_object_new_int64(ids[k]));
		json_object_object_add(o, "value", num(out[k].result));
		json_object_object_add(o, "unit", json_object_new_string(out[k].unit));
		json_object_object_add(o, "higher_is_better",
				       json_object_new_boolean(out[k].higher_is_better));
		json_object_object_add(o, "metrics", mv);
		json_object_object_add(o, "idle_exits", ie);
		json_object_object_add(o, "placements", pl);
		json_object_object_add(o, "placement_digest", json_object_new_string(digest));
		if (out[k].steady.asked)
			json_object_object_add(o, "steady",
					       json_object_new_boolean(out[k].steady.engaged));
		json_object_array_add(res, o);
	}
	for (int m = 0; m < p->nr_machines; m++)
		json_object_array_add(ms, machine_json(p->machine[m], &r.m[m], r.m[m].topo.nr_cpus));
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)p->hash);
	json_object_array_add(sh, json_object_new_int(si));
	json_object_array_add(sh, json_object_new_int(sn));
	json_object_object_add(root, "wakesim_sweep", json_object_new_int(SHARD_FORMAT));
	json_object_object_add(root, "wakesim_version", json_object_new_string(WAKESIM_VERSION));
	json_object_object_add(root, "wakesim_commit", json_object_new_string(WAKESIM_COMMIT));
	json_object_object_add(root, "plan_file", json_object_new_string(file));
	json_object_object_add(root, "plan_hash", json_object_new_string(hash));
	json_object_object_add(root, "plan", json_object_new_string_len(p->text, (int)p->len));
	json_object_object_add(root, "shard", sh);
	json_object_object_add(root, "jobs_total", json_object_new_int64(p->nr_jobs));
	json_object_object_add(root, "machines", ms);
	json_object_object_add(root, "results", res);
	*doc = root;
	ret = 0;
done:
	free(js);
	free(seeds);
	free(ids);
	free(out);
	release(&r);
	return ret;
}

/* ---- rendering the report from shard documents ---- */

struct merged {
	struct sweep_plan plan;
	const char *plan_file;
	json_object **res;		/* [nr_jobs]: each job's result object */
	json_object *machines;		/* from the first document */
};

static int doc_fail(const char *name, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", name, what);
	return -1;
}

static json_object *get(json_object *o, const char *key, json_type type)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* A figure of a result: a finite JSON number of sane size (null: not a number). */
static bool figure_ok(json_object *v, bool null_ok)
{
	if (!v)
		return null_ok;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	double x = json_object_get_double(v);

	return isfinite(x) && fabs(x) <= 1e18;
}

static bool keys_only(json_object *o, const char *const *known)
{
	json_object_object_foreach(o, k, v) {
		bool ok = false;

		(void)v;
		for (int i = 0; known[i]; i++)
			ok |= !strcmp(k, known[i]);
		if (!ok)
			return false;
	}
	return true;
}

/*
 * Everything of a shard document besides its plan: its header, machines
 * and results, each of the type and size the plan implies. A hand-edited
 * or foreign document is refused with what is wrong, not rendered.
 */
static int check_doc(json_object *doc, const char *name, const struct sweep_plan *p, int *si,
		     int *sn, char *err, size_t errlen)
{
	static const char *const top[] = { "wakesim_sweep", "wakesim_version", "wakesim_commit",
		"plan_file", "plan_hash", "plan", "shard", "jobs_total", "machines", "results", NULL };
	static const char *const mkeys[] = { "spec", "name", "nr_cpus", "cost_profile", "idle_states",
					     "assumed", NULL };
	static const char *const rkeys[] = { "job", "value", "unit", "higher_is_better", "metrics",
					     "idle_exits", "placements", "placement_digest", "steady",
					     NULL };
	json_object *sh = get(doc, "shard", json_type_array), *v, *ms, *res;
	char hash[32];
	int nm = nr_metric_defs < CMP_MAX_METRICS ? nr_metric_defs : CMP_MAX_METRICS;

	if (!keys_only(doc, top))
		return doc_fail(name, "a key a sweep shard does not have", err, errlen);
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)p->hash);
	if (strcmp(json_object_get_string(get(doc, "plan_hash", json_type_string)), hash))
		return doc_fail(name, "its plan text does not hash to its plan_hash (edited?)", err,
				errlen);
	if (!json_object_is_type(json_object_array_get_idx(sh, 0), json_type_int) ||
	    !json_object_is_type(json_object_array_get_idx(sh, 1), json_type_int))
		return doc_fail(name, "\"shard\": expected [I, N]", err, errlen);
	*si = json_object_get_int(json_object_array_get_idx(sh, 0));
	*sn = json_object_get_int(json_object_array_get_idx(sh, 1));
	if (*sn < 1 || *si < 1 || *si > *sn)
		return doc_fail(name, "\"shard\": expected [I, N] with 1 <= I <= N", err, errlen);
	if (!(v = get(doc, "jobs_total", json_type_int)) || json_object_get_int64(v) != p->nr_jobs)
		return doc_fail(name, "\"jobs_total\" is not its plan's number of jobs", err, errlen);
	ms = get(doc, "machines", json_type_array);
	if ((int)json_object_array_length(ms) != p->nr_machines)
		return doc_fail(name, "\"machines\" does not match its plan's", err, errlen);
	for (int m = 0; m < p->nr_machines; m++) {
		json_object *o = json_object_array_get_idx(ms, (size_t)m), *st, *nc, *sp;

		if (!json_object_is_type(o, json_type_object) || !keys_only(o, mkeys) ||
		    !(sp = get(o, "spec", json_type_string)) ||
		    strcmp(json_object_get_string(sp), p->machine[m]) ||
		    !get(o, "name", json_type_string) || !get(o, "cost_profile", json_type_string) ||
		    !get(o, "assumed", json_type_string) ||
		    !(nc = get(o, "nr_cpus", json_type_int)) || json_object_get_int(nc) < 1 ||
		    json_object_get_int(nc) > WS_MAX_CPUS || !(st = get(o, "idle_states", json_type_array)) ||
		    json_object_array_length(st) > WS_MAX_IDLE_STATES) {
			snprintf(err, errlen, "%s: machines[%d]: expected the plan's machine with name, "
				 "nr_cpus 1..%d, cost_profile, idle_states and assumed", name, m,
				 WS_MAX_CPUS);
			return -1;
		}
		for (size_t i = 0; i < json_object_array_length(st); i++)
			if (!json_object_is_type(json_object_array_get_idx(st, i), json_type_string))
				return doc_fail(name, "an idle state name that is not a string", err, errlen);
	}
	res = get(doc, "results", json_type_array);
	for (size_t i = 0; i < json_object_array_length(res); i++) {
		json_object *o = json_object_array_get_idx(res, i), *mv, *ie, *jv, *pl, *dg;
		long long j;
		struct plan_job c;

		if (!json_object_is_type(o, json_type_object) || !keys_only(o, rkeys) ||
		    !(jv = get(o, "job", json_type_int)) || (j = json_object_get_int64(jv)) < 0 ||
		    j >= p->nr_jobs) {
			snprintf(err, errlen, "%s: results[%zu]: expected a job number 0..%lld", name, i,
				 p->nr_jobs - 1);
			return -1;
		}
		if (j % *sn != *si - 1) {
			snprintf(err, errlen, "%s: results[%zu]: job %lld is not one of shard %d/%d's", name,
				 i, j, *si, *sn);
			return -1;
		}
		sweep_plan_job(p, j, &c);
		json_object *mj = json_object_array_get_idx(ms, (size_t)c.machine);
		size_t nst = json_object_array_length(get(mj, "idle_states", json_type_array));
		bool ok = json_object_object_get_ex(o, "value", &v) && figure_ok(v, false) &&
			  get(o, "unit", json_type_string) && get(o, "higher_is_better", json_type_boolean) &&
			  (mv = get(o, "metrics", json_type_array)) &&
			  (int)json_object_array_length(mv) == nm &&
			  (ie = get(o, "idle_exits", json_type_array)) && json_object_array_length(ie) == nst &&
			  (pl = get(o, "placements", json_type_array)) &&
			  json_object_array_length(pl) == PLACE_ALL &&
			  (dg = get(o, "placement_digest", json_type_string)) &&
			  json_object_get_string_len(dg) == 16 &&
			  strspn(json_object_get_string(dg), "0123456789abcdef") == 16;

		/* "steady": present only when the job's rule was on. */
		if (ok && json_object_object_get_ex(o, "steady", &v))
			ok = json_object_is_type(v, json_type_boolean);
		for (int d = 0; ok && d < nm; d++)
			ok = figure_ok(json_object_array_get_idx(mv, (size_t)d), true);
		for (size_t k = 0; ok && k < nst; k++)
			ok = figure_ok(json_object_array_get_idx(ie, k), true);
		for (size_t k = 0; ok && k < PLACE_ALL; k++)
			ok = figure_ok(json_object_array_get_idx(pl, k), true);
		if (!ok) {
			snprintf(err, errlen, "%s: results[%zu] (job %lld): expected a finite number value, "
				 "unit, higher_is_better, %d metrics, %zu idle_exits and %d placements, "
				 "numbers of at most 1e18, a placement_digest of 16 hex digits, and "
				 "steady, if there, a boolean", name, i, j, nm, nst, PLACE_ALL);
			return -1;
		}
	}
	return 0;
}

/* Check shard documents against each other and gather every job once. */
static int gather(json_object *const *docs, const char *const *names, int n, struct merged *mg,
		  char *err, size_t errlen)
{
	const char *hash0 = NULL, *commit0 = NULL;
	int shards = 0;

	memset(mg, 0, sizeof(*mg));
	for (int d = 0; d < n; d++) {
		json_object *doc = docs[d], *sh, *res, *ms, *v;
		const char *hash, *commit, *text, *file;

		if (!json_object_is_type(doc, json_type_object) ||
		    !(v = get(doc, "wakesim_sweep", json_type_int)) || json_object_get_int(v) != SHARD_FORMAT)
			return doc_fail(names[d], "not a wakesim sweep shard (no \"wakesim_sweep\": 1)", err,
					errlen);
		if (!(v = get(doc, "plan_hash", json_type_string)) || !(hash = json_object_get_string(v)) ||
		    !(v = get(doc, "wakesim_commit", json_type_string)) ||
		    !(commit = json_object_get_string(v)) || !(v = get(doc, "plan", json_type_string)) ||
		    !(text = json_object_get_string(v)) || !(v = get(doc, "plan_file", json_type_string)) ||
		    !(file = json_object_get_string(v)) || !(sh = get(doc, "shard", json_type_array)) ||
		    json_object_array_length(sh) != 2 || !(res = get(doc, "results", json_type_array)) ||
		    !(ms = get(doc, "machines", json_type_array)))
			return doc_fail(names[d], "a sweep shard lacks plan_hash, wakesim_commit, plan, "
					"plan_file, shard, results or machines", err, errlen);
		int sn, si;

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
				return doc_fail(names[d], "out of memory", err, errlen);
		} else if (strcmp(hash, hash0)) {
			snprintf(err, errlen, "%s: a shard of another plan (plan_hash %s) than %s's (%s)",
				 names[d], hash, names[0], hash0);
			return -1;
		} else if (strcmp(text, mg->plan.text)) {
			return doc_fail(names[d], "its plan text differs from the first shard's (edited?)",
					err, errlen);
		} else if (strcmp(commit, commit0)) {
			snprintf(err, errlen, "%s: made by wakesim %s, %s by %s: shards must come from one "
				 "build", names[d], commit, names[0], commit0);
			return -1;
		}
		if (check_doc(doc, names[d], &mg->plan, &si, &sn, err, errlen))
			return -1;
		if (!d)
			shards = sn;
		if (sn != shards) {
			snprintf(err, errlen, "%s: a shard of %d, %s one of %d", names[d], sn, names[0],
				 shards);
			return -1;
		}
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			/* check_doc() has vouched for every job number. */
			json_object *o = json_object_array_get_idx(res, i);
			long long j = json_object_get_int64(get(o, "job", json_type_int));

			if (mg->res[j]) {
					snprintf(err, errlen, "%s: job %lld is in two shards (one given twice?)",
					 names[d], j);
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
		c.load = c.policy = c.run = 0;
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

/* One compare table: machine m, workload w; rendered as text or added to tables. */
static int render_table(const struct merged *mg, int m, int w, bool json, json_object *tables,
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
				struct plan_job c = { m, w, l, s, r };
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
				struct plan_job bc = { m, w, l, 0, r };
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
	free(cells);
	free(vals);
	free(lname);
	free(sn);
	free(sf);
	free(lbuf);
	return ret;
}

static int render(json_object *const *docs, const char *const *names, int n, bool json, FILE *f,
		  char *err, size_t errlen)
{
	struct merged mg;
	int ret = -1;

	if (gather(docs, names, n, &mg, err, errlen))
		goto out;
	const struct sweep_plan *p = &mg.plan;
	json_object *tables = json ? json_object_new_array() : NULL;

	/* The plan's file by its base name: the same sweep run from elsewhere prints the same. */
	const char *base = strrchr(mg.plan_file, '/') ? strrchr(mg.plan_file, '/') + 1 : mg.plan_file;

	int levels = 0;

	for (int w = 0; w < p->nr_workloads; w++)
		levels += p->wl[w].nr_loads;
	if (!json)
		fprintf(f, "wakesim sweep %s (%s): %d machine%s x %d workload load level%s (%d "
			"workload%s) x %d polic%s x %d seed%s = %lld simulations\n\n", p->name, base,
			p->nr_machines, p->nr_machines == 1 ? "" : "s", levels, levels == 1 ? "" : "s",
			p->nr_workloads, p->nr_workloads == 1 ? "" : "s", p->nr_policies,
			p->nr_policies == 1 ? "y" : "ies", p->runs, p->runs == 1 ? "" : "s", p->nr_jobs);
	for (int m = 0; m < p->nr_machines; m++)
		for (int w = 0; w < p->nr_workloads; w++)
			if (render_table(&mg, m, w, json, tables, f)) {
				snprintf(err, errlen, "out of memory");
				json_object_put(tables);
				goto out;
			}
	if (json) {
		json_object *root = json_object_new_object();

		json_object_object_add(root, "sweep", json_object_new_string(p->name));
		json_object_object_add(root, "plan_file", json_object_new_string(base));
		json_object_object_add(root, "simulations", json_object_new_int64(p->nr_jobs));
		json_object_object_add(root, "tables", tables);
		fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	ret = 0;
out:
	free(mg.res);
	sweep_plan_free(&mg.plan);
	return ret;
}

/* ---- scripts for GNU parallel and Slurm ---- */

static int emit(const char *kind, const char *plan, int shards, const char *dir,
		const char *sshlogin, int jobs, FILE *f)
{
	char self[PATH_MAX], planabs[PATH_MAX], dirabs[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || !realpath(plan, planabs)) {
		fprintf(stderr, "wakesim sweep: %s: cannot resolve its path\n", n <= 0 ? "wakesim" : plan);
		return 1;
	}
	self[n] = '\0';
	if (dir[0] == '/')
		snprintf(dirabs, sizeof(dirabs), "%s", dir);
	else if (!getcwd(dirabs, sizeof(dirabs) - strlen(dir) - 2))
		return 1;
	else
		snprintf(dirabs + strlen(dirabs), sizeof(dirabs) - strlen(dirabs), "/%s", dir);
	/* Slurm opens each task's log in it before the task runs: it must exist now. */
	if (mkdir(dirabs, 0777) && errno != EEXIST) {
		fprintf(stderr, "wakesim sweep: --out-dir %s: %s\n", dirabs, strerror(errno));
		return 1;
	}
	if (!strcmp(kind, "parallel")) {
		fprintf(f, "#!/bin/sh\n# wakesim sweep %s in %d shards with GNU parallel, then merged.\n"
			   "# With --sshlogin, every host needs wakesim, the plan and any policy\n"
			   "# objects at these paths, and %s on a shared file system.\nset -e\n",
			planabs, shards, dirabs);
		fprintf(f, "mkdir -p '%s'\n", dirabs);
		fprintf(f, "parallel --halt now,fail=1 -j %d%s%s '%s' sweep '%s' --quiet --shard {}/%d "
			   "-j 1 -o '%s'/shard-{}.json :::", jobs, sshlogin ? " --sshlogin " : "",
			sshlogin ? sshlogin : "", self, planabs, shards, dirabs);
		for (int i = 1; i <= shards; i++)
			fprintf(f, " %d", i);
		fprintf(f, "\n'%s' merge", self);
		for (int i = 1; i <= shards; i++)
			fprintf(f, " '%s'/shard-%d.json", dirabs, i);
		fprintf(f, " -o '%s'/report.txt\ncat '%s'/report.txt\n", dirabs, dirabs);
		return 0;
	}
	fprintf(f, "#!/bin/sh\n# wakesim sweep %s as a Slurm job array of %d shards. Submit it,\n"
		   "# then merge once every task has ended:\n"
		   "#   jid=$(sbatch --parsable THIS_FILE)\n"
		   "#   sbatch --dependency=afterok:$jid --output='%s'/merge.out --wrap \\\n"
		   "#     \"'%s' merge '%s'/shard-*.json -o '%s'/report.txt\"\n",
		planabs, shards, dirabs, self, dirabs, dirabs);
	fprintf(f, "#SBATCH --job-name=wakesim-sweep\n#SBATCH --array=1-%d\n#SBATCH --ntasks=1\n"
		   "#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/slurm-%%a.out\n", shards, dirabs);
	fprintf(f, "set -e\nmkdir -p '%s'\n'%s' sweep '%s' --quiet --shard \"$SLURM_ARRAY_TASK_ID\"/%d "
		   "-j 1 -o '%s'/shard-\"$SLURM_ARRAY_TASK_ID\".json\n", dirabs, self, planabs, shards,
		dirabs);
	return 0;
}

/* ---- the commands ---- */

static int parse_shard(const char *arg, int *i, int *n)
{
	char extra;

	if (sscanf(arg, "%d/%d%c", i, n, &extra) != 2 || *n < 1 || *n > 100000 || *i < 1 || *i > *n) {
		fprintf(stderr, "wakesim sweep: --shard \"%s\": expected I/N with 1 <= I <= N\n", arg);
		return -1;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shard", required_argument, NULL, 's' }, { "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },	   { "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },	   { "emit", required_argument, NULL, 'e' },
		{ "shards", required_argument, NULL, 'S' }, { "out-dir", required_argument, NULL, 'd' },
		{ "sshlogin", required_argument, NULL, 'l' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *kind = NULL, *dir = "sweep-out", *ssh = NULL;
	int si = 0, sn = 0, shards = 0, jobs = host_cpus(), c;
	bool json = false, quiet = false;
	long v;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":j:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_shard(optarg, &si, &sn))
				return EXIT_USAGE;
			break;
		case 'j':
			if (parse_count("sweep", "-j", optarg, 1, 1024, &v))
				return EXIT_USAGE;
			jobs = (int)v;
			break;
		case 'S':
			if (parse_count("sweep", "--shards", optarg, 1, 100000, &v))
				return EXIT_USAGE;
			shards = (int)v;
			break;
		case 'J':
			json = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'e':
			kind = optarg;
			if (strcmp(kind, "parallel") && strcmp(kind, "slurm")) {
				fprintf(stderr, "wakesim sweep: --emit \"%s\": expected parallel or slurm\n",
					kind);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			dir = optarg;
			break;
		case 'l':
			ssh = optarg;
			break;
		case 'h':
			fputs(sweep_usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "wakesim sweep: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "wakesim sweep: unknown option \"%s\" (see wakesim sweep --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "wakesim sweep: %s\n%s", optind >= argc ? "PLAN.json missing" :
			"one PLAN.json, please", sweep_usage);
		return EXIT_USAGE;
	}
	const char *file = argv[optind];
	struct sweep_plan plan;
	char err[2048];

	if (output && check_output_path("sweep", "-o", output))
		return EXIT_USAGE;
	if (sweep_plan_load(file, &plan, err, sizeof(err))) {
		fprintf(stderr, "wakesim sweep: %s\n", err);
		return EXIT_USAGE;
	}
	int ret;

	if (kind) {
		struct out_buf ob = { 0 };

		if (!shards || si) {
			fprintf(stderr, "wakesim sweep: --emit needs --shards N (and no --shard)\n");
			sweep_plan_free(&plan);
			return EXIT_USAGE;
		}
		if (out_open(&ob)) {
			sweep_plan_free(&plan);
			return 1;
		}
		ret = emit(kind, file, shards, dir, ssh, jobs, ob.f);
		ret = ret ? ret : (out_commit(&ob, output) ? 1 : 0);
		if (ret && ob.f)
			out_discard(&ob);
		sweep_plan_free(&plan);
		return ret;
	}
	if (shards || ssh || strcmp(dir, "sweep-out")) {
		fprintf(stderr, "wakesim sweep: --shards, --out-dir and --sshlogin go with --emit\n");
		sweep_plan_free(&plan);
		return EXIT_USAGE;
	}
	json_object *doc = NULL;

	ret = run_shard(file, &plan, si ? si : 1, si ? sn : 1, jobs, quiet, &doc);
	if (ret) {
		sweep_plan_free(&plan);
		return ret;
	}
	struct out_buf ob = { 0 };

	if (out_open(&ob)) {
		json_object_put(doc);
		sweep_plan_free(&plan);
		return 1;
	}
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_NOSLASHESCAPE);

	if (si) {
		fprintf(ob.f, "%s\n", text);
		ret = 0;
	} else {
		/* Through text and back: exactly what merge reads. */
		json_object *back;
		const char *name = "(this sweep)";

		ret = json_doc_parse(text, strlen(text), name, &back, err, sizeof(err)) ? 1 : 0;
		if (!ret) {
			ret = render(&back, &name, 1, json, ob.f, err, sizeof(err)) ? 1 : 0;
			json_object_put(back);
		}
		if (ret)
			fprintf(stderr, "wakesim sweep: %s\n", err);
	}
	json_object_put(doc);
	sweep_plan_free(&plan);
	if (ret) {
		out_discard(&ob);
		return ret;
	}
	return out_commit(&ob, output) ? 1 : 0;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	bool json = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		if (c == 'J') {
			json = true;
		} else if (c == 'o') {
			output = optarg;
		} else if (c == 'h') {
			fputs(sweep_usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "wakesim merge: %s \"%s\" (wakesim merge SHARD.json... [--json] "
				"[-o FILE])\n", c == ':' ? "missing value after" : "unknown option",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	int n = argc - optind;

	if (n < 1) {
		fprintf(stderr, "wakesim merge: SHARD.json missing (wakesim merge SHARD.json...)\n");
		return EXIT_USAGE;
	}
	if (output && check_output_path("merge", "-o", output))
		return EXIT_USAGE;
	json_object **docs = calloc((size_t)n, sizeof(*docs));
	char err[2048];
	int ret = EXIT_USAGE;
	struct out_buf ob = { 0 };

	if (!docs)
		return 1;
	for (int i = 0; i < n; i++) {
		char *text = NULL;
		size_t len;

		if (text_file_read(argv[optind + i], "sweep shard", &text, &len, err, sizeof(err)) ||
		    json_doc_parse(text, len, argv[optind + i], &docs[i], err, sizeof(err))) {
			free(text);
			fprintf(stderr, "wakesim merge: %s\n", err);
			goto out;
		}
		free(text);
	}
	if (out_open(&ob)) {
		ret = 1;
		goto out;
	}
	if (render(docs, (const char *const *)argv + optind, n, json, ob.f, err, sizeof(err))) {
		fprintf(stderr, "wakesim merge: %s\n", err);
		out_discard(&ob);
		goto out;
	}
	ret = out_commit(&ob, output) ? 1 : 0;
out:
	for (int i = 0; i < n; i++)
		json_object_put(docs[i]);
	free(docs);
	return ret;
}
