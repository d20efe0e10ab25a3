/*
 * test_tg.c - the task group's tg->load_avg line (kern/tg.c), after
 * update_tg_load_avg(), update_cfs_group() and migrate_task_rq_fair() of
 * kernel/sched/fair.c (v6.4; the rate limit of v6.7), and the group's
 * per-CPU lines at each level (kern/hier.c). Costs are worked
 * out by hand from tests/data/probe-2s.json: a line no CPU holds comes
 * from memory (60 ns), CPUs 0 and 16 are on different sockets (60), a
 * write by the line's sole holder costs 1.
 */
#include "testutil.h"

#define PROBE "tests/data/probe-2s.json"

/* rq's load_avg is load, what it last added contrib; its update at now (ns) from cpu. */
static void tg_update(struct sim *sim, int cpu, unsigned long load, unsigned long contrib, u64 now)
{
	struct rq *rq = cpu_rq(sim, cpu);

	rq->cfs.avg.load_avg = load;
	if (contrib != ~0UL)
		rq->cfs.tg_load_avg_contrib = contrib;
	sim->this_cpu = cpu;
	sim->now = now;
	sim->kcost_ns = 0;
	update_tg_load_avg(sim, rq);
	sim->this_cpu = -1;
}

/*
 * The /64 rule and the line's price. In the root group (no --cgroup)
 * nothing is written. One level down: CPU 0's load 1024 against 0 added
 * writes (the fresh line from memory: 60 ns); 1040 is a change of 16, not
 * more than 1024/64, so no write; 1041 writes, CPU 0 being the line's
 * sole holder (1 ns). CPU 16's update_cfs_group() reads the dirty line
 * from CPU 0 (60); CPU 16's own first write takes it from CPU 0 (60).
 * Three levels deep, CPU 1 writes three lines: two fresh ones from memory
 * and the first from CPU 16 (other socket): 180; its read of the three
 * then hits: 3.
 */
static void test_tg_write_rule(void **state)
{
	(void)state;
	struct machine *m = tu_machine(PROBE);
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);

	tg_update(sim, 0, 1024, 0, NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 0);
	assert_int_equal(sim->met.tg_load_ns, 0);

	sim->cfg.tunables.cgroup_depth = 1;
	tg_update(sim, 0, 1024, 0, NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 1);
	assert_int_equal(sim->met.tg_load_ns, 60);
	assert_int_equal(sim->kcost_ns, 60);
	assert_int_equal(cpu_rq(sim, 0)->cfs.tg_load_avg_contrib, 1024);
	tg_update(sim, 0, 1040, ~0UL, 2 * NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 1);
	tg_update(sim, 0, 1041, ~0UL, 3 * NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 2);
	assert_int_equal(sim->met.tg_load_ns, 61);

	sim->this_cpu = 16;
	sim->now = 4 * NSEC_PER_MSEC;
	sim->kcost_ns = 0;
	update_cfs_group(sim);
	assert_int_equal(sim->kcost_ns, 60);
	tg_update(sim, 16, 2048, 0, 5 * NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 3);
	assert_int_equal(sim->met.tg_load_ns, 181);

	sim->cfg.tunables.cgroup_depth = 3;
	tg_update(sim, 1, 512, 0, 6 * NSEC_PER_MSEC);
	assert_int_equal(sim->met.tg_load_writes, 4);
	assert_int_equal(sim->kcost_ns, 180);
	sim->this_cpu = 1;
	sim->kcost_ns = 0;
	update_cfs_group(sim);
	assert_int_equal(sim->kcost_ns, 3);
	assert_int_equal(sim->met.tg_load_ns, 181 + 180 + 3);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * v6.7's rate limit (TG_LOAD_RATELIMIT, on in the mainline profile): a
 * cfs_rq writes at most once per ms. Written at 5 ms; a change at 5.5 ms
 * and at 1 ns before 6 ms is skipped; at 6 ms it is written. Without the
 * switch, as on v6.4, the change at 5.5 ms is written.
 */
static void test_tg_ratelimit(void **state)
{
	(void)state;
	struct machine *m = tu_machine(PROBE);
	const char *feats[] = { "default", "NO_TG_LOAD_RATELIMIT" };

	for (int i = 0; i < 2; i++) {
		struct sim *sim = tu_sim_kernel(m, feats[i], KV_MAINLINE);

		sim->cfg.tunables.cgroup_depth = 1;
		tg_update(sim, 0, 1024, 0, 5 * NSEC_PER_MSEC);
		assert_int_equal(sim->met.tg_load_writes, 1);
		tg_update(sim, 0, 2048, ~0UL, 5 * NSEC_PER_MSEC + NSEC_PER_MSEC / 2);
		assert_int_equal(sim->met.tg_load_writes, i ? 2 : 1);
		if (!i) {
			tg_update(sim, 0, 2048, ~0UL, 6 * NSEC_PER_MSEC - 1);
			assert_int_equal(sim->met.tg_load_writes, 1);
			tg_update(sim, 0, 2048, ~0UL, 6 * NSEC_PER_MSEC);
			assert_int_equal(sim->met.tg_load_writes, 2);
			assert_int_equal(cpu_rq(sim, 0)->cfs.tg_load_avg_contrib, 2048);
		}
		tu_sim_free(sim);
	}
	/* The profiles before v6.7 have no rate limit; mainline's has. */
	struct sim *old = tu_sim_kernel(m, "default", KV_6_6), *now = tu_sim_kernel(m, "default", KV_MAINLINE);

	assert_false(old->feat.on[__SCHED_FEAT_TG_LOAD_RATELIMIT]);
	assert_true(now->feat.on[__SCHED_FEAT_TG_LOAD_RATELIMIT]);
	tu_sim_free(old);
	tu_sim_free(now);
	tu_machine_free(m);
}

