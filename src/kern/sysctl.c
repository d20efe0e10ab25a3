/*
 * sysctl.c - the scheduler's tunables, named as in /sys/kernel/debug/sched/
 * and /proc/sys/kernel (--sysctl name=value), with mainline defaults.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kern/sim.h"

/*
 * sysctl_sched_base_slice is 0.70 ms (v6.15+; 0.75 ms before) scaled by
 * 1 + ilog2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG), so 2.8 ms from 8
 * CPUs up. HZ=250 as Debian's kernels are built (CONFIG_HZ_250).
 */
void sched_tunables_default(struct sched_tunables *t, int nr_cpus)
{
	int n = nr_cpus < 8 ? nr_cpus : 8, factor = 1;

	while (n > 1) {
		n >>= 1;
		factor++;
	}
	t->base_slice_ns = 700000ULL * (u64)factor;
	t->sched_latency_ns = 6000000ULL * (u64)factor;
	t->min_granularity_ns = 750000ULL * (u64)factor;
	t->wakeup_granularity_ns = 1000000ULL * (u64)factor;
	t->kver = KV_MAINLINE;
	t->migration_cost_ns = 500000;
	t->idle_delay_ns = 1000000;
	t->sis_short_set = false;
	t->timer_slack_ns = 50000;
	t->wc_threshold_ns = 1000000;
	t->cgroup_depth = 0;
	/* PM_QOS_CPU_LATENCY_DEFAULT_VALUE, 2000 s: no limit (kernel/power/qos.c). */
	t->cpu_latency_qos_ns = CPU_LATENCY_QOS_NONE_NS;
	t->hz = 250;
	/* Not set in Debian's (and Ubuntu's, SLES's) configs; Fedora and RHEL 9 set it. */
	t->irq_time_accounting = 0;
	t->tick_ns = NSEC_PER_SEC / t->hz;
	sched_tunables_derive(t);
}

void sched_tunables_derive(struct sched_tunables *t)
{
	/* S4's short-task threshold: min_granularity / 8 in its CFS patch,
	 * the base slice / 8 on EEVDF. */
	if (!t->sis_short_set)
		t->sis_short_ns = (kernel_profile(t->kver)->cfs ? t->min_granularity_ns
							       : t->base_slice_ns) / 8;
}

void sched_tunables_kernel(struct sched_tunables *t, int kver, int nr_cpus)
{
	struct sched_tunables d;

	sched_tunables_default(&d, nr_cpus);
	t->kver = kver;
	/* EEVDF's base slice was 0.75 ms x factor until v6.15 lowered it. */
	if (!kernel_profile(kver)->cfs)
		t->base_slice_ns = d.base_slice_ns / 700000 * kernel_profile(kver)->base_slice_ns;
	sched_tunables_derive(t);
}

struct tunable {
	const char *name;
	size_t off;
	u64 min, max;
	const char *help;
	int sched;		/* SCHED_ANY, or the one pick algorithm that has it */
};

enum { SCHED_ANY, SCHED_CFS_ONLY, SCHED_EEVDF_ONLY };

#define T(field, lo, hi, help) { #field, offsetof(struct sched_tunables, field), lo, hi, help, SCHED_ANY }
#define TS(field, lo, hi, help, sched) { #field, offsetof(struct sched_tunables, field), lo, hi, help, sched }
static const struct tunable tunables[] = {
	TS(base_slice_ns, 100000, 100000000, "EEVDF profiles: request size (sysctl_sched_base_slice)", SCHED_EEVDF_ONLY),
	T(migration_cost_ns, 0, 100000000, "cache-hot window of task_hot() and new-idle"),
	T(idle_delay_ns, 0, 100000000, "S2 IDLE_DELAY: how long a CPU stays 'idle' after leaving idle"),
	T(sis_short_ns, 0, 100000000, "S4 SIS_SHORT: dur_avg below this is a short task (min_granularity/8 on CFS, base_slice/8 on EEVDF)"),
	T(timer_slack_ns, 0, 100000000, "hrtimer slack of sleeping tasks (prctl PR_SET_TIMERSLACK)"),
	TS(sched_latency_ns, 100000, 1000000000, "CFS profiles: sysctl_sched_latency, the period of sched_slice()", SCHED_CFS_ONLY),
	TS(min_granularity_ns, 100000, 1000000000, "CFS profiles: sysctl_sched_min_granularity", SCHED_CFS_ONLY),
	TS(wakeup_granularity_ns, 0, 1000000000, "CFS profiles: sysctl_sched_wakeup_granularity", SCHED_CFS_ONLY),
	T(wc_threshold_ns, 1000, 10000000000ULL, "wakesim's work-conservation checker: shortest idle-while-waiting interval counted (--wc-threshold)"),
	T(cgroup_depth, 0, TG_MAX_DEPTH, "task groups from the root to the workload's (--cgroup PATH's components); 0: the root group"),
	T(cpu_latency_qos_ns, 0, CPU_LATENCY_QOS_NONE_NS, "PM QoS CPU latency limit (/dev/cpu_dma_latency, --cpu-dma-latency): the governor chooses no idle state with a longer exit latency; default 2000 s, no limit"),
	T(irq_time_accounting, 0, 1, "CONFIG_IRQ_TIME_ACCOUNTING: 1 leaves softirq time out of rq->clock_task, so out of PELT and update_curr(); 0 (Debian's config) counts it as the interrupted task's"),
	{ "hz", offsetof(struct sched_tunables, hz), 100, 1000, "CONFIG_HZ: tick rate", SCHED_ANY },
};
#undef T
#undef TS

