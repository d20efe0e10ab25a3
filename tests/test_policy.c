/*
 * test_policy.c - wake-up policies (include/wakesim/policy.h): plug-ins
 * built by make from examples/policies/ load and give exactly the
 * built-in path's results: template.c is mainline, and each seed's file
 * (affine_same_llc.c S3, idle_cores_no_smt.c S1, idle_delay.c S2,
 * sis_short.c S4) is its --features switch, on a run where the switch
 * changes the result; objects with a wrong API version or no descriptor
 * are refused;
 * scx-default's choices on a 2-core SMT machine follow
 * scx_select_cpu_dfl()'s order, derived by hand.
 */
#include "testutil.h"

#include "policy/registry.h"

/*
 * `run --json` of args, with its result and metrics (and report) as one
 * string. own_code: the policy returns CPUs from code of its own (a seed
 * plug-in's select_idle_sibling()), whose answers are "policy" placements,
 * whose calls sis_search (mainline's select_idle_sibling() calls) does not
 * count, and whose own scans' failures sis_failed does not see (sis_begin()
 * counts a scan, not its outcome): those are left out; where the tasks
 * went (distances) stays.
 */
static char *figures_of(const char *args, bool own_code)
{
	char *out = malloc(1 << 16);

	assert_non_null(out);
	/*
	 * The hits_* counters are the built-in features' own: a plug-in has
	 * none. The affine step is recorded by select_task_rq_fair()'s own
	 * code (a plug-in that spells it out takes no such step of record);
	 * the reasons, the branches that returned the CPU, must agree.
	 */
	int st = tu_sh(out, 1 << 16, "%s run --json %s | jq -c '[.result, .output, (.metrics | "
		       "del(.placements.affine) | %s with_entries(select(.key | startswith(\"hits_\") "
		       "| not)))]'", tu_wakesim(), args,
		       own_code ? "del(.placements.reason, .sis_search, .sis_failed) |" : "");

	/* A pipe's status is jq's: an empty answer is wakesim's failure. */
	if (st || strlen(out) < 200 || !strstr(out, "\"wakeups\"")) {
		print_error("%s: %s\n", args, out);
		fail();
	}
	return out;
}

static char *figures(const char *args)
{
	return figures_of(args, false);
}

