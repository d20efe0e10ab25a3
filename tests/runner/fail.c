/* A test program with two passing tests and one failing (tests/test_runner.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void good(void **state)
{
	(void)state;
	assert_int_equal(2 * 2, 4);
}

static void deliberately_wrong(void **state)
{
	(void)state;
	assert_int_equal(2 * 2, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
		cmocka_unit_test(deliberately_wrong),
		cmocka_unit_test(good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
