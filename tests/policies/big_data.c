/*
 * big_data.c - a policy asking for more per-CPU data than wakesim gives
 * (POLICY_DATA_MAX, 4096 bytes): refused (tests/test_policy.c).
 */
#include "wakesim/policy.h"

static bool never(int cpu)
{
	(void)cpu;
	return false;
}

WAKESIM_POLICY(.name = "big-data", .idle_cpu = never, .cpu_data_size = 4097);
