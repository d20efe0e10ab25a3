/*
 * test_machine.c - machines from presets, sysfs trees and JSON: the CPUs,
 * cores, clusters, LLCs, nodes and distances each must describe, derived
 * by hand from the vendors' layouts, and the Kunpeng 920 preset checked
 * against a real machine's sysfs dump.
 */
#include "testutil.h"

#include "machine/topology.h"

#include <sys/stat.h>

static void expect_mask(const struct machine *m, enum topo_level l, int cpu, const char *list)
{
	struct cpumask want, got;
	char err[128], buf[256], buf2[256];

	assert_int_equal(cpulist_parse(list, &want, err, sizeof(err)), 0);
	topology_mask(&m->topo, l, cpu, &got);
	if (!cpumask_equal(&want, &got)) {
		print_error("cpu %d level %d: want %s got %s\n", cpu, l,
			    cpumask_print_list(&want, buf, sizeof(buf)),
			    cpumask_print_list(&got, buf2, sizeof(buf2)));
		fail();
	}
}

/* 2 sockets x 12 CCX x 8 cores x SMT2; Linux numbers thread 1 of core c as c + 192. */
static void test_epyc9654(void **state)
{
	(void)state;
	struct machine *m = tu_machine("epyc9654-2s");

	assert_int_equal(m->topo.nr_cpus, 384);
	assert_int_equal(m->topo.nr_cores, 192);
	assert_int_equal(m->topo.nr_llcs, 24);
	assert_int_equal(m->topo.nr_packages, 2);
	assert_int_equal(m->topo.nr_nodes, 2);
	assert_int_equal(m->topo.smt_width, 2);
	expect_mask(m, TOPO_CORE, 0, "0,192");
	expect_mask(m, TOPO_CORE, 200, "8,200");
	expect_mask(m, TOPO_CLUSTER, 0, "0,192"); /* no cluster level on Zen */
	expect_mask(m, TOPO_LLC, 0, "0-7,192-199");
	expect_mask(m, TOPO_LLC, 100, "96-103,288-295");
	expect_mask(m, TOPO_NODE, 191, "96-191,288-383");
	expect_mask(m, TOPO_PACKAGE, 0, "0-95,192-287");
	assert_int_equal(m->topo.distance[0][1], 32);
	assert_int_equal(machine_c2c_class(m, 0, 192), C2C_SMT);
	assert_int_equal(machine_c2c_class(m, 0, 7), C2C_LLC);
	assert_int_equal(machine_c2c_class(m, 0, 8), C2C_NODE);
	assert_int_equal(machine_c2c_class(m, 0, 96), C2C_REMOTE);
	assert_int_equal(m->nr_idle_states, 3);
	assert_true(m->idle[0].polling);
	assert_int_equal(m->idle[2].exit_latency_ns, 100000);
	tu_machine_free(m);
}

/* 920-4826: 2 sockets x 2 dies x 24 cores, clusters of 4, one L3 per die. */
static void test_kunpeng920_48(void **state)
{
	(void)state;
	struct machine *m = tu_machine("kunpeng920-48");

	assert_int_equal(m->topo.nr_cpus, 96);
	assert_int_equal(m->topo.smt_width, 1);
	assert_int_equal(m->topo.nr_clusters, 24);
	expect_mask(m, TOPO_CLUSTER, 30, "28-31");
	expect_mask(m, TOPO_LLC, 30, "24-47");
	expect_mask(m, TOPO_NODE, 30, "24-47");
	expect_mask(m, TOPO_PACKAGE, 30, "0-47");
	assert_int_equal(m->topo.distance[1][2], 25);
	assert_int_equal(machine_c2c_class(m, 28, 31), C2C_CLUSTER);
	assert_int_equal(machine_c2c_class(m, 24, 31), C2C_LLC);
	tu_machine_free(m);
}

