/*
 * sweep_run.c - a sweep's jobs run into a shard document (sweep.h).
 */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "kern/features.h"
#include "report/compare_out.h"
#include "report/progress.h"
#include "robust.h"
#include "util/jsonpos.h"
#include "workload/workload.h"

/* ---- running jobs into a shard document ---- */

struct sweep_run {
	const struct sweep_plan *plan;
	struct machine *m;		/* [nr_machines] */
	/* "robust": per machine, its costs drawn and the machines they make */
	struct robust_costs *rc;	/* [nr_machines] */
	double *draw_val;		/* [nr_machines][robust][rc.n] */
	struct machine *drawn;		/* [nr_machines][robust], sharing m's arrays */
	struct run_spec *spec;		/* [machine][workload][load][policy][draw] */
	char ****argv;			/* [workload][load]: a command line */
	int nspec;
};

/*
 * The spec of (machine, workload, load level, policy, cost draw): dense,
 * levels counted across workloads.
 */
static int spec_index(const struct sweep_plan *p, int m, int w, int l, int pol, int draw)
{
	int k = 0, levels = 0;

	for (int i = 0; i < p->nr_workloads; i++) {
		if (i < w)
			k += p->wl[i].nr_loads;
		levels += p->wl[i].nr_loads;
	}
	return (((m * levels) + (k + l)) * p->nr_policies + pol) * (1 + p->robust) + draw;
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
			char at[640];

			where(file, p, "kernel", at, sizeof(at));
			fprintf(stderr, "wakesim sweep: %s: \"%s\": expected v5.12, v6.4, v6.6 or "
				"mainline\n", at, p->kernel);
			return -1;
		}
	}
	for (int w = 0; w < p->nr_workloads; w++)
		nlevels += p->wl[w].nr_loads;
	r->plan = p;
	r->nspec = p->nr_machines * nlevels * p->nr_policies * (1 + p->robust);
	r->m = calloc((size_t)p->nr_machines, sizeof(*r->m));
	r->rc = calloc((size_t)p->nr_machines, sizeof(*r->rc));
	r->drawn = calloc((size_t)p->nr_machines * (size_t)p->robust + 1, sizeof(*r->drawn));
	r->draw_val = calloc((size_t)p->nr_machines * (size_t)p->robust * COST_KEYS_MAX + 1,
			     sizeof(*r->draw_val));
	r->spec = calloc((size_t)r->nspec, sizeof(*r->spec));
	r->argv = calloc((size_t)p->nr_workloads + 1, sizeof(*r->argv));
	if (!r->m || !r->spec || !r->argv || !r->rc || !r->drawn || !r->draw_val) {
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
		if (p->robust) {
			/* As compare --robust: the design from the plan's first seed. */
			struct robust_costs *rc = &r->rc[m];
			double *u;

			robust_costs_of(&r->m[m], rc);
			if (!rc->n) {
				fprintf(stderr, "wakesim sweep: %s: \"robust\": no cost of %s has a range "
					"wider than its value (`wakesim costs`)\n", at, r->m[m].name);
				return -1;
			}
			u = calloc((size_t)p->robust * (size_t)rc->n, sizeof(*u));
			if (!u)
				return -1;
			lhs_design(p->robust, rc->n, p->seed, u);
			for (int i = 0; i < p->robust; i++)
				robust_draw(&r->m[m], rc, u, i, &r->drawn[m * p->robust + i],
					    r->draw_val + ((size_t)m * (size_t)p->robust + (size_t)i) *
								  COST_KEYS_MAX);
			free(u);
		}
		for (int w = 0; w < p->nr_workloads; w++)
			for (int l = 0; l < p->wl[w].nr_loads; l++)
				for (int pol = 0; pol < p->nr_policies; pol++) {
					struct run_spec *s = &r->spec[spec_index(p, m, w, l, pol, 0)];
					char what[512], pk[32];

					snprintf(pk, sizeof(pk), "policies[%d]", pol);
					where(file, p, pk, what, sizeof(what));
					if (build_spec("sweep", &o, &r->m[m], p->pol[pol].features, what, s))
						return -1;
					s->argv = r->argv[w][l];
					s->argc = p->wl[w].argc + (p->wl[w].load_name ? 2 : 0);
					for (int d = 1; d <= p->robust; d++) {
						s[d] = *s;
						s[d].m = &r->drawn[m * p->robust + d - 1];
					}
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
	free(r->rc);
	free(r->drawn);	/* they share m's arrays: freed above */
	free(r->draw_val);
	free(r->spec);
	free(r->argv);
}

static json_object *num(double v)
{
	/* Non-finite figures are not JSON: null, read back as NaN. */
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/*
 * With "robust": the costs drawn on machine m and each draw's values, for
 * the report's robustness block (robust_out.h).
 */
static json_object *robust_costs_json(const struct sweep_run *r, int m)
{
	const struct robust_costs *rc = &r->rc[m];
	json_object *o = json_object_new_object(), *costs = json_object_new_array();
	json_object *draws = json_object_new_array();

	for (int k = 0; k < rc->n; k++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "cost", json_object_new_string(rc->name[k]));
		json_object_object_add(c, "unit", json_object_new_string(cost_key_unit(rc->key[k])));
		json_object_object_add(c, "nominal", json_object_new_double(rc->nominal[k]));
		json_object_object_add(c, "min", json_object_new_double(rc->range[k].min));
		json_object_object_add(c, "max", json_object_new_double(rc->range[k].max));
		json_object_array_add(costs, c);
	}
	for (int i = 0; i < r->plan->robust; i++) {
		json_object *d = json_object_new_array();
		const double *v = r->draw_val + ((size_t)m * (size_t)r->plan->robust + (size_t)i) *
							COST_KEYS_MAX;

		for (int k = 0; k < rc->n; k++)
			json_object_array_add(d, json_object_new_double(v[k]));
		json_object_array_add(draws, d);
	}
	json_object_object_add(o, "costs", costs);
	json_object_object_add(o, "draw_costs", draws);
	return o;
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
int sweep_run_shard(const char *file, const struct sweep_plan *p, int si, int sn, int jobs,
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
		js[k] = &r.spec[spec_index(p, c.machine, c.workload, c.load, c.policy, c.draw)];
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
		char drawn[48] = "";

		if (c.draw)
			snprintf(drawn, sizeof(drawn), ", cost draw %d", c.draw);
		fprintf(stderr, "wakesim sweep: machine %s, workload %s, load %s, policy %s, seed %llu%s: "
			"%s\n", p->machine[c.machine], p->wl[c.workload].name,
			p->wl[c.workload].load_name ? p->wl[c.workload].load_val[c.load] : "default",
			p->pol[c.policy].name, (unsigned long long)seeds[k], drawn, out[k].err);
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
	for (int m = 0; m < p->nr_machines; m++) {
		json_object *mo = machine_json(p->machine[m], &r.m[m], r.m[m].topo.nr_cpus);

		if (p->robust)
			json_object_object_add(mo, "robust", robust_costs_json(&r, m));
		json_object_array_add(ms, mo);
	}
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)p->hash);
	json_object_array_add(sh, json_object_new_int(si));
	json_object_array_add(sh, json_object_new_int(sn));
	json_object_object_add(root, "wakesim_sweep", json_object_new_int(SHARD_FORMAT));
	json_object_object_add(root, "wakesim_version", json_object_new_string(WAKESIM_VERSION));
	json_object_object_add(root, "wakesim_commit", json_object_new_string(WAKESIM_COMMIT));
	/*
	 * Absolute, so that merge, run from any directory, finds the plan's
	 * files where the sweep did (the report prints only the base name).
	 */
	char *abs = realpath(file, NULL);

	json_object_object_add(root, "plan_file", json_object_new_string(abs ? abs : file));
	free(abs);
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

