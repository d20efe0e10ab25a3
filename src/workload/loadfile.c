/*
 * loadfile.c - parse dbench load files into request/response sizes.
 *
 * Sizes are those of dbench 4's sockio.c backend (sahlberg/dbench,
 * sockio.c; the Debian 12 dbench 4.0 package): see docs/workloads.md.
 */
#include "loadfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const nb_op_name[NB_NR_OPS] = {
	[NB_NTCREATEX] = "NTCreateX", [NB_CLOSE] = "Close", [NB_RENAME] = "Rename",
	[NB_UNLINK] = "Unlink", [NB_DELTREE] = "Deltree", [NB_RMDIR] = "Rmdir",
	[NB_MKDIR] = "Mkdir", [NB_QPATHINFO] = "QUERY_PATH_INFORMATION",
	[NB_QFILEINFO] = "QUERY_FILE_INFORMATION", [NB_QFSINFO] = "QUERY_FS_INFORMATION",
	[NB_SFILEINFO] = "SET_FILE_INFORMATION", [NB_FINDFIRST] = "FIND_FIRST",
	[NB_WRITEX] = "WriteX", [NB_READX] = "ReadX", [NB_LOCKX] = "LockX",
	[NB_UNLOCKX] = "UnlockX", [NB_FLUSH] = "Flush", [NB_SLEEP] = "Sleep",
};

const char *const nb_op_label[NB_NR_OPS] = {
	[NB_NTCREATEX] = "NTCreateX", [NB_CLOSE] = "Close", [NB_RENAME] = "Rename",
	[NB_UNLINK] = "Unlink", [NB_DELTREE] = "Deltree", [NB_RMDIR] = "Rmdir",
	[NB_MKDIR] = "Mkdir", [NB_QPATHINFO] = "Qpathinfo", [NB_QFILEINFO] = "Qfileinfo",
	[NB_QFSINFO] = "Qfsinfo", [NB_SFILEINFO] = "Sfileinfo", [NB_FINDFIRST] = "Find",
	[NB_WRITEX] = "WriteX", [NB_READX] = "ReadX", [NB_LOCKX] = "LockX",
	[NB_UNLOCKX] = "UnlockX", [NB_FLUSH] = "Flush", [NB_SLEEP] = "Sleep",
};

/* Words of the operation after its name (before the status) it needs. */
static const int nb_min_args[NB_NR_OPS] = {
	[NB_NTCREATEX] = 1, [NB_CLOSE] = 1, [NB_RENAME] = 2, [NB_UNLINK] = 1,
	[NB_DELTREE] = 1, [NB_RMDIR] = 1, [NB_MKDIR] = 1, [NB_QPATHINFO] = 1,
	[NB_QFILEINFO] = 1, [NB_QFSINFO] = 1, [NB_SFILEINFO] = 1, [NB_FINDFIRST] = 4,
	[NB_WRITEX] = 4, [NB_READX] = 4, [NB_LOCKX] = 1, [NB_UNLOCKX] = 1, [NB_FLUSH] = 1,
	[NB_SLEEP] = 1,
};

static struct loadfile *cache[8];

#define MAX_WORDS 16

/* Split line into words; a "quoted word" may hold spaces. */
static int split(char *s, char **w)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (!*s || n == MAX_WORDS)
			return n;
		if (*s == '"') {
			w[n++] = ++s;
			while (*s && *s != '"')
				s++;
		} else {
			w[n++] = s;
			while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
				s++;
		}
		if (!*s)
			return n;
		*s++ = 0;
	}
}

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > UINT32_MAX || *s == '-')
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* UTF-16 bytes of a path as sockio.c sends it. */
static uint32_t u16len(const char *path)
{
	return 2 * (uint32_t)strlen(path);
}

static int parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

