/*
 * sysfs.c - read a machine's topology from a Linux sysfs tree: this host's
 * /sys, or a copy of another machine's (as hwloc-gather-topology makes).
 *
 * Reads, per CPU, devices/system/cpu/cpuN/topology/{core_cpus_list or
 * thread_siblings_list, cluster_cpus_list, physical_package_id}, the
 * highest-level data/unified cache's shared_cpu_list, cpu_capacity, and per
 * node devices/system/node/nodeN/{cpulist,distance}; idle states from
 * cpu0/cpuidle/stateN/{name,latency,residency}. Grouping keys are the lowest
 * CPU of each sysfs mask, so ids never depend on firmware numbering.
 * Limits: every CPU 0..N-1 must be online; nodes must be numbered densely.
 */
#include "machine.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SYSFS_MAX_FILE 16384

struct sysfs {
	char root[1024];	/* directory holding devices/system */
	char *err;
	size_t errlen;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read a small file; returns its length, or -1 if absent/unreadable. */
static long read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

static int fail(struct sysfs *s, const char *rel, const char *what)
{
	snprintf(s->err, s->errlen, "%s/%s:1: %s", s->root, rel, what);
	return -1;
}

/* Read rel as a cpulist; absent and !required gives 1 (caller's default). */
static int read_mask(struct sysfs *s, const char *rel, bool required, struct cpumask *m)
{
	char path[1400], buf[SYSFS_MAX_FILE], why[160];

	snprintf(path, sizeof(path), "%s/%s", s->root, rel);
	if (read_small(path, buf, sizeof(buf)) < 0) {
		if (!required)
			return 1;
		return fail(s, rel, "missing (needed to build the topology)");
	}
	if (cpulist_parse(buf, m, why, sizeof(why))) {
		char what[200];

		snprintf(what, sizeof(what), "not a CPU list: %s", why);
		return fail(s, rel, what);
	}
	return 0;
}

/* Read rel as one integer; absent and !required gives 1. */
static int read_long(struct sysfs *s, const char *rel, bool required, long *out)
{
	char path[1400], buf[256], *end;

	snprintf(path, sizeof(path), "%s/%s", s->root, rel);
	if (read_small(path, buf, sizeof(buf)) < 0) {
		if (!required)
			return 1;
		return fail(s, rel, "missing (needed to build the topology)");
	}
	errno = 0;
	*out = strtol(buf, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (end == buf || *end != '\0' || errno)
		return fail(s, rel, "expected one integer");
	return 0;
}

/* Lowest CPU of the mask named rel, checking it contains cpu. */
static int mask_key(struct sysfs *s, const char *rel, int cpu, bool required, int *key)
{
	struct cpumask m;
	int r = read_mask(s, rel, required, &m);

	if (r)
		return r;
	if (!cpumask_test_cpu(cpu, &m)) {
		char what[96];

		snprintf(what, sizeof(what), "does not contain CPU %d itself", cpu);
		return fail(s, rel, what);
	}
	*key = cpumask_first(&m);
	return 0;
}

/* shared_cpu_list of the highest-level data or unified cache, 1 if none. */
static int llc_key(struct sysfs *s, int cpu, int *key)
{
	int best_level = -1;

	for (int idx = 0; idx < 16; idx++) {
		char rel[256], path[1400], type[64];
		long level;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
		snprintf(path, sizeof(path), "%s/%s", s->root, rel);
		if (read_small(path, type, sizeof(type)) < 0)
			break;
		if (strncmp(type, "Unified", 7) && strncmp(type, "Data", 4))
			continue;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
		if (read_long(s, rel, true, &level))
			return -1;
		if (level <= best_level)
			continue;
		snprintf(rel, sizeof(rel),
			 "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		if (mask_key(s, rel, cpu, true, key))
			return -1;
		best_level = (int)level;
	}
	return best_level < 0 ? 1 : 0;
}

static int read_nodes(struct sysfs *s, struct topology *t, int nr_cpus)
{
	char rel[256], path[1400];
	int nodes = 0;

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
			return fail(s, "devices/system/node", "too many NUMA nodes");
		nodes++;
	}
	if (nodes == 0)
		return fail(s, "devices/system/node", "no node0 directory");
	t->nr_nodes = nodes;
	for (int n = 0; n < nodes; n++) {
		struct cpumask m;
		char buf[SYSFS_MAX_FILE], *p;
		int cpu;

		snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", n);
		if (read_mask(s, rel, true, &m))
			return -1;
		for_each_cpu(cpu, &m) {
			if (cpu >= nr_cpus)
				return fail(s, rel, "names a CPU that is not online");
			if (t->cpu[cpu].node >= 0)
				return fail(s, rel, "names a CPU already on another node");
			t->cpu[cpu].node = n;
		}
		snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", n);
		snprintf(path, sizeof(path), "%s/%s", s->root, rel);
		if (read_small(path, buf, sizeof(buf)) < 0)
			return fail(s, rel, "missing (needed for NUMA distances)");
		p = buf;
		for (int j = 0; j < nodes; j++) {
			char *end;
			long d = strtol(p, &end, 10);

			if (end == p) {
				char what[96];

				snprintf(what, sizeof(what), "expected %d distances, found %d",
					 nodes, j);
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
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (t->cpu[cpu].node < 0) {
			char what[96];

			snprintf(what, sizeof(what), "CPU %d is on no node's cpulist", cpu);
			return fail(s, "devices/system/node", what);
		}
	return 0;
}

/* cpu0's cpuidle states replace the defaults when the tree has them. */
static int read_idle_states(struct sysfs *s, struct machine *m)
{
	struct idle_state st[WS_MAX_IDLE_STATES];
	int n = 0;

	for (; n < WS_MAX_IDLE_STATES; n++) {
		char rel[256], path[1400], name[64];
		long lat, res;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/name", n);
		snprintf(path, sizeof(path), "%s/%s", s->root, rel);
		if (read_small(path, name, sizeof(name)) < 0)
			break;
		name[strcspn(name, "\n")] = '\0';
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/latency", n);
		if (read_long(s, rel, true, &lat))
			return -1;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%d/residency", n);
		if (read_long(s, rel, true, &res))
			return -1;
		if (lat < 0 || res < 0 || lat > 100000 || res > 10000000)
			return fail(s, rel, "latency/residency out of range (us)");
		snprintf(st[n].name, sizeof(st[n].name), "%.15s", name);
		st[n].exit_latency_ns = (u64)lat * 1000;
		st[n].target_residency_ns = (u64)res * 1000;
		/* The kernel's poll_idle state is the only one that polls for sure. */
		st[n].polling = !strcmp(name, "POLL");
	}
	if (n > 0) {
		memcpy(m->idle, st, sizeof(st[0]) * (size_t)n);
		m->nr_idle_states = n;
	}
	return 0;
}

int machine_read_sysfs(const char *dir, struct machine *m, char *err, size_t errlen)
{
	struct sysfs s = { .err = err, .errlen = errlen };
	struct topology *t = &m->topo;
	char path[1400], rel[256];
	struct cpumask online;
	int nr = 0, cpu;

	snprintf(s.root, sizeof(s.root), "%s", dir);
	snprintf(path, sizeof(path), "%s/devices/system/cpu", s.root);
	if (!is_dir(path)) {
		snprintf(s.root, sizeof(s.root), "%s/sys", dir);
		snprintf(path, sizeof(path), "%s/devices/system/cpu", s.root);
		if (!is_dir(path)) {
			snprintf(err, errlen,
				 "%s: no devices/system/cpu (expected a copy of /sys, or a "
				 "directory holding sys/)", dir);
			return -1;
		}
	}
	int r = read_mask(&s, "devices/system/cpu/online", false, &online);

	if (r < 0)
		return -1;
	if (r == 1) {
		cpumask_clear(&online);
		for (cpu = 0; cpu < WS_MAX_CPUS; cpu++) {
			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", s.root, cpu);
			if (!is_dir(path))
				break;
			cpumask_set_cpu(cpu, &online);
		}
	}
	/* cpumask helpers need nr_cpu_ids; use the widest until we know. */
	nr_cpu_ids = WS_MAX_CPUS;
	nr = cpumask_weight(&online);
	if (nr == 0)
		return fail(&s, "devices/system/cpu/online", "no CPU is online");
	for (cpu = 0; cpu < nr; cpu++)
		if (!cpumask_test_cpu(cpu, &online))
			return fail(&s, "devices/system/cpu/online",
				    "CPUs are missing below the highest online one; wakesim "
				    "needs CPUs 0..N-1 online");
	t->nr_cpus = nr;
	for (cpu = 0; cpu < nr; cpu++) {
		struct cpu_topo *c = &t->cpu[cpu];
		long pkg, cap;
		int key;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		r = mask_key(&s, rel, cpu, false, &key);
		if (r == 1) {
			snprintf(rel, sizeof(rel),
				 "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
			r = mask_key(&s, rel, cpu, true, &key);
		}
		if (r)
			return -1;
		c->core = key;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/cluster_cpus_list", cpu);
		r = mask_key(&s, rel, cpu, false, &key);
		if (r < 0)
			return -1;
		c->cluster = r == 1 ? c->core : key;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		if (read_long(&s, rel, true, &pkg))
			return -1;
		c->package = (int)pkg;
		r = llc_key(&s, cpu, &key);
		if (r < 0)
			return -1;
		/* No cache information: the kernel falls back to the package. */
		c->llc = r == 1 ? -1 - c->package : key;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpu_capacity", cpu);
		r = read_long(&s, rel, false, &cap);
		if (r < 0)
			return -1;
		if (r == 1)
			cap = SCHED_CAPACITY_SCALE;
		if (cap < 1 || cap > SCHED_CAPACITY_SCALE)
			return fail(&s, rel, "capacity outside 1..1024");
		c->capacity = (unsigned)cap;
	}
	if (read_nodes(&s, t, nr) || read_idle_states(&s, m))
		return -1;
	snprintf(m->description, sizeof(m->description), "read from %s", s.root);
	return 0;
}