static void test_other_presets(void **state)
{
	(void)state;
	struct machine *m = tu_machine("zen2-7742-2s");

	/* 16 CCX of 4 cores per socket. */
	assert_int_equal(m->topo.nr_cpus, 256);
	assert_int_equal(m->topo.nr_llcs, 32);
	expect_mask(m, TOPO_LLC, 0, "0-3,128-131");
	tu_machine_free(m);

	m = tu_machine("spr-8480-2s");
	/* One 56-core LLC per socket. */
	assert_int_equal(m->topo.nr_cpus, 224);
	expect_mask(m, TOPO_LLC, 0, "0-55,112-167");
	expect_mask(m, TOPO_CORE, 0, "0,112");
	assert_int_equal(m->idle[3].exit_latency_ns, 290000);
	assert_int_equal(m->idle[3].target_residency_ns, 800000);
	tu_machine_free(m);

	m = tu_machine("kunpeng920");
	assert_int_equal(m->topo.nr_cpus, 128);
	assert_int_equal(m->topo.nr_llcs, 4);
	assert_int_equal(m->topo.nr_clusters, 32);
	tu_machine_free(m);

	/* 2 x 12 CCDs of 16 Zen 5c cores, SMT2: thread 1 of core c is c + 384. */
	m = tu_machine("epyc9965-2s");
	assert_int_equal(m->topo.nr_cpus, 768);
	assert_int_equal(m->topo.nr_llcs, 24);
	expect_mask(m, TOPO_LLC, 16, "16-31,400-415");
	expect_mask(m, TOPO_PACKAGE, 0, "0-191,384-575");
	assert_int_equal(machine_c2c_class(m, 16, 400), C2C_SMT);
	assert_int_equal(machine_c2c_class(m, 16, 415), C2C_LLC);
	assert_int_equal(machine_c2c_class(m, 16, 32), C2C_NODE);
	assert_int_equal(machine_c2c_class(m, 16, 192), C2C_REMOTE);
	tu_machine_free(m);

	/* 2 x 128 cores in one LLC per socket (SNC off), SMT2. */
	m = tu_machine("xeon6980p-2s");
	assert_int_equal(m->topo.nr_cpus, 512);
	expect_mask(m, TOPO_LLC, 5, "0-127,256-383");
	expect_mask(m, TOPO_CORE, 300, "44,300");
	tu_machine_free(m);
}

/*
 * The limit is the distributions' NR_CPUS, 8192: a machine of 8192 CPUs
 * (2 x 128 LLCs of 16 SMT2 cores) runs, and the siblings' lists the hot
 * loops walk agree with the masks (thread 1 of core c is c + 4096); one of
 * 8194 (2 x 17 x 241) is refused with the limit named.
 */
static void test_cpu_limit(void **state)
{
	(void)state;
	char out[4096];
	struct machine *m = tu_machine("tests/data/cpus-8192.json");
	int c, k, n = 0, want[] = { 4095, 8191 };

	assert_int_equal(m->topo.nr_cpus, 8192);
	expect_mask(m, TOPO_LLC, 8191, "4080-4095,8176-8191");
	for_each_smt_cpu(c, k, m, 8191)
		assert_int_equal(c, want[n++]);
	assert_int_equal(n, 2);
	assert_true(cpumask_equal(machine_smt_mask(m, 4095), machine_smt_mask(m, 8191)));
	assert_int_equal(machine_c2c_class(m, 0, 4096), C2C_SMT);
	assert_int_equal(machine_c2c_class(m, 0, 4095), C2C_REMOTE);
	tu_machine_free(m);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/cpus-8192.json -- "
			       "hackbench -g 1 -l 10", tu_wakesim()), 0);
	assert_non_null(strstr(out, "machine cpus-8192 (8192 CPUs)"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/cpus-8194.json -- "
			       "hackbench -g 1 -l 10", tu_wakesim()), 2);
	assert_non_null(strstr(out, "cpus-8194.json:4: field \"topology.sockets\": the counts give 8194 "
				    "CPUs, more than 8192"));
}

/*
 * Hybrid presets from core_types: Alder Lake's P-cores are cpu0-11 with
 * adjacent siblings, its E-cores cpu12-19 in modules of 4 (machines.md
 * A9); stock capacity 1024, E-cores at speed 597. The GS101's clusters
 * carry capacities 161, 499, 1024 and run at them.
 */
static void test_hybrid_presets(void **state)
{
	(void)state;
	struct machine *m = tu_machine("alderlake-12700h");

	assert_int_equal(m->topo.nr_cpus, 20);
	assert_int_equal(m->topo.nr_cores, 14);
	assert_int_equal(m->topo.nr_llcs, 1);
	expect_mask(m, TOPO_CORE, 10, "10-11");
	expect_mask(m, TOPO_CORE, 12, "12");
	expect_mask(m, TOPO_CLUSTER, 13, "12-15");
	expect_mask(m, TOPO_CLUSTER, 2, "2-3");
	assert_int_equal(m->topo.cpu[11].capacity, 1024);
	assert_int_equal(m->topo.cpu[11].speed, 1024);
	assert_int_equal(m->topo.cpu[19].capacity, 1024);
	assert_int_equal(m->topo.cpu[19].speed, 597);
	assert_int_equal(m->idle[2].exit_latency_ns, 170000);
	tu_machine_free(m);

	m = tu_machine("tensor-gs101");
	assert_int_equal(m->topo.nr_cpus, 8);
	assert_int_equal(m->topo.nr_clusters, 3);
	expect_mask(m, TOPO_CLUSTER, 4, "4-5");
	assert_int_equal(m->topo.cpu[3].capacity, 161);
	assert_int_equal(m->topo.cpu[4].capacity, 499);
	assert_int_equal(m->topo.cpu[6].capacity, 1024);
	assert_int_equal(m->topo.cpu[3].speed, 161);
	tu_machine_free(m);
}

