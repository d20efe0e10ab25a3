/*
 * cmd_replay.c - `wakesim replay TRACE [replay options] [run options]`:
 * the same as `wakesim run [run options] -- replay [replay options] TRACE`
 * (workload/replay.c), spelled as a kernel developer asks the question.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* The replay workload's own options, and whether each takes a value. */
static int replay_option(const char *a)
{
	if (!strcmp(a, "--comm") || !strcmp(a, "--pid") || !strcmp(a, "--wake-flags"))
		return 2;
	if (!strcmp(a, "--threads"))
		return 1;
	if (!strncmp(a, "--comm=", 7) || !strncmp(a, "--pid=", 6) || !strncmp(a, "--wake-flags=", 13))
		return 1;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: wakesim replay TRACE [--comm GLOB]... [--pid PID]... [--wake-flags "
		       "none|sync]\n"
		       "                      [--threads] [run options: --machine M, --features F, ...]\n"
		       "The same as wakesim run [run options] -- replay [replay options] TRACE;\n"
		       "see wakesim workloads replay, and compare -- replay TRACE for a comparison.\n");
		return 0;
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "wakesim replay: TRACE missing: wakesim replay TRACE [options] (a perf "
			"script, ftrace text or trace.dat file)\n");
		return 2;
	}
	char **run = calloc((size_t)argc + 4, sizeof(*run)), **wl = calloc((size_t)argc + 2, sizeof(*wl));
	int nr = 0, nw = 0;

	if (!run || !wl) {
		fprintf(stderr, "wakesim replay: out of memory\n");
		free(run);
		free(wl);
		return 1;
	}
	run[nr++] = "replay";	/* cmd_run() names itself so in its messages */
	wl[nw++] = "replay";
	for (int i = 2; i < argc; i++) {
		int k = replay_option(argv[i]);

		if (!strcmp(argv[i], "--")) {
			fprintf(stderr, "wakesim replay: \"--\" is not needed: the workload is TRACE\n");
			free(run);
			free(wl);
			return 2;
		}
		if (!k) {
			if (argv[i][0] != '-') {
				fprintf(stderr, "wakesim replay: one TRACE (%s) is given; \"%s\" is another: "
					"replay one trace at a time\n", argv[1], argv[i]);
				free(run);
				free(wl);
				return 2;
			}
			run[nr++] = argv[i];
			if (run_option_takes_value(argv[i]) && i + 1 < argc)
				run[nr++] = argv[++i];
			continue;
		}
		wl[nw++] = argv[i];
		if (k == 2 && i + 1 >= argc) {
			fprintf(stderr, "wakesim replay: option %s needs a value\n", argv[i]);
			free(run);
			free(wl);
			return 2;
		}
		if (k == 2)
			wl[nw++] = argv[++i];
	}
	wl[nw++] = argv[1];
	run[nr++] = "--";
	for (int i = 0; i < nw; i++)
		run[nr++] = wl[i];
	int ret = cmd_run(nr, run);

	free(run);
	free(wl);
	return ret;
}
