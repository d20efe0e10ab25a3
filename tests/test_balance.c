/*
 * test_balance.c - load-balancing decisions on small machines, derived by
 * hand from sched_balance_rq() of kernel/sched/fair.c (v6.12): group
 * classification, imbalance type and size, the busiest runqueue, and
 * can_migrate_task()'s cache-hotness (migration_cost_ns 0.5 ms).
 *
 * two-llc: LLCs {0,1} and {2,3}; MC (SD_SHARE_LLC, cache_nice_tries 1,
 * groups of one CPU) under PKG (groups {0-1} {2-3}).
 * two-node: the same with each LLC a NUMA node (distance 20), the upper
 * level SD_NUMA with imb_numa_nr 2 (two LLCs in its span).
 *
 * PELT signals are set by hand to their steady state (a CPU busy all the
 * time has util_avg 1024 and runnable_avg 1024 per runnable task), so the
 * classification is what a long run would see.
 */
#include "testutil.h"
#include "kern/lb.h"

#define NOW (100 * NSEC_PER_MSEC)

static struct machine *two_llc, *two_node;

static int setup(void **state)
{
	(void)state;
	two_llc = tu_machine("tests/data/two-llc.json");
	two_node = tu_machine("tests/data/two-node.json");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_machine_free(two_llc);
	tu_machine_free(two_node);
	return 0;
}

/* Queue a runnable task on cpu that last ran ran_ago ns before NOW. */
static struct task_struct *queued(struct sim *sim, int cpu, u64 ran_ago)
{
	struct task_struct *p = tu_task(sim, cpu);

	p->__state = TASK_RUNNING;
	sim->this_cpu = cpu;
	activate_task(sim, &sim->rq[cpu], p, ENQUEUE_WAKEUP);
	p->se.exec_start = NOW - ran_ago;
	sim->this_cpu = -1;
	return p;
}

/* cpu's signals as after a long time with nr runnable tasks on it. */
static void steady(struct sim *sim, int cpu)
{
	struct sched_avg *a = &sim->rq[cpu].cfs.avg;
	unsigned long nr = sim->rq[cpu].nr_running;

	a->util_avg = nr ? 1024 : 0;
	a->runnable_avg = 1024 * nr;
	a->load_avg = 1024 * nr;
}

static struct sim *scene(struct machine *m)
{
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);

	sim->now = NOW;
	return sim;
}

static struct sched_domain *level(struct sim *sim, int cpu, const char *name)
{
	struct sched_domain *sd;

	for_each_domain(sim, cpu, sd)
		if (!strcmp(sd->name, name))
			return sd;
	fail_msg("cpu %d has no %s level", cpu, name);
	return NULL;
}

/*
 * CPU 0 runs A with B and C queued; CPU 1 goes newly idle. At MC, CPU 1's
 * group {1} has spare capacity, {0} is overloaded (3 tasks on 1 CPU, util
 * 1024 x 117% > 1024 x 100%). MC shares the LLC, so the imbalance is in
 * tasks: groups of one CPU -> sibling_imbalance() = 3 - 0, halved: 1 task.
 * B ran 0.1 ms ago (cache hot), C 2 ms ago: C moves, B stays. With both
 * hot nothing moves, and a new-idle failure does not count toward
 * cache_nice_tries; a periodic idle balance that fails twice
 * (nr_balance_failed 2 > cache_nice_tries 1) moves a hot task.
 */
