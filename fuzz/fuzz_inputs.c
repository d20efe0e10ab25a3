/*
 * fuzz_inputs.c - libFuzzer targets for wakesim's input parsers (`make
 * fuzz`). The first byte picks the parser, the rest is the file it reads:
 * a machine JSON, an lscpu -p file, an hwloc XML, a cost profile, an
 * rt-app JSON, or a scheduler trace (perf script or ftrace text, or a
 * trace.dat, then derived into a replay plan). Every input must give
 * either a machine/workload or an error message; a crash, a sanitizer
 * report or a hang is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/machine.h"
#include "trace/derive.h"
#include "workload/workload.h"

static char path[64];

/* The parsers read files: give them one holding the input. */
static int write_input(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/wakesim-fuzz-%d", (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(data, 1, size, f);
	fclose(f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct machine m;
	char err[1024], spec[128];

	if (size < 1 || write_input(data + 1, size - 1))
		return 0;
	switch (data[0] % 6) {
	case 0:
		snprintf(spec, sizeof(spec), "%s", path);
		break;
	case 1:
		snprintf(spec, sizeof(spec), "lscpu:%s", path);
		break;
	case 2:
		snprintf(spec, sizeof(spec), "hwloc:%s", path);
		break;
	case 3:
		if (machine_load("epyc9654-2s", &m, err, sizeof(err)))
			abort(); /* a preset must load */
		machine_apply_cost_profile(&m, path, err, sizeof(err));
		machine_free(&m);
		return 0;
	case 4: {
		char *argv[] = { "rt-app", path, NULL };
		bool help;
		struct workload *wl = workload_create(2, argv, &help, err, sizeof(err));

		if (wl)
			wl->ops->free(wl);
		return 0;
	}
	case 5: {
		struct sched_trace tr = { 0 };
		struct replay_plan plan;

		if (sched_trace_read(path, &tr, err, sizeof(err)))
			return 0;
		if (!replay_derive(&tr, NULL, &plan, err, sizeof(err)))
			replay_plan_free(&plan);
		sched_trace_free(&tr);
		return 0;
	}
	}
	if (!machine_load(spec, &m, err, sizeof(err)))
		machine_free(&m);
	return 0;
}
