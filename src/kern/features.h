/*
 * features.h - scheduler feature switches, after kernel/sched/features.h:
 * one line each, toggled with the debugfs syntax ("SIS_SHORT",
 * "NO_SIS_UTIL") by --features, tested in code with sched_feat(NAME).
 *
 * Defaults are mainline's (see docs/kernel-model.md for the version); the
 * four seed proposals are off by default, as none of them is in mainline
 * (S1 is, so its switch restores the pre-patch behaviour instead).
 */
#ifndef WS_FEATURES_H
#define WS_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

/* SCHED_FEAT(name, default, comment) */
#define WS_SCHED_FEATURES(SCHED_FEAT)                                                   \
	/* EEVDF placement: keep a waking task's lag (place_entity). */                  \
	SCHED_FEAT(PLACE_LAG, true)                                                      \
	/* A new task gets half a slice for its first deadline. */                       \
	SCHED_FEAT(PLACE_DEADLINE_INITIAL, true)                                         \
	/* The running task keeps the CPU until its deadline (no wake-up preemption). */ \
	SCHED_FEAT(RUN_TO_PARITY, true)                                                  \
	/* A waking task may preempt the running one. */                                 \
	SCHED_FEAT(WAKEUP_PREEMPTION, true)                                              \
	/* CFS profiles (v5.12, v6.4) only, removed by EEVDF in v6.6: */                 \
	/* a waking sleeper joins at most sched_latency/2 behind min_vruntime, */        \
	SCHED_FEAT(GENTLE_FAIR_SLEEPERS, true)                                           \
	/* a new task starts one virtual slice after it, */                              \
	SCHED_FEAT(START_DEBIT, true)                                                    \
	/* a preempted task is picked back first when it is not too unfair. */           \
	SCHED_FEAT(LAST_BUDDY, true)                                                     \
	/* Balancing leaves a next/last buddy where it is (task_hot()). */               \
	SCHED_FEAT(CACHE_HOT_BUDDY, true)                                                \
	/* Remote wake-ups across LLCs go through the target's wake list and an IPI. */  \
	SCHED_FEAT(TTWU_QUEUE, true)                                                     \
	/* Bound the LLC idle scan by nr_idle_scan (v6.0+). */                           \
	SCHED_FEAT(SIS_UTIL, true)                                                       \
	/* Bound it by the waking CPU's avg_idle over the LLC's avg_scan_cost         \
	 * (v5.12's default; off from v6.0, removed in v6.7). */                         \
	SCHED_FEAT(SIS_PROP, false)                                                      \
	/* wake_affine(): idle-CPU rules, then load comparison, with prev bias. */       \
	SCHED_FEAT(WA_IDLE, true)                                                        \
	SCHED_FEAT(WA_WEIGHT, true)                                                      \
	SCHED_FEAT(WA_BIAS, true)                                                        \
	/* EEVDF, v6.12: a sleeper with negative lag stays queued (sched_delayed)     \
	 * until a pick would choose it or it wakes: then it is requeued in place,   \
	 * with no CPU selection. DELAY_ZERO clips its positive lag to 0 then. */    \
	SCHED_FEAT(DELAY_DEQUEUE, true)                                                  \
	SCHED_FEAT(DELAY_ZERO, true)                                                     \
	/* Use util_est in cpu_util(). */                                                \
	SCHED_FEAT(UTIL_EST, true)                                                       \
	/* Not a kernel switch: v6.7's 1528c661c24b "sched/fair: Ratelimit update to     \
	 * tg->load_avg" (A. Lu): a cfs_rq adds to tg->load_avg at most once per ms   \
	 * (kern/tg.c; only with --cgroup). Off in the profiles before v6.7. */       \
	SCHED_FEAT(TG_LOAD_RATELIMIT, true)                                              \
	/* Not a kernel switch: LKML 2023-08-22 "sched: ttwu_queue_cond: skip queued     \
	 * wakeups across different l2 caches" (M. Desnoyers, RFC v3 3/3, not merged):  \
	 * a remote wake-up takes the target's rq lock only within its L2; elsewhere   \
	 * it goes through the wake list (ttwu_queue_cond(), kern/core.c). */          \
	SCHED_FEAT(TTWU_QUEUE_L2C, false)                                                \
	/* S1 reversed, LKML 2021-03-20 "sched/fair: remove redundant test_idle_cores    \
	 * for non-smt" (B. Song): read sd_llc_shared->has_idle_cores on every idle      \
	 * search even without SMT, as v5.12 did. */                                     \
	SCHED_FEAT(IDLE_CORES_NO_SMT, false)                                             \
	/* S2, LKML 2023-07-25 "sched: Extend cpu idle state for 1ms" (M. Desnoyers):    \
	 * idle_cpu() stays true for idle_delay_ns after a CPU leaves idle. */           \
	SCHED_FEAT(IDLE_DELAY, false)                                                    \
	/* S3, LKML 2021-05-26 "sched: fair: don't depend on wake_wide if waker and      \
	 * wakee are already in same LLC" (B. Song). */                                  \
	SCHED_FEAT(AFFINE_SAME_LLC, false)                                               \
	/* S4, LKML 2023-02-22 "sched/fair: Introduce SIS_SHORT to wake up short task    \
	 * on current CPU" v6 (Chen Yu). */                                              \
	SCHED_FEAT(SIS_SHORT, false)

