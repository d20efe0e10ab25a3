/*
 * preset.c - machine descriptions in JSON (machines/NAME.json, built into
 * the binary) and the dispatcher that loads any machine spec.
 *
 * A preset describes a regular machine by counts (sockets x nodes x LLCs x
 * clusters x cores x threads) plus the CPU numbering Linux uses on that
 * platform; the generator below expands it into a topology with the same
 * CPU numbers the real machine's sysfs shows. Costs come from cost
 * profiles (costs/NAME.json): costs/default.json, then the profile the
 * machine names ("cost_profile"), then costs given in the machine file
 * itself; --cost-profile replaces all but the defaults. Parsing uses json-c; errors name
 * the file, the line of the offending key and the key's path.
 */
#include "machine.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "presets_data.h"
#include "util/jsondoc.h"
#include "util/jsonin.h"
#include "util/jsonpos.h"
#include "util/textfile.h"

/* A message for the field at path (util/jsonin.h's style). */
static int jfail(const struct json_in *c, const char *path, const char *what)
{
	return json_in_fail(c, path, "%s", what);
}

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

static int parse_idle_states(const struct json_in *c, json_object *a, struct machine *m)
{
	static const char *const known[] = { "name", "exit_latency_us", "target_residency_us",
					     "polling", NULL };

	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) < 1 ||
	    json_object_array_length(a) > WS_MAX_IDLE_STATES) {
		char what[96];

		snprintf(what, sizeof(what), "expected an array of 1..%d states", WS_MAX_IDLE_STATES);
		return jfail(c, "idle_states", what);
	}
	m->nr_idle_states = (int)json_object_array_length(a);
	for (int i = 0; i < m->nr_idle_states; i++) {
		json_object *s = json_object_array_get_idx(a, (size_t)i), *pv;
		struct idle_state *st = &m->idle[i];
		char prefix[32];
		u64 lat = 0, res = 0;

		snprintf(prefix, sizeof(prefix), "idle_states[%d].", i);
		char ipath[48];

		snprintf(ipath, sizeof(ipath), "idle_states[%d]", i);
		if (!json_object_is_type(s, json_type_object))
			return jfail(c, ipath, "expected an object");
		if (json_in_known(c, s, prefix, known) ||
		    json_in_str(c, s, prefix, "name", true, st->name, sizeof(st->name)) ||
		    json_in_u64(c, s, prefix, "exit_latency_us", true, 0, 100000, &lat) ||
		    json_in_u64(c, s, prefix, "target_residency_us", true, 0, 1000000, &res))
			return -1;
		st->exit_latency_ns = lat * 1000;
		st->target_residency_ns = res * 1000;
		st->polling = false;
		if (json_object_object_get_ex(s, "polling", &pv)) {
			if (!json_object_is_type(pv, json_type_boolean))
				return jfail(c, strcat(ipath, ".polling"), "expected true or false");
			st->polling = json_object_get_boolean(pv);
		}
		/* cpuidle's rules: polling first and free to leave, then deeper
		 * states, each worth staying in at least as long as leaving it. */
		if (!st->name[0])
			return jfail(c, strcat(ipath, ".name"), "empty name");
		for (int j = 0; j < i; j++)
			if (!strcmp(m->idle[j].name, st->name))
				return jfail(c, strcat(ipath, ".name"), "repeats an earlier state's name");
		if (st->polling && (i > 0 && !m->idle[i - 1].polling))
			return jfail(c, strcat(ipath, ".polling"), "polling states come first");
		if (st->polling && st->exit_latency_ns)
			return jfail(c, strcat(ipath, ".exit_latency_us"),
				     "a polling state has no exit latency (0)");
		if (st->target_residency_ns < st->exit_latency_ns)
			return jfail(c, strcat(ipath, ".target_residency_us"),
				     "below the exit latency: the state could never pay off");
		if (i > 0 && st->exit_latency_ns < m->idle[i - 1].exit_latency_ns)
			return jfail(c, strcat(ipath, ".exit_latency_us"),
				     "states must be listed from shallowest to deepest");
		if (i > 0 && st->target_residency_ns < m->idle[i - 1].target_residency_ns)
			return jfail(c, strcat(ipath, ".target_residency_us"),
				     "below the shallower state's: listed from shallowest to deepest");
	}
	return 0;
}

