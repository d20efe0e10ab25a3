/*
 * args.c - machine loading, run specs from options, atomic output.
 */
#include "args.h"
#include "policy/registry.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int load_machine(const struct common_opts *o, struct machine *m)
{
	char err[512];

	if (machine_load(o->machine ? o->machine : "host", m, err, sizeof(err))) {
		fprintf(stderr, "wakesim: %s\n", err);
		return -1;
	}
	if (o->cost_profile && machine_apply_cost_profile(m, o->cost_profile, err, sizeof(err))) {
		fprintf(stderr, "wakesim: --cost-profile: %s\n", err);
		machine_free(m);
		return -1;
	}
	return 0;
}

void warn_policy_fallbacks(const char *cmd, unsigned long long n)
{
	if (n)
		fprintf(stderr, "wakesim %s: warning: the policy returned a CPU the task may not run "
			"on %llu times; each was replaced by the task's first allowed CPU, as "
			"select_fallback_rq() does\n", cmd, n);
}

int build_spec(const char *cmd, const struct common_opts *o, const struct machine *m,
	       const char *features, const char *features_opt, struct run_spec *spec)
{
	char err[1024];

	char list[1024];
	const char *policy = o->policy;
	int kver = o->kver;

	memset(spec, 0, sizeof(*spec));
	spec->m = m;
	if (features) {
		/* A side's "policy=X" and "kernel=K" items: the rest is the feature list. */
		char *copy = strdup(features), *save = NULL;

		if (!copy) {
			fprintf(stderr, "wakesim %s: out of memory\n", cmd);
			return -1;
		}
		list[0] = '\0';
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (!strncmp(t, "policy=", 7)) {
				policy = features + (t - copy) + 7;
				continue;
			}
			if (!strncmp(t, "kernel=", 7)) {
				kver = kernel_version_parse(t + 7);
				if (kver < 0) {
					fprintf(stderr, "wakesim %s: %s: kernel=\"%s\": expected v5.12, v6.4, "
						"v6.6 or mainline\n", cmd, features_opt, t + 7);
					free(copy);
					return -1;
				}
				continue;
			}
			size_t n = strlen(list);

			snprintf(list + n, sizeof(list) - n, "%s%s", n ? "," : "", t);
		}
		free(copy);
		/* Items alone ("policy=X") mean the defaults; "" stays an error. */
		features = list[0] || (!strstr(features, "policy=") && !strstr(features, "kernel="))
				   ? list
				   : "default";
	}
	if (policy) {
		char spec_buf[512];
		size_t n = strcspn(policy, ",");

		snprintf(spec_buf, sizeof(spec_buf), "%.*s", (int)n, policy);
		if (policy_lookup(spec_buf, &spec->policy, err, sizeof(err))) {
			/* A side's own policy: say which side. */
			if (policy != o->policy)
				fprintf(stderr, "wakesim %s: %s: policy=%s\n", cmd, features_opt, err);
			else
				fprintf(stderr, "wakesim %s: --policy %s\n", cmd, err);
			return -1;
		}
	}
	sched_features_default_for(&spec->features, (enum kernel_version)kver);
	if (features && sched_features_parse(&spec->features, features, err, sizeof(err))) {
		fprintf(stderr, "wakesim %s: %s: %s\n", cmd, features_opt, err);
		return -1;
	}
	sched_tunables_default(&spec->tunables, m->topo.nr_cpus);
	sched_tunables_kernel(&spec->tunables, kver, m->topo.nr_cpus);
	for (int i = 0; i < o->nr_sysctl; i++)
		if (sched_tunables_set(&spec->tunables, kver, o->sysctl[i], err, sizeof(err))) {
			fprintf(stderr, "wakesim %s: %s\n", cmd, err);
			return -1;
		}
	sched_tunables_derive(&spec->tunables);

	cpumask_setall(&spec->allowed);
	if (o->cpus && o->node >= 0) {
		fprintf(stderr, "wakesim %s: --cpus and --node are exclusive\n", cmd);
		return -1;
	}
	if (o->cpus) {
		if (cpulist_parse(o->cpus, &spec->allowed, err, sizeof(err))) {
			fprintf(stderr, "wakesim %s: --cpus \"%s\": %s\n", cmd, o->cpus, err);
			return -1;
		}
		bool outside = false;

		/* Look at every word: bits past nr_cpu_ids are CPUs the machine lacks. */
		for (int c = m->topo.nr_cpus; c < WS_MAX_CPUS; c++)
			outside |= (spec->allowed.bits[c >> 6] >> (c & 63)) & 1;
		if (cpumask_empty(&spec->allowed)) {
			fprintf(stderr, "wakesim %s: --cpus \"%s\": no CPU given (a list such as 0-3,8)\n",
				cmd, o->cpus);
			return -1;
		}
		if (outside) {
			fprintf(stderr, "wakesim %s: --cpus \"%s\": machine %s has CPUs 0-%d\n",
				cmd, o->cpus, m->name, m->topo.nr_cpus - 1);
			return -1;
		}
	}
	if (o->node >= 0) {
		if (o->node >= m->topo.nr_nodes) {
			fprintf(stderr, "wakesim %s: --node %d: machine %s has nodes 0-%d\n", cmd, o->node,
				m->name, m->topo.nr_nodes - 1);
			return -1;
		}
		cpumask_clear(&spec->allowed);
		for (int c = 0; c < m->topo.nr_cpus; c++)
			if (m->topo.cpu[c].node == o->node)
				cpumask_set_cpu(c, &spec->allowed);
		if (cpumask_empty(&spec->allowed)) {
			fprintf(stderr, "wakesim %s: --node %d has no CPUs\n", cmd, o->node);
			return -1;
		}
	}
	return 0;
}

