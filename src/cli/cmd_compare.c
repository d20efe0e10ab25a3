/*
 * cmd_compare.c - `wakesim compare`: sides (feature sets) times load
 * levels times seeds, run in parallel, reported by report/compare_out.c
 * as mmtests' compare-kernels lays its tables out.
 */
#include <math.h>
#include <ctype.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "report/compare_out.h"
#include "report/metrics_out.h"
#include "report/plot.h"
#include "report/progress.h"
#include "workload/workload.h"
#include "policy/registry.h"
#include "robust.h"

#define MAX_LOADS 64
#define MAX_SIDES 16

/*
 * The built-in default: S2's command (hackbench -g 32 -f 20 --threads
 * --pipe -l 480000 -s 100 on 2x EPYC 9654) with loops scaled down so both
 * sides run in under a minute on two cores; mainline vs IDLE_DELAY.
 */
static char *default_workload[] = { "hackbench", "-g", "32", "-f", "20", "--threads",
				    "--pipe", "-l", "400", "-s", "100", NULL };

static const char compare_usage[] =
	"Usage: wakesim compare [--machine M] [--kernel K] [--cost-profile P] [--policy P]\n"
	"                       [--base FEATURES] --test FEATURES | --side NAME=FEATURES...\n"
	"                       [--runs N] [--seed FIRST] [--loads NAME=V1,V2,...]\n"
	"                       [--sysctl NAME=VALUE]... [--node N | --cpus LIST]\n"
	"                       [--sig-level PCT] [-j N] [--json | --csv] [-o FILE] [--quiet]\n"
	"                       [--plot DIR] [--robust N] [--cgroup PATH]\n"
	"                       [--cpu-dma-latency US]\n"
	"                       -- WORKLOAD [ARGS...]\n"
	"Runs every side N times (default 5; seeds FIRST..FIRST+N-1) per load level.\n"
	"Sides: --base (default \"default\", the --kernel profile's) and --test, named base\n"
	"and test; or two or more --side NAME=FEATURES, the first being the base every\n"
	"other is compared with. A side's FEATURES may hold policy=NAME|FILE.so, its\n"
	"wake-up policy (else --policy's, else mainline), and kernel=K, its kernel profile\n"
	"(else --kernel's): --side old=default,kernel=v6.6 --side new=default compares\n"
	"v6.6 with mainline. --loads g=2,4 appends \"-g 2\", then\n"
	"\"-g 4\", to the workload's arguments (overriding the same option there); a\n"
	"long name appends \"--name V\", or the option a workload names it by\n"
	"(`wakesim workloads`: tbench clients=8 gives --nprocs 8, pgbench clients=8\n"
	"gives -c 8). Change is positive when a side is better than the base; *x%*\n"
	"marks significance (Welch's t-test at --sig-level, default 95%).\n"
	"Output: mmtests' compare-kernels layout, a note under it where a side cannot\n"
	"differ (it placed every task as the base did, or its feature never fired),\n"
	"then per load level the ranked diagnostics and the placements by reason; --json or\n"
	"--csv (a row per load and side) for scripts; --plot DIR also draws the result\n"
	"and the diagnostics against load level with gnuplot (PNG, SVG, data, script).\n"
	"--robust N runs it all again under N cost profiles drawn across the costs'\n"
	"ranges (`wakesim costs`; a Latin hypercube from --seed) and adds per load and\n"
	"side the change's range over the draws, the share of draws with the nominal\n"
	"change's sign and the costs it follows most (Spearman's rho); with --plot, the\n"
	"change against the cost it follows most (robust.png).\n"
	"--cgroup PATH: both sides' workload runs in this cgroup (`wakesim run --help`).\n"
	"--cpu-dma-latency US: both sides under this PM QoS limit (`wakesim run --help`).\n"
	"On a terminal, a progress bar\n"
	"with ETA runs on stderr unless --quiet.\n"
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

static void show_progress(int done, int n, void *arg)
{
	(void)n;
	progress_update(arg, done);
}

