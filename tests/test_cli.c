/*
 * test_cli.c - the wakesim command as users meet it: determinism of
 * results (same seed, identical JSON; other seed, other jitter), exit
 * status 2 with a clear message for bad input, no partial output files,
 * compare's JSON shape and its independence from -j.
 */
#include "testutil.h"

#define HOST "sysfs:tests/data/host-2cpu-sysfs"

static char out[1 << 16];

static void test_determinism(void **state)
{
	(void)state;
	char a[1 << 14], b[1 << 14];
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(a, sizeof(a), "%s run --machine %s --json -- hackbench -g 2 -l 50", w, HOST), 0);
	assert_int_equal(tu_sh(b, sizeof(b), "%s run --machine %s --json -- hackbench -g 2 -l 50", w, HOST), 0);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"result\""));
	assert_non_null(strstr(a, "\"unit\":\"s\""));
	assert_non_null(strstr(a, "\"metrics\""));
	assert_int_equal(tu_sh(b, sizeof(b), "%s run --machine %s --seed 2 --json -- hackbench -g 2 -l 50", w, HOST), 0);
	assert_string_not_equal(a, b);
	/* Only the jitter changes: same machine, same counts of forks. */
	assert_non_null(strstr(b, "\"forks\":81"));
	assert_non_null(strstr(a, "\"forks\":81"));
}

static void expect_usage_error(const char *args, const char *needle)
{
	int st = tu_sh(out, sizeof(out), "%s %s", tu_wakesim(), args);

	if (st != 2 || !strstr(out, needle)) {
		print_error("wakesim %s: status %d, output:\n%s\n(expected status 2 and \"%s\")\n",
			    args, st, out, needle);
		fail();
	}
}

