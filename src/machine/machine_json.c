/*
 * machine_json.c - machine files (machines/NAME.json, built in, or a
 * file): a regular machine described by counts (sockets x nodes x LLCs x
 * clusters x cores x threads, or typed cores) plus the CPU numbering Linux
 * uses on that platform; the generator below expands it into a topology
 * with the same CPU numbers the real machine's sysfs shows. Costs: its
 * "cost_profile", then its own "costs" (costs_json.c).
 */
#include "machine.h"

#include <stdio.h>
#include <string.h>

#include "costs_json.h"
#include "presets_data.h"
#include "util/jsondoc.h"
#include "util/jsonin.h"

/* ---- topology generator ---- */

struct preset_shape {
	int sockets, nodes_per_socket, llcs_per_node, clusters_per_llc;
	int cores_per_cluster, threads_per_core;
	bool sibling_last;	/* x86: thread 1 of every core after all thread 0s */
	unsigned capacity;
};

/*
 * Expand counts into CPUs numbered as Linux numbers them: cores in socket,
 * node, LLC, cluster order; with sibling_last the second threads follow all
 * first threads (x86 ACPI MADT order), else siblings are adjacent.
 */
static void generate(const struct preset_shape *s, struct topology *t)
{
	int cores_per_llc = s->clusters_per_llc * s->cores_per_cluster;
	int cores_per_node = s->llcs_per_node * cores_per_llc;
	int cores_per_socket = s->nodes_per_socket * cores_per_node;
	int nr_cores = s->sockets * cores_per_socket;

	t->nr_cpus = nr_cores * s->threads_per_core;
	for (int core = 0; core < nr_cores; core++)
		for (int th = 0; th < s->threads_per_core; th++) {
			int cpu = s->sibling_last ? th * nr_cores + core
						  : core * s->threads_per_core + th;
			struct cpu_topo *c = &t->cpu[cpu];

			c->core = core;
			/* One cluster per LLC is no cluster: sysfs shows the core. */
			c->cluster = s->clusters_per_llc > 1 ? core / s->cores_per_cluster : core;
			c->llc = core / cores_per_llc;
			c->node = core / cores_per_node;
			c->package = core / cores_per_socket;
			c->capacity = s->capacity;
		}
	t->nr_nodes = s->sockets * s->nodes_per_socket;
}

/* One kind of core of a hybrid machine ("core_types"), repeated in every LLC. */
struct core_type {
	int cores, cores_per_cluster, threads_per_core;
	unsigned capacity, speed;
};

#define MAX_CORE_TYPES 8

/*
 * Expand an LLC made of several core types (P- and E-cores, big and
 * LITTLE): in every LLC the types follow in the order given, each in
 * clusters of its own; sibling threads are numbered adjacently, as Linux
 * numbers Alder Lake's P-cores (cpu0-1 one core) and Arm parts.
 */
static void generate_typed(const struct preset_shape *s, const struct core_type *ty, int nty,
			   struct topology *t)
{
	int nr_llcs = s->sockets * s->nodes_per_socket * s->llcs_per_node;
	int clusters_per_llc = 0, core = 0, cluster = 0, cpu = 0;

	for (int i = 0; i < nty; i++)
		clusters_per_llc += ty[i].cores / ty[i].cores_per_cluster;
	for (int llc = 0; llc < nr_llcs; llc++)
		for (int i = 0; i < nty; i++)
			for (int k = 0; k < ty[i].cores; k++, core++) {
				if (k % ty[i].cores_per_cluster == 0 && (llc || i || k))
					cluster++;
				for (int th = 0; th < ty[i].threads_per_core; th++, cpu++) {
					struct cpu_topo *c = &t->cpu[cpu];

					c->core = core;
					c->cluster = clusters_per_llc > 1 ? cluster : core;
					c->llc = llc;
					c->node = llc / s->llcs_per_node;
					c->package = llc / (s->llcs_per_node * s->nodes_per_socket);
					c->capacity = ty[i].capacity;
					c->speed = ty[i].speed;
				}
			}
	t->nr_cpus = cpu;
	t->nr_nodes = s->sockets * s->nodes_per_socket;
}