/* One operation's words (w[0] the name) into sizes; NULL or the bad field. */
static const char *convert(struct nb_line *l, char **w, int n)
{
	unsigned long long big;
	uint32_t a, b;

	switch (l->op) {
	case NB_NTCREATEX:
		l->req = 74 + u16len(w[1]), l->resp = 87, l->npaths = 1;
		break;
	case NB_CLOSE:
		l->req = 47, l->resp = 39;
		break;
	case NB_RENAME:
		l->req = 47 + u16len(w[1]) + u16len(w[2]), l->resp = 39, l->npaths = 2;
		break;
	case NB_UNLINK:
	case NB_MKDIR:
	case NB_RMDIR:
		l->req = 43 + u16len(w[1]), l->resp = 39, l->npaths = 1;
		break;
	case NB_DELTREE:
		break; /* sockio.c sends nothing for it */
	case NB_FLUSH:
		l->req = 41, l->resp = 39;
		break;
	case NB_QPATHINFO:
		l->req = 55 + u16len(w[1]), l->resp = 71, l->npaths = 1;
		break;
	case NB_QFILEINFO:
	case NB_QFSINFO:
		l->req = 59, l->resp = 71;
		break;
	case NB_SFILEINFO:
		l->req = 71, l->resp = 47;
		break;
	case NB_FINDFIRST:
		/* path, level, maxcnt, count: 90 bytes per returned entry. */
		if (parse_u64(w[2], &big))
			return "level (a number)";
		if (parse_u64(w[3], &big))
			return "maxcnt (a number)";
		if (parse_u32(w[4], &a) || a > 100000)
			return "count (a number in 0..100000)";
		l->req = 59 + u16len(w[1]), l->resp = 39 + 90 * a, l->npaths = 1;
		break;
	case NB_WRITEX:
	case NB_READX:
		/* handle, offset, size, ret_size */
		if (parse_u64(w[1], &big))
			return "handle (a number)";
		if (parse_u64(w[2], &big))
			return "offset (a number)";
		if (parse_u32(w[3], &a) || a > (16u << 20))
			return "size (a number in 0..16777216)";
		if (parse_u32(w[4], &b) || b > (16u << 20))
			return "ret_size (a number in 0..16777216)";
		if (l->op == NB_WRITEX)
			l->req = 59 + a, l->resp = 55, l->payload = a;
		else
			l->req = 59, l->resp = 59 + b, l->payload = b;
		break;
	case NB_LOCKX:
	case NB_UNLOCKX:
		l->req = 51, l->resp = 39;
		break;
	case NB_SLEEP:
		if (parse_u32(w[1], &a))
			return "usecs";
		l->sleep_us = a;
		break;
	}
	(void)n;
	return NULL;
}

static int parse_line(struct nb_line *l, char *buf, const char *path, int lineno, char *err,
		      size_t errlen)
{
	char *w[MAX_WORDS];
	int n = split(buf, w);

	memset(l, 0, sizeof(*l));
	/* An optional timestamp: seconds into the pass (dbench 4). */
	if (n >= 1 && ((w[0][0] >= '0' && w[0][0] <= '9') || w[0][0] == '.')) {
		char *end;
		double t = strtod(w[0], &end);

		if (*end || t < 0 || t > 1e6) {
			snprintf(err, errlen, "%s:%d: timestamp \"%s\" is not a number of seconds",
				 path, lineno, w[0]);
			return -1;
		}
		l->stamp_us = (uint64_t)(t * 1e6 + 0.5);
		l->stamped = 1;
		memmove(w, w + 1, sizeof(w[0]) * (size_t)--n);
	}
	const char *status = w[n - 1];

	if (strncmp(status, "NT_STATUS_", 10) && strncmp(status, "0x", 2)) {
		snprintf(err, errlen, "%s:%d: last field \"%s\" is not a status (NT_STATUS_... or 0x...)",
			 path, lineno, status);
		return -1;
	}
	int op;

	for (op = 0; op < NB_NR_OPS; op++)
		if (!strcmp(w[0], nb_op_name[op]))
			break;
	if (op == NB_NR_OPS) {
		snprintf(err, errlen, "%s:%d: unknown operation \"%s\" (tbench's sockio knows none by "
			 "that name)", path, lineno, w[0]);
		return -1;
	}
	l->op = (uint8_t)op;
	if (n - 2 < nb_min_args[op]) {
		snprintf(err, errlen, "%s:%d: %s needs %d argument%s before the status, has %d", path,
			 lineno, w[0], nb_min_args[op], nb_min_args[op] > 1 ? "s" : "", n - 2);
		return -1;
	}
	const char *bad = convert(l, w, n);

	if (bad) {
		snprintf(err, errlen, "%s:%d: %s: field %s expected", path, lineno, w[0], bad);
		return -1;
	}
	return 0;
}

