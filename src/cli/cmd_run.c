/*
 * cmd_run.c - `wakesim run`: one simulation, the benchmark's own output,
 * then the run's metrics (text, or JSON with --json).
 */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "args.h"
#include "kern/trace.h"
#include "report/progress.h"
#include "workload/launcher.h"
#include "commands.h"
#include "report/metrics_out.h"
#include "workload/workload.h"
#include "policy/registry.h"

/* The command's name in messages: "run", or "replay" when cmd_replay() calls. */
static const char *me = "run";
static char me_tool[32] = "wakesim run";

static const char run_usage[] =
	"Usage: wakesim run [--machine M] [--kernel K] [--cost-profile P] [--features F]\n"
	"                   [--policy NAME|FILE.so] [--sysctl NAME=VALUE]... [--seed N]\n"
	"                   [--node N | --cpus LIST]\n"
	"                   [--wc-threshold T] [--cgroup PATH] [--cpu-dma-latency US]\n"
	"                   [--schedstat FILE] [--trace FILE]\n"
	"                   [--trace-window FROM:TO] [--trace-max-size SIZE] [--json]\n"
	"                   [-o FILE] [--quiet]\n"
	"                   -- WORKLOAD [ARGS...]\n"
	"Runs one simulation and prints the benchmark's output and the run's metrics.\n"
	"--kernel: v5.12, v6.4 (CFS), v6.6 or mainline (EEVDF, the default): the\n"
	"profile's pick, wake-up path and defaults (docs/kernel-model.md).\n"
	"--policy: the wake-up policy, mainline (default), scx-default, or a shared\n"
	"object built against include/wakesim/policy.h (`wakesim policies`).\n"
	"--cost-profile: a built-in profile (costs/NAME.json) or a file such as\n"
	"`wakesim calibrate` writes; it replaces the machine's own costs.\n"
	"--wc-threshold: the shortest idle-while-a-task-waits interval the\n"
	"work-conservation checker counts (default 1ms; e.g. 500us).\n"
	"--cgroup PATH: the workload runs in this cgroup (e.g.\n"
	"/user.slice/user-0.slice/session-1.scope), one task group per level, each\n"
	"with the tg->load_avg every CPU updates and reads (default: the root).\n"
	"--cpu-dma-latency US: a PM QoS limit, as written to /dev/cpu_dma_latency\n"
	"(tuned's force_latency): the cpuidle governor chooses no idle state whose\n"
	"exit latency exceeds US microseconds (2 on spr-8480-2s: C1E and shallower).\n"
	"--schedstat FILE: also write the run's counters as /proc/schedstat shows\n"
	"them (version 15, or 16 on mainline), for tools that diff schedstat.\n"
	"--trace FILE: write the sched events (switch, waking, wakeup, wakeup_new,\n"
	"migrate_task, process_fork, process_exit) as ftrace text, as\n"
	"/sys/kernel/tracing/trace shows them (wakesim replay reads it back);\n"
	"--trace-max-size SIZE: stop the trace's events at SIZE bytes (K, M, G, T\n"
	"suffixes are 2^10..2^40; default 1G, 0 for no bound), with a marker line;\n"
	"wakesim warns once the run's progress says the trace will get there.\n"
	"--trace-window FROM:TO (seconds of simulated time, e.g.\n"
	"0.1:0.2) keeps only those in [FROM, TO).\n"
	"On a terminal, the progress shows on stderr unless --quiet.\n";

static void show_progress(const struct sim *sim, void *arg)
{
	const struct workload_ops *ops = sim->wl->ops;
	double frac = ops->done_fraction ? ops->done_fraction(sim, sim->wl) : -1;

	progress_sim(arg, frac, (double)sim->now / 1e9, (unsigned long long)sim->met.events);
}