/* "core_types": [{ "name", "cores", "cores_per_cluster", "threads_per_core", "capacity", "speed" }]. */
static int parse_core_types(const struct json_in *c, json_object *a, struct core_type *ty, int *nty)
{
	static const char *const known[] = { "name", "cores", "cores_per_cluster",
		"threads_per_core", "capacity", "speed", NULL };
	int n = json_object_is_type(a, json_type_array) ? (int)json_object_array_length(a) : 0;
	char names[MAX_CORE_TYPES][64];

	if (n < 1 || n > MAX_CORE_TYPES) {
		char what[96];

		snprintf(what, sizeof(what), "expected an array of 1 to %d objects", MAX_CORE_TYPES);
		return jfail(c, "topology.core_types", what);
	}
	for (int i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, (size_t)i);
		char p[48], name[64] = "";
		int cap = SCHED_CAPACITY_SCALE, speed = 0;

		snprintf(p, sizeof(p), "topology.core_types[%d].", i);
		if (!json_object_is_type(e, json_type_object)) {
			p[strlen(p) - 1] = '\0';
			return jfail(c, p, "expected an object");
		}
		ty[i] = (struct core_type){ .threads_per_core = 1 };
		if (json_in_known(c, e, p, known) || json_in_str(c, e, p, "name", false, name, sizeof(name)) ||
		    json_in_int(c, e, p, "cores", true, 1, WS_MAX_CPUS, &ty[i].cores))
			return -1;
		/* Users tell the types apart by name (P/E, big/LITTLE): two alike is a slip. */
		snprintf(names[i], sizeof(names[i]), "%s", name);
		for (int k = 0; k < i && name[0]; k++)
			if (!strcmp(names[k], name)) {
				char path[64], what[128];

				snprintf(path, sizeof(path), "%sname", p);
				snprintf(what, sizeof(what), "\"%s\" already names core_types[%d]", name, k);
				return jfail(c, path, what);
			}
		ty[i].cores_per_cluster = ty[i].cores;
		if (json_in_int(c, e, p, "cores_per_cluster", false, 1, WS_MAX_CPUS, &ty[i].cores_per_cluster) ||
		    json_in_int(c, e, p, "threads_per_core", false, 1, 8, &ty[i].threads_per_core) ||
		    json_in_int(c, e, p, "capacity", false, 1, SCHED_CAPACITY_SCALE, &cap) ||
		    json_in_int(c, e, p, "speed", false, 1, SCHED_CAPACITY_SCALE, &speed))
			return -1;
		ty[i].capacity = (unsigned)cap;
		ty[i].speed = (unsigned)(speed ? speed : cap);
		if (ty[i].cores % ty[i].cores_per_cluster) {
			char path[64], what[96];

			snprintf(path, sizeof(path), "%scores_per_cluster", p);
			snprintf(what, sizeof(what), "%d cores do not split into clusters of %d",
				 ty[i].cores, ty[i].cores_per_cluster);
			return jfail(c, path, what);
		}
	}
	*nty = n;
	return 0;
}

