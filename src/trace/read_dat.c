/*
 * read_dat.c - scheduler events from trace-cmd's trace.dat, read with
 * libtracecmd (records) and libtraceevent (their fields, by the format
 * files stored in the trace). Fields are read by name, not through any
 * print format, so trace-cmd's plugins play no part.
 *
 * libtracecmd runs in a child process (sim/isolate.h): a corrupt file
 * that crashes it is reported, not fatal. The child sends a header, the
 * events, then the pid table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "sched_trace.h"
#include "util/fdio.h"
#include "util/isolate.h"

struct dat_header {
	int ok;
	char err[400];
	uint64_t nr_ev, lost, skipped;
	int nr_task;
};

struct dat_ctx {
	struct sched_trace *tr;
	struct tep_handle *tep;
	const char *path;
	uint32_t nrec;
	char *err;
	size_t errlen;
	int failed;
};

static int field_fail(struct dat_ctx *c, const struct tep_record *r, const char *ev,
		      const char *field, const char *what)
{
	snprintf(c->err, c->errlen, "%s: record %u (%s, CPU %d, file offset 0x%llx): field \"%s\": %s",
		 c->path, c->nrec, ev, r->cpu, r->offset, field, what);
	c->failed = 1;
	return -1;
}

static int num(struct dat_ctx *c, struct tep_event *ev, struct tep_record *r, const char *name,
	       long long *out)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f)
		return field_fail(c, r, ev->name, name, "missing from the event's format");
	if (f->offset + f->size > r->size || tep_read_number_field(f, r->data, &v))
		return field_fail(c, r, ev->name, name, "expected a number inside the record");
	/* pid_t and int fields are signed 32-bit in every sched format. */
	*out = f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED) ? (long long)(int32_t)v : (long long)v;
	return 0;
}

static int str(struct dat_ctx *c, struct tep_event *ev, struct tep_record *r, const char *name,
	       char *out, size_t len)
{
	int n = 0;
	const char *p = tep_get_field_raw(NULL, ev, name, r, &n, 0);

	if (!p || n < 0 || (const char *)p + n > (const char *)r->data + r->size ||
	    (const char *)p < (const char *)r->data)
		return field_fail(c, r, ev->name, name, "expected a string inside the record");
	size_t l = strnlen(p, (size_t)n);

	snprintf(out, len, "%.*s", (int)l, p);
	return 0;
}

static int pid_field(struct dat_ctx *c, struct tep_event *ev, struct tep_record *r,
		     const char *name, int32_t *out)
{
	long long v;

	if (num(c, ev, r, name, &v))
		return -1;
	if (v < 0 || v > 0x7fffffff)
		return field_fail(c, r, ev->name, name, "expected a pid >= 0");
	*out = (int32_t)v;
	return 0;
}

static int note(struct dat_ctx *c, int pid, const char *comm)
{
	if (pid && sched_trace_note(c->tr, pid, comm)) {
		snprintf(c->err, c->errlen, "%s: out of memory", c->path);
		c->failed = 1;
		return -1;
	}
	return 0;
}

static int one_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct dat_ctx *c = data;
	char comm[32], comm2[32];
	long long v;

	(void)h;
	(void)cpu;
	c->nrec++;
	if (r->missed_events)
		c->tr->lost++;
	struct tep_event *ev = tep_find_event_by_record(c->tep, r);
	int type = -1;

	if (ev && ev->system && !strcmp(ev->system, "sched"))
		for (int i = 0; i < SEV_NR; i++)
			if (!strcmp(ev->name, sev_name(i)))
				type = i;
	if (type < 0) {
		c->tr->skipped++;
		return 0;
	}
	int flags = tep_data_flags(c->tep, r);
	struct sched_event e = {
		.ts_ns = r->ts, .line = c->nrec, .cpu = r->cpu, .type = (uint8_t)type,
		.pid = tep_data_pid(c->tep, r),
		.irq = flags >= 0 && (flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ)),
	};

	if (e.pid < 0)
		return field_fail(c, r, ev->name, "common_pid", "expected a pid >= 0");
	switch (type) {
	case SEV_SWITCH:
		if (str(c, ev, r, "prev_comm", comm, sizeof(comm)) ||
		    pid_field(c, ev, r, "prev_pid", &e.a) || num(c, ev, r, "prev_state", &v) ||
		    str(c, ev, r, "next_comm", comm2, sizeof(comm2)) ||
		    pid_field(c, ev, r, "next_pid", &e.b))
			return -1;
		e.state = sev_state_from_bits((unsigned long long)v);
		if (note(c, e.a, comm) || note(c, e.b, comm2))
			return -1;
		break;
	case SEV_FORK:
		if (str(c, ev, r, "parent_comm", comm, sizeof(comm)) ||
		    pid_field(c, ev, r, "parent_pid", &e.a) ||
		    str(c, ev, r, "child_comm", comm2, sizeof(comm2)) ||
		    pid_field(c, ev, r, "child_pid", &e.b))
			return -1;
		if (note(c, e.a, comm) || note(c, e.b, comm2))
			return -1;
		break;
	default:
		if (str(c, ev, r, "comm", comm, sizeof(comm)) || pid_field(c, ev, r, "pid", &e.a))
			return -1;
		if (type == SEV_STAT_RUNTIME) {
			if (num(c, ev, r, "runtime", &v))
				return -1;
			e.val = (uint64_t)v;
		}
		if (type == SEV_MIGRATE) {
			if (num(c, ev, r, "dest_cpu", &v))
				return -1;
			if (v < 0 || v > 65535)
				return field_fail(c, r, ev->name, "dest_cpu", "expected a CPU 0..65535");
			e.b = (int32_t)v;
		}
		if (note(c, e.a, comm))
			return -1;
		break;
	}
	if (e.cpu < 0 || e.cpu > 65535)
		return field_fail(c, r, ev->name, "cpu", "expected a CPU 0..65535");
	if (note(c, e.pid, NULL) || sched_trace_add(c->tr, &e)) {
		snprintf(c->err, c->errlen, "%s: out of memory", c->path);
		c->failed = 1;
		return -1;
	}
	return 0;
}

