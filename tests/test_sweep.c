/*
 * test_sweep.c - `wakesim sweep` and `wakesim merge`: the plan's job
 * numbering, shards merged into the unsharded report byte for byte (also
 * through the emitted GNU parallel script, run for real with two job
 * slots, and through Slurm when a cluster answers on this machine),
 * malformed plans and shard sets refused with the file and the key.
 */
#include "testutil.h"

#include "cli/sweep_plan.h"

#define PLAN "tests/data/sweep/small.json"

static char dir[] = "/tmp/wakesim-sweep-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char out[256];

	(void)state;
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
	return 0;
}

/*
 * small.json: 2 machines; hb at g=1,2 and context_switch1 at tasks=2 (3
 * levels); 3 policies; 2 runs: 2 x 3 x 3 x 2 = 36 jobs, machine-major.
 * Job 19 = machine 1, then 19 - 18 = 1: workload 0, level 0, policy 0,
 * run 1. Job 35 is the last: machine 1, workload 1 (its only level),
 * policy 2, run 1.
 */
static void test_plan_numbering(void **state)
{
	struct sweep_plan p;
	struct plan_job c;
	char err[512];

	(void)state;
	assert_int_equal(sweep_plan_load(PLAN, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nr_jobs, 36);
	assert_int_equal(p.seed, 3);
	assert_string_equal(p.pol[2].features, "default,policy=scx-default");
	sweep_plan_job(&p, 19, &c);
	assert_int_equal(c.machine, 1);
	assert_int_equal(c.workload, 0);
	assert_int_equal(c.load, 0);
	assert_int_equal(c.policy, 0);
	assert_int_equal(c.run, 1);
	sweep_plan_job(&p, 35, &c);
	assert_int_equal(c.machine, 1);
	assert_int_equal(c.workload, 1);
	assert_int_equal(c.load, 0);
	assert_int_equal(c.policy, 2);
	assert_int_equal(c.run, 1);
	for (long long j = 0; j < p.nr_jobs; j++) {
		sweep_plan_job(&p, j, &c);
		assert_int_equal(sweep_plan_index(&p, &c), j);
	}
	sweep_plan_free(&p);
}

static void test_shards_merge_to_the_same_report(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet -j 1 -o %s/full.txt",
			       tu_wakesim(), dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet -j 2 -o %s/full2.txt && "
			       "cmp %s/full.txt %s/full2.txt", tu_wakesim(), dir, dir, dir), 0);
	for (int i = 1; i <= 4; i++)
		assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet --shard %d/4 -o "
				       "%s/s%d.json", tu_wakesim(), i, dir, i), 0);
	/* In any order of the shard files. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/s3.json %s/s1.json %s/s4.json %s/s2.json "
			       "-o %s/merged.txt && cmp %s/full.txt %s/merged.txt", tu_wakesim(), dir,
			       dir, dir, dir, dir, dir, dir), 0);
	/*
	 * From another directory too: the plan names its machine relative to
	 * itself, and the shards were made from here with a relative plan path
	 * (merge from elsewhere once refused every shard: "machines[0]:
	 * expected the plan's machine").
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "w=$(realpath %s) && cd %s && \"$w\" merge s3.json s1.json "
			       "s4.json s2.json | cmp - full.txt", tu_wakesim(), dir), 0);
	/* 36 jobs in 4 shards: 9 each, job j in shard j mod 4 + 1. */
	assert_int_equal(tu_sh(out, sizeof(out), "jq -c '[.results[].job]' %s/s2.json", dir), 0);
	assert_string_equal(out, "[1,5,9,13,17,21,25,29,33]\n");
	/*
	 * Under the tables, a summary line per policy but the base (its
	 * grouping is checked by hand in test_report.c), in JSON too.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "sed -n '/^summary: significant changes against "
			       "mainline/,$p' %s/full.txt | cut -d: -f1", dir), 0);
	assert_string_equal(out, "summary\n  delay\n  scx\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge --json %s/s1.json %s/s2.json %s/s3.json "
			       "%s/s4.json | jq -c '.summary | keys, (.delay | keys)'", tu_wakesim(), dir,
			       dir, dir, dir), 0);
	assert_string_equal(out, "[\"delay\",\"scx\"]\n[\"losses\",\"never_changed\",\"text\","
			    "\"wins\"]\n");
	/* The win/loss maps: a PNG and an SVG per policy but the base, each whole. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/s1.json %s/s2.json %s/s3.json %s/s4.json "
			       "--plot %s/map > /dev/null && cd %s/map && ls && tail -c 8 "
			       "winloss-scx.png | od -An -tx1 && tail -c 8 winloss-delay.svg", tu_wakesim(),
			       dir, dir, dir, dir, dir, dir), 0);
	assert_string_equal(out, "plot.gp\nwinloss-delay.dat\nwinloss-delay.png\nwinloss-delay.svg\n"
			    "winloss-scx.dat\nwinloss-scx.png\nwinloss-scx.svg\n"
			    " 49 45 4e 44 ae 42 60 82\n</svg>\n\n");
	/* The report has a table per machine and workload, and the sides' changes. */
	assert_int_equal(tu_sh(out, sizeof(out), "grep -c '^== machine' %s/full.txt", dir), 0);
	assert_string_equal(out, "4\n");
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge --json %s/s1.json %s/s2.json %s/s3.json "
			       "%s/s4.json | jq '.tables | length'", tu_wakesim(), dir, dir, dir, dir), 0);
	assert_string_equal(out, "4\n");
	/*
	 * A machine read with assumptions (no cache/, no cpuidle/) keeps them
	 * in the report, unsharded and merged alike.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '{\"machines\": [\"sysfs:%%s/tests/data/"
			       "bare-2cpu-sysfs\"], \"workloads\": [{\"command\": [\"hackbench\", \"-l\", "
			       "\"5\"]}], \"policies\": [{\"name\": \"a\"}, {\"name\": \"b\", \"features\": "
			       "\"IDLE_DELAY\"}], \"runs\": 1}' \"$PWD\" > %s/bare.json && %s sweep %s/bare.json "
			       "--quiet -o %s/bare.txt && %s sweep %s/bare.json --quiet --shard 1/1 -o "
			       "%s/b1.json && %s merge %s/b1.json | cmp - %s/bare.txt && grep '^assumed' "
			       "%s/bare.txt", dir, tu_wakesim(), dir, dir, tu_wakesim(), dir, dir,
			       tu_wakesim(), dir, dir, dir), 0);
	/* A policy's own kernel: "kernel per side" and the side's item. */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '{\"machines\": [\"kunpeng920-48\"], "
			       "\"workloads\": [{\"command\": [\"hackbench\", \"-l\", \"5\"]}], "
			       "\"policies\": [{\"name\": \"old\", \"kernel\": \"v6.6\"}, {\"name\": "
			       "\"new\"}], \"runs\": 1}' > %s/kern.json && %s sweep %s/kern.json --quiet "
			       "| sed -n 2,8p", dir, tu_wakesim(), dir), 0);
	assert_non_null(strstr(out, "kernel per side,"));
	assert_non_null(strstr(out, "\nold: default,kernel=v6.6\n"));
	assert_non_null(strstr(out, "\nnew: default\n"));
	assert_int_equal(tu_sh(out, sizeof(out), "grep '^assumed' %s/bare.txt", dir), 0);
	assert_non_null(strstr(out, "/tests/data/"
				    "bare-2cpu-sysfs/devices/system/cpu/cpu*/cache for 2 of 2 CPUs)\n"
				    "assumed: one idle state \"halt\""));
}

