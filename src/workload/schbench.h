/*
 * schbench.h - schbench's latency histogram, exported for tests: fio's
 * log-linear buckets (plat_val_to_idx()/plat_idx_to_val() in schbench.c,
 * from fio): values below 512 exact, then 256 buckets per power of two,
 * each reported at its middle.
 */
#ifndef WS_SCHBENCH_H
#define WS_SCHBENCH_H

#define SCH_PLAT_BITS 8
#define SCH_PLAT_VAL (1 << SCH_PLAT_BITS)
#define SCH_PLAT_GROUP_NR 19
#define SCH_PLAT_NR (SCH_PLAT_GROUP_NR * SCH_PLAT_VAL)
#define SCH_NPLIST 5	/* 20, 50, 90, 99, 99.9 */

/* The bucket of a value (us), and the value a bucket reports. */
unsigned int schbench_plat_index(unsigned int val);
unsigned int schbench_plat_value(unsigned int idx);
/*
 * The percentile walk over plat[SCH_PLAT_NR] holding nr samples: val[j] is
 * the value of the first bucket where the running count reaches p_j% of
 * nr, cnt[j] the samples since the previous percentile. Returns how many
 * percentiles were found (0 without samples).
 */
int schbench_percentiles(const unsigned int *plat, unsigned long long nr, unsigned int *val,
			 unsigned long long *cnt);

#endif
