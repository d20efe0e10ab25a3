/*
 * test_robust.c - the costs' ranges and `compare --robust` (issue 24):
 * the Latin hypercube's draws, the cost profiles drawn from it, the
 * analysis of a verdict's robustness, the end-to-end report on a machine
 * where one cost decides by hand, sweeps, and `wakesim costs`. Malformed
 * ranges: test_costs.c.
 */
#include "testutil.h"

#include <math.h>

#include "cli/robust.h"
#include "machine/cost_keys.h"
#include "report/robust_out.h"

static char out[1 << 17];

/* poll_wake_ns 0..2000 decides; tcp_send_ns and udp_send_ns 500..1500 are decoys. */
#define RANGED "tests/data/ideal-2cpu-ranges.json"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* 2 costs, 4 draws: each column holds each quarter's midpoint once. */
static void test_lhs_design(void **state)
{
	double u[8], v[8], col[4];
	const double mid[4] = { 0.125, 0.375, 0.625, 0.875 };

	(void)state;
	lhs_design(4, 2, 1, u);
	for (int j = 0; j < 2; j++) {
		for (int i = 0; i < 4; i++)
			col[i] = u[i * 2 + j];
		qsort(col, 4, sizeof(col[0]), cmp_double);
		for (int i = 0; i < 4; i++)
			assert_true(col[i] == mid[i]);
	}
	lhs_design(4, 2, 1, v);
	assert_memory_equal(u, v, sizeof(u));
	/* Another seed, another design: over 8 seeds at least one differs. */
	bool differs = false;

	for (uint64_t s = 2; s < 10; s++) {
		lhs_design(4, 2, s, v);
		differs |= memcmp(u, v, sizeof(u)) != 0;
	}
	assert_true(differs);
}

/*
 * The draws of RANGED: poll_wake_ns's range 0..2000 cut in 4 gives the
 * midpoints 250, 750, 1250, 1750; tcp_send_ns's 500..1500 gives 625, 875,
 * 1125, 1375; cold_mlp's default 1..2 rounds 1.125..1.875 to 1, 1, 2, 2.
 */
static void test_draw_values(void **state)
{
	struct machine *m = tu_machine(RANGED);
	struct robust_costs rc;
	struct machine d;
	double u[4 * COST_KEYS_MAX], val[4][COST_KEYS_MAX], col[4];
	const double poll[4] = { 250, 750, 1250, 1750 }, tcp[4] = { 625, 875, 1125, 1375 };
	const double mlp[4] = { 1, 1, 2, 2 };

	(void)state;
	robust_costs_of(m, &rc);
	assert_int_equal(rc.n, 4);
	assert_string_equal(rc.name[0], "poll_wake_ns");
	assert_string_equal(rc.name[1], "tcp_send_ns");
	assert_string_equal(rc.name[2], "udp_send_ns");
	assert_string_equal(rc.name[3], "cold_mlp");
	lhs_design(4, rc.n, 7, u);
	for (int i = 0; i < 4; i++) {
		robust_draw(m, &rc, u, i, &d, val[i]);
		assert_true(val[i][0] == (double)d.costs.poll_wake_ns);
		assert_true(val[i][1] == (double)d.costs.tcp_send_ns);
		/* What has no range keeps its value. */
		assert_int_equal(d.costs.pipe_write_ns, 1000);
		assert_int_equal(d.costs.tcp_recv_ns, 500);
	}
	const double *want[3] = { poll, tcp, mlp };
	const int key[3] = { 0, 1, 3 };

	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 4; i++)
			col[i] = val[i][key[k]];
		qsort(col, 4, sizeof(col[0]), cmp_double);
		for (int i = 0; i < 4; i++)
			assert_true(col[i] == want[k][i]);
	}
	/* The machine itself is untouched. */
	assert_int_equal(m->costs.poll_wake_ns, 1000);
	tu_machine_free(m);
}