static void test_bad_input(void **state)
{
	(void)state;
	char dir[] = "/tmp/wakesim-cli-XXXXXX";

	assert_non_null(mkdtemp(dir));
	expect_usage_error("run --machine no-such -- hackbench", "unknown machine \"no-such\"");
	expect_usage_error("topo --machine hwloc:README.md", "README.md: not an hwloc XML topology");
	expect_usage_error("topo --machine hwloc:", "hwloc: needs a file");
	expect_usage_error("topo --machine hwloc:/nonexistent.xml", "/nonexistent.xml");
	expect_usage_error("topo --machine /nonexistent.xml", "/nonexistent.xml: No such file");
	/* A bare FILE.xml is read as hwloc's XML, and refused as such. */
	tu_sh(out, sizeof(out), "cp README.md /tmp/wakesim-readme.xml");
	expect_usage_error("topo --machine /tmp/wakesim-readme.xml",
			   "/tmp/wakesim-readme.xml: not an hwloc XML topology");
	tu_sh(out, sizeof(out), "head -c 3000 tests/data/hwloc/AMD-19h-Zen4-2xEpyc-9654.xml > "
	      "/tmp/wakesim-cut.xml");
	expect_usage_error("topo --machine hwloc:/tmp/wakesim-cut.xml",
			   "/tmp/wakesim-cut.xml: not an hwloc XML topology");
	/* Found by make fuzz: libhwloc crashes on it, then refuses half-way. */
	expect_usage_error("topo --machine hwloc:tests/data/hwloc/fuzz-crash.xml",
			   "fuzz-crash.xml: not an hwloc XML topology: libhwloc failed on it (it crashed)");
	expect_usage_error("topo --machine hwloc:tests/data/hwloc/fuzz-malformed.xml",
			   "fuzz-malformed.xml: not an hwloc XML topology");
	/*
	 * Found by a bad-input trial: this machine's lstopo XML with its second
	 * PU moved to os_index 5 (cpuset 0x20), outside its core's cpuset:
	 * libhwloc drops it, and wakesim used to read a 1-CPU machine.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "sed '46s/os_index=\"1\" cpuset=\"0x00000002\" "
			       "complete_cpuset=\"0x00000002\"/os_index=\"5\" cpuset=\"0x00000020\" "
			       "complete_cpuset=\"0x00000020\"/' tests/data/hwloc/host-2cpu.xml > "
			       "/tmp/wakesim-pu.xml"), 0);
	expect_usage_error("topo --machine hwloc:/tmp/wakesim-pu.xml",
			   "/tmp/wakesim-pu.xml: 2 PU objects in the file, 1 that libhwloc keeps");
	/* lscpu files: each fault named by file, line and field. */
	const char *lscpu_bad[][2] = {
		{ "0,0,0,0,,0,0,0,0\n", "l.txt:1: a row before the header line" },
		{ "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,0,0,0,,0,0,0\n", "l.txt:2: 8 fields, the header names 9" },
		{ "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,x,0,0,,0,0,0,0\n", "l.txt:2: field Core: expected a number" },
		{ "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,0,0,0,,0,0,0,0\n0,1,0,0,,1,1,1,0\n", "l.txt:3: field CPU: CPU 0 listed twice" },
		{ "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n1,0,0,0,,0,0,0,0\n", "CPU 0 is missing" },
		{ "# CPU,Node\n0,0\n", "l.txt:1: header: expected columns CPU, Core and Socket" },
		{ "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n0,0,0,99,,0,0,0,0\n", "l.txt:2: field Node: 99" },
		{ "# just a comment\n", "no CPU rows" },
		/* Found by a bad-input trial: accepted, with domains crossing packages. */
		{ "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0,1\n2,2,1,0\n3,3,1,1\n",
		  "packages and NUMA nodes do not nest: CPUs 0 and 1 share a package but not a node" },
		/* ...and with the line of the first CPU it names (CPU 0, on line 4). */
		{ "# CPU,Core,Socket,Node\n2,2,1,0\n3,3,1,1\n0,0,0,0\n1,1,0,1\n",
		  "l.txt:4: packages and NUMA nodes do not nest: CPUs 0 and 1" },
		/*
		 * The first pairs, by hand: package 0 is CPUs 0 and 2, both on
		 * node 0 (CPU 0 has no partner); package 1 is CPUs 1 and 3, on
		 * nodes 0 and 1; node 0 holds CPU 0 (package 0) and CPU 1 (1).
		 */
		{ "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,1,0\n2,2,0,0\n3,3,1,1\n",
		  "packages and NUMA nodes do not nest: CPUs 1 and 3 share a package but not a "
		  "node, CPUs 0 and 1 a node but not a package" },
	};

	for (size_t i = 0; i < sizeof(lscpu_bad) / sizeof(lscpu_bad[0]); i++) {
		FILE *f = fopen("/tmp/l.txt", "w");

		assert_non_null(f);
		fputs(lscpu_bad[i][0], f);
		fclose(f);
		expect_usage_error("topo --machine lscpu:/tmp/l.txt", lscpu_bad[i][1]);
	}
	expect_usage_error("topo --machine lscpu:", "lscpu: needs a file");
	/* Found by a bad-input trial: accepted now (CRLF, BOM), or named better. */
	assert_int_equal(tu_sh(out, sizeof(out), "printf '\\357\\273\\277# CPU,Core,Socket,Node,,L1d,L1i,"
			       "L2,L3\\r\\n0,0,0,0,,0,0,0,0\\r\\n1,1,0,0,,1,1,1,0\\r\\n' > /tmp/l.txt && "
			       "%s topo --machine lscpu:/tmp/l.txt | head -1", tu_wakesim()), 0);
	assert_non_null(strstr(out, "2 CPUs, 2 cores, 1 LLCs"));
	{
		FILE *f = fopen("/tmp/l.txt", "w");

		assert_non_null(f);
		fputs("# CPU,Core,Socket,Node\n0,99999999999,0,0\n", f);
		fclose(f);
		expect_usage_error("topo --machine lscpu:/tmp/l.txt", "l.txt:2: field Core: out of range");
		f = fopen("/tmp/l.txt", "w");
		assert_non_null(f);
		fputs("ab", f);
		fputc(0, f);
		fclose(f);
		expect_usage_error("topo --machine lscpu:/tmp/l.txt", "not a text file (lscpu file expected)");
	}
	expect_usage_error("run --machine sysfs:/nonexistent -- hackbench", "no devices/system/cpu");
	expect_usage_error("run --machine " HOST " --features NO_SUCH -- hackbench",
			   "unknown feature \"NO_SUCH\"");
	expect_usage_error("run --machine " HOST " -- hackbench -g x", "\"x\" is not an integer");
	expect_usage_error("run --machine " HOST " -- hackbench --bogus", "unknown option \"--bogus\"");
	expect_usage_error("run --machine " HOST " --sysctl nope=1 -- hackbench", "unknown tunable");
	/* A knob of the other pick algorithm would be silently ignored: refused. */
	expect_usage_error("run --machine " HOST " --sysctl min_granularity_ns=1000000 -- hackbench",
			   "kernel mainline (EEVDF) has no such tunable");
	expect_usage_error("run --machine " HOST " --kernel v6.4 --sysctl base_slice_ns=100000 -- hackbench",
			   "kernel v6.4 (CFS) has no such tunable");
	expect_usage_error("run --machine " HOST " --cpus 0-9 -- hackbench", "has CPUs 0-1");
	expect_usage_error("run --machine " HOST " --node 3 -- hackbench", "has nodes 0-0");
	expect_usage_error("run --machine " HOST, "no workload");
	expect_usage_error("run --machine " HOST " -- frobench 8", "unknown workload \"frobench\"");
	expect_usage_error("compare --machine " HOST " -- hackbench", "--test FEATURES (or --side");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --loads g -- hackbench",
			   "expected NAME=V1,V2");
	expect_usage_error("frobnicate", "unknown command \"frobnicate\"");
	/* Found by a bad-input trial: each of these used to be accepted or misnamed. */
	expect_usage_error("run --machine kunpeng920 --cpus 127,1023 -- hackbench",
			   "has CPUs 0-127");
	expect_usage_error("run -z5 -- hackbench", "unknown option \"-z\"");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --loads g=1,,2 -- hackbench",
			   "empty value");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --loads g=1 --loads l=2 -- hackbench",
			   "--loads given twice");
	expect_usage_error("run --machine " HOST " --sysctl hz=999 -- hackbench", "not a CONFIG_HZ value");
	expect_usage_error("compare --machine " HOST " --test BOGUS -- hackbench", "--test: unknown feature");
	expect_usage_error("machines extra", "unexpected argument \"extra\"");
	expect_usage_error("sysctls --machine", "missing value after \"--machine\"");
	expect_usage_error("run --machine " HOST " -o /nonexistent/dir/r.json -- hackbench -l 5",
			   "directory /nonexistent/dir does not exist");
	/* Found by a user trial: accepted, or named wrongly, before. */
	expect_usage_error("run --machine " HOST " --features '' -- hackbench", "empty feature list");
	expect_usage_error("run --machine " HOST " --features NO_IDLE_DELAY,IDLE_DELAY -- hackbench",
			   "given both on and off");
	expect_usage_error("compare --machine " HOST " --test default -- hackbench", "nothing to compare");
	/* Several sides (issue 7). */
	expect_usage_error("compare --machine " HOST " --side a=default -- hackbench",
			   "one --side: give two or more");
	expect_usage_error("compare --machine " HOST " --side a=default --side b=IDLE_DELAY "
			   "--test SIS_SHORT -- hackbench", "does not mix with --base/--test");
	expect_usage_error("compare --machine " HOST " --side a=default --side a=IDLE_DELAY -- hackbench",
			   "--side \"a\" given twice");
	expect_usage_error("compare --machine " HOST " --side 'a b=default' --side c=IDLE_DELAY -- hackbench",
			   "a name is letters, digits");
	expect_usage_error("compare --machine " HOST " --side a= --side b=IDLE_DELAY -- hackbench",
			   "expected NAME=FEATURES");
	expect_usage_error("compare --machine " HOST " --side a=default --side b=BOGUS -- hackbench",
			   "--side b: unknown feature");
	expect_usage_error("compare --machine " HOST " --side a=default --side b=IDLE_DELAY "
			   "--side c=IDLE_DELAY -- hackbench", "--side b and --side c both give");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --sig-level 100 -- hackbench",
			   "--sig-level \"100\"");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --json --csv -- hackbench",
			   "choose one output format");
	expect_usage_error("run --machine " HOST " --cpus '' -- hackbench", "no CPU given");
	expect_usage_error("run --machine " HOST " -- schbench -r 3700", "1..3000");

	/* A failing command leaves no output file, not even a temporary one. */
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "run --machine no-such -o %s/r.json --json -- hackbench", dir);
	expect_usage_error(cmd, "unknown machine");
	snprintf(cmd, sizeof(cmd), "run --machine %s -o %s/r.json -- hackbench -g 1 -l 5 --nope",
		 HOST, dir);
	expect_usage_error(cmd, "unknown option");
	assert_int_equal(tu_sh(out, sizeof(out), "ls -A %s | wc -l", dir), 0);
	assert_string_equal(out, "0\n");
	/* A successful one writes the whole file. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s -o %s/r.json --json -- hackbench -g 1 -l 5",
			       tu_wakesim(), HOST, dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "tail -c 2 %s/r.json; ls -A %s", dir, dir), 0);
	assert_string_equal(out, "}\nr.json\n");
	/* Through a symlink the target is replaced, the link kept. */
	assert_int_equal(tu_sh(out, sizeof(out), "ln -s r.json %s/link && %s run --machine %s -o %s/link --json -- hackbench -g 1 -l 6 && test -L %s/link && grep -c 'hackbench -g 1 -l 6' %s/r.json",
			       dir, tu_wakesim(), HOST, dir, dir, dir), 0);
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/* The sysctl (sched_*), debugfs and table spellings name the same knob. */
/* Found by a trial: stdout on a full device exited 1 without a word. */
static void test_stdout_full(void **state)
{
	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "{ %s run --machine " TU_HOST " -- hackbench -l 5 "
			       "> /dev/full; }", tu_wakesim()), 1);
	assert_non_null(strstr(out, "wakesim: writing the output to stdout: No space left on device"));
}

