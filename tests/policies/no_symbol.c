/*
 * no_symbol.c - a shared object without a wakesim_policy descriptor:
 * wakesim must say what is missing (tests/test_policy.c).
 */
int not_a_policy(int x);

int not_a_policy(int x)
{
	return x + 1;
}
