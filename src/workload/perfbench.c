/*
 * perfbench.c - `perf bench [-r N] [-f FORMAT] COLLECTION BENCHMARK ...`
 * (tools/perf/builtin-bench.c): perf bench's own options, then the
 * benchmark's parser.
 */
#include "perfbench.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "launcher.h"

#define PERF_DEFAULT_REPEAT 10	/* builtin-bench.c's bench_repeat */
#define PERF_MAX_REPEAT 100	/* runs of a repeating benchmark: each keeps its exited threads */

const char perf_usage[] =
	"Usage: perf bench [-r N] [-f default|simple] sched pipe [-l LOOPS] [-T]\n"
	"       perf bench [-r N] [-f default|simple] futex wake [-t N] [-w N] [-s] [-S]\n"
	"  -r, --repeat N   runs of futex wake, averaged (default 10, at most 100)\n"
	"  -f, --format F   default, or simple: sched pipe prints only its total seconds\n"
	"sched pipe: two tasks ping-pong an int over two pipes, -l round trips\n"
	"  (default 1000000), -T as two threads; result: usecs/op. Pin it as perf\n"
	"  runs under taskset: --cpus 0.\n"
	"futex wake: -t threads (default one per CPU, at most 16384), each pinned to a CPU in\n"
	"  turn, sleep on one futex; one thread wakes them -w at a time (default\n"
	"  1) and times it; -s prints no per-run line, -S uses a shared futex\n"
	"  (no difference here); result: the mean of the runs' times, ms.\n";

void perf_opt_fail(int c, const char *tool, int argc, char **argv, char *err, size_t errlen,
		   bool *help)
{
	if (c == 'h') {
		*help = true;
		snprintf(err, errlen, "%s", perf_usage);
	} else if (c == ':') {
		snprintf(err, errlen, "%s: option %s needs a value", tool, argv[optind - 1]);
	} else {
		wl_bad_option(tool, argc, argv, err, errlen);
	}
}

int perf_no_operands(const char *tool, int argc, char **argv, char *err, size_t errlen)
{
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument \"%s\"", tool, argv[optind]);
		return -1;
	}
	return 0;
}

struct workload *perf_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	struct perf_bench_opts o = { .repeat = PERF_DEFAULT_REPEAT };

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		*help = true;
		snprintf(err, errlen, "%s", perf_usage);
		return NULL;
	}
	if (argc < 2 || strcmp(argv[1], "bench")) {
		snprintf(err, errlen, "perf: only \"perf bench\" is simulated (got \"perf%s%s\")",
			 argc >= 2 ? " " : "", argc >= 2 ? argv[1] : "");
		return NULL;
	}
	/*
	 * perf bench's options come before the collection's name: getopt from
	 * "bench" on, stopping at the first operand ('+'), so -r2, --repeat=2
	 * and -fsimple read as perf reads them.
	 */
	static const struct option longopts[] = {
		{ "repeat", required_argument, NULL, 'r' }, { "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *tool = "perf bench";
	int c, bargc = argc - 1;
	char **bargv = argv + 1;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(bargc, bargv, "+:r:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (wl_parse_long(tool, "-r", optarg, 1, PERF_MAX_REPEAT, &o.repeat, err, errlen))
				return NULL;
			break;
		case 'f':
			if (!strcmp(optarg, "simple") || !strcmp(optarg, "default")) {
				o.simple = !strcmp(optarg, "simple");
				break;
			}
			snprintf(err, errlen, "perf bench: -f takes default or simple (got \"%s\")", optarg);
			return NULL;
		default:
			perf_opt_fail(c, tool, bargc, bargv, err, errlen, help);
			return NULL;
		}
	}
	int i = optind + 1;	/* the collection's index in argv */

	if (i >= argc) {
		snprintf(err, errlen, "perf bench: name a benchmark: \"sched pipe\" or \"futex wake\"");
		return NULL;
	}
	if (i + 1 < argc && !strcmp(argv[i], "sched") && !strcmp(argv[i + 1], "pipe"))
		return schedpipe_new(argc - i - 1, argv + i + 1, &o, err, errlen, help);
	if (i + 1 < argc && !strcmp(argv[i], "futex") && !strcmp(argv[i + 1], "wake"))
		return futexwake_create(argc - i - 1, argv + i + 1, &o, err, errlen, help);
	snprintf(err, errlen,
		 "perf bench: only \"sched pipe\" and \"futex wake\" are simulated (got \"%s%s%s\")",
		 argv[i], i + 1 < argc ? " " : "", i + 1 < argc ? argv[i + 1] : "");
	return NULL;
}