static void test_sysctl_spellings(void **state)
{
	(void)state;
	char buf[1 << 14];
	const char *w = tu_wakesim();
	const char *names[] = { "sched_latency_ns", "latency_ns",
				"/sys/kernel/debug/sched/latency_ns" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s --kernel v6.4 --sysctl "
				       "%s=9000000 -- hackbench -g 1 -l 5", w, HOST, names[i]), 0);
		assert_non_null(strstr(buf, "sysctls sched_latency_ns=9000000"));
	}
	assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s --sysctl "
			       "sched_migration_cost_ns=1000 -- hackbench -g 1 -l 5", w, HOST), 0);
	assert_non_null(strstr(buf, "migration_cost_ns=1000"));
}

/*
 * --cgroup PATH: one task group per component below the root; "/" is the
 * root group itself. A session scope is three levels deep.
 */
static void test_cgroup_paths(void **state)
{
	(void)state;
	char buf[1 << 14];
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s --cgroup "
			       "/user.slice/user-0.slice/session-1.scope -- hackbench -g 1 -l 5", w,
			       HOST), 0);
	assert_non_null(strstr(buf, "sysctls cgroup_depth=3"));
	assert_non_null(strstr(buf, "tg_load_avg_writes"));
	assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s --cgroup / -- hackbench -g 1 "
			       "-l 5", w, HOST), 0);
	assert_non_null(strstr(buf, "sysctls default"));
	assert_null(strstr(buf, "tg_load_avg_writes"));
	expect_usage_error("run --cgroup lkp -- hackbench", "--cgroup \"lkp\": expected a cgroup path");
	expect_usage_error("compare --cgroup /a//b -- hackbench", "--cgroup \"/a//b\": expected");
	expect_usage_error("run --cgroup /1/2/3/4/5/6/7/8/9 -- hackbench", "at most 8 levels deep");
	expect_usage_error("run --sysctl cgroup_depth=9 -- hackbench",
			   "cgroup_depth: \"9\" is not an integer in 0..8");
}

