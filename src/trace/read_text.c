/*
 * read_text.c - scheduler events from text traces, one event per line:
 *   perf script:  "  COMM  PID [CPU] SEC.FRAC: sched:EVENT: FIELDS"
 *                 (PID may be "PID/TID"; --ns gives 9 fraction digits)
 *   ftrace text:  "  COMM-PID [CPU] FLAGS SEC.FRAC: EVENT: FIELDS"
 *                 (/sys/kernel/tracing/trace; "(TGID)" after the pid with
 *                 record-tgid; trace-cmd report has no FLAGS column)
 * FIELDS are the event's print format (include/trace/events/sched.h), or
 * trace-cmd's raw fields (report -R), or its sched plugin's layout
 * ("COMM:PID [PRIO] STATE ==> COMM:PID [PRIO]", "COMM:PID [PRIO] CPU:NNN").
 * A comm may hold spaces: a comm value ends where the field after it starts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_trace.h"

struct ctx {
	const char *path;
	unsigned long line;
	const char *event;
	char *err;
	size_t errlen;
	/* Per CPU: the time and line of its last event (line 0: none yet). */
	uint64_t *cpu_ts;
	uint32_t *cpu_line;
	size_t nr_cpu_slots;
};

/*
 * One CPU's events are in time order in whatever ftrace or perf writes:
 * each CPU's ring buffer is stamped by one clock, and the readers merge the
 * CPUs' streams. An event before its CPU's previous one means lines were
 * moved or two traces joined; sorting would splice the runs into one.
 */
static int check_cpu_order(struct ctx *c, int cpu, uint64_t ts)
{
	if ((size_t)cpu >= c->nr_cpu_slots) {
		size_t n = (size_t)cpu + 1 > 2 * c->nr_cpu_slots ? (size_t)cpu + 1 : 2 * c->nr_cpu_slots;
		uint64_t *t = realloc(c->cpu_ts, n * sizeof(*t));

		if (!t)
			return -1;
		c->cpu_ts = t;
		uint32_t *l = realloc(c->cpu_line, n * sizeof(*l));

		if (!l)
			return -1;
		c->cpu_line = l;
		memset(c->cpu_line + c->nr_cpu_slots, 0, (n - c->nr_cpu_slots) * sizeof(*l));
		c->nr_cpu_slots = n;
	}
	if (c->cpu_line[cpu] && ts < c->cpu_ts[cpu]) {
		snprintf(c->err, c->errlen,
			 "%s:%lu: %s: the time %llu.%06llu is before %llu.%06llu, CPU %d's event on line "
			 "%u: a CPU's events come in time order in any trace ftrace or perf writes "
			 "(lines moved, or two traces joined?)", c->path, c->line, c->event,
			 (unsigned long long)(ts / 1000000000), (unsigned long long)(ts % 1000000000 / 1000),
			 (unsigned long long)(c->cpu_ts[cpu] / 1000000000),
			 (unsigned long long)(c->cpu_ts[cpu] % 1000000000 / 1000), cpu, c->cpu_line[cpu]);
		return 1;
	}
	c->cpu_ts[cpu] = ts;
	c->cpu_line[cpu] = c->line > UINT32_MAX ? UINT32_MAX : (uint32_t)c->line;
	return 0;
}

static int fail_nomem(struct ctx *c)
{
	snprintf(c->err, c->errlen, "%s:%lu: out of memory", c->path, c->line);
	return -1;
}

static int fail(struct ctx *c, const char *field, const char *what, const char *found)
{
	/* Up to 40 bytes of the token; a control or non-ASCII byte as \xNN, so a
	 * binary or hostile file cannot drive the user's terminal. */
	char shown[4 * 40 + 1];
	size_t n = strcspn(found, " \n"), o = 0;

	for (size_t i = 0; i < n && i < 40; i++) {
		unsigned char b = (unsigned char)found[i];

		if (b < 0x20 || b >= 0x7f || b == '\\')
			o += (size_t)snprintf(shown + o, sizeof(shown) - o, "\\x%02x", b);
		else
			shown[o++] = (char)b;
	}
	shown[o] = '\0';
	if (field)
		snprintf(c->err, c->errlen, "%s:%lu: %s: field \"%s\": %s, found \"%s\"", c->path,
			 c->line, c->event, field, what, shown);
	else
		snprintf(c->err, c->errlen, "%s:%lu: %s, found \"%s\"", c->path, c->line, what, shown);
	return -1;
}

