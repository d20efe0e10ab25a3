/*
 * rtapp_parse.c - rt-app JSON files into struct ra_file, with json-c.
 *
 * What rt-app accepts and wakesim simulates is read; what rt-app accepts
 * and wakesim cannot simulate is refused with the file, line and key;
 * keys that only steer rt-app's own logging are accepted and listed in
 * the notes. Defaults follow rt-app_parse_config.c: a phase's "loop" is 1;
 * a thread with "phases" loops -1 (forever) unless it has "loop"; a
 * thread without "phases" is its own single phase, looping forever unless
 * it has "loop" (then its phase loops that many times, once).
 */
#include "rtapp.h"
#include "workload.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsondoc.h"
#include "util/jsonin.h"
#include "util/jsonpos.h"
#include "util/textfile.h"

struct pctx {
	struct json_in in;	/* file, text (keys made unique), messages */
	int renamed;		/* repeated keys the text had */
	struct ra_file *f;
};

/* A key ending in digits may be a repeat that workgen-style renaming
 * numbered: say so, the user never wrote it. */
static void renamed_hint(const struct json_in *in, const char *path, char *what, size_t len)
{
	const struct pctx *c = in->hint_arg;
	const char *last = strrchr(path, '.');
	size_t n = strlen(path);

	last = last ? last + 1 : path;
	if (c->renamed && n && path[n - 1] >= '0' && path[n - 1] <= '9') {
		size_t off = strlen(what);

		snprintf(what + off, len - off, " (if the file repeats \"%.*s\", repeats are "
			 "numbered from 1 as workgen numbers them)", (int)strcspn(last, "0123456789"),
			 last);
	}
}

static int fail(const struct pctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(const struct pctx *c, const char *path, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return json_in_fail(&c->in, path, "%s", what);
}

static void note(struct pctx *c, const char *path)
{
	size_t off = strlen(c->f->notes);

	snprintf(c->f->notes + off, sizeof(c->f->notes) - off, "%s%s", off ? ", " : "", path);
}

/* Event keys by prefix, in rt-app's order ("runtime" before "run"). */
static const struct {
	const char *prefix;
	int type;		/* enum ra_ev, or -1: rt-app has it, wakesim does not */
} event_keys[] = {
	{ "lock", RA_LOCK },	   { "unlock", RA_UNLOCK },	{ "wait", RA_WAIT },
	{ "signal", RA_SIGNAL },   { "broad", RA_BROAD },	{ "sync", RA_SYNC },
	{ "sleep", RA_SLEEP },	   { "runtime", RA_RUNTIME },	{ "run", RA_RUN },
	{ "timer", RA_TIMER },	   { "suspend", RA_SUSPEND },	{ "resume", RA_RESUME },
	{ "mem", -1 },		   { "iorun", -1 },		{ "yield", -1 },
	{ "barrier", RA_BARRIER }, { "fork", -1 },
};

static int event_type(const char *key, const char **prefix)
{
	for (size_t i = 0; i < sizeof(event_keys) / sizeof(event_keys[0]); i++)
		if (!strncmp(key, event_keys[i].prefix, strlen(event_keys[i].prefix))) {
			*prefix = event_keys[i].prefix;
			return event_keys[i].type;
		}
	return -2;
}

/* A resource by name and kind, created on first use as rt-app does. */
static int resource(struct pctx *c, const char *name, enum ra_res_type type, const char *path)
{
	struct ra_file *f = c->f;

	for (int i = 0; i < f->nres; i++)
		if (f->res[i].type == type && !strcmp(f->res[i].name, name))
			return i;
	struct ra_res *nr = realloc(f->res, sizeof(*nr) * (size_t)(f->nres + 1));

	if (!nr)
		return fail(c, path, "out of memory") - 1;
	f->res = nr;
	f->res[f->nres] = (struct ra_res){ .name = strdup(name), .type = type };
	if (!f->res[f->nres].name)
		return fail(c, path, "out of memory") - 1;
	return f->nres++;
}

static int get_int(struct pctx *c, json_object *v, const char *path, long long min, long long max,
		   long long *out)
{
	return json_in_llong(&c->in, v, path, min, max, out);
}

static int get_string(struct pctx *c, json_object *v, const char *path, const char **out)
{
	if (!json_object_is_type(v, json_type_string))
		return fail(c, path, "expected a string");
	*out = json_object_get_string(v);
	if (!**out)
		return fail(c, path, "empty name");
	return 0;
}

/* "cpus": [0, 2, 3] */
static int parse_cpus(struct pctx *c, json_object *v, const char *path, struct cpumask *m,
		      int *maxcpu, int *line)
{
	if (!json_object_is_type(v, json_type_array) || !json_object_array_length(v))
		return fail(c, path, "expected a non-empty array of CPU numbers");
	cpumask_clear(m);
	*maxcpu = -1;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		char p[600];
		long long cpu;

		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (get_int(c, json_object_array_get_idx(v, i), p, 0, WS_MAX_CPUS - 1, &cpu))
			return -1;
		cpumask_set_cpu((int)cpu, m);
		if (cpu > *maxcpu)
			*maxcpu = (int)cpu;
	}
	*line = json_path_line_or_parent(c->in.text, c->in.len, path);
	return 0;
}

