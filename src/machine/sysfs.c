/*
 * sysfs.c - read a machine's topology from a Linux sysfs tree: this host's
 * /sys, or a copy of another machine's (as hwloc-gather-topology makes).
 *
 * Reads, per CPU, devices/system/cpu/cpuN/topology/{core_cpus_list or
 * thread_siblings_list, cluster_cpus_list, physical_package_id}, the
 * highest-level data/unified cache's shared_cpu_list, cpu_capacity; cpu0's
 * level-2 and highest-level data/unified cache sizes; and per
 * node devices/system/node/nodeN/{cpulist,distance}; idle states from
 * cpu0/cpuidle/stateN/{name,latency,residency}. Grouping keys are the lowest
 * CPU of each sysfs mask, and every CPU of a mask must report the same mask,
 * so ids never depend on firmware numbering and contradictions are caught.
 * Limits: every CPU 0..N-1 must be online; nodes must be numbered densely;
 * NUMA distances must be symmetric.
 */
#include "machine.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/textfile.h"

#define SYSFS_MAX_FILE 65536

/* The three groupings that come from CPU lists, checked for consistency. */
enum { MASK_CORE, MASK_CLUSTER, MASK_LLC, MASK_NR };

struct sysfs {
	char root[1024];	/* directory holding devices/system */
	char *err;
	size_t errlen;
	int nr_cpus;
	struct cpumask *mask[MASK_NR];	/* [nr_cpus] each */
	char mask_file[MASK_NR][WS_MAX_CPUS][80]; /* which file gave each mask */
	int nr_no_llc;		/* CPUs with no cache information */
};

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int fail(struct sysfs *s, const char *rel, const char *what)
{
	snprintf(s->err, s->errlen, "%s/%s:1: %s", s->root, rel, what);
	return -1;
}

/*
 * Read rel into buf. Returns 0; 1 if it does not exist and is optional;
 * -1 with the reason (missing, not a regular file, unreadable, too large).
 */
static int read_file(struct sysfs *s, const char *rel, bool required, char *buf, size_t len)
{
	char path[1400];
	struct stat st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", s->root, rel);
	if (stat(path, &st)) {
		if (errno == ENOENT && !required)
			return 1;
		if (errno == ENOENT)
			return fail(s, rel, "missing (needed to build the topology)");
		return fail(s, rel, strerror(errno));
	}
	/* A FIFO or device would block or lie: sysfs attributes are files. */
	if (!S_ISREG(st.st_mode))
		return fail(s, rel, "not a regular file");
	f = fopen(path, "rb");
	if (!f)
		return fail(s, rel, strerror(errno));
	n = fread(buf, 1, len, f);
	fclose(f);
	if (n == len)
		return fail(s, rel, "too large for a sysfs attribute");
	buf[n] = '\0';
	return 0;
}

/* Read rel as a cpulist of existing CPUs; absent and optional gives 1. */
static int read_mask(struct sysfs *s, const char *rel, bool required, struct cpumask *m)
{
	static char buf[SYSFS_MAX_FILE];
	char why[160];
	int r = read_file(s, rel, required, buf, sizeof(buf));

	if (r)
		return r;
	if (cpulist_parse(buf, m, why, sizeof(why))) {
		char what[200];

		snprintf(what, sizeof(what), "not a CPU list: %s", why);
		return fail(s, rel, what);
	}
	if (s->nr_cpus) {
		for (int w = 0; w < CPUMASK_WORDS; w++)
			for (int b = 0; b < 64; b++)
				if (((m->bits[w] >> b) & 1) && w * 64 + b >= s->nr_cpus) {
					char what[96];

					snprintf(what, sizeof(what),
						 "names CPU %d, but only CPUs 0-%d are online",
						 w * 64 + b, s->nr_cpus - 1);
					return fail(s, rel, what);
				}
	}
	return 0;
}