/* In the child: libtracecmd reads the file into tr. */
static int read_here(const char *path, struct sched_trace *tr, struct dat_header *hd)
{
	struct dat_ctx c = { .tr = tr, .path = path, .err = hd->err, .errlen = sizeof(hd->err) };

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);

	if (!h) {
		snprintf(hd->err, sizeof(hd->err), "%s: not a readable trace.dat: libtracecmd rejects "
			 "its headers (truncated, or not written by trace-cmd)", path);
		return -1;
	}
	c.tep = tracecmd_get_tep(h);
	int r = c.tep ? tracecmd_iterate_events(h, NULL, 0, one_record, &c) : -1;

	tracecmd_close(h);
	if (c.failed)
		return -1;
	if (r < 0) {
		snprintf(hd->err, sizeof(hd->err), "%s: libtracecmd stopped after record %u: its data "
			 "is truncated or corrupt", path, c.nrec);
		return -1;
	}
	return 0;
}

int sched_trace_read_dat(const char *path, struct sched_trace *tr, char *err, size_t errlen)
{
	struct dat_header hd = { 0 };
	struct isolate is;
	bool crashed;
	int child = isolate_start(&is, "WAKESIM_TRACECMD_VERBOSE");

	if (child < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (child) {
		hd.ok = !read_here(path, tr, &hd);
		hd.nr_ev = hd.ok ? tr->nr : 0;
		hd.nr_task = hd.ok ? tr->nr_task : 0;
		hd.lost = tr->lost;
		hd.skipped = tr->skipped;
		int bad = write_all(is.fd, &hd, sizeof(hd)) ||
			  (hd.nr_ev && write_all(is.fd, tr->ev, hd.nr_ev * sizeof(*tr->ev))) ||
			  (hd.nr_task && write_all(is.fd, tr->task, (size_t)hd.nr_task * sizeof(*tr->task)));

		_exit(bad ? 1 : 0);
	}
	int got = read_all(is.fd, &hd, sizeof(hd));
	int ret = -1;

	if (!got && hd.ok && hd.nr_ev < SIZE_MAX / sizeof(*tr->ev) / 2 && hd.nr_task >= 0) {
		tr->ev = malloc(hd.nr_ev ? hd.nr_ev * sizeof(*tr->ev) : 1);
		struct sched_task *task = malloc(((size_t)hd.nr_task + 1) * sizeof(*task));

		got = !tr->ev || !task || (hd.nr_ev && read_all(is.fd, tr->ev, hd.nr_ev * sizeof(*tr->ev))) ||
		      (hd.nr_task && read_all(is.fd, task, (size_t)hd.nr_task * sizeof(*task)));
		tr->nr = tr->cap = got ? 0 : hd.nr_ev;
		for (int i = 0; !got && i < hd.nr_task; i++) {
			task[i].comm[sizeof(task[i].comm) - 1] = '\0';
			if (sched_trace_note(tr, task[i].pid, task[i].comm))
				got = -1;
		}
		free(task);
	}
	if (isolate_end(&is, &crashed) || got) {
		snprintf(err, errlen, "%s: not a readable trace.dat: libtracecmd failed on it%s", path,
			 crashed ? " (it crashed)" : "");
	} else if (!hd.ok) {
		hd.err[sizeof(hd.err) - 1] = '\0';
		snprintf(err, errlen, "%s", hd.err);
	} else if (!tr->nr) {
		snprintf(err, errlen, "%s: a trace.dat without sched_switch, sched_waking, "
			 "sched_wakeup(_new), sched_migrate_task, sched_process_fork or "
			 "sched_process_exit events (record them with `trace-cmd record -e sched`)", path);
	} else {
		tr->lost = hd.lost;
		tr->skipped = hd.skipped;
		snprintf(tr->format, sizeof(tr->format), "trace.dat");
		sched_trace_finish(tr);
		ret = 0;
	}
	return ret;
}