/* Idle states drawn out of order are put back in cpuidle's; interruptions under half a CPU. */
static void test_draw_idle_order(void **state)
{
	struct machine *m = tu_machine("epyc9654-2s");
	int c1 = cost_key_find(m, "idle_states.C1.exit_latency_us");
	int c2 = cost_key_find(m, "idle_states.C2.exit_latency_us");

	(void)state;
	assert_true(c1 > 0 && c2 == c1 + 1);
	/* C2's residency is twice its latency (acpi_idle): it stays so. */
	cost_key_set(m, c2, 30);
	assert_int_equal(m->idle[2].exit_latency_ns, 30000);
	assert_int_equal(m->idle[2].target_residency_ns, 60000);
	cost_key_set(m, c1, 50);
	cost_keys_order_idle(m);
	assert_int_equal(m->idle[2].exit_latency_ns, 50000);
	assert_int_equal(m->idle[2].target_residency_ns, 100000);
	/*
	 * Interruptions drawn as a cost file may not give them are put back
	 * as it must: an interval of 500 ns raised to the 1000 ns floor, and
	 * 600 ns of each cut to just under half of that, (1000 - 1) / 2.
	 */
	cost_key_set(m, cost_key_find(m, "irq_ns"), 600);
	cost_key_set(m, cost_key_find(m, "irq_interval_ns"), 500);
	cost_keys_order_idle(m);
	assert_int_equal(m->costs.irq_ns, 499);
	assert_int_equal(m->costs.irq_interval_ns, 1000);
	tu_machine_free(m);
}

/*
 * By hand: cost A's draws 1, 2, 3, 4 and B's 4, 1, 3, 2 against changes
 * -1, +1, +2, +3. A ranks as the change does: rho = 1. B's ranks differ
 * by 3, -1, 0, -2: rho = 1 - 6 x 14 / (4 x 15) = -0.4. Nominal +2: three
 * draws share its sign.
 */
static void test_analyse_by_hand(void **state)
{
	const char *cost[2] = { "a_ns", "b_ns" }, *unit[2] = { "ns", "ns" };
	const double cmin[2] = { 1, 1 }, cmax[2] = { 4, 4 }, nominal[2] = { 2, 2 };
	const double value[8] = { 1, 4, 2, 1, 3, 3, 4, 2 };
	const double change[4] = { -1, 1, 2, 3 }, flat[4] = { 5, 5, 5, 5 };
	struct robust_row row[4] = { { 0 } };
	struct robust_report r = { .ndraws = 4, .ncosts = 2, .seed = 1, .cost = cost, .unit = unit,
				   .cmin = cmin, .cmax = cmax, .nominal = nominal, .value = value,
				   .nloads = 2, .nsides = 2, .row = row };

	(void)state;
	row[1] = (struct robust_row){ .nominal = 2, .change = change };
	row[3] = (struct robust_row){ .nominal = -1, .change = flat };
	robust_analyse(&r);
	assert_true(row[1].min == -1 && row[1].max == 3);
	assert_int_equal(row[1].same_sign, 3);
	assert_int_equal(row[1].ntop, 2);
	assert_int_equal(row[1].top[0], 0);
	assert_true(fabs(row[1].rho[0] - 1) < 1e-12);
	assert_int_equal(row[1].top[1], 1);
	assert_true(fabs(row[1].rho[1] + 0.4) < 1e-12);
	/* A change that never moves follows no cost, and no draw shares a negative sign. */
	assert_int_equal(row[3].ntop, 0);
	assert_int_equal(row[3].same_sign, 0);
	const char *load[2] = { "g=1", "g=2" }, *side[2] = { "base", "test" };
	FILE *f = fmemopen(out, sizeof(out), "w");

	robust_print_text(&r, load, side, f);
	fclose(f);
	assert_non_null(strstr(out, "g=1  test    +2.00%    -1.00%    +3.00%     3/4  75%  a_ns +1.00, b_ns -0.40\n"));
	assert_non_null(strstr(out, "g=2  test    -1.00%    +5.00%    +5.00%     0/4   0%  none: the change did not move"));
	/* 4 draws: noise alone gives |rho| up to 2 / sqrt(4) = 1. */
	assert_non_null(strstr(out, "|rho| below 1.00 (2 / sqrt(draws))"));
	/* Two draws rank nothing (found by a trial: it said the change never moved). */
	r.ndraws = 2;
	robust_analyse(&r);
	f = fmemopen(out, sizeof(out), "w");
	robust_print_text(&r, load, side, f);
	fclose(f);
	assert_non_null(strstr(out, "not ranked: 3 draws or more are needed"));
}

