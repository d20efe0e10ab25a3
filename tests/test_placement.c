/*
 * test_placement.c - why a task went where it did (kern/placement.h): each
 * reason and each affine step reached from a hand-built state, with the
 * CPUs select_idle_sibling() examined, derived step by step from
 * select_task_rq_fair() and select_idle_sibling() of kernel/sched/fair.c
 * (v6.12; the cluster rules of v6.7+). Then the counts of a whole run: the
 * reasons sum to the placements, and the trace names each one.
 *
 * Machines: kunpeng920-48 (no SMT, clusters of 4 in a 24-CPU LLC, node 0 =
 * CPUs 0-23), epyc9654-2s (SMT: CPU c and c + 192 are one core, LLCs of 8
 * cores), tensor-gs101 (CPUs of three capacities) and ideal-1cpu (no LLC
 * domain).
 */
#include "testutil.h"

static struct sim *new_sim(const char *machine, const char *features, struct machine **m)
{
	*m = tu_machine(machine);
	return tu_sim(*m, features);
}

static void done(struct sim *sim, struct machine *m)
{
	tu_sim_free(sim);
	tu_machine_free(m);
}

static void set_scan(struct sim *sim, int cpu, int nr)
{
	sim->doms.cpu[cpu].sd_llc_shared->nr_idle_scan = nr;
}

/*
 * select_idle_sibling() from this_cpu as one placement: it must return the
 * CPU want for reason why, having examined that many CPUs.
 */
static void expect_sis(struct sim *sim, int this_cpu, struct task_struct *p, int prev, int target,
		       int want, enum place_reason why, int examined)
{
	uint64_t s0 = sim->met.sis_scanned;

	sim->this_cpu = this_cpu;
	sim->kcost_ns = 0;
	sim->plc = (struct placement){ .prev = prev, .target = target, .dest = -1 };
	int cpu = select_idle_sibling(sim, p, prev, target);

	if (cpu != want || sim->plc.reason != why || (int)(sim->met.sis_scanned - s0) != examined) {
		print_error("got CPU %d, %s, %d examined; wanted CPU %d, %s, %d examined\n", cpu,
			    place_reason_name(sim->plc.reason), (int)(sim->met.sis_scanned - s0), want,
			    place_reason_name(why), examined);
		fail();
	}
	assert_int_equal(sim->plc.dest, cpu);
}

/* select_task_rq_fair() from this_cpu: CPU, affine step and reason. */
static void expect_fair(struct sim *sim, int this_cpu, struct task_struct *p, int prev, int flags,
			int want, enum place_affine aff, enum place_reason why)
{
	sim->this_cpu = this_cpu;
	sim->kcost_ns = 0;
	sim->plc = (struct placement){ .prev = prev, .target = prev, .dest = -1 };
	int cpu = select_task_rq_fair(sim, p, prev, flags);

	if (cpu != want || sim->plc.affine != aff || sim->plc.reason != why) {
		print_error("got CPU %d, %s, %s; wanted CPU %d, %s, %s\n", cpu,
			    place_affine_name(sim->plc.affine), place_reason_name(sim->plc.reason),
			    want, place_affine_name(aff), place_reason_name(why));
		fail();
	}
}

/*
 * The cheap candidates (kunpeng920-48; p last on 6, its recent_used_cpu 6;
 * target 5 in cluster {4-7}): target idle; else prev idle in target's
 * cluster; else recent_used_cpu idle in it. None examined by a scan.
 */
static void test_cheap_candidates(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 6);

	expect_sis(sim, 0, p, 6, 5, 5, PR_TARGET_IDLE, 0);
	tu_busy(sim, 5);
	expect_sis(sim, 0, p, 6, 5, 6, PR_PREV_IDLE, 0);
	/* prev == target (busy): recent_used_cpu 7, idle, in the cluster. */
	p->recent_used_cpu = 7;
	expect_sis(sim, 0, p, 5, 5, 7, PR_RECENT_IDLE, 0);
	done(sim, m);
}

/*
 * Target 5 busy, nr_idle_scan 0 (no scan). prev 9 is idle but in cluster
 * {8-11}, not target's: only a fallback, taken after the (empty) scan.
 * With prev busy too, recent_used_cpu 13 ({12-15}) is the fallback; with
 * neither, the answer is target and the reason is the empty budget.
 */