/* --trace-max-size SIZE: bytes, with K/M/G/T (2^10..2^40); 0 is no bound. */
static int parse_size(const char *arg, u64 *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end != arg && *end && !end[1])
		switch (*end) {
		case 'K': case 'k': shift = 10; end++; break;
		case 'M': case 'm': shift = 20; end++; break;
		case 'G': case 'g': shift = 30; end++; break;
		case 'T': case 't': shift = 40; end++; break;
		}
	if (end == arg || *end || errno || !isdigit((unsigned char)arg[0]) ||
	    v > (UINT64_MAX >> 1) >> shift) {
		fprintf(stderr, "wakesim %s: --trace-max-size \"%s\": expected a size in bytes, "
			"with an optional K, M, G or T suffix (0: no bound)\n", me, arg);
		return -1;
	}
	*out = (u64)v << shift;
	return 0;
}

static void trace_estimate_warning(const struct ftrace *t)
{
	fprintf(stderr, "wakesim %s: warning: --trace: at this run's pace its trace would be about "
		"%.0f MB; it stops at --trace-max-size (%.0f MB) with a marker line (--trace-window "
		"keeps a part, --trace-max-size 0 all)\n", me, (double)t->estimate_bytes / 1e6,
		(double)t->max_bytes / 1e6);
}