/*
 * On RANGED a pipe pair spread over the two CPUs (mainline) pays each
 * round trip, in series, each write but its way out (750 ns) and each
 * woken read's rest (250), 2000 ns, and two wake-ups of the polling idle
 * CPU (a writer's way out and next way in, 500 ns, end before its
 * partner's answer can come): 2 + 2 x poll_wake_ns / 1000 us per op. Stacked
 * on one CPU (the stack policy) it pays the four syscalls, 3 us, and never
 * wakes an idle CPU. Nominal (1000 ns): 4 against 3 us, +25%. Eight draws
 * of poll_wake_ns at 125, 375, ..., 1875: the two below 500 ns make
 * stacking lose; the lowest, 2.25 us, -33.3%; the highest, 5.75 us,
 * +47.8%. Only poll_wake_ns moves the change, so it ranks first with rho 1.
 */
static void test_compare_robust_ideal(void **state)
{
	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " RANGED " --runs 1 "
			       "--robust 8 -j 2 --quiet --base default "
			       "--test policy=build/test-policies/stack.so --json -- perf bench "
			       "sched pipe -l 1000 | jq -r '.robust | .draws, .rows[0].same_sign, "
			       ".rows[0].nominal_change_pct, .rows[0].min_change_pct, "
			       ".rows[0].max_change_pct, .rows[0].follows[0].cost, "
			       ".rows[0].follows[0].spearman_rho, (.costs | length), "
			       "([.draw_costs[][0]] | sort | map(tostring) | join(\",\"))'",
			       tu_wakesim()), 0);
	int draws, same;
	double nominal, lo, hi, rho;
	char cost[64], polls[256];
	int ncosts;

	assert_int_equal(sscanf(out, "%d %d %lf %lf %lf %63s %lf %d %255s", &draws, &same, &nominal,
				&lo, &hi, cost, &rho, &ncosts, polls), 9);
	assert_int_equal(draws, 8);
	assert_int_equal(same, 6);
	assert_true(fabs(nominal - 25.0) < 0.1);
	assert_true(fabs(lo - (2.25 - 3) / 2.25 * 100) < 0.1);
	assert_true(fabs(hi - (5.75 - 3) / 5.75 * 100) < 0.1);
	assert_string_equal(cost, "poll_wake_ns");
	assert_true(fabs(rho - 1) < 1e-9);
	assert_int_equal(ncosts, 4);
	assert_string_equal(polls, "125,375,625,875,1125,1375,1625,1875");
	/* The text and CSV carry the same verdict. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " RANGED " --runs 1 "
			       "--robust 8 -j 1 --quiet --test policy=build/test-policies/stack.so "
			       "-- perf bench sched pipe -l 1000", tu_wakesim()), 0);
	assert_non_null(strstr(out, "6/8  75%  poll_wake_ns +1.00"));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " RANGED " --runs 1 "
			       "--robust 8 --quiet --test policy=build/test-policies/stack.so --csv "
			       "-- perf bench sched pipe -l 1000 | tail -1 | tr ',' '\\n' | "
			       "grep -A1 -x poll_wake_ns", tu_wakesim()), 0);
	assert_string_equal(out, "poll_wake_ns\n1\n");
}

/*
 * --plot: robust.dat holds per load and side the draws (poll_wake_ns,
 * change) then the nominal point (1000 ns, +25%), beside the figures.
 */
static void test_robust_plot(void **state)
{
	char dir[] = "/tmp/wakesim-rplot-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " RANGED " --runs 1 "
			       "--robust 4 --quiet --test policy=build/test-policies/stack.so "
			       "--plot %s/p -- perf bench sched pipe -l 1000 >/dev/null && "
			       "ls %s/p && grep -v '^#' %s/p/robust.dat | awk 'NF' | sort -n | "
			       "awk '{ printf \"%%s %%.0f\\n\", $1, $2 }'", tu_wakesim(), dir,
			       dir, dir), 0);
	/* Draws at 250, 750, 1250, 1750 ns: spread 2.5, 3.5, 4.5, 5.5 us against 3. */
	assert_string_equal(out, "diagnostics.dat\ndiagnostics.png\ndiagnostics.svg\nplot.gp\n"
			    "result.dat\nresult.png\nresult.svg\nrobust.dat\nrobust.png\n"
			    "robust.svg\n250 -20\n750 14\n1000 25\n1250 33\n1750 45\n");
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/*
 * A sweep plan's "robust": the same draws and verdict as compare --robust
 * (test_compare_robust_ideal's, by hand), and the shards merge to the
 * same bytes as the unsharded sweep.
 */