static void test_cluster_fallbacks_and_no_budget(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 9);

	tu_busy(sim, 5);
	set_scan(sim, 5, 0);
	p->recent_used_cpu = 5;
	expect_sis(sim, 0, p, 9, 5, 9, PR_PREV_OTHER_CLUSTER, 0);
	tu_busy(sim, 9);
	p->recent_used_cpu = 13;
	expect_sis(sim, 0, p, 9, 5, 13, PR_RECENT_OTHER_CLUSTER, 0);
	p->recent_used_cpu = 5;
	expect_sis(sim, 0, p, 5, 5, 5, PR_SCAN_NO_BUDGET, 0);
	assert_int_equal(sim->met.sis_failed, 3);
	done(sim, m);
}

/*
 * The scan from target 5 with cluster {4-7} busy: the cluster first, from
 * 6 (6, 7, 4, 5), then the rest of the LLC from 6 on: 8 is idle, the 5th
 * CPU examined. With nr_idle_scan 2 (the loop's nr = 3) it stops after 6
 * and 7 and stacks on target. With all 24 busy and budget 24, it examines
 * all 24 and stacks on target.
 */
static void test_scan_outcomes(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *p = tu_task(sim, 5);

	for (int c = 4; c < 8; c++)
		tu_busy(sim, c);
	p->recent_used_cpu = 5;
	set_scan(sim, 5, 24);
	expect_sis(sim, 0, p, 5, 5, 8, PR_SCAN_IDLE_CPU, 5);
	set_scan(sim, 5, 2);
	expect_sis(sim, 0, p, 5, 5, 5, PR_SCAN_BUDGET_SPENT, 2);
	for (int c = 0; c < 24; c++)
		if (c < 4 || c >= 8)
			tu_busy(sim, c);
	set_scan(sim, 5, 24);
	expect_sis(sim, 0, p, 5, 5, 5, PR_SCAN_EXHAUSTED, 24);
	/* Three scans (sis_domain_search), two of them failed. */
	assert_int_equal(sim->met.sis_calls, 3);
	assert_int_equal(sim->met.sis_failed, 2);
	assert_int_equal(sim->met.sis_search, 3);
	done(sim, m);
}

/*
 * SMT (epyc9654-2s, LLC 0-7 + 192-199): target 0 and prev 1 busy, the LLC
 * flag says no idle core: prev's sibling 193 is tried (1 examined) and
 * idle. With the flag set and core 1 (1 and 193) idle, the idle-core scan
 * from 1 takes core 1 after examining its two threads.
 */
static void test_smt_reasons(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("epyc9654-2s", "default", &m);
	struct task_struct *p = tu_task(sim, 1);
	struct sched_domain_shared *sds = sim->doms.cpu[0].sd_llc_shared;

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	set_scan(sim, 0, 16);
	sds->has_idle_cores = 0;
	expect_sis(sim, 0, p, 1, 0, 193, PR_SMT_SIBLING, 1);
	done(sim, m);

	sim = new_sim("epyc9654-2s", "default", &m);
	p = tu_task(sim, 0);
	tu_busy(sim, 0);
	set_scan(sim, 0, 16);
	sim->doms.cpu[0].sd_llc_shared->has_idle_cores = 1;
	expect_sis(sim, 0, p, 0, 0, 1, PR_SCAN_IDLE_CORE, 2);
	done(sim, m);
}

/*
 * tensor-gs101: CPUs of unequal capacity, so the search is
 * select_idle_capacity() over them all from target 0 (busy): 1 is idle
 * and a new task's util fits it, after 2 examined. ideal-1cpu: no LLC
 * domain, so target stays.
 */
static void test_capacity_and_no_llc(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("tensor-gs101", "default", &m);
	struct task_struct *p = tu_task(sim, 0);

	tu_busy(sim, 0);
	expect_sis(sim, 0, p, 0, 0, 1, PR_CAPACITY, 2);
	done(sim, m);

	sim = new_sim("tests/data/ideal-1cpu.json", "default", &m);
	p = tu_task(sim, 0);
	tu_busy(sim, 0);
	expect_sis(sim, 0, p, 0, 0, 0, PR_NO_LLC, 0);
	done(sim, m);
}

