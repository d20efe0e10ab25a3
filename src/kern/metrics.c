/*
 * metrics.c - the run-delay histogram.
 */
#include "metrics.h"

#include <string.h>

static int bucket_of(uint64_t ns)
{
	if (ns < HIST_SUB)
		return (int)ns;
	int msb = 63 - __builtin_clzll(ns);
	int shift = msb - 4; /* keep the 4 bits below the leading one */

	return (msb - 3) * HIST_SUB + (int)((ns >> shift) & (HIST_SUB - 1));
}

/* Largest value that falls in bucket b. */
static uint64_t bucket_top(int b)
{
	if (b < HIST_SUB)
		return (uint64_t)b;
	int msb = b / HIST_SUB + 3;
	uint64_t sub = (uint64_t)(b % HIST_SUB);
	int shift = msb - 4;

	return ((((uint64_t)1 << 4) | sub) << shift) + (((uint64_t)1 << shift) - 1);
}

void hist_add(struct hist *h, uint64_t ns)
{
	int b = bucket_of(ns);

	if (b >= HIST_BUCKETS)
		b = HIST_BUCKETS - 1;
	h->bucket[b]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	if (!h->count)
		return 0;
	/* rank of the quantile, 1-based: ceil(q * count) */
	uint64_t rank = (uint64_t)(q * (double)h->count);

	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;

	for (int b = 0; b < HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank) {
			uint64_t top = bucket_top(b);

			return top < h->max_ns ? top : h->max_ns;
		}
	}
	return h->max_ns;
}

int policy_counter_register(struct metrics *met, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (!n || n >= POLICY_COUNTER_NAME || strspn(name, "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n)
		return -1;
	for (int i = 0; i < met->nr_policy_counters; i++)
		if (!strcmp(met->policy_counter_name[i], name))
			return i;
	if (met->nr_policy_counters == POLICY_MAX_COUNTERS)
		return -1;
	memcpy(met->policy_counter_name[met->nr_policy_counters], name, n + 1);
	return met->nr_policy_counters++;
}