static const char *const c2c_keys[C2C_NR + 1] = { "local", "smt", "cluster", "llc", "node",
					       "package", "remote", NULL };

#define F(f) { #f, offsetof(struct costs, f) }
const struct cost_ns_field cost_ns_fields[] = {
	F(context_switch_ns), F(mm_switch_ns), F(pipe_write_ns), F(pipe_read_ns), F(unix_send_ns),
	F(unix_recv_ns), F(copy_ns_per_kib), F(ttwu_ns), F(select_ns), F(scan_cpu_ns),
	F(ipi_send_ns), F(ipi_latency_ns), F(poll_wake_ns), F(fork_ns), F(clone_ns), F(exit_ns),
	F(thread_exit_ns), F(reap_ns), F(futex_ns), F(nanosleep_ns), F(tcp_send_ns),
	F(tcp_recv_ns), F(udp_send_ns), F(udp_recv_ns),
};
#undef F
const int nr_cost_ns_fields = (int)(sizeof(cost_ns_fields) / sizeof(cost_ns_fields[0]));

const u64 *costs_field_ns(const struct costs *k, const char *name)
{
	for (int i = 0; i < nr_cost_ns_fields; i++)
		if (!strcmp(cost_ns_fields[i].name, name))
			return (const u64 *)((const char *)k + cost_ns_fields[i].off);
	return NULL;
}

static int parse_costs(const struct json_in *c, json_object *o, struct costs *k)
{
	static const char *const known[] = { "c2c_ns", "context_switch_ns", "mm_switch_ns",
		"pipe_write_ns", "pipe_read_ns", "unix_send_ns", "unix_recv_ns",
		"copy_ns_per_kib", "ttwu_ns", "select_ns", "scan_cpu_ns", "ipi_send_ns",
		"ipi_latency_ns", "poll_wake_ns", "fork_ns", "clone_ns", "exit_ns",
		"thread_exit_ns", "reap_ns", "futex_ns", "nanosleep_ns", "tcp_send_ns", "tcp_recv_ns",
		"udp_send_ns", "udp_recv_ns", "smt_speed_pct", "cold_mlp",
		"jitter_pct_x10", NULL };
	const char *p = "costs.";
	const u64 max_ns = 100000000;
	u64 v;
	json_object *cc;

	if (json_in_known(c, o, p, known))
		return -1;
	if (json_object_object_get_ex(o, "c2c_ns", &cc)) {
		if (!json_object_is_type(cc, json_type_object))
			return jfail(c, "costs.c2c_ns", "expected an object");
		if (json_in_known(c, cc, "costs.c2c_ns.", c2c_keys))
			return -1;
		for (int i = 0; i < C2C_NR; i++)
			if (json_in_u64(c, cc, "costs.c2c_ns.", c2c_keys[i], false, 0, 100000,
				    &k->c2c_ns[i]))
				return -1;
	}
	for (int i = 0; i < nr_cost_ns_fields; i++)
		if (json_in_u64(c, o, p, cost_ns_fields[i].name, false, 0, max_ns,
			    (u64 *)((char *)k + cost_ns_fields[i].off)))
			return -1;
	v = k->smt_speed_pct;
	if (json_in_u64(c, o, p, "smt_speed_pct", false, 1, 100, &v))
		return -1;
	k->smt_speed_pct = (unsigned)v;
	v = k->cold_mlp;
	if (json_in_u64(c, o, p, "cold_mlp", false, 1, 64, &v))
		return -1;
	k->cold_mlp = (unsigned)v;
	v = k->jitter_pct_x10;
	if (json_in_u64(c, o, p, "jitter_pct_x10", false, 0, 250, &v))
		return -1;
	k->jitter_pct_x10 = (unsigned)v;
	return 0;
}

/*
 * "idle_states" (replacing the machine's) and "costs" (over what is already
 * set), as a machine file and a cost profile both give them.
 */
static int parse_idle_and_costs(const struct json_in *c, json_object *root, struct machine *m)
{
	json_object *o;

	if (json_object_object_get_ex(root, "idle_states", &o) && parse_idle_states(c, o, m))
		return -1;
	if (!json_object_object_get_ex(root, "costs", &o))
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return jfail(c, "costs", "expected an object");
	return parse_costs(c, o, &m->costs);
}