/*
 * out (a merge's message) names file in dir at the line of the first line
 * of that file holding key, then says what.
 */
static void expect_at_line(const char *out, const char *file, const char *key, const char *what)
{
	char line[64], want[600];

	assert_int_equal(tu_sh(line, sizeof(line), "grep -n -m1 -F '%s' %s/%s | cut -d: -f1", key,
			       dir, file), 0);
	line[strcspn(line, "\n")] = '\0';
	snprintf(want, sizeof(want), "%s:%s: %s", file, line, what);
	if (!strstr(out, want)) {
		print_error("wanted \"%s\" in:\n%s\n", want, out);
		fail();
	}
}

static void test_merge_refuses(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet --shard 1/2 -o %s/a1.json "
			       "&& %s sweep " PLAN " --quiet --shard 2/2 -o %s/a2.json", tu_wakesim(), dir,
			       tu_wakesim(), dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/a1.json", tu_wakesim(), dir), 2);
	/* The plan's "../two-llc.json", made absolute. */
	assert_non_null(strstr(out, "/tests/data/two-llc.json, workload hb, policy "
				    "mainline, seed 4) has no result: shard 2 of 2 is missing"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/a1.json %s/a1.json", tu_wakesim(), dir,
			       dir), 2);
	assert_non_null(strstr(out, "job 0 is in two shards"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/a1.json %s/s2.json", tu_wakesim(), dir,
			       dir), 2);
	assert_non_null(strstr(out, "s2.json: a shard of 4, "));
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge " PLAN, tu_wakesim()), 2);
	assert_non_null(strstr(out, "small.json: not a wakesim sweep shard"));
	/* A shard of another plan: the same grid with another seed. */
	assert_int_equal(tu_sh(out, sizeof(out), "sed 's/\"seed\": 3/\"seed\": 4/; "
			       "s|\\.\\./two-llc|'\"$PWD\"'/tests/data/two-llc|' " PLAN " > "
			       "%s/other.json && %s sweep %s/other.json --quiet --shard 2/2 -o %s/b2.json",
			       dir, tu_wakesim(), dir, dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/a1.json %s/b2.json", tu_wakesim(), dir,
			       dir), 2);
	assert_non_null(strstr(out, "b2.json: a shard of another plan"));
	/* Found by a new-user trial: hand-edited shards were rendered. */
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.results[0].value = \"0.5\"' %s/a1.json > "
			       "%s/e1.json && %s merge %s/e1.json %s/a2.json", dir, dir, tu_wakesim(), dir,
			       dir), 2);
	/* Each message at the line of the field jq's output has it on (the first "value"). */
	expect_at_line(out, "e1.json", "\"value\"", "field \"results[0].value\": expected a number");
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.results[0].job = 1' %s/a1.json > %s/e2.json && "
			       "%s merge %s/e2.json %s/a2.json", dir, dir, tu_wakesim(), dir, dir), 2);
	expect_at_line(out, "e2.json", "\"job\"",
		       "field \"results[0].job\": job 1 is not one of shard 1/2's");
	/* The second result's fourth metric; jq prints an array's elements a line each. */
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.results[1].metrics[3] = \"x\"' %s/a1.json > "
			       "%s/e4.json && %s merge %s/e4.json %s/a2.json", dir, dir, tu_wakesim(), dir,
			       dir), 2);
	expect_at_line(out, "e4.json", "\"x\"", "field \"results[1].metrics[3]\": expected a number "
		       "or null");
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.results[0].extra = 1' %s/a1.json > %s/e5.json "
			       "&& %s merge %s/e5.json %s/a2.json", dir, dir, tu_wakesim(), dir, dir), 2);
	expect_at_line(out, "e5.json", "\"extra\"", "field \"results[0].extra\": unknown field "
		       "(known here: job value unit");
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.results[0].placements = [1]' %s/a1.json > "
			       "%s/e6.json && %s merge %s/e6.json %s/a2.json", dir, dir, tu_wakesim(), dir,
			       dir), 2);
	assert_non_null(strstr(out, "field \"results[0].placements\": 1 element, where the plan "
				    "implies"));
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.plan |= sub(\"\\\"runs\\\": 2\"; "
			       "\"\\\"runs\\\": 3\")' %s/a1.json > %s/e3.json && %s merge %s/e3.json "
			       "%s/a2.json", dir, dir, tu_wakesim(), dir, dir), 2);
	expect_at_line(out, "e3.json", "\"plan_hash\"",
		       "field \"plan_hash\": the plan text does not hash to it (edited?)");
}

