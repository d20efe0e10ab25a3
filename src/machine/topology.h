/*
 * topology.h - the hardware a simulation runs on: which CPUs share a core,
 * a cluster, a last-level cache, a NUMA node and a package, and how far
 * apart the nodes are.
 *
 * One design idea: every grouping is a dense index per CPU (core 0..n-1,
 * llc 0..n-1, ...), numbered in order of the lowest CPU of each group. Two
 * topologies that describe the same machine therefore compare equal field by
 * field, whatever source (preset, sysfs dump) they came from. The scheduler's
 * view (sched domains) is built from this in kern/topology.c.
 */
#ifndef WS_TOPOLOGY_H
#define WS_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "cpumask.h"

#define WS_MAX_NODES 64
#define SCHED_CAPACITY_SCALE 1024

struct cpu_topo {
	int package;		/* dense socket index */
	int node;		/* NUMA node number, as sysfs nodeN */
	int llc;		/* dense index of the last-level cache */
	int cluster;		/* dense cluster index (== core if no clusters) */
	int core;		/* dense core index */
	int thread;		/* rank of this CPU among its core's threads */
	unsigned capacity;	/* CPU capacity, 0..1024 (cpu_capacity in sysfs) */
	unsigned speed;		/* how fast work runs, 1..1024 of nominal: the hardware's
				 * truth, where capacity is the kernel's belief (0: = capacity) */
};

struct topology {
	int nr_cpus;
	struct cpu_topo cpu[WS_MAX_CPUS];
	int nr_nodes;
	int distance[WS_MAX_NODES][WS_MAX_NODES]; /* SLIT units, 10 = local */
	/* Derived by topology_finalize(). */
	int nr_packages, nr_llcs, nr_clusters, nr_cores;
	int smt_width;		/* max threads per core */
};

enum topo_level {
	TOPO_CORE,	/* SMT siblings: cpu_smt_mask() */
	TOPO_CLUSTER,	/* cpu_clustergroup_mask() */
	TOPO_LLC,	/* CPUs sharing the last-level cache */
	TOPO_NODE,	/* cpumask_of_node() */
	TOPO_PACKAGE,	/* topology_core_cpumask() */
};

/*
 * Renumber the groupings densely in order of their lowest CPU, check that
 * they nest (core within cluster within LLC, node within... package), and
 * fill the derived counts. Returns 0, or -1 with the reason in err.
 */
int topology_finalize(struct topology *t, char *err, size_t errlen);

/* The CPUs that share `level` with cpu. */
void topology_mask(const struct topology *t, enum topo_level level, int cpu,
		   struct cpumask *out);

/*
 * Compare two topologies (CPUs, cores, clusters, LLCs, nodes, packages,
 * capacities and, if both have more than one node, distances). Returns true
 * if equal; otherwise describes the first difference in why.
 */
bool topology_equal(const struct topology *a, const struct topology *b,
		    bool compare_distances, char *why, size_t whylen);

#endif