void describe_binding(const struct run_spec *spec, char *buf, size_t len)
{
	struct cpumask all;

	cpumask_setall(&all);
	if (cpumask_equal(&all, &spec->allowed))
		snprintf(buf, len, "all");
	else
		cpumask_print_list(&spec->allowed, buf, len);
}

void describe_sysctls(const struct run_spec *spec, char *buf, size_t len)
{
	struct sched_tunables def;

	sched_tunables_default(&def, spec->m->topo.nr_cpus);
	sched_tunables_kernel(&def, spec->tunables.kver, spec->m->topo.nr_cpus);
	sched_tunables_diff(&def, &spec->tunables, buf, len);
}

/* path with its directory resolved (symlinks followed), or false. */
static bool canonical_path(const char *path, char *out, size_t len)
{
	char dir[4096], real[4096];
	const char *slash = strrchr(path, '/');

	if (!realpath(path, real)) {
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
		if (!realpath(dir[0] ? dir : "/", real))
			return false;
		snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path);
		return true;
	}
	snprintf(out, len, "%s", real);
	return true;
}

int check_output_path(const char *cmd, const char *opt, const char *path)
{
	char dir[4096];
	const char *slash;
	struct stat st;

	if (!path)
		return 0;
	/* "--schedstat --json" would make a file named --json: refuse. */
	if (path[0] == '-') {
		fprintf(stderr, "wakesim %s: %s \"%s\": expected a file name, not an option "
			"(write ./%s for a file so named)\n", cmd, opt, path, path);
		return -1;
	}
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	if (!path[slash ? slash - path + 1 : 0]) {
		fprintf(stderr, "wakesim %s: %s %s: not a file name\n", cmd, opt, path);
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "wakesim %s: %s %s: directory %s does not exist\n", cmd, opt, path, dir);
		return -1;
	}
	if (access(dir, W_OK)) {
		fprintf(stderr, "wakesim %s: %s %s: cannot write in %s\n", cmd, opt, path, dir);
		return -1;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "wakesim %s: %s %s: is a directory\n", cmd, opt, path);
		return -1;
	}
	return 0;
}

int out_open(struct out_buf *ob)
{
	ob->data = NULL;
	ob->len = 0;
	ob->f = open_memstream(&ob->data, &ob->len);
	return ob->f ? 0 : -1;
}

void out_discard(struct out_buf *ob)
{
	if (ob->f)
		fclose(ob->f);
	free(ob->data);
	ob->f = NULL;
	ob->data = NULL;
}