/* Read rel as one integer in [min, max]; absent and optional gives 1. */
static int read_long(struct sysfs *s, const char *rel, bool required, long min, long max,
		     long *out)
{
	char buf[256], *end, what[96];
	int r = read_file(s, rel, required, buf, sizeof(buf));

	if (r)
		return r;
	errno = 0;
	*out = strtol(buf, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (end == buf || *end != '\0' || errno)
		return fail(s, rel, "expected one integer");
	if (*out < min || *out > max) {
		snprintf(what, sizeof(what), "%ld is outside %ld..%ld", *out, min, max);
		return fail(s, rel, what);
	}
	return 0;
}

/* A grouping mask of cpu: it must contain cpu; remember it for the checks. */
static int group_mask(struct sysfs *s, int kind, const char *rel, int cpu, bool required)
{
	struct cpumask *m = &s->mask[kind][cpu];
	int r = read_mask(s, rel, required, m);

	if (r)
		return r;
	if (!cpumask_test_cpu(cpu, m)) {
		char what[96];

		snprintf(what, sizeof(what), "does not contain CPU %d itself", cpu);
		return fail(s, rel, what);
	}
	snprintf(s->mask_file[kind][cpu], sizeof(s->mask_file[kind][cpu]), "%s", rel);
	return 0;
}

/*
 * cpuN/cache/indexIDX: 1 when there is no such index, 2 when it is not a
 * data or unified cache, else 0 with its level; -1 on a bad file.
 */
static int cache_index(struct sysfs *s, int cpu, int idx, long *level)
{
	char rel[256], type[64];
	int r;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
	r = read_file(s, rel, false, type, sizeof(type));
	if (r)
		return r;
	if (strncmp(type, "Unified", 7) && strncmp(type, "Data", 4))
		return 2;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
	return read_long(s, rel, true, 1, 9, level);
}

/* The highest-level data or unified cache's shared_cpu_list; 1 if none. */
static int llc_mask(struct sysfs *s, int cpu)
{
	int best_level = -1;

	for (int idx = 0; idx < 16; idx++) {
		char rel[256];
		long level;
		int r = cache_index(s, cpu, idx, &level);

		if (r < 0)
			return -1;
		if (r == 1)
			break;
		if (r == 2 || level <= best_level)
			continue;
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		if (group_mask(s, MASK_LLC, rel, cpu, true))
			return -1;
		best_level = (int)level;
	}
	return best_level < 0 ? 1 : 0;
}

/* A cache index's size, "<KiB>K" as cacheinfo's size attribute prints it; absent gives 1. */
static int read_cache_size(struct sysfs *s, const char *rel, u64 *bytes)
{
	char buf[64], *end;
	unsigned long long kib;
	int r = read_file(s, rel, false, buf, sizeof(buf));

	if (r)
		return r;
	errno = 0;
	kib = strtoull(buf, &end, 10);
	if (end == buf || errno || *end != 'K' || (end[1] && strcmp(end + 1, "\n")) || !kib ||
	    kib > (1ULL << 30))
		return fail(s, rel, "expected a size in KiB such as 1024K");
	*bytes = (u64)kib * 1024;
	return 0;
}

/*
 * cpu0's private L2 and last-level cache sizes (m->l2_bytes, m->llc_bytes):
 * the level-2 and the highest-level data or unified caches. Left 0 when the
 * tree has none, as a guest without cacheinfo shows.
 */
static int cache_sizes(struct sysfs *s, struct machine *m)
{
	long best_level = -1;

	for (int idx = 0; idx < 16; idx++) {
		char rel[256];
		long level;
		u64 bytes = 0;
		int r = cache_index(s, 0, idx, &level);

		if (r < 0)
			return -1;
		if (r == 1)
			break;
		if (r == 2)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cache/index%d/size", idx);
		r = read_cache_size(s, rel, &bytes);
		if (r < 0)
			return -1;
		if (r == 1)
			continue;
		if (level == 2)
			m->l2_bytes = bytes;
		if (level > best_level) {
			m->llc_bytes = bytes;
			best_level = level;
		}
	}
	return 0;
}

/* Every CPU of a sysfs mask must report that same mask. */
static int check_masks(struct sysfs *s, int kind)
{
	char a[256], b[256], what[700];

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		int d;

		if (!s->mask_file[kind][cpu][0])
			continue;
		for_each_cpu(d, &s->mask[kind][cpu]) {
			if (!s->mask_file[kind][d][0] ||
			    cpumask_equal(&s->mask[kind][d], &s->mask[kind][cpu]))
				continue;
			snprintf(what, sizeof(what), "says %s, but %s says %s",
				 cpumask_print_list(&s->mask[kind][cpu], a, sizeof(a)),
				 s->mask_file[kind][d],
				 cpumask_print_list(&s->mask[kind][d], b, sizeof(b)));
			return fail(s, s->mask_file[kind][cpu], what);
		}
	}
	return 0;
}

