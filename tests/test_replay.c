/*
 * test_replay.c - trace import (trace/) and replay (workload/replay.c).
 *
 * Real files (tests/data/traces/README.md says how each was recorded on
 * this project's machine): one hackbench run as ftrace text, as trace-cmd
 * report text and as trace.dat must give the same events; a perf script
 * file gives the per-event counts grep finds in it. A hand-written trace
 * gives the workload derived by hand, and its replay on ideal-2cpu the
 * timeline worked out by hand. A simulated run's own --trace, imported,
 * gives back that run's wake-ups, switches and CPU time. Bad and
 * truncated files are refused with their line or record.
 */
#include "testutil.h"

#include "trace/derive.h"

#define TRACES "tests/data/traces/"

static void read_ok(const char *path, struct sched_trace *tr)
{
	char err[512];

	memset(tr, 0, sizeof(*tr));
	if (sched_trace_read(path, tr, err, sizeof(err))) {
		print_error("%s\n", err);
		fail();
	}
}

static size_t count(const struct sched_trace *tr, int type)
{
	size_t n = 0;

	for (size_t i = 0; i < tr->nr; i++)
		n += tr->ev[i].type == type;
	return n;
}

/* Per-event counts of hbsmall.ftrace.txt, by grep -c "[ :]EVENT: ". */
static const size_t hbsmall_counts[SEV_NR] = {
	[SEV_SWITCH] = 21, [SEV_WAKING] = 9, [SEV_WAKEUP] = 9, [SEV_WAKEUP_NEW] = 5,
	[SEV_MIGRATE] = 3, [SEV_FORK] = 5, [SEV_EXIT] = 5, [SEV_STAT_RUNTIME] = 27,
};

static void test_formats_agree(void **state)
{
	struct sched_trace text, report, dat;

	(void)state;
	read_ok(TRACES "hbsmall.ftrace.txt", &text);
	read_ok(TRACES "hbsmall.report.txt", &report);
	read_ok(TRACES "hbsmall.dat", &dat);
	assert_string_equal(text.format, "ftrace text");
	assert_string_equal(dat.format, "trace.dat");
	assert_int_equal(text.nr, 84);
	for (int t = 0; t < SEV_NR; t++)
		assert_int_equal(count(&text, t), hbsmall_counts[t]);
	assert_int_equal(text.nr_cpus, 2);	/* "#P:2" */
	assert_true(text.has_waking);
	assert_int_equal(report.nr, text.nr);
	assert_int_equal(dat.nr, text.nr);
	for (size_t i = 0; i < text.nr; i++) {
		const struct sched_event *a = &text.ev[i], *b = &report.ev[i], *c = &dat.ev[i];

		/* Text has microseconds, rounded (ns2usecs()); trace.dat nanoseconds. */
		assert_true(c->ts_ns + 500 >= a->ts_ns && c->ts_ns <= a->ts_ns + 500);
		assert_int_equal(a->ts_ns, b->ts_ns);
		assert_int_equal(a->type, c->type);
		assert_int_equal(b->type, c->type);
		assert_int_equal(a->cpu, c->cpu);
		assert_int_equal(a->pid, c->pid);
		assert_int_equal(b->pid, c->pid);
		assert_int_equal(a->a, c->a);
		assert_int_equal(b->a, c->a);
		assert_int_equal(a->b, c->b);
		assert_int_equal(b->b, c->b);
		assert_int_equal(a->state, c->state);
		assert_int_equal(b->state, c->state);
		assert_int_equal(a->val, c->val);
		assert_int_equal(a->irq, c->irq);
	}
	/* bash (10064) forked 10066, which exec()ed hackbench: the last comm wins. */
	assert_string_equal(sched_trace_task(&dat, 10066)->comm, "hackbench");
	assert_string_equal(sched_trace_task(&text, 10064)->comm, "bash");
	/* The first fork, line 13 of the text: comm=bash pid=10064 child_pid=10066. */
	assert_int_equal(text.ev[0].type, SEV_FORK);
	assert_int_equal(text.ev[0].ts_ns, 38536719424000ULL);
	assert_int_equal(text.ev[0].a, 10064);
	assert_int_equal(text.ev[0].b, 10066);
	sched_trace_free(&text);
	sched_trace_free(&report);
	sched_trace_free(&dat);
}