static int parse_topology(const struct json_in *c, json_object *o, struct machine *m)
{
	static const char *const known[] = { "sockets", "nodes_per_socket", "llcs_per_node",
		"clusters_per_llc", "cores_per_cluster", "threads_per_core", "smt_numbering",
		"numa_distance", "l2_bytes", "llc_bytes", "capacity", "core_types", NULL };
	static const char *const uniform[] = { "clusters_per_llc", "cores_per_cluster",
		"threads_per_core", "capacity", "smt_numbering", NULL };
	struct core_type ty[MAX_CORE_TYPES];
	int nty = 0;
	json_object *types = NULL;
	struct preset_shape s = { .nodes_per_socket = 1, .llcs_per_node = 1,
				  .clusters_per_llc = 1, .threads_per_core = 1,
				  .capacity = SCHED_CAPACITY_SCALE };
	const char *p = "topology.";
	char numbering[32] = "sibling-adjacent";
	int cap = SCHED_CAPACITY_SCALE;

	if (json_in_known(c, o, p, known))
		return -1;
	if (json_object_object_get_ex(o, "core_types", &types)) {
		/* A hybrid LLC: the per-type fields replace the uniform ones. */
		for (int i = 0; uniform[i]; i++)
			if (json_object_object_get_ex(o, uniform[i], NULL)) {
				char path[64];

				snprintf(path, sizeof(path), "topology.%s", uniform[i]);
				return jfail(c, path, "not allowed with core_types (give it per core type)");
			}
		if (parse_core_types(c, types, ty, &nty))
			return -1;
		s.cores_per_cluster = 1;
	}
	if (json_in_int(c, o, p, "sockets", true, 1, 64, &s.sockets) ||
	    json_in_int(c, o, p, "nodes_per_socket", false, 1, 64, &s.nodes_per_socket) ||
	    json_in_int(c, o, p, "llcs_per_node", false, 1, 1024, &s.llcs_per_node) ||
	    json_in_int(c, o, p, "clusters_per_llc", false, 1, 1024, &s.clusters_per_llc) ||
	    json_in_int(c, o, p, "cores_per_cluster", !types, 1, 1024, &s.cores_per_cluster) ||
	    json_in_int(c, o, p, "threads_per_core", false, 1, 8, &s.threads_per_core) ||
	    json_in_int(c, o, p, "capacity", false, 1, SCHED_CAPACITY_SCALE, &cap) ||
	    json_in_str(c, o, p, "smt_numbering", false, numbering, sizeof(numbering)) ||
	    json_in_u64(c, o, p, "l2_bytes", true, 1, UINT64_C(1) << 40, &m->l2_bytes) ||
	    json_in_u64(c, o, p, "llc_bytes", true, 1, UINT64_C(1) << 40, &m->llc_bytes))
		return -1;
	s.capacity = (unsigned)cap;
	if (!strcmp(numbering, "sibling-last"))
		s.sibling_last = true;
	else if (strcmp(numbering, "sibling-adjacent"))
		return jfail(c, "topology.smt_numbering",
			     "expected \"sibling-last\" or \"sibling-adjacent\"");
	long long per_llc = (long long)s.clusters_per_llc * s.cores_per_cluster * s.threads_per_core;

	if (types) {
		per_llc = 0;
		for (int i = 0; i < nty; i++)
			per_llc += (long long)ty[i].cores * ty[i].threads_per_core;
	}
	long long total = (long long)s.sockets * s.nodes_per_socket * s.llcs_per_node * per_llc;
	if (total > WS_MAX_CPUS) {
		char what[96];

		snprintf(what, sizeof(what), "the counts give %lld CPUs, more than %d", total,
			 WS_MAX_CPUS);
		return jfail(c, "topology.sockets", what);
	}
	if ((long long)s.sockets * s.nodes_per_socket > WS_MAX_NODES)
		return jfail(c, "topology.nodes_per_socket",
			     "too many NUMA nodes");
	if (types)
		generate_typed(&s, ty, nty, &m->topo);
	else
		generate(&s, &m->topo);

	json_object *d;
	int n = m->topo.nr_nodes;

	if (!json_object_object_get_ex(o, "numa_distance", &d)) {
		if (n > 1)
			return jfail(c, "topology.numa_distance",
				     "missing (required with more than one node)");
		m->topo.distance[0][0] = 10;
		return 0;
	}
	if (!json_object_is_type(d, json_type_array) || (int)json_object_array_length(d) != n) {
		char what[96];

		snprintf(what, sizeof(what), "expected a %d x %d array of integers", n, n);
		return jfail(c, "topology.numa_distance", what);
	}
	for (int i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(d, (size_t)i);
		char rpath[64];

		snprintf(rpath, sizeof(rpath), "topology.numa_distance[%d]", i);
		if (!json_object_is_type(row, json_type_array) ||
		    (int)json_object_array_length(row) != n) {
			char what[96];

			snprintf(what, sizeof(what), "expected a row of %d integers", n);
			return jfail(c, rpath, what);
		}
		for (int j = 0; j < n; j++) {
			json_object *v = json_object_array_get_idx(row, (size_t)j);
			char what[128];
			int64_t x;

			if (!json_object_is_type(v, json_type_int))
				return jfail(c, rpath, "expected integers");
			x = json_object_get_int64(v);
			if ((i == j && x != 10) || (i != j && (x <= 10 || x > 255))) {
				snprintf(what, sizeof(what),
					 "distance %d -> %d is %lld (local must be 10, remote 11..255)", i, j,
					 (long long)x);
				return jfail(c, rpath, what);
			}
			m->topo.distance[i][j] = (int)x;
		}
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (m->topo.distance[i][j] != m->topo.distance[j][i]) {
				char rpath[64], what[128];

				snprintf(rpath, sizeof(rpath), "topology.numa_distance[%d]", i);
				snprintf(what, sizeof(what), "not symmetric: %d -> %d is %d, %d -> %d is %d", i,
					 j, m->topo.distance[i][j], j, i, m->topo.distance[j][i]);
				return jfail(c, rpath, what);
			}
	return 0;
}

/*
 * "cpu": {"vendor_id": "AuthenticAMD", "family": 25}, as /proc/cpuinfo
 * names them (cpu family in decimal): what the kernel knows of the part.
 */
static int parse_cpu(const struct json_in *c, json_object *o, struct machine *m)
{
	static const char *const known[] = { "vendor_id", "family", NULL };
	char vendor[64];

	if (!json_object_is_type(o, json_type_object))
		return jfail(c, "cpu", "expected an object (vendor_id, family)");
	if (json_in_known(c, o, "cpu.", known) ||
	    json_in_str(c, o, "cpu.", "vendor_id", true, vendor, sizeof(vendor)) ||
	    json_in_int(c, o, "cpu.", "family", true, 1, 255, &m->cpu_family))
		return -1;
	/* CPUID's vendor string is 12 characters; a longer one is no vendor, not a prefix. */
	if (strlen(vendor) >= sizeof(m->cpu_vendor))
		return jfail(c, "cpu.vendor_id", "longer than a CPUID vendor string (at most 15 characters)");
	snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "%s", vendor);
	return 0;
}

