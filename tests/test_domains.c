/*
 * test_domains.c - sched domains per preset, derived by hand from
 * kernel/sched/topology.c's rules: levels SMT, CLS, MC, PKG, NODE, NUMA
 * (one per distinct node distance), degenerate levels dropped, NUMA levels
 * beyond node_reclaim_distance (RECLAIM_DISTANCE, 30; 32 on AMD Zen) without
 * SD_WAKE_AFFINE/SD_BALANCE_FORK/SD_BALANCE_EXEC.
 */
#include "testutil.h"

struct lvl {
	const char *name;
	const char *span;
	unsigned int must_have, must_not;
	int nr_groups;
};

static void expect_domains(const struct sched_domains *d, int cpu, const struct lvl *want, int n)
{
	const struct sched_domain *sd = d->cpu[cpu].sd;
	char buf[512];

	for (int i = 0; i < n; i++, sd = sd->parent) {
		struct cpumask span;
		char err[64];

		if (!sd) {
			print_error("cpu %d: missing level %d (%s)\n", cpu, i, want[i].name);
			fail();
		}
		assert_string_equal(sd->name, want[i].name);
		assert_int_equal(cpulist_parse(want[i].span, &span, err, sizeof(err)), 0);
		if (!cpumask_equal(&span, &sd->span)) {
			print_error("cpu %d %s: span %s, want %s\n", cpu, sd->name,
				    cpumask_print_list(&sd->span, buf, sizeof(buf)), want[i].span);
			fail();
		}
		assert_int_equal(sd->flags & want[i].must_have, want[i].must_have);
		assert_int_equal(sd->flags & want[i].must_not, 0);
		int g = 0;
		const struct sched_group *sg = sd->groups;

		do {
			/* The list the balancer walks is the span, in CPU order. */
			int c, k, j = 0;

			for_each_cpu(c, &sg->span)
				assert_int_equal(sg->cpus[j++], c);
			j = 0;
			for_each_group_cpu(c, k, sg)
				assert_true(cpumask_test_cpu(c, &sg->span) && ++j);
			assert_int_equal(j, sg->weight);
			g++;
			sg = sg->next;
		} while (sg != sd->groups);
		if (want[i].nr_groups)
			assert_int_equal(g, want[i].nr_groups);
		/* The local group comes first. */
		assert_true(cpumask_test_cpu(cpu, &sd->groups->span));
	}
	assert_null(sd);
}

static void test_epyc_domains(void **state)
{
	(void)state;
	struct machine *m = tu_machine("epyc9654-2s");
	struct sched_domains d;
	const struct lvl want[] = {
		{ "SMT", "0,192", SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | SD_WAKE_AFFINE, 0, 2 },
		{ "MC", "0-7,192-199", SD_SHARE_LLC | SD_WAKE_AFFINE, SD_SHARE_CPUCAPACITY, 8 },
		{ "PKG", "0-95,192-287", SD_WAKE_AFFINE | SD_BALANCE_FORK, SD_SHARE_LLC, 12 },
		/* distance 32, not beyond Zen's node_reclaim_distance of 32 */
		{ "NUMA", "0-383", SD_NUMA | SD_SERIALIZE | SD_WAKE_AFFINE | SD_BALANCE_FORK |
				   SD_BALANCE_EXEC, SD_PREFER_SIBLING, 2 },
	};

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 0, want, 4);
	assert_int_equal(d.cpu[0].sd_llc_size, 16);
	assert_int_equal(d.cpu[195].sd_llc_id, 0);
	assert_int_equal(d.cpu[8].sd_llc_id, 8);
	assert_true(d.smt_present);
	assert_false(d.cluster_active);
	assert_int_equal(d.cpu[0].sd->imbalance_pct, 110);
	assert_int_equal(d.cpu[0].sd->parent->imbalance_pct, 117);
	/* imb_numa_nr: PKG spans 12 LLCs; the NUMA level as large as the first NUMA span. */
	assert_int_equal(d.cpu[0].sd->parent->parent->imb_numa_nr, 12);
	assert_int_equal(d.cpu[0].sd->parent->parent->parent->imb_numa_nr, 12);
	/* One shared object per LLC, shared by its 16 CPUs. */
	assert_int_equal(d.nr_shared, 24);
	assert_ptr_equal(d.cpu[0].sd_llc_shared, d.cpu[199].sd_llc_shared);
	assert_ptr_not_equal(d.cpu[0].sd_llc_shared, d.cpu[8].sd_llc_shared);
	/*
	 * cpus_share_l2c() of the TTWU_QUEUE_L2C RFC: x86's cluster mask is
	 * the CPUs of one L2, a Zen 4 core's two threads (0 and 192), though
	 * no CLS domain is left; CPU 1 is another core of the same L3.
	 */
	assert_int_equal(d.cpu[192].sd_l2c_id, 0);
	assert_true(doms_share_l2c(&d, 0, 192));
	assert_false(doms_share_l2c(&d, 0, 1));
	assert_true(doms_share_cache(&d, 0, 1));
	free_sched_domains(&d);
	tu_machine_free(m);
}