static void test_perf_script(void **state)
{
	struct sched_trace tr;

	(void)state;
	read_ok(TRACES "hb.perf.txt", &tr);
	assert_string_equal(tr.format, "perf script");
	/* grep -c: 35 switches, 18 waking, 4 wakeup_new, 5 migrate, 4 fork, 37 stat_runtime. */
	assert_int_equal(tr.nr, 103);
	assert_int_equal(count(&tr, SEV_SWITCH), 35);
	assert_int_equal(count(&tr, SEV_WAKING), 18);
	assert_int_equal(count(&tr, SEV_WAKEUP), 0);
	assert_int_equal(count(&tr, SEV_WAKEUP_NEW), 4);
	assert_int_equal(count(&tr, SEV_MIGRATE), 5);
	assert_int_equal(count(&tr, SEV_FORK), 4);
	assert_int_equal(count(&tr, SEV_STAT_RUNTIME), 37);
	/* Line 1: "perf  7040 [000] 37678.484794105: sched:sched_stat_runtime: comm=perf
	 * pid=7040 runtime=57585 [ns]" */
	assert_int_equal(tr.ev[0].ts_ns, 37678484794105ULL);
	assert_int_equal(tr.ev[0].pid, 7040);
	assert_int_equal(tr.ev[0].cpu, 0);
	assert_int_equal(tr.ev[0].val, 57585);
	/* Line 2: perf wakes migration/0 (pid 18). */
	assert_int_equal(tr.ev[1].type, SEV_WAKING);
	assert_int_equal(tr.ev[1].a, 18);
	assert_string_equal(sched_trace_task(&tr, 18)->comm, "migration/0");

	/* perf script without --ns prints microseconds: the same events, to 1 us. */
	char out[256], path[] = "/tmp/wakesim-perfus-XXXXXX";
	int fd = mkstemp(path);
	struct sched_trace us;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tu_sh(out, sizeof(out), "sed -E 's/([0-9]+\\.[0-9]{6})[0-9]{3}:/\\1:/' "
			       TRACES "hb.perf.txt > %s", path), 0);
	read_ok(path, &us);
	unlink(path);
	assert_int_equal(us.nr, tr.nr);
	for (size_t i = 0; i < tr.nr; i++) {
		assert_int_equal(us.ev[i].type, tr.ev[i].type);
		assert_int_equal(us.ev[i].a, tr.ev[i].a);
		assert_true(tr.ev[i].ts_ns - us.ev[i].ts_ns < 1000);
	}
	assert_int_equal(us.ev[0].ts_ns, 37678484794000ULL);
	sched_trace_free(&us);
	sched_trace_free(&tr);
}

/*
 * hand.ftrace.txt with --comm '[ABD]' (C, pid 300, left out). By hand, in
 * us from 1.000000:
 *   A: in at 0 (queued when the trace began: the replay starts it), wakes B
 *      at 50, sleeps at 70, B wakes it at 100, in at 110, sleeps at 130, an
 *      interrupt wakes it at 400 (timed: 270), in at 410, forks D at 420,
 *      sleeps at 425 and the trace ends (the sleep is dropped):
 *      RUN 50, WAKE B, RUN 20, BLOCK, RUN 20, SLEEP 270, RUN 10, FORK D, RUN 5, EXIT
 *   B: in at 10, sleeps at 30, in at 60, wakes A at 100, preempted at 105
 *      (R+: not a sleep), in at 120, exits at 150:
 *      RUN 20, BLOCK, RUN 40, WAKE A, RUN 35, EXIT
 *   D: forked by A, in at 430, exits at 480: RUN 50, EXIT
 * Recorded: 7 switch-ins of A, B, D; 3 wake-ups of a sleeper, each 10 us
 * from waking to switch-in; CPU 105 + 95 + 50 = 250 us; the last end is
 * D's at 480 us.
 */
struct want_op {
	int kind, task;
	uint64_t us;
};

static void expect_ops(const struct rtask *t, const struct want_op *w, int n)
{
	assert_int_equal(t->nr_op, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(t->op[i].kind, w[i].kind);
		if (w[i].kind == ROP_WAKE || w[i].kind == ROP_FORK)
			assert_int_equal(t->op[i].task, w[i].task);
		if (w[i].kind == ROP_RUN || w[i].kind == ROP_SLEEP)
			assert_int_equal(t->op[i].ns, w[i].us * 1000);
	}
}

