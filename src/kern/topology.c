/*
 * topology.c - the sched-domain hierarchy, after kernel/sched/topology.c
 * (mainline, v6.7+ naming).
 *
 * Each CPU gets its own chain of domains, bottom-up, from the default
 * topology table (SMT, CLS, MC, PKG) followed on NUMA machines by NODE and
 * one NUMA level per distinct node distance, as sched_init_numa() appends
 * them. Levels whose span adds nothing are then removed as the kernel's
 * cpu_attach_domain() does. Groups of a domain are the spans of its child
 * level at each CPU of the span; for NUMA levels (SD_OVERLAP) these may
 * overlap, as the kernel's build_overlap_sched_groups() makes them.
 * Groups are shared between CPUs with identical spans. Spans of CPUs with
 * unequal capacities get SD_ASYM_CPUCAPACITY(_FULL) as
 * asym_cpu_capacity_classify() gives them.
 */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

#include "../machine/topology.h"

enum { LVL_SMT, LVL_CLS, LVL_MC, LVL_PKG, LVL_NODE, LVL_NUMA };

/* SMT, CLS, MC, PKG, NODE and one NUMA level per distinct distance (11..255). */
#define MAX_LEVELS (5 + 245)

struct level_def {
	const char *name;
	int kind;
	unsigned int tl_flags;	/* the topology level's flag function */
	int numa_distance;	/* for NUMA levels */
};

static const char *const flag_names[] = {
	"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE", "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL",
	"SD_SHARE_CPUCAPACITY", "SD_CLUSTER", "SD_SHARE_LLC", "SD_SERIALIZE",
	"SD_ASYM_PACKING", "SD_PREFER_SIBLING", "SD_OVERLAP", "SD_NUMA",
};

void sd_flags_print(unsigned int flags, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		if (!(flags & (1u << i)))
			continue;
		int n = snprintf(buf + off, len - off, "%s%s", off ? " " : "", flag_names[i]);

		if (n < 0 || (size_t)n >= len - off)
			return;
		off += (size_t)n;
	}
}

/* The span of a level at cpu (the level's mask function). */
static void level_mask(const struct machine *m, const struct level_def *l, int cpu,
		       struct cpumask *out)
{
	const struct topology *t = &m->topo;
	struct cpumask node;

	switch (l->kind) {
	case LVL_SMT:
		topology_mask(t, TOPO_CORE, cpu, out);
		break;
	case LVL_CLS: {
		struct cpumask llc;

		/*
		 * A cluster never spans the whole coregroup: arm64's
		 * cpu_clustergroup_mask() then falls back to the SMT mask.
		 */
		topology_mask(t, TOPO_CLUSTER, cpu, out);
		topology_mask(t, TOPO_LLC, cpu, &llc);
		topology_mask(t, TOPO_NODE, cpu, &node);
		cpumask_and(&llc, &llc, &node);
		if (cpumask_subset(&llc, out))
			topology_mask(t, TOPO_CORE, cpu, out);
		break;
	}
	case LVL_MC:
		/* cpu_coregroup_mask(): the LLC, clipped to the node (x86 SNC). */
		topology_mask(t, TOPO_LLC, cpu, out);
		topology_mask(t, TOPO_NODE, cpu, &node);
		cpumask_and(out, out, &node);
		break;
	case LVL_PKG:	/* cpu_cpu_mask() is the node's CPUs */
	case LVL_NODE:
		topology_mask(t, TOPO_NODE, cpu, out);
		break;
	case LVL_NUMA: {
		int home = t->cpu[cpu].node;

		cpumask_clear(out);
		for (int c = 0; c < t->nr_cpus; c++)
			if (t->distance[home][t->cpu[c].node] <= l->numa_distance)
				cpumask_set_cpu(c, out);
		break;
	}
	}
}

/*
 * asym_cpu_capacity_classify(): a span holding CPUs of more than one
 * capacity is SD_ASYM_CPUCAPACITY, and _FULL when it holds every capacity
 * the machine has.
 */