/*
 * --cpu-dma-latency US: a PM QoS limit. The fixture's states are POLL
 * (exit 0) and "haltpoll idle" (exit 1 us); a limit of 0 leaves POLL
 * alone (menu_select() returns state 0 when latency_req is 0), so no
 * idle period ends in the halt state, while without it hackbench's idle
 * periods do.
 */
static void test_cpu_dma_latency(void **state)
{
	(void)state;
	char buf[1 << 14];
	const char *w = tu_wakesim();
	unsigned long poll = 0, halt = 0;
	const char *at;

	assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s --cpu-dma-latency 0 -- "
			       "hackbench -g 1 -l 5", w, HOST), 0);
	assert_non_null(strstr(buf, "sysctls cpu_latency_qos_ns=0"));
	assert_non_null(at = strstr(buf, "idle_exits_POLL"));
	assert_int_equal(sscanf(at, "idle_exits_POLL %lu", &poll), 1);
	assert_non_null(at = strstr(buf, "idle_exits_haltpoll_idle"));
	assert_int_equal(sscanf(at, "idle_exits_haltpoll_idle %lu", &halt), 1);
	assert_true(poll > 0);
	assert_int_equal(halt, 0);
	assert_int_equal(tu_sh(buf, sizeof(buf), "%s run --machine %s -- hackbench -g 1 -l 5", w,
			       HOST), 0);
	assert_non_null(at = strstr(buf, "idle_exits_haltpoll_idle"));
	assert_int_equal(sscanf(at, "idle_exits_haltpoll_idle %lu", &halt), 1);
	assert_true(halt > 0);
	expect_usage_error("run --cpu-dma-latency 2us -- hackbench",
			   "--cpu-dma-latency: \"2us\" is not an integer in 0..2000000000");
	expect_usage_error("compare --cpu-dma-latency -1 -- hackbench",
			   "--cpu-dma-latency: \"-1\" is not an integer");
}