static void test_sweep_robust(void **state)
{
	char dir[] = "/tmp/wakesim-rsweep-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tu_sh(out, sizeof(out), "%s sweep tests/data/sweep/robust.json --quiet "
			       "-o %s/u.txt && %s sweep tests/data/sweep/robust.json --shard 1/3 "
			       "--quiet -o %s/1.json && %s sweep tests/data/sweep/robust.json --shard "
			       "2/3 --quiet -o %s/2.json && %s sweep tests/data/sweep/robust.json "
			       "--shard 3/3 --quiet -o %s/3.json && %s merge %s/1.json %s/2.json "
			       "%s/3.json | cmp - %s/u.txt && head -1 %s/u.txt && grep 6/8 %s/u.txt",
			       tu_wakesim(), dir, tu_wakesim(), dir, tu_wakesim(), dir, tu_wakesim(),
			       dir, tu_wakesim(), dir, dir, dir, dir, dir, dir), 0);
	assert_non_null(strstr(out, "x 2 policies x 1 seed x 9 cost profiles (nominal and 8 drawn) "
			       "= 18 simulations\n"));
	assert_non_null(strstr(out, "+24.99%   -33.32%   +47.79%     6/8  75%  poll_wake_ns +1.00"));
	/* A shard whose draws were edited away is refused, naming the field. */
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.machines[0].robust.draw_costs |= .[1:]' "
			       "%s/1.json > %s/bad.json && %s merge %s/bad.json %s/2.json %s/3.json",
			       dir, dir, tu_wakesim(), dir, dir, dir), 2);
	assert_non_null(strstr(out, "field \"machines[0].robust.draw_costs\": 7 elements, where "
			       "the plan implies 8"));
	/* Found by a trial: edited draws were merged. Outside its range; or unlike the other shards'. */
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.machines[0].robust.draw_costs[0][0] = 99999' "
			       "%s/1.json > %s/bad.json && %s merge %s/bad.json %s/2.json %s/3.json",
			       dir, dir, tu_wakesim(), dir, dir, dir), 2);
	assert_non_null(strstr(out, "field \"machines[0].robust.draw_costs[0][0]\": 99999 is "
			       "outside the cost's range 0..2000"));
	assert_int_equal(tu_sh(out, sizeof(out), "jq '.machines[0].robust.draw_costs[0][0] = 1' "
			       "%s/2.json > %s/bad.json && %s merge %s/1.json %s/bad.json %s/3.json",
			       dir, dir, tu_wakesim(), dir, dir, dir), 2);
	assert_non_null(strstr(out, "field \"machines[0].robust\": differs from"));
	/* "robust": 1 has no spread to draw from: refused at its line. */
	assert_int_equal(tu_sh(out, sizeof(out), "sed -e 's/\"robust\": 8/\"robust\": 1/' "
			       "-e \"s|\\.\\./ideal|$PWD/tests/data/ideal|\" "
			       "-e \"s|\\.\\./\\.\\./\\.\\./build|$PWD/build|\" "
			       "tests/data/sweep/robust.json > %s/r1.json && %s sweep %s/r1.json", dir,
			       tu_wakesim(), dir), 2);
	assert_non_null(strstr(out, "r1.json:7: field \"robust\": expected an integer 2..1000"));
	tu_sh(out, sizeof(out), "rm -rf %s", dir);
}

/* Without a cost to vary, --robust says so. */
static void test_robust_needs_ranges(void **state)
{
	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine tests/data/ideal-2cpu.json "
			       "--cost-profile %s --robust 4 --quiet --test "
			       "policy=build/test-policies/stack.so -- perf bench sched pipe -l 10",
			       tu_wakesim(), "tests/data/ideal-2cpu.json"), 2);
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --robust 1 -- hackbench -g 1",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "--robust: \"1\" is not an integer in 2..1000"));
	/* Found by a trial: a grid too big to hold died of memory; refused, as a sweep's. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s compare --machine " RANGED " --test "
			       "IDLE_DELAY --runs 1000 --robust 1000 --loads g=1,2,3 -- hackbench -l 5",
			       tu_wakesim()), 2);
	assert_non_null(strstr(out, "= 6006000 simulations, more than 10^6"));
}

/*
 * `wakesim costs`: epyc9654-2s's same-CCX transfer is 27 ns, 24..34 from
 * its own matrix; context_switch_ns keeps the defaults' 390..670; a cost
 * with no range given, select_ns 100, gets 50..200. A machine file that
 * sets the same-CCX transfer anew (40 ns) without a range leaves it the
 * default, 20..80: the matrix's range was for 27.
 */
