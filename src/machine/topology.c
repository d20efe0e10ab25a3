/*
 * topology.c - dense renumbering, nesting checks and comparison of machine
 * topologies. Builders (preset.c, sysfs.c) fill raw group keys; this file
 * turns them into the canonical form described in topology.h.
 */
#include "topology.h"

#include <stdio.h>
#include <string.h>

static int field_of(const struct cpu_topo *c, enum topo_level level)
{
	switch (level) {
	case TOPO_CORE:
		return c->core;
	case TOPO_CLUSTER:
		return c->cluster;
	case TOPO_LLC:
		return c->llc;
	case TOPO_NODE:
		return c->node;
	case TOPO_PACKAGE:
		return c->package;
	}
	return -1;
}

static int *field_ptr(struct cpu_topo *c, enum topo_level level)
{
	switch (level) {
	case TOPO_CORE:
		return &c->core;
	case TOPO_CLUSTER:
		return &c->cluster;
	case TOPO_LLC:
		return &c->llc;
	case TOPO_NODE:
		return &c->node;
	case TOPO_PACKAGE:
		return &c->package;
	}
	return 0;
}

static const char *level_name(enum topo_level level)
{
	static const char *names[] = { "core", "cluster", "LLC", "node", "package" };

	return names[level];
}

/*
 * Renumber one field densely by first appearance; returns the count. Raw
 * keys (sysfs ids, any int) are looked up in an open-addressed table, so
 * an 8192-CPU machine costs a pass, not CPUs x groups; ids follow the
 * CPUs' order, never the table's.
 */
#define RENUM_SLOTS (2 * WS_MAX_CPUS)

static int renumber(struct topology *t, enum topo_level level)
{
	static int key[RENUM_SLOTS], val[RENUM_SLOTS];
	static bool used[RENUM_SLOTS];
	int nr = 0;

	memset(used, 0, sizeof(used));
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		int *f = field_ptr(&t->cpu[cpu], level);
		unsigned h = ((unsigned)*f * 2654435761u) % RENUM_SLOTS;

		while (used[h] && key[h] != *f)
			h = (h + 1) % RENUM_SLOTS;
		if (!used[h]) {
			used[h] = true;
			key[h] = *f;
			val[h] = nr++;
		}
		*f = val[h];
	}
	return nr;
}

/*
 * The first CPUs a < b (in that order: smallest a, then smallest b) that
 * share the dense id `same` but differ in `diff`, as a * WS_MAX_CPUS + b,
 * or -1. One pass finds, per group of `same`, its last CPU and the last
 * CPU whose `diff` differs from that one's; a CPU has a partner after it
 * exactly when one of those lies after it, and only that CPU's partners
 * are then scanned.
 */
static int first_pair(const struct topology *t, enum topo_level same, enum topo_level diff)
{
	static int last[WS_MAX_CPUS], last_other[WS_MAX_CPUS];
	int n = t->nr_cpus;

	for (int i = 0; i < n; i++) {
		last[field_of(&t->cpu[i], same)] = i;
		last_other[field_of(&t->cpu[i], same)] = -1;
	}
	for (int i = 0; i < n; i++) {
		int g = field_of(&t->cpu[i], same);

		if (field_of(&t->cpu[i], diff) != field_of(&t->cpu[last[g]], diff))
			last_other[g] = i;
	}
	for (int a = 0; a < n; a++) {
		int g = field_of(&t->cpu[a], same), d = field_of(&t->cpu[a], diff);
		int reach = d != field_of(&t->cpu[last[g]], diff) ? last[g] : last_other[g];

		if (reach <= a)
			continue;
		for (int b = a + 1; b < n; b++)
			if (field_of(&t->cpu[b], same) == g && field_of(&t->cpu[b], diff) != d)
				return a * WS_MAX_CPUS + b;
	}
	return -1;
}

/* Every CPU sharing `inner` with another must also share `outer` with it. */
static int check_nested(const struct topology *t, enum topo_level inner,
			enum topo_level outer, char *err, size_t errlen)
{
	int ab = first_pair(t, inner, outer);

	if (ab < 0)
		return 0;
	snprintf(err, errlen, "CPUs %d and %d share a %s but not a %s", ab / WS_MAX_CPUS,
		 ab % WS_MAX_CPUS, level_name(inner), level_name(outer));
	return -1;
}