static void expect_plan_error(const char *json, const char *needle)
{
	char out[4096], path[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	int st = tu_sh(out, sizeof(out), "%s sweep %s --quiet", tu_wakesim(), path);

	if (st != 2 || !strstr(out, needle) || !strstr(out, path) ||
	    strncmp(out, "wakesim sweep: ", 15)) {
		print_error("status %d, wanted \"wakesim sweep: \", the path and \"%s\":\n%s\n", st,
			    needle, out);
		fail();
	}
}

static void test_malformed_plans(void **state)
{
	(void)state;
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}],\n"
			  " \"policies\": [{\"name\": \"a\"}], \"seeds\": 3}",
			  ":2: field \"seeds\": unknown field (known here: name machines kernel workloads "
			  "policies runs seed robust)");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": "
			  "[\"hackbench\"]}],\n \"policies\": [{\"name\": \"a\",\n \"kernel\": \"v7\"}]}",
			  ":3: field \"policies[0].kernel\": expected v5.12, v6.4, v6.6 or mainline");
	expect_plan_error("{\"machines\": [], \"workloads\": [], \"policies\": []}",
			  ":1: field \"machines\": expected a non-empty array");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"],\n \"workloads\": [\n  {\"name\": \"x\"}],\n"
			  " \"policies\": [{\"name\": \"a\"}]}",
			  ":3: field \"workloads[0].command\": missing");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"], "
			  "\"loads\": {\"-g\": [1]}}], \"policies\": [{\"name\": \"a\"}]}",
			  "field \"workloads[0].loads.-g\": expected a load name");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}],\n"
			  " \"policies\": [{\"name\": \"a\"},\n {\"name\": \"a\"}]}",
			  ":3: field \"policies[1].name\": the same name as an earlier policy");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}], "
			  "\"policies\": [{\"name\": \"a\"}], \"runs\": 0}",
			  "field \"runs\": expected an integer 1..1000");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}], "
			  "\"policies\": [{\"name\": \"a\"}],}", ":1:");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\", "
			  "\"--bogus\"]}], \"policies\": [{\"name\": \"a\"}]}",
			  ":1: field \"workloads[0]\": hackbench: unknown option \"--bogus\"");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}], "
			  "\"policies\": [{\"name\": \"a\", \"features\": \"NO_SUCH\"}]}",
			  ":1: field \"policies[0]\": unknown feature \"NO_SUCH\"");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}], "
			  "\"policies\": [{\"name\": \"a\", \"policy\": \"nope\"}]}",
			  "\"nope\": not a built-in policy");
	/* A bad-input trial: this said "wakesim: ...: --policy /nonexistent/x.so". */
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}],\n"
			  " \"policies\": [{\"name\": \"a\", \"policy\": \"/nonexistent/x.so\"}]}",
			  ":2: field \"policies[0]\": policy=/nonexistent/x.so: cannot load it");
	/* Found by a new-user trial: duplicates, a saturated seed, errors without a line. */
	expect_plan_error("{\"machines\": [\"kunpeng920-48\",\n \"kunpeng920-48\"], \"workloads\": [{\"command\": "
			  "[\"hackbench\"]}], \"policies\": [{\"name\": \"a\"}]}",
			  ":2: field \"machines[1]\": the same machine as an earlier one");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]},\n"
			  " {\"command\": [\"hackbench\", \"-p\"]}], \"policies\": [{\"name\": \"a\"}]}",
			  ":2: field \"workloads[1]\": the same name as an earlier workload");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"], "
			  "\"loads\": {\"g\": [1, 1]}}], \"policies\": [{\"name\": \"a\"}]}",
			  "field \"workloads[0].loads.g[1]\": the same load value as an earlier one");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"]}], "
			  "\"policies\": [{\"name\": \"a\"}], \"seed\": 99999999999999999999999}",
			  "field \"seed\": expected an integer 0..2^63-1-runs");
	expect_plan_error("{\"machines\": [\n \"no-such-machine\"], \"workloads\": [{\"command\": "
			  "[\"hackbench\"]}], \"policies\": [{\"name\": \"a\"}]}",
			  ":2: field \"machines[0]\": unknown machine");
	/*
	 * Found by a second bad-input trial: an empty workload name said "out
	 * of memory"; a load of 1e30 asked for a string; 2^64 went on as
	 * 2^63 - 1; a bad plan kernel had no line.
	 */
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"],\n"
			  " \"name\": \"\"}], \"policies\": [{\"name\": \"a\"}]}",
			  ":2: field \"workloads[0].name\": expected a non-empty string");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"], "
			  "\"loads\": {\"g\": [1e30]}}], \"policies\": [{\"name\": \"a\"}]}",
			  "field \"workloads[0].loads.g[0]\": expected an integer or a non-empty string");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"], \"workloads\": [{\"command\": [\"hackbench\"], "
			  "\"loads\": {\"g\": [18446744073709551616]}}], \"policies\": [{\"name\": \"a\"}]}",
			  "field \"workloads[0].loads.g[0]\": an integer of 2^63 - 1 or more");
	expect_plan_error("{\"machines\": [\"kunpeng920-48\"],\n \"kernel\": \"v4.0\",\n \"workloads\": "
			  "[{\"command\": [\"hackbench\"]}], \"policies\": [{\"name\": \"a\"}]}",
			  ":2: field \"kernel\": \"v4.0\": expected v5.12, v6.4, v6.6 or mainline");
}