static unsigned int asym_cpu_capacity_classify(const struct machine *m, const struct cpumask *span)
{
	unsigned int seen[16], all[16];
	int nseen = 0, nall = 0, cpu;

	for (cpu = 0; cpu < m->topo.nr_cpus; cpu++) {
		unsigned int cap = m->topo.cpu[cpu].capacity;
		int k, j;

		for (k = 0; k < nall && all[k] != cap; k++)
			;
		if (k == nall && nall < 16)
			all[nall++] = cap;
		if (!cpumask_test_cpu(cpu, span))
			continue;
		for (j = 0; j < nseen && seen[j] != cap; j++)
			;
		if (j == nseen && nseen < 16)
			seen[nseen++] = cap;
	}
	if (nseen <= 1)
		return 0;
	return nseen == nall ? SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL : SD_ASYM_CPUCAPACITY;
}

int node_reclaim_distance(const struct machine *m, bool zen5_known)
{
	bool zen = !strcmp(m->cpu_vendor, "AuthenticAMD") &&
		   (m->cpu_family == 0x17 || m->cpu_family == 0x19 ||
		    (m->cpu_family == 0x1a && zen5_known));

	return zen ? ZEN_RECLAIM_DISTANCE : RECLAIM_DISTANCE;
}

/* sd_init(): per-level parameters and flags (kernel/sched/topology.c). */
static void sd_init(struct sched_domain *sd, const struct level_def *l, int reclaim_distance)
{
	int w = sd->span_weight;

	snprintf(sd->name, sizeof(sd->name), "%s", l->name);
	sd->flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE |
		    SD_PREFER_SIBLING | l->tl_flags;
	sd->imbalance_pct = 117;
	sd->cache_nice_tries = 0;
	sd->busy_factor = 16;
	sd->min_interval = (unsigned long)w;
	sd->max_interval = 2 * (unsigned long)w;
	sd->balance_interval = (unsigned long)w;
	sd->numa_distance = l->kind == LVL_NUMA ? l->numa_distance : 0;
	if (sd->flags & SD_SHARE_CPUCAPACITY) {
		sd->imbalance_pct = 110;
	} else if (sd->flags & SD_SHARE_LLC) {
		sd->imbalance_pct = 117;
		sd->cache_nice_tries = 1;
	} else if (sd->flags & SD_NUMA) {
		sd->cache_nice_tries = 2;
		sd->flags &= ~SD_PREFER_SIBLING;
		sd->flags |= SD_SERIALIZE;
		if (l->numa_distance > reclaim_distance)
			sd->flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
	} else {
		sd->cache_nice_tries = 1;
	}
}

/* sd_degenerate(): a domain that balances nothing. */
static bool sd_degenerate(const struct sched_domain *sd, int nr_groups)
{
	if (sd->span_weight == 1)
		return true;
	if (nr_groups > 1 && (sd->flags & SD_DEGENERATE_GROUPS_MASK))
		return false;
	if (sd->flags & SD_WAKE_AFFINE)
		return false;
	return true;
}

/* sd_parent_degenerate(): parent adds no CPU and no flag over child. */
static bool sd_parent_degenerate(const struct sched_domain *sd,
				 const struct sched_domain *parent, int parent_groups)
{
	unsigned long cflags = sd->flags, pflags = parent->flags;

	if (sd_degenerate(parent, parent_groups))
		return true;
	if (!cpumask_equal(&sd->span, &parent->span))
		return false;
	if (parent_groups == 1)
		pflags &= ~(unsigned long)SD_DEGENERATE_GROUPS_MASK;
	return (~cflags & pflags) == 0;
}

static int nr_groups_of(const struct sched_domain *sd)
{
	const struct sched_group *sg = sd->groups;
	int n = 0;

	do {
		n++;
		sg = sg->next;
	} while (sg != sd->groups);
	return n;
}

