/*
 * sched_trace.c - the recorded trace's container: events, the pid table,
 * the time sort, and the choice of parser by the file's content.
 */
#include "sched_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fdio.h"

static const char *const names[SEV_NR] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exit", "sched_stat_runtime",
};

const char *sev_name(int type)
{
	return type >= 0 && type < SEV_NR ? names[type] : "?";
}

int sched_trace_add(struct sched_trace *tr, const struct sched_event *e)
{
	if (tr->nr == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 4096;
		struct sched_event *n = realloc(tr->ev, cap * sizeof(*n));

		if (!n)
			return -1;
		tr->ev = n;
		tr->cap = cap;
	}
	tr->ev[tr->nr++] = *e;
	return 0;
}

static unsigned int hash_pid(int pid)
{
	return (unsigned int)pid * 2654435761u;
}

static int find_slot(const struct sched_trace *tr, int pid)
{
	unsigned int mask = (unsigned int)tr->nr_slot - 1;

	for (unsigned int h = hash_pid(pid) & mask;; h = (h + 1) & mask) {
		int s = tr->slot[h];

		if (!s || tr->task[s - 1].pid == pid)
			return (int)h;
	}
}

static int grow_slots(struct sched_trace *tr)
{
	int n = tr->nr_slot ? tr->nr_slot * 2 : 256;
	int *old = tr->slot, nold = tr->nr_slot;

	tr->slot = calloc((size_t)n, sizeof(*tr->slot));
	if (!tr->slot) {
		tr->slot = old;
		return -1;
	}
	tr->nr_slot = n;
	for (int i = 0; i < nold; i++)
		if (old[i])
			tr->slot[find_slot(tr, tr->task[old[i] - 1].pid)] = old[i];
	free(old);
	return 0;
}

const struct sched_task *sched_trace_task(const struct sched_trace *tr, int pid)
{
	if (!tr->nr_slot)
		return NULL;
	int s = tr->slot[find_slot(tr, pid)];

	return s ? &tr->task[s - 1] : NULL;
}

int sched_trace_note(struct sched_trace *tr, int pid, const char *comm)
{
	/* Keep the table at most half full: probes stay short. */
	if (2 * (tr->nr_task + 1) > tr->nr_slot && grow_slots(tr))
		return -1;
	int h = find_slot(tr, pid);

	if (!tr->slot[h]) {
		if (tr->nr_task == tr->cap_task) {
			int cap = tr->cap_task ? tr->cap_task * 2 : 64;
			struct sched_task *n = realloc(tr->task, (size_t)cap * sizeof(*n));

			if (!n)
				return -1;
			tr->task = n;
			tr->cap_task = cap;
		}
		tr->task[tr->nr_task] = (struct sched_task){ .pid = pid };
		tr->slot[h] = ++tr->nr_task;
	}
	if (comm && *comm)
		snprintf(tr->task[tr->slot[h] - 1].comm, sizeof(tr->task[0].comm), "%s", comm);
	return 0;
}

/* Equal times keep file order: line numbers (record numbers) increase with it. */
static int by_time(const void *x, const void *y)
{
	const struct sched_event *a = x, *b = y;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

void sched_trace_finish(struct sched_trace *tr)
{
	bool sorted = true;

	for (size_t i = 0; i < tr->nr; i++) {
		if (tr->ev[i].cpu + 1 > tr->nr_cpus)
			tr->nr_cpus = tr->ev[i].cpu + 1;
		if (tr->ev[i].type == SEV_WAKING)
			tr->has_waking = true;
		if (i && by_time(&tr->ev[i - 1], &tr->ev[i]) > 0)
			sorted = false;
	}
	if (!sorted)
		qsort(tr->ev, tr->nr, sizeof(*tr->ev), by_time);
	for (size_t i = 1; i < tr->nr; i++)
		if (tr->ev[i].ts_ns - tr->ev[i - 1].ts_ns > tr->max_gap_ns) {
			tr->max_gap_ns = tr->ev[i].ts_ns - tr->ev[i - 1].ts_ns;
			tr->max_gap_line = tr->ev[i].line;
		}
}

void sched_trace_free(struct sched_trace *tr)
{
	free(tr->ev);
	free(tr->task);
	free(tr->slot);
	memset(tr, 0, sizeof(*tr));
}

/* trace-cmd's file magic (lib/trace-cmd/trace-output.c): 0x17 0x08 'D' "tracing". */
static bool is_dat(const char *buf, size_t len)
{
	return len >= 10 && !memcmp(buf, "\x17\x08\x44tracing", 10);
}

int sched_trace_read(const char *path, struct sched_trace *tr, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO must be refused, not waited on for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int ret = -1;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a trace is read whole: give a file, not "
			 "a pipe or a device)", path);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory for %lld bytes", path, (long long)st.st_size);
		goto out;
	}
	errno = 0;
	if (read_all(fd, buf, (size_t)st.st_size)) {
		snprintf(err, errlen, "%s: %s", path, errno ? strerror(errno) : "shorter than its size");
		goto out;
	}
	len = (size_t)st.st_size;
	buf[len] = '\0';
	if (is_dat(buf, len))
		ret = sched_trace_read_dat(path, tr, err, errlen);
	else
		ret = sched_trace_parse_text(path, buf, len, tr, err, errlen);
out:
	free(buf);
	close(fd);
	if (ret)
		sched_trace_free(tr);
	return ret;
}