static void test_template_is_mainline(void **state)
{
	(void)state;
	const char *runs[] = {
		"--machine epyc9654-2s %s -- hackbench -g 4 -l 200 --pipe",
		"--machine zen2-7742-2s %s -- tbench -t 0.02 --warmup 0 32",
		"--machine kunpeng920-48 --node 0 %s -- hackbench -g 2 -l 100 -T",
	};

	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char a[512], b[512];

		snprintf(a, sizeof(a), runs[i], "--policy mainline");
		snprintf(b, sizeof(b), runs[i], "--policy build/policies/template.so");
		char *x = figures(a), *y = figures(b);

		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/*
 * S3 on zen2-7742-2s (LLCs of 8 CPUs): hackbench -f 40 on sockets makes
 * 1:40 wakers, so wake_wide() says wide and the patch keeps some of those
 * wake-ups affine (92 of them): the feature changes the run, and the
 * plug-in changes it the same way (its hits_AFFINE_SAME_LLC counter is the
 * built-in's alone).
 */
static void test_affine_same_llc_plugin(void **state)
{
	(void)state;
	const char *w = "-- hackbench -g 2 -f 40 -l 100";
	char a[256], b[256], c[256];

	snprintf(a, sizeof(a), "--machine zen2-7742-2s --features AFFINE_SAME_LLC %s", w);
	snprintf(b, sizeof(b), "--machine zen2-7742-2s --policy build/policies/affine_same_llc.so %s", w);
	snprintf(c, sizeof(c), "--machine zen2-7742-2s %s", w);
	char *feat = figures_of(a, true), *plug = figures_of(b, true), *base = figures_of(c, true);

	assert_string_equal(feat, plug);
	assert_string_not_equal(feat, base);
	free(feat);
	free(plug);
	free(base);

	/* On compare, a side's "policy=" item: the same table as the feature's. */
	char out1[8192], out2[8192];

	assert_int_equal(tu_sh(out1, sizeof(out1), "%s compare --machine zen2-7742-2s --runs 2 --side "
			       "base=default --side s3=policy=build/policies/affine_same_llc.so %s | "
			       "sed -n '/^ *Amean/,/^Max/p'", tu_wakesim(), w), 0);
	assert_int_equal(tu_sh(out2, sizeof(out2), "%s compare --machine zen2-7742-2s --runs 2 --side "
			       "base=default --side s3=AFFINE_SAME_LLC %s | sed -n '/^ *Amean/,/^Max/p'",
			       tu_wakesim(), w), 0);
	assert_true(strlen(out1) > 100);
	assert_string_equal(out1, out2);
}

/*
 * A seed's plug-in against its built-in switch, on a run where the switch
 * changes the result: the plug-in must change it the same way.
 */
static void same_as_feature(const char *feature, const char *object, const char *machine,
			    const char *workload)
{
	char a[512], b[512], c[512];

	snprintf(a, sizeof(a), "%s --features %s -- %s", machine, feature, workload);
	snprintf(b, sizeof(b), "%s --policy build/policies/%s -- %s", machine, object, workload);
	snprintf(c, sizeof(c), "%s -- %s", machine, workload);
	char *feat = figures_of(a, true), *plug = figures_of(b, true), *base = figures_of(c, true);

	if (strcmp(feat, plug)) {
		print_error("%s: --features %s\n%s\n--policy %s\n%s\n", workload, feature, feat,
			    object, plug);
		fail();
	}
	assert_string_not_equal(feat, base);
	free(feat);
	free(plug);
	free(base);
}

/* S1 reversed: an extra read of has_idle_cores on a machine without SMT. */
static void test_idle_cores_no_smt_plugin(void **state)
{
	(void)state;
	same_as_feature("IDLE_CORES_NO_SMT", "idle_cores_no_smt.so", "--machine kunpeng920-48 --node 0",
			"hackbench -g 4 -l 200 -p -T");
}

/* S2: S2's own hackbench shape, scaled down, on its machine. */
static void test_idle_delay_plugin(void **state)
{
	(void)state;
	same_as_feature("IDLE_DELAY", "idle_delay.so", "--machine epyc9654-2s",
			"hackbench -g 8 -f 20 --threads --pipe -l 200 -s 100");
}

/*
 * S4: a task is short only with no wakee flips, and record_wakee() counts
 * a pair's first wake-up as a flip that decays after a second: so a run
 * of more than a second, small enough to stay quick. Hook 2 needs an LLC
 * busy enough that SIS_UTIL's budget is under 60% of it, and not so busy
 * that it is 0: one whole CCX (both threads of its 8 cores) with 12 pairs
 * is 76% busy. (Eight CPUs of a 16-CPU LLC, as before, never reach the
 * band: the idle half keeps the budget large, and the proposal fired once
 * in a run, so any change elsewhere could silence it.)
 */
static void test_sis_short_plugin(void **state)
{
	(void)state;
	same_as_feature("SIS_SHORT", "sis_short.so", "--machine epyc9654-2s --cpus 0-7,192-199",
			"netperf -t TCP_RR -l 1.05 --warmup 0 --instances 12");
}

/*
 * Every decision point taken over by a hook that answers with mainline's
 * own function (tests/policies/defaults.c): every figure of the run, the
 * placements' reasons and affine steps included, is mainline's, on SMT
 * with idle cores (epyc9654-2s), clusters (kunpeng920), no SMT on v6.4
 * (kunpeng920-48) and SIS_SHORT's two hooks firing (the plug-in test's run).
 */
static void test_hooks_default_to_mainline(void **state)
{
	const char *runs[] = {
		"--machine epyc9654-2s %s -- hackbench -g 4 -l 200 --pipe",
		"--machine kunpeng920 %s -- hackbench -g 4 -l 100",
		"--machine kunpeng920-48 --kernel v6.4 %s -- tbench -t 0.05 48",
		"--machine epyc9654-2s --cpus 0-7,192-199 --features SIS_SHORT %s -- netperf -t TCP_RR "
		"-l 1.05 --warmup 0 --instances 12",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char a[512], b[512];

		snprintf(a, sizeof(a), runs[i], "");
		snprintf(b, sizeof(b), runs[i], "--policy build/test-policies/defaults.so");
		char *x = figures(a), *y = figures(b);

		assert_string_equal(x, y);
		free(x);
		free(y);
	}
}

/*
 * tests/policies/stack.c refuses every cheap candidate and gives the scan
 * no budget, so select_idle_sibling() returns wake_affine()'s target. In
 * perf bench sched pipe on two idle CPUs every wake-up is a sync pipe
 * write by a waker alone on its CPU: wake_affine_idle() picks the waker's
 * CPU, so every wake-up lands there (mainline takes the idle prev
 * instead), and every call ends without budget.
 */
static void test_hooks_stack(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --json --machine tests/data/ideal-2cpu.json -- "
			       "perf bench sched pipe -l 1000 | jq -c '.metrics | [.wake_waker_cpu_pct, "
			       ".wake_prev_cpu_pct]'", tu_wakesim()), 0);
	assert_string_equal(out, "[0,100]\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --json --machine tests/data/ideal-2cpu.json "
			       "--policy build/test-policies/stack.so -- perf bench sched pipe -l 1000 | jq "
			       "-c '.metrics | [.wake_waker_cpu_pct, .sis_search == "
			       ".placements.reason.scan_no_budget, .sis_search > 0]'", tu_wakesim()), 0);
	assert_string_equal(out, "[100,true,true]\n");
}