static void test_newidle_pulls_cold_task(void **state)
{
	(void)state;
	struct sim *sim = scene(two_llc);
	struct task_struct *b, *c;

	tu_busy(sim, 0);
	b = queued(sim, 0, 100 * NSEC_PER_USEC);
	c = queued(sim, 0, 2 * NSEC_PER_MSEC);
	steady(sim, 0);
	sim->this_cpu = 1;
	assert_int_equal(newidle_balance(sim, &sim->rq[1]), 1);
	assert_int_equal(task_cpu(c), 1);
	assert_int_equal(task_cpu(b), 0);
	assert_int_equal(sim->rq[0].nr_running, 2);
	/* schedstats: one new-idle pass at MC, an imbalance of 1 task, 1 gained. */
	struct sched_domain *m1 = level(sim, 1, "MC");

	assert_int_equal(m1->lb_count[CPU_NEWLY_IDLE], 1);
	assert_int_equal(m1->lb_imbalance[CPU_NEWLY_IDLE], 1);
	assert_int_equal(m1->lb_gained[CPU_NEWLY_IDLE], 1);
	assert_int_equal(m1->lb_failed[CPU_NEWLY_IDLE] + m1->lb_balanced[CPU_NEWLY_IDLE], 0);
	assert_int_equal(m1->lb_count[CPU_IDLE] + m1->lb_count[CPU_NOT_IDLE], 0);
	tu_sim_free(sim);

	sim = scene(two_llc);
	tu_busy(sim, 0);
	b = queued(sim, 0, 100 * NSEC_PER_USEC);
	c = queued(sim, 0, 300 * NSEC_PER_USEC);
	steady(sim, 0);
	struct sched_domain *mc = level(sim, 1, "MC");

	sim->this_cpu = 1;
	assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_NEWLY_IDLE), 0);
	assert_int_equal(mc->nr_balance_failed, 0);
	/* Periodic balancing of the idle CPU: fails, fails, then moves B. */
	assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_IDLE), 0);
	assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_IDLE), 0);
	assert_int_equal(mc->nr_balance_failed, 2);
	assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_IDLE), 1);
	assert_int_equal(task_cpu(b), 1);
	assert_int_equal(mc->nr_balance_failed, 0);
	/* schedstats: the new-idle pass failed; of three idle passes, two
	 * failed and the third gained one task, a cache-hot one. */
	assert_int_equal(mc->lb_count[CPU_NEWLY_IDLE], 1);
	assert_int_equal(mc->lb_failed[CPU_NEWLY_IDLE], 1);
	assert_int_equal(mc->lb_count[CPU_IDLE], 3);
	assert_int_equal(mc->lb_failed[CPU_IDLE], 2);
	assert_int_equal(mc->lb_gained[CPU_IDLE], 1);
	assert_int_equal(mc->lb_hot_gained[CPU_IDLE], 1);
	assert_int_equal(mc->lb_imbalance[CPU_IDLE], 3);
	assert_int_equal(mc->lb_balanced[CPU_IDLE], 0);
	tu_sim_free(sim);
}

/*
 * Across LLCs (PKG, no SD_SHARE_LLC): CPUs 0 and 1 each run one task and
 * queue another (4 on 2 CPUs: overloaded), CPUs 2-3 idle. CPU 2's idle
 * balance fills its group's spare capacity: migrate_util, imbalance
 * 2048 - 0. The busiest queue by util is CPU 0 (a tie goes to the first),
 * whose one queued task moves; then CPU 0 has one task left and detaching
 * stops. CPU 3 is not the CPU that balances {2-3} (should_we_balance():
 * the first idle CPU, 2).
 */
static void test_idle_cpu_fills_other_llc(void **state)
{
	(void)state;
	struct sim *sim = scene(two_llc);
	struct task_struct *q0, *q1;

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	q0 = queued(sim, 0, 5 * NSEC_PER_MSEC);
	q1 = queued(sim, 1, 5 * NSEC_PER_MSEC);
	steady(sim, 0);
	steady(sim, 1);
	struct sched_domain *pkg3 = level(sim, 3, "PKG"), *pkg2 = level(sim, 2, "PKG");

	sim->this_cpu = 3;
	assert_int_equal(sched_balance_rq(sim, 3, pkg3, CPU_IDLE), 0);
	sim->this_cpu = 2;
	assert_int_equal(sched_balance_rq(sim, 2, pkg2, CPU_IDLE), 1);
	assert_int_equal(task_cpu(q0), 2);
	assert_int_equal(task_cpu(q1), 1);
	tu_sim_free(sim);
}

/*
 * NUMA: node 0 has A running and B queued on CPU 0, CPU 1 idle; node 1 is
 * idle. Node 0 has spare capacity (util 1024 of 2048), so the imbalance
 * is in tasks: prefer_sibling (MC below) -> sibling_imbalance() = 2 - 0.
 * adjust_numa_imbalance(): the destination would run 0 + 1 <= imb_numa_nr
 * (2) tasks and 2 <= NUMA_IMBALANCE_MIN: tolerated, nothing crosses the
 * node. With C also running on CPU 1 (3 tasks, util 2048: overloaded) the
 * spare capacity of node 1 is filled (migrate_util) and B moves.
 */
