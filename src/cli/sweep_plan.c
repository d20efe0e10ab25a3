/*
 * sweep_plan.c - reading a sweep plan (sweep_plan.h), strictly: every
 * key known, every value of its type, errors with file, line and key.
 */
#include "sweep_plan.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/features.h"
#include "machine/machine.h"
#include "util/jsondoc.h"
#include "util/jsonin.h"
#include "util/jsonpos.h"
#include "util/textfile.h"

#define MAX_JOBS 1000000LL

/* A message for the field at path (util/jsonin.h's style). */
static int pfail(const struct json_in *c, const char *path, const char *what)
{
	return json_in_fail(c, path, "%s", what);
}

/* Fields of the object at path ("" for the root) other than known: refused. */
static int check_keys(const struct json_in *c, json_object *o, const char *path,
		      const char *const *known)
{
	char prefix[256];

	snprintf(prefix, sizeof(prefix), "%s%s", path, *path ? "." : "");
	return json_in_known(c, o, prefix, known);
}

/* A non-empty string of printable characters, copied. */
static int get_string(const struct json_in *c, json_object *v, const char *key, char **out)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string) || !*(s = json_object_get_string(v)))
		return pfail(c, key, "expected a non-empty string");
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20)
			return pfail(c, key, "expected a string without control characters");
	*out = strdup(s);
	if (!*out)
		return pfail(c, key, "out of memory");
	return 0;
}

/* A load value: a string or an integer, kept as the option's argument. */
static int get_value(const struct json_in *c, json_object *v, const char *key, char **out)
{
	char buf[32];

	if (json_object_is_type(v, json_type_int)) {
		long long x = (long long)json_object_get_int64(v);

		/* json-c saturates past 64 bits: refuse rather than pass 2^63 - 1 on. */
		if (x == INT64_MAX || x == INT64_MIN)
			return pfail(c, key, "an integer of 2^63 - 1 or more (or -2^63 or less): no "
				     "load option takes one");
		snprintf(buf, sizeof(buf), "%lld", x);
		*out = strdup(buf);
		return *out ? 0 : pfail(c, key, "out of memory");
	}
	if (!json_object_is_type(v, json_type_string))
		return pfail(c, key, "expected an integer or a non-empty string");
	return get_string(c, v, key, out);
}

static int get_array(const struct json_in *c, json_object *o, const char *key, const char *path,
		     json_object **out, int *n)
{
	if (!json_object_object_get_ex(o, key, out))
		return pfail(c, path, "missing");
	if (!json_object_is_type(*out, json_type_array) || !json_object_array_length(*out))
		return pfail(c, path, "expected a non-empty array");
	if (json_object_array_length(*out) > PLAN_MAX) {
		char what[64];

		snprintf(what, sizeof(what), "more than %d entries", PLAN_MAX);
		return pfail(c, path, what);
	}
	*n = (int)json_object_array_length(*out);
	return 0;
}

static int parse_workload(const struct json_in *c, json_object *o, int i, struct plan_workload *w)
{
	static const char *const known[] = { "name", "command", "loads", NULL };
	char path[64], key[128];
	json_object *v, *cmd;
	int n;

	snprintf(path, sizeof(path), "workloads[%d]", i);
	if (!json_object_is_type(o, json_type_object))
		return pfail(c, path, "expected an object with \"command\"");
	if (check_keys(c, o, path, known))
		return -1;
	snprintf(key, sizeof(key), "%s.command", path);
	if (get_array(c, o, "command", key, &cmd, &n))
		return -1;
	w->argv = calloc((size_t)n + 1, sizeof(*w->argv));
	if (!w->argv)
		return pfail(c, key, "out of memory");
	for (int k = 0; k < n; k++) {
		snprintf(key, sizeof(key), "%s.command[%d]", path, k);
		if (get_string(c, json_object_array_get_idx(cmd, (size_t)k), key, &w->argv[k]))
			return -1;
		w->argc++;
	}
	snprintf(key, sizeof(key), "%s.name", path);
	if (json_object_object_get_ex(o, "name", &v)) {
		if (get_string(c, v, key, &w->name))
			return -1; /* its message says why */
	} else if (!(w->name = strdup(w->argv[0]))) {
		return pfail(c, key, "out of memory");
	}
	w->nr_loads = 1;
	if (!json_object_object_get_ex(o, "loads", &v))
		return 0;
	snprintf(key, sizeof(key), "%s.loads", path);
	if (!json_object_is_type(v, json_type_object) || json_object_object_length(v) != 1)
		return pfail(c, key, "expected an object of one load name and its values, "
			     "{\"g\": [2, 8]}");
	json_object_object_foreach(v, name, vals) {
		char vkey[192];

		snprintf(vkey, sizeof(vkey), "%s.%s", key, name);
		if (!*name || name[0] == '-')
			return pfail(c, vkey, "expected a load name (g, clients, ...), not an option");
		if (!json_object_is_type(vals, json_type_array) || !json_object_array_length(vals) ||
		    json_object_array_length(vals) > PLAN_MAX)
			return pfail(c, vkey, "expected a non-empty array of at most 64 values");
		w->load_name = strdup(name);
		if (!w->load_name)
			return pfail(c, vkey, "out of memory");
		w->nr_loads = (int)json_object_array_length(vals);
		for (int k = 0; k < w->nr_loads; k++) {
			snprintf(vkey, sizeof(vkey), "%s.%s[%d]", key, name, k);
			if (get_value(c, json_object_array_get_idx(vals, (size_t)k), vkey, &w->load_val[k]))
				return -1;
			for (int q = 0; q < k; q++)
				if (!strcmp(w->load_val[q], w->load_val[k]))
					return pfail(c, vkey, "the same load value as an earlier one");
		}
	}
	return 0;
}