static int parse_profile(const char *text, size_t len, const char *file, struct machine *m,
			 char *err, size_t errlen);

int machine_parse_json(const char *text, size_t len, const char *file, struct machine *m,
		       char *err, size_t errlen)
{
	static const char *const known[] = { "name", "description", "topology", "cost_profile",
					     "idle_states", "costs", "sources", NULL };
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
	if (!json_object_object_get_ex(root, "topology", &o) ||
	    !json_object_is_type(o, json_type_object)) {
		jfail(&c, "topology", "missing or not an object");
		goto out;
	}
	if (parse_topology(&c, o, m))
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
		if (parse_profile(b->text, b->len, bname, m, err, errlen))
			goto out;
	}
	if (parse_idle_and_costs(&c, root, m))
		goto out;
	if (json_object_object_get_ex(root, "sources", &o)) {
		if (!json_object_is_type(o, json_type_object)) {
			jfail(&c, "sources", "expected an object of strings");
			goto out;
		}
		json_object_object_foreach(o, skey, sval) {
			if (!json_object_is_type(sval, json_type_string)) {
				char spath[128];

				snprintf(spath, sizeof(spath), "sources.%s", skey);
				jfail(&c, spath, "expected a string");
				goto out;
			}
		}
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

/*
 * A cost profile: "idle_states" (replacing the machine's) and "costs" (over
 * what is already set), with "name", "description" and "sources".
 */
static int parse_profile(const char *text, size_t len, const char *file, struct machine *m,
			 char *err, size_t errlen)
{
	static const char *const known[] = { "name", "description", "idle_states", "costs",
					     "sources", NULL };
	struct json_in c = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen };
	json_object *root, *o;
	char name[64];
	int ret = -1;

	if (json_doc_parse(text, len, file, &root, err, errlen))
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s:1: expected a JSON object", file);
		goto out;
	}
	if (json_in_known(&c, root, "", known) || json_in_str(&c, root, "", "name", true, name, sizeof(name)))
		goto out;
	if (parse_idle_and_costs(&c, root, m))
		goto out;
	if (json_object_object_get_ex(root, "sources", &o)) {
		if (!json_object_is_type(o, json_type_object)) {
			jfail(&c, "sources", "expected an object of strings");
			goto out;
		}
		/* Strings, or (as calibrate writes) an object of raw figures. */
		json_object_object_foreach(o, skey, sval) {
			bool ok = json_object_is_type(sval, json_type_string);

			if (json_object_is_type(sval, json_type_object)) {
				ok = true;
				json_object_object_foreach(sval, rkey, rval) {
					(void)rkey;
					ok &= json_object_is_type(rval, json_type_string) ||
					      json_object_is_type(rval, json_type_int) ||
					      json_object_is_type(rval, json_type_double);
				}
			}
			if (!ok) {
				char spath[160];

				snprintf(spath, sizeof(spath), "sources.%s", skey);
				jfail(&c, spath, "expected a string, or an object of strings and numbers");
				goto out;
			}
		}
	}
	if (!name[0]) {
		jfail(&c, "name", "empty");
		goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

/* The costs every machine starts from: costs/default.json. */
static int load_default_costs(struct machine *m, char *err, size_t errlen)
{
	const struct preset_blob *b = preset_blob_find("costs/default");

	if (!b) {
		snprintf(err, errlen, "built-in costs/default.json is missing");
		return -1;
	}
	return parse_profile(b->text, b->len, "costs/default.json", m, err, errlen);
}

int machine_apply_cost_profile(struct machine *m, const char *spec, char *err, size_t errlen)
{
	char bname[96];
	const struct preset_blob *b;
	int nr_idle = m->nr_idle_states;
	struct idle_state idle[WS_MAX_IDLE_STATES];

	/* Idle states of a machine read from sysfs stay unless the profile has some. */
	memcpy(idle, m->idle, sizeof(idle));
	memset(&m->costs, 0, sizeof(m->costs));
	m->nr_idle_states = 0;
	if (load_default_costs(m, err, errlen))
		return -1;
	m->nr_idle_states = 0; /* set again below if the profile lists none */
	snprintf(bname, sizeof(bname), "costs/%s", spec);
	if (!strchr(spec, '/') && !strstr(spec, ".json") && (b = preset_blob_find(bname))) {
		if (parse_profile(b->text, b->len, bname, m, err, errlen))
			return -1;
	} else {
		char *text;
		size_t len;

		if (!strchr(spec, '/') && !strstr(spec, ".json") && access(spec, F_OK) &&
		    errno == ENOENT) {
			int off = snprintf(err, errlen, "no cost profile \"%s\" (built in:", spec);

			for (int i = 0; i < preset_blob_count && off > 0 && (size_t)off < errlen; i++)
				if (!strncmp(preset_blobs[i].name, "costs/", 6))
					off += snprintf(err + off, errlen - (size_t)off, " %s",
							preset_blobs[i].name + 6);
			if (off > 0 && (size_t)off < errlen)
				snprintf(err + off, errlen - (size_t)off, "; or a file)");
			return -1;
		}
		if (text_file_read(spec, "cost profile", &text, &len, err, errlen))
			return -1;
		int r = parse_profile(text, len, spec, m, err, errlen);

		free(text);
		if (r)
			return -1;
	}
	if (!m->nr_idle_states) {
		/* The profile gives none: keep the machine's (from sysfs, say). */
		memcpy(m->idle, idle, sizeof(idle));
		m->nr_idle_states = nr_idle;
	} else {
		/* The profile's states replace whatever the reader assumed. */
		m->assumed[ASSUMED_IDLE][0] = '\0';
	}
	snprintf(m->cost_profile, sizeof(m->cost_profile), "%.63s", spec);
	return 0;
}

void machine_free(struct machine *m)
{
	free(m->smt);
	free(m->smt_cpus);
	free(m->smt_nr);
	m->smt = NULL;
	m->smt_cpus = m->smt_nr = NULL;
}

int machine_finish(struct machine *m, char *err, size_t errlen)
{
	struct topology *t = &m->topo;
	int n = t->nr_cpus;

	if (topology_finalize(t, err, errlen))
		return -1;
	nr_cpu_ids = n;
	machine_free(m);
	m->smt = malloc(sizeof(*m->smt) * (size_t)n);
	m->smt_cpus = malloc(sizeof(int) * (size_t)n * (size_t)t->smt_width);
	m->smt_nr = calloc((size_t)n, sizeof(int));
	if (!m->smt || !m->smt_cpus || !m->smt_nr) {
		machine_free(m);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/*
	 * Siblings share a (dense) core id: list each core's CPUs in one
	 * pass, ascending, then give every CPU its core's list and mask.
	 */
	int nr_cores = 0, w = t->smt_width;

	for (int c = 0; c < n; c++)
		if (t->cpu[c].core >= nr_cores)
			nr_cores = t->cpu[c].core + 1;
	int *core_cpus = malloc(sizeof(int) * (size_t)nr_cores * (size_t)w);
	int *core_nr = calloc((size_t)nr_cores, sizeof(int));

	if (!core_cpus || !core_nr) {
		free(core_cpus);
		free(core_nr);
		machine_free(m);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int c = 0; c < n; c++) {
		int k = t->cpu[c].core;

		core_cpus[k * w + core_nr[k]++] = c;
	}
	for (int c = 0; c < n; c++) {
		int k = t->cpu[c].core;

		cpumask_clear(&m->smt[c]);
		m->smt_nr[c] = core_nr[k];
		for (int i = 0; i < core_nr[k]; i++) {
			m->smt_cpus[c * w + i] = core_cpus[k * w + i];
			cpumask_set_cpu(core_cpus[k * w + i], &m->smt[c]);
		}
	}
	free(core_cpus);
	free(core_nr);
	return 0;
}

static int load_file(const char *path, struct machine *m, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	if (text_file_read(path, "machine file", &buf, &len, err, errlen))
		return -1;
	ret = machine_parse_json(buf, len, path, m, err, errlen);
	free(buf);
	return ret;
}

/*
 * lscpu and hwloc files list no idle states: the machine keeps
 * costs/default.json's, which the same machine's sysfs tree may not have.
 */
static void idle_states_from_default(struct machine *m, const char *file)
{
	char names[120] = "";
	size_t off = 0;

	for (int i = 0; i < m->nr_idle_states && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					m->idle[i].name);
	snprintf(m->assumed[ASSUMED_IDLE], sizeof(m->assumed[ASSUMED_IDLE]),
		 "idle states %s of profile default (costs/default.json): %.80s lists none", names,
		 file);
}

const char *machine_host_sysfs(void)
{
	const char *e = getenv("WAKESIM_SYSFS");

	return e && e[0] ? e : "/sys";
}

void machine_print_assumed(FILE *f, const struct machine *m, const char *prefix)
{
	for (int i = 0; i < MACHINE_ASSUMED_NR; i++)
		if (m->assumed[i][0])
			fprintf(f, "%sassumed: %s\n", prefix, m->assumed[i]);
}

void machine_assumed_text(const struct machine *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < MACHINE_ASSUMED_NR; i++)
		if (m->assumed[i][0] && off < len) {
			int r = snprintf(buf + off, len - off, "%s%s", off ? "\n" : "", m->assumed[i]);

			off += r > 0 ? (size_t)r : 0;
		}
}

int machine_load(const char *spec, struct machine *m, char *err, size_t errlen)
{
	const struct preset_blob *b;
	int ret;

	memset(m, 0, sizeof(*m));
	if (load_default_costs(m, err, errlen))
		return -1;
	if (!strcmp(spec, "host") || !strncmp(spec, "sysfs:", 6)) {
		ret = machine_read_sysfs(spec[0] == 'h' ? machine_host_sysfs() : spec + 6, m, err,
					 errlen);
		snprintf(m->name, sizeof(m->name), "%.63s", spec);
		snprintf(m->cost_profile, sizeof(m->cost_profile), "%s",
			 m->assumed[ASSUMED_IDLE][0] ? "default" : "default, sysfs idle states");
	} else if (!strncmp(spec, "lscpu:", 6) || !strncmp(spec, "hwloc:", 6)) {
		ret = spec[0] == 'l' ? machine_read_lscpu(spec + 6, m, err, errlen)
				     : machine_read_hwloc(spec + 6, m, err, errlen);
		snprintf(m->name, sizeof(m->name), "%.63s", spec);
		snprintf(m->cost_profile, sizeof(m->cost_profile), "default");
		idle_states_from_default(m, spec + 6);
	} else if (strchr(spec, '/') || strstr(spec, ".json")) {
		ret = load_file(spec, m, err, errlen);
	} else if (strncmp(spec, "costs/", 6) && (b = preset_blob_find(spec))) {
		char file[128];

		snprintf(file, sizeof(file), "machines/%s.json", spec);
		ret = machine_parse_json(b->text, b->len, file, m, err, errlen);
	} else {
		char names[512] = "";

		for (int i = 0; i < machine_preset_count(); i++) {
			strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
			strncat(names, machine_preset_name(i), sizeof(names) - strlen(names) - 1);
		}
		snprintf(err, errlen,
			 "unknown machine \"%s\" (presets: %s; or host, sysfs:DIR, hwloc:FILE.xml, "
			 "lscpu:FILE, FILE.json)",
			 spec, names);
		return -1;
	}
	if (ret)
		return -1;
	if (machine_finish(m, err, errlen)) {
		char inner[256];
		bool sysfs = !strcmp(spec, "host") || !strncmp(spec, "sysfs:", 6);

		snprintf(inner, sizeof(inner), "%s", err);
		snprintf(err, errlen, "machine %s: %s%s", spec, inner,
			 sysfs ? " (see the tree's cpu*/topology/*_list, cpu*/cache/index*/shared_cpu_list "
				 "and physical_package_id files)"
			       : "");
		return -1;
	}
	return 0;
}

int machine_preset_count(void)
{
	int n = 0;

	for (int i = 0; i < preset_blob_count; i++)
		n += strncmp(preset_blobs[i].name, "costs/", 6) != 0;
	return n;
}

const char *machine_preset_name(int i)
{
	for (int j = 0; j < preset_blob_count; j++) {
		if (!strncmp(preset_blobs[j].name, "costs/", 6))
			continue;
		if (i-- == 0)
			return preset_blobs[j].name;
	}
	return NULL;
}

int machine_preset_describe(int i, char *buf, size_t len)
{
	struct machine m;
	char err[256];

	if (machine_load(machine_preset_name(i), &m, err, sizeof(err))) {
		snprintf(buf, len, "(broken preset: %s)", err);
		return -1;
	}
	snprintf(buf, len, "%d CPUs: %s", m.topo.nr_cpus, m.description);
	machine_free(&m);
	return 0;
}
