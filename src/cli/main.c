/*
 * main.c - the wakesim command: dispatch to run, compare, topo, machines,
 * features, sysctls. Every bad input ends here as one message on stderr
 * and exit status 2.
 */
#include <json-c/json.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "kern/topology.h"
#include "workload/workload.h"
#include "policy/registry.h"


static const char usage[] =
	"wakesim " WAKESIM_VERSION " - simulate Linux fair-scheduler wake-up placement\n"
	"\n"
	"Usage:\n"
	"  wakesim compare [--machine M] [--kernel K] [--base FEATURES] --test FEATURES\n"
	"                  | --side NAME=FEATURES[,policy=P][,kernel=K]... [--runs N] [--seed FIRST]\n"
	"                  [--loads NAME=V1,V2,...] [--sysctl K=V]... [--node N | --cpus LIST]\n"
	"                  [--sig-level PCT] [--robust N] [-j N] [--json | --csv] [-o FILE]\n"
	"                  -- WORKLOAD...\n"
	"  wakesim compare [OPTIONS]  (no workload: S2's hackbench on epyc9654-2s,\n"
	"                              mainline vs IDLE_DELAY unless --machine/--test)\n"
	"  wakesim run [--machine M] [--kernel K] [--cost-profile P] [--features F] [--policy P]\n"
	"              [--sysctl K=V]...\n"
	"              [--seed N] [--node N | --cpus LIST] [--json] [-o FILE] -- WORKLOAD...\n"
	"  wakesim topo [--machine M] [--kernel K]      CPUs and sched domains, like debugfs\n"
	"  wakesim machines                             built-in machine presets\n"
	"  wakesim features [--kernel K]                feature switches and their defaults\n"
	"  wakesim sysctls [--machine M] [--kernel K]   tunables and their defaults\n"
	"  wakesim workloads [NAME]                     workloads and their flags\n"
	"  wakesim policies                             wake-up policies for --policy\n"
	"  wakesim costs [--machine M] [--cost-profile P]  each cost, its range and source\n"
	"  wakesim calibrate [--quick] [-o FILE]        measure this machine: a cost profile\n"
	"  wakesim rerun RESULT.json [-o FILE]          run again what made a --json result\n"
	"  wakesim sweep PLAN.json [--shard I/N] | --emit parallel|slurm --shards N\n"
	"                                               a grid of machines x workloads x loads\n"
	"                                               x policies x seeds (docs/sweeps.md)\n"
	"  wakesim merge SHARD.json...                  the report of a sharded sweep\n"
	"  wakesim replay TRACE [--comm GLOB] [RUN OPTIONS]  a recorded trace (perf sched record,\n"
	"                                               trace-cmd, ftrace) replayed on M\n"
	"\n"
	"Machines: a preset name, host (this machine's /sys, or $WAKESIM_SYSFS when set;\n"
	"what /sys does not say is assumed, and outputs print it), sysfs:DIR (a copied\n"
	"/sys tree), hwloc:FILE.xml or FILE.xml (lstopo --of xml), lscpu:FILE (lscpu\n"
	"-p=CPU,CORE,SOCKET,NODE,CACHE) or a machine JSON file. FEATURES use debugfs\n"
	"syntax: SIS_SHORT,NO_SIS_UTIL; \"default\" keeps the kernel profile's. K: v5.12,\n"
	"v6.4, v6.6 or mainline (the default). WORKLOAD: a benchmark\n"
	"with its own tool's flags, e.g. -- hackbench -g 4 -l 1000 --pipe --threads,\n"
	"-- tbench 8, -- netperf -t TCP_RR -l 1, -- rt-app FILE.json (wakesim workloads).\n";

static int no_args(const char *cmd, int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "wakesim %s: unexpected argument \"%s\"\n", cmd, argv[1]);
		return -1;
	}
	return 0;
}

static int cmd_machines(void)
{
	for (int i = 0; i < machine_preset_count(); i++) {
		char desc[400];

		machine_preset_describe(i, desc, sizeof(desc));
		printf("%-16s %s\n", machine_preset_name(i), desc);
	}
	printf("%-16s %s\n", "host", "this machine, read from /sys/devices/system");
	printf("%-16s %s\n", "sysfs:DIR", "a copied sysfs tree (DIR/devices/system or DIR/sys/...)");
	return 0;
}

static int cmd_workloads(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "wakesim workloads: unexpected argument \"%s\"\n", argv[2]);
		return EXIT_USAGE;
	}
	if (argc == 2) {
		const struct workload_def *d = workload_find(argv[1]);

		if (!d) {
			fprintf(stderr, "wakesim workloads: unknown workload \"%s\"\n", argv[1]);
			return EXIT_USAGE;
		}
		printf("%s - %s\n\n%s", d->name, d->summary, d->usage);
		return 0;
	}
	for (int i = 0; i < nr_workload_defs; i++) {
		const struct workload_def *d = &workload_defs[i];

		printf("%-26s %s\n", d->name, d->summary);
		if (d->loads && d->loads[0].name) {
			printf("%-26s --loads names:", "");
			for (const struct load_alias *a = d->loads; a->name; a++)
				printf(" %s (%s)", a->name, a->opt);
			printf("\n");
		}
	}
	printf("\nwakesim workloads NAME, or -- NAME --help, shows a workload's flags.\n");
	return 0;
}