static void test_compare_json_and_jobs(void **state)
{
	(void)state;
	char a[1 << 15], b[1 << 15];
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(a, sizeof(a), "%s compare --machine %s --test IDLE_DELAY --runs 3 "
				   "--loads g=1,2 -j 1 --json -- hackbench -l 20", w, HOST), 0);
	assert_int_equal(tu_sh(b, sizeof(b), "%s compare --machine %s --test IDLE_DELAY --runs 3 "
				   "--loads g=1,2 -j 2 --json -- hackbench -l 20", w, HOST), 0);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"rows\""));
	assert_non_null(strstr(a, "\"load\":\"g=1\""));
	assert_non_null(strstr(a, "\"load\":\"g=2\""));
	assert_non_null(strstr(a, "\"change_pct\""));
	assert_non_null(strstr(a, "\"significant\""));
	assert_non_null(strstr(a, "\"values\""));
	/* The text table names both sides and marks changes mmtests' way. */
	assert_int_equal(tu_sh(a, sizeof(a), "%s compare --machine %s --test IDLE_DELAY --runs 2 "
				   "-- hackbench -l 20", w, HOST), 0);
	assert_non_null(strstr(a, "test: IDLE_DELAY"));
	assert_true(strstr(a, "%)") || strstr(a, "%*"));
	/* The text table too is the same whatever the number of workers. */
	assert_int_equal(tu_sh(b, sizeof(b), "%s compare --machine %s --test IDLE_DELAY --runs 2 "
				   "-j 1 -- hackbench -l 20", w, HOST), 0);
	assert_string_equal(a, b);
	assert_int_equal(tu_sh(b, sizeof(b), "%s compare --machine %s --test IDLE_DELAY --runs 2 "
				   "-j 3 -- hackbench -l 20", w, HOST), 0);
	assert_string_equal(a, b);
	/*
	 * Three sides: a column each, every one compared with the first;
	 * the CSV has a row per (load, side) and the same means.
	 */
	assert_int_equal(tu_sh(a, sizeof(a), "%s compare --machine %s --side mainline=default "
				   "--side delay=IDLE_DELAY --side noutil=NO_SIS_UTIL --runs 2 --loads g=1,2 "
				   "-- hackbench -l 20", w, HOST), 0);
	assert_non_null(strstr(a, "mainline: default\ndelay: IDLE_DELAY\nnoutil: NO_SIS_UTIL\n"));
	assert_non_null(strstr(a, "mainline                    delay                   noutil\n"));
	assert_non_null(strstr(a, "\nAmean     g=1  "));
	assert_non_null(strstr(a, "\nCoeffVar  g=2  "));
	assert_non_null(strstr(a, "ranked by the largest change against mainline"));
	assert_int_equal(tu_sh(b, sizeof(b), "%s compare --machine %s --side mainline=default "
				   "--side delay=IDLE_DELAY --side noutil=NO_SIS_UTIL --runs 2 --loads g=1,2 "
				   "--csv -- hackbench -l 20 | cut -d, -f1-3,6 | tail -n +2", w, HOST), 0);
	char mean[32];
	const char *am = strstr(a, "\nAmean     g=1  ");

	sscanf(am + strlen("\nAmean     g=1  "), "%31s", mean);
	char want[96];

	snprintf(want, sizeof(want), "g=1,mainline,default,%s", mean);
	/* The CSV's 10 digits start with the table's 4 decimals, rounded. */
	assert_true(!strncmp(b, want, strlen(want) - 1));
	assert_non_null(strstr(b, "\ng=2,noutil,NO_SIS_UTIL,"));
}

