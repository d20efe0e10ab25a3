/*
 * test_profiles.c - one state, a different answer per --kernel: the wake-up
 * path of v5.12 (select_idle_sibling()/select_idle_cpu() with SIS_PROP, no
 * CLS level, the recent CPU replaced only when taken), of v6.4 (SIS_UTIL,
 * no cluster scan) and of mainline (cluster-first scan), the wake list,
 * and the new-idle gate. Expected values follow the kernels' rules as
 * docs/kernel-model.md cites them; each test says how.
 *
 * kunpeng920-48: no SMT, LLC 0-23, clusters of 4 CPUs ({4-7}, {8-11}...).
 */
#include "testutil.h"

static struct machine *kp, *two;

static int setup(void **state)
{
	(void)state;
	kp = tu_machine("kunpeng920-48");
	two = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_machine_free(kp);
	tu_machine_free(two);
	return 0;
}

static int sis(struct sim *sim, int this_cpu, struct task_struct *p, int prev, int target)
{
	sim->this_cpu = this_cpu;
	sim->kcost_ns = 0;
	sim->met.sis_scanned = 0;
	return select_idle_sibling(sim, p, prev, target);
}

/* kunpeng920-48's LLC, CPUs 0-23, all running a task but idle_cpu. */
static void llc_busy_but(struct sim *sim, int idle_cpu)
{
	for (int c = 0; c < 24; c++)
		if (c != idle_cpu)
			tu_busy(sim, c);
}

/* The CLS level exists from v5.16 (CONFIG_SCHED_CLUSTER): not on v5.12. */
static void test_cls_level(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(kp, "default", KV_5_12);

	assert_string_equal(sim->doms.cpu[0].sd->name, "MC");
	assert_false(sim->doms.cluster_active);
	tu_sim_free(sim);
	sim = tu_sim_kernel(kp, "default", KV_6_4);
	assert_string_equal(sim->doms.cpu[0].sd->name, "CLS");
	tu_sim_free(sim);
}

/*
 * LLC 0-23 busy but for CPU 10; p wakes with prev = target = 5.
 *  - v5.12: the scan starts at target itself: 5, 6, 7, 8, 9, 10 (6 CPUs).
 *    SIS_PROP's budget is large: avg_idle 1 ms / 512 = 1953 ns per CPU of
 *    24 at an average scan cost of 0 + 1 ns.
 *  - v6.4: from target + 1: 6, 7, 8, 9, 10 (5).
 *  - mainline: the target's cluster first, 6, 7, 4, 5, then the rest of
 *    the LLC from 6: 8, 9, 10 (7).
 * And with prev = 9 idle too, in another cluster than target 5: v5.12 and
 * v6.4 take prev at once; mainline scans target's cluster first and, with
 * it all busy, the LLC from 6 finds 9 after 8 (prev only as a fallback).
 */
static void test_scan_order(void **state)
{
	(void)state;
	const int kv[] = { KV_5_12, KV_6_4, KV_MAINLINE };
	const unsigned long scanned[] = { 6, 5, 7 };
	const unsigned long scanned_prev9[] = { 0, 0, 6 };

	for (int k = 0; k < 3; k++) {
		struct sim *sim = tu_sim_kernel(kp, "default", kv[k]);
		struct task_struct *p = tu_task(sim, 5);

		llc_busy_but(sim, 10);
		if (kv[k] != KV_5_12)
			sim->doms.cpu[5].sd_llc_shared->nr_idle_scan = 24;
		assert_int_equal(sis(sim, 0, p, 5, 5), 10);
		assert_int_equal(sim->met.sis_scanned, scanned[k]);
		tu_sim_free(sim);

		sim = tu_sim_kernel(kp, "default", kv[k]);
		p = tu_task(sim, 5);
		for (int c = 0; c < 24; c++)
			if (c != 9 && c != 10)
				tu_busy(sim, c);
		if (kv[k] != KV_5_12)
			sim->doms.cpu[5].sd_llc_shared->nr_idle_scan = 24;
		assert_int_equal(sis(sim, 0, p, 9, 5), 9);
		assert_int_equal(sim->met.sis_scanned, scanned_prev9[k]);
		tu_sim_free(sim);
	}
}

/*
 * SIS_PROP's budget on v5.12: the waking CPU's avg_idle / 512 over the
 * LLC's avg_scan_cost + 1, times the LLC's 24 CPUs, at least 4.
 * LLC busy but for 12, target 5: the scan needs 8 CPUs (5..12).
 *  - avg_idle 51200 ns (100 per CPU), avg_scan_cost 99: 24 x 100 / 100 =
 *    24 CPUs: 12 is found.
 *  - avg_idle 5120 ns (10): 240 <= 4 x 100, so 4: 3 CPUs (5, 6, 7) are
 *    examined, then p stacks on target.
 * A scan that finds a CPU moves avg_scan_cost an eighth of the way to its
 * time; one that gives up does not move it.
 */