int out_commit(struct out_buf *ob, const char *path)
{
	int ret = 0;

	fclose(ob->f);
	ob->f = NULL;
	if (!path) {
		if (fwrite(ob->data, 1, ob->len, stdout) != ob->len || fflush(stdout)) {
			fprintf(stderr, "wakesim: writing the output to stdout: %s\n",
				strerror(errno ? errno : EIO));
			ret = -1;
		}
	} else {
		char target[4096], tmp[4096];
		struct stat st;

		/* Write through symlinks; devices and FIFOs cannot be replaced, only written. */
		if (!realpath(path, target))
			snprintf(target, sizeof(target), "%s", path);
		if (!stat(target, &st) && !S_ISREG(st.st_mode)) {
			FILE *f = fopen(target, "wb");
			bool ok = f && fwrite(ob->data, 1, ob->len, f) == ob->len;

			if (f)
				ok = (fclose(f) == 0) && ok;
			if (!ok) {
				fprintf(stderr, "wakesim: %s: %s\n", path, strerror(errno));
				ret = -1;
			}
		} else {
			/* A short temporary name beside the target, renamed over it. */
			const char *slash = strrchr(target, '/');
			int fd;

			snprintf(tmp, sizeof(tmp), "%.*s.wakesim-XXXXXX",
				 slash ? (int)(slash - target + 1) : 0, target);
			fd = mkstemp(tmp);
			if (fd < 0) {
				fprintf(stderr, "wakesim: %s: cannot create a temporary file beside it: %s\n",
					path, strerror(errno));
				ret = -1;
			} else {
				FILE *f = fdopen(fd, "wb");
				bool ok = f && fwrite(ob->data, 1, ob->len, f) == ob->len;

				ok = f && (fflush(f) == 0) && ok;
				ok = f && (fsync(fd) == 0) && ok;
				ok = f && (fclose(f) == 0) && ok;
				if (!f)
					close(fd);
				/* mkstemp makes 0600; give the file the usual permissions. */
				ok = ok && chmod(tmp, 0644) == 0;
				if (!ok || rename(tmp, target)) {
					fprintf(stderr, "wakesim: %s: %s\n", path, strerror(errno));
					unlink(tmp);
					ret = -1;
				}
			}
		}
	}
	free(ob->data);
	ob->data = NULL;
	return ret;
}

/* One more --sysctl assignment: 1, or -1 (printed) when the list is full. */
static int push_sysctl(const char *cmd, struct common_opts *o, const char *assignment)
{
	if (o->nr_sysctl == (int)(sizeof(o->sysctl) / sizeof(o->sysctl[0]))) {
		fprintf(stderr, "wakesim %s: too many --sysctl\n", cmd);
		return -1;
	}
	o->sysctl[o->nr_sysctl++] = assignment;
	return 1;
}

int common_opt(const char *cmd, int c, int argc, char **argv, const char *usage,
	       struct common_opts *o)
{
	long v;

	(void)argc;
	switch (c) {
	case 'm':
		o->machine = optarg;
		return 1;
	case 'W': {
		/* --wc-threshold 1ms / 500us / 2 (ms): the tunable wc_threshold_ns. */
		char *end;
		double d = strtod(optarg, &end), scale = 1e6;

		if (!strcmp(end, "ns"))
			scale = 1;
		else if (!strcmp(end, "us"))
			scale = 1e3;
		else if (!strcmp(end, "s"))
			scale = 1e9;
		else if (*end && strcmp(end, "ms"))
			end = optarg; /* reject below */
		if (end == optarg || d * scale < 1000 || d * scale > 1e10) {
			fprintf(stderr, "wakesim %s: --wc-threshold \"%s\": expected a duration "
				"from 1us to 10s (e.g. 1ms, 500us; a bare number is ms)\n", cmd, optarg);
			return -1;
		}
		snprintf(o->wc_buf, sizeof(o->wc_buf), "wc_threshold_ns=%.0f", d * scale);
		return push_sysctl(cmd, o, o->wc_buf);
	}
	case 'K': {
		int kv = kernel_version_parse(optarg);

		if (kv < 0) {
			fprintf(stderr, "wakesim %s: --kernel \"%s\": expected v5.12, v6.4, v6.6 or mainline\n",
				cmd, optarg);
			return -1;
		}
		o->kver = kv;
		return 1;
	}
	case 'P':
		/* The last one wins, as for every other repeated option. */
		o->cost_profile = optarg;
		return 1;
	case 'S':
		return push_sysctl(cmd, o, optarg);
	case 's':
		if (parse_count(cmd, "--seed", optarg, 0, INT64_MAX, &v))
			return -1;
		o->seed = (uint64_t)v;
		return 1;
	case 'N':
		if (parse_count(cmd, "--node", optarg, 0, WS_MAX_NODES - 1, &v))
			return -1;
		o->node = (int)v;
		return 1;
	case 'c':
		o->cpus = optarg;
		return 1;
	case 'J':
		o->json = 1;
		return 1;
	case OPT_POLICY:
		o->policy = optarg;
		return 1;
	case OPT_CGROUP: {
		/*
		 * --cgroup /user.slice/user-0.slice/session-1.scope: the workload's
		 * tasks run that many task groups below the root (kern/tg.c).
		 */
		int depth = 0;
		bool bad = optarg[0] != '/';

		for (const char *ch = optarg; !bad && *ch; ch++)
			if (*ch == '/' && ch[1]) {
				bad = ch[1] == '/';
				depth++;
			}
		if (bad || depth > TG_MAX_DEPTH) {
			fprintf(stderr, "wakesim %s: --cgroup \"%s\": expected a cgroup path from the "
				"root, such as /user.slice/user-0.slice/session-1.scope, at most %d "
				"levels deep\n", cmd, optarg, TG_MAX_DEPTH);
			return -1;
		}
		snprintf(o->cgroup_buf, sizeof(o->cgroup_buf), "cgroup_depth=%d", depth);
		return push_sysctl(cmd, o, o->cgroup_buf);
	}
	case OPT_CPU_DMA_LATENCY:
		/*
		 * --cpu-dma-latency 2: what a benchmark harness writes to
		 * /dev/cpu_dma_latency (tuned's force_latency) to keep CPUs out
		 * of idle states slower to leave than 2 us.
		 */
		if (parse_count(cmd, "--cpu-dma-latency", optarg, 0, 2000000000, &v))
			return -1;
		snprintf(o->qos_buf, sizeof(o->qos_buf), "cpu_latency_qos_ns=%lld", (long long)v * 1000);
		return push_sysctl(cmd, o, o->qos_buf);
	case 'o':
		o->output = optarg;
		return 1;
	case ':':
		fprintf(stderr, "wakesim %s: option %s needs a value\n", cmd, argv[optind - 1]);
		return -1;
	case '?':
		if (optopt)
			fprintf(stderr, "wakesim %s: unknown option \"-%c\"\n%s", cmd, optopt, usage);
		else
			fprintf(stderr, "wakesim %s: unknown option \"%s\"\n%s", cmd, argv[optind - 1],
				usage);
		return -1;
	}
	return 0;
}

