/*
 * cmd_compare.c - `wakesim compare`: two sides (feature sets) times load
 * levels times seeds, and a table of means, changes and significance, as
 * mmtests' compare-kernels reads.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "report/metrics_out.h"
#include "report/stats.h"
#include "workload/workload.h"

#define MAX_LOADS 64
#define SIGNIFICANCE_P 0.05

/*
 * The built-in default: S2's command (hackbench -g 32 -f 20 --threads
 * --pipe -l 480000 -s 100 on 2x EPYC 9654) with loops scaled down so both
 * sides run in under a minute on two cores; mainline vs IDLE_DELAY.
 */
static char *default_workload[] = { "hackbench", "-g", "32", "-f", "20", "--threads",
				    "--pipe", "-l", "400", "-s", "100", NULL };

static const char compare_usage[] =
	"Usage: wakesim compare [--machine M] [--kernel K] [--cost-profile P] [--base FEATURES]\n"
	"                       --test FEATURES [--runs N] [--seed FIRST] [--loads NAME=V1,V2,...]\n"
	"                       [--sysctl NAME=VALUE]... [--node N | --cpus LIST]\n"
	"                       [-j N] [--json] [-o FILE] -- WORKLOAD [ARGS...]\n"
	"Runs both sides N times (default 5; seeds FIRST..FIRST+N-1) per load level.\n"
	"--base defaults to \"default\" (the --kernel profile's). --loads g=2,4 appends \"-g 2\", then\n"
	"\"-g 4\", to the workload's arguments (overriding the same option there); a\n"
	"long name appends \"--name V\", or the option a workload names it by\n"
	"(`wakesim workloads`: tbench clients=8 gives --nprocs 8, pgbench clients=8\n"
	"gives -c 8). Change is positive when test is better; *x%*\n"
	"marks significance (Welch's t-test, p < 0.05).\n"
	"Without a workload: S2's `hackbench -g 32 -f 20 --threads --pipe -l 400 -s 100`\n"
	"(loops scaled down from 480000), on epyc9654-2s and with --test IDLE_DELAY\n"
	"unless given; other options apply.\n";

struct load_level {
	char label[64];
	char opt[80];		/* the argument added, e.g. "-g" */
	char val[64];
};

static int parse_loads(const char *s, const char *argv0, struct load_level *lv, int *n)
{
	const char *eq = strchr(s, '=');
	char name[64], vals[1024], *save = NULL;

	if (!eq || eq == s || (size_t)(eq - s) >= 40 || !eq[1]) {
		fprintf(stderr, "wakesim compare: --loads \"%s\": expected NAME=V1,V2,...\n", s);
		return -1;
	}
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = '\0';
	snprintf(vals, sizeof(vals), "%s", eq + 1);
	*n = 0;
	for (char *v = strtok_r(vals, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_LOADS) {
			fprintf(stderr, "wakesim compare: --loads: at most %d levels\n", MAX_LOADS);
			return -1;
		}
		if (strlen(v) >= sizeof(lv->val) - 1) {
			fprintf(stderr, "wakesim compare: --loads: value \"%.20s...\" too long\n", v);
			return -1;
		}
		struct load_level *l = &lv[(*n)++];

		snprintf(l->label, sizeof(l->label), "%s=%s", name, v);
		snprintf(l->val, sizeof(l->val), "%s", v);
		if (workload_load_option(argv0, name, l->opt, sizeof(l->opt))) {
			fprintf(stderr, "wakesim compare: --loads \"%s\": \"%s\" is not an option name\n",
				s, name);
			return -1;
		}
	}
	/* strtok_r skips empty fields: count the commas to refuse them. */
	int commas = 0;

	for (const char *c = eq + 1; *c; c++)
		commas += *c == ',';
	if (commas != *n - 1 || eq[1] == ',' || eq[strlen(eq) - 1] == ',') {
		fprintf(stderr, "wakesim compare: --loads \"%s\": empty value\n", s);
		return -1;
	}
	if (!*n) {
		fprintf(stderr, "wakesim compare: --loads \"%s\": no values\n", s);
		return -1;
	}
	return 0;
}

