/*
 * test_migrate.c - what a wake-up that moves its task reads and writes of
 * the CPU the task leaves, and what that CPU's next load update pays for
 * it (kern/migrate.c: migrate_task_rq_fair(), remove_entity_load_avg(),
 * migrate_se_pelt_lag(), update_cfs_rq_load_avg() of fair.c v5.12, v6.4,
 * v6.12). Costs worked out by hand from tests/data/probe-2s.json: CPUs 0
 * and 16 are on different sockets (60 ns), a line no CPU holds comes from
 * memory (priced as the farthest transfer, 60), a write by the line's sole
 * holder costs 1 (local).
 */
#include "testutil.h"

#define PROBE "tests/data/probe-2s.json"

/* CPU 0 has just written its cfs_rq's first line, its averages and rq->curr. */
static void owner_writes(struct sim *sim, u64 now)
{
	struct rq *rq = cpu_rq(sim, 0);

	sim->this_cpu = 0;
	sim->now = now;
	line_write(sim, &rq->cfs_line);
	line_write(sim, &rq->avg_line);
	line_write(sim, &rq->curr_line);
	sim->this_cpu = -1;
	sim->kcost_ns = 0;
}

/* What CPU 16's wake-up of p, moving it from CPU 0 to CPU 1, is charged (ns). */
static u64 wake_move(struct sim *sim, struct task_struct *p, u64 now)
{
	p->__state = TASK_WAKING;
	sim->this_cpu = 16;
	sim->now = now;
	sim->kcost_ns = 0;
	set_task_cpu(sim, p, 1);
	u64 ns = sim->kcost_ns;

	p->__state = TASK_INTERRUPTIBLE;
	sim->this_cpu = -1;
	sim->kcost_ns = 0;
	return ns;
}

/* What a load update of CPU 0's cfs_rq from cpu at now (ns) is charged (ns). */
static u64 cfs_update_from(struct sim *sim, int cpu, u64 now)
{
	sim->this_cpu = cpu;
	sim->now = now;
	sim->kcost_ns = 0;
	update_load_avg_se(sim, cpu_rq(sim, 0), NULL);
	u64 ns = sim->kcost_ns;

	sim->this_cpu = -1;
	sim->kcost_ns = 0;
	return ns;
}

/*
 * The waker's side, by profile. v6.4 (CFS, v6.0's migrate_se_pelt_lag()):
 * the cfs_rq's first line for min_vruntime, the averages' line for
 * last_update_time, all dirty at CPU 0 (60 each), the removed line from
 * memory (60) and CPU 0's rq->curr (60): 240. v6.12 has no min_vruntime
 * (180); v5.12 no migrate_se_pelt_lag() (180); a task whose averages have
 * decayed to 0 is not checked for an idle CPU (v6.4: 180). The removal
 * waits for CPU 0 either way. From no CPU (a wake-up from the workload's
 * clock) nothing is charged, and the removal is queued all the same; a
 * load update from no CPU takes it back, charging nobody.
 */
static void test_migrate_waker_lines(void **state)
{
	(void)state;
	static const struct {
		int kver;
		u64 load_sum;
		u64 ns;
	} cases[] = {
		{ KV_6_4, 47742, 240 },
		{ KV_MAINLINE, 47742, 180 },
		{ KV_5_12, 47742, 180 },
		{ KV_6_4, 0, 180 },
	};
	struct machine *m = tu_machine(PROBE);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim *sim = tu_sim_kernel(m, "default", cases[i].kver);
		struct task_struct *p = tu_task(sim, 0);

		p->se.avg.load_sum = cases[i].load_sum;
		p->se.avg.runnable_sum = cases[i].load_sum;
		p->se.avg.util_sum = (u32)cases[i].load_sum;
		owner_writes(sim, 0);
		assert_int_equal(wake_move(sim, p, 1000), cases[i].ns);
		assert_int_equal(cpu_rq(sim, 0)->cfs.removed_nr, 1);
		tu_sim_free(sim);
	}

	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct task_struct *p = tu_task(sim, 0);

	p->__state = TASK_WAKING;
	sim->now = 1000;
	set_task_cpu(sim, p, 1);
	assert_int_equal(sim->kcost_ns, 0);
	assert_int_equal(cpu_rq(sim, 0)->cfs.removed_nr, 1);
	/* An update from no CPU takes the removal back, charging nobody. */
	sim->now = 2000;
	update_load_avg_se(sim, cpu_rq(sim, 0), NULL);
	assert_int_equal(sim->kcost_ns, 0);
	assert_int_equal(cpu_rq(sim, 0)->cfs.removed_nr, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The old CPU's side. After the move above (v6.4), CPU 0's next load
 * update takes the removed line back from CPU 16 (60) and writes its
 * averages' line, which CPU 16 read: fetched from that copy and the copy
 * invalidated (60): 120. The next update, a PELT step (1024 ns) later,
 * has nothing removed: it reads removed.nr and writes its averages, both
 * lines its own (1 + 1); one within the same step writes no averages (1).
 * A remote update (CPU 1's locked enqueue on CPU 0)
 * after a second move takes both lines from where they are: the removed
 * line from CPU 16 (CPU 1 to 16: other socket, 60), the averages' from
 * CPU 0, which wrote it last, with CPU 16's copy (CPU 1 is CPU 0's SMT
 * sibling: 10): 70.
 */
static void test_migrate_removed_taken(void **state)
{
	(void)state;
	struct machine *m = tu_machine(PROBE);
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct rq *rq0 = cpu_rq(sim, 0);
	struct task_struct *p = tu_task(sim, 0);

	p->se.avg.load_sum = 47742;
	owner_writes(sim, 0);
	wake_move(sim, p, 1000);

	assert_int_equal(cfs_update_from(sim, 0, 2000), 120);
	assert_int_equal(rq0->cfs.removed_nr, 0);
	assert_int_equal(cfs_update_from(sim, 0, 3000), 2);
	/* Within the same 1024-ns step of the PELT clock: only removed.nr's read. */
	assert_int_equal(cfs_update_from(sim, 0, 3050), 1);

	/* Back on CPU 0, then moved away again by CPU 16. */
	p->cpu = p->wake_cpu = 0;
	wake_move(sim, p, 4000);
	assert_int_equal(rq0->cfs.removed_nr, 1);
	assert_int_equal(cfs_update_from(sim, 1, 5000), 70);
	assert_int_equal(rq0->cfs.removed_nr, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrate_waker_lines),
		cmocka_unit_test(test_migrate_removed_taken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