static unsigned long long tunable_value(const struct sched_tunables *t, const struct tunable *tu)
{
	return !strcmp(tu->name, "hz") ? t->hz : *(const u64 *)((const char *)t + tu->off);
}

/*
 * The table's name, the sysctl spelling ("sched_" + name, as
 * /proc/sys/kernel/sched_* before v5.13) or the debugfs one (the name
 * without "sched_", as /sys/kernel/debug/sched/ since v5.13).
 */
static const struct tunable *tunable_find(const char *base)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
			const char *n = tunables[i].name;

			if ((pass == 0 && !strcmp(n, base)) ||
			    (pass == 1 && !strncmp(base, "sched_", 6) && !strcmp(n, base + 6)) ||
			    (pass == 2 && !strncmp(n, "sched_", 6) && !strcmp(n + 6, base)))
				return &tunables[i];
		}
	return NULL;
}

int sched_tunable_get(const struct sched_tunables *t, const char *name, unsigned long long *v)
{
	const struct tunable *tu = tunable_find(name);

	if (!tu)
		return -1;
	*v = tunable_value(t, tu);
	return 0;
}

int sched_tunables_set(struct sched_tunables *t, int kver, const char *assignment, char *err,
		       size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	char name[64], *end;

	if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof(name)) {
		snprintf(err, errlen, "--sysctl \"%s\": expected name=value", assignment);
		return -1;
	}
	memcpy(name, assignment, (size_t)(eq - assignment));
	name[eq - assignment] = '\0';
	/* Accept the debugfs path spelling too. */
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	const struct tunable *tu = tunable_find(base);

	if (tu) {
		bool cfs = kernel_profile(kver)->cfs;

		/* Setting a knob the profile's kernel does not have would be ignored. */
		if ((tu->sched == SCHED_CFS_ONLY && !cfs) || (tu->sched == SCHED_EEVDF_ONLY && cfs)) {
			snprintf(err, errlen, "--sysctl %s: kernel %s (%s) has no such tunable; it "
				 "belongs to %s profiles", tu->name, kernel_version_name(kver),
				 cfs ? "CFS" : "EEVDF", cfs ? "EEVDF (v6.6, mainline)" : "CFS (v5.12, v6.4)");
			return -1;
		}
		errno = 0;
		unsigned long long v = strtoull(eq + 1, &end, 10);

		if (errno || end == eq + 1 || *end || eq[1] == '-' || v < tu->min || v > tu->max) {
			snprintf(err, errlen, "--sysctl %s: \"%s\" is not an integer in %llu..%llu",
				 tu->name, eq + 1, (unsigned long long)tu->min,
				 (unsigned long long)tu->max);
			return -1;
		}
		if (!strcmp(tu->name, "hz")) {
			if (v != 100 && v != 250 && v != 300 && v != 1000) {
				snprintf(err, errlen,
					 "--sysctl hz: %llu is not a CONFIG_HZ value (100, 250, 300, 1000)", v);
				return -1;
			}
			t->hz = (unsigned int)v;
			t->tick_ns = NSEC_PER_SEC / t->hz;
		} else {
			*(u64 *)((char *)t + tu->off) = v;
		}
		if (tu->off == offsetof(struct sched_tunables, sis_short_ns))
			t->sis_short_set = true;
		return 0;
	}
	int off = snprintf(err, errlen, "--sysctl: unknown tunable \"%s\" (known:", name);

	for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]) && off > 0 &&
			   (size_t)off < errlen; i++)
		off += snprintf(err + off, errlen - (size_t)off, " %s", tunables[i].name);
	if (off > 0 && (size_t)off < errlen)
		snprintf(err + off, errlen - (size_t)off, ")");
	return -1;
}

void sched_tunables_print(const struct sched_tunables *t, FILE *out)
{
	for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		const struct tunable *tu = &tunables[i];
		fprintf(out, "%-20s %12llu  %s\n", tu->name, tunable_value(t, tu), tu->help);
	}
}


void sched_tunables_diff(const struct sched_tunables *def, const struct sched_tunables *t,
			 char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		unsigned long long a = tunable_value(def, &tunables[i]), b = tunable_value(t, &tunables[i]);

		if (a == b)
			continue;
		int n = snprintf(buf + off, len - off, "%s%s=%llu", off ? "," : "", tunables[i].name, b);

		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
	if (!off)
		snprintf(buf, len, "default");
}
