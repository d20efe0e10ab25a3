/*
 * hwloc.c - a machine from an hwloc XML topology (`--machine hwloc:FILE`,
 * what `lstopo --of xml` writes), read with libhwloc.
 *
 * Per PU (a CPU, by its OS index): its Core, its cluster (an L2 cache or a
 * "Cluster" group holding several cores, as the kernel's cluster_cpus
 * follow L2 sharing on x86 and the PPTT on Arm), its last-level cache (the
 * outermost cache above it), its Package and the NUMA node whose cpuset
 * holds it. Dumps made from CPUID alone have one NUMA node for the whole
 * machine and no distances: they get a node per package, as Linux's
 * default (NPS1 on EPYC, one node per socket on Xeon) gives, at SLIT
 * distance 10 local and 20 remote, the kernel's REMOTE_DISTANCE when the
 * firmware gives none. Capacities are 1024: hwloc's CPU kinds do not give
 * the kernel's cpu_capacity. Version 3 XML (hwloc 3's lstopo) is read by
 * libhwloc 2 as version 2.
 *
 * libhwloc runs in a child process: `make fuzz` found XML that makes
 * libhwloc 2.9 crash (tests/data/hwloc/fuzz-crash.xml), and bad input must
 * give an error, not take wakesim down.
 */
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "util/fdio.h"
#include "util/isolate.h"
#include "util/textfile.h"

/* The outermost cache above pu (the LLC), or NULL. */
static hwloc_obj_t llc_of(hwloc_obj_t pu)
{
	hwloc_obj_t llc = NULL;

	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_cache(o->type) && o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION)
			llc = o;
	return llc;
}

/* A cluster: an L2 cache, or a Cluster group, holding more than one core. */
static hwloc_obj_t cluster_of(hwloc_topology_t topo, hwloc_obj_t pu)
{
	for (hwloc_obj_t o = pu->parent; o; o = o->parent) {
		bool l2 = o->type == HWLOC_OBJ_L2CACHE;
		bool group = o->type == HWLOC_OBJ_GROUP && o->subtype && !strcmp(o->subtype, "Cluster");

		if ((l2 || group) &&
		    hwloc_get_nbobjs_inside_cpuset_by_type(topo, o->cpuset, HWLOC_OBJ_CORE) > 1)
			return o;
		if (o->type == HWLOC_OBJ_L3CACHE || o->type == HWLOC_OBJ_PACKAGE)
			break;
	}
	return NULL;
}