/* Where "key=" starts a field in s (at its start or after a space), or NULL. */
static const char *find_key(const char *s, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = s; (p = strstr(p, key)); p++)
		if ((p == s || p[-1] == ' ') && p[kl] == '=')
			return p + kl + 1;
	return NULL;
}

/* A decimal integer that ends at a space or the end; 0 or -1. */
static int parse_int(const char *s, long *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	long v = strtol(s, &end, 10);

	if (end == s || (*end && *end != ' ') || v < -2147483647L || v > 2147483647L)
		return -1;
	*out = v;
	return 0;
}

static int get_int(struct ctx *c, const char *f, const char *key, long min, long *out)
{
	const char *v = find_key(f, key);

	if (!v)
		return fail(c, key, "missing", f);
	if (parse_int(v, out) || *out < min) {
		char what[48];

		snprintf(what, sizeof(what), "expected an integer in %ld..2147483647", min);
		return fail(c, key, what, v);
	}
	return 0;
}

/* A comm value: from key= up to " next_key=" (comms may hold spaces). */
static int get_comm(struct ctx *c, const char *f, const char *key, const char *next_key,
		    char *out, size_t len)
{
	const char *v = find_key(f, key);
	char pat[32];

	if (!v)
		return fail(c, key, "missing", f);
	snprintf(pat, sizeof(pat), " %s=", next_key);
	const char *end = strstr(v, pat);

	if (!end)
		return fail(c, next_key, "missing", v);
	snprintf(out, len, "%.*s", (int)(end - v), v);
	return 0;
}

/* prev_state as text (R, R+, S, D|W, X, Z, I, ...) or as raw bits (report -R). */
static int parse_state(struct ctx *c, const char *v, uint8_t *state)
{
	long bits;

	if (isdigit((unsigned char)*v)) {
		if (parse_int(v, &bits) || bits < 0)
			return fail(c, "prev_state", "expected a state", v);
		*state = sev_state_from_bits((unsigned long long)bits);
		return 0;
	}
	size_t n = strcspn(v, " ");

	if (!n || !strchr("RSDTtXZPIKWN", *v))
		return fail(c, "prev_state", "expected a state (R, R+, S, D, X, Z, ...)", v);
	if (memchr(v, 'X', n) || memchr(v, 'Z', n))
		*state = SEV_DEAD;
	else
		*state = *v == 'R' ? SEV_PREEMPTED : SEV_SLEEP;
	return 0;
}

/* trace-cmd's plugin layout of a task: "COMM:PID [PRIO]"; returns the text after it. */
static const char *plugin_task(struct ctx *c, const char *s, const char *field, long *pid,
			       char *comm, size_t len)
{
	const char *br = strstr(s, " [");

	if (!br)
		return fail(c, field, "expected COMM:PID [PRIO]", s), NULL;
	const char *colon = br;

	while (colon > s && colon[-1] != ':')
		colon--;
	if (colon == s)
		return fail(c, field, "expected COMM:PID [PRIO]", s), NULL;
	char num[16];

	snprintf(num, sizeof(num), "%.*s", (int)(br - colon > 15 ? 15 : br - colon), colon);
	if (parse_int(num, pid) || *pid < 0)
		return fail(c, field, "expected a pid", colon), NULL;
	snprintf(comm, len, "%.*s", (int)(colon - 1 - s), s);
	const char *close = strchr(br, ']');

	if (!close)
		return fail(c, field, "expected [PRIO]", br), NULL;
	return close + 1;
}

static int parse_switch(struct ctx *c, struct sched_trace *tr, const char *f, struct sched_event *e)
{
	char pc[64], nc[64];
	long pp, np;

	if (find_key(f, "prev_comm")) {
		const char *st = find_key(f, "prev_state");

		/* In the line's order: a line cut short names its first missing field. */
		if (get_comm(c, f, "prev_comm", "prev_pid", pc, sizeof(pc)) ||
		    get_int(c, f, "prev_pid", 0, &pp))
			return -1;
		if (!st)
			return fail(c, "prev_state", "missing", f);
		if (parse_state(c, st, &e->state) ||
		    get_comm(c, f, "next_comm", "next_pid", nc, sizeof(nc)) ||
		    get_int(c, f, "next_pid", 0, &np))
			return -1;
	} else {
		const char *r = plugin_task(c, f, "prev", &pp, pc, sizeof(pc));

		if (!r)
			return -1;
		while (*r == ' ')
			r++;
		if (parse_state(c, r, &e->state))
			return -1;
		const char *arrow = strstr(r, "==> ");

		if (!arrow)
			return fail(c, "next", "expected \"==> COMM:PID [PRIO]\"", r);
		if (!plugin_task(c, arrow + 4, "next", &np, nc, sizeof(nc)))
			return -1;
	}
	e->a = (int32_t)pp;
	e->b = (int32_t)np;
	/* The idle task's comm is swapper/N: keep pid 0 out of the table. */
	if ((pp && sched_trace_note(tr, (int)pp, pc)) || (np && sched_trace_note(tr, (int)np, nc)))
		return -2;
	return 0;
}