static void test_sis_prop_v5_12(void **state)
{
	(void)state;
	const u64 idle[] = { 51200, 5120 };
	const int want[] = { 12, 5 };
	const unsigned long scanned[] = { 8, 3 };

	for (int i = 0; i < 2; i++) {
		struct sim *sim = tu_sim_kernel(kp, "default", KV_5_12);
		struct task_struct *p = tu_task(sim, 5);
		struct sched_domain *llc = sim->doms.cpu[0].sd_llc;

		llc_busy_but(sim, 12);
		sim->rq[0].avg_idle = idle[i];
		llc->avg_scan_cost = 99;
		sim->met.scan_ns = 0;
		assert_int_equal(sis(sim, 0, p, 5, 5), want[i]);
		assert_int_equal(sim->met.sis_scanned, scanned[i]);
		if (i == 0) {
			/* The scan's time is all of this call's scanning work. */
			s64 t = (s64)sim->met.scan_ns;

			assert_true(t > 0);
			assert_int_equal(llc->avg_scan_cost, (u64)(99 + (t - 99) / 8));
		} else {
			assert_int_equal(llc->avg_scan_cost, 99);
		}
		tu_sim_free(sim);
	}
}

/*
 * SIS_PROP of v5.13..v6.6 (here v6.4 with SIS_PROP on, SIS_UTIL off): the
 * budget uses wake_avg_idle, halved for each jiffy (4 ms at HZ=250) since
 * the last wake from idle: 400 ns two jiffies ago is 100 now, and
 * 24 x 100 / (99 + 1) = 24 CPUs. The scan's time is then taken off
 * wake_avg_idle.
 */
static void test_sis_prop_aged(void **state)
{
	(void)state;
	struct sim *sim = tu_sim_kernel(kp, "SIS_PROP,NO_SIS_UTIL", KV_6_4);
	struct task_struct *p = tu_task(sim, 5);
	struct rq *rq0 = &sim->rq[0];

	llc_busy_but(sim, 12);
	sim->now = 40 * sim->tun->tick_ns;
	rq0->wake_stamp = 38;
	rq0->wake_avg_idle = 400;
	sim->doms.cpu[0].sd_llc->avg_scan_cost = 99;
	assert_int_equal(sis(sim, 0, p, 5, 5), 12);
	/* From target + 1: 6..12. */
	assert_int_equal(sim->met.sis_scanned, 7);
	assert_int_equal(rq0->wake_stamp, 40);
	assert_int_equal(rq0->wake_avg_idle, 100 - (sim->met.scan_ns < 100 ? sim->met.scan_ns : 100));
	tu_sim_free(sim);

	/* 8 jiffies later the same 400 ns is worth 400 >> 8 = 1: budget 4. */
	sim = tu_sim_kernel(kp, "SIS_PROP,NO_SIS_UTIL", KV_6_4);
	p = tu_task(sim, 5);
	llc_busy_but(sim, 12);
	sim->now = 46 * sim->tun->tick_ns;
	sim->rq[0].wake_stamp = 38;
	sim->rq[0].wake_avg_idle = 400;
	sim->doms.cpu[0].sd_llc->avg_scan_cost = 99;
	assert_int_equal(sis(sim, 0, p, 5, 5), 5);
	assert_int_equal(sim->met.sis_scanned, 3);
	tu_sim_free(sim);
}

/*
 * SIS_PROP of v5.13..v6.6 on a CPU that has not woken from idle since the
 * run began: sched_init() (core.c) set its wake_avg_idle to avg_idle, 2 x
 * sysctl_sched_migration_cost = 1,000,000 ns, stamped at jiffy 0. LLC busy
 * but for 12, target 5, avg_scan_cost 99:
 *  - at jiffy 0 the budget is 24 x 1,000,000 / 100 = 240,000 CPUs: the
 *    scan goes 6..12 (7 CPUs) and finds 12;
 *  - 20 jiffies on, 1,000,000 >> 20 = 0, so the floor of 4: 6, 7, 8 are
 *    examined and p stacks on target 5.
 * (Found in B2's hackbench at one group: the parent, on a CPU idle since the
 * start, woke its 40 children with a budget of 4 where the kernel's was the
 * LLC; the model had left wake_avg_idle at 0.)
 */
