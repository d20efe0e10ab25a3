/*
 * test_runner.c - tools/run-tests.sh, the runner of `make check`, cannot
 * hide a failing program: it runs every program given and sums cmocka's own
 * totals, counting a program that dies before its summary, or exits non-zero
 * after passing, as one failure. The programs are in tests/runner/.
 */
#include "testutil.h"

static char out[1 << 16];

static void test_counts_every_program(void **state)
{
	(void)state;
	/*
	 * pass: 3 passed. fail: 2 passed, 1 failed (cmocka's totals). crash:
	 * killed in its second test, no totals: 1 failed. exit1: 1 passed,
	 * then exit 1: 1 failed. In all 6 passed, 3 failed.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/run-tests.sh -l runner build/runner/pass "
			       "build/runner/fail build/runner/crash build/runner/exit1"), 1);
	assert_non_null(strstr(out, "\nrunner: 6 passed, 3 failed, 0 skipped (4 programs)\n"));
	assert_non_null(strstr(out, "  build/runner/fail: 1 failed: deliberately_wrong\n"));
	assert_non_null(strstr(out, "  build/runner/crash: died (signal 9) before its summary\n"));
	assert_non_null(strstr(out, "  build/runner/exit1: all its tests passed, but it exited 1\n"));
	/* Not named: the program that passed. */
	assert_null(strstr(out, "  build/runner/pass:"));
	/* The failing program first: the ones after it still run. */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/run-tests.sh build/runner/fail "
			       "build/runner/pass"), 1);
	assert_non_null(strstr(out, "\ntests: 5 passed, 1 failed, 0 skipped (2 programs)\n"));
}

static void test_all_pass(void **state)
{
	(void)state;
	char path[] = "/tmp/wakesim-summary-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(tu_sh(out, sizeof(out), "tools/run-tests.sh -s %s build/runner/pass "
			       "build/runner/pass", path), 0);
	assert_non_null(strstr(out, "\ntests: 6 passed, 0 failed, 0 skipped (2 programs)\n"));
	assert_null(strstr(out, "failing programs"));
	/* -s keeps the summary for `make check` to print again at its end. */
	assert_int_equal(tu_sh(out, sizeof(out), "cat %s", path), 0);
	assert_string_equal(out, "tests: 6 passed, 0 failed, 0 skipped (2 programs)\n");
	unlink(path);
	/* A skipped test is neither: counted apart, and the pass still passes. */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/run-tests.sh build/runner/skip"), 0);
	assert_non_null(strstr(out, "\ntests: 1 passed, 0 failed, 1 skipped (1 program)\n"));
	/* A program that cannot even start is a failure too. */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/run-tests.sh build/runner/no-such"), 1);
	assert_non_null(strstr(out, "\ntests: 0 passed, 1 failed, 0 skipped (1 program)\n"));
	assert_non_null(strstr(out, "  build/runner/no-such: exited 127 before its summary\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_every_program),
		cmocka_unit_test(test_all_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