/*
 * Where a migration's two writes come from (migrate_task_rq_fair()): a
 * task that leaves CPU 0 while waking only queues its load for removal,
 * so CPU 0's next update with UPDATE_TG writes even without a PELT
 * period crossed (decayed 0); a queued task moved by the balancer on CPU
 * 1 is detached at once, and CPU 1 writes CPU 0's change then. Both
 * tasks carry a load of 512 out of CPU 0's 1024, all of it added before.
 */
static void test_tg_migration(void **state)
{
	(void)state;
	struct machine *m = tu_machine(PROBE);
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct rq *rq0 = cpu_rq(sim, 0);

	sim->cfg.tunables.cgroup_depth = 1;
	for (int waking = 1; waking >= 0; waking--) {
		struct task_struct *p = tu_task(sim, 0);
		uint64_t writes = sim->met.tg_load_writes;

		rq0->cfs.avg.load_avg = 1024;
		rq0->cfs.tg_load_avg_contrib = 1024;
		p->se.avg.load_avg = 512;
		p->__state = waking ? TASK_WAKING : TASK_RUNNING;
		sim->this_cpu = 1;
		sim->now = 0;
		set_task_cpu(sim, p, 1);
		assert_int_equal(rq0->cfs.avg.load_avg, 512);
		if (waking) {
			assert_true(rq0->cfs.tg_removed);
			assert_int_equal(sim->met.tg_load_writes, writes);
			/* CPU 0's next update: no period crossed, but load was removed. */
			sim->this_cpu = 0;
			update_tg_load_avg_if(sim, rq0, 0);
			assert_false(rq0->cfs.tg_removed);
		} else {
			assert_false(rq0->cfs.tg_removed);
		}
		assert_int_equal(sim->met.tg_load_writes, writes + 1);
		assert_int_equal(rq0->cfs.tg_load_avg_contrib, 512);
		/* Nothing left: an update that did not decay writes nothing. */
		update_tg_load_avg_if(sim, rq0, 0);
		assert_int_equal(sim->met.tg_load_writes, writes + 1);
		p->__state = TASK_INTERRUPTIBLE;
	}
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* v6.4 on m with the workload depth levels below the root from sim_init() on. */
static struct sim *group_sim(const struct machine *m, int depth)
{
	struct sim *sim = calloc(1, sizeof(*sim));
	struct sim_config cfg = { .seed = 1 };
	char err[512];

	assert_non_null(sim);
	nr_cpu_ids = m->topo.nr_cpus;
	sched_features_default_for(&cfg.features, KV_6_4);
	sched_tunables_default(&cfg.tunables, m->topo.nr_cpus);
	sched_tunables_kernel(&cfg.tunables, KV_6_4, m->topo.nr_cpus);
	cfg.tunables.cgroup_depth = (u64)depth;
	cpumask_setall(&cfg.allowed);
	assert_int_equal(sim_init(sim, m, &cfg, err, sizeof(err)), 0);
	return sim;
}

/*
 * What fn, run by cpu on CPU 2's runqueue, charged cpu (ns); each call
 * 10 us after the last, so no line is still busy with a transfer.
 */
static u64 levels_by(struct sim *sim, int cpu, void (*fn)(struct sim *, struct rq *))
{
	sim->this_cpu = cpu;
	sim->now += 10 * NSEC_PER_USEC;
	sim->kcost_ns = 0;
	fn(sim, cpu_rq(sim, 2));
	sim->this_cpu = -1;
	return sim->kcost_ns;
}

/*
 * The group levels' per-CPU lines (kern/hier.c), from enqueue_task_fair(),
 * pick_next_task_fair() and entity_tick() (fair.c v6.4), two levels deep,
 * on CPU 2's runqueue. CPU 2's first tick writes each level's cfs_rq
 * counts and averages and its entity's load and averages, 8 lines from
 * memory: 480; its second tick, their sole holder: 8 x 1. A remote
 * enqueue from CPU 16 (the other socket) writes each level's five lines:
 * the 8 from CPU 2 and the entities' runnable_weight lines, never
 * written, from memory: 10 x 60. CPU 2's pick takes the leaf cfs_rq's two
 * back from CPU 16: 120. CPU 2's own dequeue holds those two (2 x 1) and
 * takes the other 8 back: 480 + 2. Run from no CPU, nothing. In the root
 * group, and for a depth given after sim_init() (tg.c's tests), no line
 * is priced.
 */
static void test_group_levels(void **state)
{
	(void)state;
	struct machine *m = tu_machine(PROBE);
	struct sim *sim = group_sim(m, 2);

	assert_int_equal(levels_by(sim, 2, group_lines_tick), 480);
	assert_int_equal(levels_by(sim, 2, group_lines_tick), 8);
	assert_int_equal(levels_by(sim, 16, group_lines_enqueue), 600);
	assert_int_equal(levels_by(sim, 2, group_lines_pick), 120);
	assert_int_equal(levels_by(sim, 2, group_lines_enqueue), 482);
	assert_int_equal(levels_by(sim, -1, group_lines_enqueue), 0);
	tu_sim_free(sim);

	sim = group_sim(m, 0);
	assert_int_equal(levels_by(sim, 16, group_lines_enqueue), 0);
	sim->cfg.tunables.cgroup_depth = 1;
	assert_int_equal(levels_by(sim, 16, group_lines_tick), 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tg_write_rule),
		cmocka_unit_test(test_group_levels),
		cmocka_unit_test(test_tg_ratelimit),
		cmocka_unit_test(test_tg_migration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