static int parse_event(struct pctx *c, const char *key, json_object *v, const char *path,
		       int type, const char *task_name, struct ra_event *e)
{
	long long n;
	const char *s;

	*e = (struct ra_event){ .type = (enum ra_ev)type, .res = -1, .mutex = -1 };
	e->key = strdup(path);
	if (!e->key)
		return fail(c, path, "out of memory");
	switch (type) {
	case RA_RUN:
	case RA_RUNTIME:
	case RA_SLEEP:
		if (get_int(c, v, path, 0, 3600LL * 1000000, &n))
			return -1;
		e->usec = (uint64_t)n;
		return 0;
	case RA_LOCK:
	case RA_UNLOCK:
		if (get_string(c, v, path, &s))
			return -1;
		e->res = resource(c, s, RA_MUTEX, path);
		return e->res < 0 ? -1 : 0;
	case RA_SIGNAL:
	case RA_BROAD:
		if (get_string(c, v, path, &s))
			return -1;
		e->res = resource(c, s, RA_COND, path);
		return e->res < 0 ? -1 : 0;
	case RA_BARRIER:
		if (get_string(c, v, path, &s))
			return -1;
		e->res = resource(c, s, RA_BARRIER_RES, path);
		if (e->res < 0)
			return -1;
		c->f->res[e->res].users++;
		return 0;
	case RA_SUSPEND:
	case RA_RESUME: {
		/* suspend "" means the thread itself (workgen fills the name in). */
		if (!json_object_is_type(v, json_type_string))
			return fail(c, path, "expected a thread name");
		s = json_object_get_string(v);
		if (!*s) {
			if (type == RA_RESUME)
				return fail(c, path, "resume needs the name of the thread to wake");
			s = task_name;
		}
		e->res = resource(c, s, RA_COND, path);
		e->mutex = e->res < 0 ? -1 : resource(c, s, RA_MUTEX, path);
		return e->res < 0 || e->mutex < 0 ? -1 : 0;
	}
	case RA_WAIT:
	case RA_SYNC:
	case RA_TIMER: {
		char p[600];
		json_object *ref, *x;

		if (!json_object_is_type(v, json_type_object))
			return fail(c, path, "expected an object {\"ref\": ..., %s}",
				    type == RA_TIMER ? "\"period\": usec" : "\"mutex\": ...");
		json_object_object_foreach(v, k, val) {
			(void)val;
			if (strcmp(k, "ref") && strcmp(k, type == RA_TIMER ? "period" : "mutex") &&
			    !(type == RA_TIMER && !strcmp(k, "mode"))) {
				snprintf(p, sizeof(p), "%s.%s", path, k);
				return fail(c, p, "unknown key in a %s event", key);
			}
		}
		snprintf(p, sizeof(p), "%s.ref", path);
		if (!json_object_object_get_ex(v, "ref", &ref))
			return fail(c, p, "missing");
		if (get_string(c, ref, p, &s))
			return -1;
		if (type == RA_TIMER) {
			char local[300];

			/* A "unique..." timer is per thread instance: keep it apart. */
			e->unique = !strncmp(s, "unique", 6);
			snprintf(local, sizeof(local), "%s%s%s", e->unique ? task_name : "",
				 e->unique ? "/" : "", s);
			e->res = resource(c, local, RA_TIMER_RES, p);
			if (e->res < 0)
				return -1;
			snprintf(p, sizeof(p), "%s.period", path);
			if (!json_object_object_get_ex(v, "period", &x))
				return fail(c, p, "missing");
			if (get_int(c, x, p, 1, 3600LL * 1000000, &n))
				return -1;
			e->usec = (uint64_t)n;
			if (json_object_object_get_ex(v, "mode", &x)) {
				snprintf(p, sizeof(p), "%s.mode", path);
				if (get_string(c, x, p, &s))
					return -1;
				if (!strcmp(s, "absolute"))
					e->absolute = true;
				else if (strcmp(s, "relative"))
					return fail(c, p, "\"%s\": expected \"relative\" or \"absolute\"", s);
			}
			return 0;
		}
		e->res = resource(c, s, RA_COND, p);
		if (e->res < 0)
			return -1;
		snprintf(p, sizeof(p), "%s.mutex", path);
		if (!json_object_object_get_ex(v, "mutex", &x))
			return fail(c, p, "missing");
		if (get_string(c, x, p, &s))
			return -1;
		e->mutex = resource(c, s, RA_MUTEX, p);
		return e->mutex < 0 ? -1 : 0;
	}
	}
	return fail(c, path, "internal: event type %d", type);
}