/*
 * Every --json result records the command that made it; `wakesim rerun`
 * replays it, byte for byte, for run and for compare (issue 7).
 */
static void test_rerun(void **state)
{
	(void)state;
	char dir[] = "/tmp/wakesim-rerun-XXXXXX";
	const char *w = tu_wakesim();

	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine %s --side a=default "
			       "--side b=IDLE_DELAY --side c=NO_SIS_UTIL --runs 2 --loads g=1,2 --json "
			       "-o %s/c.json -- hackbench -l 20 && %s rerun %s/c.json > %s/c2.json && "
			       "cmp %s/c.json %s/c2.json && %s rerun %s/c.json -o %s/c3.json && "
			       "cmp %s/c.json %s/c3.json", w, HOST, dir, w, dir, dir, dir, dir, w, dir, dir,
			       dir, dir), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --seed 4 --features IDLE_DELAY "
			       "--json -o %s/r.json -- hackbench -g 1 -l 30 -p && %s rerun %s/r.json | "
			       "cmp - %s/r.json && grep -c '\"command\"' %s/r.json", w, HOST, dir, w, dir,
			       dir, dir), 0);
	/* The output path is not part of the recorded command (grep finds none: 1). */
	assert_int_equal(tu_sh(out, sizeof(out), "grep -c '/r.json' %s/r.json", dir), 1);
	/* Another version warns, and still runs. */
	assert_int_equal(tu_sh(out, sizeof(out), "sed 's/\"wakesim_version\": *\"[^\"]*\"/"
			       "\"wakesim_version\":\"0.0.1\"/' %s/r.json > %s/old.json && "
			       "{ %s rerun %s/old.json 2>&1 >/dev/null; }", dir, dir, w, dir), 0);
	assert_non_null(strstr(out, "was made by wakesim 0.0.1"));
	/* Bad result files: named with file and line, exit 2, nothing run. */
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rerun %s/none.json", dir);
	expect_usage_error(cmd, "none.json");
	tu_sh(out, sizeof(out), "printf '{\n  \"command\": [\"run\",\n' > %s/cut.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/cut.json", dir);
	expect_usage_error(cmd, "cut.json:3: JSON syntax error");
	tu_sh(out, sizeof(out), "printf '{\"machine\": \"x\"}\n' > %s/nocmd.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/nocmd.json", dir);
	expect_usage_error(cmd, "nocmd.json:1: field \"command\": missing: not a result");
	tu_sh(out, sizeof(out), "printf '{\n\"a\": 1,\n\"command\": [\"topo\"]}\n' > %s/topo.json",
	      dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/topo.json", dir);
	expect_usage_error(cmd, "topo.json:3: field \"command[0]\": the command is neither run nor "
			   "compare");
	tu_sh(out, sizeof(out), "printf '{\"command\": [1]}\n' > %s/num.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/num.json", dir);
	expect_usage_error(cmd, "num.json:1: field \"command[0]\": expected a string");
	/* Found by a user trial: a result file chose where rerun writes, a NUL
	 * cut a string, an array was "no key", a bad command named no file. */
	tu_sh(out, sizeof(out), "printf '{\"command\": [\"run\", \"-o\", \"%s/evil\", \"--\", "
	      "\"hackbench\"]}' > %s/evil.json", dir, dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/evil.json", dir);
	expect_usage_error(cmd, "evil.json:1: field \"command[1]\": -o writes a file");
	tu_sh(out, sizeof(out), "printf '{\"command\": [\"run\", \"--schedstat=x\", \"--\", "
	      "\"hackbench\"]}' > %s/evil2.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/evil2.json", dir);
	expect_usage_error(cmd, "evil2.json:1: field \"command[1]\": --schedstat=x writes a file");
	assert_int_equal(tu_sh(out, sizeof(out), "test -e %s/evil", dir), 1);
	/* A result file must not load code without the user's word (issue 22). */
	tu_sh(out, sizeof(out), "printf '{\"command\": [\"run\", \"--policy\", \"./x.so\", \"--\", "
	      "\"hackbench\"]}' > %s/so.json && printf '{\"command\": [\"compare\", \"--side\", "
	      "\"a=default\", \"--side\", \"b=NO_SIS_UTIL,policy=/tmp/y\", \"--\", \"hackbench\"]}' > "
	      "%s/so2.json", dir, dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/so.json", dir);
	expect_usage_error(cmd, "so.json:1: field \"command[1]\": loads the policy object ./x.so, "
			   "whose code would run: pass --allow-policy");
	snprintf(cmd, sizeof(cmd), "rerun %s/so2.json", dir);
	expect_usage_error(cmd, "so2.json:1: field \"command[4]\": loads the policy object /tmp/y,");
	/* With the flag it goes on, to fail on the missing object itself. */
	snprintf(cmd, sizeof(cmd), "rerun --allow-policy %s/so.json", dir);
	expect_usage_error(cmd, "./x.so: cannot load it");
	tu_sh(out, sizeof(out), "printf '{\"command\": [\"run\", \"a\\\\u0000b\"]}' > %s/nul.json",
	      dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/nul.json", dir);
	expect_usage_error(cmd, "a string holds a NUL character");
	tu_sh(out, sizeof(out), "printf '[1]' > %s/arr.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/arr.json", dir);
	expect_usage_error(cmd, "arr.json:1: expected a JSON object");
	tu_sh(out, sizeof(out), "printf '{\"command\": [\"run\", \"--bogus\", \"--\", "
	      "\"hackbench\"]}' > %s/bogus.json", dir);
	snprintf(cmd, sizeof(cmd), "rerun %s/bogus.json", dir);
	expect_usage_error(cmd, "bogus.json:1: field \"command\": refused, as above");
	/* Side outputs are not recorded: a rerun writes only what -o says. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --json --schedstat %s/s.txt "
			       "--trace %s/t.txt -o %s/side.json -- hackbench -g 1 -l 5 && grep -c -e "
			       "schedstat -e trace %s/side.json", w, HOST, dir, dir, dir, dir), 1);
	expect_usage_error("rerun", "no result file");
	expect_usage_error("rerun a.json b.json", "unexpected argument \"b.json\"");
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/*
 * run --schedstat: /proc/schedstat's layout (version 16 on mainline, 15
 * on the older profiles; "cpuN" and 9 numbers; "domainN", a bitmap, 3 x 8
 * load-balance counters and 12 more), and the counters add up to the
 * run's metrics: every wake-up was done from a CPU and counted once,
 * either local or remote at one domain; every switch to a task is one
 * pcount.
 */
static void test_schedstat(void **state)
{
	(void)state;
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --json --schedstat "
			       "/tmp/wakesim-ss.txt -o /tmp/wakesim-ss.json -- hackbench -g 2 -l 30 -p && "
			       "head -1 /tmp/wakesim-ss.txt && awk '/^cpu/ && NF != 14 || /^domain/ && "
			       "NF != 38 { bad++ } /^cpu/ { t += $6; l += $7; p += $10; s1 += $11; "
			       "s2 += $12; s3 += $13; s4 += $14 } /^domain/ { r += $(NF - 2) } END { print "
			       "bad + 0, t, l + r, p, s1, s2, s3, s4 }' /tmp/wakesim-ss.txt && jq -r "
			       "'.metrics | \"\\(.wakeups) \\(.context_switches) \\(.sis_search) "
			       "\\(.sis_domain_search) \\(.sis_scanned) \\(.sis_failed)\"' /tmp/wakesim-ss.json",
			       w, HOST), 0);
	int bad, t, lr, p, wakeups, switches, sis[4], met[4];

	assert_int_equal(sscanf(out, "version 16\n%d %d %d %d %d %d %d %d\n%d %d %d %d %d %d", &bad,
				&t, &lr, &p, &sis[0], &sis[1], &sis[2], &sis[3], &wakeups, &switches,
				&met[0], &met[1], &met[2], &met[3]), 14);
	assert_int_equal(bad, 0);
	assert_true(wakeups > 0);
	assert_int_equal(t, wakeups);
	assert_int_equal(lr, wakeups);
	assert_int_equal(p, switches);
	/*
	 * The SIS counters the CPUs' lines append sum to the run's: every
	 * select_idle_sibling() call is counted once, on the waking CPU; a
	 * wake-up calls it at most once (forks take the slow path), and only
	 * its calls can scan, and only scans can fail.
	 */
	for (int i = 0; i < 4; i++)
		assert_int_equal(sis[i], met[i]);
	assert_true(met[0] > 0 && met[0] <= wakeups);
	assert_true(met[1] <= met[0] && met[3] <= met[1]);
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --kernel v6.4 --schedstat "
			       "/tmp/wakesim-ss.txt -- hackbench -g 1 -l 5 >/dev/null && head -1 "
			       "/tmp/wakesim-ss.txt && rm -f /tmp/wakesim-ss.txt /tmp/wakesim-ss.json", w,
			       HOST), 0);
	assert_string_equal(out, "version 15\n");
	expect_usage_error("run --machine " HOST " --schedstat /nonexistent/dir/s -- hackbench -l 5",
			   "--schedstat /nonexistent/dir/s: directory /nonexistent/dir does not exist");
	/* Found by a user trial: an option taken for a file name, two outputs on one file. */
	expect_usage_error("run --machine " HOST " --schedstat --json -- hackbench -l 5",
			   "--schedstat \"--json\": expected a file name, not an option");
	expect_usage_error("run --machine " HOST " -o --schedstat x -- hackbench -l 5",
			   "-o \"--schedstat\": expected a file name");
	expect_usage_error("run --machine " HOST " --json -o /tmp/wakesim-same.json --schedstat "
			   "/tmp/../tmp/wakesim-same.json -- hackbench -l 5", "are the same file");
	expect_usage_error("compare --machine " HOST " --test SIS_SHORT --sig-level 99.999 -- hackbench",
			   "--sig-level \"99.999\"");
}