static void test_hand_derive(void **state)
{
	struct sched_trace tr;
	struct replay_plan p;
	const char *globs[] = { "[ABD]" };
	struct replay_select sel = { .comm = globs, .nr_comm = 1 };
	char err[256];

	(void)state;
	read_ok(TRACES "hand.ftrace.txt", &tr);
	assert_int_equal(replay_derive(&tr, &sel, &p, err, sizeof(err)), 0);
	/* Tasks in the order the trace first shows them. */
	assert_int_equal(p.nr_task, 3);
	assert_int_equal(p.task[0].pid, 100);
	assert_int_equal(p.task[1].pid, 200);
	assert_int_equal(p.task[2].pid, 400);
	assert_true(p.task[0].external_start && p.task[1].external_start);
	assert_false(p.task[2].external_start);
	const struct want_op a[] = {
		{ ROP_RUN, -1, 50 }, { ROP_WAKE, 1, 0 }, { ROP_RUN, -1, 20 }, { ROP_BLOCK, -1, 0 },
		{ ROP_RUN, -1, 20 }, { ROP_SLEEP, -1, 270 }, { ROP_RUN, -1, 10 }, { ROP_FORK, 2, 0 },
		{ ROP_RUN, -1, 5 }, { ROP_EXIT, -1, 0 },
	};
	const struct want_op b[] = {
		{ ROP_RUN, -1, 20 }, { ROP_BLOCK, -1, 0 }, { ROP_RUN, -1, 40 }, { ROP_WAKE, 0, 0 },
		{ ROP_RUN, -1, 35 }, { ROP_EXIT, -1, 0 },
	};
	const struct want_op d[] = { { ROP_RUN, -1, 50 }, { ROP_EXIT, -1, 0 } };

	expect_ops(&p.task[0], a, 10);
	expect_ops(&p.task[1], b, 6);
	expect_ops(&p.task[2], d, 2);
	assert_int_equal(p.rec_switches, 7);
	assert_int_equal(p.rec_wakeups, 3);
	assert_int_equal(p.wakes_graph, 2);
	assert_int_equal(p.wakes_external, 1);
	assert_int_equal(p.wakes_runnable, 0);
	assert_int_equal(p.rec_wake_lat.count, 3);
	assert_int_equal(p.rec_wake_lat.sum_ns, 30000);
	assert_int_equal(p.rec_cpu_ns, 250000);
	assert_int_equal(p.rec_elapsed_ns, 480000);
	assert_int_equal(p.anomalies, 0);
	replay_plan_free(&p);

	/* With C too: B's wake-up graph is the same, C gets RUN 15 (105..120), BLOCK. */
	assert_int_equal(replay_derive(&tr, NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nr_task, 4);
	assert_int_equal(p.task[2].pid, 300);
	const struct want_op c[] = { { ROP_RUN, -1, 15 }, { ROP_EXIT, -1, 0 } };

	expect_ops(&p.task[2], c, 2);
	replay_plan_free(&p);
	sched_trace_free(&tr);
}

/*
 * The replay of the hand trace on ideal-2cpu (no costs): A and B start at
 * 0 on the two CPUs. B runs 20 and blocks; A runs 50 and wakes B, which
 * runs 40 (50..90) and wakes A, blocked since 70. A runs 20 (90..110) and
 * sleeps 270 (to 380); B runs 35 and exits at 125. A runs 10, forks D
 * (390) onto the idle CPU, runs 5 and exits at 395; D runs 50: the last
 * end is 440 us. Switch-ins: A 3, B 2, D 1.
 */
static void test_hand_replay(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json -- "
			       "replay --comm '[ABD]' " TRACES "hand.ftrace.txt", tu_wakesim()), 0);
	assert_non_null(strstr(out, "Time: 0.000440\n"));
	assert_non_null(strstr(out, "context switches                        7              6"));
	assert_non_null(strstr(out, "wake-ups                                3              3"));
	/* The wakesim replay command is run -- replay. */
	char out2[8192];

	assert_int_equal(tu_sh(out2, sizeof(out2), "%s replay " TRACES "hand.ftrace.txt --comm "
			       "'[ABD]' --machine tests/data/ideal-2cpu.json", tu_wakesim()), 0);
	assert_string_equal(out, out2);
}

/*
 * Found by a trial: `perf bench sched pipe` recorded on this guest (both
 * tasks on one vCPU) replayed with 68-84% of its wake-ups and switches
 * lost: the writer, preempted by the reader it woke (prev_state=R+), is
 * never asleep in the trace, so nothing held it back and the replay ran
 * it on unsynchronised. handoff.ftrace.txt, by hand: A runs 0-10, wakes
 * B, is preempted at 11; B runs 11-25 and sleeps; A 25-35, wakes B, is
 * preempted at 36; B 36-50, sleeps; A 50-60, exits. Derived: A's two
 * preemptions are BLOCKs, each ended by a WAKE where B sleeps.
 */