static int read_in_process(const char *file, struct machine *m, char *err, size_t errlen)
{
	struct topology *t = &m->topo;
	hwloc_topology_t topo;
	char *text = NULL;
	size_t len = 0;
	int ret = -1;

	if (!file[0]) {
		snprintf(err, errlen, "hwloc: needs a file (hwloc:FILE.xml)");
		return -1;
	}
	if (text_file_read(file, "hwloc XML file", &text, &len, err, errlen))
		return -1;
	if (hwloc_topology_init(&topo)) {
		snprintf(err, errlen, "%s: out of memory", file);
		free(text);
		return -1;
	}
	/*
	 * libhwloc 2 refuses the version 3 XML that newer lstopo writes,
	 * though the objects we read are spelled the same: present it as
	 * version 2 (hwloc ignores the attributes it does not know).
	 */
	char *v3 = strstr(text, "<topology version=\"3.");

	if (v3 && HWLOC_API_VERSION < 0x00030000)
		v3[strlen("<topology version=\"")] = '2';
	if (hwloc_topology_set_xmlbuffer(topo, text, (int)len + 1) || hwloc_topology_load(topo)) {
		snprintf(err, errlen, "%s: not an hwloc XML topology that libhwloc can read "
			 "(HWLOC_XML_VERBOSE=1 shows why)", file);
		goto out;
	}
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);

	if (n <= 0 || n > WS_MAX_CPUS) {
		snprintf(err, errlen, "%s: %d PUs; wakesim takes 1 to %d CPUs", file, n, WS_MAX_CPUS);
		goto out;
	}
	/* libhwloc drops a PU its parents' cpusets leave out; the file meant it. */
	int in_file = 0, nr_no_llc = 0;

	for (const char *p = text; (p = strstr(p, "type=\"PU\"")); p++)
		in_file++;
	if (in_file > n) {
		snprintf(err, errlen, "%s: %d PU objects in the file, %d that libhwloc keeps: the "
			 "others lie outside their parents' cpusets (an inconsistent file)", file,
			 in_file, n);
		goto out;
	}
	t->nr_cpus = n;
	for (int i = 0; i < n; i++)
		t->cpu[i].core = -1;
	int nr_numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	int nr_pkg = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	bool node_per_pkg = nr_numa <= 1 && nr_pkg > 1;

	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
		int cpu = (int)pu->os_index;

		if (cpu < 0 || cpu >= n || t->cpu[cpu].core != -1) {
			snprintf(err, errlen, "%s: PU os_index %u: wakesim needs CPUs numbered 0..%d, "
				 "each once", file, pu->os_index, n - 1);
			goto out;
		}
		struct cpu_topo *c = &t->cpu[cpu];
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu);
		hwloc_obj_t cl = cluster_of(topo, pu), llc = llc_of(pu);

		/* Groupings by their first CPU; topology_finalize() renumbers densely. */
		c->core = core ? hwloc_bitmap_first(core->cpuset) : cpu;
		c->cluster = cl ? hwloc_bitmap_first(cl->cpuset) : c->core;
		c->package = pkg ? (int)pkg->logical_index : 0;
		c->llc = llc ? hwloc_bitmap_first(llc->cpuset) : -1 - c->package;
		nr_no_llc += !llc;
		c->node = 0;
		if (node_per_pkg) {
			c->node = c->package;
		} else {
			for (int k = 0; k < nr_numa; k++) {
				hwloc_obj_t nd = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)k);

				if (hwloc_bitmap_isset(nd->cpuset, pu->os_index))
					c->node = (int)nd->os_index;
			}
		}
		c->capacity = SCHED_CAPACITY_SCALE;
		if (llc && llc->attr->cache.size)
			m->llc_bytes = llc->attr->cache.size;
		hwloc_obj_t l2 = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L2CACHE, pu);

		if (l2 && l2->attr->cache.size)
			m->l2_bytes = l2->attr->cache.size;
	}
	/* Nodes and distances: hwloc's latency matrix if the dump has one. */
	int nodes = 0;

	for (int i = 0; i < n; i++)
		if (t->cpu[i].node + 1 > nodes)
			nodes = t->cpu[i].node + 1;
	if (nodes > WS_MAX_NODES) {
		snprintf(err, errlen, "%s: NUMA node %d; wakesim takes nodes 0..%d", file, nodes - 1,
			 WS_MAX_NODES - 1);
		goto out;
	}
	t->nr_nodes = nodes;
	for (int a = 0; a < nodes; a++)
		for (int b = 0; b < nodes; b++)
			t->distance[a][b] = a == b ? 10 : 20;
	struct hwloc_distances_s *dist[1];
	unsigned nr = 1;

	if (!node_per_pkg &&
	    !hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, dist,
					 HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) && nr == 1) {
		for (unsigned a = 0; a < dist[0]->nbobjs; a++)
			for (unsigned b = 0; b < dist[0]->nbobjs; b++) {
				unsigned x = dist[0]->objs[a]->os_index, y = dist[0]->objs[b]->os_index;

				if (x < (unsigned)nodes && y < (unsigned)nodes)
					t->distance[x][y] = (int)dist[0]->values[a * dist[0]->nbobjs + b];
			}
		hwloc_distances_release(topo, dist[0]);
	}
	/* The CPUID the dump was made from, as hwloc's x86 backend records it on each package. */
	hwloc_obj_t pkg0 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
	const char *vendor = pkg0 ? hwloc_obj_get_info_by_name(pkg0, "CPUVendor") : NULL;
	const char *family = pkg0 ? hwloc_obj_get_info_by_name(pkg0, "CPUFamilyNumber") : NULL;

	if (vendor && family) {
		char *end;
		long f = strtol(family, &end, 10);

		if (end == family || *end || f < 1 || f > 255 || !vendor[0] ||
		    strlen(vendor) >= sizeof(m->cpu_vendor)) {
			snprintf(err, errlen, "%s: package 0: CPUVendor \"%.32s\" and CPUFamilyNumber "
				 "\"%.32s\" are not a CPUID vendor (1 to %zu characters) and a family in "
				 "1..255", file, vendor, family, sizeof(m->cpu_vendor) - 1);
			goto out;
		}
		snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "%s", vendor);
		m->cpu_family = (int)f;
	}
	snprintf(m->description, sizeof(m->description), "read from %s (hwloc XML)", file);
	if (nr_no_llc)
		snprintf(m->assumed[ASSUMED_LLC], sizeof(m->assumed[ASSUMED_LLC]),
			 "LLC = package (no cache object in %s above %d of %d PUs)", file, nr_no_llc, n);
	ret = 0;
