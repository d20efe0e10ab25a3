/*
 * test_wakeup.c - the wake-up path on hand-set idle/busy states, expected
 * CPUs derived from select_task_rq_fair()/select_idle_sibling() of
 * kernel/sched/fair.c (v6.12) step by step (see each test's comment), with
 * and without SMT and with each seed proposal.
 */
#include "testutil.h"
#include "features/features.h"

static struct sim *new_sim(const char *machine, const char *features, struct machine **m)
{
	*m = tu_machine(machine);
	return tu_sim(*m, features);
}

static void set_scan(struct sim *sim, int cpu, int nr)
{
	sim->doms.cpu[cpu].sd_llc_shared->nr_idle_scan = nr;
}

/* select_idle_sibling() as called from CPU this_cpu. */
static int sis(struct sim *sim, int this_cpu, struct task_struct *p, int prev, int target)
{
	sim->this_cpu = this_cpu;
	sim->kcost_ns = 0;
	return select_idle_sibling(sim, p, prev, target);
}

/*
 * kunpeng920-48: no SMT, clusters {0-3}, {4-7}, ... inside the 24-CPU
 * LLC 0-23. Idle target wins; else an idle prev in the target's cluster;
 * a prev in another cluster is only a fallback (cluster scan first).
 */
static void test_cluster_order(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 6);

	assert_int_equal(sis(sim, 0, p, 6, 5), 5);		/* target idle */
	tu_busy(sim, 5);
	assert_int_equal(sis(sim, 0, p, 6, 5), 6);		/* prev idle, same cluster */
	/* recent_used_cpu 6 (where p was created) is idle and in the cluster. */
	assert_int_equal(sis(sim, 0, p, 9, 5), 6);
	assert_int_equal(p->recent_used_cpu, 9);
	/* prev 9 is in cluster {8-11}: fallback only. nr_idle_scan = 0: no scan. */
	set_scan(sim, 5, 0);
	assert_int_equal(sis(sim, 0, p, 9, 5), 9);
	assert_int_equal(sim->met.sis_scanned, 0);
	/* With a budget the target's cluster is scanned first, from 6. */
	set_scan(sim, 5, 24);
	assert_int_equal(sis(sim, 0, p, 9, 5), 6);
	/* The whole cluster busy: 6, 7, 4, 5 then the rest of the LLC from 6: 8. */
	tu_busy(sim, 4);
	tu_busy(sim, 6);
	tu_busy(sim, 7);
	sim->met.sis_scanned = 0;
	assert_int_equal(sis(sim, 0, p, 5, 5), 8);
	assert_int_equal(sim->met.sis_scanned, 5);
	/* Budget 2 (nr = 3): 6 and 7 examined, then give up and stack on target. */
	set_scan(sim, 5, 2);
	sim->met.sis_scanned = 0;
	assert_int_equal(sis(sim, 0, p, 5, 5), 5);
	assert_int_equal(sim->met.sis_scanned, 2);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* recent_used_cpu: tried after prev, and replaced by prev on every call. */
static void test_recent_used_cpu(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 5);

	tu_busy(sim, 5);
	set_scan(sim, 5, 0);
	p->recent_used_cpu = 7;
	assert_int_equal(sis(sim, 0, p, 5, 5), 7);
	assert_int_equal(p->recent_used_cpu, 5);
	/* Not idle: falls through (no budget) to stacking on target. */
	tu_busy(sim, 7);
	p->recent_used_cpu = 7;
	assert_int_equal(sis(sim, 0, p, 5, 5), 5);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * epyc9654-2s, SMT: with has_idle_cores set the scan looks for a whole idle
 * core from target+1 (core {1,193}); without it, prev's sibling is tried
 * first (select_idle_smt()).
 */