static void test_handoff(void **state)
{
	struct sched_trace tr;
	struct replay_plan p;
	char err[256], out[8192];

	(void)state;
	read_ok(TRACES "handoff.ftrace.txt", &tr);
	assert_int_equal(replay_derive(&tr, NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nr_task, 2);
	const struct want_op a[] = {
		{ ROP_RUN, -1, 10 }, { ROP_WAKE, 1, 0 }, { ROP_RUN, -1, 1 }, { ROP_BLOCK, -1, 0 },
		{ ROP_RUN, -1, 10 }, { ROP_WAKE, 1, 0 }, { ROP_RUN, -1, 1 }, { ROP_BLOCK, -1, 0 },
		{ ROP_RUN, -1, 10 }, { ROP_EXIT, -1, 0 },
	};
	/* B was asleep when first seen; its last sleep, never ended, is its exit. */
	const struct want_op b[] = {
		{ ROP_BLOCK, -1, 0 }, { ROP_RUN, -1, 14 }, { ROP_WAKE, 0, 0 }, { ROP_BLOCK, -1, 0 },
		{ ROP_RUN, -1, 14 }, { ROP_WAKE, 0, 0 }, { ROP_EXIT, -1, 0 },
	};

	expect_ops(&p.task[0], a, 10);
	expect_ops(&p.task[1], b, 7);
	assert_int_equal(p.handoffs, 2);
	assert_int_equal(p.rec_switches, 5);
	assert_int_equal(p.rec_wakeups, 2);
	assert_int_equal(p.wakes_graph, 2);
	assert_int_equal(p.rec_cpu_ns, 60000);
	assert_int_equal(p.anomalies, 0);
	replay_plan_free(&p);
	sched_trace_free(&tr);
	/*
	 * On one CPU (ideal-1cpu, no costs) the replay is the recording: 5
	 * switch-ins, B woken twice (A's hand-off wake-ups find A runnable),
	 * 60 us. On two (ideal-2cpu) B runs apart: it starts at 0 on CPU 1 and
	 * sleeps at once (a switch-in), A's WAKE at 10 sends it running
	 * 10-24 while A runs 1 and sleeps; B's WAKE at 24 wakes A (24-34, 35
	 * asleep), A's at 34 wakes B (34-48), B's at 48 wakes A, which runs
	 * 48-58 and exits: 6 switch-ins, 4 wake-ups, 58 us.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "handoff.ftrace.txt --machine "
			       "tests/data/ideal-1cpu.json", tu_wakesim()), 0);
	assert_non_null(strstr(out, "hand-offs (a waker preempted by its wakee, running on when it "
				    "sleeps): 2"));
	assert_non_null(strstr(out, "context switches                        5              5"));
	assert_non_null(strstr(out, "wake-ups                                2              2"));
	assert_non_null(strstr(out, "Time: 0.000060\n"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "handoff.ftrace.txt --machine "
			       "tests/data/ideal-2cpu.json", tu_wakesim()), 0);
	assert_non_null(strstr(out, "context switches                        5              6"));
	assert_non_null(strstr(out, "wake-ups                                2              4"));
	assert_non_null(strstr(out, "Time: 0.000058\n"));
}

/* The delta column of a row of the replay's table, %. */
static double delta_of(const char *out, const char *row)
{
	const char *p = strstr(out, row);
	double rec, rep, d;

	assert_non_null(p);
	assert_int_equal(sscanf(p + strlen(row), "%lf %lf %lf", &rec, &rep, &d), 3);
	return d;
}

/*
 * The two recordings of the trial, made on this guest (README.md): the
 * importer finds the hand-offs an independent count finds; sched pipe,
 * recorded with both tasks on vCPU 0 throughout, replayed on the host
 * machine held to CPU 0 as it was, gives the recorded switches, wake-ups
 * and elapsed time within 10% (68-84% of them were lost before). Free,
 * the model spreads the pair over both CPUs, as mainline would and this
 * guest's kernel (which packs vCPUs) did not: docs/validation.md (c3).
 */
static void test_recorded_pipes(void **state)
{
	char out[8192], want[64];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "awk '$1 == \"sched-pipe\"' " TRACES
			       "sched-pipe-300.perf.txt | awk -f " TRACES "handoffs.awk"), 0);
	snprintf(want, sizeof(want), "sleeps): %d,", atoi(out));
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "sched-pipe-300.perf.txt --comm "
			       "'sched-pipe*' --cpus 0 --machine " TU_HOST, tu_wakesim()), 0);
	assert_non_null(strstr(out, want));
	assert_true(fabs(delta_of(out, "context switches")) <= 10);
	assert_true(fabs(delta_of(out, "wake-ups  ")) <= 10);
	assert_true(fabs(delta_of(out, "elapsed (ms)")) <= 10);
	assert_int_equal(tu_sh(out, sizeof(out), "awk '$1 ~ /^hackbench/' " TRACES
			       "hackbench-p-T.perf.txt | awk -f " TRACES "handoffs.awk"), 0);
	snprintf(want, sizeof(want), "sleeps): %d,", atoi(out));
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "hackbench-p-T.perf.txt --comm "
			       "'hackbench*' --machine " TU_HOST, tu_wakesim()), 0);
	assert_non_null(strstr(out, want));
	/*
	 * hackbench -g 1 -p -T -l 1000 recorded pinned to vCPU 0 (taskset -c
	 * 0), replayed held to CPU 0. Its switch count is chaotic: eight real
	 * runs of that command on this machine gave 22,676 to 50,840
	 * (docs/validation.md (g)), so the replay is held to that spread, not
	 * to this one recording's 29,804; its elapsed time (340.9 ms) is
	 * steadier and within 10%.
	 */
	char dir[] = "/tmp/wakesim-hbp-XXXXXX", junk[256];

	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "xz -dc " TRACES "hackbench-p-T-pinned.perf.txt.xz > "
			       "%s/hbp.txt && %s replay %s/hbp.txt --comm 'hackbench*' --cpus 0 "
			       "--machine " TU_HOST, dir, tu_wakesim(), dir), 0);
	tu_sh(junk, sizeof(junk), "rm -rf %s", dir);
	const char *row = strstr(out, "context switches");
	double rec, rep;

	assert_non_null(row);
	assert_int_equal(sscanf(row + strlen("context switches"), "%lf %lf", &rec, &rep), 2);
	assert_true(rec == 29804);
	assert_true(rep >= 22676 && rep <= 50840);
	assert_true(fabs(delta_of(out, "elapsed (ms)")) <= 10);
}