/* The preset must describe the real Kunpeng 920 of hwloc's test suite. */
static void test_kunpeng920_equals_real_dump(void **state)
{
	(void)state;
	char dir[] = "/tmp/wakesim-kp-XXXXXX", out[4096], spec[512], why[256];
	const char *src = getenv("WAKESIM_TESTDATA") ? getenv("WAKESIM_TESTDATA") : "tests/data";

	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "tar -xjf %s/128arm-2pa2n8cluster4co.tar.bz2 -C %s",
			       src, dir),
			 0);
	snprintf(spec, sizeof(spec), "sysfs:%s/128arm-2pa2n8cluster4co", dir);
	struct machine *real = tu_machine(spec);
	struct machine *preset = tu_machine("kunpeng920");

	if (!topology_equal(&preset->topo, &real->topo, true, why, sizeof(why))) {
		print_error("kunpeng920 preset differs from the real dump: %s\n", why);
		fail();
	}
	/* And spot checks straight from the dump's files. */
	expect_mask(real, TOPO_CLUSTER, 5, "4-7");
	expect_mask(real, TOPO_LLC, 5, "0-31");
	assert_int_equal(real->topo.distance[0][3], 33);
	assert_int_equal(real->topo.distance[1][2], 25);
	/* Its proc/cpuinfo is arm64's: an implementer, no x86 vendor_id. */
	assert_string_equal(real->cpu_vendor, "");
	assert_int_equal(real->cpu_family, 0);
	tu_machine_free(real);
	tu_machine_free(preset);
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/*
 * hwloc XML (issue 8). hwloc's dump of a real 2x EPYC 9654 gives the
 * epyc9654-2s preset's topology (cores, clusters, LLCs, packages and the
 * node per package a CPUID dump lacks; distances apart), with Genoa's
 * 1 MiB L2 and 32 MiB L3. The Raptor Lake laptop's 8 E-cores share an L2
 * per module of 4: 6 P-cores + 2 modules = 8 clusters, 14 cores, 20 CPUs,
 * read with or without the "hwloc:" prefix.
 * This machine's lstopo XML equals this machine's sysfs tree.
 */
static void test_hwloc_xml(void **state)
{
	(void)state;
	char why[256];
	struct machine *x = tu_machine("hwloc:tests/data/hwloc/AMD-19h-Zen4-2xEpyc-9654.xml");
	struct machine *p = tu_machine("epyc9654-2s");

	if (!topology_equal(&p->topo, &x->topo, false, why, sizeof(why))) {
		print_error("epyc9654-2s differs from hwloc's EPYC 9654 XML: %s\n", why);
		fail();
	}
	assert_int_equal(x->l2_bytes, 1 << 20);
	assert_int_equal(x->llc_bytes, 32 << 20);
	/* The CPUID the dump was made from: family 0x19, as the preset says. */
	assert_string_equal(x->cpu_vendor, "AuthenticAMD");
	assert_int_equal(x->cpu_family, 25);
	assert_string_equal(p->cpu_vendor, "AuthenticAMD");
	assert_int_equal(p->cpu_family, 25);
	assert_int_equal(x->topo.nr_nodes, 2);
	assert_int_equal(x->topo.distance[0][1], 20);
	expect_mask(x, TOPO_CORE, 0, "0,192");
	expect_mask(x, TOPO_LLC, 0, "0-7,192-199");
	tu_machine_free(x);
	tu_machine_free(p);

	/* A bare FILE.xml, as lstopo names it, reads the same (no "hwloc:"). */
	for (int i = 0; i < 2; i++) {
		x = tu_machine(i ? "tests/data/hwloc/Intel-RaptorLake-Corei7-1370P.xml"
				 : "hwloc:tests/data/hwloc/Intel-RaptorLake-Corei7-1370P.xml");
		assert_int_equal(x->topo.nr_cpus, 20);
		assert_int_equal(x->topo.nr_cores, 14);
		assert_int_equal(x->topo.nr_clusters, 8);
		assert_int_equal(x->topo.nr_llcs, 1);
		assert_string_equal(x->cpu_vendor, "GenuineIntel");
		assert_int_equal(x->cpu_family, 6);
		tu_machine_free(x);
	}

	x = tu_machine("hwloc:tests/data/hwloc/host-2cpu.xml");
	p = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	if (!topology_equal(&p->topo, &x->topo, true, why, sizeof(why))) {
		print_error("this machine's lstopo XML differs from its sysfs tree: %s\n", why);
		fail();
	}
	tu_machine_free(x);
	tu_machine_free(p);
}

