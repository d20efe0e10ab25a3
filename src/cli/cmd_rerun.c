/*
 * cmd_rerun.c - `wakesim rerun RESULT.json [-o FILE]`: replay the command
 * a result file of `run --json` or `compare --json` records under
 * "command", so the same wakesim reproduces it byte for byte. Relative
 * paths in it (machine files, cost profiles) are as they were given.
 */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "util/jsondoc.h"
#include "util/jsonin.h"
#include "util/textfile.h"

static const char rerun_usage[] =
	"Usage: wakesim rerun RESULT.json [-o FILE] [--allow-policy]\n"
	"Runs again the command that made RESULT.json (its \"command\" key, written by\n"
	"run --json and compare --json), writing to FILE or standard output. The same\n"
	"wakesim version gives the same bytes; another one warns and may differ.\n"
	"A command that loads a policy object (--policy FILE.so, a side's\n"
	"policy=FILE.so) runs that file's code: refused unless --allow-policy.\n";

/*
 * The policy object argument s of the command loads, if any (into obj,
 * len bytes): "--policy X" (X the next argument, nextarg), "--policy=X",
 * or a side's "policy=X" item, X a shared object by policy_lookup()'s rule
 * (a path with '/' or a name ending in .so; built-in names load nothing).
 */
static bool loads_object(const char *s, const char *nextarg, char *obj, size_t len)
{
	const char *v = NULL;

	if (!strcmp(s, "--policy"))
		v = nextarg;
	else if (!strncmp(s, "--policy=", 9))
		v = s + 9;
	for (const char *item = s; !v && (item = strstr(item, "policy=")); item += 7)
		if (item == s || item[-1] == ',' || item[-1] == '=')
			v = item + 7;
	if (!v)
		return false;
	size_t n = strcspn(v, ",");

	snprintf(obj, len, "%.*s", (int)n, v);
	return memchr(v, '/', n) || (n > 3 && !strncmp(v + n - 3, ".so", 3));
}

/* Whether av[0..k) has reached the workload's own arguments ("--"). */
static bool workload_part(char **av, int k)
{
	for (int i = 0; i < k; i++)
		if (!strcmp(av[i], "--"))
			return true;
	return false;
}

/* Options of run and compare that write a file of their own. */
static bool writes_file(const char *s)
{
	static const char *const opts[] = { "-o", "--output", "--schedstat", "--trace", "--plot" };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		size_t n = strlen(opts[i]);

		if (!strncmp(s, opts[i], n) && (!s[n] || s[n] == '=' || (n == 2 && s[n])))
			return true;
	}
	return false;
}