/* The levels of this machine's topology table, bottom-up. */
static int machine_levels(const struct machine *m, struct level_def *out, bool cls)
{
	const struct topology *t = &m->topo;
	int n = 0;

	out[n++] = (struct level_def){ "SMT", LVL_SMT, SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, 0 };
	if (cls)
		out[n++] = (struct level_def){ "CLS", LVL_CLS, SD_CLUSTER | SD_SHARE_LLC, 0 };
	out[n++] = (struct level_def){ "MC", LVL_MC, SD_SHARE_LLC, 0 };
	out[n++] = (struct level_def){ "PKG", LVL_PKG, 0, 0 };
	if (t->nr_nodes > 1) {
		int dist[WS_MAX_NODES * WS_MAX_NODES], nd = 0;

		/* sched_init_numa(): the distinct distances, ascending. */
		for (int i = 0; i < t->nr_nodes; i++)
			for (int j = 0; j < t->nr_nodes; j++) {
				int d = t->distance[i][j], k;

				for (k = 0; k < nd && dist[k] != d; k++)
					;
				if (k == nd)
					dist[nd++] = d;
			}
		for (int i = 1; i < nd; i++)
			for (int j = i; j > 0 && dist[j - 1] > dist[j]; j--) {
				int tmp = dist[j];

				dist[j] = dist[j - 1];
				dist[j - 1] = tmp;
			}
		if (nd > 1) {
			out[n++] = (struct level_def){ "NODE", LVL_NODE, 0, dist[0] };
			for (int i = 1; i < nd && n < MAX_LEVELS; i++)
				out[n++] = (struct level_def){ "NUMA", LVL_NUMA, SD_NUMA | SD_OVERLAP,
							       dist[i] };
		}
	}
	return n;
}

/*
 * Groups of a domain: for each CPU i of the span not yet covered, the span
 * of i's domain one level down in the full table (build_sched_groups(),
 * build_overlap_sched_groups()). Lists are circular in CPU order and shared by every CPU
 * whose domain has the same level and span; each domain points at its own
 * local group, so walking from sd->groups visits groups in wrap order from
 * the CPU as the kernel's per-CPU lists do.
 */
static int build_groups(const struct machine *m, struct sched_domains *d, int nl,
			struct sched_domain *sd, int cpu)
{
	int first = cpumask_first(&sd->span);
	struct sched_group *head = NULL, *last = NULL, *sg;
	struct cpumask covered;
	int i;

	if (first < cpu) {
		struct sched_domain *twin = &d->all[first * nl + sd->level];

		if (twin->groups && cpumask_equal(&twin->span, &sd->span))
			head = twin->groups;
	}
	if (!head) {
		cpumask_clear(&covered);
		for_each_cpu(i, &sd->span) {
			if (cpumask_test_cpu(i, &covered))
				continue;
			sg = calloc(1, sizeof(*sg));
			if (!sg)
				return -1;
			sg->pool_next = d->group_pool;
			d->group_pool = sg;
			d->nr_groups++;
			if (sd->level > 0) {
				struct sched_domain *c = &d->all[i * nl + sd->level - 1];

				/*
				 * NUMA levels (build_overlap_sched_groups()): CPU i's
				 * child may reach outside this span when distances
				 * are not symmetric between nodes; descend to the
				 * widest of i's domains that fits
				 * (find_descended_sibling()). Groups may overlap.
				 */
				while (c->level > 0 && !cpumask_subset(&c->span, &sd->span))
					c = &d->all[i * nl + c->level - 1];
				cpumask_copy(&sg->span, &c->span);
				sg->flags = c->flags;
			} else {
				cpumask_set_cpu(i, &sg->span);
			}
			sg->weight = cpumask_weight(&sg->span);
			sg->cpus = malloc(sizeof(int) * (size_t)sg->weight);
			if (!sg->cpus)
				return -1;
			int c2, n2 = 0, last_core = -1;

			for_each_cpu(c2, &sg->span) {
				sg->cpus[n2++] = c2;
				sg->capacity += m->topo.cpu[c2].capacity;
				/* SMT siblings need not be adjacent: count each core once. */
				struct cpumask core;

				if (m->smt) /* machine_finish()'s; a scan of every CPU if not */
					cpumask_copy(&core, machine_smt_mask(m, c2));
				else
					topology_mask(&m->topo, TOPO_CORE, c2, &core);
				cpumask_and(&core, &core, &sg->span);
				if (cpumask_first(&core) == c2 && m->topo.cpu[c2].core != last_core)
					sg->nr_cores++;
				last_core = m->topo.cpu[c2].core;
			}
			cpumask_or(&covered, &covered, &sg->span);
			if (!head)
				head = sg;
			else
				last->next = sg;
			last = sg;
		}
		last->next = head;
	}
	/* The local group first. */
	sg = head;
	while (!cpumask_test_cpu(cpu, &sg->span))
		sg = sg->next;
	sd->groups = sg;
	return 0;
}