int machine_parse_json(const char *text, size_t len, const char *file, struct machine *m,
		       char *err, size_t errlen)
{
	static const char *const known[] = { "name", "description", "topology", "cpu", "cost_profile",
					     "idle_states", "costs", "ranges", "sources", NULL };
	struct json_in c = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen };
	json_object *root, *o;
	int ret = -1;

	if (json_doc_parse(text, len, file, &root, err, errlen))
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s:1: expected a JSON object", file);
		goto out;
	}
	if (json_in_known(&c, root, "", known) ||
	    json_in_str(&c, root, "", "name", true, m->name, sizeof(m->name)) ||
	    json_in_str(&c, root, "", "description", false, m->description, sizeof(m->description)))
		goto out;
	if (!json_object_object_get_ex(root, "topology", &o)) {
		jfail(&c, "topology", "missing");
		goto out;
	}
	if (!json_object_is_type(o, json_type_object)) {
		jfail(&c, "topology", "expected an object");
		goto out;
	}
	if (parse_topology(&c, o, m))
		goto out;
	if (json_object_object_get_ex(root, "cpu", &o) && parse_cpu(&c, o, m))
		goto out;
	if (json_object_object_get_ex(root, "cost_profile", &o)) {
		const struct preset_blob *b;
		char name[80], bname[96];

		if (json_in_str(&c, root, "", "cost_profile", true, name, sizeof(name)))
			goto out;
		snprintf(bname, sizeof(bname), "costs/%s", name);
		if (!(b = preset_blob_find(bname))) {
			jfail(&c, "cost_profile", "no built-in cost profile of that name (costs/*.json)");
			goto out;
		}
		snprintf(m->cost_profile, sizeof(m->cost_profile), "%s", name);
		if (costs_json_profile(b->text, b->len, bname, m, err, errlen))
			goto out;
	}
	if (costs_json_idle_and_costs(&c, root, m))
		goto out;
	if (costs_json_sources(&c, root, false))
		goto out;
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