/* Policy and priority keys, at thread or phase level. */
static int parse_sched(struct pctx *c, json_object *obj, const char *path, bool phase, int *nice)
{
	json_object *v;
	char p[600];
	const char *s;
	long long n;

	if (json_object_object_get_ex(obj, "policy", &v)) {
		snprintf(p, sizeof(p), "%s.policy", path);
		if (get_string(c, v, p, &s))
			return -1;
		if (strcmp(s, "SCHED_OTHER"))
			return fail(c, p, "%s is not simulated: wakesim models the fair class only "
				    "(SCHED_OTHER)", s);
	}
	if (json_object_object_get_ex(obj, "priority", &v)) {
		snprintf(p, sizeof(p), "%s.priority", path);
		if (get_int(c, v, p, -20, 19, &n))
			return -1;
		if (phase && n != *nice)
			return fail(c, p, "a phase changing the thread's nice value is not simulated");
		*nice = (int)n;
	}
	static const char *const refused[] = { "dl-runtime", "dl-period", "dl-deadline", "util_min",
					       "util_max", "taskgroup", "membind_nodes" };

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (json_object_object_get_ex(obj, refused[i], &v)) {
			snprintf(p, sizeof(p), "%s.%s", path, refused[i]);
			return fail(c, p, "not simulated (SCHED_DEADLINE, uclamp, cgroups and NUMA "
				    "memory policy are outside wakesim's model)");
		}
	return 0;
}

static bool is_sched_key(const char *k)
{
	return !strcmp(k, "policy") || !strcmp(k, "priority");
}

static int parse_phase(struct pctx *c, json_object *obj, const char *path, struct ra_task *t,
		       bool inline_phase, struct ra_phase *ph)
{
	json_object *v;
	char p[600];
	long long n;
	int cap = 0;

	memset(ph, 0, sizeof(*ph));
	ph->loop = 1;
	json_object_object_foreach(obj, key, val) {
		const char *prefix;
		int type = event_type(key, &prefix);

		snprintf(p, sizeof(p), "%s.%s", path, key);
		if (type == -1)
			return fail(c, p, "the rt-app event \"%s\" is not simulated (supported: run, "
				    "runtime, sleep, timer, lock, unlock, wait, signal, broad, sync, "
				    "barrier, suspend, resume)", prefix);
		if (type >= 0) {
			if (ph->nev == cap) {
				cap = cap ? 2 * cap : 8;
				struct ra_event *ne = realloc(ph->ev, sizeof(*ne) * (size_t)cap);

				if (!ne)
					return fail(c, p, "out of memory");
				ph->ev = ne;
			}
			if (parse_event(c, key, val, p, type, t->name, &ph->ev[ph->nev])) {
				free(ph->ev[ph->nev].key); /* not counted in nev yet */
				return -1;
			}
			ph->nev++;
			continue;
		}
		if (!strcmp(key, "loop") || !strcmp(key, "cpus") || is_sched_key(key))
			continue;
		if (inline_phase &&
		    (!strcmp(key, "instance") || !strcmp(key, "delay") || !strcmp(key, "phases")))
			continue;
		return fail(c, p, "unknown or unsupported key in a %s", inline_phase ? "thread" : "phase");
	}
	if (!ph->nev)
		return fail(c, path, "no events: rt-app refuses a phase without any");
	if (json_object_object_get_ex(obj, "loop", &v)) {
		snprintf(p, sizeof(p), "%s.loop", path);
		if (get_int(c, v, p, inline_phase ? -1 : 1, 1000000000, &n))
			return -1;
		ph->loop = n < 1 ? 1 : (int)n;
	}
	if (!inline_phase && json_object_object_get_ex(obj, "cpus", &v)) {
		snprintf(p, sizeof(p), "%s.cpus", path);
		if (parse_cpus(c, v, p, &ph->cpus, &ph->cpus_max, &ph->cpus_line))
			return -1;
		ph->has_cpus = true;
	}
	if (!inline_phase && parse_sched(c, obj, path, true, &t->nice))
		return -1;
	return 0;
}

