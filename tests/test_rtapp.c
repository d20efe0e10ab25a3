/*
 * test_rtapp.c - rt-app files: every supported event on small files whose
 * timelines are worked out by hand from rt-app's rules (doc/tutorial.txt,
 * src/rt-app.c), on tests/data/ideal-2cpu.json where switching, waking
 * and syscalls cost nothing, so the only delays are the files' own and
 * the 50 us timer slack of a SCHED_OTHER sleep. Malformed and unsupported
 * files must be refused with the file, line and key.
 */
#include "testutil.h"
#include "util/jsonpos.h"

#define IDEAL "tests/data/ideal-2cpu.json"

static char dir[] = "/tmp/wakesim-rtapp-XXXXXX";
static char out[1 << 16];

static const char *write_file(const char *name, const char *text)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Run a file on the ideal machine; status must be 0. */
static void run_file(const char *name, const char *text)
{
	const char *path = write_file(name, text);
	int st = tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(), IDEAL, path);

	if (st) {
		print_error("rt-app %s: status %d\n%s\n", name, st, out);
		fail();
	}
}

/* The report row of a thread: rows and the means of rt-app's log columns. */
struct row {
	unsigned long long rows;
	double period, run, slack, wu;
};

static struct row thread_row(const char *comm)
{
	struct row r;
	char key[64];

	snprintf(key, sizeof(key), "\n%s ", comm);
	const char *at = strstr(out, key);

	if (!at) {
		print_error("no row for %s in:\n%s\n", comm, out);
		fail();
	}
	assert_int_equal(sscanf(at + strlen(key), "%llu %lf %lf %lf %lf", &r.rows, &r.period, &r.run,
				&r.slack, &r.wu), 5);
	return r;
}