static void test_costs_command(void **state)
{
	char path[] = "/tmp/wakesim-m-XXXXXX";
	int fd;
	FILE *f;

	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "%s costs --machine epyc9654-2s | awk '{ print $1, "
			       "$2, $3, $4, $5, $6, $7 }'", tu_wakesim()), 0);
	assert_non_null(strstr(out, "\nc2c_ns.llc 27 24 34 ns same CCX,"));
	assert_non_null(strstr(out, "\ncontext_switch_ns 600 390 670 ns perf bench"));
	assert_non_null(strstr(out, "\nselect_ns 100 50 200 ns default: the"));
	assert_non_null(strstr(out, "\nidle_states.C2.exit_latency_us 100 30 400 us the BIOS-declared"));
	/* The profile gives C1 no range, so C1 keeps the default's. */
	assert_non_null(strstr(out, "\nidle_states.C1.exit_latency_us 1 0.5 2 us default: the"));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("{ \"name\": \"e\", \"cost_profile\": \"epyc9654-2s\",\n"
	      "  \"topology\": { \"sockets\": 1, \"cores_per_cluster\": 2, \"l2_bytes\": 1048576, \"llc_bytes\": 8388608 },\n"
	      "  \"costs\": { \"c2c_ns\": { \"llc\": 40 } } }\n", f);
	fclose(f);
	assert_int_equal(tu_sh(out, sizeof(out), "%s costs --machine %s --json | jq -r '.costs[] | "
			       "select(.cost == \"c2c_ns.llc\" or .cost == \"c2c_ns.node\") | "
			       "[.cost, .value, .min, .max, .range_given] | @tsv'", tu_wakesim(), path), 0);
	assert_string_equal(out, "c2c_ns.llc\t40\t20\t80\tfalse\nc2c_ns.node\t99\t85\t154\ttrue\n");
	unlink(path);
	/*
	 * Found by a trial: kunpeng920's profile gives the cross-socket
	 * transfer, 150 ns [R], the defaults' figure too: the defaults' x86
	 * range (108..267) is not its, the default one is (75..300).
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "%s costs --machine kunpeng920 --json | jq -r "
			       "'.costs[] | select(.cost == \"c2c_ns.remote\") | [.value, .min, .max, "
			       ".range_given] | @tsv'", tu_wakesim()), 0);
	assert_string_equal(out, "150\t75\t300\tfalse\n");
	/* A profile may range the machine's idle states without listing them. */
	strcpy(path, "/tmp/wakesim-m-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("{ \"name\": \"c2\", \"ranges\": { \"idle_states\": { \"C2\": { \"exit_latency_us\":"
	      " { \"min\": 50, \"max\": 200, \"source\": \"s\" } } } } }\n", f);
	fclose(f);
	assert_int_equal(tu_sh(out, sizeof(out), "%s costs --machine epyc9654-2s --cost-profile %s "
			       "--json | jq -r '.costs[] | select(.cost | startswith(\"idle\")) | "
			       "[.cost, .value, .min, .max] | @tsv'", tu_wakesim(), path), 0);
	assert_string_equal(out, "idle_states.POLL.exit_latency_us\t0\t0\t0\n"
			    "idle_states.C1.exit_latency_us\t1\t0.5\t2\n"
			    "idle_states.C2.exit_latency_us\t100\t50\t200\n");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lhs_design),
		cmocka_unit_test(test_draw_values),
		cmocka_unit_test(test_draw_idle_order),
		cmocka_unit_test(test_analyse_by_hand),
		cmocka_unit_test(test_compare_robust_ideal),
		cmocka_unit_test(test_robust_plot),
		cmocka_unit_test(test_sweep_robust),
		cmocka_unit_test(test_robust_needs_ranges),
		cmocka_unit_test(test_costs_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