static int parse_task(struct pctx *c, const char *name, json_object *obj, struct ra_task *t)
{
	json_object *v, *phases;
	char path[600], p[700];
	long long n;

	snprintf(path, sizeof(path), "tasks.%s", name);
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	t->instance = 1;
	if (!t->name)
		return fail(c, path, "out of memory");
	if (!json_object_is_type(obj, json_type_object))
		return fail(c, path, "expected a thread object");
	if (parse_sched(c, obj, path, false, &t->nice))
		return -1;
	if (json_object_object_get_ex(obj, "instance", &v)) {
		snprintf(p, sizeof(p), "%s.instance", path);
		if (get_int(c, v, p, 0, 65536, &n))
			return -1;
		t->instance = (int)n;
	}
	if (json_object_object_get_ex(obj, "delay", &v)) {
		snprintf(p, sizeof(p), "%s.delay", path);
		if (get_int(c, v, p, 0, WL_MAX_SECONDS * 1000000LL, &n))
			return -1;
		t->delay_us = (uint64_t)n;
	}
	if (json_object_object_get_ex(obj, "cpus", &v)) {
		snprintf(p, sizeof(p), "%s.cpus", path);
		if (parse_cpus(c, v, p, &t->cpus, &t->cpus_max, &t->cpus_line))
			return -1;
		t->has_cpus = true;
	}
	if (json_object_object_get_ex(obj, "phases", &phases)) {
		snprintf(p, sizeof(p), "%s.phases", path);
		if (!json_object_is_type(phases, json_type_object) || !json_object_object_length(phases))
			return fail(c, p, "expected an object of phases");
		/* The thread object itself may then hold only thread keys. */
		json_object_object_foreach(obj, key, val) {
			(void)val;
			static const char *const ok[] = { "instance", "delay", "cpus", "phases", "loop",
							  "policy", "priority" };
			bool known = false;

			for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
				known |= !strcmp(key, ok[i]);
			if (!known) {
				const char *prefix;
				int type = event_type(key, &prefix);

				snprintf(p, sizeof(p), "%s.%s", path, key);
				return fail(c, p, type != -2 ? "an event beside \"phases\": put it in a phase"
							 : "unknown or unsupported key in a thread");
			}
		}
		t->nph = json_object_object_length(phases);
		t->ph = calloc((size_t)t->nph, sizeof(*t->ph));
		if (!t->ph)
			return fail(c, path, "out of memory");
		int i = 0;

		json_object_object_foreach(phases, pname, pobj) {
			snprintf(p, sizeof(p), "%s.phases.%s", path, pname);
			if (!json_object_is_type(pobj, json_type_object))
				return fail(c, p, "expected a phase object");
			if (parse_phase(c, pobj, p, t, false, &t->ph[i++]))
				return -1;
		}
		t->loop = -1;
		if (json_object_object_get_ex(obj, "loop", &v)) {
			snprintf(p, sizeof(p), "%s.loop", path);
			if (get_int(c, v, p, -1, 1000000000, &n))
				return -1;
			if (!n)
				return fail(c, p, "0 loops: the thread would do nothing");
			t->loop = (int)n;
		}
		return 0;
	}
	t->nph = 1;
	t->ph = calloc(1, sizeof(*t->ph));
	if (!t->ph)
		return fail(c, path, "out of memory");
	if (parse_phase(c, obj, path, t, true, &t->ph[0]))
		return -1;
	/* Without phases: "loop" N runs the events N times, once; none: forever. */
	if (json_object_object_get_ex(obj, "loop", &v)) {
		json_object_object_get_ex(obj, "loop", &v);
		n = json_object_get_int64(v);
		if (n < 0) {
			t->loop = -1;
			t->ph[0].loop = 1;
		} else if (!n) {
			snprintf(p, sizeof(p), "%s.loop", path);
			return fail(c, p, "0 loops: the thread would do nothing");
		} else {
			t->loop = 1;
		}
	} else {
		t->loop = -1;
	}
	return 0;
}

