/*
 * workload.c - the registry of workloads by tool name.
 */
#include "workload.h"

#include <stdio.h>
#include <string.h>

static const struct load_alias hackbench_loads[] = {
	{ "groups", "-g" }, { "loops", "-l" }, { NULL, NULL },
};
static const struct load_alias tbench_loads[] = {
	{ "clients", "--nprocs" }, { "nprocs", "--nprocs" }, { NULL, NULL },
};
static const struct load_alias netperf_loads[] = {
	{ "instances", "--instances" }, { "clients", "--instances" }, { "threads", "--instances" },
	{ NULL, NULL },
};
static const struct load_alias pgbench_loads[] = {
	{ "clients", "-c" }, { "threads", "-j" }, { NULL, NULL },
};
static const struct load_alias wis_loads[] = {
	{ "tasks", "-t" }, { "threads", "-t" }, { "processes", "-t" }, { NULL, NULL },
};
static const struct load_alias perf_loads[] = {
	{ "loops", "-l" }, { "threads", "-t" }, { NULL, NULL },
};
static const struct load_alias schbench_loads[] = {
	{ "workers", "-t" }, { "messages", "-m" }, { "rps", "-R" }, { NULL, NULL },
};

const struct workload_def workload_defs[] = {
	{ "hackbench", "rt-tests hackbench: groups of senders/receivers over pipes or sockets; Time in s",
	  hackbench_usage, hackbench_create, hackbench_loads },
	{ "tbench", "dbench's tbench: N client/server pairs over TCP loopback replaying a load file; MB/s",
	  tbench_usage, tbench_create, tbench_loads },
	{ "netperf", "netperf TCP_RR/UDP_RR: concurrent request/response pairs; transactions/s (sum)",
	  netperf_usage, netperf_create, netperf_loads },
	{ "pgbench", "pgbench -S as mmtests' db-pgbench-timed-ro: clients and backends; tps",
	  pgbench_usage, pgbench_create, pgbench_loads },
	{ "context_switch1", "will-it-scale context_switch1: task pairs ping-ponging a byte over pipes; ops/s",
	  wis_usage, wis_create, wis_loads },
	{ "context_switch1_processes", "the same, process variant (as context_switch1)", wis_usage,
	  wis_create, wis_loads },
	{ "context_switch1_threads", "the same, thread variant", wis_usage, wis_create, wis_loads },
	{ "schbench", "schbench: message and worker threads; wakeup/request latency percentiles, RPS",
	  schbench_usage, schbench_create, schbench_loads },
	{ "perf", "perf bench sched pipe (a two-task pipe ping-pong; usecs/op) and futex wake "
		  "(one thread wakes N; ms)",
	  perf_usage, perf_create, perf_loads },
	{ "rt-app", "rt-app: tasks described by an rt-app JSON file; timer wake-up latency",
	  rtapp_usage, rtapp_create, NULL },
	{ "replay", "a recorded trace (perf sched record, trace-cmd, ftrace) replayed; Time in s",
	  replay_usage, replay_create, NULL },
};
const int nr_workload_defs = (int)(sizeof(workload_defs) / sizeof(workload_defs[0]));

const struct workload_def *workload_find(const char *argv0)
{
	const char *name = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;

	for (int i = 0; i < nr_workload_defs; i++)
		if (!strcmp(name, workload_defs[i].name))
			return &workload_defs[i];
	return NULL;
}

int workload_load_option(const char *argv0, const char *name, char *opt, size_t len)
{
	const struct workload_def *d = workload_find(argv0);

	for (const struct load_alias *a = d ? d->loads : NULL; a && a->name; a++)
		if (!strcmp(a->name, name)) {
			snprintf(opt, len, "%s", a->opt);
			return 0;
		}
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
			return -1;
	snprintf(opt, len, "%s%s", name[1] ? "--" : "-", name);
	return 0;
}

struct workload *workload_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	*help = false;
	if (argc < 1) {
		snprintf(err, errlen, "no workload given (after --): see wakesim workloads");
		return NULL;
	}
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	for (int i = 0; i < nr_workload_defs; i++)
		if (!strcmp(name, workload_defs[i].name))
			return workload_defs[i].create(argc, argv, help, err, errlen);
	int off = snprintf(err, errlen, "unknown workload \"%s\" (known:", argv[0]);

	for (int i = 0; i < nr_workload_defs && off > 0 && (size_t)off < errlen; i++)
		off += snprintf(err + off, errlen - (size_t)off, " %s", workload_defs[i].name);
	if (off > 0 && (size_t)off < errlen)
		snprintf(err + off, errlen - (size_t)off, ")");
	return NULL;
}

int workload_check(struct workload *wl, char *why, size_t len)
{
	return wl->ops->check ? wl->ops->check(wl, why, len) : 0;
}