/*
 * Kunpeng 920: clusters of 4 inside 32-core dies; distances
 * n0: 10 16 32 33 / n1: 16 10 25 32 / n2: 32 25 10 16 / n3: 33 32 16 10.
 * For node 0 the distance-25 level spans the same nodes as the distance-16
 * one and is dropped; for node 1 it adds node 2 and keeps SD_WAKE_AFFINE
 * (25 <= 30). Overlapping NUMA groups: cpu0's level 0-95 has the group of
 * cpu0's child, 0-63, then cpu64's: its child at distance 25 spans nodes
 * 1-3 (32-127), outside 0-95, so it descends to node 2, 64-95. At 0-127 the
 * second group is cpu96's child at distance 32 for node 3: nodes 1-3.
 */
static void test_kunpeng_domains(void **state)
{
	(void)state;
	struct machine *m = tu_machine("kunpeng920");
	struct sched_domains d;
	const struct lvl cpu0[] = {
		{ "CLS", "0-3", SD_CLUSTER | SD_SHARE_LLC, 0, 4 },
		{ "MC", "0-31", SD_SHARE_LLC, SD_CLUSTER, 8 },
		{ "NUMA", "0-63", SD_NUMA | SD_WAKE_AFFINE, 0, 2 },
		{ "NUMA", "0-95", SD_NUMA, SD_WAKE_AFFINE, 2 },
		{ "NUMA", "0-127", SD_NUMA, SD_WAKE_AFFINE, 2 },
	};
	const struct lvl cpu32[] = {
		{ "CLS", "32-35", SD_CLUSTER, 0, 4 },
		{ "MC", "32-63", SD_SHARE_LLC, 0, 8 },
		{ "NUMA", "0-63", SD_NUMA | SD_WAKE_AFFINE, 0, 2 },
		{ "NUMA", "0-95", SD_NUMA | SD_WAKE_AFFINE, 0, 0 },
		{ "NUMA", "0-127", SD_NUMA, SD_WAKE_AFFINE, 0 },
	};

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 0, cpu0, 5);
	expect_domains(&d, 32, cpu32, 5);
	const struct sched_domain *n96 = d.cpu[0].sd->parent->parent->parent;
	const struct sched_domain *n128 = n96->parent;
	char b1[64], b2[64];

	assert_string_equal(cpumask_print_list(&n96->groups->span, b1, sizeof(b1)), "0-63");
	assert_string_equal(cpumask_print_list(&n96->groups->next->span, b2, sizeof(b2)), "64-95");
	assert_string_equal(cpumask_print_list(&n128->groups->span, b1, sizeof(b1)), "0-95");
	assert_string_equal(cpumask_print_list(&n128->groups->next->span, b2, sizeof(b2)), "32-127");
	assert_true(d.cluster_active);
	assert_false(d.smt_present);
	assert_int_equal(d.cpu[5].sd_llc_size, 32);
	assert_int_equal(d.cpu[5].sd_share_id, 4);
	assert_true(doms_share_resources(&d, 4, 7));
	assert_false(doms_share_resources(&d, 3, 4));
	assert_true(doms_share_cache(&d, 3, 4));
	assert_false(doms_share_cache(&d, 31, 32));
	/* The L2C RFC's mask on arm64 is the cluster: 4-7 share, 3 does not. */
	assert_int_equal(d.cpu[6].sd_l2c_id, 4);
	assert_true(doms_share_l2c(&d, 4, 7));
	assert_false(doms_share_l2c(&d, 3, 4));
	free_sched_domains(&d);
	tu_machine_free(m);
}

