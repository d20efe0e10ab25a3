/*
 * test_hackbench.c - hackbench's protocol conserves messages (every one
 * sent is read once, in every mode), its result is the window between the
 * wake byte and the last reap, and its flags parse as rt-tests' do.
 */
#include "testutil.h"

#include "workload/workload.h"

static void run_and_check(const char *machine, const char *args)
{
	struct machine *m = tu_machine(machine);
	struct sim *sim = calloc(1, sizeof(*sim));
	struct sim_config cfg = { .seed = 3 };
	char buf[512], *argv[32], err[512], why[256];
	int argc = 0;
	bool help;

	snprintf(buf, sizeof(buf), "hackbench %s", args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	sched_features_default(&cfg.features);
	sched_tunables_default(&cfg.tunables, m->topo.nr_cpus);
	cpumask_setall(&cfg.allowed);
	struct workload *wl = workload_create(argc, argv, &help, err, sizeof(err));

	assert_non_null(wl);
	assert_int_equal(sim_init(sim, m, &cfg, err, sizeof(err)), 0);
	sim_set_workload(sim, wl);
	if (sim_run(sim, err, sizeof(err))) {
		print_error("%s on %s: %s\n", args, machine, err);
		fail();
	}
	if (workload_check(wl, why, sizeof(why))) {
		print_error("%s on %s: %s\n", args, machine, why);
		fail();
	}
	/* All children and the main task are gone; the clock ran. */
	assert_int_equal(sim->nr_alive, 0);
	const char *unit;
	bool hib;
	double t = wl->ops->result(sim, wl, &unit, &hib);

	assert_true(t > 0 && t < (double)sim->now / 1e9);
	assert_string_equal(unit, "s");
	assert_false(hib);
	sim_free(sim);
	free(sim);
	tu_machine_free(m);
}

static void test_conservation(void **state)
{
	(void)state;
	run_and_check("sysfs:tests/data/host-2cpu-sysfs", "-g 2 -f 5 -l 30");
	run_and_check("sysfs:tests/data/host-2cpu-sysfs", "-g 2 -f 5 -l 30 -p");
	run_and_check("sysfs:tests/data/host-2cpu-sysfs", "-g 1 -f 3 -l 700 -p -T");
	run_and_check("kunpeng920-48", "-g 3 -f 8 -l 40 -T");
	/* Big messages span pages and skbs; short reads must add up. */
	run_and_check("epyc9654-2s", "-g 2 -f 4 -l 10 -s 9000 -p");
	run_and_check("epyc9654-2s", "-g 2 -f 4 -l 10 -s 150000");
}

static void expect_bad(const char *args, const char *needle)
{
	char buf[256], *argv[16], err[2048];
	int argc = 0;
	bool help;

	snprintf(buf, sizeof(buf), "hackbench %s", args);
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	assert_null(workload_create(argc, argv, &help, err, sizeof(err)));
	assert_false(help);
	if (!strstr(err, needle)) {
		print_error("\"%s\": error \"%s\" lacks \"%s\"\n", args, err, needle);
		fail();
	}
}

static void test_flags(void **state)
{
	(void)state;
	char *argv[] = { "hackbench", "--groups=3", "--fds", "7", "--loops=11", "--datasize", "64",
			 "--threads", "--pipe", NULL };
	char err[2048];
	bool help;
	struct workload *wl = workload_create(9, argv, &help, err, sizeof(err));
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(wl);
	wl->ops->report(NULL, wl, f);
	fclose(f);
	/* hackbench's own header lines; fds printed are 2 per sender/receiver pair. */
	assert_non_null(strstr(out, "Running in threaded mode with 3 groups using 14 file "
				    "descriptors each (== 42 tasks)"));
	assert_non_null(strstr(out, "Each sender will pass 11 messages of 64 bytes"));
	free(out);
	wl->ops->free(wl);

	expect_bad("-g 0", "-g/--groups");
	expect_bad("-g abc", "\"abc\" is not an integer");
	expect_bad("-l", "needs a value");
	expect_bad("-x", "unknown option \"-x\"");
	expect_bad("--inet", "not simulated");
	expect_bad("-g 2 extra", "unexpected argument \"extra\"");

	char *h[] = { "hackbench", "--help", NULL };

	assert_null(workload_create(2, h, &help, err, sizeof(err)));
	assert_true(help);
	assert_non_null(strstr(err, "--pipe"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