static void expect_row(const char *comm, unsigned long long rows, double period, double run,
		       double slack, double wu)
{
	struct row r = thread_row(comm);

	if (r.rows != rows || fabs(r.period - period) > 0.051 || fabs(r.run - run) > 0.051 ||
	    fabs(r.slack - slack) > 0.051 || fabs(r.wu - wu) > 0.051) {
		print_error("%s: got rows %llu period %.1f run %.1f slack %.1f wu %.1f, expected "
			    "%llu %.1f %.1f %.1f %.1f\n%s\n", comm, r.rows, r.period, r.run, r.slack,
			    r.wu, rows, period, run, slack, wu, out);
		fail();
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
	return 0;
}

static void test_run_runtime_sleep(void **state)
{
	(void)state;
	/* run: CPU work of exactly its length. */
	run_file("run.json", "{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 1000 } } }");
	expect_row("t-0", 3, 1000, 1000, 0, 0);
	/* runtime: 32 us chunks until 1000 us passed: 32 chunks, 1024 us. */
	run_file("runtime.json", "{ \"tasks\": { \"t\": { \"loop\": 2, \"runtime\": 1000 } } }");
	expect_row("t-0", 2, 1024, 1024, 0, 0);
	/* sleep: 900 us plus 50 us of timer slack. */
	run_file("sleep.json",
		 "{ \"tasks\": { \"t\": { \"loop\": 2, \"run\": 100, \"sleep\": 900 } } }");
	expect_row("t-0", 2, 1050, 100, 0, 0);
	/* Two runs in one phase: both count in the row's run column. */
	run_file("run2.json",
		 "{ \"tasks\": { \"t\": { \"loop\": 1, \"run0\": 100, \"sleep\": 200, \"run1\": 300 } } }");
	expect_row("t-0", 1, 650, 400, 0, 0);
}

static void test_timer(void **state)
{
	(void)state;
	/*
	 * Period 2000 from t_first = 0: row 1 runs 0-1000, slack 1000, wakes at
	 * 2000 + 50 (slack) = 2050: period 2050, latency 50. Rows 2 and 3 run
	 * 1000 after that: slack 950, period 2000. Means: period 2016.7,
	 * slack 966.7, latency 50.
	 */
	run_file("timer.json", "{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 1000,"
			       " \"timer\": { \"ref\": \"unique\", \"period\": 2000 } } } }");
	expect_row("t-0", 3, 2016.667, 1000, 966.667, 50);
	assert_non_null(strstr(out, "timer wake-ups: 3, mean 50.0 us"));
	/*
	 * Overdue, relative: every row runs 1500 past a 1000 period: no sleep,
	 * latency 0, next reset to now: slack -500 each time.
	 */
	run_file("late-rel.json", "{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 1500,"
				  " \"timer\": { \"ref\": \"unique\", \"period\": 1000 } } } }");
	expect_row("t-0", 3, 1500, 1500, -500, 0);
	assert_non_null(strstr(out, "overdue timer events: 3"));
	/* Absolute: the grid stays at 1000, 2000, 3000: slack -500, -1000, -1500. */
	run_file("late-abs.json", "{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 1500,"
				  " \"timer\": { \"ref\": \"unique\", \"period\": 1000,"
				  " \"mode\": \"absolute\" } } } }");
	expect_row("t-0", 3, 1500, 1500, -1000, 0);
	/*
	 * A shared timer ("tick") between two instances: each use advances the
	 * same next by the period. Instance 0 and 1 both run 100 then take the
	 * timer: next = 1000 and 2000; they wake at 1050 and 2050; then 3000
	 * and 4000 (+50). Rows: 1050, 2050 for the first pair, 2000 each after.
	 */
	run_file("shared.json", "{ \"tasks\": { \"t\": { \"instance\": 2, \"loop\": 2, \"run\": 100,"
				" \"timer\": { \"ref\": \"tick\", \"period\": 1000 } } } }");
	{
		struct row a = thread_row("t-0"), b = thread_row("t-1");

		/* Four timer uses: next 1000, 2000, 3000, 4000 in some order. */
		assert_int_equal(a.rows + b.rows, 4);
		assert_true(fabs((a.period * 2 + b.period * 2) - (1050 + 2050 + 2000 + 2000)) < 0.2);
	}
}

static void test_mutex_and_conditions(void **state)
{
	(void)state;
	/*
	 * a holds m for its 1000 us run; b starts at 100 + 50 (its delay's
	 * slack), blocks on m, gets it when a unlocks at 1000, runs to 2000.
	 */
	run_file("lock.json", "{ \"tasks\": {"
			      " \"a\": { \"loop\": 1, \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\" },"
			      " \"b\": { \"delay\": 100, \"loop\": 1, \"lock\": \"m\", \"run\": 1000,"
			      " \"unlock\": \"m\" } } }");
	expect_row("a-0", 1, 1000, 1000, 0, 0);
	expect_row("b-0", 1, 1850, 1000, 0, 0);
	/* w waits on c from 0; s signals at 500 + 50: w's row lasts 550. */
	run_file("wait.json", "{ \"tasks\": {"
			      " \"w\": { \"loop\": 1, \"lock\": \"m\", \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" },"
			      " \"unlock\": \"m\" },"
			      " \"s\": { \"delay\": 500, \"loop\": 1, \"lock\": \"m\", \"signal\": \"c\","
			      " \"unlock\": \"m\" } } }");
	expect_row("w-0", 1, 550, 0, 0, 0);
	/* broad wakes both waiters. */
	run_file("broad.json", "{ \"tasks\": {"
			       " \"w\": { \"instance\": 2, \"loop\": 1, \"lock\": \"m\","
			       " \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" }, \"unlock\": \"m\" },"
			       " \"s\": { \"delay\": 500, \"loop\": 1, \"lock\": \"m\", \"broad\": \"c\","
			       " \"unlock\": \"m\" } } }");
	expect_row("w-0", 1, 550, 0, 0, 0);
	expect_row("w-1", 1, 550, 0, 0, 0);
	/* sync: signal (nobody waits yet) and wait; woken by b at 300 + 50. */
	run_file("sync.json", "{ \"tasks\": {"
			      " \"a\": { \"loop\": 1, \"lock\": \"m\", \"sync\": { \"ref\": \"c\", \"mutex\": \"m\" },"
			      " \"unlock\": \"m\" },"
			      " \"b\": { \"delay\": 300, \"loop\": 1, \"lock\": \"m\", \"signal\": \"c\","
			      " \"unlock\": \"m\" } } }");
	expect_row("a-0", 1, 350, 0, 0, 0);
}