static void test_smt(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("epyc9654-2s", "default", &m);
	struct task_struct *p = tu_task(sim, 0);
	struct sched_domain_shared *sds = sim->doms.cpu[0].sd_llc_shared;

	tu_busy(sim, 0);
	set_scan(sim, 0, 16);
	sds->has_idle_cores = 1;
	assert_int_equal(sis(sim, 0, p, 0, 0), 1);
	sds->has_idle_cores = 0;
	assert_int_equal(sis(sim, 0, p, 0, 0), 192);
	/*
	 * First threads 0-7 busy, 192-199 idle, flag (wrongly) set: no core is
	 * idle; the first idle thread seen (193, of core 1) is the answer and
	 * the flag is cleared.
	 */
	for (int c = 1; c < 8; c++)
		tu_busy(sim, c);
	sds->has_idle_cores = 1;
	assert_int_equal(sis(sim, 0, p, 0, 0), 193);
	assert_int_equal(sds->has_idle_cores, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* wake_wide(): both flip counts >= llc size (24) and one >= the other * 24. */
static void test_wake_wide(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *waker = tu_task(sim, 0), *p = tu_task(sim, 1);

	sim->this_cpu = 0;
	waker->wakee_flips = 576;
	p->wakee_flips = 24;
	assert_int_equal(wake_wide(sim, waker, p), 1);
	waker->wakee_flips = 575;
	assert_int_equal(wake_wide(sim, waker, p), 0);
	waker->wakee_flips = 576;
	p->wakee_flips = 23;
	assert_int_equal(wake_wide(sim, waker, p), 0);
	/* Symmetric in waker and wakee. */
	waker->wakee_flips = 24;
	p->wakee_flips = 576;
	assert_int_equal(wake_wide(sim, waker, p), 1);
	/* record_wakee(): a new wakee flips, the same one does not. */
	waker->wakee_flips = 0;
	record_wakee(sim, waker, p);
	record_wakee(sim, waker, p);
	assert_int_equal(waker->wakee_flips, 1);
	record_wakee(sim, waker, waker);
	assert_int_equal(waker->wakee_flips, 2);
	/* Halved once a second (HZ jiffies) passed. */
	sim->now = 2 * NSEC_PER_SEC;
	record_wakee(sim, waker, waker);
	assert_int_equal(waker->wakee_flips, 1);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * S3 AFFINE_SAME_LLC: waker on 0 (busy), wakee last on 10 (same LLC, other
 * cluster), flips that make wake_wide() true. Default: no affine path,
 * target = prev 10 (idle). With S3: wake_affine() at MC, sync with one
 * task on 0 -> target 0, busy; prev 10 is only a fallback; the cluster
 * scan of 0 finds 1.
 */
static void test_affine_same_llc(void **state)
{
	(void)state;
	const char *feats[] = { "default", "AFFINE_SAME_LLC" };
	const int want[] = { 10, 1 };

	for (int i = 0; i < 2; i++) {
		struct machine *m;
		struct sim *sim = new_sim("kunpeng920-48", feats[i], &m);
		struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10);

		set_scan(sim, 0, 24);
		waker->wakee_flips = 1000;
		waker->last_wakee = p;
		p->wakee_flips = 30;
		sim->this_cpu = 0;
		assert_int_equal(select_task_rq_fair(sim, p, 10, WF_TTWU | WF_SYNC), want[i]);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * S4 SIS_SHORT: waker (on 0) and wakee short (dur_avg 10 us < 2.8 ms / 8),
 * prev 10 busy, a non-sync wake-up, scan budget 10 (< 60% of 24).
 * Default: wake_affine_weight() with zero loads keeps prev; the scan of
 * prev's cluster {8-11} from 11 finds 11. SIS_SHORT: wake_affine_idle()
 * returns the short waker's CPU, and select_idle_cpu() stops there: 0.
 */
static void test_sis_short(void **state)
{
	(void)state;
	const char *feats[] = { "default", "SIS_SHORT" };
	const int want[] = { 11, 0 };

	for (int i = 0; i < 2; i++) {
		struct machine *m;
		struct sim *sim = new_sim("kunpeng920-48", feats[i], &m);
		struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10);

		tu_busy(sim, 10);
		set_scan(sim, 0, 10);
		set_scan(sim, 10, 10);
		waker->dur_avg = p->dur_avg = 10000;
		waker->last_wakee = p;
		sim->this_cpu = 0;
		assert_int_equal(select_task_rq_fair(sim, p, 10, WF_TTWU), want[i]);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/* S2 IDLE_DELAY: a CPU that left idle 0.5 ms ago still counts as idle. */
static void test_idle_delay(void **state)
{
	(void)state;
	const char *feats[] = { "default", "IDLE_DELAY" };
	const int want[] = { 4, 5 };

	for (int i = 0; i < 2; i++) {
		struct machine *m;
		struct sim *sim = new_sim("kunpeng920-48", feats[i], &m);
		struct task_struct *p = tu_task(sim, 5);

		tu_busy(sim, 5);
		/* CPU 5 left idle at 9.5 ms: the layer's own hooks see it (features/idle_delay.c). */
		sim->now = 10 * NSEC_PER_MSEC - 500000;
		policy_sim = sim;
		if (i) {
			feature_idle_delay.init();
			feature_idle_delay.idle_exit(5);
		}
		policy_sim = NULL;
		sim->now = 10 * NSEC_PER_MSEC;
		set_scan(sim, 5, 24);
		/* Default: 5 busy, prev == target; cluster scan from 6... 6 busy too. */
		tu_busy(sim, 6);
		tu_busy(sim, 7);
		assert_int_equal(sis(sim, 0, p, 5, 5), want[i]);
		/* After 1 ms the delay is over. */
		sim->now += NSEC_PER_MSEC;
		assert_int_equal(sis(sim, 0, p, 5, 5), 4);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * S1 IDLE_CORES_NO_SMT: same choice, plus one read of the LLC-shared line
 * (last written by CPU 10, another cluster of the same die: 36 ns on
 * Kunpeng). Without SIS_UTIL that read is the whole difference; with
 * SIS_UTIL, select_idle_cpu() reads the same line for nr_idle_scan anyway.
 */
static void test_idle_cores_no_smt(void **state)
{
	(void)state;
	const char *feats[] = { "NO_SIS_UTIL", "NO_SIS_UTIL,IDLE_CORES_NO_SMT" };
	u64 cost[2];

	for (int i = 0; i < 2; i++) {
		struct machine *m;
		struct sim *sim = new_sim("kunpeng920-48", feats[i], &m);
		struct task_struct *p = tu_task(sim, 5);
		struct sched_domain_shared *sds = sim->doms.cpu[0].sd_llc_shared;

		tu_busy(sim, 5);
		cacheline_write(m, &sds->line, 10, 0);
		assert_int_equal(sis(sim, 0, p, 5, 5), 6);
		cost[i] = sim->kcost_ns;
		tu_sim_free(sim);
		tu_machine_free(m);
	}
	assert_int_equal(cost[1] - cost[0], 36);
}

/*
 * NUMA (kunpeng920-48, node distances from node 0: 16 to node 1, 32 to
 * node 2): a sync wake-up from CPU 0, its only task the waker, of a task
 * last on node 1 (CPU 30): the NUMA level spanning nodes 0-1 (distance
 * 16 <= RECLAIM_DISTANCE 30) has SD_WAKE_AFFINE, wake_affine_idle() takes
 * the waking CPU (sync, one task), and the idle search of its LLC finds
 * CPU 1. Last on node 2 (CPU 50): no level holding both CPUs may wake
 * affine (32 > 30) and none balances on wake-up, so the task stays at its
 * previous CPU, idle: 50.
 */
static void test_numa_wake_affine(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 30), *q = tu_task(sim, 50);

	tu_busy(sim, 0);
	sim->doms.cpu[0].sd_llc_shared->nr_idle_scan = 24;
	sim->this_cpu = 0;
	assert_int_equal(select_task_rq_fair(sim, p, 30, WF_TTWU | WF_SYNC), 1);
	assert_int_equal(select_task_rq_fair(sim, q, 50, WF_TTWU | WF_SYNC), 50);
	/*
	 * The same two as wake-ups: p lands in the waker's LLC (CPU 1), an
	 * affine move at the NUMA level; q stays on node 2, the one wake-up
	 * that leaves the waker's LLC (an LLC is a node here).
	 */
	assert_int_equal(try_to_wake_up(sim, p, WF_SYNC), 1);
	tu_wake_read(sim, p);
	assert_int_equal(task_cpu(p), 1);
	assert_int_equal(sim->met.wake_cross_llc, 0);
	assert_int_equal(try_to_wake_up(sim, q, WF_SYNC), 1);
	tu_wake_read(sim, q);
	assert_int_equal(task_cpu(q), 50);
	assert_int_equal(sim->met.wake_cross_llc, 1);
	unsigned int affine = 0;
	struct sched_domain *sd;

	/* p's two placements, by select_task_rq_fair() and by the wake-up. */
	for_each_domain(sim, 0, sd)
		affine += sd->ttwu_move_affine;
	assert_int_equal(affine, 2);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * ttwu_stat()'s schedstats, counted on the waker's CPU 0 (busy) of
 * ideal-2cpu. p last ran on idle CPU 1: wake_affine_idle() keeps the idle
 * prev, select_idle_sibling() takes it: a remote wake-up (ttwu_count 1,
 * ttwu_local 0, ttwu_wake_remote 1 at the domain spanning both), not an
 * affine move. q last ran on CPU 0 with both CPUs busy: prev is the
 * waker's CPU, so wake_affine() is not even asked, and q stays: local.
 */
static void test_ttwu_schedstats(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("tests/data/ideal-2cpu.json", "default", &m);
	struct sched_domain *sd = sim->doms.cpu[0].sd;
	struct task_struct *p, *q;

	tu_busy(sim, 0);
	p = tu_task(sim, 1);
	sim->this_cpu = 0;
	assert_int_equal(try_to_wake_up(sim, p, 0), 1);
	tu_wake_read(sim, p);
	assert_int_equal(task_cpu(p), 1);
	assert_int_equal(sim->rq[0].ttwu_count, 1);
	assert_int_equal(sim->rq[0].ttwu_local, 0);
	assert_true(cpumask_test_cpu(1, &sd->span));
	assert_int_equal(sd->ttwu_wake_remote, 1);
	assert_int_equal(sd->ttwu_move_affine, 0);
	assert_int_equal(sim->rq[1].ttwu_count, 0);
	assert_int_equal(sim->met.wake_cross_llc, 0); /* one LLC */

	tu_sim_free(sim);
	sim = tu_sim(m, "default");
	sd = sim->doms.cpu[0].sd;
	tu_busy(sim, 0);
	tu_busy(sim, 1);
	q = tu_task(sim, 0);
	sim->this_cpu = 0;
	assert_int_equal(try_to_wake_up(sim, q, 0), 1);
	assert_int_equal(task_cpu(q), 0);
	assert_int_equal(sim->rq[0].ttwu_count, 1);
	assert_int_equal(sim->rq[0].ttwu_local, 1);
	assert_int_equal(sd->ttwu_wake_remote, 0);
	assert_int_equal(sd->ttwu_move_affine, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * A wake-up claims the CPU it chose only if that CPU was still idle when
 * its path read it (try_to_wake_up(): select_idle_cpu() reads the CPU it
 * returns last, then set_task_cpu() and the write of ttwu_pending, and
 * only then the wake list's llist add and IPI send, __ttwu_queue_wakelist()
 * v6.4). ideal-4cpu-scan, v6.4: CPUs 0 and 1 run W1 and W2, 2 and 3 are
 * idle; the path costs ttwu 100 + select 100 + 100 per CPU scanned, and
 * every line is free, so a claim lands when its scan read the CPU (the
 * 50-ns IPI send follows it). At 1 ms W1 wakes A (prev 0 = target): the
 * scan reads CPU 1 (busy), then CPU 2 (idle) at 1 ms + 400 ns. B (prev 1)
 * is woken from CPU 1 at 1 ms + d: its scan reads CPU 2 at d + 300 ns and
 * claims it then.
 *  - d = 20: B claims CPU 2 at 320 ns, before A's path reads it at 400:
 *    A's scan goes on to CPU 3, read and claimed at 500 ns.
 *  - d = 70: B claims CPU 2 at 370 ns, still before A's read: the same.
 *    (Before 2026-12-07 the claim waited for the IPI's send, 50 ns, and
 *    A, reading at 400, saw CPU 2 idle and landed on it too.)
 * The race itself, a read inside another path's window between its read
 * and its claim, needs lines that cost: test_claim_window_lines.
 */
static void race_case(int d, int a_cpu, u64 a_claim, int rechecks)
{
	struct machine *m = tu_machine("tests/data/ideal-4cpu-scan.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct task_struct *a = tu_task(sim, 0), *b = tu_task(sim, 1);

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	sim->now = NSEC_PER_MSEC;
	sim->this_cpu = 0;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, a, 0), 1);
	assert_true(a->wake_checking);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 400);
	sim->now = NSEC_PER_MSEC + (u64)d;
	sim->this_cpu = 1;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, b, 0), 1);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + (u64)d + 300);
	/* B's read of CPU 2 comes first either way: idle, claimed at once. */
	tu_wake_read(sim, b);
	assert_int_equal(task_cpu(b), 2);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + (u64)d + 300);
	if (b->ev_wake.time < a->ev_wake.time) {
		evq_cancel(&sim->eng.evq, &b->ev_wake);
		sim->now = b->ev_wake.time;
		ttwu_queue_event(sim, b);
	}
	tu_wake_read(sim, a);
	tu_wake_read(sim, a); /* its scan's next answer, if it went on */
	assert_int_equal(task_cpu(a), a_cpu);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + a_claim);
	assert_int_equal(sim->met.wake_rechecks, rechecks);
	assert_int_equal(sim->met.place_reason[PR_SCAN_IDLE_CPU], 2);
	tu_sim_free(sim);
	tu_machine_free(m);
}

static void test_wake_claims_what_it_read(void **state)
{
	(void)state;
	race_case(20, 3, 500, 1);
	race_case(70, 3, 500, 1);
}

/*
 * One CPU's wake-ups run one after another: the second reads what the
 * first wrote (try_to_wake_up()'s ttwu_pending, v6.4). ideal-4cpu-scan,
 * v6.4: CPU 0 runs W, CPUs 1-3 are idle; A and B last ran on CPU 0, so
 * prev is the waker's CPU and select_idle_sibling() scans from CPU 1.
 * W wakes A, then B, both at 1 ms: A's scan reads CPU 1 (idle) at
 * ttwu 100 + select 100 + 100 = 300 ns and claims it then (its lines are
 * free); the IPI's send, 50 ns, follows the claim, so CPU 1 hears it at
 * 350. B's scan, decided at the same instant, must see CPU 1 taken (the
 * model's claim is still an event): it goes on to CPU 2, read and claimed
 * at 400 ns. Reading CPU 1 idle, both would land on it.
 * CPU 3, which no claim names, stays idle to W's reads throughout.
 */
/* A's and B's scans read CPUs 1 and 2 idle and claim them a_ns and b_ns after 1 ms. */
static void claims_land(struct sim *sim, struct task_struct *a, struct task_struct *b, u64 a_ns,
			u64 b_ns)
{
	tu_wake_read(sim, a);
	assert_int_equal(task_cpu(a), 1);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + a_ns);
	tu_wake_read(sim, b);
	assert_int_equal(task_cpu(b), 2);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + b_ns);
}