static void test_numa_imbalance(void **state)
{
	(void)state;
	struct sim *sim = scene(two_node);
	struct task_struct *b;
	struct sched_domain *numa;

	tu_busy(sim, 0);
	b = queued(sim, 0, 5 * NSEC_PER_MSEC);
	steady(sim, 0);
	numa = level(sim, 2, "NUMA");
	assert_int_equal(numa->imb_numa_nr, 2);
	sim->this_cpu = 2;
	assert_int_equal(sched_balance_rq(sim, 2, numa, CPU_IDLE), 0);
	assert_int_equal(task_cpu(b), 0);
	tu_sim_free(sim);

	sim = scene(two_node);
	tu_busy(sim, 0);
	tu_busy(sim, 1);
	b = queued(sim, 0, 5 * NSEC_PER_MSEC);
	steady(sim, 0);
	steady(sim, 1);
	numa = level(sim, 2, "NUMA");
	sim->this_cpu = 2;
	assert_int_equal(sched_balance_rq(sim, 2, numa, CPU_IDLE), 1);
	assert_int_equal(task_cpu(b), 2);
	tu_sim_free(sim);
}

/*
 * A busy CPU does not pull from a group that is merely fully busy: CPU 0
 * runs one task, CPU 1 runs one task; CPU 1's busy balance at MC finds
 * group {0} fully busy, not overloaded: nothing to do.
 */
static void test_busy_balanced(void **state)
{
	(void)state;
	struct sim *sim = scene(two_llc);

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	steady(sim, 0);
	steady(sim, 1);
	sim->this_cpu = 1;
	struct sched_domain *mc = level(sim, 1, "MC");

	assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_NOT_IDLE), 0);
	assert_int_equal(sim->rq[0].nr_running, 1);
	/* schedstats: a busy pass that found its domain balanced (no busiest group). */
	assert_int_equal(mc->lb_count[CPU_NOT_IDLE], 1);
	assert_int_equal(mc->lb_balanced[CPU_NOT_IDLE], 1);
	assert_int_equal(mc->lb_nobusyg[CPU_NOT_IDLE], 1);
	tu_sim_free(sim);
}

/*
 * rd->overload(ed) (add_nr_running() in sched.h, update_sd_lb_stats() in
 * fair.c): a runqueue reaching 2 tasks sets it, and only a balance at the
 * top level (PKG here, parent NULL) clears it, so new-idle balancing runs
 * after the queues drained. CPU 0 runs A, B is queued then dequeued (CPU 0
 * back to 1 task, no runqueue with 2); CPU 1, idle 1 ms on average, goes
 * idle: the flag is still set and it balances at MC and PKG (one new-idle
 * pass each, nothing to pull). CPU 1's periodic idle balance at PKG sees
 * no runqueue with 2 tasks and clears the flag; the next new-idle skips.
 */
static void test_rd_overloaded_sticky(void **state)
{
	(void)state;
	const int kv[] = { KV_6_4, KV_MAINLINE };

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(two_llc, "default", kv[k]);
		struct sched_domain *mc = level(sim, 1, "MC"), *pkg = level(sim, 1, "PKG");

		sim->now = NOW;
		assert_false(sim->doms.rd.overloaded); /* a machine idle before the run */
		tu_busy(sim, 0);
		assert_false(sim->doms.rd.overloaded);
		struct task_struct *b = queued(sim, 0, 2 * NSEC_PER_MSEC);

		assert_true(sim->doms.rd.overloaded);
		sim->this_cpu = 0;
		deactivate_task(sim, &sim->rq[0], b, DEQUEUE_SLEEP);
		assert_int_equal(sim->rq[0].nr_running, 1);
		assert_int_equal(sim->nr_overloaded, 0);
		assert_true(sim->doms.rd.overloaded);

		steady(sim, 0);
		sim->this_cpu = 1;
		sim->rq[1].avg_idle = NSEC_PER_MSEC;
		assert_int_equal(newidle_balance(sim, &sim->rq[1]), 0);
		assert_int_equal(mc->lb_count[CPU_NEWLY_IDLE], 1);
		assert_int_equal(pkg->lb_count[CPU_NEWLY_IDLE], 1);
		assert_int_equal(sim->met.newidle_balances, 2);
		/* PKG's new-idle pass was a top-level balance: it cleared the flag. */
		assert_false(sim->doms.rd.overloaded);
		assert_int_equal(newidle_balance(sim, &sim->rq[1]), 0);
		assert_int_equal(mc->lb_count[CPU_NEWLY_IDLE], 1);
		assert_int_equal(sim->met.newidle_balances, 2);

		/* Set again, cleared by a periodic idle balance at the top. */
		b = queued(sim, 0, 2 * NSEC_PER_MSEC);
		sim->this_cpu = 0;
		deactivate_task(sim, &sim->rq[0], b, DEQUEUE_SLEEP);
		assert_true(sim->doms.rd.overloaded);
		sim->this_cpu = 1;
		assert_int_equal(sched_balance_rq(sim, 1, mc, CPU_IDLE), 0);
		assert_true(sim->doms.rd.overloaded); /* MC is not the top */
		assert_int_equal(sched_balance_rq(sim, 1, pkg, CPU_IDLE), 0);
		assert_false(sim->doms.rd.overloaded);
		tu_sim_free(sim);
	}
}