/*
 * The event hooks, per-CPU and per-task data and counters
 * (tests/policies/count_events.c), against the kernel's rules on
 * hackbench -g 1 -f 2 -T (2 senders, 2 receivers and the main thread):
 * every wake-up that is not a requeue enqueues with ENQUEUE_WAKEUP; every
 * sleep and every exit (do_task_dead()) dequeues with DEQUEUE_SLEEP, and
 * each of the 5 tasks exits once; each sleeps at least once (the start
 * barrier, the main thread on its children), so 5 are woken; every
 * set_task_cpu() that moves a task is a migration.
 */
static void test_hooks_events_and_counters(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --json --machine tests/data/ideal-2cpu.json "
			       "--kernel v6.4 --policy build/test-policies/count_events.so -- hackbench -g 1 "
			       "-f 2 -T -l 10 | jq -c '.metrics as $m | $m.policy as $p | [$p.wake_enqueues "
			       "== $m.wakeups, $m.wake_requeued_pct, $p.sleep_dequeues - $p.wake_enqueues, "
			       "$p.tasks_woken, $p.migrations == $m.migrations_within_llc + "
			       "$m.migrations_across_llc + $m.migrations_across_node, $p.migrations > 0, "
			       "$p.idle_from_task == $p.idle_entries, $p.idle_entries > 0, $p.bad]'",
			       tu_wakesim()), 0);
	assert_string_equal(out, "[true,0,5,5,true,true,true,true,0]\n");
	/* In run's text, and in compare's diagnostics, CSV and JSON. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json --kernel "
			       "v6.4 --policy build/test-policies/count_events.so -- hackbench -g 1 -f 2 -T "
			       "-l 10 | grep -c '^  policy\\.'", tu_wakesim()), 0);
	assert_string_equal(out, "7\n");
	const char *cmp = "compare --quiet --machine tests/data/ideal-2cpu.json --kernel v6.4 --runs 2 "
			  "--side base=default --side c=policy=build/test-policies/count_events.so";

	assert_int_equal(tu_sh(out, sizeof(out), "%s %s -- hackbench -g 1 -f 2 -T -l 10 | grep "
			       "'^  policy.tasks_woken'", tu_wakesim(), cmp), 0);
	assert_non_null(strstr(out, "0.00            5.00"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s %s --csv -- hackbench -g 1 -f 2 -T -l 10 | head -1 "
			       "| tr , '\\n' | grep -c '^policy\\.'", tu_wakesim(), cmp), 0);
	assert_string_equal(out, "7\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s %s --json -- hackbench -g 1 -f 2 -T -l 10 | jq -c "
			       "'.rows[0].sides[1].metrics.policy.tasks_woken'", tu_wakesim(), cmp), 0);
	assert_string_equal(out, "5\n");
}

/*
 * The state policy.h reads, on two-llc (LLCs {0,1} and {2,3}), v6.4 (a
 * sleeper leaves the runqueue at once): the top domain's groups, local
 * first; cpu_load_without() (fair.c: less p's load_avg where p is
 * counted); the sleep average, update_avg() weight 1/8: sleeps of 100 and
 * 300 us give 100000 / 8 = 12500 ns, then 12500 + (300000 - 12500) / 8 =
 * 48437 ns.
 */