/* --trace-window FROM:TO, seconds of simulated time, FROM < TO. */
static int parse_window(const char *arg, u64 *from, u64 *to)
{
	char a[64], *colon;

	snprintf(a, sizeof(a), "%s", arg);
	colon = strchr(a, ':');
	if (!colon) {
		fprintf(stderr, "wakesim %s: --trace-window \"%s\": expected FROM:TO in seconds "
			"(e.g. 0.1:0.2)\n", me, arg);
		return -1;
	}
	*colon = '\0';
	char err[256];

	if (wl_parse_seconds(me_tool, "--trace-window FROM", a, 0, UINT64_MAX / 2, from, err,
			     sizeof(err)) ||
	    wl_parse_seconds(me_tool, "--trace-window TO", colon + 1, 0, UINT64_MAX / 2, to,
			     err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (*from >= *to) {
		fprintf(stderr, "wakesim %s: --trace-window \"%s\": FROM must be before TO\n", me, arg);
		return -1;
	}
	return 0;
}

/* Copy the header and the buffered events to out; false on a write error. */
static bool write_trace(FILE *out, struct ftrace *t, int nr_cpus)
{
	char buf[1 << 16];
	size_t n;
	bool ok;

	trace_write_header(out, t->nr, nr_cpus);
	rewind(t->f);
	ok = !ferror(t->f);
	while (ok && (n = fread(buf, 1, sizeof(buf), t->f)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	return !ferror(t->f) && ok;
}

/*
 * The trace file: the header (it needs the event count, known at the end)
 * then the events. A regular file is written beside path and renamed, so
 * a reader never sees half a trace; a device or FIFO (/dev/null) is
 * written in place, never replaced. Symlinks are written through.
 */
static int commit_trace(const char *path, struct ftrace *t, int nr_cpus)
{
	char target[4096], tmp[4200];
	struct stat st;
	FILE *out;
	int fd;

	if (fflush(t->f) || ferror(t->f)) {
		fprintf(stderr, "wakesim %s: --trace %s: buffering the events failed: %s\n", me, path,
			strerror(errno ? errno : EIO));
		return -1;
	}
	if (!realpath(path, target))
		snprintf(target, sizeof(target), "%s", path);
	if (!stat(target, &st) && !S_ISREG(st.st_mode)) {
		out = fopen(target, "w");
		bool ok = out && write_trace(out, t, nr_cpus);

		if (out)
			ok = (fclose(out) == 0) && ok;
		if (!ok) {
			fprintf(stderr, "wakesim %s: --trace %s: %s\n", me, path,
				strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", target);
	fd = mkstemp(tmp);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		fprintf(stderr, "wakesim %s: --trace %s: cannot create a temporary file beside it: %s\n",
			me,
			path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	/* mkstemp() makes 0600: give the trace the umask's usual mode. */
	mode_t um = umask(0);

	umask(um);
	fchmod(fd, 0666 & ~um);
	bool ok = write_trace(out, t, nr_cpus);

	ok = (fclose(out) == 0) && ok;
	if (!ok || rename(tmp, target)) {
		fprintf(stderr, "wakesim %s: --trace %s: %s\n", me, path, strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * The events' buffer: an unnamed file beside the trace (not in /tmp,
 * which may be smaller), so its disk is the one the trace goes to.
 */
static FILE *trace_buffer(const char *path)
{
	char tmp[4200];
	const char *slash = strrchr(path, '/');
	int fd;

	snprintf(tmp, sizeof(tmp), "%.*s.wakesim-trace-XXXXXX", slash ? (int)(slash - path + 1) : 0,
		 path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return tmpfile();
	unlink(tmp);
	FILE *f = fdopen(fd, "w+");

	if (!f)
		close(fd);
	return f;
}

static void join_args(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

static const struct option run_longopts[] = {
	{ "machine", required_argument, NULL, 'm' }, { "cost-profile", required_argument, NULL, 'P' },
	{ "wc-threshold", required_argument, NULL, 'W' },
	{ "kernel", required_argument, NULL, 'K' }, { "features", required_argument, NULL, 'F' },
	{ "sysctl", required_argument, NULL, 'S' },  { "seed", required_argument, NULL, 's' },
	{ "node", required_argument, NULL, 'N' },    { "cpus", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'J' },	     { "output", required_argument, NULL, 'o' },
	{ "schedstat", required_argument, NULL, 'X' },
	{ "trace", required_argument, NULL, 'R' },
	{ "trace-window", required_argument, NULL, 'w' },
	{ "trace-max-size", required_argument, NULL, 'Z' },
	{ "quiet", no_argument, NULL, 'q' },	     { "policy", required_argument, NULL, OPT_POLICY },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "cpu-dma-latency", required_argument, NULL, OPT_CPU_DMA_LATENCY },
	{ "help", no_argument, NULL, 'h' },	     { NULL, 0, NULL, 0 },
};

bool run_option_takes_value(const char *arg)
{
	if (!strcmp(arg, "-o"))
		return true;
	for (const struct option *o = run_longopts; o->name; o++)
		if (!strncmp(arg, "--", 2) && !strcmp(arg + 2, o->name))
			return o->has_arg == required_argument;
	return false;
}

int cmd_run(int argc, char **argv)
{
	struct common_opts o = { .node = -1, .seed = 1, .kver = KV_MAINLINE };
	struct run_spec spec;
	struct run_outcome res;
	struct machine m;
	struct out_buf ob;
	char *report = NULL, cmdline[4096], feats[512];
	const char *schedstat_path = NULL, *trace_path = NULL;
	/* The default bound keeps a laptop's disk: 1 GiB. */
	struct ftrace tr = { .from_ns = 0, .to_ns = UINT64_MAX, .max_bytes = 1ULL << 30,
			     .on_estimate = trace_estimate_warning };
	bool window = false, max_size = false, quiet = false;
	struct progress bar;
	size_t report_len = 0;
	int c;

	me = strcmp(argv[0], "replay") ? "run" : "replay";
	snprintf(me_tool, sizeof(me_tool), "wakesim %s", me);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", run_longopts, NULL)) != -1) {
		int r = common_opt(me, c, argc, argv, run_usage, &o);

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'F':
			o.features = optarg;
			break;
		case 'X':
			schedstat_path = optarg;
			break;
		case 'R':
			trace_path = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'w':
			if (parse_window(optarg, &tr.from_ns, &tr.to_ns))
				return EXIT_USAGE;
			window = true;
			break;
		case 'Z':
			if (parse_size(optarg, &tr.max_bytes))
				return EXIT_USAGE;
			max_size = true;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return 0;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "wakesim %s: no workload (put it after --)\n%s", me, run_usage);
		return EXIT_USAGE;
	}
	if (check_output_path(me, "-o", o.output) ||
	    check_output_path(me, "--schedstat", schedstat_path) ||
	    check_output_path(me, "--trace", trace_path) ||
	    check_distinct_outputs(me, "-o", o.output, "--schedstat", schedstat_path) ||
	    check_distinct_outputs(me, "-o", o.output, "--trace", trace_path) ||
	    check_distinct_outputs(me, "--schedstat", schedstat_path, "--trace", trace_path))
		return EXIT_USAGE;
	if ((window || max_size) && !trace_path) {
		fprintf(stderr, "wakesim %s: %s without --trace FILE\n", me,
			window ? "--trace-window" : "--trace-max-size");
		return EXIT_USAGE;
	}
	if (load_machine(&o, &m))
		return EXIT_USAGE;
	if (build_spec("run", &o, &m, o.features, "--features", &spec)) {
		machine_free(&m);
		return EXIT_USAGE;
	}
	spec.argc = argc - optind;
	spec.argv = argv + optind;
	{
		/* Bad workload flags are a usage error, found before simulating. */
		bool help;
		char err[2048];
		struct workload *wl = workload_create(spec.argc, spec.argv, &help, err, sizeof(err));

		if (!wl) {
			fprintf(help ? stdout : stderr, "%s%s%s%s\n", help ? "" : "wakesim ", help ? "" : me,
				help ? "" : ": ", err);
			machine_free(&m);
			return help ? 0 : EXIT_USAGE;
		}
		wl->ops->free(wl);
	}
	FILE *rep = open_memstream(&report, &report_len);
	struct out_buf sob = { 0 };

	if (schedstat_path && out_open(&sob)) {
		if (rep)
			fclose(rep);
		free(report);
		fprintf(stderr, "wakesim: out of memory\n");
		machine_free(&m);
		return 1;
	}
	spec.schedstat = sob.f;
	if (trace_path) {
		tr.f = trace_buffer(trace_path);
		if (!tr.f) {
			fprintf(stderr, "wakesim %s: a temporary file for --trace: %s\n", me,
				strerror(errno));
			if (rep)
				fclose(rep);
			free(report);
			if (sob.f)
				out_discard(&sob);
			machine_free(&m);
			return 1;
		}
		spec.trace = &tr;
	}
	progress_start(&bar, stderr, !quiet, 1, me);
	if (bar.f) {
		spec.progress = show_progress;
		spec.progress_arg = &bar;
	}
	int failed = !rep || run_one(&spec, o.seed, &res, rep);

	progress_end(&bar);
	if (failed) {
		if (rep)
			fclose(rep);
		free(report);
		if (sob.f)
			out_discard(&sob);
		if (tr.f)
			fclose(tr.f);
		fprintf(stderr, "wakesim %s: %s\n", me, rep ? res.err : "out of memory");
		machine_free(&m);
		return rep && res.bad_input ? EXIT_USAGE : 1;
	}
	fclose(rep);
	join_args(spec.argc, spec.argv, cmdline, sizeof(cmdline));
	sched_features_describe(&spec.features, spec.tunables.kver, feats, sizeof(feats));
	char cpus[4096], sysctls[512];

	describe_binding(&spec, cpus, sizeof(cpus));
	describe_sysctls(&spec, sysctls, sizeof(sysctls));

	struct metrics_view mv;

	metrics_view(&res.met, cpumask_weight(&spec.allowed), &mv);
	warn_policy_fallbacks(me, (unsigned long long)res.met.policy_fallbacks);
	if (out_open(&ob)) {
		fprintf(stderr, "wakesim: out of memory\n");
		free(report);
		machine_free(&m);
		return 1;
	}
	if (o.json) {
		json_object *root = json_object_new_object(), *r = json_object_new_object();

		json_object_object_add(root, "wakesim_version", json_object_new_string(WAKESIM_VERSION));
		json_object_object_add(root, "wakesim_commit", json_object_new_string(WAKESIM_COMMIT));
		json_object_object_add(root, "machine", json_object_new_string(m.name));
		json_object_object_add(root, "nr_cpus", json_object_new_int(m.topo.nr_cpus));
		json_object_object_add(root, "features", json_object_new_string(feats));
		json_object_object_add(root, "policy", json_object_new_string(policy_name(spec.policy)));
		json_object_object_add(root, "sysctls", json_object_new_string(sysctls));
		json_object_object_add(root, "kernel", json_object_new_string(kernel_version_name(o.kver)));
		json_object_object_add(root, "cost_profile",
				       json_object_new_string(m.cost_profile[0] ? m.cost_profile : "default"));
		json_object_object_add(root, "cpus", json_object_new_string(cpus));
		json_object *as = json_object_new_array();

		for (int i = 0; i < MACHINE_ASSUMED_NR; i++)
			if (m.assumed[i][0])
				json_object_array_add(as, json_object_new_string(m.assumed[i]));
		if (json_object_array_length(as))
			json_object_object_add(root, "assumed", as);
		else
			json_object_put(as);
		json_object_object_add(root, "seed", json_object_new_int64((int64_t)o.seed));
		json_object_object_add(root, "workload", json_object_new_string(cmdline));
		/* A replay's command is run's: rerun takes the run form. */
		char *argv0 = argv[0];

		argv[0] = (char *)"run";
		json_object_object_add(root, "command", invocation_json(argc, argv));
		argv[0] = argv0;
		/* null: the run has no figure (workload_ops.result) */
		json_object_object_add(r, "value", isnan(res.result) ? NULL
								    : json_object_new_double(res.result));
		json_object_object_add(r, "unit", json_object_new_string(res.unit));
		json_object_object_add(r, "higher_is_better",
				       json_object_new_boolean(res.higher_is_better));
		if (res.steady.asked)
			json_object_object_add(r, "steady", steady_json(&res.steady));
		json_object_object_add(root, "result", r);
		json_object_object_add(root, "output", json_object_new_string(report));
		json_object_object_add(root, "metrics", metrics_json(&m, &mv));
		fprintf(ob.f, "%s\n",
			json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		fputs(report, ob.f);
		fprintf(ob.f, "\nwakesim: machine %s (%d CPUs), kernel %s, costs %s, workload on %s%s, "
			      "features %s%s%s, sysctls %s, seed %llu\n",
			m.name, m.topo.nr_cpus, kernel_version_name(o.kver),
			m.cost_profile[0] ? m.cost_profile : "default",
			strcmp(cpus, "all") ? "CPUs " : "", strcmp(cpus, "all") ? cpus : "all CPUs", feats,
			spec.policy ? ", policy " : "", spec.policy ? policy_name(spec.policy) : "",
			sysctls, (unsigned long long)o.seed);
		machine_print_assumed(ob.f, &m, "wakesim: ");
		if (isnan(res.result))
			fprintf(ob.f, "  %-28s %14s %s\n", "result", "n/a", res.unit);
		else
			fprintf(ob.f, "  %-28s %14.6f %s\n", "result", res.result, res.unit);
		metrics_print(ob.f, &m, &mv);
		placements_print(ob.f, &mv, spec.policy ? policy_name(spec.policy) : NULL);
	}
	free(report);
	int nr_cpus = m.topo.nr_cpus;

	machine_free(&m);
	/* The main output first: if it fails, no side output is left behind. */
	if (out_commit(&ob, o.output)) {
		if (sob.f)
			out_discard(&sob);
		if (tr.f)
			fclose(tr.f);
		return 1;
	}
	if (schedstat_path && out_commit(&sob, schedstat_path)) {
		if (tr.f)
			fclose(tr.f);
		return 1;
	}
	if (trace_path && !tr.nr && tr.from_ns >= res.met.run_ns)
		fprintf(stderr, "wakesim %s: warning: --trace-window starts at %.6f s, after the run "
			"ended (%.6f s simulated): the trace has no events\n", me,
			(double)tr.from_ns / 1e9, (double)res.met.run_ns / 1e9);
	if (trace_path && tr.cut)
		fprintf(stderr, "wakesim %s: warning: --trace %s stopped at --trace-max-size (%llu bytes) "
			"at %.6f s of simulated time, with a marker line: the events after it are not "
			"in it\n", me, trace_path, (unsigned long long)tr.max_bytes,
			(double)tr.cut_ns / 1e9);
	if (trace_path) {
		int bad = commit_trace(trace_path, &tr, nr_cpus);

		fclose(tr.f);
		if (bad)
			return 1;
	}
	return 0;
}