int topology_finalize(struct topology *t, char *err, size_t errlen)
{
	if (t->nr_cpus <= 0 || t->nr_cpus > WS_MAX_CPUS) {
		snprintf(err, errlen, "%d CPUs (must be 1..%d)", t->nr_cpus, WS_MAX_CPUS);
		return -1;
	}
	if (t->nr_nodes <= 0 || t->nr_nodes > WS_MAX_NODES) {
		snprintf(err, errlen, "%d NUMA nodes (must be 1..%d)", t->nr_nodes,
			 WS_MAX_NODES);
		return -1;
	}
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct cpu_topo *c = &t->cpu[cpu];

		if (c->node < 0 || c->node >= t->nr_nodes) {
			snprintf(err, errlen, "CPU %d is on node %d, outside 0..%d", cpu,
				 c->node, t->nr_nodes - 1);
			return -1;
		}
		if (c->capacity == 0 || c->capacity > SCHED_CAPACITY_SCALE) {
			snprintf(err, errlen, "CPU %d has capacity %u (must be 1..1024)",
				 cpu, c->capacity);
			return -1;
		}
		if (c->speed > SCHED_CAPACITY_SCALE) {
			snprintf(err, errlen, "CPU %d has speed %u (must be 1..1024)", cpu, c->speed);
			return -1;
		}
	}
	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		if (!t->cpu[cpu].speed)
			t->cpu[cpu].speed = t->cpu[cpu].capacity;
	for (int i = 0; i < t->nr_nodes; i++)
		for (int j = 0; j < t->nr_nodes; j++) {
			int d = t->distance[i][j];

			if ((i == j && d != 10) || (i != j && d <= 10) || d > 255) {
				snprintf(err, errlen,
					 "NUMA distance %d -> %d is %d (local must be 10, remote 11..255)",
					 i, j, d);
				return -1;
			}
		}
	t->nr_packages = renumber(t, TOPO_PACKAGE);
	t->nr_llcs = renumber(t, TOPO_LLC);
	t->nr_clusters = renumber(t, TOPO_CLUSTER);
	t->nr_cores = renumber(t, TOPO_CORE);
	if (check_nested(t, TOPO_CORE, TOPO_CLUSTER, err, errlen) ||
	    check_nested(t, TOPO_CLUSTER, TOPO_LLC, err, errlen) ||
	    check_nested(t, TOPO_LLC, TOPO_PACKAGE, err, errlen) ||
	    check_nested(t, TOPO_CORE, TOPO_NODE, err, errlen))
		return -1;
	/*
	 * Nodes within packages (SNC, NPS2/4) or packages within nodes (one
	 * node for all) are machines; a package split over nodes that also
	 * hold other packages' CPUs is not, and its domains would cross.
	 */
	int split_pkg = first_pair(t, TOPO_PACKAGE, TOPO_NODE);
	int mixed_node = first_pair(t, TOPO_NODE, TOPO_PACKAGE);

	if (split_pkg >= 0 && mixed_node >= 0) {
		snprintf(err, errlen, "packages and NUMA nodes do not nest: CPUs %d and %d share a "
			 "package but not a node, CPUs %d and %d a node but not a package",
			 split_pkg / WS_MAX_CPUS, split_pkg % WS_MAX_CPUS, mixed_node / WS_MAX_CPUS,
			 mixed_node % WS_MAX_CPUS);
		return -1;
	}

	int count[WS_MAX_CPUS] = { 0 };

	t->smt_width = 0;
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cpu_topo *c = &t->cpu[cpu];

		c->thread = count[c->core]++;
		if (count[c->core] > t->smt_width)
			t->smt_width = count[c->core];
	}
	return 0;
}

void topology_mask(const struct topology *t, enum topo_level level, int cpu,
		   struct cpumask *out)
{
	int id = field_of(&t->cpu[cpu], level);

	cpumask_clear(out);
	for (int c = 0; c < t->nr_cpus; c++)
		if (field_of(&t->cpu[c], level) == id)
			cpumask_set_cpu(c, out);
}

bool topology_equal(const struct topology *a, const struct topology *b,
		    bool compare_distances, char *why, size_t whylen)
{
	static const enum topo_level levels[] = { TOPO_CORE, TOPO_CLUSTER, TOPO_LLC,
						  TOPO_NODE, TOPO_PACKAGE };

	if (a->nr_cpus != b->nr_cpus) {
		snprintf(why, whylen, "%d CPUs vs %d", a->nr_cpus, b->nr_cpus);
		return false;
	}
	for (int cpu = 0; cpu < a->nr_cpus; cpu++) {
		for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
			int fa = field_of(&a->cpu[cpu], levels[l]);
			int fb = field_of(&b->cpu[cpu], levels[l]);

			if (fa != fb) {
				snprintf(why, whylen, "CPU %d: %s %d vs %d", cpu,
					 level_name(levels[l]), fa, fb);
				return false;
			}
		}
		if (a->cpu[cpu].capacity != b->cpu[cpu].capacity) {
			snprintf(why, whylen, "CPU %d: capacity %u vs %u", cpu,
				 a->cpu[cpu].capacity, b->cpu[cpu].capacity);
			return false;
		}
	}
	if (a->nr_nodes != b->nr_nodes) {
		snprintf(why, whylen, "%d nodes vs %d", a->nr_nodes, b->nr_nodes);
		return false;
	}
	if (compare_distances)
		for (int i = 0; i < a->nr_nodes; i++)
			for (int j = 0; j < a->nr_nodes; j++)
				if (a->distance[i][j] != b->distance[i][j]) {
					snprintf(why, whylen, "distance %d -> %d: %d vs %d", i,
						 j, a->distance[i][j], b->distance[i][j]);
					return false;
				}
	return true;
}