enum sched_feature_id {
#define WS_FEAT_ENUM(name, def) __SCHED_FEAT_##name,
	WS_SCHED_FEATURES(WS_FEAT_ENUM)
#undef WS_FEAT_ENUM
	__SCHED_FEAT_NR
};

struct sched_features {
	bool on[__SCHED_FEAT_NR];
};

#define sched_feat_of(feats, x) ((feats)->on[__SCHED_FEAT_##x])

/* The kernel versions wakesim models (--kernel). */
enum kernel_version {
	KV_5_12,	/* CFS, SIS_PROP, v5.12's select_idle_sibling (S1, S3) */
	KV_6_4,		/* CFS, SIS_UTIL, no cluster scan (S2, S4) */
	KV_6_6,		/* EEVDF, first generation: base slice 0.75 ms */
	KV_MAINLINE,	/* EEVDF as of v6.12 and later defaults */
	KV_NR
};

/*
 * What a profile is where the versions differ by data (kern/profile.c);
 * the algorithms that differ branch in the code, each citing its version.
 */
struct kernel_profile {
	const char *name;		/* --kernel's spelling */
	bool cfs;			/* CFS's pick (before v6.6), else EEVDF's */
	bool base_slice_floor;		/* CFS's BASE_SLICE (v5.13-v6.5): a slice is at least
					 * min_granularity */
	bool cls_level;			/* a CLS sched-domain level (v5.16+) */
	unsigned base_slice_ns;		/* EEVDF's sysctl_sched_base_slice before scaling:
					 * 0.75 ms, 0.70 ms from v6.15 (0: CFS) */
	int schedstat_version;		/* /proc/schedstat's format: 15, or 16 with the idle
					 * types reordered (report/schedstat.c) */
	bool rd_flags_on_change;	/* rd->overload(ed) stored only when it changes, and
					 * rd->overutilized only under EAS (v6.9/v6.10) */
	bool pipe_read_wakes_if_was_full; /* pipe_read() wakes a writer whenever the pipe
					 * was full as the read began, even if the read
					 * freed no slot (v5.5-v6.13; fs/pipe.c) */
	bool pipe_ring_under_rd_wait_lock; /* pipe_write()'s head++ and pipe_read()'s
					 * tail++ take rd_wait.lock inside the mutex
					 * (v5.5 to v6.6; fs/pipe.c) */
	bool migrate_pelt_lag;		/* a wake-up migration reads the old CPU's curr
					 * (migrate_se_pelt_lag(), v6.0+) */
	bool amd_zen5_known;		/* AMD family 0x1a is Zen to the arch code
					 * (X86_FEATURE_ZEN5, added in 2024; its EPYC
					 * models 0x10-0x1f in 2025): kern/topology.c */
	/* features.h defaults that differ from mainline's, -1 ended */
	signed char feat_on[4], feat_off[6];
};

extern const struct kernel_profile kernel_profiles[KV_NR];

/* The profile of v (a valid enum kernel_version). */
static inline const struct kernel_profile *kernel_profile(int v)
{
	return &kernel_profiles[v];
}
/* "v5.12", "v6.4", "v6.6", "mainline" <-> the enum; -1 if unknown. */
int kernel_version_parse(const char *s);
const char *kernel_version_name(enum kernel_version v);

/* The mainline defaults. */
void sched_features_default(struct sched_features *f);
/* The defaults of a kernel version (features.h of that version). */
void sched_features_default_for(struct sched_features *f, enum kernel_version v);
/*
 * Apply a comma list in debugfs syntax ("SIS_SHORT,NO_SIS_UTIL"); "default"
 * (or an empty string) keeps the defaults. Returns 0, or -1 naming the
 * unknown feature in err.
 */
int sched_features_parse(struct sched_features *f, const char *list, char *err,
			 size_t errlen);
/* Name of feature i, and the count, for listing. */
const char *sched_feature_name(int i);
bool sched_feature_default(int i);
/*
 * Describe the switches that differ from kernel profile v's defaults
 * ("default" if none), in the debugfs syntax --features takes.
 */
void sched_features_describe(const struct sched_features *f, enum kernel_version v, char *buf,
			     size_t len);

#endif