static struct loadfile *load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct loadfile *lf = calloc(1, sizeof(*lf));
	char buf[4096];
	int cap = 0, lineno = 0;

	if (!f || !lf) {
		snprintf(err, errlen, "%s: %s%s", path, f ? "out of memory" : strerror(errno),
			 !f && !strcmp(path, LOADFILE_DEFAULT)
				 ? " (dbench's load file: apt-get install dbench, or give --loadfile)"
				 : "");
		goto fail;
	}
	while (fgets(buf, sizeof(buf), f)) {
		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno,
				 sizeof(buf) - 2);
			goto fail;
		}
		char copy[sizeof(buf)], *w[MAX_WORDS];

		memcpy(copy, buf, sizeof(buf));
		if (buf[0] == '#' || split(copy, w) < 2)
			continue;
		if (lf->nr_lines == cap) {
			cap = cap ? 2 * cap : 1024;
			struct nb_line *nl = realloc(lf->line, sizeof(*nl) * (size_t)cap);

			if (!nl) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			lf->line = nl;
		}
		if (parse_line(&lf->line[lf->nr_lines], buf, path, lineno, err, errlen))
			goto fail;
		lf->nr_lines++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		goto fail;
	}
	if (!lf->nr_lines) {
		snprintf(err, errlen, "%s: no operations in the load file", path);
		goto fail;
	}
	bool any = false;

	for (int i = 0; i < lf->nr_lines; i++)
		any |= lf->line[i].req || lf->line[i].sleep_us || lf->line[i].stamped;
	if (!any) {
		snprintf(err, errlen, "%s: no operation exchanges a message or sleeps", path);
		goto fail;
	}
	fclose(f);
	lf->path = strdup(path);
	if (!lf->path) {
		snprintf(err, errlen, "out of memory");
		loadfile_put(lf);
		return NULL;
	}
	return lf;
fail:
	if (f)
		fclose(f);
	if (lf)
		free(lf->line);
	free(lf);
	return NULL;
}

static void identity(const struct stat *st, struct loadfile *lf)
{
	lf->dev = (unsigned long long)st->st_dev;
	lf->ino = (unsigned long long)st->st_ino;
	lf->size = (unsigned long long)st->st_size;
	lf->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

struct loadfile *loadfile_get(const char *path, char *err, size_t errlen)
{
	struct loadfile now;
	struct stat st;
	int slot = -1;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 !strcmp(path, LOADFILE_DEFAULT)
				 ? " (dbench's load file: apt-get install dbench, or give --loadfile)"
				 : "");
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return NULL;
	}
	identity(&st, &now);
	for (int i = 0; i < 8; i++) {
		struct loadfile *c = cache[i];

		if (c && !strcmp(c->path, path) && c->dev == now.dev && c->ino == now.ino &&
		    c->size == now.size && c->mtime_ns == now.mtime_ns) {
			c->refs++;
			return c;
		}
		if (!c && slot < 0)
			slot = i;
	}
	struct loadfile *lf = load(path, err, errlen);

	if (!lf)
		return NULL;
	identity(&st, lf);
	lf->refs = 1;
	if (slot >= 0) {
		/* Keep a reference in the cache for the next run of a comparison. */
		cache[slot] = lf;
		lf->refs++;
	}
	return lf;
}

void loadfile_put(struct loadfile *lf)
{
	if (!lf || --lf->refs > 0)
		return;
	for (int i = 0; i < 8; i++)
		if (cache[i] == lf)
			cache[i] = NULL;
	free(lf->path);
	free(lf->line);
	free(lf);
}