/* cpu, running nothing else of its own kernel work, wakes p at now (ns). */
static void wake_at(struct sim *sim, struct task_struct *p, int cpu, u64 now)
{
	sim->now = now;
	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, p, 0), 1);
}

/*
 * A remote wake-up onto a busy CPU of the waker's LLC takes that CPU's
 * rq lock and enqueues under it (ttwu_queue(), core.c v6.4): the
 * enqueue's lines are the waker's work, done while it holds the lock.
 * ideal-4cpu-scan, v6.4, every transfer 10 ns (a hit 0), no wake-up
 * preemption (so no IPI): CPUs 0, 1 and 2 run a task each; A and B may
 * run only on CPU 2. CPU 0 wakes A at 1 ms and CPU 1 wakes B at 1 ms +
 * 30; each path charges ttwu 100, then ttwu_queue_cond() reads CPU 2's
 * nr_running (v6.0+) to choose between the wake list and the lock: the
 * runqueue's line, from CPU 2 (which wrote it starting its task), 10 for
 * each waker (B's copy from CPU 0 or 2, the line being clean). CPU 2
 * runs a task, so both take the lock, at 1 ms + 110 and 1 ms + 140.
 *  A (waker CPU 0): the lock's line, which CPU 2 still shares, is
 *    written: 10, so the section opens at 120. update_rq_clock() writes
 *    the clock's two lines, never
 *    written (tu_busy() starts a task without a __schedule()): from
 *    memory, 10 each. The enqueue's PELT update reads the cfs_rq's
 *    removed count from CPU 2, 10, and, its clock having crossed 1024-ns
 *    periods since CPU 2's enqueue, writes the averages' line, 10.
 *    nr_running 1 -> 2 sets the root domain's overload flag: its line
 *    read as a hit (each CPU read it at its enqueue) and written from
 *    CPU 1, the lowest other holder, 10. The runqueue's line is ours
 *    (0); its cfs line and the cfs_tasks list's line come from CPU 2, 10
 *    each; the overutilized check reads the flags line, ours (0). 80 ns;
 *    the section closes at 110 + 80 + ttwu 100 = 290.
 *  B (waker CPU 1), at 140: spins to 290 (150) and enqueues only then
 *    (the step comes back at 290): the lock's line from CPU 0, 10, the
 *    section from 300; the clock's two lines from CPU 0, 20; the removed
 *    count from CPU 0, 10 (no averages' write: the clock is in the same
 *    1024-ns period as at A's); no overload write (set); the cfs and
 *    cfs_tasks lines from CPU 0, 20; the flags line, written by CPU 0
 *    since CPU 1 read it, 10. 220 ns; the section closes at 140 + 220 +
 *    100 = 460.
 * Each waker's CPU pays its enqueue: CPU 0 runs 80 ns of kernel work
 * from 1 ms + 110, CPU 1 220 ns from 1 ms + 140.
 */
