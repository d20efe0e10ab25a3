/*
 * lscpu.c - a machine from `lscpu -p=CPU,CORE,SOCKET,NODE,CACHE`
 * (`--machine lscpu:FILE`).
 *
 * The header comment names the columns ("# CPU,Core,Socket,Node,,L1d,L1i,
 * L2,L3"; older util-linux joins the caches with colons in one column,
 * "L1d:L1i:L2:L3"). Each row gives a CPU its core, socket, node and one id
 * per cache; lscpu gives every distinct item its own id. The last cache
 * listed is the LLC (none: the kernel's fallback, the package); an L2
 * shared by several cores is a cluster, as the kernel's cluster_cpus
 * follow L2 sharing on x86. No distances in lscpu: 10 local, 20 remote.
 * Capacities are 1024.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "machine.h"
#include "util/textfile.h"

#define MAX_COLS 16

struct cols {
	int n;
	char name[MAX_COLS][16];
	int cpu, core, socket, node;	/* column index, -1 absent */
	int l2, llc;			/* cache positions (see field()) */
	int caches;			/* column of colon-joined caches, -1 if separate */
	int ncaches;
};

/* Split s at sep into at most max fields (in place). */
static int split(char *s, char sep, char **f, int max)
{
	int n = 0;

	f[n++] = s;
	for (char *p = s; *p; p++)
		if (*p == sep) {
			*p = '\0';
			if (n == max)
				return max + 1;
			f[n++] = p + 1;
		}
	return n;
}

static int parse_header(char *line, struct cols *c)
{
	char *f[MAX_COLS + 1];
	int n = split(line, ',', f, MAX_COLS);

	if (n > MAX_COLS)
		return -1;
	*c = (struct cols){ .n = n, .cpu = -1, .core = -1, .socket = -1, .node = -1, .l2 = -1,
			    .llc = -1, .caches = -1 };

	for (int i = 0; i < n; i++) {
		snprintf(c->name[i], sizeof(c->name[i]), "%s", f[i]);
		if (!strcasecmp(f[i], "CPU"))
			c->cpu = i;
		else if (!strcasecmp(f[i], "Core"))
			c->core = i;
		else if (!strcasecmp(f[i], "Socket"))
			c->socket = i;
		else if (!strcasecmp(f[i], "Node"))
			c->node = i;
		else if (strchr(f[i], ':')) {
			char *g[MAX_COLS + 1];
			int m = split(f[i], ':', g, MAX_COLS);

			c->caches = i;
			for (int k = 0; k < m && k < MAX_COLS; k++) {
				if (!strcasecmp(g[k], "L2"))
					c->l2 = k;
				c->llc = k;
			}
			c->ncaches = m;
		} else if (f[i][0] == 'L') {
			if (!strcasecmp(f[i], "L2"))
				c->l2 = i;
			c->llc = i;
		}
	}
	return c->cpu < 0 || c->core < 0 || c->socket < 0 ? -1 : 0;
}

/* A non-negative id; -2 for an empty field (allowed where said), -3 out of range. */
static int id(const char *s, bool empty_ok)
{
	char *end;
	long long v;

	if (!*s)
		return empty_ok ? -2 : -1;
	v = strtoll(s, &end, 10);
	if (end == s || *end || (*s < '0' || *s > '9'))
		return -1;
	return v > 1000000 ? -3 : (int)v;
}