/* The emitted GNU parallel script, run for real: 3 shards on 2 job slots. */
static void test_emit_parallel(void **state)
{
	char out[8192];

	(void)state;
	if (tu_sh(out, sizeof(out), "command -v parallel")) {
		print_message("GNU parallel is not installed (tools/install-deps.sh installs it)\n");
		fail();
	}
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet -o %s/full.txt && %s sweep "
			       PLAN " --emit parallel --shards 3 -j 2 --out-dir %s/par -o %s/par.sh",
			       tu_wakesim(), dir, tu_wakesim(), dir, dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "grep -c 'parallel --halt now,fail=1 -j 2 ' %s/par.sh",
			       dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "sh %s/par.sh > %s/par.out && cmp %s/full.txt "
			       "%s/par/report.txt && ls %s/par | tr '\\n' ' '", dir, dir, dir, dir, dir), 0);
	assert_string_equal(out, "report.txt shard-1.json shard-2.json shard-3.json ");
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --emit parallel --shards 2 "
			       "--sshlogin 2/:,2/otherhost -o %s/ssh.sh && grep -c -- '--sshlogin "
			       "2/:,2/otherhost' %s/ssh.sh", tu_wakesim(), dir, dir), 0);
}

/*
 * Found by a trial: a plan naming its machine file and policy object
 * relative to itself failed when run from elsewhere, and a sharded run
 * printed the policy's absolute path where the unsharded one printed it
 * relative. Paths in a plan are the plan's, made absolute: run from the
 * plan's parent, and by the emitted GNU parallel script from /, the
 * reports are byte for byte the same.
 */