/*
 * The root domain's line. Up to v6.8 a top-level balance stores both flags
 * whether or not they change, so every CPU's next read of the line is a
 * miss; v6.9+ stores only a change. CPU 2 holds the line (it read it); CPU
 * 1 balances at PKG with nothing overloaded; CPU 2 reads again: on v6.4 a
 * transfer from CPU 1 in the other LLC of the same node (two-llc, the
 * default costs' "node": 100 ns), on mainline a hit ("local": 1 ns).
 */
static void test_rd_line_stores(void **state)
{
	(void)state;
	const int kv[] = { KV_6_4, KV_MAINLINE };
	const u64 want[] = { 100, 1 };

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(two_llc, "default", kv[k]);
		struct cacheline *l = &sim->doms.rd.line;

		sim->now = NOW;
		tu_busy(sim, 0);
		steady(sim, 0);
		cacheline_read(sim->m, l, 2, NOW);
		assert_int_equal(cacheline_read(sim->m, l, 2, NOW), 1); /* held: a hit */
		sim->this_cpu = 1;
		assert_int_equal(sched_balance_rq(sim, 1, level(sim, 1, "PKG"), CPU_IDLE), 0);
		assert_false(sim->doms.rd.overloaded);
		assert_int_equal(cacheline_read(sim->m, l, 2, NOW + NSEC_PER_MSEC), want[k]);
		tu_sim_free(sim);
	}
}

/*
 * sis_util_budget_pct's record: each LLC's nr_idle_scan integrated over
 * the run. On two-llc both LLCs start with their whole 2 CPUs (a booted
 * machine's budget); LLC {0,1}'s drops to 1 at 1000 ns and to 0 at 3000,
 * the other's stays 2: by 4000 ns, 2 x 1000 + 1 x 2000 + 0 x 1000 = 4000
 * and 2 x 4000 = 8000 CPU-ns, over 4 CPUs x 4000 ns: 75%. Without
 * SIS_UTIL (v5.12's SIS_PROP) there is no budget to report.
 */
static void test_sis_budget_record(void **state)
{
	(void)state;
	for (int on = 1; on >= 0; on--) {
		struct sim *sim = tu_sim(two_llc, on ? "default" : "NO_SIS_UTIL");
		struct sched_domain_shared *sds = sim->doms.cpu[0].sd_llc_shared;

		assert_int_equal(sds->nr_idle_scan, 2);
		sim->now = 1000;
		sis_budget_set(sim, sds, 1);
		sim->now = 3000;
		sis_budget_set(sim, sds, 0);
		sim->now = 4000;
		u64 area = 1, span = 1;

		sis_budget_totals(sim, &area, &span);
		assert_int_equal(area, on ? 12000 : 0);
		assert_int_equal(span, on ? 16000 : 0);
		assert_int_equal(sds->nr_idle_scan, 0);
		tu_sim_free(sim);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newidle_pulls_cold_task),
		cmocka_unit_test(test_idle_cpu_fills_other_llc),
		cmocka_unit_test(test_numa_imbalance),
		cmocka_unit_test(test_busy_balanced),
		cmocka_unit_test(test_rd_overloaded_sticky),
		cmocka_unit_test(test_rd_line_stores),
		cmocka_unit_test(test_sis_budget_record),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