/*
 * lscpu -p=CPU,CORE,SOCKET,NODE,CACHE (issue 8). A machine written by hand
 * (tests/data/lscpu-2s8c-*.txt): 2 sockets and nodes, 4 cores each, an L2
 * per pair of cores, an L3 per socket, SMT siblings at CPU + 8. So: 16
 * CPUs, 8 cores, 4 clusters (the shared L2s), 2 LLCs; CPU 0's core is
 * {0, 8}, its cluster {0, 1, 8, 9}, its LLC {0-3, 8-11}. util-linux's
 * current layout (a column per cache) and its older one (caches joined by
 * colons) give the same. This machine's lscpu equals its sysfs tree.
 */
static void test_lscpu(void **state)
{
	(void)state;
	char why[256];
	struct machine *a = tu_machine("lscpu:tests/data/lscpu-2s8c-new.txt");
	struct machine *b = tu_machine("lscpu:tests/data/lscpu-2s8c-old.txt");

	assert_int_equal(a->topo.nr_cpus, 16);
	assert_int_equal(a->topo.nr_cores, 8);
	assert_int_equal(a->topo.nr_clusters, 4);
	assert_int_equal(a->topo.nr_llcs, 2);
	assert_int_equal(a->topo.nr_nodes, 2);
	assert_int_equal(a->topo.distance[0][1], 20);
	expect_mask(a, TOPO_CORE, 0, "0,8");
	expect_mask(a, TOPO_CLUSTER, 0, "0-1,8-9");
	expect_mask(a, TOPO_LLC, 0, "0-3,8-11");
	expect_mask(a, TOPO_NODE, 15, "4-7,12-15");
	if (!topology_equal(&a->topo, &b->topo, true, why, sizeof(why))) {
		print_error("the two lscpu layouts differ: %s\n", why);
		fail();
	}
	tu_machine_free(a);
	tu_machine_free(b);
	a = tu_machine("lscpu:tests/data/host-2cpu.lscpu");
	b = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	if (!topology_equal(&b->topo, &a->topo, true, why, sizeof(why))) {
		print_error("this machine's lscpu differs from its sysfs tree: %s\n", why);
		fail();
	}
	tu_machine_free(a);
	tu_machine_free(b);
}

static void test_host_sysfs_copy(void **state)
{
	(void)state;
	struct machine *m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");

	/* 2 vCPUs, separate cores, one shared L3, one node, haltpoll cpuidle. */
	assert_int_equal(m->topo.nr_cpus, 2);
	assert_int_equal(m->topo.nr_cores, 2);
	assert_int_equal(m->topo.nr_llcs, 1);
	assert_int_equal(m->topo.nr_nodes, 1);
	assert_int_equal(m->nr_idle_states, 2);
	assert_string_equal(m->idle[0].name, "POLL");
	assert_true(m->idle[0].polling);
	assert_false(m->idle[1].polling);
	assert_int_equal(m->idle[1].exit_latency_ns, 1000);
	/* cpu0/cache/index2/size "1024K" (level 2) and index3/size "32768K" (level 3). */
	assert_int_equal(m->l2_bytes, 1024 * 1024);
	assert_int_equal(m->llc_bytes, 32768 * 1024);
	tu_machine_free(m);
}

/*
 * --machine host on a tree with no cpuidle/ and no cache/ (issue 15: a fresh
 * machine of this kind). The reader assumes what the kernel does and says
 * so: the LLC is the package (the fallback when no cache is known), and the
 * idle loop is default_idle_call()'s halt, one state exiting as
 * costs/default.json's C1 (1 us). Host detection reads $WAKESIM_SYSFS, so
 * this runs the same on every machine.
 */