int cmd_rerun(int argc, char **argv)
{
	const char *file = NULL, *output = NULL;
	bool allow_policy = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(rerun_usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (i + 1 == argc) {
				fprintf(stderr, "wakesim rerun: %s needs a file\n%s", argv[i], rerun_usage);
				return EXIT_USAGE;
			}
			output = argv[++i];
		} else if (!strcmp(argv[i], "--allow-policy")) {
			allow_policy = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "wakesim rerun: unknown option \"%s\"\n%s", argv[i], rerun_usage);
			return EXIT_USAGE;
		} else if (file) {
			fprintf(stderr, "wakesim rerun: unexpected argument \"%s\"\n%s", argv[i],
				rerun_usage);
			return EXIT_USAGE;
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		fprintf(stderr, "wakesim rerun: no result file\n%s", rerun_usage);
		return EXIT_USAGE;
	}

	char *text = NULL, err[1024];
	size_t len = 0;
	json_object *root = NULL, *cmd, *ver;

	if (text_file_read(file, "result file", &text, &len, err, sizeof(err)) ||
	    json_doc_parse(text, len, file, &root, err, sizeof(err))) {
		fprintf(stderr, "wakesim rerun: %s\n", err);
		free(text);
		return EXIT_USAGE;
	}
	int ret = EXIT_USAGE;
	char **av = NULL, path[32];
	struct json_in in = { .file = file, .text = text, .len = len, .err = err,
			      .errlen = sizeof(err) };

	if (!json_object_is_type(root, json_type_object)) {
		fprintf(stderr, "wakesim rerun: %s:1: expected a JSON object (a result of run --json "
			"or compare --json)\n", file);
		goto out;
	}
	if (!json_object_object_get_ex(root, "command", &cmd)) {
		json_in_fail(&in, "command", "missing: not a result of run --json or compare --json");
		goto fail;
	}
	if (!json_object_is_type(cmd, json_type_array) || !json_object_array_length(cmd)) {
		json_in_fail(&in, "command", "expected a non-empty array of strings");
		goto fail;
	}
	int n = (int)json_object_array_length(cmd);

	av = calloc((size_t)n + 3, sizeof(*av));
	if (!av) {
		fprintf(stderr, "wakesim: out of memory\n");
		ret = 1;
		goto out;
	}
	int k = 0;

	for (int i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(cmd, (size_t)i);

		snprintf(path, sizeof(path), "command[%d]", i);
		if (!json_object_is_type(e, json_type_string)) {
			json_in_fail(&in, path, "expected a string, as every argument is");
			goto fail;
		}
		const char *s = json_object_get_string(e);

		if ((size_t)json_object_get_string_len(e) != strlen(s)) {
			json_in_fail(&in, path, "a string holds a NUL character");
			goto fail;
		}
		/* Nor load code the user did not choose: a result file may come from anyone. */
		char obj[256];
		json_object *next = json_object_array_get_idx(cmd, (size_t)i + 1);

		if (!workload_part(av, k) && !allow_policy &&
		    loads_object(s, next && json_object_is_type(next, json_type_string)
					    ? json_object_get_string(next) : NULL,
				 obj, sizeof(obj))) {
			json_in_fail(&in, path, "loads the policy object %.100s, whose code would run: "
				     "pass --allow-policy if you trust it", obj);
			goto fail;
		}
		/* A result file must not make rerun write elsewhere than -o says. */
		if (!workload_part(av, k) && writes_file(s)) {
			json_in_fail(&in, path, "%.40s writes a file: a result file may not choose "
				     "where rerun writes", s);
			goto fail;
		}
		/* The output file goes before the workload's arguments. */
		if (output && !strcmp(s, "--") && k == i) {
			av[k++] = "-o";
			av[k++] = (char *)output;
		}
		av[k++] = (char *)s;
	}
	if (output && k == n) {
		av[k++] = "-o";
		av[k++] = (char *)output;
	}
	if (strcmp(av[0], "run") && strcmp(av[0], "compare")) {
		json_in_fail(&in, "command[0]", "the command is neither run nor compare");
		goto fail;
	}
	const char *made = json_object_object_get_ex(root, "wakesim_version", &ver)
				   ? json_object_get_string(ver) : "(unknown)";
	const char *commit = json_object_object_get_ex(root, "wakesim_commit", &ver)
				     ? json_object_get_string(ver) : "(unknown)";

	if (strcmp(made, WAKESIM_VERSION) || strcmp(commit, WAKESIM_COMMIT))
		fprintf(stderr, "wakesim rerun: %s was made by wakesim %.40s (commit %.40s), this is "
			"%s (commit %s): the figures may differ\n", file, made, commit,
			WAKESIM_VERSION, WAKESIM_COMMIT);
	ret = !strcmp(av[0], "run") ? cmd_run(k, av) : cmd_compare(k, av);
	if (ret == EXIT_USAGE) {
		json_in_fail(&in, "command", "refused, as above");
		goto fail;
	}
	goto out;
fail:
	fprintf(stderr, "wakesim rerun: %s\n", err);
out:
	free(av);
	json_object_put(root);
	free(text);
	return ret;
}
