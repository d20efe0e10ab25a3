/*
 * workload.c - the registry of workloads by tool name.
 */
#include "workload.h"

#include <stdio.h>
#include <string.h>

const char *const workload_names[] = { "hackbench", NULL };

struct workload *workload_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	*help = false;
	if (argc < 1) {
		snprintf(err, errlen, "no workload given (after --): try hackbench");
		return NULL;
	}
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	if (!strcmp(name, "hackbench"))
		return hackbench_create(argc, argv, help, err, errlen);
	snprintf(err, errlen, "unknown workload \"%s\" (known: hackbench)", argv[0]);
	return NULL;
}