/* sched_waking, sched_wakeup(_new), sched_process_exit: "comm=C pid=P ..." or plugin. */
static int parse_task_event(struct ctx *c, struct sched_trace *tr, const char *f,
			    struct sched_event *e)
{
	char comm[64];
	long pid;

	if (find_key(f, "comm")) {
		if (get_comm(c, f, "comm", "pid", comm, sizeof(comm)) || get_int(c, f, "pid", 0, &pid))
			return -1;
	} else if (!plugin_task(c, f, "comm", &pid, comm, sizeof(comm))) {
		return -1;
	}
	e->a = (int32_t)pid;
	return pid && sched_trace_note(tr, (int)pid, comm) ? -2 : 0;
}

static int parse_migrate(struct ctx *c, struct sched_trace *tr, const char *f, struct sched_event *e)
{
	long dest;

	if (parse_task_event(c, tr, f, e) || get_int(c, f, "dest_cpu", 0, &dest))
		return -1;
	e->b = (int32_t)dest;
	return 0;
}

/* "comm=C pid=P runtime=N [ns]" (older kernels add "vruntime=V [ns]"). */
static int parse_runtime(struct ctx *c, struct sched_trace *tr, const char *f, struct sched_event *e)
{
	const char *v;
	char *end;

	if (parse_task_event(c, tr, f, e))
		return -1;
	v = find_key(f, "runtime");
	if (!v)
		return fail(c, "runtime", "missing", f);
	if (*v < '0' || *v > '9')
		return fail(c, "runtime", "expected ns", v);
	errno = 0;
	e->val = strtoull(v, &end, 10);
	/* update_curr()'s delta: under an hour is already generous. */
	if ((*end && *end != ' ') || errno || e->val > 3600ULL * 1000000000ULL)
		return fail(c, "runtime", "expected ns, at most 3600 s", v);
	return 0;
}

static int parse_fork(struct ctx *c, struct sched_trace *tr, const char *f, struct sched_event *e)
{
	char pc[64], cc[64];
	long pp, cp;
	bool raw = find_key(f, "parent_comm") != NULL;

	if (get_comm(c, f, raw ? "parent_comm" : "comm", raw ? "parent_pid" : "pid", pc, sizeof(pc)) ||
	    get_int(c, f, raw ? "parent_pid" : "pid", 0, &pp) ||
	    get_comm(c, f, "child_comm", "child_pid", cc, sizeof(cc)) ||
	    get_int(c, f, "child_pid", 1, &cp))
		return -1;
	e->a = (int32_t)pp;
	e->b = (int32_t)cp;
	if ((pp && sched_trace_note(tr, (int)pp, pc)) || sched_trace_note(tr, (int)cp, cc))
		return -2;
	return 0;
}

/* "SEC.FRAC" to ns; returns the text after it, or NULL. */
static const char *parse_time(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		if (sec > 10000000000ULL)
			return NULL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s++ != '.')
		return NULL;
	for (; isdigit((unsigned char)*s); s++, digits++)
		if (digits < 9)
			frac = frac * 10 + (uint64_t)(*s - '0');
	if (!digits)
		return NULL;
	for (int d = digits; d < 9; d++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return s;
}

