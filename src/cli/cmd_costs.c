/*
 * cmd_costs.c - `wakesim costs`: every cost of a machine with its value
 * and plausible range, and where the range comes from (docs/costs.md,
 * "Ranges"); the ranges `compare --robust` draws from.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "machine/cost_keys.h"

static const char costs_usage[] =
	"Usage: wakesim costs [--machine M] [--cost-profile P] [--json] [-o FILE]\n"
	"Every cost of machine M (after --cost-profile, if given): its value, the\n"
	"plausible range a cost file gives for it under \"ranges\" with its source,\n"
	"or else the default range, the value halved to doubled (docs/costs.md).\n"
	"compare --robust N draws cost profiles across these ranges.\n";

/* s with control characters as \xNN: a source from a file may hold any. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
}

/* -0 (a range's bound computed from 0) prints as 0. */
static double unsigned_zero(double v)
{
	return v == 0 ? 0 : v;
}

static void print_text(FILE *f, const struct machine *m)
{
	int w = 4;
	char name[64];

	for (int k = 0; k < cost_key_count(m); k++) {
		cost_key_name(m, k, name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	}
	fprintf(f, "costs of %s (cost profile %s): value, plausible range, its source\n", m->name,
		m->cost_profile[0] ? m->cost_profile : "default");
	fprintf(f, "%-*s %10s %10s %10s %-4s %s\n", w, "cost", "value", "min", "max", "unit",
		"range from");
	for (int k = 0; k < cost_key_count(m); k++) {
		struct cost_range r;

		cost_key_name(m, k, name, sizeof(name));
		cost_key_range(m, k, &r);
		fprintf(f, "%-*s %10.10g %10.10g %10.10g %-4s ", w, name, cost_key_value(m, k),
			unsigned_zero(r.min), unsigned_zero(r.max), cost_key_unit(k));
		put_escaped(f, r.source);
		fputc('\n', f);
	}
}

static json_object *costs_json(const struct machine *m)
{
	json_object *root = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(root, "machine", json_object_new_string(m->name));
	json_object_object_add(root, "cost_profile",
			       json_object_new_string(m->cost_profile[0] ? m->cost_profile : "default"));
	for (int k = 0; k < cost_key_count(m); k++) {
		json_object *o = json_object_new_object();
		struct cost_range r;
		char name[64];

		cost_key_name(m, k, name, sizeof(name));
		cost_key_range(m, k, &r);
		json_object_object_add(o, "cost", json_object_new_string(name));
		json_object_object_add(o, "unit", json_object_new_string(cost_key_unit(k)));
		json_object_object_add(o, "value", json_object_new_double(cost_key_value(m, k)));
		json_object_object_add(o, "min", json_object_new_double(r.min));
		json_object_object_add(o, "max", json_object_new_double(r.max));
		json_object_object_add(o, "range_given", json_object_new_boolean(r.set));
		json_object_object_add(o, "source", json_object_new_string(r.source));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "costs", a);
	return root;
}

int cmd_costs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "cost-profile", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'J' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct common_opts o = { .node = -1, .kver = KV_MAINLINE };
	struct out_buf ob = { 0 };
	struct machine m;
	int c, ret = 1;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(costs_usage, stdout);
			return 0;
		}
		if (common_opt("costs", c, argc, argv, costs_usage, &o) < 0)
			return EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, "wakesim costs: unexpected argument \"%s\"\n%s", argv[optind],
			costs_usage);
		return EXIT_USAGE;
	}
	if (check_output_path("costs", "-o", o.output))
		return EXIT_USAGE;
	if (load_machine(&o, &m))
		return EXIT_USAGE;
	if (out_open(&ob)) {
		fprintf(stderr, "wakesim: out of memory\n");
		goto out;
	}
	if (o.json) {
		json_object *root = costs_json(&m);

		fprintf(ob.f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		print_text(ob.f, &m);
	}
	ret = out_commit(&ob, o.output) ? 1 : 0;
out:
	if (ob.f)
		out_discard(&ob);
	machine_free(&m);
	return ret;
}
