/*
 * test_stats.c - summary statistics and Welch's t-test against values
 * worked out by hand (closed form of Student's t CDF for 6 degrees of
 * freedom: P(|T| <= t) = sin q (1 + cos^2 q / 2 + 3 cos^4 q / 8),
 * q = atan(t / sqrt(6))).
 */
#include "testutil.h"

#include "report/stats.h"

static void test_summary(void **state)
{
	(void)state;
	const double v[] = { 1, 2, 4 };
	struct summary s;

	summarize(v, 3, false, &s);
	assert_float_equal(s.mean, 7.0 / 3, 1e-12);
	/* sample variance: ((4/3)^2 + (1/3)^2 + (5/3)^2) / 2 = 7/3 */
	assert_float_equal(s.stddev, 1.5275252316519468, 1e-12);
	assert_float_equal(s.min, 1, 0);
	assert_float_equal(s.max, 4, 0);
	summarize(v, 3, true, &s);
	assert_float_equal(s.mean, 3 / 1.75, 1e-12); /* harmonic */
}

static void test_welch(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 3, 4 }, b[] = { 2, 3, 4, 5 };

	/* t = -1 / sqrt(5/12 + 5/12) = -1.0954, df = 6: sin q = 1/sqrt(6), cos^2 q = 5/6. */
	assert_float_equal(welch_p(a, 4, b, 4), 0.315334, 1e-5);
	/* Identical constant samples: nothing to tell; different constants: certain. */
	const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };

	assert_float_equal(welch_p(c, 3, c, 3), 1.0, 0);
	assert_float_equal(welch_p(c, 3, d, 3), 0.0, 0);
	assert_float_equal(welch_p(a, 1, b, 4), 1.0, 0);
}

static void test_change(void **state)
{
	(void)state;
	/* mmtests' sign: positive is better. Time 49 s -> 34 s (S2) is +30.6%. */
	assert_float_equal(change_pct(49, 34, false), 30.612244897959183, 1e-9);
	assert_float_equal(change_pct(100, 110, true), 10, 1e-9);
	assert_float_equal(change_pct(100, 110, false), -10, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