/* --side NAME=FEATURES: a name of letters, digits, '-', '_' or '.'. */
static int parse_side(const char *arg, const char **name, const char **feats, char *buf,
		      size_t len)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "wakesim compare: --side \"%s\": expected NAME=FEATURES\n", arg);
		return -1;
	}
	if ((size_t)(eq - arg) > 24 || (size_t)(eq - arg) >= len) {
		fprintf(stderr, "wakesim compare: --side \"%s\": the name is longer than 24 characters\n",
			arg);
		return -1;
	}
	for (const char *c = arg; c < eq; c++)
		if (!(isalnum((unsigned char)*c) || *c == '-' || *c == '_' || *c == '.')) {
			fprintf(stderr, "wakesim compare: --side \"%s\": a name is letters, digits, "
				"'-', '_' or '.'\n", arg);
			return -1;
		}
	memcpy(buf, arg, (size_t)(eq - arg));
	buf[eq - arg] = '\0';
	*name = buf;
	*feats = eq + 1;
	return 0;
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
		{ "csv", no_argument, NULL, 'C' },	     { "side", required_argument, NULL, 'D' },
		{ "sig-level", required_argument, NULL, 'G' }, { "quiet", no_argument, NULL, 'q' },
		{ "plot", required_argument, NULL, 'p' },
		{ "robust", required_argument, NULL, 'R' },
		{ "output", required_argument, NULL, 'o' },  { "jobs", required_argument, NULL, 'j' },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "cpu-dma-latency", required_argument, NULL, OPT_CPU_DMA_LATENCY },
		{ "help", no_argument, NULL, 'h' },	     { NULL, 0, NULL, 0 },
	};
	struct common_opts o = { .node = -1, .seed = 1, .kver = KV_MAINLINE };
	const char *base = NULL, *test = NULL, *loads = NULL;
	const char *side_name[MAX_SIDES], *side_feat[MAX_SIDES];
	char side_buf[MAX_SIDES][32];
	struct load_level lv[MAX_LOADS];
	int nloads = 1, runs = 5, jobs = host_cpus(), nsides = 0, nside_opts = 0, c, wargc;
	int robust = 0;
	bool csv = false, quiet = false;
	const char *plot_dir = NULL;
	double sig_level = 0.95;
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
		case 'D':
			if (nside_opts == MAX_SIDES) {
				fprintf(stderr, "wakesim compare: at most %d --side options\n", MAX_SIDES);
				return EXIT_USAGE;
			}
			if (parse_side(optarg, &side_name[nside_opts], &side_feat[nside_opts],
				       side_buf[nside_opts], sizeof(side_buf[0])))
				return EXIT_USAGE;
			for (int i = 0; i < nside_opts; i++)
				if (!strcmp(side_name[i], side_name[nside_opts])) {
					fprintf(stderr, "wakesim compare: --side \"%s\" given twice\n",
						side_name[i]);
					return EXIT_USAGE;
				}
			nside_opts++;
			break;
		case 'G': {
			char *end;
			double pct = strtod(optarg, &end);

			if (end == optarg || *end || !(pct >= 50 && pct <= 99.99)) {
				fprintf(stderr, "wakesim compare: --sig-level \"%s\": expected a "
					"confidence in percent, 50 to 99.99 (95: p < 0.05)\n", optarg);
				return EXIT_USAGE;
			}
			sig_level = pct / 100;
			break;
		}
		case 'C':
			csv = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'p':
			plot_dir = optarg;
			break;
		case 'r':
			if (parse_count("compare", "--runs", optarg, 1, 1000, &v))
				return EXIT_USAGE;
			runs = (int)v;
			break;
		case 'R':
			if (parse_count("compare", "--robust", optarg, 2, 1000, &v))
				return EXIT_USAGE;
			robust = (int)v;
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
	if (csv && o.json) {
		fprintf(stderr, "wakesim compare: --json and --csv: choose one output format\n");
		return EXIT_USAGE;
	}
	if (nside_opts && (base || test)) {
		fprintf(stderr, "wakesim compare: --side names every side: it does not mix with "
			"--base/--test\n");
		return EXIT_USAGE;
	}
	if (nside_opts == 1) {
		fprintf(stderr, "wakesim compare: one --side: give two or more (the first is the base)\n");
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		/* The built-in comparison; options given still apply. */
		if (!o.machine)
			o.machine = "epyc9654-2s";
		if (!test && !nside_opts)
			test = "IDLE_DELAY";
		wargc = (int)(sizeof(default_workload) / sizeof(default_workload[0])) - 1;
		wargv = default_workload;
	} else {
		if (!test && !nside_opts) {
			fprintf(stderr, "wakesim compare: --test FEATURES (or --side NAME=FEATURES, "
				"twice or more) is required\n");
			return EXIT_USAGE;
		}
		wargc = argc - optind;
		wargv = argv + optind;
	}
	if (nside_opts) {
		nsides = nside_opts;
	} else {
		nsides = 2;
		side_name[0] = "base";
		side_feat[0] = base ? base : "default";
		side_name[1] = "test";
		side_feat[1] = test;
	}
	if (o.seed > (uint64_t)INT64_MAX - (uint64_t)runs + 1) {
		fprintf(stderr, "wakesim compare: --seed %llu + %d runs goes past the largest seed\n",
			(unsigned long long)o.seed, runs);
		return EXIT_USAGE;
	}
	if (check_output_path("compare", "-o", o.output))
		return EXIT_USAGE;
	if (plot_dir && check_plot_dir("compare", plot_dir))
		return EXIT_USAGE;
	if (loads) {
		if (parse_loads(loads, wargv[0], lv, &nloads))
			return EXIT_USAGE;
	} else {
		snprintf(lv[0].label, sizeof(lv[0].label), "default");
		lv[0].opt[0] = '\0';
	}

	struct machine m;
	struct run_spec sides[MAX_SIDES];

	if (load_machine(&o, &m))
		return EXIT_USAGE;
	for (int sd = 0; sd < nsides; sd++) {
		char what[48];

		if (nside_opts)
			snprintf(what, sizeof(what), "--side %s", side_name[sd]);
		else
			snprintf(what, sizeof(what), "%s", sd ? "--test" : "--base");
		if (build_spec("compare", &o, &m, side_feat[sd], what, &sides[sd])) {
			machine_free(&m);
			return EXIT_USAGE;
		}
	}
	for (int a = 0; a < nsides; a++)
		for (int b = a + 1; b < nsides; b++)
			if (!memcmp(&sides[a].features, &sides[b].features, sizeof(sides[a].features)) &&
			    sides[a].policy == sides[b].policy &&
			    sides[a].tunables.kver == sides[b].tunables.kver) {
				char f[512];

				sched_features_describe(&sides[a].features, sides[a].tunables.kver, f, sizeof(f));
				if (nside_opts)
					fprintf(stderr, "wakesim compare: --side %s and --side %s both give "
						"features %s: nothing to compare\n", side_name[a],
						side_name[b], f);
				else
					fprintf(stderr, "wakesim compare: --base and --test both give "
						"features %s: nothing to compare\n", f);
				machine_free(&m);
				return EXIT_USAGE;
			}

	/* Sides on different kernels name theirs; the header then says "per side". */
	bool per_side_kernel = false;

	for (int sd = 1; sd < nsides; sd++)
		per_side_kernel |= sides[sd].tunables.kver != sides[0].tunables.kver;

	/* Utilisation is over the CPUs the workload may use. */
	int ncpu_allowed = cpumask_weight(&sides[0].allowed);

	/*
	 * --robust: the machine under each drawn cost profile, var[1..robust]
	 * (variant 0 is m itself). Jobs run variant-major, so the nominal
	 * comparison's jobs come first and are laid out as without --robust.
	 */
	long long nsim = (long long)nsides * nloads * runs * (1 + robust);

	/* As a sweep's grid: each run's outcome is kept until the report. */
	if (nsim > 1000000) {
		fprintf(stderr, "wakesim compare: %d sides x %d load levels x %d runs%s%s = %lld "
			"simulations, more than 10^6: fewer runs, levels%s\n", nsides, nloads, runs,
			robust ? " x cost profiles " : "", robust ? "(1 + --robust)" : "", nsim,
			robust ? " or draws" : "");
		machine_free(&m);
		return EXIT_USAGE;
	}
	struct robust_costs *rc = calloc(1, sizeof(*rc));
	int nvar = 1 + robust;
	struct machine *var = calloc((size_t)nvar, sizeof(*var));
	double *design = NULL, *draw_val = NULL;

	if (!rc || !var) {
		fprintf(stderr, "wakesim: out of memory\n");
		free(rc);
		free(var);
		machine_free(&m);
		return 1;
	}
	if (robust) {
		robust_costs_of(&m, rc);
		if (!rc->n) {
			fprintf(stderr, "wakesim compare: --robust: no cost of %s has a range wider than "
				"its value (`wakesim costs`)\n", m.name);
			free(rc);
			free(var);
			machine_free(&m);
			return EXIT_USAGE;
		}
		design = calloc((size_t)robust * (size_t)rc->n, sizeof(*design));
		draw_val = calloc((size_t)robust * (size_t)rc->n, sizeof(*draw_val));
		if (design && draw_val) {
			lhs_design(robust, rc->n, o.seed, design);
			for (int i = 0; i < robust; i++)
				robust_draw(&m, rc, design, i, &var[1 + i], draw_val + (size_t)i * (size_t)rc->n);
		}
	}

	/* One spec per (load, side): the workload's argv plus the load option. */
	int nspec = nsides * nloads, njob = nspec * runs, njob_all = njob * nvar;
	struct run_spec *specs = calloc((size_t)nspec * (size_t)nvar, sizeof(*specs));
	char ***argvs = calloc((size_t)nloads, sizeof(*argvs));
	const struct run_spec **jobspec = calloc((size_t)njob_all, sizeof(*jobspec));
	uint64_t *seeds = calloc((size_t)njob_all, sizeof(*seeds));
	struct run_outcome *out = calloc((size_t)njob_all, sizeof(*out));
	double *rvals = calloc((size_t)njob_all, sizeof(*rvals));
	double *rchange = calloc((size_t)nspec * (size_t)nvar, sizeof(*rchange));
	struct robust_row *rrows = calloc((size_t)nspec, sizeof(*rrows));
	const char **rcost = calloc((size_t)rc->n + 1, sizeof(*rcost));
	const char **runit = calloc((size_t)rc->n + 1, sizeof(*runit));
	double *rmin = calloc((size_t)rc->n + 1, sizeof(*rmin));
	double *rmax = calloc((size_t)rc->n + 1, sizeof(*rmax));
	struct robust_report rep = { 0 };
	double *vals = calloc((size_t)njob, sizeof(*vals));
	struct cmp_cell *cells = calloc((size_t)nspec, sizeof(*cells));
	const char **load_names = calloc((size_t)nloads, sizeof(*load_names));
	char (*feat_desc)[512] = calloc((size_t)nsides, sizeof(*feat_desc));
	const char **feat_ptr = calloc((size_t)nsides, sizeof(*feat_ptr));
	bool *whole = calloc((size_t)nsides, sizeof(*whole));
	int ret = 1;
	struct out_buf ob = { 0 };

	if (!specs || !argvs || !jobspec || !seeds || !out || !vals || !cells || !load_names ||
	    !feat_desc || !feat_ptr || !whole || !rvals || !rchange || !rrows || !rcost ||
	    !runit || !rmin || !rmax || (robust && (!design || !draw_val))) {
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
		for (int sd = 0; sd < nsides; sd++) {
			specs[nsides * l + sd] = sides[sd];
			specs[nsides * l + sd].argc = n;
			specs[nsides * l + sd].argv = a;
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
	for (int vr = 1; vr < nvar; vr++)
		for (int sp = 0; sp < nspec; sp++) {
			specs[vr * nspec + sp] = specs[sp];
			specs[vr * nspec + sp].m = &var[vr];
		}
	for (int j = 0; j < njob_all; j++) {
		jobspec[j] = &specs[j / runs];
		seeds[j] = o.seed + (uint64_t)(j % runs);
	}
	{
		char err[256];
		struct progress bar;

		progress_start(&bar, stderr, !quiet, njob_all, "runs");
		progress_update(&bar, 0);
		int r = run_many(njob_all, jobspec, seeds, out, jobs, show_progress, &bar, err,
				 sizeof(err));

		progress_end(&bar);
		if (r) {
			fprintf(stderr, "wakesim compare: %s\n", err);
			goto done;
		}
	}
	{
		unsigned long long fb = 0;

		for (int j = 0; j < njob_all; j++)
			fb += out[j].met.policy_fallbacks;
		warn_policy_fallbacks("compare", fb);
	}
	for (int j = 0; j < njob_all; j++)
		if (out[j].ok && isnan(out[j].result)) {
			fprintf(stderr, "wakesim compare: load %s, side %s, seed %llu: the run has no %s "
				"to compare (an rt-app file needs timer events for one)\n",
				lv[j % njob / runs / nsides].label, side_name[(j / runs) % nsides],
				(unsigned long long)seeds[j], out[j].unit);
			ret = EXIT_USAGE;
			goto done;
		}
	for (int j = 0; j < njob_all; j++)
		if (!out[j].ok) {
			char drawn[48] = "";

			if (j >= njob)
				snprintf(drawn, sizeof(drawn), ", cost draw %d", j / njob);
			fprintf(stderr, "wakesim compare: load %s, side %s, seed %llu%s: %s\n",
				lv[j % njob / runs / nsides].label, side_name[(j / runs) % nsides],
				(unsigned long long)seeds[j], drawn, out[j].err);
			if (out[j].bad_input)
				ret = EXIT_USAGE;
			goto done;
		}
	if (out_open(&ob)) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto done;
	}

	char cpus[4096], sysctls[512], cmd[4096];
	FILE *cf = fmemopen(cmd, sizeof(cmd), "w");

	if (!cf) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto done;
	}
	print_cmdline(cf, wargc, wargv);
	fclose(cf);
	describe_binding(&sides[0], cpus, sizeof(cpus));
	describe_sysctls(&sides[0], sysctls, sizeof(sysctls));
	for (int sd = 0; sd < nsides; sd++) {
		sched_features_describe(&sides[sd].features, sides[sd].tunables.kver, feat_desc[sd],
					sizeof(feat_desc[sd]));
		if (sides[sd].policy) {
			size_t n = strlen(feat_desc[sd]);

			snprintf(feat_desc[sd] + n, sizeof(feat_desc[sd]) - n, ", policy %s",
				 policy_name(sides[sd].policy));
		}
		if (per_side_kernel) {
			size_t n = strlen(feat_desc[sd]);

			snprintf(feat_desc[sd] + n, sizeof(feat_desc[sd]) - n, ", kernel %s",
				 kernel_version_name(sides[sd].tunables.kver));
		}
		feat_ptr[sd] = feat_desc[sd];
		whole[sd] = sides[sd].policy && sides[sd].policy->select_task_rq;
	}
	for (int l = 0; l < nloads; l++)
		load_names[l] = lv[l].label;
	/*
	 * The policies' counters by name, in the order first met: sides with
	 * different policies count different things, and one name is one row.
	 */
	const char *pc_name[POLICY_MAX_COUNTERS];
	int nr_pc = 0;

	for (int j = 0; j < nspec * runs; j++)
		for (int k = 0; k < out[j].met.nr_policy_counters; k++) {
			int i = 0;

			while (i < nr_pc && strcmp(pc_name[i], out[j].met.policy_counter_name[k]))
				i++;
			if (i == nr_pc && nr_pc < POLICY_MAX_COUNTERS)
				pc_name[nr_pc++] = out[j].met.policy_counter_name[k];
		}
	/* Each (load, side): its runs' results and mean diagnostics. */
	for (int sp = 0; sp < nspec; sp++) {
		struct cmp_cell *cl = &cells[sp];

		cl->values = vals + (size_t)sp * (size_t)runs;
		cl->n = runs;
		for (int r = 0; r < runs; r++) {
			struct metrics_view one;

			vals[sp * runs + r] = out[sp * runs + r].result;
			metrics_view(&out[sp * runs + r].met, ncpu_allowed, &one);
			for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
				cl->metric[d] += one.v[d] / runs;
			for (int i = 0; i < m.nr_idle_states; i++)
				cl->idle_exits[i] += one.idle_exits[i] / runs;
			for (int k = 0; k < PLACE_ALL; k++)
				cl->place[k] += one.place[k] / runs;
			for (int k = 0; k < one.nr_policy; k++)
				for (int i = 0; i < nr_pc; i++)
					if (!strcmp(pc_name[i], one.policy_name[k]))
						cl->policy[i] += one.policy[k] / runs;
			const struct wl_steady *sy = &out[sp * runs + r].steady;

			cl->steady_runs += sy->asked;
			cl->not_steady += sy->asked && !sy->engaged;
		}
		/* Specs are load-major: the base of this load is sp - sp % nsides. */
		int bsp = sp - sp % nsides;

		cl->same_placements = 1;
		for (int r = 0; r < runs; r++)
			if (out[sp * runs + r].met.place_digest != out[bsp * runs + r].met.place_digest)
				cl->same_placements = 0;
	}
	char state_key[WS_MAX_IDLE_STATES][24];
	const char *state_ptr[WS_MAX_IDLE_STATES];

	for (int i = 0; i < m.nr_idle_states; i++) {
		metrics_state_key(m.idle[i].name, state_key[i], sizeof(state_key[i]));
		state_ptr[i] = state_key[i];
	}

	char assumed[MACHINE_ASSUMED_NR * 204];

	machine_assumed_text(&m, assumed, sizeof(assumed));

	struct cmp_table t = {
		.version = WAKESIM_VERSION,
		.commit = WAKESIM_COMMIT,
		.machine = m.name,
		.kernel = per_side_kernel ? "per side" : kernel_version_name(sides[0].tunables.kver),
		.cost_profile = m.cost_profile[0] ? m.cost_profile : "default",
		.assumed = assumed,
		.cpus = cpus,
		.sysctls = sysctls,
		.workload = cmd,
		.nr_cpus = m.topo.nr_cpus,
		.runs = runs,
		.first_seed = (unsigned long long)o.seed,
		.unit = out[0].unit,
		.higher_is_better = out[0].higher_is_better,
		.sig_level = sig_level,
		.nsides = nsides,
		.nloads = nloads,
		.side_name = side_name,
		.side_features = feat_ptr,
		.side_whole_policy = whole,
		.load = load_names,
		.nr_idle_states = m.nr_idle_states,
		.idle_state = state_ptr,
		.nr_policy_counters = nr_pc,
		.policy_counter = pc_name,
		.cell = cells,
	};

	t.command = invocation_json(argc, argv);
	cmp_table_stats(&t);
	if (robust) {
		/* The draws' jobs follow the nominal ones, in the same order. */
		for (int j = njob; j < njob_all; j++)
			rvals[j - njob] = out[j].result;
		if (robust_changes(&t, robust, rvals, rchange)) {
			fprintf(stderr, "wakesim: out of memory\n");
			goto done;
		}
		for (int sp = 0; sp < nspec; sp++) {
			rrows[sp].nominal = cells[sp].change_pct;
			rrows[sp].change = rchange + (size_t)sp * (size_t)robust;
		}
		for (int k = 0; k < rc->n; k++) {
			rcost[k] = rc->name[k];
			runit[k] = cost_key_unit(rc->key[k]);
			rmin[k] = rc->range[k].min;
			rmax[k] = rc->range[k].max;
		}
		rep = (struct robust_report){
			.ndraws = robust, .ncosts = rc->n, .seed = (unsigned long long)o.seed,
			.cost = rcost, .unit = runit, .cmin = rmin, .cmax = rmax,
			.nominal = rc->nominal, .value = draw_val, .nloads = nloads,
			.nsides = nsides, .row = rrows,
		};
		robust_analyse(&rep);
		t.robust = &rep;
	}
	if (o.json) {
		json_object *root = cmp_json(&t);

		fprintf(ob.f, "%s\n",
			json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else if (csv) {
		cmp_print_csv(&t, ob.f);
	} else {
		cmp_print_text(&t, ob.f);
	}
	json_object_put(t.command);
	if (plot_dir) {
		char err[1024];

		if (cmp_plot(&t, plot_dir, err, sizeof(err))) {
			fprintf(stderr, "wakesim compare: %s\n", err);
			goto done;
		}
	}
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
	free(cells);
	free(load_names);
	free(feat_desc);
	free(feat_ptr);
	free(whole);
	free(rvals);
	free(rchange);
	free(rrows);
	free(rcost);
	free(runit);
	free(rmin);
	free(rmax);
	free(design);
	free(draw_val);
	free(rc);
	free(var);	/* the draws share m's arrays: only m is freed */
	machine_free(&m);
	return ret;
}