/*
 * The affine step (kunpeng920-48, the waker busy on CPU 0):
 * - a fork: the slow path, no affine step;
 * - from no CPU (a timer): no waker, target = prev 10, idle;
 * - prev 0 is the waking CPU: nothing to decide; 0 is busy and the scan
 *   of cluster {0-3} from 1 finds 1;
 * - prev 10 idle, not sync: wake_affine_idle() keeps the idle prev;
 * - prev 10 busy, loads equal (0): wake_affine_weight() keeps prev; the
 *   scan of cluster {8-11} from 11 finds 11;
 * - prev 10 busy and loaded (load_avg 1024), this CPU not: the waker's CPU
 *   0, busy, then the scan of {0-3} from 1 finds 1;
 * - sync, the waker alone on 0: the waker's CPU, then 1;
 * - flips that make wake_wide() true: target = prev;
 * - prev 50 on node 2 (distance 32): no level holding both may wake affine.
 */
static void test_affine_steps(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "default", &m);
	struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10), *q = tu_task(sim, 50);

	set_scan(sim, 0, 24);
	set_scan(sim, 10, 24);
	waker->last_wakee = p;
	/* Where the slow path forks to is test_balance's; here, why. */
	sim->this_cpu = 0;
	sim->plc = (struct placement){ .prev = 10, .target = 10, .dest = -1 };
	int forked = select_task_rq_fair(sim, p, 10, WF_FORK);

	assert_int_equal(sim->plc.dest, forked);
	assert_int_equal(sim->plc.reason, PR_FORK_BALANCE);
	assert_int_equal(sim->plc.affine, PA_NONE);
	expect_fair(sim, -1, p, 10, WF_TTWU, 10, PA_NO_WAKER, PR_TARGET_IDLE);
	expect_fair(sim, 0, p, 0, WF_TTWU, 1, PA_WAKER_IS_PREV, PR_SCAN_IDLE_CPU);
	expect_fair(sim, 0, p, 10, WF_TTWU, 10, PA_PREV_IDLE, PR_TARGET_IDLE);
	tu_busy(sim, 10);
	expect_fair(sim, 0, p, 10, WF_TTWU, 11, PA_WEIGHT_PREV, PR_SCAN_IDLE_CPU);
	sim->rq[10].cfs.avg.load_avg = 1024;
	expect_fair(sim, 0, p, 10, WF_TTWU, 1, PA_WEIGHT, PR_SCAN_IDLE_CPU);
	sim->rq[10].cfs.avg.load_avg = 0;
	expect_fair(sim, 0, p, 10, WF_TTWU | WF_SYNC, 1, PA_SYNC, PR_SCAN_IDLE_CPU);
	assert_true(sim->plc.sync);
	waker->wakee_flips = 1000;
	p->wakee_flips = 30;
	expect_fair(sim, 0, p, 10, WF_TTWU | WF_SYNC, 11, PA_WIDE, PR_SCAN_IDLE_CPU);
	assert_int_equal(sim->met.hits_affine_same_llc, 0);
	expect_fair(sim, 0, q, 50, WF_TTWU | WF_SYNC, 50, PA_NO_DOMAIN, PR_TARGET_IDLE);
	/*
	 * wake_affine() itself, from an idle waking CPU 2 (an interrupt there):
	 * prev 10 is busy, so the waking CPU; prev 12 idle in the same LLC wins.
	 */
	struct sched_domain *llc = sim->doms.cpu[2].sd_llc;

	sim->this_cpu = 2;
	assert_int_equal(wake_affine(sim, llc, p, 2, 10, 0), 2);
	assert_int_equal(sim->plc.affine, PA_IDLE);
	assert_int_equal(wake_affine(sim, llc, p, 2, 12, 0), 12);
	assert_int_equal(sim->plc.affine, PA_IDLE_PREV);
	done(sim, m);
}