out:
	hwloc_topology_destroy(topo);
	free(text);
	return ret;
}

/* What the child sends back. */
struct hwloc_result {
	int ok;
	char err[512];
	char description[256];
	char assumed_llc[sizeof(((struct machine *)0)->assumed[0])];
	u64 l2_bytes, llc_bytes;
	char cpu_vendor[sizeof(((struct machine *)0)->cpu_vendor)];
	int cpu_family;
	struct topology topo;
};

int machine_read_hwloc(const char *file, struct machine *m, char *err, size_t errlen)
{
	struct hwloc_result *r = calloc(1, sizeof(*r));
	struct isolate is;
	bool crashed;
	int ret = -1, child;

	if (!r || (child = isolate_start(&is, "HWLOC_XML_VERBOSE")) < 0) {
		snprintf(err, errlen, "%s: %s", file, r ? strerror(errno) : "out of memory");
		free(r);
		return -1;
	}
	if (child) {
		r->ok = !read_in_process(file, m, r->err, sizeof(r->err));
		r->topo = m->topo;
		r->l2_bytes = m->l2_bytes;
		r->llc_bytes = m->llc_bytes;
		snprintf(r->cpu_vendor, sizeof(r->cpu_vendor), "%s", m->cpu_vendor);
		r->cpu_family = m->cpu_family;
		snprintf(r->description, sizeof(r->description), "%s", m->description);
		snprintf(r->assumed_llc, sizeof(r->assumed_llc), "%s", m->assumed[ASSUMED_LLC]);
		_exit(write_all(is.fd, r, sizeof(*r)) ? 1 : 0);
	}
	int got = read_all(is.fd, r, sizeof(*r));

	if (isolate_end(&is, &crashed) || got) {
		snprintf(err, errlen, "%s: not an hwloc XML topology: libhwloc failed on it%s", file,
			 crashed ? " (it crashed)" : "");
	} else if (!r->ok) {
		snprintf(err, errlen, "%s", r->err);
	} else {
		m->topo = r->topo;
		m->l2_bytes = r->l2_bytes;
		m->llc_bytes = r->llc_bytes;
		snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "%s", r->cpu_vendor);
		m->cpu_family = r->cpu_family;
		snprintf(m->description, sizeof(m->description), "%s", r->description);
		snprintf(m->assumed[ASSUMED_LLC], sizeof(m->assumed[ASSUMED_LLC]), "%s",
			 r->assumed_llc);
		ret = 0;
	}
	free(r);
	return ret;
}