int machine_read_lscpu(const char *file, struct machine *m, char *err, size_t errlen)
{
	struct topology *t = &m->topo;
	char *text = NULL;
	size_t len;
	struct cols c = { .n = 0 };
	int lineno = 0, ret = -1, max_cpu = -1, nr_no_llc = 0;
	bool seen[WS_MAX_CPUS] = { false };
	int l2_of[WS_MAX_CPUS], line_of[WS_MAX_CPUS];

	if (!file[0]) {
		snprintf(err, errlen, "lscpu: needs a file (lscpu:FILE, the output of lscpu -p=CPU,CORE,"
			 "SOCKET,NODE,CACHE)");
		return -1;
	}
	if (text_file_read(file, "lscpu file", &text, &len, err, errlen))
		return -1;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		/* Files from Windows editors: CRLF line ends, a UTF-8 byte-order mark. */
		size_t ll = strlen(line);

		if (ll && line[ll - 1] == '\r')
			line[ll - 1] = '\0';
		if (lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3))
			line += 3;
		if (line[0] == '#') {
			char *h = line + 1;

			while (*h == ' ')
				h++;
			if (!strncasecmp(h, "CPU,", 4) && parse_header(h, &c)) {
				snprintf(err, errlen, "%s:%d: header: expected columns CPU, Core and "
					 "Socket (lscpu -p=CPU,CORE,SOCKET,NODE,CACHE)", file, lineno);
				goto out;
			}
			continue;
		}
		if (!line[0])
			continue;
		if (!c.n) {
			snprintf(err, errlen, "%s:%d: a row before the header line \"# CPU,Core,Socket,"
				 "...\" (lscpu -p=CPU,CORE,SOCKET,NODE,CACHE)", file, lineno);
			goto out;
		}
		char *f[MAX_COLS + 1];
		int n = split(line, ',', f, MAX_COLS);

		if (n != c.n) {
			snprintf(err, errlen, "%s:%d: %d fields, the header names %d", file, lineno,
				 n > MAX_COLS ? MAX_COLS + 1 : n, c.n);
			goto out;
		}
		int cpu = id(f[c.cpu], false), core = id(f[c.core], false);
		int sock = id(f[c.socket], false), node = c.node >= 0 ? id(f[c.node], true) : -2;
		int l2 = -2, llc = -2;
		if (cpu == -3 || core == -3 || sock == -3 || node == -3) {
			snprintf(err, errlen, "%s:%d: field %s: out of range (ids up to 1000000)", file,
				 lineno, cpu == -3 ? "CPU" : core == -3 ? "Core" : sock == -3 ? "Socket"
										: "Node");
			goto out;
		}
		const char *bad = cpu < 0 ? "CPU" : core < 0 ? "Core" : sock < 0 ? "Socket"
				  : node == -1 ? "Node" : NULL;

		if (c.caches >= 0) {
			char *g[MAX_COLS + 1];
			int m2 = split(f[c.caches], ':', g, MAX_COLS);

			if (m2 != c.ncaches && f[c.caches][0])
				bad = "cache";
			else if (f[c.caches][0]) {
				l2 = c.l2 >= 0 ? id(g[c.l2], true) : -2;
				llc = c.llc >= 0 ? id(g[c.llc], true) : -2;
			}
		} else {
			l2 = c.l2 >= 0 ? id(f[c.l2], true) : -2;
			llc = c.llc >= 0 ? id(f[c.llc], true) : -2;
		}
		if (!bad && (l2 == -1 || llc == -1 || l2 == -3 || llc == -3))
			bad = "cache";
		if (bad) {
			snprintf(err, errlen, "%s:%d: field %s: expected a number (an id >= 0)", file,
				 lineno, bad);
			goto out;
		}
		if (cpu >= WS_MAX_CPUS) {
			snprintf(err, errlen, "%s:%d: field CPU: %d; wakesim takes CPUs 0..%d", file,
				 lineno, cpu, WS_MAX_CPUS - 1);
			goto out;
		}
		if (seen[cpu]) {
			snprintf(err, errlen, "%s:%d: field CPU: CPU %d listed twice", file, lineno, cpu);
			goto out;
		}
		if (node >= WS_MAX_NODES) {
			snprintf(err, errlen, "%s:%d: field Node: %d; wakesim takes nodes 0..%d", file,
				 lineno, node, WS_MAX_NODES - 1);
			goto out;
		}
		seen[cpu] = true;
		line_of[cpu] = lineno;
		if (cpu > max_cpu)
			max_cpu = cpu;
		struct cpu_topo *ct = &t->cpu[cpu];

		ct->core = core;
		ct->package = sock;
		ct->node = node < 0 ? 0 : node;
		/* Keys apart from the core ids: an L2 id can equal a core id. */
		ct->llc = llc < 0 ? -1 - sock : llc;
		nr_no_llc += llc < 0;
		ct->capacity = SCHED_CAPACITY_SCALE;
		l2_of[cpu] = l2;
	}
	if (max_cpu < 0) {
		snprintf(err, errlen, "%s: no CPU rows (lscpu -p=CPU,CORE,SOCKET,NODE,CACHE)", file);
		goto out;
	}
	for (int cpu = 0; cpu <= max_cpu; cpu++)
		if (!seen[cpu]) {
			snprintf(err, errlen, "%s: CPU %d is missing; wakesim needs CPUs 0..%d", file, cpu,
				 max_cpu);
			goto out;
		}
	t->nr_cpus = max_cpu + 1;
	if (nr_no_llc)
		snprintf(m->assumed[ASSUMED_LLC], sizeof(m->assumed[ASSUMED_LLC]),
			 "LLC = package (no cache ids in %s for %d of %d CPUs)", file, nr_no_llc,
			 t->nr_cpus);
	/* A cluster is an L2 shared by more than one core. */
	for (int a = 0; a < t->nr_cpus; a++) {
		bool shared = false;

		for (int b = 0; b < t->nr_cpus && l2_of[a] >= 0; b++)
			shared |= l2_of[b] == l2_of[a] && t->cpu[b].core != t->cpu[a].core;
		t->cpu[a].cluster = shared ? 1000000 + l2_of[a] : t->cpu[a].core;
	}
	int nodes = 0;

	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		if (t->cpu[cpu].node + 1 > nodes)
			nodes = t->cpu[cpu].node + 1;
	t->nr_nodes = nodes;
	for (int a = 0; a < nodes; a++)
		for (int b = 0; b < nodes; b++)
			t->distance[a][b] = a == b ? 10 : 20;
	/*
	 * The machine's own checks (nesting of cores, caches, packages and
	 * nodes) run later on every source; run them here on a copy so that a
	 * failure names the line of the first CPU it names.
	 */
	struct topology *copy = malloc(sizeof(*copy));
	char why[400];

	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", file);
		goto out;
	}
	*copy = *t;
	if (topology_finalize(copy, why, sizeof(why))) {
		const char *p = strstr(why, "CPU");
		int cpu = -1;

		while (p && sscanf(p, "CPU %d", &cpu) != 1 && sscanf(p, "CPUs %d", &cpu) != 1)
			p = strstr(p + 3, "CPU");
		if (cpu >= 0 && cpu < t->nr_cpus)
			snprintf(err, errlen, "%s:%d: %s", file, line_of[cpu], why);
		else
			snprintf(err, errlen, "%s: %s", file, why);
		free(copy);
		goto out;
	}
	free(copy);
	snprintf(m->description, sizeof(m->description), "read from %s (lscpu -p)", file);
	ret = 0;
out:
	free(text);
	return ret;
}