/*
 * The features' branches: AFFINE_SAME_LLC makes the wide wake-up above
 * affine (sync: the waker's CPU); SIS_SHORT's two hooks, on short waker
 * and wakee (dur_avg 10 us), take the waker's CPU and skip the scan.
 * SD_BALANCE_WAKE on a domain sends a wide wake-up to the slow path.
 */
static void test_feature_branches(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = new_sim("kunpeng920-48", "AFFINE_SAME_LLC", &m);
	struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10);

	set_scan(sim, 0, 24);
	waker->wakee_flips = 1000;
	waker->last_wakee = p;
	p->wakee_flips = 30;
	expect_fair(sim, 0, p, 10, WF_TTWU | WF_SYNC, 1, PA_SYNC, PR_SCAN_IDLE_CPU);
	assert_int_equal(sim->met.hits_affine_same_llc, 1); /* the layer counted it */
	done(sim, m);

	sim = new_sim("kunpeng920-48", "SIS_SHORT", &m);
	waker = tu_busy(sim, 0);
	p = tu_task(sim, 10);
	tu_busy(sim, 10);
	set_scan(sim, 0, 10);
	set_scan(sim, 10, 10);
	waker->dur_avg = p->dur_avg = 10000;
	waker->last_wakee = p;
	expect_fair(sim, 0, p, 10, WF_TTWU, 0, PA_SIS_SHORT, PR_SIS_SHORT_SCAN);
	done(sim, m);

	sim = new_sim("kunpeng920-48", "default", &m);
	waker = tu_busy(sim, 0);
	p = tu_task(sim, 10);
	waker->wakee_flips = 1000;
	waker->last_wakee = p;
	p->wakee_flips = 30;
	for (struct sched_domain *sd = sim->doms.cpu[0].sd; sd; sd = sd->parent)
		sd->flags |= SD_BALANCE_WAKE;
	sim->this_cpu = 0;
	sim->plc = (struct placement){ .prev = 10, .target = 10, .dest = -1 };
	int cpu = select_task_rq_fair(sim, p, 10, WF_TTWU);

	assert_int_equal(sim->plc.reason, PR_WAKE_BALANCE);
	assert_int_equal(sim->plc.affine, PA_WIDE);
	assert_int_equal(sim->plc.dest, cpu);
	done(sim, m);
}

/*
 * A whole run: the reasons sum to the placements (wake-ups that selected
 * a CPU and forks), the affine steps to the wake-ups, the distances to the
 * placements; the trace has one sched_select_rq per placement, and its
 * reasons tally with the table. One CPU allowed: every placement is
 * single_cpu. A policy's own answers are named.
 */
static void test_run_tables(void **state)
{
	(void)state;
	char out[1 << 15];
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --node 0 --json "
			       "--trace /tmp/wakesim-pl.txt -- hackbench -g 2 -l 40 -p | jq -r '.metrics "
			       "| [.wakeups - (.wakeups * .wake_requeued_pct / 100 | round), .forks, "
			       "([.placements.reason[]] | add), ([.placements.affine[]] | add) - "
			       ".placements.affine.none, ([.placements.migrate[]] | add), "
			       ".placements.reason.prev_idle] | map(tostring) | join(\" \")' && grep -c "
			       "'sched_select_rq:' /tmp/wakesim-pl.txt && { grep -c 'reason=prev_idle ' "
			       "/tmp/wakesim-pl.txt || true; }", w), 0);
	long wakeups, forks, reasons, affine, dist, prev_idle, traced, traced_prev;

	assert_int_equal(sscanf(out, "%ld %ld %ld %ld %ld %ld %ld %ld", &wakeups, &forks, &reasons,
				&affine, &dist, &prev_idle, &traced, &traced_prev), 8);
	/*
	 * Every wake-up selects a CPU but a delayed sleeper's (DELAY_DEQUEUE:
	 * requeued in place, wake_requeued_pct of them).
	 */
	assert_int_equal(reasons, wakeups + forks);
	assert_int_equal(affine, wakeups);
	assert_int_equal(dist, reasons);
	assert_int_equal(traced, reasons);
	assert_int_equal(traced_prev, prev_idle);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --cpus 3 -- "
			       "hackbench -g 1 -l 20 -p", w), 0);
	assert_non_null(strstr(out, "    single_cpu "));
	assert_non_null(strstr(out, "100.00%\n"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --node 0 --policy "
			       "build/policies/prev_first.so -- hackbench -g 2 -l 40 -p", w), 0);
	assert_non_null(strstr(out, "    policy:prev-first "));
	tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-pl.txt");
}