static void test_barrier_suspend_resume(void **state)
{
	(void)state;
	/* The first to arrive waits for the last: both rows end at 3000. */
	run_file("barrier.json", "{ \"tasks\": {"
				 " \"a\": { \"loop\": 2, \"run\": 1000, \"barrier\": \"B\" },"
				 " \"b\": { \"loop\": 2, \"run\": 3000, \"barrier\": \"B\" } } }");
	expect_row("a-0", 2, 3000, 1000, 0, 0);
	expect_row("b-0", 2, 3000, 3000, 0, 0);
	/* a suspends itself until b resumes it at 700 + 50. */
	run_file("suspend.json", "{ \"tasks\": {"
				 " \"a\": { \"loop\": 1, \"suspend\": \"a\", \"run\": 100 },"
				 " \"b\": { \"delay\": 700, \"loop\": 1, \"resume\": \"a\" } } }");
	expect_row("a-0", 1, 850, 100, 0, 0);
}

static void test_phases_loops_duration(void **state)
{
	(void)state;
	/*
	 * Two phases, thread loop 2: rows = 2 x (3 + 1). Mean period:
	 * (3 x 100 + 1 x 500) x 2 / 8 = 200.
	 */
	run_file("phases.json", "{ \"tasks\": { \"t\": { \"loop\": 2, \"phases\": {"
				" \"p1\": { \"loop\": 3, \"run\": 100 },"
				" \"p2\": { \"run\": 500 } } } } }");
	expect_row("t-0", 8, 200, 200, 0, 0);
	/* Forever, stopped by global.duration: 1 s of 3 ms rows is 333 rows. */
	run_file("duration.json", "{ \"global\": { \"duration\": 1 },"
				  " \"tasks\": { \"t\": { \"run\": 3000 } } }");
	expect_row("t-0", 333, 3000, 3000, 0, 0);
	/*
	 * Documentation's example7 (barriers), worked from rt-app's rules:
	 * runtime rounds up to 32 us chunks (1000 -> 1024, 2000 -> 2016) and
	 * each sleep adds 50 us of slack; the slower task reaches each barrier
	 * last: 1024 + 2050 = 3074, + 2016 = 5090 waits for task1's
	 * 3074 + 1024 + 2050 = 6148, then 6148 + 1024 + 2050 = 9222. Rows of
	 * 9222 us; 542 of them end within the 5 s duration.
	 */
	const char *ex = "examples/rt-app/barrier-pair.json";
	int st = tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(), IDEAL, ex);

	assert_int_equal(st, 0);
	expect_row("task0-0", 542, 9222, 4064, 0, 0);
	expect_row("task1-0", 542, 9222, 5056, 0, 0);
}

static void test_affinity_and_nice(void **state)
{
	(void)state;
	/*
	 * Pinned to CPU 1 by "cpus", two threads share it: 2000 us of work end
	 * at 2000 at the latest, so against a shared timer grid at 5000 the
	 * later one has 3000 us of slack (4000 if each had its own CPU).
	 */
	run_file("cpus.json", "{ \"tasks\": { \"t\": { \"instance\": 2, \"cpus\": [1], \"loop\": 1,"
			      " \"run\": 1000, \"timer\": { \"ref\": \"unique\", \"period\": 5000 } } } }");
	{
		struct row a = thread_row("t-0"), b = thread_row("t-1");
		double lo = a.slack < b.slack ? a.slack : b.slack, hi = a.slack + b.slack - lo;

		assert_true(fabs(lo - 3000) < 0.05);
		assert_true(hi >= 3000 - 0.05 && hi <= 4000 + 0.05);
	}
	/* A phase's cpus move the thread: it still completes its rows. */
	run_file("phase-cpus.json", "{ \"tasks\": { \"t\": { \"loop\": 1, \"cpus\": [0], \"phases\": {"
				    " \"a\": { \"run\": 100 }, \"b\": { \"cpus\": [1], \"run\": 100 } } } } }");
	expect_row("t-0", 2, 100, 100, 0, 0);
}

/* Refused with status 2 and "FILE:LINE: field \"PATH\"". */
static void expect_refused(const char *name, const char *text, int line, const char *needle)
{
	const char *path = write_file(name, text);
	int st = tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(), IDEAL, path);
	char where[512];

	snprintf(where, sizeof(where), "%s:%d:", path, line);
	if (st != 2 || !strstr(out, where) || !strstr(out, needle)) {
		print_error("%s: status %d, output:\n%s\n(expected status 2, \"%s\" and \"%s\")\n", name,
			    st, out, where, needle);
		fail();
	}
}

