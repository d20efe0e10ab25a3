/*
 * cmd_sweep.c - `wakesim sweep PLAN` and `wakesim merge SHARD...`: their
 * options, and the route through the shard document (sweep.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "util/jsondoc.h"
#include "util/textfile.h"
#include "sweep.h"
#include "sweep_plan.h"

static const char sweep_usage[] =
	"Usage: wakesim sweep PLAN.json [--shard I/N] [-j N] [--json] [-o FILE] [--quiet]\n"
	"                     [--plot DIR]\n"
	"       wakesim sweep PLAN.json --emit parallel|slurm --shards N [--out-dir DIR]\n"
	"                     [--sshlogin LIST] [-j N]\n"
	"       wakesim merge SHARD.json... [--json] [-o FILE] [--plot DIR]\n"
	"Runs the plan's grid of machines x workloads x load levels x policies x seeds\n"
	"(docs/sweeps.md) and prints a compare table per machine and workload, then a\n"
	"paragraph per policy: where it wins and loses. --plot DIR also draws each\n"
	"policy's win/loss map (gnuplot: PNG, SVG, data, script).\n"
	"--shard I/N runs the jobs j with j mod N = I-1 and writes their results (JSON);\n"
	"wakesim merge prints the report of a complete set of shards, the same bytes as\n"
	"the unsharded sweep. --emit writes a script that runs N shards with GNU\n"
	"parallel (-j jobs per host, --sshlogin as parallel takes it) or as a Slurm job\n"
	"array, each writing DIR/shard-I.json (default sweep-out), then merges them.\n";

/* ---- the commands ---- */