static int parse_global(struct pctx *c, json_object *g)
{
	char p[300];
	long long n;

	c->f->duration_s = -1;
	if (!g)
		return 0;
	if (!json_object_is_type(g, json_type_object))
		return fail(c, "global", "expected an object");
	json_object_object_foreach(g, key, v) {
		snprintf(p, sizeof(p), "global.%s", key);
		if (!strcmp(key, "duration")) {
			if (get_int(c, v, p, -1, WL_MAX_SECONDS, &n))
				return -1;
			if (!n)
				return fail(c, p, "0 s: nothing would run");
			c->f->duration_s = n;
		} else if (!strcmp(key, "default_policy")) {
			const char *s;

			if (get_string(c, v, p, &s))
				return -1;
			if (strcmp(s, "SCHED_OTHER"))
				return fail(c, p, "%s is not simulated: wakesim models the fair class "
					    "only (SCHED_OTHER)", s);
		} else if (!strcmp(key, "calibration")) {
			/* CPU time is simulated: a run event's usec are CPU time on
			 * the calibration CPU, whatever is given. */
			int cpu;
			char extra;

			if (json_object_is_type(v, json_type_int) ? json_object_get_int64(v) <= 0
			    : !json_object_is_type(v, json_type_string) ||
				      sscanf(json_object_get_string(v), "CPU%d%c", &cpu, &extra) != 1 ||
				      cpu < 0)
				return fail(c, p, "expected \"CPUn\" or a positive number of ns per loop");
		} else if (!strcmp(key, "cumulative_slack")) {
			if (!json_object_is_type(v, json_type_boolean))
				return fail(c, p, "expected true or false");
			c->f->cumulative_slack = json_object_get_boolean(v);
		} else if (!strcmp(key, "pi_enabled") || !strcmp(key, "lock_pages")) {
			/* Priority inheritance and page locking change nothing for
			 * SCHED_OTHER threads without memory pressure. */
			if (!json_object_is_type(v, json_type_boolean))
				return fail(c, p, "expected true or false");
		} else if (!strcmp(key, "logdir") || !strcmp(key, "log_basename") ||
			   !strcmp(key, "log_size") || !strcmp(key, "ftrace") ||
			   !strcmp(key, "gnuplot") || !strcmp(key, "io_device") ||
			   !strcmp(key, "mem_buffer_size")) {
			note(c, p);
		} else {
			return fail(c, p, "unknown or unsupported global key");
		}
	}
	return 0;
}

int rtapp_parse(const char *path, struct ra_file *f, char *err, size_t errlen)
{
	struct pctx c = { .in = { .file = path, .err = err, .errlen = errlen, .hint = renamed_hint },
			  .f = f };
	char *raw = NULL, *text = NULL;
	size_t len;
	json_object *root = NULL;
	int ret = -1, renamed = 0;

	memset(f, 0, sizeof(*f));
	f->duration_s = -1;
	if (text_file_read(path, "rt-app file", &raw, &len, err, errlen))
		return -1;
	text = json_unique_keys(raw, len, &renamed);
	c.renamed = renamed;
	if (!text) {
		snprintf(err, errlen, "%s: out of memory (or nesting deeper than 64)", path);
		goto out;
	}
	c.in.text = text;
	c.in.len = strlen(text);
	c.in.hint_arg = &c;
	f->path = strdup(path);

	if (json_doc_parse_lenient(text, c.in.len, path, &root, err, errlen))
		goto out;
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s:1: expected an object with \"tasks\"", path);
		goto out;
	}
	json_object *tasks = NULL, *global = NULL;

	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "tasks"))
			tasks = val;
		else if (!strcmp(key, "global"))
			global = val;
		else if (!strcmp(key, "resources")) {
			if (!json_object_is_type(val, json_type_object) &&
			    !json_object_is_type(val, json_type_array)) {
				fail(&c, key, "expected an object (legacy resource declarations)");
				goto out;
			}
			note(&c, "resources (legacy: rt-app creates resources by name)");
		}
		else {
			fail(&c, key, "unknown top-level key (rt-app knows tasks, global, resources)");
			goto out;
		}
	}
	if (parse_global(&c, global))
		goto out;
	if (!tasks || !json_object_is_type(tasks, json_type_object) ||
	    !json_object_object_length(tasks)) {
		fail(&c, "tasks", tasks ? "expected an object of threads" : "missing (rt-app needs it)");
		goto out;
	}
	f->ntask = json_object_object_length(tasks);
	f->task = calloc((size_t)f->ntask, sizeof(*f->task));
	if (!f->task) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	int i = 0;

	json_object_object_foreach(tasks, tname, tobj) {
		if (parse_task(&c, tname, tobj, &f->task[i++]))
			goto out;
		f->nthreads += f->task[i - 1].instance;
	}
	if (!f->nthreads) {
		fail(&c, "tasks", "every thread has \"instance\": 0");
		goto out;
	}
	if (f->nthreads > 65536) {
		fail(&c, "tasks", "%d threads in all: wakesim simulates at most 65536", f->nthreads);
		goto out;
	}
	/* resume "name" wakes a thread by its task name: a typo would wake nobody. */
	for (int t = 0; t < f->ntask; t++)
		for (int p = 0; p < f->task[t].nph; p++)
			for (int e = 0; e < f->task[t].ph[p].nev; e++) {
				const struct ra_event *ev = &f->task[t].ph[p].ev[e];
				bool found = false;

				if (ev->type != RA_RESUME)
					continue;
				for (int k = 0; k < f->ntask; k++)
					found |= !strcmp(f->task[k].name, f->res[ev->res].name);
				if (!found) {
					fail(&c, ev->key, "resumes \"%s\", which is no thread of the file",
					     f->res[ev->res].name);
					goto out;
				}
			}
	for (int t = 0; t < f->ntask && f->duration_s < 0; t++)
		if (f->task[t].instance && f->task[t].loop < 0) {
			char p[600];

			snprintf(p, sizeof(p), "tasks.%s", f->task[t].name);
			fail(&c, p, "loops forever (no \"loop\", or -1) and global has no "
				    "\"duration\": a simulation must end");
			goto out;
		}
	f->renamed = renamed;
	ret = 0;