/*
 * A file the plan names, relative to the plan's directory (as a Makefile's
 * paths are to the Makefile), made absolute and canonical when it exists:
 * so the same plan gives the same jobs and reports from any directory and
 * in every shard, however the plan itself was named. NULL: out of memory.
 */
static char *plan_path(const struct json_in *c, const char *path)
{
	const char *slash = strrchr(c->file, '/');
	/* the plan's directory: "." for "plan.json", "" (the root) for "/plan.json" */
	int dl = slash ? (int)(slash - c->file) : 1;
	const char *dir = slash ? c->file : ".";
	size_t n = (size_t)dl + strlen(path) + 2;
	char *joined = path[0] == '/' ? strdup(path) : malloc(n), *canon;

	if (!joined)
		return NULL;
	if (path[0] != '/')
		snprintf(joined, n, "%.*s/%s", dl, dir, path);
	canon = realpath(joined, NULL);
	if (!canon)
		return joined; /* missing: its reader says so, with this path */
	free(joined);
	return canon;
}

/* A machine spec with its file, if it names one, resolved by plan_path(). */
static char *plan_machine(const struct json_in *c, const char *spec)
{
	static const char *const prefixes[] = { "sysfs:", "hwloc:", "lscpu:" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(spec, prefixes[i], 6)) {
			char *f = plan_path(c, spec + 6), *r;

			if (!f)
				return NULL;
			r = malloc(strlen(f) + 7);
			if (r)
				sprintf(r, "%.6s%s", spec, f);
			free(f);
			return r;
		}
	if (machine_spec_is_file(spec))
		return plan_path(c, spec);
	return strdup(spec);
}