static void test_host_without_cpuidle_or_caches(void **state)
{
	(void)state;
	char out[8192], why[256];
	struct machine *b = tu_machine("sysfs:tests/data/bare-2cpu-sysfs");
	struct machine *h = tu_machine(TU_HOST);

	assert_int_equal(b->topo.nr_cpus, 2);
	assert_int_equal(b->topo.nr_llcs, 1);
	expect_mask(b, TOPO_LLC, 0, "0-1");
	assert_int_equal(b->nr_idle_states, 1);
	assert_string_equal(b->idle[0].name, "halt");
	assert_false(b->idle[0].polling);
	assert_int_equal(b->idle[0].exit_latency_ns, 1000);
	assert_int_equal(b->idle[0].target_residency_ns, 1000);
	assert_int_equal(b->l2_bytes, 0); /* no cache/: no sizes either */
	assert_int_equal(b->llc_bytes, 0);
	assert_non_null(strstr(b->assumed[ASSUMED_LLC], "LLC = package (no cache info in "
				"tests/data/bare-2cpu-sysfs/devices/system/cpu/cpu*/cache for 2 of 2 CPUs)"));
	assert_non_null(strstr(b->assumed[ASSUMED_IDLE], "one idle state \"halt\" "
				"(default_idle_call()), exit 1 us as C1 of costs/default.json: no "
				"cpuidle states in tests/data/bare-2cpu-sysfs (driver absent)"));
	assert_string_equal(b->cost_profile, "default");
	/* The same machine with its caches: one LLC of both CPUs, nothing assumed. */
	if (!topology_equal(&h->topo, &b->topo, true, why, sizeof(why))) {
		print_error("the bare tree's topology differs from the full one: %s\n", why);
		fail();
	}
	assert_string_equal(h->assumed[ASSUMED_LLC], "");
	assert_string_equal(h->assumed[ASSUMED_IDLE], "");
	assert_string_equal(h->cost_profile, "default, sysfs idle states");
	tu_machine_free(b);
	tu_machine_free(h);

	/* $WAKESIM_SYSFS is where `host` reads, and every output says what was assumed. */
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/bare-2cpu-sysfs %s topo "
			       "--machine host | head -4", tu_wakesim()), 0);
	assert_string_equal(out, "machine host: 2 CPUs, 2 cores, 1 LLCs, 1 nodes, 1 packages\n"
			    "idle states (exit/target residency, us): halt 1/1\n"
			    "assumed: LLC = package (no cache info in tests/data/bare-2cpu-sysfs/"
			    "devices/system/cpu/cpu*/cache for 2 of 2 CPUs)\n"
			    "assumed: one idle state \"halt\" (default_idle_call()), exit 1 us as C1 "
			    "of costs/default.json: no cpuidle states in tests/data/bare-2cpu-sysfs "
			    "(driver absent)\n");
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/host-2cpu-sysfs %s topo "
			       "--machine host | head -3", tu_wakesim()), 0);
	assert_null(strstr(out, "assumed"));
	assert_non_null(strstr(out, "idle states (exit/target residency, us): POLL 0/0 (polling) "
				    "haltpoll idle 1/1\n"));
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/bare-2cpu-sysfs %s run "
			       "--machine host -- hackbench -g 1 -l 5", tu_wakesim()), 0);
	assert_non_null(strstr(out, "costs default, workload"));
	assert_non_null(strstr(out, "\nwakesim: assumed: LLC = package (no cache info in "));
	assert_non_null(strstr(out, "\nwakesim: assumed: one idle state \"halt\""));
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/bare-2cpu-sysfs %s run "
			       "--json -- hackbench -g 1 -l 5 | jq -r '.assumed | length'",
			       tu_wakesim()), 0);
	assert_string_equal(out, "2\n");
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/bare-2cpu-sysfs %s compare "
			       "--quiet --runs 1 --test IDLE_DELAY -- hackbench -g 1 -l 5 | sed -n 3,4p",
			       tu_wakesim()), 0);
	assert_non_null(strstr(out, "assumed: LLC = package (no cache info in "));
	assert_non_null(strstr(out, "\nassumed: one idle state \"halt\""));
	/* A profile's own states replace the assumed halt; the LLC guess stays. */
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/bare-2cpu-sysfs %s run "
			       "--cost-profile kunpeng920 -- hackbench -g 1 -l 5", tu_wakesim()), 0);
	assert_non_null(strstr(out, "assumed: LLC = package"));
	assert_null(strstr(out, "halt"));

	/* A cpuidle driver of "none" is named. */
	char dir[] = "/tmp/wakesim-none-XXXXXX";

	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "cp -r tests/data/bare-2cpu-sysfs/devices %s && "
			       "mkdir %s/devices/system/cpu/cpuidle && echo none > "
			       "%s/devices/system/cpu/cpuidle/current_driver && WAKESIM_SYSFS=%s %s "
			       "topo | sed -n 4p", dir, dir, dir, dir, tu_wakesim()), 0);
	assert_non_null(strstr(out, "no cpuidle states in /tmp/wakesim-none-"));
	assert_non_null(strstr(out, " (driver none)\n"));
	tu_sh(out, sizeof(out), "rm -rf %s", dir);

	/*
	 * The states' descriptions say which enter with MWAIT (intel_idle's
	 * "MWAIT 0x00", acpi_idle's "ACPI FFH MWAIT 0x1"; not acpi_idle's
	 * I/O-port state, nor a tree without desc files, above).
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "WAKESIM_SYSFS=tests/data/mwait-2cpu-sysfs %s topo | "
			       "grep '^idle states'", tu_wakesim()), 0);
	assert_string_equal(out, "idle states (exit/target residency, us): POLL 0/0 (polling) "
			    "C1 1/2 (mwait) C1E 4/8 (mwait) C2 9/18\n");

	/*
	 * The same machine through lscpu (no cache ids: what lscpu prints
	 * without cache/) has the same topology, and says why its idle states
	 * differ: lscpu lists none, so they are costs/default.json's.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\\n"
			       "0,0,0,0,,,,,\\n1,1,0,0,,,,,\\n' > /tmp/wakesim-bare.lscpu && %s topo "
			       "--machine lscpu:/tmp/wakesim-bare.lscpu | sed -n 2,4p && %s topo --machine "
			       "sysfs:tests/data/bare-2cpu-sysfs | tail -n +5 > /tmp/wakesim-bare.a && %s "
			       "topo --machine lscpu:/tmp/wakesim-bare.lscpu | tail -n +5 | "
			       "cmp - /tmp/wakesim-bare.a", tu_wakesim(), tu_wakesim(), tu_wakesim()), 0);
	assert_string_equal(out, "idle states (exit/target residency, us): POLL 0/0 (polling) C1 1/1 "
			    "(mwait) C1E 4/4 (mwait) C6 170/600 (mwait)\n"
			    "assumed: LLC = package (no cache ids in /tmp/wakesim-bare.lscpu for 2 of 2 "
			    "CPUs)\n"
			    "assumed: idle states POLL, C1, C1E, C6 of profile default "
			    "(costs/default.json): /tmp/wakesim-bare.lscpu lists none\n");
	unlink("/tmp/wakesim-bare.lscpu");
	unlink("/tmp/wakesim-bare.a");
}

static void expect_load_error(const char *spec, const char *needle)
{
	struct machine m;
	char err[512];

	assert_int_not_equal(machine_load(spec, &m, err, sizeof(err)), 0);
	if (!strstr(err, needle)) {
		print_error("error for %s was \"%s\", expected it to mention \"%s\"\n", spec, err,
			    needle);
		fail();
	}
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[1024], out[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	tu_sh(out, sizeof(out), "mkdir -p $(dirname %s)", path);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A dump laid out as hwloc-gather-topology makes it, DUMP/sys beside
 * DUMP/proc/cpuinfo, gives the vendor and family of its first processor
 * (this machine's cpuinfo: AuthenticAMD, family 26), whether it is named
 * by DUMP or by DUMP/sys; a tree in a directory not named sys has no
 * cpuinfo beside it. A family that is not a number is refused with its
 * file and line.
 */