static int read_nodes(struct sysfs *s, struct topology *t)
{
	static char buf[SYSFS_MAX_FILE];
	char rel[256], path[1400];
	int nodes = 0, nr_cpus = s->nr_cpus;

	snprintf(path, sizeof(path), "%s/devices/system/node", s->root);
	if (!is_dir(path)) {
		/* No NUMA information: one node, as a !CONFIG_NUMA kernel has. */
		t->nr_nodes = 1;
		t->distance[0][0] = 10;
		for (int cpu = 0; cpu < nr_cpus; cpu++)
			t->cpu[cpu].node = 0;
		return 0;
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		t->cpu[cpu].node = -1;
	for (;;) {
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d", s->root, nodes);
		if (!is_dir(path))
			break;
		if (nodes == WS_MAX_NODES)
			return fail(s, "devices/system/node", "more than 64 NUMA nodes");
		nodes++;
	}
	if (nodes == 0)
		return fail(s, "devices/system/node", "no node0 directory");
	t->nr_nodes = nodes;
	for (int n = 0; n < nodes; n++) {
		struct cpumask m;
		char *p;
		int cpu;

		snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", n);
		if (read_mask(s, rel, true, &m))
			return -1;
		for_each_cpu(cpu, &m) {
			if (t->cpu[cpu].node >= 0)
				return fail(s, rel, "names a CPU already on another node");
			t->cpu[cpu].node = n;
		}
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", n);
		if (read_file(s, rel, true, buf, sizeof(buf)))
			return -1;
		p = buf;
		for (int j = 0; j < nodes; j++) {
			char *end, what[128];
			long d;

			while (*p == ' ' || *p == '\t')
				p++;
			errno = 0;
			d = strtol(p, &end, 10);
			if (end == p || errno || (*end && *end != ' ' && *end != '\n' && *end != '\t')) {
				snprintf(what, sizeof(what), "distance %d of %d is not a number", j + 1,
					 nodes);
				return fail(s, rel, what);
			}
			if ((j == n && d != 10) || (j != n && (d <= 10 || d > 255))) {
				snprintf(what, sizeof(what),
					 "distance to node %d is %ld (local must be 10, remote 11..255)",
					 j, d);
				return fail(s, rel, what);
			}
			t->distance[n][j] = (int)d;
			p = end;
		}
		while (*p == ' ' || *p == '\n')
			p++;
		if (*p) {
			char what[96];

			snprintf(what, sizeof(what), "more than %d distances", nodes);
			return fail(s, rel, what);
		}
	}
	for (int i = 0; i < nodes; i++)
		for (int j = 0; j < i; j++)
			if (t->distance[i][j] != t->distance[j][i]) {
				char what[128];

				snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", i);
				snprintf(what, sizeof(what),
					 "not symmetric: %d -> %d is %d but %d -> %d is %d", i, j,
					 t->distance[i][j], j, i, t->distance[j][i]);
				return fail(s, rel, what);
			}
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (t->cpu[cpu].node < 0) {
			char what[96];

			snprintf(what, sizeof(what), "CPU %d is on no node's cpulist", cpu);
			return fail(s, "devices/system/node", what);
		}
	return 0;
}

/*
 * No cpuidle states (no driver, or "none"): cpuidle_idle_call() finds
 * cpuidle_not_available() and calls default_idle_call(), which halts in
 * arch_cpu_idle() (x86 HLT, arm64 WFI) until an interrupt
 * (kernel/sched/idle.c, v6.12). One non-polling state models that halt,
 * with the exit latency of the defaults' shallowest halt-like state.
 */
static int no_idle_states(struct sysfs *s, struct machine *m)
{
	char drv[64] = "";
	const struct idle_state *c1 = NULL;
	struct idle_state halt = { .name = "halt", .exit_latency_ns = 1000,
				   .target_residency_ns = 1000 };

	if (read_file(s, "devices/system/cpu/cpuidle/current_driver", false, drv, sizeof(drv)) < 0)
		return -1;
	drv[strcspn(drv, "\n")] = '\0';
	for (int i = 0; i < m->nr_idle_states && !c1; i++)
		if (!m->idle[i].polling)
			c1 = &m->idle[i];
	if (c1) {
		halt.exit_latency_ns = c1->exit_latency_ns;
		halt.target_residency_ns = c1->target_residency_ns;
	}
	snprintf(m->assumed[ASSUMED_IDLE], sizeof(m->assumed[ASSUMED_IDLE]),
		 "one idle state \"halt\" (default_idle_call()), exit %g us as %s of "
		 "costs/default.json: no cpuidle states in %s (driver %s)",
		 (double)halt.exit_latency_ns / 1000, c1 ? c1->name : "C1", s->root,
		 drv[0] ? drv : "absent");
	m->idle[0] = halt;
	m->nr_idle_states = 1;
	return 0;
}

/* cpu0's cpuidle states replace the defaults when the tree has them. */
static int read_idle_states(struct sysfs *s, struct machine *m)
{
	struct idle_state st[WS_MAX_IDLE_STATES];
	int n = 0;

	memset(st, 0, sizeof(st)); /* no host halt-polling known from /sys */
	for (;; n++) {
		char rel[256], name[64];
		long lat, res;
		int r;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/name", n);
		r = read_file(s, rel, false, name, sizeof(name));
		if (r < 0)
			return -1;
		if (r == 1)
			break;
		if (n == WS_MAX_IDLE_STATES)
			return fail(s, rel, "more idle states than wakesim models (16)");
		name[strcspn(name, "\n")] = '\0';
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/latency", n);
		if (read_long(s, rel, true, 0, 100000, &lat))
			return -1;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/residency", n);
		if (read_long(s, rel, true, 0, 10000000, &res))
			return -1;
		snprintf(st[n].name, sizeof(st[n].name), "%.15s", name);
		st[n].exit_latency_ns = (u64)lat * 1000;
		st[n].target_residency_ns = (u64)res * 1000;
		/* The kernel's poll_idle state is the only one that polls for sure. */
		st[n].polling = !strcmp(name, "POLL");
		if (n > 0 && st[n].exit_latency_ns < st[n - 1].exit_latency_ns)
			return fail(s, rel, "idle states must go from shallowest to deepest");
		/*
		 * intel_idle's descriptions read "MWAIT 0x20", acpi_idle's "ACPI
		 * FFH MWAIT 0x1" (its I/O-port and HLT states do not); an MWAIT
		 * state keeps TIF_POLLING_NRFLAG (mwait_idle_with_hints()).
		 */
		char desc[64];

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/desc", n);
		r = read_file(s, rel, false, desc, sizeof(desc));
		if (r < 0)
			return -1;
		st[n].mwait = r == 0 && !st[n].polling && strstr(desc, "MWAIT");
	}
	if (n > 0) {
		memcpy(m->idle, st, sizeof(st[0]) * (size_t)n);
		m->nr_idle_states = n;
		return 0;
	}
	return no_idle_states(s, m);
}

static int read_cpus(struct sysfs *s, struct topology *t)
{
	char rel[256];

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct cpu_topo *c = &t->cpu[cpu];
		long pkg, cap;
		int r;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		r = group_mask(s, MASK_CORE, rel, cpu, false);
		if (r == 1) {
			snprintf(rel, sizeof(rel),
				 "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
			r = group_mask(s, MASK_CORE, rel, cpu, true);
		}
		if (r)
			return -1;
		c->core = cpumask_first(&s->mask[MASK_CORE][cpu]);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/cluster_cpus_list", cpu);
		r = group_mask(s, MASK_CLUSTER, rel, cpu, false);
		if (r < 0)
			return -1;
		c->cluster = r == 1 ? c->core : cpumask_first(&s->mask[MASK_CLUSTER][cpu]);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		if (read_long(s, rel, true, -1, 0x7fffffff, &pkg))
			return -1;
		c->package = (int)pkg;
		r = llc_mask(s, cpu);
		if (r < 0)
			return -1;
		/* No cache information: the kernel falls back to the package. */
		c->llc = r == 1 ? -1 - c->package : cpumask_first(&s->mask[MASK_LLC][cpu]);
		s->nr_no_llc += r == 1;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpu_capacity", cpu);
		r = read_long(s, rel, false, 1, SCHED_CAPACITY_SCALE, &cap);
		if (r < 0)
			return -1;
		c->capacity = r == 1 ? SCHED_CAPACITY_SCALE : (unsigned)cap;
	}
	for (int k = 0; k < MASK_NR; k++)
		if (check_masks(s, k))
			return -1;
	return 0;
}

/*
 * The CPUs' vendor and family from the proc/cpuinfo beside a tree whose
 * directory is named sys (/sys itself, or DUMP/sys from
 * hwloc-gather-topology): none, and no error, when there is none.
 */
static int read_cpuinfo(struct sysfs *s, struct machine *m)
{
	size_t n = strlen(s->root);
	char path[1400];
	char *text = NULL;
	size_t len;
	struct stat st;
	int ret;

	while (n > 1 && s->root[n - 1] == '/')
		n--;
	if (!(n >= 3 && !strncmp(s->root + n - 3, "sys", 3) && (n == 3 || s->root[n - 4] == '/')))
		return 0;
	snprintf(path, sizeof(path), "%.*sproc/cpuinfo", (int)(n - 3), s->root);
	if (stat(path, &st))
		return 0;
	if (text_file_read(path, "cpuinfo", &text, &len, s->err, s->errlen))
		return -1;
	ret = machine_parse_cpuinfo(text, path, m, s->err, s->errlen);
	free(text);
	return ret;
}

int machine_read_sysfs(const char *dir, struct machine *m, char *err, size_t errlen)
{
	struct sysfs *s = calloc(1, sizeof(*s));
	struct topology *t = &m->topo;
	char path[1400];
	struct cpumask online;
	int nr, cpu, r, ret = -1;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->err = err;
	s->errlen = errlen;
	if (!dir[0]) {
		snprintf(err, errlen, "sysfs: needs a directory (sysfs:DIR)");
		goto out;
	}
	snprintf(s->root, sizeof(s->root), "%s", dir);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", s->root);
	if (!is_dir(path)) {
		snprintf(s->root, sizeof(s->root), "%s/sys", dir);
		snprintf(path, sizeof(path), "%s/devices/system/cpu", s->root);
		if (!is_dir(path)) {
			snprintf(err, errlen,
				 "%s: no devices/system/cpu (expected a copy of /sys, or a "
				 "directory holding sys/)", dir);
			goto out;
		}
	}
	/* cpumask helpers need nr_cpu_ids; use the widest until we know. */
	nr_cpu_ids = WS_MAX_CPUS;
	r = read_mask(s, "devices/system/cpu/online", false, &online);
	if (r < 0)
		goto out;
	if (r == 1) {
		cpumask_clear(&online);
		for (cpu = 0; cpu < WS_MAX_CPUS; cpu++) {
			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", s->root, cpu);
			if (!is_dir(path))
				break;
			cpumask_set_cpu(cpu, &online);
		}
	}
	nr = cpumask_weight(&online);
	if (nr == 0) {
		fail(s, "devices/system/cpu/online", "no CPU is online");
		goto out;
	}
	for (cpu = 0; cpu < nr; cpu++)
		if (!cpumask_test_cpu(cpu, &online)) {
			fail(s, "devices/system/cpu/online",
			     "CPUs are missing below the highest online one; wakesim needs CPUs "
			     "0..N-1 online");
			goto out;
		}
	s->nr_cpus = t->nr_cpus = nr;
	for (int k = 0; k < MASK_NR; k++) {
		s->mask[k] = calloc((size_t)nr, sizeof(struct cpumask));
		if (!s->mask[k]) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	if (read_cpus(s, t) || read_nodes(s, t) || read_idle_states(s, m) || cache_sizes(s, m))
		goto out;
	if (s->nr_no_llc)
		snprintf(m->assumed[ASSUMED_LLC], sizeof(m->assumed[ASSUMED_LLC]),
			 "LLC = package (no cache info in %s/devices/system/cpu/cpu*/cache "
			 "for %d of %d CPUs)", s->root, s->nr_no_llc, nr);
	if (read_cpuinfo(s, m))
		goto out;
	snprintf(m->description, sizeof(m->description), "read from %s", s->root);
	ret = 0;
out:
	for (int k = 0; k < MASK_NR; k++)
		free(s->mask[k]);
	free(s);
	return ret;
}
