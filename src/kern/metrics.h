/*
 * metrics.h - what a run measured, beyond the benchmark's own result.
 *
 * Counters are plain integers updated on the simulator's hot paths; the
 * run-delay distribution is a log-linear histogram (16 sub-buckets per
 * power of two, so percentiles are exact to 1/16 of their octave) that
 * never allocates and sums identically on every machine.
 */
#ifndef WS_METRICS_H
#define WS_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include "kern/placement.h"
#include "machine/machine.h"

#define HIST_SUB 16
#define HIST_BUCKETS (64 * HIST_SUB)

/* Latency histogram in ns. */
struct hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint32_t bucket[HIST_BUCKETS];
};

void hist_add(struct hist *h, uint64_t ns);
/* The q-quantile (0 < q <= 1) as the upper bound of its bucket, ns. */
uint64_t hist_quantile(const struct hist *h, double q);

#define POLICY_MAX_COUNTERS 8
#define POLICY_COUNTER_NAME 32

enum migr_class { MIGR_LLC, MIGR_CROSS_LLC, MIGR_CROSS_NODE, MIGR_NR };

struct metrics {
	uint64_t wakeups;		/* try_to_wake_up() that woke a sleeper */
	uint64_t wake_idle;		/* ...placed on a CPU idle at selection */
	uint64_t wake_waker_cpu;	/* ...placed on the waker's CPU */
	uint64_t wake_cross_llc;	/* ...placed outside the waker's LLC */
	uint64_t wake_prev_cpu;		/* ...placed on the wakee's previous CPU */
	uint64_t wake_remote_queued;	/* ...through a wake list (TTWU_QUEUE) */
	uint64_t wake_requeued;		/* ...still queued (DELAY_DEQUEUE): no CPU selected */
	uint64_t wake_rechecks;		/* re-reads of a chosen CPU found taken (core.c) */
	/*
	 * select_idle_sibling()'s counters, named as in Mel Gorman's SIS
	 * schedstat patch (B2 of docs/published-baselines.md publishes them).
	 */
	uint64_t sis_search;		/* select_idle_sibling() calls */
	uint64_t sis_calls;		/* sis_domain_search: select_idle_cpu() calls */
	uint64_t sis_scanned;		/* CPUs examined by them */
	uint64_t sis_failed;		/* select_idle_cpu() calls that found no idle CPU */
	/* Placements (kern/placement.h): forks and wake-ups that select a CPU. */
	uint64_t place_reason[PR_NR];
	uint64_t place_affine[PA_NR];
	uint64_t place_dist[PLACE_DIST_NR];	/* how far from prev (c2c class) */
	uint64_t place_busy;		/* ...onto a CPU that was not idle */
	uint64_t place_digest;		/* a hash of every (task, CPU) chosen, in order */
	uint64_t migrations[MIGR_NR];
	uint64_t forks;
	uint64_t nr_switches;		/* context switches */
	uint64_t ipis;
	uint64_t idle_exits[WS_MAX_IDLE_STATES];	/* wake-ups and ticks out of each state */
	uint64_t idle_ticks;		/* ticks taken by idle CPUs that kept theirs */
	uint64_t newidle_pulls;
	uint64_t newidle_balances;	/* sched_balance_rq() passes of new-idle balancing */
	uint64_t newidle_ns;		/* CPU time they took */
	uint64_t lb_pulls;		/* tasks moved by periodic balance */
	struct hist run_delay;		/* runnable (wake-up) to running */
	uint64_t busy_ns;		/* sum over CPUs of non-idle time */
	/*
	 * The span these counters cover, ns: the workload's measured window
	 * when it has one (kern/metwin.h), else the whole run.
	 */
	uint64_t elapsed_ns;
	uint64_t from_ns;		/* simulated time the span starts (0: the run's start) */
	uint64_t run_ns;		/* simulated time of the whole run */
	uint64_t coherence_ns;		/* cache-line transfer time charged */
	/* Where time went, for explaining a difference (ns). */
	uint64_t wakeup_path_ns;	/* CPU time in try_to_wake_up(), selection included */
	uint64_t scan_ns;		/* ...of which select_idle_cpu()'s scan */
	uint64_t ipi_send_ns;		/* CPU time sending IPIs */
	uint64_t softirq_ns;		/* CPU time in softirq (loopback receive, its wake-ups) */
	uint64_t irq_ns;		/* CPU time taken by interruptions (costs.irq_ns) */
	/* SIS_UTIL's nr_idle_scan over the run (sis_budget_totals()): CPUs x ns, */
	uint64_t sis_budget_area;	/* summed over LLCs, */
	uint64_t sis_budget_span;	/* and their CPUs x the run's ns */
	uint64_t cold_ns;		/* cache refill owed after migrations */
	uint64_t idle_exit_ns;		/* idle-state exit latency paid before running */
	uint64_t ipi_wait_ns;		/* IPI (or poll) latency before a woken CPU acts */
	uint64_t rq_lock_wait_ns;	/* CPU time spinning on runqueue locks */
	uint64_t rq_lock_contended;	/* rq_lock() calls that had to spin */
	uint64_t wq_lock_wait_ns;	/* CPU time spinning on wait queues' locks */
	uint64_t pipe_mutex_wait_ns;	/* CPU time spinning on pipe->mutex */
	uint64_t tg_load_writes;	/* update_tg_load_avg() calls that added (--cgroup) */
	uint64_t tg_load_ns;		/* CPU time reading and writing tg->load_avg */
	uint64_t pipe_writer_rewaits;	/* woken pipe writers that found it full and slept again */
	/* Work-conservation checker (kern/wc.c). */
	uint64_t wc_intervals;		/* idle-while-waiting intervals >= threshold */
	uint64_t wc_wasted_ns;		/* their total length */
	uint64_t events;		/* engine events processed */
	/* How often each seed proposal changed what the kernel did. */
	uint64_t hits_idle_delay;	/* idle_cpu() true only because of IDLE_DELAY */
	uint64_t hits_affine_same_llc;	/* want_affine true only because of AFFINE_SAME_LLC */
	uint64_t hits_sis_short_affine;	/* SIS_SHORT hook 1 chose the waker's CPU */
	uint64_t hits_sis_short_scan;	/* SIS_SHORT hook 2 skipped the LLC scan */
	uint64_t hits_idle_cores_no_smt;/* has_idle_cores reads IDLE_CORES_NO_SMT added */
	/* A --policy returned a CPU the task may not run on (select_fallback_rq()). */
	uint64_t policy_fallbacks;
	/* A policy's own counters (wsk_counter()), in the order it registered them. */
	int nr_policy_counters;
	char policy_counter_name[POLICY_MAX_COUNTERS][POLICY_COUNTER_NAME];
	uint64_t policy_counter[POLICY_MAX_COUNTERS];
};

/*
 * to -= from, for every counter that adds up over time (the histogram's
 * buckets, count and sum too), so that to covers what happened between
 * two copies of one run's metrics. Its max_ns stays to's when from's is
 * lower (so the maximum fell between them), else it becomes the top of
 * the highest bucket left, an upper bound within 1/16 of its octave.
 * Not subtracted: place_digest, events, the policy counters' names, and
 * elapsed_ns, from_ns and run_ns (the caller's to set).
 */
void metrics_sub(struct metrics *to, const struct metrics *from);

/*
 * A policy's counter named name (letters, digits, '_'; at most
 * POLICY_COUNTER_NAME - 1 bytes): its index, the same for the same name;
 * -1 if the name is malformed or POLICY_MAX_COUNTERS are taken.
 */
int policy_counter_register(struct metrics *met, const char *name);

#endif
