/*
 * topology.h - building the sched-domain hierarchy of a machine, as
 * kernel/sched/topology.c does, and printing it like
 * /sys/kernel/debug/sched/domains.
 */
#ifndef WS_KERN_TOPOLOGY_H
#define WS_KERN_TOPOLOGY_H

#include <stdio.h>

#include "sched.h"

/* include/linux/topology.h: node_reclaim_distance's default. */
#define RECLAIM_DISTANCE 30
/* What AMD Zen's init_amd_zn() (v5.4 on; init_amd_zen_common() after the later rework) sets it to. */
#define ZEN_RECLAIM_DISTANCE 32

/*
 * node_reclaim_distance for machine m (SLIT units): sd_init() strips
 * SD_BALANCE_EXEC, SD_BALANCE_FORK and SD_WAKE_AFFINE from NUMA levels
 * farther than it. RECLAIM_DISTANCE, but ZEN_RECLAIM_DISTANCE when the
 * arch code knows m's CPUs as AMD Zen (arch/x86/kernel/cpu/amd.c: vendor
 * AuthenticAMD, family 0x17 (v5.4) or 0x19 (v5.7): every profile; 0x1a where
 * zen5_known, the profile's amd_zen5_known), so that a 2-socket EPYC's
 * other socket, 32 away, keeps wake-affine and fork balancing (commit
 * a55c7454a8c8, "sched/topology: Improve load balancing on AMD EPYC
 * systems", v5.4).
 */
int node_reclaim_distance(const struct machine *m, bool zen5_known);

/*
 * Build the domains of every CPU: levels SMT, CLS, MC, PKG and, on NUMA
 * machines, NODE and one NUMA level per distinct distance
 * (sched_init_numa()); parameters from sd_init(); degenerate levels removed
 * (sd_degenerate(), sd_parent_degenerate()); groups per level; then the
 * per-CPU shortcuts of update_top_cache_domain(). Models mainline
 * (v6.7+ names: PKG, SD_SHARE_LLC, SD_CLUSTER). Returns 0 or -1 (ENOMEM).
 */
int build_sched_domains(const struct machine *m, struct sched_domains *d);
/*
 * The same as a kernel profile builds them: with or without the CLS level
 * (CONFIG_SCHED_CLUSTER, v5.16+), and with its node_reclaim_distance.
 */
int build_sched_domains_for(const struct machine *m, struct sched_domains *d,
			    const struct kernel_profile *kp);
void free_sched_domains(struct sched_domains *d);

/* cpus_share_cache(): same LLC (kernel/sched/core.c). */
static inline bool doms_share_cache(const struct sched_domains *d, int a, int b)
{
	return a == b || d->cpu[a].sd_llc_id == d->cpu[b].sd_llc_id;
}

/* The TTWU_QUEUE_L2C RFC's cpus_share_l2c(): the same L2 (topology cluster). */
static inline bool doms_share_l2c(const struct sched_domains *d, int a, int b)
{
	return a == b || d->cpu[a].sd_l2c_id == d->cpu[b].sd_l2c_id;
}

/* cpus_share_resources(): same cluster, or same LLC without clusters (v6.7+). */
static inline bool doms_share_resources(const struct sched_domains *d, int a, int b)
{
	return a == b || d->cpu[a].sd_share_id == d->cpu[b].sd_share_id;
}

/* Names of the flags set in `flags`, space separated, as debugfs prints them. */
void sd_flags_print(unsigned int flags, char *buf, size_t len);

/* Print every CPU's domains: level, name, span, flags, groups. */
void sched_domains_print(FILE *out, const struct machine *m, const struct sched_domains *d);

#endif