static void test_sis_prop_boot_budget(void **state)
{
	(void)state;
	const u64 at_jiffy[] = { 0, 20 };
	const int want[] = { 12, 5 };
	const unsigned long scanned[] = { 7, 3 };

	for (int i = 0; i < 2; i++) {
		struct sim *sim = tu_sim_kernel(kp, "SIS_PROP,NO_SIS_UTIL", KV_6_4);
		struct task_struct *p = tu_task(sim, 5);

		assert_int_equal(sim->rq[0].wake_avg_idle, 1000000);
		assert_int_equal(sim->rq[0].wake_stamp, 0);
		llc_busy_but(sim, 12);
		sim->now = at_jiffy[i] * sim->tun->tick_ns;
		sim->doms.cpu[0].sd_llc->avg_scan_cost = 99;
		assert_int_equal(sis(sim, 0, p, 5, 5), want[i]);
		assert_int_equal(sim->met.sis_scanned, scanned[i]);
		tu_sim_free(sim);
	}
}

/*
 * recent_used_cpu: v5.12 replaces it by prev only when it is taken; later
 * kernels on every call. And until v5.16 an affine wake-up set the waker's
 * recent_used_cpu to the waking CPU.
 */
static void test_recent_used_cpu(void **state)
{
	(void)state;
	const int kv[] = { KV_5_12, KV_MAINLINE };
	const int after_miss[] = { 7, 5 };

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(kp, "default", kv[k]);
		struct task_struct *p = tu_task(sim, 5);

		tu_busy(sim, 5);
		tu_busy(sim, 7);
		p->recent_used_cpu = 7;
		sis(sim, 0, p, 5, 5);
		assert_int_equal(p->recent_used_cpu, after_miss[k]);
		/* An idle recent CPU (in target's cluster) is taken; prev replaces it. */
		p->recent_used_cpu = 6;
		assert_int_equal(sis(sim, 0, p, 5, 5), 6);
		assert_int_equal(p->recent_used_cpu, 5);
		tu_sim_free(sim);
	}

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(kp, "default", kv[k]);
		struct task_struct *waker = tu_busy(sim, 2), *p = tu_task(sim, 5);

		waker->recent_used_cpu = 3;
		sim->this_cpu = 2;
		select_task_rq_fair(sim, p, 5, WF_TTWU);
		assert_int_equal(waker->recent_used_cpu, kv[k] == KV_5_12 ? 2 : 3);
		tu_sim_free(sim);
	}
}

/*
 * The wake list within an LLC: since v6.0 a wake-up to an idle CPU of the
 * waker's LLC is queued on its list (it enqueues itself after the IPI);
 * v5.12 takes the remote runqueue lock and enqueues.
 */
static void test_wakelist(void **state)
{
	(void)state;
	const int kv[] = { KV_5_12, KV_6_4, KV_MAINLINE };
	const bool listed[] = { false, true, true };

	for (int k = 0; k < 3; k++) {
		struct sim *sim = tu_sim_kernel(kp, "default", kv[k]);
		struct task_struct *p = tu_task(sim, 5);

		tu_busy(sim, 0);
		sim->this_cpu = 0;
		assert_int_equal(try_to_wake_up(sim, p, 0), 1);
		tu_wake_read(sim, p);
		/* prev 5 is idle: wake_affine_idle() keeps it. */
		assert_int_equal(task_cpu(p), 5);
		assert_int_equal(p->wake_via_list, listed[k]);
		tu_sim_free(sim);
	}
}

/*
 * New-idle balance: v5.12 skipped it while the CPU's avg_idle was under
 * sysctl_sched_migration_cost (0.5 ms); v5.16+ compare avg_idle with the
 * domain's max_newidle_lb_cost. CPU 1 runs one task and has a second,
 * long since run (not cache hot), queued; CPU 0, idle on average 0.3 ms,
 * goes idle.
 */
static void test_newidle_gate(void **state)
{
	(void)state;
	const int kv[] = { KV_5_12, KV_6_4, KV_MAINLINE };
	const int pulled[] = { 0, 1, 1 };

	for (int k = 0; k < 3; k++) {
		struct sim *sim = tu_sim_kernel(two, "default", kv[k]);
		struct task_struct *q = tu_task(sim, 1);

		tu_busy(sim, 1);
		sim->now = 100 * NSEC_PER_MSEC;
		sim->this_cpu = 1;
		q->__state = TASK_RUNNING;
		activate_task(sim, &sim->rq[1], q, ENQUEUE_WAKEUP);
		sim->this_cpu = 0;
		sim->rq[0].avg_idle = 300 * NSEC_PER_USEC;
		sim->doms.cpu[0].sd->max_newidle_lb_cost = 10 * NSEC_PER_USEC;
		assert_int_equal(newidle_balance(sim, &sim->rq[0]), pulled[k]);
		assert_int_equal(task_cpu(q), pulled[k] ? 0 : 1);
		tu_sim_free(sim);
	}
}