/* A value of "NAME   VALUE" in run's metric block. */
static double metric(const char *out, const char *name)
{
	char key[64];

	snprintf(key, sizeof(key), "\n  %s ", name);
	const char *p = strstr(out, key);

	assert_non_null(p);
	return strtod(p + strlen(key), NULL);
}

/*
 * The simulator's own trace, imported: every task replayed, the recorded
 * wake-ups and switch-ins are the run's own metrics. On ideal-2cpu (no
 * context-switch or wake-up cost) the replayed CPU time is the recorded
 * one, to the trace's microsecond rounding per burst.
 */
static void test_sim_roundtrip(void **state)
{
	char out[16384], rep[8192], tmp[] = "/tmp/wakesim-rt-XXXXXX";
	int fd = mkstemp(tmp);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json "
			       "--trace %s -- hackbench -g 2 -f 2 -l 40 --pipe", tu_wakesim(), tmp), 0);
	double wakeups = metric(out, "wakeups"), switches = metric(out, "context_switches");

	assert_int_equal(tu_sh(rep, sizeof(rep), "%s replay %s --machine tests/data/ideal-2cpu.json",
			       tu_wakesim(), tmp), 0);
	unlink(tmp);
	long rw, rs;
	double rcpu, pcpu;
	const char *p = strstr(rep, "\nwake-ups  ");

	assert_non_null(p);
	assert_int_equal(sscanf(p, "\nwake-ups %ld", &rw), 1);
	p = strstr(rep, "\ncontext switches ");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "\ncontext switches %ld", &rs), 1);
	p = strstr(rep, "\nCPU time (ms) ");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "\nCPU time (ms) %lf %lf", &rcpu, &pcpu), 2);
	assert_int_equal(rw, (long)wakeups);
	assert_int_equal(rs, (long)switches);
	/* Each switch-in starts a burst whose two ends are each rounded to 0.5 us. */
	assert_true(fabs(rcpu - pcpu) <= switches * 0.001);
	assert_null(strstr(rep, "inconsistent"));
}

static void expect_error(const char *content, size_t len, const char *needle)
{
	char path[] = "/tmp/wakesim-badtrace-XXXXXX", err[512];
	int fd = mkstemp(path);
	struct sched_trace tr = { 0 };

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	assert_int_equal(sched_trace_read(path, &tr, err, sizeof(err)), -1);
	if (!strstr(err, needle) || strncmp(err, path, strlen(path))) {
		print_error("error \"%s\" lacks the path or \"%s\"\n", err, needle);
		fail();
	}
	assert_null(tr.ev);
	unlink(path);
}

#define BAD(text, needle) expect_error(text, sizeof(text) - 1, needle)