int build_sched_domains(const struct machine *m, struct sched_domains *d)
{
	return build_sched_domains_for(m, d, kernel_profile(KV_MAINLINE));
}

int build_sched_domains_for(const struct machine *m, struct sched_domains *d,
			    const struct kernel_profile *kp)
{
	const struct topology *t = &m->topo;
	struct level_def lv[MAX_LEVELS];
	int nl = machine_levels(m, lv, kp->cls_level);
	int ncpu = t->nr_cpus;
	int reclaim = node_reclaim_distance(m, kp->amd_zen5_known);

	memset(d, 0, sizeof(*d));
	d->node_reclaim_distance = reclaim;
	cacheline_init(&d->rd.line);
	d->nr_cpus = ncpu;
	d->nr_levels = nl;
	d->cpu = calloc((size_t)ncpu, sizeof(*d->cpu));
	d->all = calloc((size_t)ncpu * (size_t)nl, sizeof(*d->all));
	d->shared = calloc((size_t)ncpu, sizeof(*d->shared));
	if (!d->cpu || !d->all || !d->shared)
		goto nomem;

	/* 1. Every level for every CPU, with groups (build_sched_domains()). */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct sched_domain *prev = NULL;

		for (int l = 0; l < nl; l++) {
			struct sched_domain *sd = &d->all[cpu * nl + l];

			sd->level = l;
			level_mask(m, &lv[l], cpu, &sd->span);
			/* A level never spans less than its child (build_sched_domain()). */
			if (prev)
				cpumask_or(&sd->span, &sd->span, &prev->span);
			sd->span_weight = cpumask_weight(&sd->span);
			sd_init(sd, &lv[l], reclaim);
			sd->flags |= asym_cpu_capacity_classify(m, &sd->span);
			/* Do not spread across CPUs of different capacities. */
			if ((sd->flags & SD_ASYM_CPUCAPACITY) && prev)
				prev->flags &= ~SD_PREFER_SIBLING;
			sd->child = prev;
			if (prev)
				prev->parent = sd;
			prev = sd;
		}
	}
	for (int cpu = 0; cpu < ncpu; cpu++)
		for (int l = 0; l < nl; l++)
			if (build_groups(m, d, nl, &d->all[cpu * nl + l], cpu))
				goto nomem;

	/* 2. cpu_attach_domain(): drop degenerate parents, then the base. */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct sched_domain *base = &d->all[cpu * nl], *tmp = base;

		while (tmp && tmp->parent) {
			struct sched_domain *parent = tmp->parent;

			if (sd_parent_degenerate(tmp, parent, nr_groups_of(parent))) {
				tmp->parent = parent->parent;
				if (parent->parent)
					parent->parent->child = tmp;
				/* Keep the preference a removed level carried. */
				if (parent->flags & SD_PREFER_SIBLING)
					tmp->flags |= SD_PREFER_SIBLING;
			} else {
				tmp = parent;
			}
		}
		if (base && sd_degenerate(base, nr_groups_of(base))) {
			base = base->parent;
			if (base)
				base->child = NULL;
		}
		d->cpu[cpu].sd = base;
	}

	/*
	 * 3. imb_numa_nr (build_sched_domains()): the first domain above the
	 * LLC tolerates one task per LLC it spans (or 1/8 of its CPUs if it
	 * spans one LLC); NUMA levels above scale that by their size.
	 */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		unsigned int imb = 0, imb_span = 1;
		struct sched_domain *sd;

		for (sd = d->cpu[cpu].sd; sd; sd = sd->parent) {
			struct sched_domain *child = sd->child;

			if (!(sd->flags & SD_SHARE_LLC) && child && (child->flags & SD_SHARE_LLC)) {
				struct sched_domain *top = sd->parent;
				unsigned int nr_llcs = (unsigned int)(sd->span_weight / child->span_weight);

				imb = nr_llcs == 1 ? (unsigned int)sd->span_weight >> 3 : nr_llcs;
				if (imb < 1)
					imb = 1;
				sd->imb_numa_nr = (int)imb;
				while (top && !(top->flags & SD_NUMA))
					top = top->parent;
				imb_span = (unsigned int)(top ? top->span_weight : sd->span_weight);
			} else if (imb) {
				unsigned int factor = (unsigned int)sd->span_weight / imb_span;

				sd->imb_numa_nr = (int)(imb * (factor ? factor : 1));
			}
		}
	}

	/* 4. update_top_cache_domain() and the LLC shared objects. */
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct cpu_domains *cd = &d->cpu[cpu];
		struct sched_domain *sd, *llc = NULL, *cls = NULL;

		for (sd = cd->sd; sd; sd = sd->parent) {
			if (sd->flags & SD_SHARE_LLC)
				llc = sd;
			if ((sd->flags & SD_CLUSTER) && !cls)
				cls = sd;
			if ((sd->flags & SD_NUMA) && !cd->sd_numa)
				cd->sd_numa = sd;
			if ((sd->flags & SD_ASYM_CPUCAPACITY_FULL) && !cd->sd_asym_cpucapacity)
				cd->sd_asym_cpucapacity = sd;
			if (sd->flags & SD_ASYM_CPUCAPACITY)
				d->asym_cpucap_active = true;
		}
		cd->sd_llc = llc;
		cd->sd_llc_size = llc ? llc->span_weight : 1;
		cd->sd_llc_id = llc ? cpumask_first(&llc->span) : cpu;
		cd->sd_share_id = cls ? cpumask_first(&cls->span) : cd->sd_llc_id;
		/*
		 * M. Desnoyers' "sched: Introduce cpus_share_l2c" (RFC v3 2/3,
		 * LKML 2023-08-22) reads the topology's cluster mask, not the
		 * CLS domain, which degenerates where it equals SMT: x86's
		 * L2-sharing CPUs (a core's threads here, where a cluster
		 * spans the LLC), arm64's cluster. A CPU alone in it is its
		 * own group; v3 falls back to the LLC only on architectures
		 * without a cluster topology, which the model has none of.
		 */
		{
			const struct level_def cls_def = { .name = "CLS", .kind = LVL_CLS };
			struct cpumask l2c;

			level_mask(m, &cls_def, cpu, &l2c);
			cd->sd_l2c_id = cpumask_first(&l2c);
		}
		if (llc) {
			/* One shared object per LLC instance, keyed by its first CPU. */
			struct sched_domain_shared *sh = NULL;

			for (int i = 0; i < d->nr_shared; i++)
				if (d->shared[i].llc_id == cd->sd_llc_id)
					sh = &d->shared[i];
			if (!sh) {
				sh = &d->shared[d->nr_shared++];
				sh->llc_id = cd->sd_llc_id;
				sh->nr_busy_cpus = llc->span_weight;
				cacheline_init(&sh->line);
			}
			llc->shared = sh;
			cd->sd_llc_shared = sh;
		}
		if (cls)
			d->cluster_active = true;
	}
	d->smt_present = t->smt_width > 1;
	return 0;