static void print_cmdline(FILE *f, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' }, { "cost-profile", required_argument, NULL, 'P' },
		{ "wc-threshold", required_argument, NULL, 'W' },
		{ "kernel", required_argument, NULL, 'K' }, { "base", required_argument, NULL, 'B' },
		{ "test", required_argument, NULL, 'T' },    { "runs", required_argument, NULL, 'r' },
		{ "loads", required_argument, NULL, 'L' },   { "sysctl", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 's' },    { "node", required_argument, NULL, 'N' },
		{ "cpus", required_argument, NULL, 'c' },    { "json", no_argument, NULL, 'J' },
		{ "output", required_argument, NULL, 'o' },  { "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },	     { NULL, 0, NULL, 0 },
	};
	struct common_opts o = { .node = -1, .seed = 1, .kver = KV_MAINLINE };
	const char *base = "default", *test = NULL, *loads = NULL;
	struct load_level lv[MAX_LOADS];
	int nloads = 1, runs = 5, jobs = host_cpus(), c, wargc;
	char **wargv;
	long v;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:o:j:h", longopts, NULL)) != -1) {
		int r = common_opt("compare", c, argc, argv, compare_usage, &o);

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'B':
			base = optarg;
			break;
		case 'T':
			test = optarg;
			break;
		case 'r':
			if (parse_count("compare", "--runs", optarg, 1, 1000, &v))
				return EXIT_USAGE;
			runs = (int)v;
			break;
		case 'L':
			if (loads) {
				fprintf(stderr, "wakesim compare: --loads given twice (one load dimension per comparison)\n");
				return EXIT_USAGE;
			}
			loads = optarg;
			break;
		case 'j':
			if (parse_count("compare", "-j", optarg, 1, 1024, &v))
				return EXIT_USAGE;
			jobs = (int)v;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return 0;
		}
	}
	if (optind >= argc) {
		/* The built-in comparison; options given still apply. */
		if (!o.machine)
			o.machine = "epyc9654-2s";
		if (!test)
			test = "IDLE_DELAY";
		wargc = (int)(sizeof(default_workload) / sizeof(default_workload[0])) - 1;
		wargv = default_workload;
	} else {
		if (!test) {
			fprintf(stderr, "wakesim compare: --test FEATURES is required\n");
			return EXIT_USAGE;
		}
		wargc = argc - optind;
		wargv = argv + optind;
	}
	if (o.seed > (uint64_t)INT64_MAX - (uint64_t)runs + 1) {
		fprintf(stderr, "wakesim compare: --seed %llu + %d runs goes past the largest seed\n",
			(unsigned long long)o.seed, runs);
		return EXIT_USAGE;
	}
	if (check_output_path("compare", o.output))
		return EXIT_USAGE;
	if (loads) {
		if (parse_loads(loads, wargv[0], lv, &nloads))
			return EXIT_USAGE;
	} else {
		snprintf(lv[0].label, sizeof(lv[0].label), "default");
		lv[0].opt[0] = '\0';
	}

	struct machine m;
	struct run_spec sides[2];

	if (load_machine(&o, &m))
		return EXIT_USAGE;
	if (build_spec(&o, &m, base, "--base", &sides[0]) ||
	    build_spec(&o, &m, test, "--test", &sides[1])) {
		machine_free(&m);
		return EXIT_USAGE;
	}
	if (!memcmp(&sides[0].features, &sides[1].features, sizeof(sides[0].features))) {
		char f[512];

		sched_features_describe(&sides[0].features, f, sizeof(f));
		fprintf(stderr, "wakesim compare: --base and --test both give features %s: nothing to "
			"compare\n", f);
		machine_free(&m);
		return EXIT_USAGE;
	}

	/* Utilisation is over the CPUs the workload may use. */
	int ncpu_allowed = cpumask_weight(&sides[0].allowed);

	/* One spec per (load, side): the workload's argv plus the load option. */
	int nspec = 2 * nloads, njob = nspec * runs;
	struct run_spec *specs = calloc((size_t)nspec, sizeof(*specs));
	char ***argvs = calloc((size_t)nloads, sizeof(*argvs));
	const struct run_spec **jobspec = calloc((size_t)njob, sizeof(*jobspec));
	uint64_t *seeds = calloc((size_t)njob, sizeof(*seeds));
	struct run_outcome *out = calloc((size_t)njob, sizeof(*out));
	double *vals = calloc((size_t)runs * 2, sizeof(*vals));
	int ret = 1;
	struct out_buf ob = { 0 };

	if (!specs || !argvs || !jobspec || !seeds || !out || !vals) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto done;
	}
	for (int l = 0; l < nloads; l++) {
		char **a = calloc((size_t)wargc + 3, sizeof(*a));

		if (!a) {
			fprintf(stderr, "wakesim: out of memory\n");
			goto done;
		}
		argvs[l] = a;
		memcpy(a, wargv, sizeof(*a) * (size_t)wargc);
		int n = wargc;

		if (lv[l].opt[0]) {
			a[n++] = lv[l].opt;
			a[n++] = lv[l].val;
		}
		for (int s = 0; s < 2; s++) {
			specs[2 * l + s] = sides[s];
			specs[2 * l + s].argc = n;
			specs[2 * l + s].argv = a;
		}
		bool help;
		char err[2048];
		struct workload *wl = workload_create(n, a, &help, err, sizeof(err));

		if (!wl) {
			fprintf(help ? stdout : stderr, "%s%s\n", help ? "" : "wakesim compare: ", err);
			ret = help ? 0 : EXIT_USAGE;
			goto done;
		}
		wl->ops->free(wl);
	}
	for (int j = 0; j < njob; j++) {
		jobspec[j] = &specs[j / runs];
		seeds[j] = o.seed + (uint64_t)(j % runs);
	}
	{
		char err[256];

		if (run_many(njob, jobspec, seeds, out, jobs, err, sizeof(err))) {
			fprintf(stderr, "wakesim compare: %s\n", err);
			goto done;
		}
	}
	for (int j = 0; j < njob; j++)
		if (!out[j].ok) {
			fprintf(stderr, "wakesim compare: load %s, %s side, seed %llu: %s\n",
				lv[j / runs / 2].label, (j / runs) % 2 ? "test" : "base",
				(unsigned long long)seeds[j], out[j].err);
			if (out[j].bad_input)
				ret = EXIT_USAGE;
			goto done;
		}
	if (out_open(&ob)) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto done;
	}

	bool hib = out[0].higher_is_better;
	const char *unit = out[0].unit;
	char bdesc[512], tdesc[512];

	sched_features_describe(&sides[0].features, bdesc, sizeof(bdesc));
	sched_features_describe(&sides[1].features, tdesc, sizeof(tdesc));
	char cpus[4096], sysctls[512];

	describe_binding(&sides[0], cpus, sizeof(cpus));
	describe_sysctls(&sides[0], sysctls, sizeof(sysctls));
	json_object *root = NULL, *rows = NULL;

	if (o.json) {
		char cmd[4096];
		FILE *cf = fmemopen(cmd, sizeof(cmd), "w");

		print_cmdline(cf, wargc, wargv);
		fclose(cf);
		root = json_object_new_object();
		rows = json_object_new_array();
		json_object_object_add(root, "wakesim_version", json_object_new_string("0.1.0"));
		json_object_object_add(root, "machine", json_object_new_string(m.name));
		json_object_object_add(root, "workload", json_object_new_string(cmd));
		json_object_object_add(root, "base_features", json_object_new_string(bdesc));
		json_object_object_add(root, "test_features", json_object_new_string(tdesc));
		json_object_object_add(root, "sysctls", json_object_new_string(sysctls));
		json_object_object_add(root, "kernel", json_object_new_string(kernel_version_name(o.kver)));
		json_object_object_add(root, "cost_profile",
				       json_object_new_string(m.cost_profile[0] ? m.cost_profile : "default"));
		json_object_object_add(root, "cpus", json_object_new_string(cpus));
		json_object_object_add(root, "runs", json_object_new_int(runs));
		json_object_object_add(root, "first_seed", json_object_new_int64((int64_t)o.seed));
		json_object_object_add(root, "unit", json_object_new_string(unit));
		json_object_object_add(root, "higher_is_better", json_object_new_boolean(hib));
		json_object_object_add(root, "mean", json_object_new_string(hib ? "hmean" : "amean"));
		json_object_object_add(root, "significance_p",
				       json_object_new_double(SIGNIFICANCE_P));
	} else {
		fprintf(ob.f, "wakesim compare: ");
		print_cmdline(ob.f, wargc, wargv);
		fprintf(ob.f, "\nmachine %s (%d CPUs), kernel %s, costs %s, workload on %s%s, sysctls %s\n",
			m.name, m.topo.nr_cpus, kernel_version_name(o.kver),
			m.cost_profile[0] ? m.cost_profile : "default",
			strcmp(cpus, "all") ? "CPUs " : "", strcmp(cpus, "all") ? cpus : "all CPUs",
			sysctls);
		if (runs > 1)
			fprintf(ob.f, "%d runs per side (seeds %llu-%llu)", runs,
				(unsigned long long)o.seed,
				(unsigned long long)(o.seed + (uint64_t)runs - 1));
		else
			fprintf(ob.f, "1 run per side (seed %llu; no spread, no significance)",
				(unsigned long long)o.seed);
		fprintf(ob.f, "; %s of %s, %s is better\n", hib ? "Hmean" : "Amean", unit,
			hib ? "higher" : "lower");
		fprintf(ob.f, "base: %s\ntest: %s\n\n", bdesc, tdesc);
		fprintf(ob.f, "%-14s %14s %10s %14s %10s %12s\n", "load", "base", "stddev", "test",
			"stddev", "change");
	}
	struct metrics_view *means = calloc((size_t)nspec, sizeof(*means));

	if (!means) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto done;
	}
	/* Mean metrics per (load, side), for both output formats. */
	for (int sp = 0; sp < nspec; sp++)
		for (int r = 0; r < runs; r++) {
			struct metrics_view one;

			metrics_view(&out[sp * runs + r].met, ncpu_allowed, &one);
			for (int d = 0; d < nr_metric_defs; d++)
				means[sp].v[d] += one.v[d] / runs;
		}
	for (int l = 0; l < nloads; l++) {
		struct summary s[2];
		double *bv = vals, *tv = vals + runs;

		for (int sd = 0; sd < 2; sd++) {
			for (int r = 0; r < runs; r++)
				(sd ? tv : bv)[r] = out[(2 * l + sd) * runs + r].result;
			summarize(sd ? tv : bv, runs, hib, &s[sd]);
		}
		double change = change_pct(s[0].mean, s[1].mean, hib);
		double p = welch_p(bv, runs, tv, runs);
		bool sig = p < SIGNIFICANCE_P;

		if (o.json) {
			json_object *row = json_object_new_object();

			json_object_object_add(row, "load", json_object_new_string(lv[l].label));
			for (int sd = 0; sd < 2; sd++) {
				json_object *side = json_object_new_object(), *arr = json_object_new_array();
				json_object *dg = json_object_new_object();

				json_object_object_add(side, "mean", json_object_new_double(s[sd].mean));
				json_object_object_add(side, "stddev", json_object_new_double(s[sd].stddev));
				json_object_object_add(side, "min", json_object_new_double(s[sd].min));
				json_object_object_add(side, "max", json_object_new_double(s[sd].max));
				for (int r = 0; r < runs; r++)
					json_object_array_add(arr, json_object_new_double((sd ? tv : bv)[r]));
				json_object_object_add(side, "values", arr);
				for (int d = 0; d < nr_metric_defs; d++)
					if (metric_defs[d].diagnostic)
						json_object_object_add(dg, metric_defs[d].name,
								       json_object_new_double(means[2 * l + sd].v[d]));
				json_object_object_add(side, "metrics", dg);
				json_object_object_add(row, sd ? "test" : "base", side);
			}
			json_object_object_add(row, "change_pct", json_object_new_double(change));
			json_object_object_add(row, "p_value", json_object_new_double(p));
			json_object_object_add(row, "significant", json_object_new_boolean(sig));
			json_object_array_add(rows, row);
		} else {
			char ch[32];

			snprintf(ch, sizeof(ch), sig ? "*%7.2f%%*" : "(%7.2f%%)", change);
			fprintf(ob.f, "%-14s %14.4f %10.4f %14.4f %10.4f %12s\n", lv[l].label, s[0].mean,
				s[0].stddev, s[1].mean, s[1].stddev, ch);
		}
	}
	if (!o.json) {
		fprintf(ob.f, "\ndiagnostics (mean over runs, per load: base / test)\n");
		for (int l = 0; l < nloads; l++) {
			fprintf(ob.f, "%s\n", lv[l].label);
			for (int d = 0; d < nr_metric_defs; d++) {
				const struct metric_def *md = &metric_defs[d];
				double a = means[2 * l].v[d], b = means[2 * l + 1].v[d];

				if (!md->diagnostic || (md->only_if_nonzero && a == 0 && b == 0))
					continue;
				fprintf(ob.f, "  %-26s %14.2f %14.2f\n", md->name, a, b);
			}
		}
	} else {
		json_object_object_add(root, "rows", rows);
		fprintf(ob.f, "%s\n",
			json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	}
	free(means);
	ret = out_commit(&ob, o.output) ? 1 : 0;
done:
	if (ob.f)
		out_discard(&ob);
	if (argvs)
		for (int l = 0; l < nloads; l++)
			free(argvs[l]);
	free(argvs);
	free(specs);
	free(jobspec);
	free(seeds);
	free(out);
	free(vals);
	machine_free(&m);
	return ret;
}