int parse_count(const char *cmd, const char *opt, const char *arg, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		fprintf(stderr, "wakesim %s: %s: \"%s\" is not an integer in %ld..%ld\n", cmd, opt,
			arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

json_object *invocation_json(int argc, char **argv)
{
	json_object *a = json_object_new_array();
	bool workload = false;

	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (!workload) {
			if (!strcmp(s, "--")) {
				workload = true;
			} else if (!strcmp(s, "-o") || !strcmp(s, "--output") || !strcmp(s, "-j") ||
				   !strcmp(s, "--jobs") || !strcmp(s, "--schedstat") ||
				   !strcmp(s, "--trace") || !strcmp(s, "--trace-window") ||
				   !strcmp(s, "--trace-max-size") || !strcmp(s, "--plot")) {
				i++;
				continue;
			} else if (!strncmp(s, "--output=", 9) || !strncmp(s, "--jobs=", 7) ||
				   !strncmp(s, "--schedstat=", 12) || !strncmp(s, "--trace=", 8) ||
				   !strncmp(s, "--trace-window=", 15) || !strncmp(s, "--plot=", 7) ||
				   !strncmp(s, "--trace-max-size=", 17) ||
				   (s[0] == '-' && (s[1] == 'o' || s[1] == 'j'))) {
				continue;
			}
		}
		json_object_array_add(a, json_object_new_string(s));
	}
	return a;
}

int check_distinct_outputs(const char *cmd, const char *opt_a, const char *a, const char *opt_b,
			   const char *b)
{
	char ra[4096], rb[4096];

	if (!a || !b)
		return 0;
	/* The same file by name, or by where its directory resolves to. */
	bool same = !strcmp(a, b);

	if (!same && canonical_path(a, ra, sizeof(ra)) && canonical_path(b, rb, sizeof(rb)))
		same = !strcmp(ra, rb);
	if (same) {
		fprintf(stderr, "wakesim %s: %s %s and %s %s are the same file: one output would "
			"overwrite the other\n", cmd, opt_a, a, opt_b, b);
		return -1;
	}
	return 0;
}

int check_plot_dir(const char *cmd, const char *dir)
{
	struct stat st;
	char parent[4096];

	if (dir[0] == '-') {
		fprintf(stderr, "wakesim %s: --plot \"%s\": expected a directory, not an option\n", cmd,
			dir);
		return -1;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	char *slash = strrchr(parent, '/');

	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "wakesim %s: --plot %s: exists and is not a directory\n", cmd,
				dir);
			return -1;
		}
	} else if (slash && (*slash = '\0', parent[0] && stat(parent, &st))) {
		fprintf(stderr, "wakesim %s: --plot %s: its parent directory %s does not exist\n", cmd,
			dir, parent);
		return -1;
	}
	return 0;
}
