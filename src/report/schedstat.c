/*
 * schedstat.c - the /proc/schedstat text of schedstat.h.
 */
#include "schedstat.h"

#include "kern/kernel.h"
#include "kern/lb.h"

void schedstat_write(struct sim *sim, FILE *f)
{
	bool v16 = kernel_profile(sim->tun->kver)->schedstat_version == 16;
	/* The kernel's column order of the idle types, as our enum values. */
	const int order15[3] = { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };
	const int order16[3] = { CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE };
	const int *order = v16 ? order16 : order15;
	char span[4096];

	fprintf(f, "version %d\ntimestamp %llu\n", v16 ? 16 : 15,
		(unsigned long long)(sim->now / sim->tun->tick_ns));
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		struct rq *rq = &sim->rq[cpu];
		struct sched_domain *sd;
		int n = 0;

		/*
		 * The kernel's nine fields, then the four SIS counters as Mel
		 * Gorman's schedstat patch appended them (sis_search,
		 * sis_domain_search, sis_scanned, sis_failed; never merged:
		 * readers of the version's nine fields skip them).
		 */
		fprintf(f, "cpu%d 0 0 %u %u %u %u %llu %llu %lu %u %u %u %u\n", cpu, rq->sched_count,
			rq->sched_goidle, rq->ttwu_count, rq->ttwu_local,
			(unsigned long long)rq->busy_ns, (unsigned long long)rq->rq_run_delay,
			rq->nr_switches, rq->sis_search, rq->sis_domain_search, rq->sis_scanned,
			rq->sis_failed);
		for_each_domain(sim, cpu, sd) {
			fprintf(f, "domain%d %s", n++,
				cpumask_print_bitmap(&sd->span, sim->nr_cpus, span, sizeof(span)));
			for (int i = 0; i < 3; i++) {
				int t = order[i];

				fprintf(f, " %u %u %u %lu %u %u %u %u", sd->lb_count[t], sd->lb_balanced[t],
					sd->lb_failed[t], sd->lb_imbalance[t], sd->lb_gained[t],
					sd->lb_hot_gained[t], sd->lb_nobusyq[t], sd->lb_nobusyg[t]);
			}
			fprintf(f, " 0 0 0 0 0 0 0 0 0 %u %u 0\n", sd->ttwu_wake_remote,
				sd->ttwu_move_affine);
		}
	}
}