static void test_topo_and_lists(void **state)
{
	(void)state;
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(out, sizeof(out), "%s topo --machine kunpeng920 | head -8", w), 0);
	assert_non_null(strstr(out, "domain0 CLS  span 0-3 weight 4"));
	assert_non_null(strstr(out, "domain1 MC   span 0-31 weight 32"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s machines", w), 0);
	assert_non_null(strstr(out, "epyc9654-2s"));
	assert_non_null(strstr(out, "kunpeng920-48"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s features", w), 0);
	assert_non_null(strstr(out, "SIS_SHORT                off"));
	assert_non_null(strstr(out, "SIS_UTIL                 on"));

	/* Kernel profiles: v5.12's features, tunables and domains (no CLS). */
	assert_int_equal(tu_sh(out, sizeof(out), "%s features --kernel v5.12", w), 0);
	assert_non_null(strstr(out, "SIS_UTIL                 off"));
	assert_non_null(strstr(out, "SIS_PROP                 on"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sysctls --machine=%s --kernel v6.4", w, HOST), 0);
	/* 2 CPUs: factor 2, so 0.75 ms x 2 and min_granularity / 8. */
	assert_non_null(strstr(out, "min_granularity_ns        1500000"));
	assert_non_null(strstr(out, "sis_short_ns               187500"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s topo --kernel=v5.12 --machine kunpeng920 | head -5", w), 0);
	assert_non_null(strstr(out, "domain0 MC   span 0-31 weight 32"));
	/* An arm64 part: no vendor the arch code knows, the default distance. */
	assert_non_null(strstr(out, "node_reclaim_distance 30 (CPU vendor not known)"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s topo --machine zen2-7742-2s | head -2", w), 0);
	assert_non_null(strstr(out, "node_reclaim_distance 32 (AuthenticAMD family 0x17)"));
	expect_usage_error("features --kernel 5.12", "--kernel \"5.12\": expected v5.12, v6.4, v6.6 or mainline");
	expect_usage_error("topo --kernel", "missing value after \"--kernel\"");
	expect_usage_error("run --kernel v4.19 -- hackbench", "--kernel \"v4.19\"");
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine %s --kernel v5.12 -- hackbench -g 1 -l 20", w, HOST), 0);
	assert_non_null(strstr(out, "kernel v5.12"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_stdout_full),
		cmocka_unit_test(test_sysctl_spellings),
		cmocka_unit_test(test_cgroup_paths),
		cmocka_unit_test(test_cpu_dma_latency),
		cmocka_unit_test(test_compare_json_and_jobs),
		cmocka_unit_test(test_rerun),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_topo_and_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