static void test_plan_relative_paths(void **state)
{
	char out[8192], abs[4096];
	const char *w = tu_wakesim();

	(void)state;
	if (w[0] != '/') {
		assert_non_null(realpath(w, abs));
		w = abs;
	}
	assert_int_equal(tu_sh(out, sizeof(out), "mkdir -p %s/rel/plans && cp tests/data/ideal-2cpu.json "
			       "%s/rel/plans/me2.json && cp build/policies/prev_first.so %s/rel/plans/my.so "
			       "&& printf '{\"machines\": [\"kunpeng920-48\", \"me2.json\"], \"workloads\": "
			       "[{\"command\": [\"hackbench\", \"-l\", \"5\"]}], \"policies\": [{\"name\": "
			       "\"a\"}, {\"name\": \"b\", \"policy\": \"./my.so\"}], \"runs\": 1}' > "
			       "%s/rel/plans/p.json", dir, dir, dir, dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "cd %s/rel && %s sweep plans/p.json --quiet -o full.txt "
			       "&& cd / && %s sweep %s/rel/plans/p.json --emit parallel --shards 2 -j 2 "
			       "--out-dir %s/rel/par -o %s/rel/par.sh && sh %s/rel/par.sh > /dev/null && "
			       "cmp %s/rel/full.txt %s/rel/par/report.txt && grep -c '^b: default,policy=/' "
			       "%s/rel/full.txt", dir, w, w, dir, dir, dir, dir, dir, dir, dir), 0);
	assert_string_equal(out, "2\n");
}