/*
 * Sides on two kernels (issue 16): kunpeng920-48, target 5 busy, prev 9
 * idle in cluster {8-11}. v6.6 has no cluster rule: prev idle in target's
 * LLC wins (9). Mainline (v6.7+) keeps it as a fallback and scans target's
 * cluster first, from 6: idle, 1 examined.
 */
static void test_kernels_differ(void **state)
{
	(void)state;
	char out[1 << 15];
	struct machine *m = tu_machine("kunpeng920-48");

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(m, "default", k ? KV_MAINLINE : KV_6_6);
		struct task_struct *p = tu_task(sim, 9);

		tu_busy(sim, 5);
		set_scan(sim, 5, 24);
		p->recent_used_cpu = 5;
		if (k)
			expect_sis(sim, 0, p, 9, 5, 6, PR_SCAN_IDLE_CPU, 1);
		else
			expect_sis(sim, 0, p, 9, 5, 9, PR_PREV_IDLE, 0);
		tu_sim_free(sim);
	}
	tu_machine_free(m);
	/* The same as a comparison: each side names its kernel, the header says so. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --quiet --machine kunpeng920-48 "
			       "--node 0 --runs 1 --side v66=default,kernel=v6.6 --side main=default "
			       "-- hackbench -g 2 -l 40 -p | head -5", tu_wakesim()), 0);
	assert_non_null(strstr(out, "kernel per side,"));
	assert_non_null(strstr(out, "\nv66: default, kernel v6.6\nmain: default, kernel mainline\n"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --quiet --machine kunpeng920-48 --runs 1 "
			       "--side a=default,kernel=v6.5 --side b=default -- hackbench -l 5",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "--side a: kernel=\"v6.5\": expected v5.12, v6.4, v6.6 or mainline"));
}

/*
 * "It cannot differ": IDLE_CORES_NO_SMT adds a read only where there is no
 * SMT, so on an SMT machine it never fires and both sides place alike:
 * the note says so under the table. IDLE_DELAY on kunpeng920-48 fires
 * (hackbench wakes CPUs that just went idle): no note.
 */
static void test_cannot_differ_note(void **state)
{
	(void)state;
	char out[1 << 15];

	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --quiet --machine "
			       "tests/data/ideal-smt.json --runs 2 --test IDLE_CORES_NO_SMT --loads g=1,2 "
			       "-- hackbench -l 20 -p", tu_wakesim()), 0);
	assert_non_null(strstr(out, "\nnote: at g=1, test placed every task where base did, in every "
				    "run: it cannot differ but by what its checks cost (IDLE_CORES_NO_SMT "
				    "never fired)\n"));
	assert_non_null(strstr(out, "\nnote: at g=2, test placed every task"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --quiet --machine kunpeng920-48 --node 0 "
			       "--runs 2 --test IDLE_DELAY --loads g=2 -- hackbench -l 40 -p",
			       tu_wakesim()), 0);
	assert_null(strstr(out, "note:"));
	assert_non_null(strstr(out, "hits_IDLE_DELAY"));
	/* JSON and CSV carry it per cell. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --quiet --machine "
			       "tests/data/ideal-smt.json --runs 2 --test IDLE_CORES_NO_SMT --json -- "
			       "hackbench -l 20 -p | jq -c '[.rows[0].sides[].same_placements]'",
			       tu_wakesim()), 0);
	assert_string_equal(out, "[true,true]\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cheap_candidates),
		cmocka_unit_test(test_cluster_fallbacks_and_no_budget),
		cmocka_unit_test(test_scan_outcomes),
		cmocka_unit_test(test_smt_reasons),
		cmocka_unit_test(test_capacity_and_no_llc),
		cmocka_unit_test(test_affine_steps),
		cmocka_unit_test(test_feature_branches),
		cmocka_unit_test(test_run_tables),
		cmocka_unit_test(test_kernels_differ),
		cmocka_unit_test(test_cannot_differ_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