/* The task column before "[CPU]": "COMM-PID", "COMM-PID (TGID)", "COMM PID" or "COMM PID/TID". */
static int parse_who(const char *s, size_t n, long *pid, char *comm, size_t len)
{
	while (n && s[n - 1] == ' ')
		n--;
	if (n && s[n - 1] == ')') {	/* record-tgid's "(TGID)" */
		while (n && s[n - 1] != '(')
			n--;
		if (!n)
			return -1;
		n--;
		while (n && s[n - 1] == ' ')
			n--;
	}
	size_t start = 0;

	while (start < n && s[start] == ' ')
		start++;
	size_t e = n;

	while (e > start && (isdigit((unsigned char)s[e - 1]) || s[e - 1] == '/'))
		e--;
	if (e == n)
		return -1;
	const char *num = s + e;

	if (memchr(num, '/', n - e))	/* perf's PID/TID: the tid is the task */
		num = (const char *)memchr(num, '/', n - e) + 1;
	if (!isdigit((unsigned char)*num))
		return -1;
	*pid = strtol(num, NULL, 10);
	if (e == start || (s[e - 1] != '-' && s[e - 1] != ' '))
		return -1;
	size_t ce = e - 1;

	while (ce > start && s[ce - 1] == ' ')
		ce--;
	snprintf(comm, len, "%.*s", (int)(ce - start), s + start);
	return 0;
}

/* Lines that are not events and carry nothing: headers of trace-cmd report and perf. */
static bool ignorable(const char *s, struct sched_trace *tr)
{
	int n;

	if (sscanf(s, "cpus=%d", &n) == 1) {
		if (n > tr->nr_cpus && n <= 65536)
			tr->nr_cpus = n;
		return true;
	}
	return !strncmp(s, "version = ", 10) || (!strncmp(s, "CPU ", 4) && strstr(s, " is empty")) ||
	       (!strncmp(s, "CPU", 3) && strstr(s, "data recorded at"));
}

static int parse_line(struct ctx *c, struct sched_trace *tr, char *s)
{
	char comm[64];
	long pid, cpu;
	const char *p = s;

	/* "[CPU]" then (flags) then "SEC.FRAC:" */
	for (;;) {
		p = strchr(p, '[');
		if (!p)
			return fail(c, NULL, "expected an event line, \"COMM-PID [CPU] TIME: EVENT: "
				    "FIELDS\" (ftrace) or \"COMM PID [CPU] TIME: sched:EVENT: FIELDS\" "
				    "(perf script)", s);
		char *end;

		cpu = strtol(p + 1, &end, 10);
		if (end > p + 1 && *end == ']' && end[1] == ' ' &&
		    (isdigit((unsigned char)p[1]) || (p[1] == '-' && isdigit((unsigned char)p[2]))))
			break;
		p++;
	}
	if (parse_who(s, (size_t)(p - s), &pid, comm, sizeof(comm)))
		return fail(c, NULL, "expected the task as COMM-PID or COMM PID before [CPU]", s);
	if (cpu < 0 || cpu > 65535)
		return fail(c, NULL, "expected a CPU number 0..65535", p);
	const char *q = strchr(p, ']') + 1;

	while (*q == ' ')
		q++;
	uint64_t ts;
	const char *t = parse_time(q, &ts), *first = q;
	size_t tl = strcspn(first, " ");
	bool time_like = tl && first[tl - 1] == ':';

	/* ftrace's context flags ("d..2.", "dNh1."): one token before the time;
	 * a token ending in ':' was meant to be the time. */
	if (!t && !time_like) {
		q += strcspn(q, " ");
		while (*q == ' ')
			q++;
		t = parse_time(q, &ts);
	}
	if (!t || *t != ':')
		return fail(c, NULL, "expected the time as SECONDS.FRACTION (seconds below 10^10) "
			    "after [CPU]", time_like ? first : q);
	/* hardirq 'h', softirq 's', both 'H': the third flag character. */
	const char *fl = strchr(p, ']') + 1;

	while (*fl == ' ')
		fl++;
	bool irq = fl < q && q - fl >= 3 && (fl[2] == 'h' || fl[2] == 's' || fl[2] == 'H');

	t++;
	while (*t == ' ')
		t++;
	if (!strncmp(t, "sched:", 6)) {
		t += 6;
		tr->perf = true;
	}
	size_t nl = strcspn(t, ": ");

	if (t[nl] != ':')
		return fail(c, NULL, "expected EVENT: after the time", t);
	int type = -1;

	for (int i = 0; i < SEV_NR; i++)
		if (strlen(sev_name(i)) == nl && !strncmp(t, sev_name(i), nl))
			type = i;
	if (type < 0) {
		tr->skipped++;
		return 0;
	}
	c->event = sev_name(type);
	int order = check_cpu_order(c, (int)cpu, ts);

	if (order)
		return order < 0 ? fail_nomem(c) : -1;
	const char *f = t + nl + 1;

	while (*f == ' ')
		f++;
	struct sched_event e = {
		.ts_ns = ts, .line = c->line > UINT32_MAX ? UINT32_MAX : (uint32_t)c->line,
		.cpu = (int32_t)cpu, .pid = (int32_t)pid, .type = (uint8_t)type, .irq = irq,
	};
	int r;

	switch (type) {
	case SEV_SWITCH:
		r = parse_switch(c, tr, f, &e);
		break;
	case SEV_MIGRATE:
		r = parse_migrate(c, tr, f, &e);
		break;
	case SEV_FORK:
		r = parse_fork(c, tr, f, &e);
		break;
	case SEV_STAT_RUNTIME:
		r = parse_runtime(c, tr, f, &e);
		break;
	default:
		r = parse_task_event(c, tr, f, &e);
		break;
	}
	if (r == -1)
		return -1;
	if (r || (pid && sched_trace_note(tr, (int)pid, strcmp(comm, "<...>") ? comm : NULL)) ||
	    sched_trace_add(tr, &e))
		return fail_nomem(c);
	return 0;
}


