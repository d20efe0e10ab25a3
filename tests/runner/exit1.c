/*
 * A test program whose one test passes but which exits 1 afterwards, as
 * LeakSanitizer makes a program exit after its tests (tests/test_runner.c).
 */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 2 : 1;
}