static int parse_policy(const struct json_in *c, json_object *o, int i, struct plan_policy *p)
{
	static const char *const known[] = { "name", "features", "policy", "kernel", NULL };
	char path[64], key[128];
	json_object *v;
	char *feat = NULL, *pol = NULL, *kern = NULL;

	snprintf(path, sizeof(path), "policies[%d]", i);
	if (!json_object_is_type(o, json_type_object))
		return pfail(c, path, "expected an object with \"name\"");
	if (check_keys(c, o, path, known))
		return -1;
	snprintf(key, sizeof(key), "%s.name", path);
	if (!json_object_object_get_ex(o, "name", &v))
		return pfail(c, key, "missing");
	if (get_string(c, v, key, &p->name))
		return -1;
	for (const char *q = p->name; *q; q++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", *q))
			return pfail(c, key, "a name is letters, digits, '-', '_' or '.'");
	snprintf(key, sizeof(key), "%s.features", path);
	if (json_object_object_get_ex(o, "features", &v) && get_string(c, v, key, &feat))
		return -1;
	snprintf(key, sizeof(key), "%s.policy", path);
	if (json_object_object_get_ex(o, "policy", &v) && get_string(c, v, key, &pol)) {
		free(feat);
		return -1;
	}
	/* A policy object's path is the plan's (plan_path()); a name is a built-in. */
	size_t pl = pol ? strlen(pol) : 0;

	if (pol && (strchr(pol, '/') || (pl > 3 && !strcmp(pol + pl - 3, ".so")))) {
		char *abs = plan_path(c, pol);

		free(pol);
		pol = abs;
		if (!pol) {
			free(feat);
			return pfail(c, key, "out of memory");
		}
	}
	if ((feat && strstr(feat, "policy=")) || (pol && strchr(pol, ','))) {
		free(feat);
		free(pol);
		return pfail(c, path, "a policy goes in \"policy\", a path without commas");
	}
	/* A policy's own kernel (its "kernel=K" item): "what did vX -> vY change". */
	snprintf(key, sizeof(key), "%s.kernel", path);
	if (json_object_object_get_ex(o, "kernel", &v) &&
	    (get_string(c, v, key, &kern) || kernel_version_parse(kern) < 0 ||
	     (feat && strstr(feat, "kernel=")))) {
		free(feat);
		free(pol);
		if (!kern)
			return -1;
		free(kern);
		return pfail(c, key, "expected v5.12, v6.4, v6.6 or mainline (and no kernel= item "
			     "in \"features\")");
	}
	size_t n = (feat ? strlen(feat) : 7) + (pol ? strlen(pol) + 8 : 0) +
		   (kern ? strlen(kern) + 8 : 0) + 1;

	p->features = malloc(n);
	if (!p->features) {
		free(feat);
		free(pol);
		free(kern);
		return pfail(c, path, "out of memory");
	}
	snprintf(p->features, n, "%s%s%s%s%s", feat ? feat : "default", pol ? ",policy=" : "",
		 pol ? pol : "", kern ? ",kernel=" : "", kern ? kern : "");
	free(feat);
	free(kern);
	free(pol);
	return 0;
}

static int parse_root(const struct json_in *c, json_object *root, struct sweep_plan *p)
{
	static const char *const known[] = { "name", "machines", "kernel", "workloads", "policies",
					     "runs", "seed", "robust", NULL };
	json_object *v, *arr;
	int n;

	if (!json_object_is_type(root, json_type_object))
		return pfail(c, "", "expected an object with machines, workloads and policies");
	if (check_keys(c, root, "", known))
		return -1;
	if (json_object_object_get_ex(root, "name", &v) ? get_string(c, v, "name", &p->name)
							 : !(p->name = strdup("sweep")))
		return -1;
	if (get_array(c, root, "machines", "machines", &arr, &n))
		return -1;
	for (int i = 0; i < n; i++) {
		char key[32];

		snprintf(key, sizeof(key), "machines[%d]", i);
		char *spec;

		if (get_string(c, json_object_array_get_idx(arr, (size_t)i), key, &spec))
			return -1;
		p->machine[i] = plan_machine(c, spec);
		free(spec);
		if (!p->machine[i])
			return pfail(c, key, "out of memory");
		p->nr_machines++;
		for (int k = 0; k < i; k++)
			if (!strcmp(p->machine[k], p->machine[i]))
				return pfail(c, key, "the same machine as an earlier one");
	}
	if (json_object_object_get_ex(root, "kernel", &v) && get_string(c, v, "kernel", &p->kernel))
		return -1;
	if (get_array(c, root, "workloads", "workloads", &arr, &n))
		return -1;
	for (int i = 0; i < n; i++, p->nr_workloads++) {
		if (parse_workload(c, json_object_array_get_idx(arr, (size_t)i), i, &p->wl[i]))
			return -1;
		for (int k = 0; k < i; k++)
			if (!strcmp(p->wl[k].name, p->wl[i].name)) {
				char key[64];

				snprintf(key, sizeof(key), "workloads[%d]", i);
				return pfail(c, key, "the same name as an earlier workload (give \"name\")");
			}
	}
	if (get_array(c, root, "policies", "policies", &arr, &n))
		return -1;
	for (int i = 0; i < n; i++, p->nr_policies++) {
		if (parse_policy(c, json_object_array_get_idx(arr, (size_t)i), i, &p->pol[i]))
			return -1;
		for (int k = 0; k < i; k++)
			if (!strcmp(p->pol[k].name, p->pol[i].name)) {
				char key[64];

				snprintf(key, sizeof(key), "policies[%d].name", i);
				return pfail(c, key, "the same name as an earlier policy");
			}
	}
	p->runs = 5;
	p->seed = 1;
	if (json_object_object_get_ex(root, "runs", &v)) {
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1 ||
		    json_object_get_int64(v) > 1000)
			return pfail(c, "runs", "expected an integer 1..1000");
		p->runs = (int)json_object_get_int64(v);
	}
	if (json_object_object_get_ex(root, "seed", &v)) {
		/* json-c saturates integers it cannot hold: the largest are refused too. */
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
		    json_object_get_uint64(v) > (uint64_t)INT64_MAX - (uint64_t)p->runs)
			return pfail(c, "seed", "expected an integer 0..2^63-1-runs (the seeds are "
				     "seed..seed+runs-1)");
		p->seed = (uint64_t)json_object_get_int64(v);
	}
	if (json_object_object_get_ex(root, "robust", &v)) {
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 2 ||
		    json_object_get_int64(v) > 1000)
			return pfail(c, "robust", "expected an integer 2..1000 (cost draws, as "
				     "compare --robust)");
		p->robust = (int)json_object_get_int64(v);
	}
	long long per_machine = 0;

	for (int w = 0; w < p->nr_workloads; w++)
		per_machine += (long long)p->wl[w].nr_loads * p->nr_policies * (1 + p->robust) *
			       p->runs;
	p->nr_jobs = per_machine * p->nr_machines;
	if (p->nr_jobs > MAX_JOBS) {
		snprintf(c->err, c->errlen, "%s: the plan's grid has %lld simulations, more than 10^6: "
			 "split it", c->file, p->nr_jobs);
		return -1;
	}
	return 0;
}