static void test_remote_enqueue_under_lock(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *a = tu_pinned_task(sim, 2, &only), *b = tu_pinned_task(sim, 2, &only);

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	tu_busy(sim, 2);
	wake_at(sim, a, 0, NSEC_PER_MSEC);
	assert_false(a->wake_via_list);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 110);
	wake_at(sim, b, 1, NSEC_PER_MSEC + 30);
	assert_false(b->wake_via_list);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + 140);
	/* Nothing is enqueued, and no lock taken, before the path's end. */
	assert_int_equal(sim->rq[2].nr_running, 1);
	assert_int_equal(sim->rq[2].lock.owner, -1);

	tu_wake_end(sim, a);
	assert_int_equal(sim->rq[2].nr_running, 2);
	assert_int_equal(sim->rq[2].lock.owner, 0);
	assert_int_equal(sim->rq[2].lock.from, NSEC_PER_MSEC + 120);
	assert_int_equal(sim->rq[2].lock.until, NSEC_PER_MSEC + 290);
	assert_int_equal(sim->rq[0].piece_end, NSEC_PER_MSEC + 110 + 80);

	tu_wake_end(sim, b);
	assert_int_equal(sim->rq[2].nr_running, 2);
	assert_int_equal(sim->rq[2].lock.owner, 0);
	assert_int_equal(sim->met.rq_lock_contended, 1);
	assert_int_equal(sim->met.rq_lock_wait_ns, 150);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + 290);
	assert_int_equal(sim->rq[1].piece_end, NSEC_PER_MSEC + 290);
	tu_wake_end(sim, b);
	assert_int_equal(sim->rq[2].nr_running, 3);
	assert_int_equal(sim->met.rq_lock_contended, 1);
	assert_int_equal(sim->rq[2].lock.from, NSEC_PER_MSEC + 300);
	assert_int_equal(sim->rq[2].lock.until, NSEC_PER_MSEC + 460);
	assert_int_equal(sim->rq[1].piece_end, NSEC_PER_MSEC + 140 + 220);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* A step that sleeps at once (a read of an empty pipe, say). */