static void test_bad_traces(void **state)
{
	(void)state;
	BAD("", "no sched_switch");
	BAD("# only a header\n", "no sched_switch");
	BAD("not a trace line\n", ":1: expected an event line");
	BAD("# h\n  a-1 [000] d..2. 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 "
	    "prev_state=S ==> next_comm=b next_pid=x next_prio=120\n",
	    ":2: sched_switch: field \"next_pid\": expected an integer in 0..2147483647, found \"x\"");
	/* A pid past pid_t's range (a trial): the message names the upper bound too. */
	BAD("  a-1 [000] d..2. 1.0: sched_waking: comm=b pid=2147483648 prio=120 target_cpu=000\n",
	    ":1: sched_waking: field \"pid\": expected an integer in 0..2147483647, found "
	    "\"2147483648\"");
	BAD("  a-1 [000] d..2. 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 "
	    "prev_state=Q ==> next_comm=b next_pid=2 next_prio=120\n", "field \"prev_state\"");
	/* A line cut short, as a truncated copy ends: it is no event. */
	BAD("  a-1 [000] d..2. 1.000001: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 "
	    "prev_st", ":1: the last line has no end of line (a truncated file?)");
	BAD("  a-1 [000] d..2. 1.0: sched_waking: comm=b prio=120 target_cpu=000\n",
	    "field \"pid\": missing");
	/* Cut before prev_state (a bad-input trial: it blamed next_comm). */
	BAD("  a-1 [000] d..2. 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120\n",
	    ":1: sched_switch: field \"prev_state\": missing");
	BAD("  a-1 [000] d..2. 1.x: sched_waking: comm=b pid=2\n", "expected the time");
	BAD("  a-1 [99999] d..2. 1.0: sched_waking: comm=b pid=2\n", "CPU number");
	BAD("  a-1 [000] d..2. 1.0: sched_process_fork: comm=a pid=1 child_comm=b child_pid=0\n",
	    "field \"child_pid\"");
	BAD("  a-1 [000] d..2. 1.0: sched_stat_runtime: comm=a pid=1 runtime=-5 [ns]\n",
	    "field \"runtime\"");
	BAD("\x17\x08\x44tracing6\0garbage", "not a readable trace.dat");
	/* Found by a bad-input trial: the bad time, not the next word; [-1]; 10^24 ns. */
	BAD("  a-1 [000] d..2. -5.000000001: sched_waking: comm=b pid=2\n",
	    "found \"-5.000000001:\"");
	BAD("  a-1 [-1] d..2. 1.0: sched_waking: comm=b pid=2\n", "CPU number 0..65535");
	BAD("  a-1 [000] d..2. 1.0: sched_stat_runtime: comm=a pid=1 runtime=999999999999999999999999 "
	    "[ns]\n", "field \"runtime\": expected ns, at most 3600 s");
	BAD("ab\0cd\n", ":1: a NUL byte");
	/* One CPU's clock went back: lines moved (found by a new-user trial). */
	BAD("  a-1 [003] d..2. 1.000002: sched_waking: comm=b pid=2\n"
	    "  a-1 [001] d..2. 1.000000: sched_waking: comm=b pid=2\n"
	    "  a-1 [003] d..2. 1.000001: sched_waking: comm=b pid=2\n",
	    ":3: sched_waking: the time 1.000001 is before 1.000002, CPU 3's event on line 1");

	/* trace.dat cut after its first 64 KiB (mid-headers), or with its data overwritten. */
	char out[2048], path[] = "/tmp/wakesim-dat-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tu_sh(out, sizeof(out), "head -c 65536 " TRACES "hbsmall.dat > %s", path), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay %s", tu_wakesim(),
			       path), 2);
	assert_non_null(strstr(out, "not a readable trace.dat"));
	assert_non_null(strstr(out, path));
	/* Every 509th byte from 4 KiB on zeroed: libtracecmd may fail or crash, wakesim may not. */
	assert_int_equal(tu_sh(out, sizeof(out), "cp " TRACES "hbsmall.dat %s && python3 -c \""
			       "import sys; b=bytearray(open(sys.argv[1],'rb').read()); "
			       "b[4096::509]=bytes(len(b[4096::509])); open(sys.argv[1],'wb').write(b)\" %s",
			       path, path), 0);
	int st = tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay %s", tu_wakesim(), path);

	assert_true(st == 0 || st == 2);
	/*
	 * Found by make fuzz: 8 bytes of a section header (file offset 55148)
	 * that make libtracecmd 1.3.1 malloc() 750 PB. It fails (or, under
	 * AddressSanitizer, dies) in its child process; wakesim refuses the file.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "cp " TRACES "hbsmall.dat %s && python3 -c \""
			       "import sys; b=bytearray(open(sys.argv[1],'rb').read()); "
			       "b[55148:55156]=bytes([0o65,0o35,0o172,0o167,0o167,0o123,0o255,0o310]); "
			       "open(sys.argv[1],'wb').write(b)\" %s", path, path), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay %s --machine " TU_HOST, tu_wakesim(), path), 2);
	assert_non_null(strstr(out, ": not a readable trace.dat: libtracecmd"));
	unlink(path);
}

/*
 * Found by a bad-input trial, each with its input: a FIFO hung the reader;
 * a last line cut short parsed as a phantom task; one timestamp hours off
 * passed without a word; a perf script file of switches alone was called
 * ftrace text; a task switched in after it exited (a corrupt trace.dat)
 * kept running and woke a task after its own exit, and the replay hung.
 */