static void test_bad_files(void **state)
{
	(void)state;
	expect_refused("syntax.json", "{\n \"tasks\": {\n  \"t\": { \"run\": 10 \n}\n", 5,
		       "JSON syntax error");
	expect_refused("unknown.json", "{\n \"tasks\": {\n  \"t\": {\n   \"loop\": 1,\n"
		       "   \"frobnicate\": 3,\n   \"run\": 10 } } }\n", 5, "\"tasks.t.frobnicate\"");
	expect_refused("mem.json", "{ \"tasks\": { \"t\": {\n \"loop\": 1,\n \"mem\": 1000 } } }", 3,
		       "\"mem\" is not simulated");
	expect_refused("fifo.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n \"policy\": \"SCHED_FIFO\","
		       " \"run\": 10 } } }", 2, "SCHED_FIFO is not simulated");
	expect_refused("noperiod.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n"
		       " \"timer\": { \"ref\": \"x\" } } } }", 2, "\"tasks.t.timer.period\": missing");
	expect_refused("negative.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n\n \"run\": -5 } } }", 3,
		       "-5 is outside");
	expect_refused("string.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n \"sleep\": \"ten\" } } }",
		       2, "expected an integer");
	expect_refused("forever.json", "{ \"tasks\": { \"t\": { \"run\": 10 } } }", 1,
		       "a simulation must end");
	expect_refused("cpus.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n\n\n \"cpus\": [0, 7],"
		       " \"run\": 10 } } }", 4, "CPU 7 is not on this machine");
	expect_refused("top.json", "{\n \"tasks\": { \"t\": { \"loop\": 1, \"run\": 10 } },\n"
		       " \"extra\": 1 }", 3, "unknown top-level key");
	expect_refused("global.json", "{ \"global\": {\n \"duration\": 1,\n \"bogus\": true },\n"
		       " \"tasks\": { \"t\": { \"run\": 10 } } }", 3, "\"global.bogus\"");
	expect_refused("noevents.json", "{ \"tasks\": {\n \"t\": { \"loop\": 1, \"phases\": {\n"
		       "  \"p\": { \"loop\": 2 } } } } }", 3, "no events");
	expect_refused("uclamp.json", "{ \"tasks\": {\n \"t\": { \"loop\": 1, \"util_min\": 100,"
		       " \"run\": 10 } } }", 2, "not simulated");
	/* Found by a new user's trial: each used to run or fail without a line. */
	expect_refused("garbage.json", "{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 10 } } }\n"
		       "trailing\n", 2, "unexpected text after the JSON document");
	expect_refused("res.json", "{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 10 } },\n"
		       " \"resources\": 5 }", 2, "expected an object");
	expect_refused("calib.json", "{ \"global\": {\n \"calibration\": \"bogus\" },\n"
		       " \"tasks\": { \"t\": { \"loop\": 1, \"run\": 10 } } }", 2, "\"CPUn\"");
	expect_refused("resume.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n"
		       " \"resume\": \"tt\" } } }", 2, "which is no thread of the file");
	expect_refused("dupglobal.json", "{ \"global\": { \"duration\": 1,\n \"duration\": 2 },\n"
		       " \"tasks\": { \"t\": { \"run\": 10 } } }", 2, "repeats \"duration\"");
	expect_refused("unlock.json", "{ \"tasks\": { \"t\": { \"loop\": 2,\n \"run\": 10,\n"
		       " \"unlock\": \"m\" } } }", 3, "unlocks a mutex it does not hold");
	expect_refused("nomutex.json", "{ \"tasks\": { \"t\": { \"loop\": 1,\n"
		       " \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" } } } }", 2,
		       "without holding its mutex");
	{
		/* A file whose threads deadlock: status 2, not a simulator failure. */
		const char *path = write_file("deadlock.json", "{ \"tasks\": { \"t\": { \"loop\": 2,"
						" \"lock\": \"m\", \"run\": 10 } } }");

		assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s",
				       tu_wakesim(), IDEAL, path), 2);
		assert_non_null(strstr(out, "wait for each other forever"));
	}
	/* Not a file, or a missing one: a clear message, status 2. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(),
			       IDEAL, dir), 2);
	assert_non_null(strstr(out, "not a regular file"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s/none.json",
			       tu_wakesim(), IDEAL, dir), 2);
	assert_non_null(strstr(out, "No such file"));
	/*
	 * A NUL byte used to end the text there, so the error named the wrong
	 * thing ("tasks": expected an object of threads); the reader machine
	 * files use (sim/textfile.c) names the NUL.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '{ \"tasks\": {} }\\0 }' > %s/nul.json && "
			       "%s run --machine %s -- rt-app %s/nul.json", dir, tu_wakesim(), IDEAL, dir), 2);
	assert_non_null(strstr(out, "nul.json: contains a NUL byte"));
}

/*
 * The key walker itself, on text worked by hand: workgen's K<n> with n
 * from 1 per object, skipping names already taken ("a1" is taken by the
 * first rename, so the key "a1" becomes "a11" and the third "a" is "a2");
 * keys of nested and sibling objects are separate sets; strings that are
 * values, and comments, are not keys.
 */
