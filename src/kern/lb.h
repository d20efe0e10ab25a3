/*
 * lb.h - group statistics shared by fork placement (idlest.c) and load
 * balancing (balance.c), after struct sg_lb_stats and enum group_type of
 * kernel/sched/fair.c (v6.12; misfit/asym/imbalanced classes not modelled).
 */
#ifndef WS_LB_H
#define WS_LB_H

#include "sched.h"

#define NUMA_IMBALANCE_MIN 2

/* Ordered from least to most busy, as the kernel compares them. */
enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_overloaded = 6,
};

struct sg_stats {
	unsigned long avg_load;		/* group_load * 1024 / capacity, busy groups */
	unsigned long group_load;	/* sum of cpu_load() */
	unsigned long group_capacity;
	unsigned long group_util;	/* sum of cpu_util() */
	unsigned long group_runnable;	/* sum of runnable_avg */
	unsigned long sum_nr_running;
	unsigned long idle_cpus;
	int group_weight;
	enum group_type group_type;
};

enum cpu_idle_type { CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE };

/*
 * sched_balance_rq() (load_balance() before v6.10): one balance pass of sd
 * for dst_cpu, which is busy, idle, or newly idle; returns the number of
 * tasks pulled to dst_cpu.
 */
int sched_balance_rq(struct sim *sim, int dst_cpu, struct sched_domain *sd,
		     enum cpu_idle_type idle);

/*
 * How often (ns) a busy CPU refreshes SIS_UTIL's nr_idle_scan: the longest
 * busy balance interval of an LLC domain, since update_idle_cpu_scan()
 * runs only in LLC-level periodic balance (fair.c, v6.1+). 0 without
 * domains. It sets how long a run takes to settle (workload/steady.h).
 */
u64 sis_util_refresh_ns(struct sim *sim);

/* group_classify(): overloaded, fully busy or with spare capacity. */
enum group_type group_classify(unsigned int imbalance_pct, const struct sg_stats *sgs);
/* adjust_numa_imbalance(): 0 when a small imbalance toward a quiet node is tolerated. */
long adjust_numa_imbalance(long imbalance, int dst_running, int imb_numa_nr);

#endif