static void block_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	(void)sim;
	p->__state = TASK_INTERRUPTIBLE;
	out->kind = STEP_BLOCK;
}

/*
 * A task that sleeps is dequeued under its CPU's rq lock (__schedule(),
 * core.c v6.4: rq_lock(), then deactivate_task()), so a remote waker
 * spins through the dequeue's lines too. ideal-4cpu-scan, v6.4, every
 * transfer 10 ns (a hit 0), no wake-up preemption: CPU 2 runs T, CPU 0
 * runs W. W wakes A (may run only on CPU 2) at 1 ms, and its enqueue at
 * 1 ms + 110 leaves CPU 2's runqueue line, clock lines, cfs line,
 * cfs_tasks line and averages' line written by CPU 0
 * (test_remote_enqueue_under_lock). CPU 1 wakes B (also CPU 2's only) at
 * 1 ms + 1915: ttwu 100, then ttwu_queue_cond()'s read of nr_running,
 * the runqueue's line from CPU 0, 10: its enqueue comes at 1 ms + 2025.
 * T sleeps at 1 ms + 2000: the lock's line from CPU 0, 10 (before B's
 * read of it at 2015, which waits for nothing), the section from 2010; the clock's two
 * lines from CPU 0, 20; the dequeue's PELT update reads the removed count
 * (CPU 2 still holds it: 0) and, a 1024-ns period on, writes the
 * averages' line from CPU 0, 10; the runqueue's line is CPU 2's again
 * (0), the cfs and cfs_tasks lines from CPU 0, 20; the pick of A reads
 * and writes only lines CPU 2 now holds, and a switch costs 0 here: the
 * section closes at 2060. B's waker arrives at 2025, spins 35 ns and
 * enqueues at 2060. Dequeued before the lock, as the model did until
 * 2026-12-06, the dequeue's 30 ns would come first, the section would
 * open at 2040, and B would not spin.
 */
