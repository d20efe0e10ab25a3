/*
 * calib_net.c - the model's line transfers on calibrate's probe path
 * (calib_net.h).
 */
#include "calib_net.h"

#include <stdio.h>

#include "runner.h"

/* One sched pipe run on the two CPUs: its usecs/op in ns, or -1. */
static double pipe_rtt(const struct machine *m, int cpu_a, int cpu_b, long loops, char *err,
		       size_t errlen)
{
	char l[24];
	char *argv[] = { "perf", "bench", "sched", "pipe", "-T", "-l", l, NULL };
	struct run_spec spec = { .m = m, .argc = 7, .argv = argv };
	struct run_outcome out;

	snprintf(l, sizeof(l), "%ld", loops);
	sched_features_default_for(&spec.features, KV_MAINLINE);
	sched_tunables_default(&spec.tunables, m->topo.nr_cpus);
	sched_tunables_kernel(&spec.tunables, KV_MAINLINE, m->topo.nr_cpus);
	sched_tunables_derive(&spec.tunables);
	cpumask_clear(&spec.allowed);
	cpumask_set_cpu(cpu_a, &spec.allowed);
	cpumask_set_cpu(cpu_b, &spec.allowed);
	if (run_one(&spec, 1, &out, NULL)) {
		snprintf(err, errlen, "the model's sched pipe: %s", out.err);
		return -1;
	}
	return out.result * 1000;
}

double calib_model_line_ns(const struct machine *m, int cpu_a, int cpu_b, long loops, char *err,
			   size_t errlen)
{
	struct machine flat = *m;	/* read only: its pointers stay m's */
	double with, without;

	for (int cls = 0; cls < C2C_NR; cls++)
		flat.costs.c2c_ns[cls] = 1;
	with = pipe_rtt(m, cpu_a, cpu_b, loops, err, errlen);
	if (with < 0)
		return -1;
	without = pipe_rtt(&flat, cpu_a, cpu_b, loops, err, errlen);
	if (without < 0)
		return -1;
	return with > without ? (with - without) / 2 : 0;
}

double calib_net_path(double net_ns, double *exit_ns, double *send_ns, double send_floor_ns)
{
	double take = net_ns < *exit_ns ? net_ns : *exit_ns;

	if (take < 0)
		take = 0;
	*exit_ns -= take;
	net_ns -= take;
	if (send_ns && net_ns > 0 && *send_ns > send_floor_ns) {
		take = *send_ns - send_floor_ns < net_ns ? *send_ns - send_floor_ns : net_ns;
		*send_ns -= take;
		net_ns -= take;
	}
	return net_ns;
}