static void test_key_walker(void **state)
{
	(void)state;
	const char *in = "{ \"a\": 1, \"a\": \"a\",\n"
			 "  \"a1\": 3, /* \"a\": */ \"o\": { \"a\": 0, \"a\": 0 },\n"
			 "  \"a\": 4 }";
	const char *want = "{ \"a\": 1, \"a1\": \"a\",\n"
			   "  \"a11\": 3, /* \"a\": */ \"o\": { \"a\": 0, \"a1\": 0 },\n"
			   "  \"a2\": 4 }";
	int renamed = -1;
	char *got = json_unique_keys(in, strlen(in), &renamed);
	char key[32];

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_int_equal(renamed, 4);
	free(got);
	/* The first repeat is the second "a", on line 1; none once renamed. */
	assert_int_equal(json_repeated_key(in, strlen(in), key, sizeof(key)), 1);
	assert_string_equal(key, "a");
	assert_int_equal(json_repeated_key(want, strlen(want), key, sizeof(key)), 0);
	/* A repeat inside the nested object on line 2 is found there. */
	in = "{ \"x\": 1,\n \"o\": { \"y\": 1, \"y\": 2 } }";
	assert_int_equal(json_repeated_key(in, strlen(in), key, sizeof(key)), 2);
	assert_string_equal(key, "o.y");
	/* In an array, by its index: the second element's "z", on line 3. */
	in = "{ \"l\": [ { \"z\": 1 }, 7,\n { \"w\": [ 1, 2 ],\n \"z\": 1, \"z\": 2 } ] }";
	assert_int_equal(json_repeated_key(in, strlen(in), key, sizeof(key)), 3);
	assert_string_equal(key, "l[2].z");
}

/* Lines of paths, for messages: keys, and array elements of each kind. */
static void test_path_lines(void **state)
{
	const char *in = "{ \"a\": [\n 1,\n \"s\",\n { \"k\": 2 },\n [ 3,\n 4 ] ],\n \"b\": { \"c\": null } }";

	(void)state;
	assert_int_equal(json_path_line(in, strlen(in), "a"), 1);
	assert_int_equal(json_path_line(in, strlen(in), "a[0]"), 2);
	assert_int_equal(json_path_line(in, strlen(in), "a[1]"), 3); /* a string element */
	assert_int_equal(json_path_line(in, strlen(in), "a[2].k"), 4);
	assert_int_equal(json_path_line(in, strlen(in), "a[3]"), 5);
	assert_int_equal(json_path_line(in, strlen(in), "a[3][1]"), 6);
	assert_int_equal(json_path_line(in, strlen(in), "b.c"), 7);
	assert_int_equal(json_path_line(in, strlen(in), "b.d"), 0);
	assert_int_equal(json_path_line_or_parent(in, strlen(in), "b.d"), 7);
}

static void test_workgen_keys_and_notes(void **state)
{
	(void)state;
	/*
	 * Repeated keys run in order, as workgen makes them unique: run 100,
	 * sleep 200 (+50), run 300: row 650 with 400 of run.
	 */
	run_file("dup.json", "{ \"global\": { \"logdir\": \"./\", \"ftrace\": true },\n"
			     " \"tasks\": { \"t\": { \"loop\": 1, \"run\": 100, \"sleep\": 200,"
			     " \"run\": 300 } } }");
	expect_row("t-0", 1, 650, 400, 0, 0);
	assert_non_null(strstr(out, "1 repeated keys renamed as workgen renames them"));
	assert_non_null(strstr(out, "global.logdir"));
	assert_non_null(strstr(out, "global.ftrace"));
}