static void test_sleeper_dequeued_under_lock(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *a = tu_pinned_task(sim, 2, &only), *b = tu_pinned_task(sim, 2, &only);
	struct rq *rq2 = &sim->rq[2];

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	tu_busy(sim, 2)->step_fn = block_step;
	wake_at(sim, a, 0, NSEC_PER_MSEC);
	tu_wake_end(sim, a);
	assert_int_equal(rq2->nr_running, 2);

	wake_at(sim, b, 1, NSEC_PER_MSEC + 1915);
	assert_false(b->wake_via_list);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + 2025);

	sim->now = NSEC_PER_MSEC + 2000;
	evq_cancel(&sim->eng.evq, &rq2->ev_run);
	exec_handle_run(sim, 2);
	assert_ptr_equal(rq2->curr, a);
	assert_int_equal(rq2->lock.owner, 2);
	assert_int_equal(rq2->lock.from, NSEC_PER_MSEC + 2010);
	assert_int_equal(rq2->lock.until, NSEC_PER_MSEC + 2060);

	tu_wake_end(sim, b);
	assert_int_equal(sim->met.rq_lock_contended, 1);
	assert_int_equal(sim->met.rq_lock_wait_ns, 35);
	assert_int_equal(rq2->nr_running, 1); /* A alone: B enqueues at 2060 */
	tu_wake_end(sim, b);
	assert_int_equal(rq2->nr_running, 2);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The tick runs task_tick_fair() under the CPU's rq lock (scheduler_tick(),
 * core.c v6.4). tu_lock_sim() with 10-ns transfers: CPU 2 runs a task since
 * 0; W on CPU 0 wakes A (CPU 2's only) at 1 ms - 15: ttwu 100, then
 * ttwu_queue_cond() reads CPU 2's nr_running, its runqueue line, written
 * by CPU 2 starting its task: the transfer is [1 ms + 85, 1 ms + 95), so
 * A's enqueue comes at 1 ms + 95. A tick on CPU 2 at 1 ms + 60 first
 * takes CPU 2 out of nohz's idle count (the LLC's shared line, never
 * touched: from memory, 10), then takes the lock at 70: the write
 * invalidates the copy W's read took (simulated first: coherence.h books
 * the transfers of a CPU that runs ahead first), 10, done at 80, before
 * that read's transfer. The section opens at 80, updates the clock (its
 * two lines never written: tu_busy() starts the task without a
 * __schedule(); from memory, 10 each) and the averages: the removed
 * count is CPU 2's (0), and the averages' line, never written (its first
 * update, at 0, had no period to close), comes from memory, 10. The
 * section is [1 ms + 80, 1 ms + 110): A's waker spins 15 ns and enqueues
 * at 1 ms + 110. Before 2026-12-06 the tick took no lock and A enqueued
 * at its path's end.
 */