/* A sleeping task on cpu whose util_est is util (0..1024). */
static struct task_struct *task_util_of(struct sim *sim, int cpu, unsigned int util)
{
	struct task_struct *p = tu_task(sim, cpu);

	p->se.avg.util_est = util;
	return p;
}

/*
 * tensor-gs101, every CPU idle. A task of util 300 does not fit an A55
 * with fits_capacity()'s 20% headroom (300 x 1280 = 384000 against
 * 161 x 1024 = 164864) but fits an A76 (499 x 1024 = 510976).
 *  - prev = target = 0 (an A55): on every kernel select_idle_capacity()
 *    scans from 0 and takes the first idle CPU that fits: 4.
 *  - prev 6 (an X1, fits), target 0: v6.4 takes the idle prev that fits
 *    before any scan; mainline keeps prev (in another cluster) only as a
 *    fallback, which the capacity search does not use: 4; v5.12 searches
 *    capacity first: 4.
 * A task of util 1000 fits nowhere (1000 x 1280 > 1024 x 1024): the idle
 * CPU of the highest capacity, the first X1 from target: 6.
 * On alderlake-12700h every capacity is 1024 (stock, SMT on): the wake-up
 * does not look at capacity, and the idle E-core target is kept.
 */
static void test_capacity_aware(void **state)
{
	(void)state;
	struct machine *gs = tu_machine("tensor-gs101"), *adl;
	const int kv[] = { KV_5_12, KV_6_4, KV_MAINLINE };
	const int prev6[] = { 4, 6, 4 };

	for (int k = 0; k < 3; k++) {
		struct sim *sim = tu_sim_kernel(gs, "default", kv[k]);
		struct task_struct *p = task_util_of(sim, 0, 300);

		assert_int_equal(sis(sim, 0, p, 0, 0), 4);
		assert_int_equal(sis(sim, 0, p, 6, 0), prev6[k]);
		p = task_util_of(sim, 0, 1000);
		assert_int_equal(sis(sim, 0, p, 0, 0), 6);
		assert_int_equal(sis(sim, 2, p, 0, 2), 6);
		tu_sim_free(sim);
	}
	tu_machine_free(gs);

	adl = tu_machine("alderlake-12700h");
	struct sim *sim = tu_sim_kernel(adl, "default", KV_MAINLINE);
	struct task_struct *p = task_util_of(sim, 12, 900);

	assert_int_equal(sis(sim, 12, p, 12, 12), 12);
	tu_sim_free(sim);
	tu_machine_free(adl);
}

/*
 * SIS_SHORT's threshold follows the profile's slice (S4's CFS patch:
 * min_granularity / 8; on EEVDF the base slice / 8), also a slice set by
 * --sysctl, until it is set itself. v6.4 on 8 CPUs: factor 1 + ilog2(8) =
 * 4, min_granularity 0.75 ms x 4 = 3 ms, so 375 us; 4 ms gives 500 us.
 */
static void test_sis_short_follows_slice(void **state)
{
	(void)state;
	struct sched_tunables t;
	char err[256];

	sched_tunables_default(&t, 8);
	sched_tunables_kernel(&t, KV_6_4, 8);
	assert_int_equal(t.sis_short_ns, 375000);
	assert_int_equal(sched_tunables_set(&t, KV_6_4, "min_granularity_ns=4000000", err, sizeof(err)), 0);
	sched_tunables_derive(&t);
	assert_int_equal(t.sis_short_ns, 500000);
	assert_int_equal(sched_tunables_set(&t, KV_6_4, "sis_short_ns=100000", err, sizeof(err)), 0);
	assert_int_equal(sched_tunables_set(&t, KV_6_4, "min_granularity_ns=8000000", err, sizeof(err)), 0);
	sched_tunables_derive(&t);
	assert_int_equal(t.sis_short_ns, 100000);
	/* Mainline (EEVDF): 0.70 ms x 4 = 2.8 ms base slice, so 350 us. */
	sched_tunables_default(&t, 8);
	sched_tunables_kernel(&t, KV_MAINLINE, 8);
	assert_int_equal(t.sis_short_ns, 350000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cls_level),
		cmocka_unit_test(test_scan_order),
		cmocka_unit_test(test_sis_prop_v5_12),
		cmocka_unit_test(test_sis_prop_aged),
		cmocka_unit_test(test_sis_prop_boot_budget),
		cmocka_unit_test(test_recent_used_cpu),
		cmocka_unit_test(test_wakelist),
		cmocka_unit_test(test_newidle_gate),
		cmocka_unit_test(test_sis_short_follows_slice),
		cmocka_unit_test(test_capacity_aware),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