static int parse_lines(struct ctx *c, const char *path, const char *buf, size_t len,
		       struct sched_trace *tr, char *err, size_t errlen)
{
	char line[4096];
	size_t pos = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		size_t n = 0;

		c->line++;
		while (pos + n < len && buf[pos + n] != '\n')
			n++;
		if (memchr(buf + pos, '\0', n)) {
			snprintf(err, errlen, "%s:%lu: a NUL byte: not a text trace (nor a trace.dat)",
				 path, c->line);
			return -1;
		}
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "%s:%lu: a line of %zu bytes: longer than any sched event "
				 "line (%zu)", path, c->line, n, sizeof(line) - 1);
			return -1;
		}
		if (pos + n == len && n && buf[len - 1] != '\n' && buf[len - 1] != '\r') {
			/* A file cut in the middle of its last line (a truncated copy):
			 * what is left of it would parse as something else. */
			tr->cut_line = c->line > UINT32_MAX ? UINT32_MAX : (uint32_t)c->line;
			break;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		pos += n + 1;
		const char *s = line + strspn(line, " \t");
		int cpus;
		const char *hp = s[0] == '#' ? strstr(s, "#P:") : NULL;

		if (hp && sscanf(hp, "#P:%d", &cpus) == 1 && cpus > 0 && cpus <= 65536)
			tr->nr_cpus = cpus;
		/* kern/trace.c's line where a bounded trace stops. */
		const char *cut = s[0] == '#' ? strstr(s, "--trace-max-size") : NULL;
		const char *at = cut ? strstr(cut, " reached at ") : NULL;

		if (at && !strncmp(s, "# wakesim: ", 11)) {
			uint64_t ns;

			tr->size_cut_line = c->line > UINT32_MAX ? UINT32_MAX : (uint32_t)c->line;
			tr->size_cut_ns = parse_time(at + 12, &ns) ? ns : 0;
		}
		if (!*s || *s == '#' || ignorable(s, tr))
			continue;
		if (strstr(s, "[LOST ") && strstr(s, " EVENTS]")) {
			tr->lost++;
			continue;
		}
		c->event = NULL;
		if (parse_line(c, tr, line))
			return -1;
	}
	if (!tr->nr && tr->cut_line) {
		snprintf(err, errlen, "%s:%u: the last line has no end of line (a truncated file?), "
			 "and no complete event line comes before it", path, tr->cut_line);
		return -1;
	}
	if (!tr->nr) {
		snprintf(err, errlen, "%s: no sched_switch, sched_waking, sched_wakeup(_new), "
			 "sched_migrate_task, sched_process_fork or sched_process_exit events "
			 "(record them with `perf sched record` or `trace-cmd record -e sched`)", path);
		return -1;
	}
	snprintf(tr->format, sizeof(tr->format), "%s", tr->perf ? "perf script" : "ftrace text");
	sched_trace_finish(tr);
	return 0;
}

int sched_trace_parse_text(const char *path, const char *buf, size_t len, struct sched_trace *tr,
			   char *err, size_t errlen)
{
	struct ctx c = { .path = path, .err = err, .errlen = errlen };
	int r = parse_lines(&c, path, buf, len, tr, err, errlen);

	free(c.cpu_ts);
	free(c.cpu_line);
	return r;
}