static void test_sysfs_cpuinfo(void **state)
{
	(void)state;
	char dir[] = "/tmp/wakesim-ci-XXXXXX", out[1024], spec[256];
	struct machine *m;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "mkdir -p %s/proc && cp -r tests/data/host-2cpu-sysfs %s/sys && "
			       "cp tests/data/cpuinfo-epyc-2cpu.txt %s/proc/cpuinfo", dir, dir, dir), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(spec, sizeof(spec), "sysfs:%s%s", dir, i ? "/sys/" : "");
		m = tu_machine(spec);
		assert_string_equal(m->cpu_vendor, "AuthenticAMD");
		assert_int_equal(m->cpu_family, 26);
		tu_machine_free(m);
	}
	m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	assert_string_equal(m->cpu_vendor, "");
	assert_int_equal(m->cpu_family, 0);
	tu_machine_free(m);
	snprintf(spec, sizeof(spec), "sysfs:%s", dir);
	write_file(dir, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: twenty\n");
	expect_load_error(spec, "proc/cpuinfo:3: cpu family: \"twenty\" is not a number in 1..255");
	/* Found by a bad-input trial: a copy with \r\n line ends refused "26\r". */
	write_file(dir, "proc/cpuinfo", "processor\t: 0\r\nvendor_id\t: AuthenticAMD\r\ncpu family\t: 26\r\n");
	m = tu_machine(spec);
	assert_string_equal(m->cpu_vendor, "AuthenticAMD");
	assert_int_equal(m->cpu_family, 26);
	tu_machine_free(m);
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

static void test_bad_machines(void **state)
{
	(void)state;
	char dir[] = "/tmp/wakesim-bad-XXXXXX", spec[256], out[512];

	expect_load_error("no-such-machine", "unknown machine \"no-such-machine\"");
	expect_load_error("sysfs:/nonexistent", "no devices/system/cpu");
	assert_non_null(mkdtemp(dir));
	write_file(dir, "devices/system/cpu/online", "0-1\n");
	write_file(dir, "devices/system/cpu/cpu0/topology/core_cpus_list", "0\n");
	write_file(dir, "devices/system/cpu/cpu0/topology/physical_package_id", "0\n");
	write_file(dir, "devices/system/cpu/cpu1/topology/core_cpus_list", "one\n");
	write_file(dir, "devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
	snprintf(spec, sizeof(spec), "sysfs:%s", dir);
	expect_load_error(spec, "cpu1/topology/core_cpus_list:1: not a CPU list");
	write_file(dir, "devices/system/cpu/cpu1/topology/core_cpus_list", "0\n");
	expect_load_error(spec, "does not contain CPU 1");
	write_file(dir, "devices/system/cpu/cpu1/topology/core_cpus_list", "1\n");
	write_file(dir, "devices/system/node/node0/cpulist", "0-1\n");
	write_file(dir, "devices/system/node/node0/distance", "10 20\n");
	expect_load_error(spec, "node0/distance:1: more than 1 distances");
	/* A number that would wrap through an int is caught, not read as 10. */
	write_file(dir, "devices/system/node/node0/distance", "4294967306\n");
	expect_load_error(spec, "node0/distance:1: distance to node 0 is 4294967306");
	write_file(dir, "devices/system/node/node0/distance", "10\n");
	/* Every CPU of a mask must report the same mask. */
	write_file(dir, "devices/system/cpu/cpu0/topology/core_cpus_list", "0-1\n");
	expect_load_error(spec, "cpu0/topology/core_cpus_list:1: says 0-1, but "
				"devices/system/cpu/cpu1/topology/core_cpus_list says 1");
	write_file(dir, "devices/system/cpu/cpu0/topology/core_cpus_list", "0,7\n");
	expect_load_error(spec, "names CPU 7, but only CPUs 0-1 are online");
	write_file(dir, "devices/system/cpu/cpu0/topology/core_cpus_list", "0\n");
	/* A cache size is "<KiB>K", as the kernel's cacheinfo prints it. */
	write_file(dir, "devices/system/cpu/cpu0/cache/index0/type", "Unified\n");
	write_file(dir, "devices/system/cpu/cpu0/cache/index0/level", "2\n");
	write_file(dir, "devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0\n");
	write_file(dir, "devices/system/cpu/cpu0/cache/index0/size", "1024\n");
	expect_load_error(spec, "cpu0/cache/index0/size:1: expected a size in KiB such as 1024K");
	write_file(dir, "devices/system/cpu/cpu0/cache/index0/size", "1024K\n");

	/* JSON machine files: syntax and field errors name file, line and field. */
	snprintf(spec, sizeof(spec), "%s/m.json", dir);
	write_file(dir, "m.json", "{\n  \"name\": \"x\",\n  \"topology\": {\n    \"sockets\": 2,\n");
	expect_load_error(spec, "m.json:5: JSON syntax error");
	write_file(dir, "m.json", "{\n  \"name\": \"x\",\n  \"topology\": {\n    \"sockets\": -1,\n"
				  "    \"cores_per_cluster\": 4, \"l2_bytes\": 1, \"llc_bytes\": 1 }\n}\n");
	expect_load_error(spec, "m.json:4: field \"topology.sockets\"");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1, \"smt\": 2 } }\n");
	/* The message lists what topology may hold (docs/machine-format.md). */
	expect_load_error(spec, "field \"topology.smt\": unknown field (known here: sockets "
			  "nodes_per_socket llcs_per_node clusters_per_llc cores_per_cluster "
			  "threads_per_core smt_numbering numa_distance l2_bytes llc_bytes capacity "
			  "core_types)");
	/*
	 * Found by a bad-input trial: an empty name was taken (topo printed
	 * "machine : 4 CPUs"), "t\u0000m" was cut to "t", and a missing
	 * top-level field had no line (the document's start, line 1, now).
	 */
	write_file(dir, "m.json", "{ \"name\": \"\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 } }\n");
	expect_load_error(spec, "m.json:1: field \"name\": empty");
	write_file(dir, "m.json", "{ \"name\": \"t\\u0000m\", \"topology\": { \"sockets\": 1, "
				  "\"cores_per_cluster\": 4, \"l2_bytes\": 1, \"llc_bytes\": 1 } }\n");
	expect_load_error(spec, "m.json:1: field \"name\": a string with a NUL character");
	write_file(dir, "m.json", "{\n  \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 } }\n");
	expect_load_error(spec, "m.json:1: field \"name\": missing");
	/* "cpu" names what /proc/cpuinfo does, both fields or none. */
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 },\n  \"cpu\": { \"vendor_id\": \"AuthenticAMD\" } }\n");
	expect_load_error(spec, "m.json:2: field \"cpu.family\": missing");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 },\n  \"cpu\": { \"vendor\": \"AuthenticAMD\","
				  " \"family\": 25 } }\n");
	expect_load_error(spec, "field \"cpu.vendor\": unknown field (known here: vendor_id family)");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 },\n  \"cpu\": { \"vendor_id\": \"AuthenticAMD\","
				  " \"family\": \"0x19\" } }\n");
	expect_load_error(spec, "m.json:2: field \"cpu.family\"");
	/* Found by a bad-input trial: a long vendor was cut to 15 characters and taken. */
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 4,"
				  " \"l2_bytes\": 1, \"llc_bytes\": 1 },\n  \"cpu\": { \"vendor_id\": \"AuthenticAMDAuthenticAMD\","
				  " \"family\": 25 } }\n");
	expect_load_error(spec, "m.json:2: field \"cpu.vendor_id\": longer than a CPUID vendor string");
	/* And an hwloc dump whose family is not decimal was read as no vendor at all. */
	assert_int_equal(tu_sh(out, sizeof(out), "sed 's/name=\"CPUFamilyNumber\" value=\"25\"/"
			       "name=\"CPUFamilyNumber\" value=\"0x19\"/' "
			       "tests/data/hwloc/AMD-19h-Zen4-2xEpyc-9654.xml > %s/hex.xml", dir), 0);
	snprintf(spec, sizeof(spec), "hwloc:%s/hex.xml", dir);
	expect_load_error(spec, "hex.xml: package 0: CPUVendor \"AuthenticAMD\" and CPUFamilyNumber \"0x19\"");
	snprintf(spec, sizeof(spec), "%s/m.json", dir);
	/* "topology": [1] was "missing or not an object": it is there. */
	write_file(dir, "m.json", "{ \"name\": \"x\",\n  \"topology\": [1] }\n");
	expect_load_error(spec, "m.json:2: field \"topology\": expected an object");
	/* Lines come from the exact path, not the first key of that name. */
	write_file(dir, "m.json",
		   "{\n \"name\": \"x\",\n \"topology\": { \"sockets\": 2, \"cores_per_cluster\": 1,\n"
		   "  \"l2_bytes\": 1, \"llc_bytes\": 1,\n  \"numa_distance\": [[10, 32],\n"
		   "                    [20, 10]] },\n \"idle_states\": [\n"
		   "  { \"name\": \"C1\", \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
		   "  { \"name\": \"C2\", \"exit_latency_us\": \"9\", \"target_residency_us\": 1 } ] }\n");
	expect_load_error(spec, "m.json:6: field \"topology.numa_distance[1]\": not symmetric");
	write_file(dir, "m.json",
		   "{\n \"name\": \"x\",\n \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 1,\n"
		   "  \"l2_bytes\": 1, \"llc_bytes\": 1 },\n \"idle_states\": [\n"
		   "  { \"name\": \"C1\", \"exit_latency_us\": 1, \"target_residency_us\": 1 },\n"
		   "  { \"name\": \"C2\", \"exit_latency_us\": \"9\", \"target_residency_us\": 1 } ] }\n");
	expect_load_error(spec, "m.json:7: field \"idle_states[1].exit_latency_us\": expected an integer");
	/* core_types: per-type fields only, and clusters that divide the cores. */
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"l2_bytes\": 1,"
				  " \"llc_bytes\": 1, \"threads_per_core\": 2,\n \"core_types\": [ { \"cores\": 2 } ] } }\n");
	expect_load_error(spec, "field \"topology.threads_per_core\": not allowed with core_types");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"l2_bytes\": 1,"
				  " \"llc_bytes\": 1,\n \"core_types\": [ { \"cores\": 2 },\n"
				  " { \"cores\": 6, \"cores_per_cluster\": 4 } ] } }\n");
	expect_load_error(spec, "m.json:3: field \"topology.core_types[1].cores_per_cluster\": 6 cores do "
				"not split into clusters of 4");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"l2_bytes\": 1,"
				  " \"llc_bytes\": 1, \"core_types\": [ { \"cores\": 2, \"speed\": 0 } ] } }\n");
	expect_load_error(spec, "field \"topology.core_types[0].speed\": 0 is outside 1..1024");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"l2_bytes\": 1,"
				  " \"llc_bytes\": 1, \"core_types\": [] } }\n");
	expect_load_error(spec, "field \"topology.core_types\": expected an array of 1 to 8 objects");
	write_file(dir, "m.json", "{ \"name\": \"x\", \"topology\": { \"sockets\": 1, \"l2_bytes\": 1,"
				  " \"llc_bytes\": 1, \"core_types\": [ { \"name\": \"big\", \"cores\": 2 },\n"
				  " { \"name\": \"big\", \"cores\": 2 } ] } }\n");
	expect_load_error(spec, "m.json:2: field \"topology.core_types[1].name\": \"big\" already names "
				"core_types[0]");
	write_file(dir, "m.json", "null\n");
	expect_load_error(spec, "m.json:1: expected a JSON object, found null");
	/* Not regular files: refused, never read (a FIFO would block). */
	expect_load_error(dir, "not a regular file");
	snprintf(spec, sizeof(spec), "%s/fifo.json", dir);
	assert_int_equal(mkfifo(spec, 0600), 0);
	expect_load_error(spec, "not a regular file");
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epyc9654),
		cmocka_unit_test(test_kunpeng920_48),
		cmocka_unit_test(test_other_presets),
		cmocka_unit_test(test_cpu_limit),
		cmocka_unit_test(test_hybrid_presets),
		cmocka_unit_test(test_kunpeng920_equals_real_dump),
		cmocka_unit_test(test_host_sysfs_copy),
		cmocka_unit_test(test_host_without_cpuidle_or_caches),
		cmocka_unit_test(test_hwloc_xml),
		cmocka_unit_test(test_sysfs_cpuinfo),
		cmocka_unit_test(test_lscpu),
		cmocka_unit_test(test_bad_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