/* Write text to path (a hand-made trace). */
static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_trial_findings(void **state)
{
	char out[8192], dir[] = "/tmp/wakesim-trial-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "mkfifo %s/fifo && timeout 20 %s replay %s/fifo --machine " TU_HOST,
			       dir, tu_wakesim(), dir), 2);
	assert_non_null(strstr(out, "/fifo: not a regular file"));
	/* hand.ftrace.txt's last line (D exits) cut inside its next_pid field: left out. */
	assert_int_equal(tu_sh(out, sizeof(out), "head -c -17 " TRACES "hand.ftrace.txt > %s/cut.txt "
			       "&& %s replay %s/cut.txt --comm '[ABD]' --machine tests/data/ideal-2cpu.json",
			       dir, tu_wakesim(), dir), 0);
	assert_non_null(strstr(out, "warning: line 29 has no end of line (a truncated file?): left out"));
	/* The first event a second early: a gap of 1.00001 s in a span of 1.00048 s. */
	assert_int_equal(tu_sh(out, sizeof(out), "sed '10s/     1.000000:/     0.000000:/' "
			       TRACES "hand.ftrace.txt > %s/gap.txt "
			       "&& %s replay %s/gap.txt --machine tests/data/ideal-2cpu.json", dir,
			       tu_wakesim(), dir), 0);
	assert_non_null(strstr(out, "warning: 1.000 s without events before line 11"));
	/*
	 * Two copies of a trace joined (found by a new-user trial: sorted
	 * silently into one run): the second copy's first event (line 10 + 29)
	 * is CPU 0's at 1.000000, after CPU 0's last of the first copy, line 27
	 * at 1.000425. Events of different CPUs may still come out of order.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "cat " TRACES "hand.ftrace.txt " TRACES
			       "hand.ftrace.txt > %s/joined.txt && %s replay %s/joined.txt --machine "
			       "tests/data/ideal-2cpu.json", dir, tu_wakesim(), dir), 2);
	assert_non_null(strstr(out, "/joined.txt:39: sched_switch: the time 1.000000 is before "
				    "1.000425, CPU 0's event on line 27"));
	/*
	 * A trace wakesim cut at --trace-max-size, replayed: it says where (the
	 * marker's line, found here by grep) and that the replay ends there.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine tests/data/ideal-2cpu.json --trace "
			       "%s/big.txt --trace-max-size 10K -- hackbench -g 1 -f 2 -l 500 >/dev/null "
			       "2>&1 && grep -n 'trace-max-size' %s/big.txt | cut -d: -f1", tu_wakesim(), dir,
			       dir), 0);
	char want[160];

	snprintf(want, sizeof(want), "warning: line %d: wakesim stopped writing this trace at its "
		 "--trace-max-size", atoi(out));
	assert_true(atoi(out) > 10);
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay %s/big.txt --machine tests/data/ideal-2cpu.json",
			       tu_wakesim(), dir), 0);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "the replay ends where the trace does"));
	assert_int_equal(tu_sh(out, sizeof(out), "grep -m1 sched_switch " TRACES "hb.perf.txt > "
			       "%s/one.txt && %s replay %s/one.txt --machine " TU_HOST, dir, tu_wakesim(), dir),
			 0);
	assert_non_null(strstr(out, "(perf script)"));
	/*
	 * A (100) exits at 1.000010, yet is switched in again at 1.000020 and
	 * wakes B, asleep since 1.000005: A is not replayed past its exit, and
	 * B's wake-up becomes a timed sleep (15 us), so the replay ends.
	 */
	char path[128];

	snprintf(path, sizeof(path), "%s/dead.txt", dir);
	write_text(path, "  <idle>-0 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
	      "  <idle>-0 [001] d..2. 1.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=B next_pid=200 next_prio=120\n"
	      "  B-200 [001] d..2. 1.000005: sched_switch: prev_comm=B prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	      "  A-100 [000] d..2. 1.000010: sched_switch: prev_comm=A prev_pid=100 prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	      "  <idle>-0 [000] d..2. 1.000020: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
	      "  A-100 [000] d..3. 1.000020: sched_waking: comm=B pid=200 prio=120 target_cpu=001\n"
	      "  <idle>-0 [001] d..2. 1.000030: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=B next_pid=200 next_prio=120\n"
	      "  B-200 [001] d..2. 1.000040: sched_switch: prev_comm=B prev_pid=200 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120\n");
	struct sched_trace tr;
	struct replay_plan p;
	char err[256];

	read_ok(path, &tr);
	assert_int_equal(replay_derive(&tr, NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nr_task, 2);
	assert_int_equal(p.task[0].nr_op, 2);	/* A: RUN 10, EXIT */
	assert_int_equal(p.task[1].op[1].kind, ROP_SLEEP);	/* B: RUN 4, SLEEP 15, RUN 10, EXIT */
	assert_int_equal(p.task[1].op[1].ns, 15000);
	replay_plan_free(&p);
	sched_trace_free(&tr);
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay %s --machine tests/data/ideal-2cpu.json",
			       tu_wakesim(), path), 0);
	/*
	 * Found by a trial (fuzzed traces): a fork line whose parent pid is
	 * its child's, of a task not seen before, put a FORK of the task in
	 * its own program; started twice, the replay ended with "stopped at
	 * operation 1 of 4". Such a line is left out as inconsistent. By
	 * hand: A runs 1.000000-1.001000, sleeps until an interrupt wakes it
	 * at 1.002000, runs until it exits at 1.003000; D, first seen switched
	 * in, runs 1.000030-1.000040 and exits.
	 */
	snprintf(path, sizeof(path), "%s/selffork.txt", dir);
	write_text(path, "  <idle>-0 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
	      "  A-100 [000] ..... 1.000010: sched_process_fork: comm=D pid=400 child_comm=D child_pid=400\n"
	      "  <idle>-0 [001] d..2. 1.000030: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=D next_pid=400 next_prio=120\n"
	      "  D-400 [001] d..2. 1.000040: sched_switch: prev_comm=D prev_pid=400 prev_prio=120 prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	      "  A-100 [000] d..2. 1.001000: sched_switch: prev_comm=A prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	      "  <idle>-0 [000] d.h2. 1.002000: sched_waking: comm=A pid=100 prio=120 target_cpu=000\n"
	      "  <idle>-0 [000] d..2. 1.002000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
	      "  A-100 [000] d..2. 1.003000: sched_switch: prev_comm=A prev_pid=100 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	read_ok(path, &tr);
	assert_int_equal(replay_derive(&tr, NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nr_task, 2);
	assert_int_equal(p.anomalies, 1);
	const struct want_op sa[] = {
		{ ROP_RUN, -1, 1000 }, { ROP_SLEEP, -1, 1000 }, { ROP_RUN, -1, 1000 }, { ROP_EXIT, -1, 0 },
	};
	const struct want_op sd[] = { { ROP_RUN, -1, 10 }, { ROP_EXIT, -1, 0 } };

	assert_int_equal(p.task[0].pid, 100);
	expect_ops(&p.task[0], sa, 4);
	assert_int_equal(p.task[1].pid, 400);
	expect_ops(&p.task[1], sd, 2);
	replay_plan_free(&p);
	sched_trace_free(&tr);
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay %s --machine tests/data/ideal-2cpu.json",
			       tu_wakesim(), path), 0);
	assert_non_null(strstr(out, "inconsistent events (a wake-up or switch missing): 1\n"));
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/*
 * A plan no trace should give, checked anyway: each task first waits for
 * the other's wake-up. The first task's wait becomes a sleep of no time,
 * after which it wakes the second: the replay can end.
 */
