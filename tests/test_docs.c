/*
 * test_docs.c - tools/check-docs.sh, which CI runs over the README and
 * docs/, finds what went stale: a command that fails, and an output block
 * that is not what its command prints (tests/data/docs/). The pages
 * themselves are checked by CI (.ci/run), not here: their commands take
 * minutes and measure the machine.
 */
#include "testutil.h"

static char out[1 << 16];

static void test_true_page(void **state)
{
	(void)state;
	/*
	 * good.md: the setup, cat and echo run (3); both output blocks match,
	 * the first across a "..." (2); frobnicate is skipped (1).
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/check-docs.sh tests/data/docs/good.md"), 0);
	assert_non_null(strstr(out, "\ncheck-docs: 5 run, 0 failed, 1 skipped\n"));
	assert_non_null(strstr(out, "skip  tests/data/docs/good.md:18: frobnicate --all\n"
				    "      (a placeholder program)\n"));
	/* A backslash joins the next line into one command. */
	assert_non_null(strstr(out, "ok    tests/data/docs/good.md:19 "));
	assert_non_null(strstr(out, "ok    tests/data/docs/good.md:10: output as shown\n"));
	assert_non_null(strstr(out, "ok    tests/data/docs/good.md:25: output as shown\n"));
	/* -n lists and runs nothing. */
	assert_int_equal(tu_sh(out, sizeof(out), "tools/check-docs.sh -n tests/data/docs/good.md"), 0);
	assert_non_null(strstr(out, "cmd   tests/data/docs/good.md:5: cat f.txt\n"));
	assert_non_null(strstr(out, "check-docs: 0 run, 0 failed, 1 skipped\n"));
}

static void test_stale_page(void **state)
{
	(void)state;
	assert_int_equal(tu_sh(out, sizeof(out), "tools/check-docs.sh tests/data/docs/bad.md"), 1);
	/* "one" then "three" are not consecutive in what printf printed. */
	assert_non_null(strstr(out, "FAIL  tests/data/docs/bad.md:9: the output shown is not what "
				    "the command before it prints\n"
				    "    shown lines 1-2 are not printed together, in order\n"));
	/*
	 * The seconds are whole seconds of date(1): a run that straddles a
	 * second's boundary prints 1s (CI did), so they are not compared.
	 */
	assert_non_null(strstr(out, "FAIL  tests/data/docs/bad.md:14 ("));
	assert_non_null(strstr(out, "s, status 2): ./wakesim run --no-such-option -- hackbench\n"));
	assert_non_null(strstr(out, "    wakesim run: unknown option \"--no-such-option\""));
	assert_non_null(strstr(out, "\ncheck-docs: 3 run, 2 failed, 0 skipped\n"));
	/* An annotation it does not know is refused, not ignored. */
	FILE *f = fopen("/tmp/wakesim-docs-annotation.md", "w");

	assert_non_null(f);
	fputs("text\n<!-- check-docs: skipp x -->\n", f);
	fclose(f);
	assert_int_equal(tu_sh(out, sizeof(out), "tools/check-docs.sh "
			       "/tmp/wakesim-docs-annotation.md"), 2);
	assert_string_equal(out, "/tmp/wakesim-docs-annotation.md:2: unknown check-docs "
			    "annotation \"skipp x\"\n");
	unlink("/tmp/wakesim-docs-annotation.md");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true_page),
		cmocka_unit_test(test_stale_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
