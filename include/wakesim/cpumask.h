/*
 * wakesim/cpumask.h - fixed-size CPU bitmaps with the kernel's vocabulary,
 * used by the simulator and by wake-up policies (wakesim/policy.h).
 *
 * The wake-up path is written against cpumasks exactly as fair.c is
 * (cpumask_and(), for_each_cpu_wrap(), ...), so these helpers keep the
 * kernel's names and meanings (include/linux/cpumask.h). Masks hold up to
 * WS_MAX_CPUS bits; operations only touch the words below nr_cpu_ids, which
 * is set once per process when the machine is loaded (as the kernel sets it
 * at boot).
 */
#ifndef WS_CPUMASK_H
#define WS_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NR_CPUS of distribution kernels (Debian, Fedora, Ubuntu: 8192). */
#define WS_MAX_CPUS 8192
#define CPUMASK_WORDS (WS_MAX_CPUS / 64)

struct cpumask {
	uint64_t bits[CPUMASK_WORDS];
};

/* Number of possible CPUs of the loaded machine; 0 before one is loaded. */
extern int nr_cpu_ids;

static inline int cpumask_nr_words(void)
{
	return (nr_cpu_ids + 63) / 64;
}

static inline void cpumask_set_cpu(int cpu, struct cpumask *m)
{
	m->bits[cpu >> 6] |= UINT64_C(1) << (cpu & 63);
}

static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	m->bits[cpu >> 6] &= ~(UINT64_C(1) << (cpu & 63));
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return (m->bits[cpu >> 6] >> (cpu & 63)) & 1;
}

void cpumask_clear(struct cpumask *m);
void cpumask_setall(struct cpumask *m);
void cpumask_copy(struct cpumask *dst, const struct cpumask *src);
/* Each returns whether the result is non-empty, like the kernel's. */
bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b);
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
bool cpumask_subset(const struct cpumask *a, const struct cpumask *b);
bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b);
bool cpumask_empty(const struct cpumask *m);
int cpumask_weight(const struct cpumask *m);
/* First set CPU at or after n, or nr_cpu_ids if none. */
int cpumask_next_from(int n, const struct cpumask *m);
static inline int cpumask_first(const struct cpumask *m)
{
	return cpumask_next_from(0, m);
}
/* Next set CPU strictly after n (kernel's cpumask_next()). */
static inline int cpumask_next(int n, const struct cpumask *m)
{
	return cpumask_next_from(n + 1, m);
}
/* CPU of rank k (0-based) among the set bits, or nr_cpu_ids. */
int cpumask_nth(int k, const struct cpumask *m);

/*
 * for_each_cpu_wrap(): every set CPU, starting at `start` and wrapping
 * around once, as the kernel's macro of the same name (used by
 * select_idle_cpu() so the scan starts next to the target).
 */
/* Next CPU after n in wrap order from start; n = -1 gives the first. */
int cpumask_next_wrap_ws(int n, const struct cpumask *m, int start);

#define for_each_cpu(cpu, mask)                                                \
	for ((cpu) = cpumask_first(mask); (cpu) < nr_cpu_ids;                  \
	     (cpu) = cpumask_next((cpu), (mask)))

#define for_each_cpu_wrap(cpu, mask, start)                                    \
	for ((cpu) = cpumask_next_wrap_ws(-1, (mask), (start));               \
	     (cpu) < nr_cpu_ids;                                               \
	     (cpu) = cpumask_next_wrap_ws((cpu), (mask), (start)))

/*
 * Parse a kernel cpulist ("0-3,8,10-11", as in sysfs *_list files and
 * taskset -c). Trailing newlines/NULs are accepted. Returns 0, or -1 with a
 * short reason in err (no file name: the caller adds it).
 */
int cpulist_parse(const char *s, struct cpumask *m, char *err, size_t errlen);

/*
 * Print the first nbits of m as the kernel's "%*pb" does (bitmap_string()
 * in lib/vsprintf.c): lowercase hex in 32-bit chunks, most significant
 * first, separated by commas; the first chunk has as many digits as its
 * bits need, the others 8. 2 CPUs, both set: "3"; 40 CPUs, 0-3: "00,0000000f".
 * Returns buf (always NUL-terminated).
 */
char *cpumask_print_bitmap(const struct cpumask *m, int nbits, char *buf, size_t len);

/* Print m as a cpulist into buf (always NUL-terminated). Returns buf. */
char *cpumask_print_list(const struct cpumask *m, char *buf, size_t len);

#endif
