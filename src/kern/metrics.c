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

static void hist_sub(struct hist *to, const struct hist *from)
{
	int top = -1;

	to->count -= from->count;
	to->sum_ns -= from->sum_ns;
	for (int b = 0; b < HIST_BUCKETS; b++) {
		to->bucket[b] -= from->bucket[b];
		if (to->bucket[b])
			top = b;
	}
	/* The maximum fell between the copies only if it grew. */
	if (to->max_ns > from->max_ns)
		return;
	if (top < 0)
		to->max_ns = 0;
	else if (bucket_top(top) < to->max_ns)
		to->max_ns = bucket_top(top);
}

#define SUB(f) (to->f -= from->f)
#define SUB_ARRAY(f)                                                    \
	for (size_t i_ = 0; i_ < sizeof(to->f) / sizeof(to->f[0]); i_++) \
	to->f[i_] -= from->f[i_]

void metrics_sub(struct metrics *to, const struct metrics *from)
{
	SUB(wakeups);
	SUB(wake_idle);
	SUB(wake_waker_cpu);
	SUB(wake_cross_llc);
	SUB(wake_prev_cpu);
	SUB(wake_remote_queued);
	SUB(wake_requeued);
	SUB(wake_rechecks);
	SUB(sis_search);
	SUB(sis_calls);
	SUB(sis_scanned);
	SUB(sis_failed);
	SUB_ARRAY(place_reason);
	SUB_ARRAY(place_affine);
	SUB_ARRAY(place_dist);
	SUB(place_busy);
	SUB_ARRAY(migrations);
	SUB(forks);
	SUB(nr_switches);
	SUB(ipis);
	SUB_ARRAY(idle_exits);
	SUB(idle_ticks);
	SUB(newidle_pulls);
	SUB(newidle_balances);
	SUB(newidle_ns);
	SUB(lb_pulls);
	hist_sub(&to->run_delay, &from->run_delay);
	SUB(busy_ns);
	SUB(coherence_ns);
	SUB(wakeup_path_ns);
	SUB(scan_ns);
	SUB(ipi_send_ns);
	SUB(softirq_ns);
	SUB(irq_ns);
	SUB(sis_budget_area);
	SUB(sis_budget_span);
	SUB(cold_ns);
	SUB(idle_exit_ns);
	SUB(ipi_wait_ns);
	SUB(rq_lock_wait_ns);
	SUB(rq_lock_contended);
	SUB(wq_lock_wait_ns);
	SUB(pipe_mutex_wait_ns);
	SUB(tg_load_writes);
	SUB(tg_load_ns);
	SUB(pipe_writer_rewaits);
	SUB(wc_intervals);
	SUB(wc_wasted_ns);
	SUB(hits_idle_delay);
	SUB(hits_affine_same_llc);
	SUB(hits_sis_short_affine);
	SUB(hits_sis_short_scan);
	SUB(hits_idle_cores_no_smt);
	SUB(policy_fallbacks);
	SUB_ARRAY(policy_counter);
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