/*
 * Found by a trial: examples/rt-app/barrier-pair.json has no timer events
 * and reported "0.000000 us timer wu_lat"; a thread waiting on a condition
 * nobody signals got 0 rows and exit 0. No timer: the result is n/a (null
 * in JSON, and compare refuses it); the wait: named, with the condition,
 * exit status 2.
 */
static void test_no_result_and_deadlock(void **state)
{
	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app "
			       "examples/rt-app/barrier-pair.json", tu_wakesim(), IDEAL), 0);
	assert_non_null(strstr(out, "timer wake-ups: none (the file has no timer events"));
	assert_non_null(strstr(out, "result                                  n/a us timer wu_lat"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --json --machine %s -- rt-app "
			       "examples/rt-app/barrier-pair.json | jq -c .result.value", tu_wakesim(),
			       IDEAL), 0);
	assert_string_equal(out, "null\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine %s --test IDLE_DELAY --runs 1 "
			       "-- rt-app examples/rt-app/barrier-pair.json", tu_wakesim(), IDEAL), 2);
	assert_non_null(strstr(out, "the run has no us timer wu_lat to compare"));
	const char *path = write_file("deadlock.json",
		"{ \"global\": { \"duration\": 1 },\n"
		"  \"tasks\": { \"waiter\": { \"loop\": -1, \"lock\": \"m\",\n"
		"    \"wait\": { \"ref\": \"never\", \"mutex\": \"m\" }, \"unlock\": \"m\",\n"
		"    \"run\": 100 },\n"
		"    \"worker\": { \"loop\": -1, \"run\": 1000, \"sleep\": 1000 } } }\n");

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(),
			       IDEAL, path), 2);
	assert_non_null(strstr(out, "thread waiter-0 waited on condition \"never\" from its start to "
				    "global.duration's end without a row done, and nothing signalled "
				    "it in the whole run (a deadlock)"));
	assert_non_null(strstr(out, "tasks.waiter"));
	/*
	 * Found by a trial: two threads taking two mutexes in opposite orders
	 * (a holds m1 and waits for m2, b the reverse) ran to the end, 0 rows
	 * each, exit 0. A cycle of holders is a deadlock too.
	 */
	path = write_file("abba.json",
		"{ \"global\": { \"duration\": 1 },\n"
		"  \"tasks\": {\n"
		"    \"a\": { \"loop\": -1, \"lock\": \"m1\", \"run\": 100, \"lock1\": \"m2\",\n"
		"           \"unlock1\": \"m2\", \"unlock\": \"m1\" },\n"
		"    \"b\": { \"loop\": -1, \"lock\": \"m2\", \"run\": 100, \"lock1\": \"m1\",\n"
		"           \"unlock1\": \"m1\", \"unlock\": \"m2\" } } }\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -- rt-app %s", tu_wakesim(),
			       IDEAL, path), 2);
	assert_non_null(strstr(out, "thread a-0 waited on mutex \"m2\" from its start to "
				    "global.duration's end without a row done, and its holder waits, "
				    "directly or through other holders, for a mutex this thread holds"));
	/* One mutex shared in turn is contention, not a deadlock. */
	run_file("turns.json", "{ \"global\": { \"duration\": 1 }, \"tasks\": {\n"
		 "  \"a\": { \"loop\": -1, \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\" },\n"
		 "  \"b\": { \"loop\": -1, \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\" } } }\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_runtime_sleep),
		cmocka_unit_test(test_timer),
		cmocka_unit_test(test_mutex_and_conditions),
		cmocka_unit_test(test_barrier_suspend_resume),
		cmocka_unit_test(test_phases_loops_duration),
		cmocka_unit_test(test_affinity_and_nice),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_key_walker),
		cmocka_unit_test(test_path_lines),
		cmocka_unit_test(test_workgen_keys_and_notes),
		cmocka_unit_test(test_no_result_and_deadlock),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
