/* A test program whose three tests pass (tests/test_runner.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void one(void **state)
{
	(void)state;
	assert_int_equal(1 + 1, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one),
		cmocka_unit_test(one),
		cmocka_unit_test(one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
