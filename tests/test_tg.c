/*
 * test_tg.c - the task group's tg->load_avg line (kern/tg.c), after
 * update_tg_load_avg(), update_cfs_group() and migrate_task_rq_fair() of
 * kernel/sched/fair.c (v6.4; the rate limit of v6.7). Costs are worked
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tg_write_rule),
		cmocka_unit_test(test_tg_ratelimit),
		cmocka_unit_test(test_tg_migration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