static void test_tick_takes_rq_lock(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *a = tu_pinned_task(sim, 2, &only);
	struct rq *rq2 = &sim->rq[2];

	tu_busy(sim, 0);
	tu_busy(sim, 2);
	wake_at(sim, a, 0, NSEC_PER_MSEC - 15);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 95);
	assert_int_equal(rq2->lock.owner, -1);
	sim->now = NSEC_PER_MSEC + 60;
	evq_cancel(&sim->eng.evq, &rq2->ev_tick);
	exec_handle_tick(sim, 2);
	assert_int_equal(rq2->lock.owner, 2);
	assert_int_equal(rq2->lock.from, NSEC_PER_MSEC + 80);
	assert_int_equal(rq2->lock.until, NSEC_PER_MSEC + 110);
	tu_wake_end(sim, a);
	assert_int_equal(sim->met.rq_lock_wait_ns, 15);
	assert_int_equal(rq2->nr_running, 1);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 110);
	tu_wake_end(sim, a);
	assert_int_equal(rq2->nr_running, 2);
	assert_int_equal(rq2->lock.owner, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * TTWU_QUEUE_L2C (M. Desnoyers' RFC, 2023-08-22): ttwu_queue_cond() takes
 * the wake list for a busy CPU outside the waker's L2, where mainline
 * takes it only outside the LLC. ideal-2c2t: CPU 0's L2 is its core's,
 * CPUs 0 and 1, and CPUs 2 and 3 are the other core's; all four busy. A
 * wake-up from CPU 0 of a task that may run only on CPU 2 (another core,
 * the same LLC) is queued on CPU 2's list with the RFC and enqueued under
 * CPU 2's lock without it; one onto CPU 1 (the same core) takes the lock
 * either way.
 */
static void test_ttwu_queue_l2c(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2c2t.json");
	const char *feat[] = { "default", "TTWU_QUEUE_L2C" };
	struct cpumask only1, only2;

	for (int f = 0; f < 2; f++) {
		struct sim *sim = tu_sim_kernel(m, feat[f], KV_6_4);
		struct task_struct *p = tu_pinned_task(sim, 2, &only2), *q = tu_pinned_task(sim, 1, &only1);

		assert_true(doms_share_l2c(&sim->doms, 0, 1));
		assert_false(doms_share_l2c(&sim->doms, 0, 2));
		for (int cpu = 0; cpu < 4; cpu++)
			tu_busy(sim, cpu);
		sim->this_cpu = 0;
		assert_int_equal(try_to_wake_up(sim, p, 0), 1);
		assert_int_equal(p->wake_via_list, f == 1);
		sim->this_cpu = 0;
		assert_int_equal(try_to_wake_up(sim, q, 0), 1);
		assert_false(q->wake_via_list);
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * What a remote wake-up does between choosing its CPU and claiming it,
 * and after (try_to_wake_up() -> ttwu_queue_wakelist(), core.c v6.4):
 * ttwu_queue_cond() reads the target's nr_running (v6.0+: a CPU of the
 * waker's LLC gets the wake list only while it runs nothing), then
 * __ttwu_queue_wakelist() writes ttwu_pending, the claim other CPUs see,
 * and only then adds the entry and sends the IPI. tu_lock_sim() with
 * 10-ns transfers (the idle state halts: an IPI is needed, 50 ns to send,
 * 0 to arrive): CPU 0 runs W, CPU 2 has never run anything, and A may run
 * only on CPU 2 (no CPU to select). W wakes A at 1 ms: ttwu 100; the read
 * of CPU 2's runqueue line, never touched, from memory, 10; the write of
 * its ttwu_pending line, from memory too, 10. The claim lands at
 * 1 ms + 120; the send follows, 50 ns of W's time, so CPU 2 hears the IPI
 * at 1 ms + 170. Until 120, CPU 1 still reads CPU 2 idle: the window in
 * which two wakers can both take it.
 */
static void test_claim_window_lines(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *a = tu_pinned_task(sim, 2, &only);

	tu_busy(sim, 0);
	wake_at(sim, a, 0, NSEC_PER_MSEC);
	assert_true(a->wake_via_list);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 120);
	assert_int_equal(a->wake_ipi_lag, 50);
	assert_int_equal(sim->kcost_ns, 170); /* W's path, the send included */
	sim->this_cpu = 1;
	assert_true(idle_cpu(sim, 2));
	tu_wake_end(sim, a);
	sim->this_cpu = 1;
	assert_false(idle_cpu(sim, 2));
	assert_int_equal(sim->rq[2].ttwu_pending, 1);
	assert_true(event_queued(&sim->rq[2].ev_ipi));
	assert_int_equal(sim->rq[2].ev_ipi.time, NSEC_PER_MSEC + 170);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * Before v6.0 a remote wake-up onto an idle CPU of the waker's LLC took
 * its rq lock and enqueued (ttwu_queue_cond(), no idle-target case: that
 * came with f3dd3f674555, v6.0), and other CPUs see the CPU taken only
 * once enqueue_task_fair() has raised nr_running, at its end
 * (add_nr_running()). tu_lock_sim() with 10-ns transfers, v5.12: CPU 0
 * runs W, CPU 2 has never run anything; A may run only on CPU 2. W wakes
 * A at 1 ms: ttwu 100, and the locked enqueue at 1 ms + 100: the lock's
 * line, never touched, from memory, 10 (the section from 110); the
 * clock's two lines, from memory, 20; the enqueue's PELT update reads the
 * cfs_rq's removed count, from memory, 10, and writes its averages' line
 * (a 1024-ns period crossed since 0), 10; nr_running 0 -> 1 sets no
 * overload; the runqueue's line is W's now (0), the cfs and cfs_tasks
 * lines from memory, 20; the overutilized check reads the root domain's
 * flags line, which CPU 0 read at its own enqueue (0). 70 ns of lines:
 * nr_running shows at 1 ms + 170. Then, still under the lock, the fair
 * task preempts the idle one (wakeup_preempt(): resched_curr() sends the
 * halted CPU its IPI, 50 ns), and the section closes at 170 + 50 + ttwu
 * 100 = 320. Until 170 CPU 1 still reads CPU 2 idle; W's CPU, which took
 * the lock, never does.
 */
/* test_locked_enqueue_seen_at_its_end() under features, on tu_lock_sim()'s machine. */
static void locked_enqueue_case(const char *features)
{
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_5_12);
	struct cpumask only;
	struct task_struct *a;
	struct rq *rq2;

	tu_sim_free(sim);
	sim = tu_sim_kernel(m, features, KV_5_12);
	a = tu_pinned_task(sim, 2, &only);
	rq2 = &sim->rq[2];
	tu_busy(sim, 0);
	wake_at(sim, a, 0, NSEC_PER_MSEC);
	assert_false(a->wake_via_list);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 100);
	tu_wake_end(sim, a);
	assert_int_equal(rq2->nr_running, 1);
	assert_int_equal(rq2->lock.from, NSEC_PER_MSEC + 110);
	assert_int_equal(rq2->enq_visible_at, NSEC_PER_MSEC + 170);
	assert_int_equal(rq2->lock.until, NSEC_PER_MSEC + 320);
	sim->kcost_ns = 0;
	sim->this_cpu = 1;
	sim->now = NSEC_PER_MSEC + 169;
	assert_true(idle_cpu(sim, 2));
	sim->now = NSEC_PER_MSEC + 170;
	assert_false(idle_cpu(sim, 2));
	sim->this_cpu = 0;
	sim->now = NSEC_PER_MSEC + 150;
	assert_false(idle_cpu(sim, 2));
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The same with S2's IDLE_DELAY, a layer over idle_cpu(): CPU 2 never
 * left idle, so the layer asks the idle_cpu() below it, which must read
 * what the built-in reads (rq_idle_seen()).
 */
static void test_locked_enqueue_seen_at_its_end(void **state)
{
	(void)state;
	locked_enqueue_case("NO_WAKEUP_PREEMPTION");
	locked_enqueue_case("NO_WAKEUP_PREEMPTION,IDLE_DELAY");
}

static void test_wakeups_from_one_cpu_in_turn(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-4cpu-scan.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct task_struct *a = tu_task(sim, 0), *b = tu_task(sim, 0);

	tu_busy(sim, 0);
	sim->now = NSEC_PER_MSEC;
	sim->this_cpu = 0;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, a, 0), 1);
	assert_int_equal(a->ev_wake.time, NSEC_PER_MSEC + 300);
	assert_int_equal(sim->rq[1].claim_from, 0);
	assert_false(idle_cpu(sim, 1)); /* to W's CPU */
	assert_true(idle_cpu(sim, 3));
	sim->this_cpu = 0;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, b, 0), 1);
	assert_int_equal(b->ev_wake.time, NSEC_PER_MSEC + 400);
	/* Another CPU's read sees CPU 1 as it is until the claim lands. */
	sim->this_cpu = 2;
	assert_true(idle_cpu(sim, 1));
	sim->this_cpu = 0;
	claims_land(sim, a, b, 300, 400);
	assert_int_equal(sim->met.wake_rechecks, 0);
	assert_int_equal(sim->met.place_reason[PR_SCAN_IDLE_CPU], 2);
	/* A's wake-list entry lands: the claim is no longer pending. */
	evq_cancel(&sim->eng.evq, &a->ev_wake);
	sim->now = a->ev_wake.time;
	ttwu_queue_event(sim, a);
	assert_int_equal(sim->rq[1].claim_from, -1);
	assert_int_equal(sim->rq[2].claim_from, 0);
	assert_int_equal(sim->rq[1].ttwu_pending, 1);
	assert_true(event_queued(&sim->rq[1].ev_ipi));
	assert_int_equal(sim->rq[1].ev_ipi.time, NSEC_PER_MSEC + 350);
	assert_int_equal(sim->met.ipi_send_ns, 100);
	tu_sim_free(sim);

	/*
	 * The same with the idle state polling (or MWAIT): the wake-list
	 * entry sends no IPI (call_function_single_prep_ipi(), core.c v6.4);
	 * the claims land as before, at 300 and 400 ns.
	 */
	m->idle[0].polling = true;
	sim = tu_sim_kernel(m, "default", KV_6_4);
	a = tu_task(sim, 0);
	b = tu_task(sim, 0);
	tu_busy(sim, 0);
	sim->now = NSEC_PER_MSEC;
	sim->this_cpu = 0;
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, a, 0), 1);
	sim->kcost_ns = 0;
	assert_int_equal(try_to_wake_up(sim, b, 0), 1);
	claims_land(sim, a, b, 300, 400);
	assert_int_equal(sim->met.ipi_send_ns, 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cluster_order),
		cmocka_unit_test(test_recent_used_cpu),
		cmocka_unit_test(test_smt),
		cmocka_unit_test(test_wake_wide),
		cmocka_unit_test(test_affine_same_llc),
		cmocka_unit_test(test_sis_short),
		cmocka_unit_test(test_idle_delay),
		cmocka_unit_test(test_idle_cores_no_smt),
		cmocka_unit_test(test_numa_wake_affine),
		cmocka_unit_test(test_ttwu_schedstats),
		cmocka_unit_test(test_wake_claims_what_it_read),
		cmocka_unit_test(test_wakeups_from_one_cpu_in_turn),
		cmocka_unit_test(test_claim_window_lines),
		cmocka_unit_test(test_locked_enqueue_seen_at_its_end),
		cmocka_unit_test(test_remote_enqueue_under_lock),
		cmocka_unit_test(test_sleeper_dequeued_under_lock),
		cmocka_unit_test(test_tick_takes_rq_lock),
		cmocka_unit_test(test_ttwu_queue_l2c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