out:
	if (root)
		json_object_put(root);
	free(raw);
	free(text);
	if (ret)
		rtapp_file_free(f);
	return ret;
}

int rtapp_check_cpus(const struct ra_file *f, int nr_cpus, char *err, size_t errlen)
{
	for (int t = 0; t < f->ntask; t++) {
		const struct ra_task *tk = &f->task[t];

		if (tk->has_cpus && tk->cpus_max >= nr_cpus) {
			snprintf(err, errlen, "%s:%d: field \"tasks.%s.cpus\": CPU %d is not on this "
				 "machine (CPUs 0-%d)", f->path, tk->cpus_line, tk->name, tk->cpus_max,
				 nr_cpus - 1);
			return -1;
		}
		for (int p = 0; p < tk->nph; p++)
			if (tk->ph[p].has_cpus && tk->ph[p].cpus_max >= nr_cpus) {
				snprintf(err, errlen, "%s:%d: field \"cpus\" of a phase of %s: CPU %d is "
					 "not on this machine (CPUs 0-%d)", f->path, tk->ph[p].cpus_line,
					 tk->name, tk->ph[p].cpus_max, nr_cpus - 1);
				return -1;
			}
	}
	return 0;
}

/* The file's text as parsed: read again, repeated keys renamed. */
static char *load_text(const char *path, size_t *len)
{
	char *raw, *text = NULL, err[256];
	size_t n;
	int renamed;

	if (text_file_read(path, "rt-app file", &raw, &n, err, sizeof(err)))
		return NULL;
	text = json_unique_keys(raw, n, &renamed);
	free(raw);
	*len = text ? strlen(text) : 0;
	return text;
}

void rtapp_where(const struct ra_file *f, const char *key, char *buf, size_t len)
{
	size_t tlen;
	char *text = load_text(f->path, &tlen);
	int line = text ? json_path_line_or_parent(text, tlen, key) : 0;

	if (line)
		snprintf(buf, len, "%s:%d: field \"%s\": ", f->path, line, key);
	else
		snprintf(buf, len, "%s: field \"%s\": ", f->path, key);
	free(text);
}

void rtapp_file_free(struct ra_file *f)
{
	for (int t = 0; f->task && t < f->ntask; t++) {
		for (int p = 0; f->task[t].ph && p < f->task[t].nph; p++) {
			for (int e = 0; f->task[t].ph[p].ev && e < f->task[t].ph[p].nev; e++)
				free(f->task[t].ph[p].ev[e].key);
			free(f->task[t].ph[p].ev);
		}
		free(f->task[t].ph);
		free(f->task[t].name);
	}
	for (int r = 0; r < f->nres; r++)
		free(f->res[r].name);
	free(f->task);
	free(f->res);
	free(f->path);
	memset(f, 0, sizeof(*f));
}