static void test_policy_state(void **state)
{
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct sched_domain *top;
	struct sched_group *sg;

	(void)state;
	policy_sim = sim;
	top = wsk_sd_parent(wsk_sd_llc(0));
	assert_non_null(top);
	assert_int_equal(wsk_sd_span_weight(top), 4);
	sg = wsk_sd_groups(top);
	assert_int_equal(cpumask_weight(wsk_sched_group_span(sg)), 2);
	assert_true(cpumask_test_cpu(0, wsk_sched_group_span(sg)) &&
		    cpumask_test_cpu(1, wsk_sched_group_span(sg)));
	assert_true(wsk_sg_flags(sg) & SD_SHARE_LLC);
	sg = wsk_sg_next(top, sg);
	assert_non_null(sg);
	assert_true(cpumask_test_cpu(2, wsk_sched_group_span(sg)) &&
		    cpumask_test_cpu(3, wsk_sched_group_span(sg)));
	assert_null(wsk_sg_next(top, sg));

	struct task_struct *c = tu_task(sim, 2);

	sim->rq[2].cfs.avg.load_avg = 1024;
	sim->rq[3].cfs.avg.load_avg = 512;
	c->se.avg.load_avg = 300;
	assert_int_equal(wsk_cpu_load(2), 1024);
	assert_int_equal(wsk_cpu_load_without(2, c), 724);
	assert_int_equal(wsk_cpu_load_without(3, c), 512);
	assert_int_equal(wsk_task_load_avg(c), 300);

	struct task_struct *b = tu_busy(sim, 1);

	tu_busy(sim, 0);
	for (int i = 0; i < 2; i++) {
		struct rq *rq = &sim->rq[task_cpu(b)];
		u64 slept = i ? 300 * NSEC_PER_USEC : 100 * NSEC_PER_USEC;

		sim->now += NSEC_PER_MSEC;
		sim->this_cpu = rq->cpu;
		deactivate_task(sim, rq, b, DEQUEUE_SLEEP);
		b->__state = TASK_INTERRUPTIBLE;
		b->on_cpu = 0;
		if (rq->curr == b)
			rq->curr = NULL;
		sim->now += slept;
		sim->this_cpu = 0;
		assert_int_equal(try_to_wake_up(sim, b, 0), 1);
		assert_int_equal(wsk_task_avg_sleep(b), i ? 48437 : 12500);
	}
	policy_sim = NULL;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* ---- hand-built states: one decision point taken over at a time ---- */

static struct task_struct *seen_task;
static int seen_cpu, seen_flags;

static int always_narrow(struct task_struct *p)
{
	(void)p;
	return 0;
}

static int scan_from_12(struct task_struct *p, struct sched_domain *sd, int target)
{
	(void)p;
	(void)sd;
	(void)target;
	return 12;
}

/* Only CPUs 20 and up are examined (and charged); the rest are passed over. */
static int only_from_20(struct task_struct *p, int cpu)
{
	return cpu >= 20 ? wsk___select_idle_cpu(cpu, p) : -1;
}

static void note_dequeue(int cpu, struct task_struct *p, int flags)
{
	seen_cpu = cpu;
	seen_task = p;
	seen_flags = flags;
}

static void note_idle_enter(int cpu, struct task_struct *prev)
{
	seen_cpu = cpu;
	seen_task = prev;
	seen_flags = -1;
}

static const struct wakesim_policy narrow_pol = { .name = "narrow", .wake_wide = always_narrow };
static const struct wakesim_policy order_pol = { .name = "order", .sis_scan_first = scan_from_12 };
static const struct wakesim_policy test_pol = { .name = "test", .sis_scan_cpu = only_from_20 };
static const struct wakesim_policy note_pol = { .name = "note", .dequeue_task = note_dequeue,
						 .idle_enter = note_idle_enter };

/*
 * ->wake_wide alone, in test_wakeup.c's S3 state on kunpeng920-48: waker
 * busy on 0 with 1000 flips, wakee last on 10 with 30, so mainline's
 * wake_wide() says wide and the wakee goes to its idle prev, 10. Narrow
 * instead: wake_affine() at MC takes the sync waker's CPU 0 as target,
 * busy; prev 10, in another cluster, is only a fallback; the scan of 0's
 * cluster finds 1 (as S3 does, which changes the same decision).
 */
static void test_hook_wake_wide_alone(void **state)
{
	(void)state;
	for (int i = 0; i < 2; i++) {
		struct machine *m = tu_machine("kunpeng920-48");
		struct sim *sim = tu_sim(m, "default");
		struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10);

		sim->cfg.policy = i ? &narrow_pol : NULL;
		sim_layers_build(sim);
		sim->doms.cpu[0].sd_llc_shared->nr_idle_scan = 24;
		waker->wakee_flips = 1000;
		waker->last_wakee = p;
		p->wakee_flips = 30;
		sim->this_cpu = 0;
		assert_int_equal(select_task_rq_fair(sim, p, 10, WF_TTWU | WF_SYNC), i ? 1 : 10);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * The scan's start and its per-CPU test, each alone, on kunpeng920-48 with
 * v6.4 (no cluster pass): target 5 busy (prev and recent too), 6 and 7
 * busy, a budget of 24. Mainline walks from 6: 6, 7 examined, 8 idle
 * (3 examined). From 12: 12 is idle at once (1). With only CPUs 20 and up
 * examined, the walk passes 6-19 and takes 20 (1 examined).
 */
static void test_hook_scan_order_and_test_alone(void **state)
{
	const struct wakesim_policy *pol[] = { NULL, &order_pol, &test_pol };
	const int want[] = { 8, 12, 20 }, examined[] = { 3, 1, 1 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct machine *m = tu_machine("kunpeng920-48");
		struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
		struct task_struct *p = tu_task(sim, 5);

		sim->cfg.policy = pol[i];
		sim_layers_build(sim);
		tu_busy(sim, 5);
		tu_busy(sim, 6);
		tu_busy(sim, 7);
		sim->doms.cpu[5].sd_llc_shared->nr_idle_scan = 24;
		sim->this_cpu = 0;
		sim->met.sis_scanned = 0;
		assert_int_equal(select_idle_sibling(sim, p, 5, 5), want[i]);
		assert_int_equal(sim->met.sis_scanned, examined[i]);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * The dequeue and idle hooks on a hand-built timeline on two-llc: b runs
 * on CPU 1 and sleeps (dequeue: CPU 1, b, DEQUEUE_SLEEP); CPU 1 goes idle
 * after b (idle entry: CPU 1, b); CPU 2 goes idle with no task before it.
 */
static void test_hook_dequeue_and_idle_tasks(void **state)
{
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_6_4);
	struct task_struct *b = tu_busy(sim, 1);

	(void)state;
	sim->cfg.policy = &note_pol;
	sim_layers_build(sim);
	sim->this_cpu = 1;
	deactivate_task(sim, &sim->rq[1], b, DEQUEUE_SLEEP);
	assert_int_equal(seen_cpu, 1);
	assert_ptr_equal(seen_task, b);
	assert_int_equal(seen_flags, DEQUEUE_SLEEP);
	sim->rq[1].curr = NULL;
	idle_enter(sim, &sim->rq[1], b);
	assert_int_equal(seen_cpu, 1);
	assert_ptr_equal(seen_task, b);
	assert_int_equal(seen_flags, -1);
	sim->this_cpu = 2;
	idle_enter(sim, &sim->rq[2], NULL);
	assert_int_equal(seen_cpu, 2);
	assert_null(seen_task);
	tu_sim_free(sim);
	tu_machine_free(m);
}

static bool never_short(const struct task_struct *p)
{
	(void)p;
	return false;
}

static int budget_as_is(struct task_struct *p, struct sched_domain *sd, bool has_idle_core,
			int target, int *nr)
{
	return wsk_sis_scan_budget(p, sd, has_idle_core, target, nr);
}

static const struct wakesim_policy never_short_pol = { .name = "never-short",
						       .is_short_task = never_short };
static const struct wakesim_policy budget_pol = { .name = "budget", .sis_scan_budget = budget_as_is };

/*
 * A policy and a built-in feature stacked (kern/hooks.h), in test_wakeup.c's
 * SIS_SHORT state on kunpeng920-48: short waker on 0 and wakee (prev 10,
 * busy), budget 10 of 24. SIS_SHORT alone keeps the waker's CPU 0 (its
 * hook 1, then hook 2 skips the scan). Under a policy whose
 * ->is_short_task says no, S4's layer asks the whole stack and gets no:
 * mainline's 11 (wake_affine_weight() keeps prev; the scan of its cluster
 * finds 11). Under a policy whose ->sis_scan_budget defers to its default,
 * the call goes on to S4's layer: 0 again, S4's reason and hits.
 */
static void test_layers_stack(void **state)
{
	const struct wakesim_policy *pol[] = { NULL, &never_short_pol, &budget_pol };
	const int want[] = { 0, 11, 0 }, hits[] = { 1, 0, 1 };

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct machine *m = tu_machine("kunpeng920-48");
		struct sim *sim = tu_sim(m, "SIS_SHORT");
		struct task_struct *waker = tu_busy(sim, 0), *p = tu_task(sim, 10);

		sim->cfg.policy = pol[i];
		sim_layers_build(sim);
		assert_int_equal(sim->nr_layers, i ? 2 : 1);
		tu_busy(sim, 10);
		sim->doms.cpu[0].sd_llc_shared->nr_idle_scan = 10;
		sim->doms.cpu[10].sd_llc_shared->nr_idle_scan = 10;
		waker->dur_avg = p->dur_avg = 10000;
		waker->last_wakee = p;
		sim->this_cpu = 0;
		assert_int_equal(select_task_rq_fair(sim, p, 10, WF_TTWU), want[i]);
		assert_int_equal(sim->met.hits_sis_short_affine, hits[i]);
		assert_int_equal(sim->plc.reason, hits[i] ? PR_SIS_SHORT_SCAN : PR_SCAN_IDLE_CPU);
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

static void test_refused_objects(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/wrong_api.so -- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--policy build/test-policies/wrong_api.so: built against policy "
				    "API version 4, this wakesim has version 3"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/no_symbol.so -- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "no_symbol.so: no \"wakesim_policy\" symbol"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy /nonexistent/x.so "
			       "-- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--policy /nonexistent/x.so: cannot load it"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy fancy -- hackbench "
			       "-l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "\"fancy\": not a built-in policy (mainline, scx-default)"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " TU_HOST " --runs 1 --side a=default "
			       "--side b=policy=nope -- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "\"nope\": not a built-in policy"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/no_hook.so -- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "no_hook.so: its wakesim_policy lacks a hook"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/big_data.so -- hackbench -l 5", tu_wakesim()), 2);
	assert_non_null(strstr(out, "big_data.so: its .cpu_data_size of 4097 bytes is more than the "
				    "4096 allowed"));
}

/*
 * Found by a new-user trial: a policy that crashed killed wakesim without a
 * word (run) or as "worker process died" (compare -j); a policy answering
 * CPUs the task may not use was silently corrected.
 */
static void test_misbehaving_policies(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/crash.so -- hackbench -g 1 -l 200", tu_wakesim()), 1);
	assert_non_null(strstr(out, "--policy build/test-policies/crash.so: its hook select_task_rq "
				    "crashed (SIGSEGV): the run is lost"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " TU_HOST " --runs 2 -j 2 --side "
			       "a=default --side b=policy=build/test-policies/crash.so -- hackbench -g 1 "
			       "-l 200", tu_wakesim()), 1);
	assert_non_null(strstr(out, "its hook select_task_rq crashed (SIGSEGV)"));
	assert_non_null(strstr(out, "worker process exited with status 1 (its message is above)"));
	/*
	 * Found by a trial: a policy calling abort() ended run with status 134
	 * and no word; one that loops hung for ever. Both name the policy and
	 * the hook, in run and in compare's workers; a hook call may use 1 s of
	 * CPU time (POLICY_HOOK_LIMIT_S), caught within two.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/abort.so -- hackbench -g 1 -l 200", tu_wakesim()), 1);
	assert_non_null(strstr(out, "--policy build/test-policies/abort.so: its hook select_task_rq "
				    "crashed (SIGABRT): the run is lost"));
	assert_int_equal(tu_sh(out, sizeof(out), "timeout 60 %s run --machine " TU_HOST " --policy "
			       "build/test-policies/loop.so -- hackbench -g 1 -l 200", tu_wakesim()), 1);
	assert_non_null(strstr(out, "--policy build/test-policies/loop.so: its hook select_task_rq ran "
				    "for over 1 s of CPU time in one call"));
	assert_int_equal(tu_sh(out, sizeof(out), "timeout 60 %s compare --machine " TU_HOST " --runs 2 "
			       "-j 2 --side a=default --side b=policy=build/test-policies/loop.so -- "
			       "hackbench -g 1 -l 200", tu_wakesim()), 1);
	/* Once failed under make check's load with no word of why: say what it printed. */
	if (!strstr(out, "loop.so: its hook select_task_rq ran for over 1 s") ||
	    !strstr(out, "worker process exited with status 1 (its message is above)")) {
		print_error("compare printed:\n%s\n", out);
		fail();
	}
	/* Found by a trial of the hooks: endless recursion died with no word. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/recurse.so -- hackbench -g 1 -l 20", tu_wakesim()), 1);
	assert_non_null(strstr(out, "--policy build/test-policies/recurse.so: its hook sis_candidate "
				    "crashed (SIGSEGV): the run is lost"));
	/* ... and a loop that kept calling a hook of its own outlived the limit. */
	assert_int_equal(tu_sh(out, sizeof(out), "timeout 60 %s run --machine " TU_HOST " --policy "
			       "build/test-policies/spin_nested.so -- hackbench -g 1 -l 200",
			       tu_wakesim()), 1);
	assert_non_null(strstr(out, "spin_nested.so: its hook sis_candidate ran for over 1 s of CPU "
				    "time in one call"));
	/* A decision hook's CPU outside the machine: named, before the model uses it. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/bad_affine.so -- hackbench -g 1 -l 20", tu_wakesim()),
			 1);
	assert_non_null(strstr(out, "wakesim: policy bad-affine: its hook wake_affine returned CPU "
				    "99999 (the machine's CPUs are 0..1): the run is lost"));
	/* An unregistered counter and a misspelt feature: once each; a bad CPU ends the run. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/misuse.so -- hackbench -g 1 -l 200", tu_wakesim()), 1);
	assert_non_null(strstr(out, "wakesim: policy misuse: policy_counter_add() with counter 7, "
				    "which this simulation has not registered: its counts are lost"));
	assert_non_null(strstr(out, "wakesim: policy misuse: sched_feat(SIS_UTILL): no such feature"));
	assert_non_null(strstr(out, "--policy build/test-policies/misuse.so: its hook idle_cpu passed "
				    "CPU -3 to rq_idle() (the machine's CPUs are 0..1): the run is lost"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " --policy "
			       "build/test-policies/misuse.so -- hackbench -g 1 -l 200 2>&1 | grep -c "
			       "'counter 7'", tu_wakesim()), 0);
	assert_string_equal(out, "1\n");
	/*
	 * Every placement (a wake-up that selects a CPU, or a fork) of a task
	 * free to move asks the policy once, so the warning counts the run's
	 * placements (a delayed sleeper's wake-up selects none).
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "{ %s run --machine " TU_HOST " --policy "
			       "build/test-policies/bad_cpu.so --json -- hackbench -g 1 -l 10 > "
			       "/tmp/wakesim-badcpu.json; } 2>&1 && jq '[.metrics.placements.reason[]] | add' "
			       "/tmp/wakesim-badcpu.json", tu_wakesim()), 0);
	const char *warn = strstr(out, "the policy returned a CPU the task may not run on ");

	assert_non_null(warn);
	long n = strtol(warn + strlen("the policy returned a CPU the task may not run on "), NULL, 10);
	/* jq's answer is the last line. */
	size_t len = strlen(out);

	while (len && out[len - 1] == '\n')
		out[--len] = '\0';
	const char *last = strrchr(out, '\n');
	long asked = strtol(last ? last + 1 : out, NULL, 10);

	assert_true(n > 40);
	assert_int_equal(n, asked);
	unlink("/tmp/wakesim-badcpu.json");
}

/* Run scx-default's selection for p (prev_cpu) from this_cpu. */
static int scx_pick(struct sim *sim, struct task_struct *p, int prev, int flags, int this_cpu)
{
	policy_sim = sim;
	sim->this_cpu = this_cpu;
	int cpu = scx_default_policy.select_task_rq(p, prev, flags);

	sim->this_cpu = -1;
	sim->kcost_ns = 0;
	return cpu;
}

/*
 * ideal-2c2t: core 0 = CPUs 0-1, core 1 = CPUs 2-3, one LLC (so the LLC
 * and node steps are off: scx_idle_update_selcpu_topology()). Starting
 * with every CPU idle, by scx_select_cpu_dfl()'s order:
 *   prev 1: its whole core is idle -> 1 (claimed; core 0 no longer wholly idle)
 *   prev 1: not idle; the only wholly idle core is 1, its first CPU after
 *           the last pick (0) -> 2 (claimed)
 *   prev 1: no idle core; prev busy; its sibling 0 idle -> 0
 *   prev 2: no idle core; prev busy; its sibling 3 idle -> 3
 *   prev 2: nothing idle -> stays on 2 (prev_cpu)
 * Then CPU 1 goes idle; a WF_SYNC wake-up from CPU 0 (its runqueue empty)
 * with prev 2 busy: prev is not idle, the waker's CPU has nothing queued
 * and an idle CPU exists -> 0, the waker's CPU.
 */
static void test_scx_default_order(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2c2t.json");
	struct sim *sim = tu_sim(m, "default");
	struct task_struct *p = tu_task(sim, 1);

	policy_sim = sim;
	assert_int_equal(scx_default_policy.init(), 0);
	assert_int_equal(scx_pick(sim, p, 1, WF_TTWU, -1), 1);
	assert_int_equal(scx_pick(sim, p, 1, WF_TTWU, -1), 2);
	assert_int_equal(scx_pick(sim, p, 1, WF_TTWU, -1), 0);
	assert_int_equal(scx_pick(sim, p, 2, WF_TTWU, -1), 3);
	assert_int_equal(scx_pick(sim, p, 2, WF_TTWU, -1), 2);
	scx_default_policy.idle_enter(1, NULL);
	assert_int_equal(scx_pick(sim, p, 2, WF_TTWU | WF_SYNC, 0), 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The tutorial's prev_first.c (docs/writing-a-policy.md), loaded as wakesim
 * loads it, on two-llc (LLCs {0,1} and {2,3}): the waker runs alone on CPU
 * 0, the wakee last ran on CPU 2, now idle, and everything else is idle.
 * A sync wake-up: mainline's wake_affine_idle() takes the waker's CPU (it
 * runs only the waker), then select_idle_sibling() from 0 finds 0 busy and
 * its LLC-mate 1 idle -> 1. prev_first keeps the wakee on idle CPU 2.
 */
/*
 * Both tests' scene on two-llc: the plug-in so loaded as wakesim loads it
 * (its name checked), CPU 0 running only the waker (current), the wakee
 * *p last on idle CPU 2, and mainline's answer to a sync wake-up: 1.
 */
static struct sim *waker_on_0(struct machine *m, const char *so, const char *name,
			      const struct wakesim_policy **pol, struct task_struct **p)
{
	char err[512];
	struct sim *sim = tu_sim(m, "default");

	*p = tu_task(sim, 2);
	assert_int_equal(policy_lookup(so, pol, err, sizeof(err)), 0);
	assert_string_equal((*pol)->name, name);
	tu_busy(sim, 0);
	policy_sim = sim;
	sim->this_cpu = 0;
	assert_int_equal(select_task_rq_fair(sim, *p, 2, WF_TTWU | WF_SYNC), 1);
	return sim;
}

static void test_prev_first_tutorial(void **state)
{
	(void)state;
	const struct wakesim_policy *pol;
	struct task_struct *p;
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = waker_on_0(m, "build/policies/prev_first.so", "prev-first", &pol, &p);

	p->recent_used_cpu = 2;
	assert_int_equal(pol->select_task_rq(p, 2, WF_TTWU | WF_SYNC), 2);
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * sync_stack.c, SIS_SHORT's upper bound, on two-llc (LLCs {0,1} and
 * {2,3}): the wakee last ran on CPU 2, now idle. A sync wake-up from CPU
 * 0 running only its waker: mainline says 1 (as in the tutorial's test
 * above), sync_stack the waker's CPU 0. With a second task queued on 0,
 * or without WF_SYNC, the rule does not apply and mainline's answer
 * stands: prev 2 idle for the non-sync one (wake_affine_idle()'s "prev
 * is idle"), and for the sync one from a CPU running two tasks, prev 2
 * as well (the affine step keeps prev; select_idle_sibling() finds it
 * idle).
 */
static void test_sync_stack_bound(void **state)
{
	(void)state;
	const struct wakesim_policy *pol;
	struct task_struct *p;
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = waker_on_0(m, "build/policies/sync_stack.so", "sync-stack", &pol, &p);

	assert_int_equal(pol->select_task_rq(p, 2, WF_TTWU | WF_SYNC), 0);
	assert_int_equal(pol->select_task_rq(p, 2, WF_TTWU), 2);
	tu_busy(sim, 0);
	sim->this_cpu = 0;
	assert_int_equal(pol->select_task_rq(p, 2, WF_TTWU | WF_SYNC), 2);
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* The built-in runs end to end, and says so in its header and JSON. */
static void test_scx_default_run(void **state)
{
	char out[16384];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine epyc9654-2s --policy scx-default "
			       "-- hackbench -g 4 -l 100 --pipe", tu_wakesim()), 0);
	assert_non_null(strstr(out, "features default, policy scx-default, sysctls default"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine epyc9654-2s --policy scx-default "
			       "--json -- hackbench -g 4 -l 100 --pipe | jq -r .policy", tu_wakesim()), 0);
	assert_string_equal(out, "scx-default\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_template_is_mainline),
		cmocka_unit_test(test_affine_same_llc_plugin),
		cmocka_unit_test(test_idle_cores_no_smt_plugin),
		cmocka_unit_test(test_idle_delay_plugin),
		cmocka_unit_test(test_sis_short_plugin),
		cmocka_unit_test(test_hooks_default_to_mainline),
		cmocka_unit_test(test_hooks_stack),
		cmocka_unit_test(test_hooks_events_and_counters),
		cmocka_unit_test(test_policy_state),
		cmocka_unit_test(test_hook_wake_wide_alone),
		cmocka_unit_test(test_hook_scan_order_and_test_alone),
		cmocka_unit_test(test_hook_dequeue_and_idle_tasks),
		cmocka_unit_test(test_layers_stack),
		cmocka_unit_test(test_refused_objects),
		cmocka_unit_test(test_misbehaving_policies),
		cmocka_unit_test(test_scx_default_order),
		cmocka_unit_test(test_prev_first_tutorial),
		cmocka_unit_test(test_sync_stack_bound),
		cmocka_unit_test(test_scx_default_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