static void test_plan_complete(void **state)
{
	struct rop a[] = { { ROP_BLOCK, -1, 0 }, { ROP_WAKE, 1, 0 }, { ROP_EXIT, -1, 0 } };
	struct rop b[] = { { ROP_BLOCK, -1, 0 }, { ROP_WAKE, 0, 0 }, { ROP_EXIT, -1, 0 } };
	struct rtask t[2] = {
		{ .pid = 1, .external_start = true, .op = a, .nr_op = 3 },
		{ .pid = 2, .external_start = true, .op = b, .nr_op = 3 },
	};
	struct replay_plan p = { .task = t, .nr_task = 2 };

	(void)state;
	assert_int_equal(replay_plan_complete(&p), 0);
	assert_int_equal(a[0].kind, ROP_SLEEP);
	assert_int_equal(a[0].ns, 0);
	assert_int_equal(b[0].kind, ROP_BLOCK);
	assert_int_equal(p.anomalies, 1);
}

static void test_cli_errors(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "hand.ftrace.txt t.txt --machine " TU_HOST,
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "\"t.txt\" is another: replay one trace at a time"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay " TRACES "hand.ftrace.txt --machine " TU_HOST " --wake-flags",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "option --wake-flags needs a value"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay", tu_wakesim()), 2);
	assert_non_null(strstr(out, "replay: TRACE missing"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay --machine " TU_HOST, tu_wakesim()), 2);
	assert_non_null(strstr(out, "TRACE"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay --wake-flags x "
			       TRACES "hand.ftrace.txt", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--wake-flags \"x\": expected none or sync"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay --pid 0 "
			       TRACES "hand.ftrace.txt", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--pid"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay --comm nomatch "
			       TRACES "hand.ftrace.txt", tu_wakesim()), 2);
	assert_non_null(strstr(out, TRACES "hand.ftrace.txt: no task of the trace's 4 matches"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay tests/data",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "tests/data: not a regular file"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine " TU_HOST " -- replay /nonexistent",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "/nonexistent: No such file"));
	/*
	 * Found by a trial: replay's errors said "wakesim run:", and a bad
	 * trace's bytes went to the terminal raw (an escape sequence, a
	 * control byte): now "wakesim replay:", and each such byte as \xNN.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '\\033[31mgar\\001bage x\\n' > "
			       "/tmp/wakesim-esc.txt && %s replay /tmp/wakesim-esc.txt --machine " TU_HOST,
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "wakesim replay: /tmp/wakesim-esc.txt:1: expected an event line"));
	assert_non_null(strstr(out, "found \"\\x1b[31mgar\\x01bage\""));
	tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-esc.txt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats_agree),
		cmocka_unit_test(test_handoff),
		cmocka_unit_test(test_recorded_pipes),
		cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_hand_derive),
		cmocka_unit_test(test_hand_replay),
		cmocka_unit_test(test_sim_roundtrip),
		cmocka_unit_test(test_bad_traces),
		cmocka_unit_test(test_trial_findings),
		cmocka_unit_test(test_plan_complete),
		cmocka_unit_test(test_cli_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