static void test_small_domains(void **state)
{
	(void)state;
	struct machine *m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	struct sched_domains d;
	const struct lvl one[] = { { "MC", "0-1", SD_SHARE_LLC | SD_WAKE_AFFINE, 0, 2 } };

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 1, one, 1);
	assert_int_equal(d.cpu[1].sd_llc_size, 2);
	/*
	 * No SMT and no cluster: a CPU's L2 is its own, so the RFC's v3
	 * shares it with no other CPU (its LLC fallback is for
	 * architectures without a cluster topology; v1 fell back here).
	 */
	assert_int_equal(d.cpu[1].sd_l2c_id, 1);
	assert_false(doms_share_l2c(&d, 0, 1));
	assert_true(doms_share_cache(&d, 0, 1));
	free_sched_domains(&d);
	tu_machine_free(m);

	/* SPR: the package is one LLC and one node, so PKG folds into MC. */
	m = tu_machine("spr-8480-2s");
	const struct lvl spr[] = {
		{ "SMT", "0,112", SD_SHARE_CPUCAPACITY, 0, 2 },
		{ "MC", "0-55,112-167", SD_SHARE_LLC, 0, 56 },
		/* distance 21 <= RECLAIM_DISTANCE: wake-ups may cross sockets */
		{ "NUMA", "0-223", SD_NUMA | SD_WAKE_AFFINE | SD_BALANCE_FORK, 0, 2 },
	};

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 0, spr, 3);
	assert_int_equal(d.cpu[0].sd_llc_size, 112);
	assert_int_equal(d.cpu[0].sd->parent->parent->imb_numa_nr, 2);
	free_sched_domains(&d);
	tu_machine_free(m);
}

/*
 * Hybrid presets. tensor-gs101: clusters {0-3} (161), {4-5} (499), {6-7}
 * (1024) under one LLC. A cluster holds one capacity: no ASYM flag; the
 * LLC holds all three: SD_ASYM_CPUCAPACITY and _FULL, which also takes
 * SD_PREFER_SIBLING off its child (do not spread across capacities) and
 * makes it every CPU's sd_asym_cpucapacity. alderlake-12700h: the P-cores'
 * one-core clusters fold into SMT, the E-modules {12-15} {16-19} are CLS;
 * every capacity is 1024, so nothing is asymmetric.
 */
static void test_hybrid_domains(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tensor-gs101");
	struct sched_domains d;
	const unsigned int asym = SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
	const struct lvl little[] = {
		{ "CLS", "0-3", SD_CLUSTER, asym | SD_PREFER_SIBLING, 4 },
		{ "MC", "0-7", asym | SD_SHARE_LLC, 0, 3 },
	};
	const struct lvl big[] = {
		{ "CLS", "6-7", SD_CLUSTER, asym | SD_PREFER_SIBLING, 2 },
		{ "MC", "0-7", asym | SD_SHARE_LLC, 0, 3 },
	};

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 0, little, 2);
	expect_domains(&d, 7, big, 2);
	assert_true(d.asym_cpucap_active);
	assert_ptr_equal(d.cpu[5].sd_asym_cpucapacity, d.cpu[5].sd->parent);
	assert_int_equal(m->topo.cpu[5].capacity, 499);
	free_sched_domains(&d);
	tu_machine_free(m);

	m = tu_machine("alderlake-12700h");
	const struct lvl p[] = {
		{ "SMT", "2-3", SD_SHARE_CPUCAPACITY, asym, 2 },
		{ "MC", "0-19", SD_SHARE_LLC, asym, 8 },
	};
	const struct lvl e[] = {
		{ "CLS", "16-19", SD_CLUSTER, asym, 4 },
		{ "MC", "0-19", SD_SHARE_LLC, asym, 8 },
	};

	assert_int_equal(build_sched_domains(m, &d), 0);
	expect_domains(&d, 3, p, 2);
	expect_domains(&d, 17, e, 2);
	assert_false(d.asym_cpucap_active);
	assert_null(d.cpu[17].sd_asym_cpucapacity);
	free_sched_domains(&d);
	tu_machine_free(m);
}