int sweep_plan_parse(const char *text, size_t len, const char *file, struct sweep_plan *plan,
		     char *err, size_t errlen)
{
	struct json_in c = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen };
	json_object *root;

	memset(plan, 0, sizeof(*plan));
	if (json_doc_parse(text, len, file, &root, err, errlen))
		return -1;
	int r = parse_root(&c, root, plan);

	json_object_put(root);
	if (!r) {
		plan->text = malloc(len + 1);
		if (!plan->text) {
			snprintf(err, errlen, "%s: out of memory", file);
			r = -1;
		} else {
			memcpy(plan->text, text, len);
			plan->text[len] = '\0';
			plan->len = len;
			plan->hash = 1469598103934665603ULL;
			for (size_t i = 0; i < len; i++)
				plan->hash = (plan->hash ^ (unsigned char)text[i]) * 1099511628211ULL;
		}
	}
	if (r)
		sweep_plan_free(plan);
	return r;
}

int sweep_plan_load(const char *file, struct sweep_plan *plan, char *err, size_t errlen)
{
	char *text;
	size_t len;

	memset(plan, 0, sizeof(*plan));
	if (text_file_read(file, "sweep plan", &text, &len, err, errlen))
		return -1;
	int r = sweep_plan_parse(text, len, file, plan, err, errlen);

	free(text);
	return r;
}

void sweep_plan_free(struct sweep_plan *p)
{
	free(p->name);
	free(p->text);
	free(p->kernel);
	for (int i = 0; i < PLAN_MAX; i++) {
		free(p->machine[i]);
		free(p->pol[i].name);
		free(p->pol[i].features);
		struct plan_workload *w = &p->wl[i];

		for (int k = 0; w->argv && k < w->argc; k++)
			free(w->argv[k]);
		free(w->argv);
		free(w->name);
		free(w->load_name);
		for (int k = 0; k < PLAN_MAX; k++)
			free(w->load_val[k]);
	}
	memset(p, 0, sizeof(*p));
}

void sweep_plan_job(const struct sweep_plan *p, long long j, struct plan_job *c)
{
	long long per_policy = (long long)(1 + p->robust) * p->runs;
	long long per_level = (long long)p->nr_policies * per_policy, per_machine = 0;

	for (int w = 0; w < p->nr_workloads; w++)
		per_machine += p->wl[w].nr_loads * per_level;
	c->machine = (int)(j / per_machine);
	j %= per_machine;
	c->workload = 0;
	while (j >= p->wl[c->workload].nr_loads * per_level)
		j -= p->wl[c->workload++].nr_loads * per_level;
	c->load = (int)(j / per_level);
	j %= per_level;
	c->policy = (int)(j / per_policy);
	j %= per_policy;
	c->draw = (int)(j / p->runs);
	c->run = (int)(j % p->runs);
}

long long sweep_plan_index(const struct sweep_plan *p, const struct plan_job *c)
{
	long long per_policy = (long long)(1 + p->robust) * p->runs;
	long long per_level = (long long)p->nr_policies * per_policy, per_machine = 0, j;

	for (int w = 0; w < p->nr_workloads; w++)
		per_machine += p->wl[w].nr_loads * per_level;
	j = c->machine * per_machine;
	for (int w = 0; w < c->workload; w++)
		j += p->wl[w].nr_loads * per_level;
	return j + c->load * per_level + (long long)c->policy * per_policy +
	       (long long)c->draw * p->runs + c->run;
}