nomem:
	free_sched_domains(d);
	return -1;
}

void free_sched_domains(struct sched_domains *d)
{
	while (d->group_pool) {
		struct sched_group *sg = d->group_pool;

		d->group_pool = sg->pool_next;
		free(sg->cpus);
		free(sg);
	}
	free(d->cpu);
	free(d->all);
	free(d->shared);
	memset(d, 0, sizeof(*d));
}

void sched_domains_print(FILE *out, const struct machine *m, const struct sched_domains *d)
{
	char buf[4096], flags[512];

	fprintf(out, "machine %s: %d CPUs, %d cores, %d LLCs, %d nodes, %d packages\n",
		m->name, m->topo.nr_cpus, m->topo.nr_cores, m->topo.nr_llcs, m->topo.nr_nodes,
		m->topo.nr_packages);
	if (m->topo.nr_nodes > 1) {
		char cpu[64] = "CPU vendor not known";

		if (m->cpu_vendor[0])
			snprintf(cpu, sizeof(cpu), "%s family 0x%x", m->cpu_vendor, (unsigned)m->cpu_family);
		fprintf(out, "node_reclaim_distance %d (%s): NUMA levels farther lose SD_WAKE_AFFINE, "
			"SD_BALANCE_FORK and SD_BALANCE_EXEC\n", d->node_reclaim_distance, cpu);
	}
	fprintf(out, "idle states (exit/target residency, us):");
	for (int i = 0; i < m->nr_idle_states; i++) {
		fprintf(out, " %s %g/%g%s", m->idle[i].name,
			(double)m->idle[i].exit_latency_ns / 1000,
			(double)m->idle[i].target_residency_ns / 1000,
			m->idle[i].polling ? " (polling)" : m->idle[i].mwait ? " (mwait)" : "");
		if (m->idle[i].halt_poll_ns)
			fprintf(out, " (exit %g if halted under %g: the host halt-polls)",
				(double)m->idle[i].halt_poll_exit_ns / 1000,
				(double)m->idle[i].halt_poll_ns / 1000);
		if (m->idle[i].halt_poll_send_set)
			fprintf(out, " (an IPI to it then costs its sender %g)",
				(double)m->idle[i].halt_poll_ipi_send_ns / 1000);
		if (m->idle[i].halt_poll_max_ns)
			fprintf(out, " (the window adapts per vCPU, up to %g)",
				(double)m->idle[i].halt_poll_max_ns / 1000);
	}
	fprintf(out, "%s\n", m->nr_idle_states ? "" : " none");
	machine_print_assumed(out, m, "");
	for (int cpu = 0; cpu < d->nr_cpus; cpu++) {
		const struct cpu_domains *cd = &d->cpu[cpu];
		const struct sched_domain *sd;
		int lvl = 0;

		fprintf(out, "cpu%d: core %d cluster %d llc %d node %d package %d capacity %u"
			     " sd_llc_size %d sd_llc_id %d sd_share_id %d\n",
			cpu, m->topo.cpu[cpu].core, m->topo.cpu[cpu].cluster, m->topo.cpu[cpu].llc,
			m->topo.cpu[cpu].node, m->topo.cpu[cpu].package, m->topo.cpu[cpu].capacity,
			cd->sd_llc_size, cd->sd_llc_id, cd->sd_share_id);
		for (sd = cd->sd; sd; sd = sd->parent, lvl++) {
			const struct sched_group *sg = sd->groups;

			sd_flags_print(sd->flags, flags, sizeof(flags));
			fprintf(out, "  domain%d %-4s span %s weight %d imbalance_pct %u\n", lvl,
				sd->name, cpumask_print_list(&sd->span, buf, sizeof(buf)),
				sd->span_weight, sd->imbalance_pct);
			fprintf(out, "    flags %s\n", flags);
			fprintf(out, "    groups");
			do {
				fprintf(out, " {%s}", cpumask_print_list(&sg->span, buf, sizeof(buf)));
				sg = sg->next;
			} while (sg != sd->groups);
			fprintf(out, "\n");
		}
	}
}
