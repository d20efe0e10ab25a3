/*
 * A test program killed in its second test, before cmocka prints its
 * totals, as a sanitizer abort or a wild crash would (tests/test_runner.c).
 * SIGKILL, because cmocka catches SIGSEGV and reports it as a failure.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void good(void **state)
{
	(void)state;
	assert_true(1);
}

static void dies(void **state)
{
	(void)state;
	raise(SIGKILL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
		cmocka_unit_test(dies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