/*
 * The emitted Slurm job array, submitted to this machine's cluster when
 * one answers (sinfo): its merged shards give the unsharded report.
 */
static void test_emit_slurm(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --emit slurm --shards 3 --out-dir "
			       "%s/slu -o %s/slurm.sh && grep -c '^#SBATCH --array=1-3$' %s/slurm.sh",
			       tu_wakesim(), dir, dir, dir), 0);
	if (tu_sh(out, sizeof(out), "timeout 5 sinfo -h -o %%T | grep -q idle")) {
		print_message("no idle Slurm node answers here: the script was written, not submitted\n");
		skip();
	}
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --quiet -o %s/full.txt && "
			       "jid=$(sbatch --parsable %s/slurm.sh) && for i in $(seq 1 120); do "
			       "sleep 1; [ -z \"$(squeue -h -j $jid)\" ] && break; done && %s merge "
			       "%s/slu/shard-*.json -o %s/slu/report.txt && cmp %s/full.txt "
			       "%s/slu/report.txt", tu_wakesim(), dir, dir, tu_wakesim(), dir, dir, dir,
			       dir), 0);
}

static void test_cli_errors(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --shard 5/4", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--shard \"5/4\": expected I/N with 1 <= I <= N"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --emit slurm", tu_wakesim()), 2);
	assert_non_null(strstr(out, "--emit needs --shards N"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --emit pbs --shards 2",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "--emit \"pbs\": expected parallel or slurm"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep /nonexistent.json", tu_wakesim()), 2);
	assert_non_null(strstr(out, "/nonexistent.json"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge", tu_wakesim()), 2);
	assert_non_null(strstr(out, "SHARD.json missing"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep " PLAN " --shard 1/2 --plot %s/m",
			       tu_wakesim(), dir), 2);
	assert_non_null(strstr(out, "--plot draws the whole report: not with --shard or --emit"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s merge %s/s1.json --plot /nonexistent/m",
			       tu_wakesim(), dir), 2);
	assert_non_null(strstr(out, "--plot /nonexistent/m: its parent directory /nonexistent does "
				    "not exist"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_numbering),
		cmocka_unit_test(test_shards_merge_to_the_same_report),
		cmocka_unit_test(test_merge_refuses),
		cmocka_unit_test(test_malformed_plans),
		cmocka_unit_test(test_emit_parallel),
		cmocka_unit_test(test_plan_relative_paths),
		cmocka_unit_test(test_emit_slurm),
		cmocka_unit_test(test_cli_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
