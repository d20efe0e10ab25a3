/*
 * pelt.h - per-entity load tracking, after kernel/sched/pelt.c (v6.12).
 *
 * Time advances in 1024-ns units grouped into 1024-unit periods (about
 * 1 ms); each period decays history by y, y^32 = 1/2. Sums are integer and
 * bit-for-bit the kernel's arithmetic (same fixed-point table, derived in
 * pelt.c), so a hand calculation from the kernel's formulas predicts them.
 */
#ifndef WS_PELT_H
#define WS_PELT_H

#include "sched.h"

#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742	/* checked at start-up against the series */
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)
#define SCHED_CAPACITY_SHIFT 10
#define UTIL_AVG_UNCHANGED 0x80000000u
#define UTIL_EST_MARGIN (1024 / 100)
#define UTIL_EST_WEIGHT_SHIFT 2

/* val * y^n, as decay_load(). */
u64 pelt_decay_load(u64 val, u64 n);
/* The fixed point of s = s*y + 1024 with the kernel's truncation: 47742. */
u64 pelt_load_avg_max(void);

/*
 * ___update_load_sum() then ___update_load_avg(): advance sa to now (ns)
 * with the given inputs (load: 0/1 for an entity, the weight sum for a
 * cfs_rq; runnable: 0/1 or a task count; running: 0, or the capacity
 * 1..1024 of the CPU it runs on), then recompute the averages with
 * avg_weight (the entity's weight, or 1 for a cfs_rq) if a period boundary
 * was crossed. Returns 1 if the averages changed.
 *
 * Scaling the running contribution by capacity stands for the kernel's
 * capacity-invariant PELT clock (rq_clock_pelt(), v5.1+): work done, not
 * time spent, so a task's util is the same on a big and a LITTLE CPU. The
 * kernel slows the whole clock while the CPU runs; here only util is
 * scaled (load and runnable are not), which differs only on CPUs below
 * capacity 1024.
 */
int pelt_update(struct sched_avg *sa, u64 now, unsigned long load, unsigned long runnable,
		unsigned long running, unsigned long avg_weight);

/* Add or remove an entity's sums to/from a cfs_rq (attach/detach_entity_load_avg). */
void pelt_attach(struct sched_avg *cfs, const struct sched_avg *se);
void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se);

/* A new task's util_avg (post_init_entity_util_avg()), capacity 0..1024. */
void pelt_init_task(struct sched_avg *se, const struct sched_avg *cfs,
		    unsigned long cfs_load, unsigned long weight, unsigned long capacity, u64 now);

/* util_est_update() at a sleep dequeue (v6.9+ single-value form). */
void util_est_update(struct sched_avg *se, unsigned long capacity);
static inline unsigned int task_util_est_raw(const struct sched_avg *se)
{
	return se->util_est & ~UTIL_AVG_UNCHANGED;
}

#endif
