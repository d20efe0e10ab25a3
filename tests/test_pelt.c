/*
 * test_pelt.c - PELT against its definition (kernel/sched/pelt.c):
 * y^32 = 1/2 per 1024 us period, LOAD_AVG_MAX = 47742, util of an always
 * running task ~ 1024 * (1 - y^n) after n periods, util_est's 1/4 EWMA.
 */
#include "testutil.h"

#include "kern/pelt.h"

#define PERIOD_NS (1024ULL * 1024ULL) /* 1024 units of 1024 ns */

static void test_decay(void **state)
{
	(void)state;
	const u64 v = 1 << 20;

	/* y^32 = 1/2, y^64 = 1/4, to the table's truncation. */
	assert_true(pelt_decay_load(v, 32) >= v / 2 - 1 && pelt_decay_load(v, 32) <= v / 2);
	assert_true(pelt_decay_load(v, 64) >= v / 4 - 1 && pelt_decay_load(v, 64) <= v / 4);
	/* y^16 = 1/sqrt(2): 741455.2 */
	assert_true(pelt_decay_load(v, 16) >= 741454 && pelt_decay_load(v, 16) <= 741456);
	/* Beyond 63 half-lives everything is gone. */
	assert_int_equal(pelt_decay_load(~0ULL, 32 * 63 + 1), 0);
	/* The series 1024 * sum(y^n) with the kernel's truncation. */
	assert_int_equal(pelt_load_avg_max(), LOAD_AVG_MAX);
}

/* An always-running entity: 1024 * (1 - y^n) after n periods. */
static void test_ramp_and_decay(void **state)
{
	(void)state;
	struct sched_avg sa = { 0 };

	pelt_update(&sa, 32 * PERIOD_NS, 1, 1, 1024, 1024);
	/* 1 - y^32 = 1/2 */
	assert_true(sa.util_avg >= 507 && sa.util_avg <= 517);
	assert_true(sa.load_avg >= 507 && sa.load_avg <= 517);
	pelt_update(&sa, 64 * PERIOD_NS, 1, 1, 1024, 1024);
	/* 1 - y^64 = 3/4 */
	assert_true(sa.util_avg >= 763 && sa.util_avg <= 773);
	unsigned long before = sa.util_avg;

	/* Stop running: halves every 32 periods. */
	pelt_update(&sa, 96 * PERIOD_NS, 0, 0, 0, 1024);
	assert_true(sa.util_avg >= before / 2 - 2 && sa.util_avg <= before / 2 + 2);
	/* Runnable but not running: load grows, util does not. */
	struct sched_avg w = { 0 };

	pelt_update(&w, 32 * PERIOD_NS, 1, 1, 0, 1024);
	assert_int_equal(w.util_avg, 0);
	assert_true(w.load_avg >= 507 && w.load_avg <= 517);

	/*
	 * Capacity invariance: the same 32 periods running on a CPU of
	 * capacity 256 did a quarter of the work: 1024/4 x 1/2 = 128 (within
	 * the truncation above, divided by 4); load is not scaled.
	 */
	struct sched_avg l = { 0 };

	pelt_update(&l, 32 * PERIOD_NS, 1, 1, 256, 1024);
	assert_true(l.util_avg >= 126 && l.util_avg <= 130);
	assert_true(l.load_avg >= 507 && l.load_avg <= 517);
}

static void test_util_est(void **state)
{
	(void)state;
	struct sched_avg sa = { 0 };

	/* Rising: the estimate jumps to the dequeued utilisation. */
	sa.util_est = 300;
	sa.util_avg = 500;
	util_est_update(&sa, 1024);
	assert_int_equal(task_util_est_raw(&sa), 500);
	/* Unchanged PELT since then: no new sample. */
	sa.util_avg = 100;
	util_est_update(&sa, 1024);
	assert_int_equal(task_util_est_raw(&sa), 500);
	/* Falling: ewma += (sample - ewma) / 4 -> 800 - 400/4 = 700. */
	sa.util_est = 800;
	sa.util_avg = 400;
	sa.runnable_avg = 400;
	util_est_update(&sa, 1024);
	assert_int_equal(task_util_est_raw(&sa), 700);
	/* Within the 1% margin: kept. */
	sa.util_est = 405;
	util_est_update(&sa, 1024);
	assert_int_equal(task_util_est_raw(&sa), 405);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_ramp_and_decay),
		cmocka_unit_test(test_util_est),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