static int parse_shard(const char *arg, int *i, int *n)
{
	char extra;

	if (sscanf(arg, "%d/%d%c", i, n, &extra) != 2 || *n < 1 || *n > 100000 || *i < 1 || *i > *n) {
		fprintf(stderr, "wakesim sweep: --shard \"%s\": expected I/N with 1 <= I <= N\n", arg);
		return -1;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shard", required_argument, NULL, 's' }, { "jobs", required_argument, NULL, 'j' },
		{ "json", no_argument, NULL, 'J' },	   { "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },	   { "emit", required_argument, NULL, 'e' },
		{ "shards", required_argument, NULL, 'S' }, { "out-dir", required_argument, NULL, 'd' },
		{ "sshlogin", required_argument, NULL, 'l' }, { "help", no_argument, NULL, 'h' },
		{ "plot", required_argument, NULL, 'P' }, { NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *kind = NULL, *dir = "sweep-out", *ssh = NULL, *plot = NULL;
	int si = 0, sn = 0, shards = 0, jobs = host_cpus(), c;
	bool json = false, quiet = false;
	long v;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":j:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_shard(optarg, &si, &sn))
				return EXIT_USAGE;
			break;
		case 'j':
			if (parse_count("sweep", "-j", optarg, 1, 1024, &v))
				return EXIT_USAGE;
			jobs = (int)v;
			break;
		case 'S':
			if (parse_count("sweep", "--shards", optarg, 1, 100000, &v))
				return EXIT_USAGE;
			shards = (int)v;
			break;
		case 'J':
			json = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'e':
			kind = optarg;
			if (strcmp(kind, "parallel") && strcmp(kind, "slurm")) {
				fprintf(stderr, "wakesim sweep: --emit \"%s\": expected parallel or slurm\n",
					kind);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			dir = optarg;
			break;
		case 'l':
			ssh = optarg;
			break;
		case 'P':
			plot = optarg;
			break;
		case 'h':
			fputs(sweep_usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "wakesim sweep: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "wakesim sweep: unknown option \"%s\" (see wakesim sweep --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "wakesim sweep: %s\n%s", optind >= argc ? "PLAN.json missing" :
			"one PLAN.json, please", sweep_usage);
		return EXIT_USAGE;
	}
	const char *file = argv[optind];
	struct sweep_plan plan;
	char err[2048];

	if (output && check_output_path("sweep", "-o", output))
		return EXIT_USAGE;
	if (plot && (check_plot_dir("sweep", plot) || kind || si)) {
		if (kind || si)
			fprintf(stderr, "wakesim sweep: --plot draws the whole report: not with --shard "
				"or --emit (merge --plot draws a set of shards)\n");
		return EXIT_USAGE;
	}
	if (sweep_plan_load(file, &plan, err, sizeof(err))) {
		fprintf(stderr, "wakesim sweep: %s\n", err);
		return EXIT_USAGE;
	}
	int ret;

	if (kind) {
		struct out_buf ob = { 0 };

		if (!shards || si) {
			fprintf(stderr, "wakesim sweep: --emit needs --shards N (and no --shard)\n");
			sweep_plan_free(&plan);
			return EXIT_USAGE;
		}
		if (out_open(&ob)) {
			sweep_plan_free(&plan);
			return 1;
		}
		ret = sweep_emit(kind, file, shards, dir, ssh, jobs, ob.f);
		ret = ret ? ret : (out_commit(&ob, output) ? 1 : 0);
		if (ret && ob.f)
			out_discard(&ob);
		sweep_plan_free(&plan);
		return ret;
	}
	if (shards || ssh || strcmp(dir, "sweep-out")) {
		fprintf(stderr, "wakesim sweep: --shards, --out-dir and --sshlogin go with --emit\n");
		sweep_plan_free(&plan);
		return EXIT_USAGE;
	}
	json_object *doc = NULL;

	ret = sweep_run_shard(file, &plan, si ? si : 1, si ? sn : 1, jobs, quiet, &doc);
	if (ret) {
		sweep_plan_free(&plan);
		return ret;
	}
	struct out_buf ob = { 0 };

	if (out_open(&ob)) {
		json_object_put(doc);
		sweep_plan_free(&plan);
		return 1;
	}
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_NOSLASHESCAPE);

	if (si) {
		fprintf(ob.f, "%s\n", text);
		ret = 0;
	} else {
		/* Through text and back: exactly what merge reads. */
		json_object *back;
		const char *name = "(this sweep)";

		ret = json_doc_parse(text, strlen(text), name, &back, err, sizeof(err)) ? 1 : 0;
		if (!ret) {
			struct sweep_doc sd = { back, name, text, strlen(text) };

			ret = sweep_render(&sd, 1, json, plot, ob.f, err, sizeof(err)) ? 1 : 0;
			json_object_put(back);
		}
		if (ret)
			fprintf(stderr, "wakesim sweep: %s\n", err);
	}
	json_object_put(doc);
	sweep_plan_free(&plan);
	if (ret) {
		out_discard(&ob);
		return ret;
	}
	return out_commit(&ob, output) ? 1 : 0;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'J' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { "plot", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *plot = NULL;
	bool json = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		if (c == 'J') {
			json = true;
		} else if (c == 'o') {
			output = optarg;
		} else if (c == 'P') {
			plot = optarg;
		} else if (c == 'h') {
			fputs(sweep_usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "wakesim merge: %s \"%s\" (wakesim merge SHARD.json... [--json] "
				"[-o FILE] [--plot DIR])\n", c == ':' ? "missing value after" : "unknown option",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	int n = argc - optind;

	if (n < 1) {
		fprintf(stderr, "wakesim merge: SHARD.json missing (wakesim merge SHARD.json...)\n");
		return EXIT_USAGE;
	}
	if (output && check_output_path("merge", "-o", output))
		return EXIT_USAGE;
	if (plot && check_plot_dir("merge", plot))
		return EXIT_USAGE;
	/* Texts kept for the lines of messages. */
	struct sweep_doc *docs = calloc((size_t)n, sizeof(*docs));
	char err[2048];
	int ret = EXIT_USAGE;
	struct out_buf ob = { 0 };

	if (!docs)
		return 1;
	for (int i = 0; i < n; i++) {
		char *text = NULL;

		docs[i].name = argv[optind + i];
		if (text_file_read(docs[i].name, "sweep shard", &text, &docs[i].len, err, sizeof(err)) ||
		    json_doc_parse(text, docs[i].len, docs[i].name, &docs[i].doc, err, sizeof(err))) {
			free(text);
			fprintf(stderr, "wakesim merge: %s\n", err);
			goto out;
		}
		docs[i].text = text;
	}
	if (out_open(&ob)) {
		ret = 1;
		goto out;
	}
	if (sweep_render(docs, n, json, plot, ob.f, err, sizeof(err))) {
		fprintf(stderr, "wakesim merge: %s\n", err);
		out_discard(&ob);
		goto out;
	}
	ret = out_commit(&ob, output) ? 1 : 0;
out:
	for (int i = 0; i < n; i++) {
		json_object_put(docs[i].doc);
		free((char *)docs[i].text);
	}
	free(docs);
	return ret;
}