/* The flags sd_init() strips from a NUMA level past node_reclaim_distance. */
#define RECLAIM_FLAGS (SD_WAKE_AFFINE | SD_BALANCE_FORK | SD_BALANCE_EXEC)

/* The top (NUMA) level of cpu 0, built as profile kv builds it. */
static unsigned int numa_flags(struct machine *m, int kv, int *reclaim)
{
	struct sched_domains d;
	const struct sched_domain *sd;
	unsigned int flags;

	assert_int_equal(build_sched_domains_for(m, &d, kernel_profile(kv)), 0);
	for (sd = d.cpu[0].sd; sd->parent; sd = sd->parent)
		;
	assert_true(sd->flags & SD_NUMA);
	flags = sd->flags & RECLAIM_FLAGS;
	*reclaim = d.node_reclaim_distance;
	free_sched_domains(&d);
	return flags;
}

/*
 * node_reclaim_distance (a55c7454a8c8, v5.4): 30, and 32 where the arch
 * code knows the CPUs as AMD Zen (init_amd_zn(): family 0x17, and 0x19 from
 * v5.7;
 * init_amd_zen_common() for family 0x1a once X86_FEATURE_ZEN5 knows its
 * models). sd_init() strips the flags from a level strictly farther, so a
 * two-socket EPYC's distance of 32 keeps them on Zen only, and 33 loses
 * them even there.
 */
static void test_node_reclaim_distance(void **state)
{
	(void)state;
	struct machine *m = tu_machine("epyc9654-2s");
	int r;

	/* Zen 4 (family 0x19) at 32: kept on every profile. */
	for (int kv = 0; kv < KV_NR; kv++) {
		assert_int_equal(numa_flags(m, kv, &r), RECLAIM_FLAGS);
		assert_int_equal(r, 32);
	}
	/* The same SLIT on CPUs the arch code does not know as Zen: 32 > 30. */
	m->cpu_vendor[0] = '\0';
	m->cpu_family = 0;
	assert_int_equal(numa_flags(m, KV_MAINLINE, &r), 0);
	assert_int_equal(r, 30);
	snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "GenuineIntel");
	m->cpu_family = 0x19;
	assert_int_equal(numa_flags(m, KV_MAINLINE, &r), 0);
	/* Zen 5 (family 0x1a): Zen to the mainline profile, not to v6.4's kernel. */
	snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "AuthenticAMD");
	m->cpu_family = 0x1a;
	assert_int_equal(numa_flags(m, KV_6_4, &r), 0);
	assert_int_equal(r, 30);
	assert_int_equal(numa_flags(m, KV_MAINLINE, &r), RECLAIM_FLAGS);
	assert_int_equal(r, 32);
	/* Zen at 33: beyond even 32. */
	m->cpu_family = 0x19;
	m->topo.distance[0][1] = m->topo.distance[1][0] = 33;
	assert_int_equal(numa_flags(m, KV_6_4, &r), 0);
	tu_machine_free(m);

	/* Rome is family 0x17, Zen as well. */
	m = tu_machine("zen2-7742-2s");
	assert_int_equal(numa_flags(m, KV_5_12, &r), RECLAIM_FLAGS);
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epyc_domains),
		cmocka_unit_test(test_node_reclaim_distance),
		cmocka_unit_test(test_kunpeng_domains),
		cmocka_unit_test(test_small_domains),
		cmocka_unit_test(test_hybrid_domains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