/*
 * The options of features, topo and sysctls: --machine M (topo, sysctls)
 * and --kernel K, each as "--opt V" or "--opt=V". Returns 0, 1 after
 * --help, -1 on a bad argument (message printed).
 */
static int show_opts(const char *cmd, bool machine, int argc, char **argv, struct common_opts *o)
{
	const char *usage_fmt = machine ? "wakesim %s [--machine M] [--kernel K]"
					: "wakesim %s [--kernel K]";
	char usage_buf[80];

	snprintf(usage_buf, sizeof(usage_buf), usage_fmt, cmd);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		bool is_machine = machine && !strncmp(a, "--machine", 9) && (!a[9] || a[9] == '=');
		bool is_kernel = !strncmp(a, "--kernel", 8) && (!a[8] || a[8] == '=');

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("Usage: %s\n", usage_buf);
			return 1;
		}
		if (!is_machine && !is_kernel) {
			fprintf(stderr, "wakesim %s: unexpected argument \"%s\" (usage: %s)\n", cmd, a,
				usage_buf);
			return -1;
		}
		size_t n = is_machine ? 9 : 8;

		if (a[n] == '=' && a[n + 1])
			val = a + n + 1;
		else if (!a[n] && i + 1 < argc)
			val = argv[++i];
		if (!val) {
			fprintf(stderr, "wakesim %s: missing value after \"%s\" (usage: %s)\n", cmd, a,
				usage_buf);
			return -1;
		}
		if (is_machine) {
			o->machine = val;
			continue;
		}
		o->kver = kernel_version_parse(val);
		if (o->kver < 0) {
			fprintf(stderr, "wakesim %s: --kernel \"%s\": expected v5.12, v6.4, v6.6 or mainline\n",
				cmd, val);
			return -1;
		}
	}
	return 0;
}

static int cmd_features(int argc, char **argv)
{
	struct common_opts o = { .node = -1, .kver = KV_MAINLINE };
	struct sched_features f;
	int r = show_opts("features", false, argc, argv, &o);

	if (r)
		return r > 0 ? 0 : EXIT_USAGE;
	sched_features_default_for(&f, (enum kernel_version)o.kver);
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		printf("%-24s %s\n", sched_feature_name(i), f.on[i] ? "on" : "off");
	return 0;
}

static int cmd_sysctls(int argc, char **argv)
{
	struct common_opts o = { .node = -1, .kver = KV_MAINLINE };
	struct sched_tunables t;
	struct machine m;
	int r = show_opts("sysctls", true, argc, argv, &o);

	if (r)
		return r > 0 ? 0 : EXIT_USAGE;
	if (load_machine(&o, &m))
		return EXIT_USAGE;
	sched_tunables_default(&t, m.topo.nr_cpus);
	sched_tunables_kernel(&t, o.kver, m.topo.nr_cpus);
	printf("defaults for machine %s (%d CPUs), kernel %s:\n", m.name, m.topo.nr_cpus,
	       kernel_version_name((enum kernel_version)o.kver));
	machine_print_assumed(stdout, &m, "");
	sched_tunables_print(&t, stdout);
	machine_free(&m);
	return 0;
}

static int cmd_topo(int argc, char **argv)
{
	struct common_opts o = { .node = -1, .kver = KV_MAINLINE };
	struct sched_domains d;
	struct machine m;
	int r = show_opts("topo", true, argc, argv, &o);

	if (r)
		return r > 0 ? 0 : EXIT_USAGE;
	if (load_machine(&o, &m))
		return EXIT_USAGE;
	if (build_sched_domains_for(&m, &d, kernel_profile(o.kver))) {
		fprintf(stderr, "wakesim: out of memory\n");
		machine_free(&m);
		return 1;
	}
	sched_domains_print(stdout, &m, &d);
	free_sched_domains(&d);
	machine_free(&m);
	return 0;
}

int main(int argc, char **argv)
{
	/* GSL's default on a domain error is abort(): an answer of NaN is ours to handle. */
	gsl_set_error_handler_off();
	/* Ten significant digits: figures read well and compare byte for byte. */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		if (no_args("--version", argc - 1, argv + 1))
			return EXIT_USAGE;
		printf("wakesim %s\n", WAKESIM_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "topo"))
		return cmd_topo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "machines"))
		return no_args("machines", argc - 1, argv + 1) ? EXIT_USAGE : cmd_machines();
	if (!strcmp(argv[1], "features"))
		return cmd_features(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sysctls"))
		return cmd_sysctls(argc - 1, argv + 1);
	if (!strcmp(argv[1], "workloads"))
		return cmd_workloads(argc - 1, argv + 1);
	if (!strcmp(argv[1], "policies")) {
		if (no_args("policies", argc - 1, argv + 1))
			return EXIT_USAGE;
		policy_list(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "rerun"))
		return cmd_rerun(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "costs"))
		return cmd_costs(argc - 1, argv + 1);
	if (!strcmp(argv[1], "calibrate"))
		return cmd_calibrate(argc - 1, argv + 1);
	fprintf(stderr, "wakesim: unknown command \"%s\" (see wakesim --help)\n", argv[1]);
	return EXIT_USAGE;
}
