/* A test program with one passing and one skipped test (tests/test_runner.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void good(void **state)
{
	(void)state;
	assert_true(1);
}

static void not_here(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
		cmocka_unit_test(not_here),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
