/*
 * metrics_out.c - deriving and printing run metrics from one table.
 */
#include "metrics_out.h"

#include <string.h>

enum {
	M_WAKEUPS, M_WAKE_IDLE, M_WAKE_WAKER, M_WAKE_XLLC, M_WAKE_PREV, M_WAKE_MIGR, M_WAKE_LIST, M_WAKE_REQUEUED, M_WAKE_RECHECKED,
	M_SIS_SEARCH, M_SIS_CALLS, M_SIS_SCANNED, M_SIS_FAILED, M_SIS_SCAN_RATE, M_SIS_CPUS, M_SIS_BUDGET,
	M_MIGR_LLC, M_MIGR_XLLC, M_MIGR_XNODE, M_RD_MEAN, M_RD_P99, M_SWITCHES, M_IPIS, M_FORKS,
	M_IDLE_TICKS, M_NEWIDLE, M_NEWIDLE_LB, M_NEWIDLE_PCT, M_LB, M_UTIL, M_COHERENCE, M_WAKEPATH, M_SCAN, M_IPI_SEND, M_SOFTIRQ, M_IRQ, M_COLD, M_RQ_LOCK, M_WQ_LOCK, M_PIPE_MUTEX, M_TG_LOAD, M_TG_WRITES, M_PIPE_REWAITS, M_EXIT_WAIT,
	M_IPI_WAIT, M_WC_N, M_WC_PCT, M_SIM_S, M_MEAS_S, M_MEAS_FROM, M_EVENTS, M_HIT_DELAY, M_HIT_SAME_LLC,
	M_HIT_SHORT_AFF, M_HIT_SHORT_SCAN, M_HIT_NO_SMT, M_NR
};

const struct metric_def metric_defs[] = {
	[M_WAKEUPS] = { "wakeups", 0, false, false },
	[M_WAKE_IDLE] = { "wake_idle_cpu_pct", 2, true, false },
	[M_WAKE_WAKER] = { "wake_waker_cpu_pct", 2, true, false },
	[M_WAKE_XLLC] = { "wake_cross_llc_pct", 2, true, false },
	[M_WAKE_PREV] = { "wake_prev_cpu_pct", 2, true, false },
	[M_WAKE_MIGR] = { "wake_migrated_pct", 2, true, false },
	[M_WAKE_LIST] = { "wake_via_wakelist_pct", 2, false, false },
	[M_WAKE_REQUEUED] = { "wake_requeued_pct", 2, true, false },
	/* Remote wake-ups whose chosen CPU was taken before their path read it. */
	[M_WAKE_RECHECKED] = { "wake_rechecked_pct", 2, true, false },
	/* Mel Gorman's SIS schedstat names (docs/published-baselines.md, B2). */
	[M_SIS_SEARCH] = { "sis_search", 0, true, false },
	[M_SIS_CALLS] = { "sis_domain_search", 0, true, false },
	[M_SIS_SCANNED] = { "sis_scanned", 0, true, false },
	[M_SIS_FAILED] = { "sis_failed", 0, true, false },
	[M_SIS_SCAN_RATE] = { "sis_scanned_per_s", 0, false, false },
	[M_SIS_CPUS] = { "cpus_examined_per_call", 2, true, false },
	/* SIS_UTIL's nr_idle_scan, time-weighted over the measured span, % of the LLCs' CPUs. */
	[M_SIS_BUDGET] = { "sis_util_budget_pct", 2, true, true },
	[M_MIGR_LLC] = { "migrations_within_llc", 0, true, false },
	[M_MIGR_XLLC] = { "migrations_across_llc", 0, true, false },
	[M_MIGR_XNODE] = { "migrations_across_node", 0, true, false },
	[M_RD_MEAN] = { "run_delay_mean_us", 2, true, false },
	[M_RD_P99] = { "run_delay_p99_us", 2, true, false },
	[M_SWITCHES] = { "context_switches", 0, true, false },
	[M_IPIS] = { "ipis", 0, true, false },
	[M_FORKS] = { "forks", 0, false, false },
	[M_IDLE_TICKS] = { "idle_ticks", 0, true, false },
	[M_NEWIDLE] = { "newidle_pulls", 0, false, false },
	[M_NEWIDLE_LB] = { "newidle_balances", 0, true, false },
	[M_NEWIDLE_PCT] = { "newidle_time_pct", 2, true, false },
	[M_LB] = { "balance_pulls", 0, false, false },
	[M_UTIL] = { "cpu_util_pct", 2, true, false },
	[M_COHERENCE] = { "coherence_time_pct", 2, true, false },
	[M_WAKEPATH] = { "wakeup_path_time_pct", 2, true, false },
	[M_SCAN] = { "scan_time_pct", 2, true, false },
	[M_IPI_SEND] = { "ipi_send_time_pct", 2, true, false },
	/* Loopback sockets only: /proc/stat's softirq column over busy time. */
	[M_SOFTIRQ] = { "softirq_time_pct", 2, true, true },
	/* Only with costs.irq_ns: interruptions' share of busy time (kern/irqtime.c). */
	[M_IRQ] = { "irq_time_pct", 2, true, true },
	[M_COLD] = { "cold_cache_time_pct", 2, true, false },
	[M_RQ_LOCK] = { "rq_lock_wait_time_pct", 2, true, false },
	/* Spinning on wait queues' locks and on pipe->mutex, % of busy time
	 * (kern/spinlock.h): only where another CPU held one. */
	[M_WQ_LOCK] = { "wq_lock_wait_time_pct", 2, true, true },
	[M_PIPE_MUTEX] = { "pipe_mutex_wait_time_pct", 2, true, true },
	/* Only with --cgroup: tg->load_avg's line (kern/tg.c). */
	[M_TG_LOAD] = { "tg_load_avg_time_pct", 2, true, true },
	[M_TG_WRITES] = { "tg_load_avg_writes", 0, true, true },
	/* Woken pipe writers that found it full again: v5.5-v6.13 wake one after
	 * every read of a full pipe, freed slot or not; else another took it. */
	[M_PIPE_REWAITS] = { "pipe_writer_rewaits", 0, true, true },
	[M_EXIT_WAIT] = { "idle_exit_us_per_wakeup", 3, true, false },
	[M_IPI_WAIT] = { "ipi_wait_us_per_wakeup", 3, true, false },
	[M_WC_N] = { "wc_violations", 0, true, false },
	[M_WC_PCT] = { "wc_wasted_cpu_pct", 3, true, false },
	[M_SIM_S] = { "simulated_seconds", 6, false, false },
	/* The span every other metric covers: the workload's measured window
	 * (after its warm-up) when it has one, else the whole run (metwin.h). */
	[M_MEAS_S] = { "measured_seconds", 6, false, false },
	[M_MEAS_FROM] = { "measured_from_s", 6, false, false },
	[M_EVENTS] = { "events", 0, false, false },
	[M_HIT_DELAY] = { "hits_IDLE_DELAY", 0, true, true },
	[M_HIT_SAME_LLC] = { "hits_AFFINE_SAME_LLC", 0, true, true },
	[M_HIT_SHORT_AFF] = { "hits_SIS_SHORT_affine", 0, true, true },
	[M_HIT_SHORT_SCAN] = { "hits_SIS_SHORT_scan", 0, true, true },
	[M_HIT_NO_SMT] = { "hits_IDLE_CORES_NO_SMT", 0, true, true },
};
const int nr_metric_defs = M_NR;

_Static_assert(M_NR <= (int)(sizeof(((struct metrics_view *)0)->v) / sizeof(double)),
	       "metrics_view too small");

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void metrics_view(const struct metrics *met, int nr_cpus, struct metrics_view *view)
{
	double *v = view->v;

	memset(view, 0, sizeof(*view));
	v[M_WAKEUPS] = (double)met->wakeups;
	v[M_WAKE_IDLE] = pct(met->wake_idle, met->wakeups);
	v[M_WAKE_WAKER] = pct(met->wake_waker_cpu, met->wakeups);
	v[M_WAKE_XLLC] = pct(met->wake_cross_llc, met->wakeups);
	v[M_WAKE_PREV] = pct(met->wake_prev_cpu, met->wakeups);
	v[M_WAKE_MIGR] = met->wakeups ? 100 - v[M_WAKE_PREV] : 0;
	v[M_WAKE_LIST] = pct(met->wake_remote_queued, met->wakeups);
	v[M_WAKE_REQUEUED] = pct(met->wake_requeued, met->wakeups);
	v[M_WAKE_RECHECKED] = pct(met->wake_rechecks, met->wakeups);
	v[M_SIS_SEARCH] = (double)met->sis_search;
	v[M_SIS_CALLS] = (double)met->sis_calls;
	v[M_SIS_SCANNED] = (double)met->sis_scanned;
	v[M_SIS_FAILED] = (double)met->sis_failed;
	v[M_SIS_SCAN_RATE] = met->elapsed_ns ? (double)met->sis_scanned * 1e9 / (double)met->elapsed_ns
					     : 0;
	v[M_SIS_CPUS] = met->sis_calls ? (double)met->sis_scanned / (double)met->sis_calls : 0;
	v[M_SIS_BUDGET] = pct(met->sis_budget_area, met->sis_budget_span);
	v[M_MIGR_LLC] = (double)met->migrations[MIGR_LLC];
	v[M_MIGR_XLLC] = (double)met->migrations[MIGR_CROSS_LLC];
	v[M_MIGR_XNODE] = (double)met->migrations[MIGR_CROSS_NODE];
	v[M_RD_MEAN] = met->run_delay.count
			       ? (double)met->run_delay.sum_ns / (double)met->run_delay.count / 1e3
			       : 0;
	v[M_RD_P99] = (double)hist_quantile(&met->run_delay, 0.99) / 1e3;
	v[M_SWITCHES] = (double)met->nr_switches;
	v[M_IPIS] = (double)met->ipis;
	v[M_FORKS] = (double)met->forks;
	v[M_IDLE_TICKS] = (double)met->idle_ticks;
	v[M_NEWIDLE] = (double)met->newidle_pulls;
	v[M_NEWIDLE_LB] = (double)met->newidle_balances;
	v[M_NEWIDLE_PCT] = pct(met->newidle_ns, met->busy_ns);
	v[M_LB] = (double)met->lb_pulls;
	v[M_UTIL] = pct(met->busy_ns, met->elapsed_ns * (uint64_t)nr_cpus);
	v[M_COHERENCE] = pct(met->coherence_ns, met->busy_ns);
	v[M_WAKEPATH] = pct(met->wakeup_path_ns, met->busy_ns);
	v[M_SCAN] = pct(met->scan_ns, met->busy_ns);
	v[M_IPI_SEND] = pct(met->ipi_send_ns, met->busy_ns);
	v[M_SOFTIRQ] = pct(met->softirq_ns, met->busy_ns);
	v[M_IRQ] = pct(met->irq_ns, met->busy_ns);
	v[M_COLD] = pct(met->cold_ns, met->busy_ns);
	v[M_RQ_LOCK] = pct(met->rq_lock_wait_ns, met->busy_ns);
	v[M_WQ_LOCK] = pct(met->wq_lock_wait_ns, met->busy_ns);
	v[M_PIPE_MUTEX] = pct(met->pipe_mutex_wait_ns, met->busy_ns);
	v[M_TG_LOAD] = pct(met->tg_load_ns, met->busy_ns);
	v[M_TG_WRITES] = (double)met->tg_load_writes;
	v[M_PIPE_REWAITS] = (double)met->pipe_writer_rewaits;
	v[M_EXIT_WAIT] = met->wakeups ? (double)met->idle_exit_ns / (double)met->wakeups / 1e3 : 0;
	v[M_IPI_WAIT] = met->wakeups ? (double)met->ipi_wait_ns / (double)met->wakeups / 1e3 : 0;
	v[M_WC_N] = (double)met->wc_intervals;
	v[M_WC_PCT] = pct(met->wc_wasted_ns, met->elapsed_ns * (uint64_t)nr_cpus);
	v[M_SIM_S] = (double)(met->run_ns ? met->run_ns : met->elapsed_ns) / 1e9;
	v[M_MEAS_S] = (double)met->elapsed_ns / 1e9;
	v[M_MEAS_FROM] = (double)met->from_ns / 1e9;
	v[M_EVENTS] = (double)met->events;
	v[M_HIT_DELAY] = (double)met->hits_idle_delay;
	v[M_HIT_SAME_LLC] = (double)met->hits_affine_same_llc;
	v[M_HIT_SHORT_AFF] = (double)met->hits_sis_short_affine;
	v[M_HIT_SHORT_SCAN] = (double)met->hits_sis_short_scan;
	v[M_HIT_NO_SMT] = (double)met->hits_idle_cores_no_smt;
	for (int i = 0; i < WS_MAX_IDLE_STATES; i++)
		view->idle_exits[i] = (double)met->idle_exits[i];
	for (int k = 0; k < PR_NR; k++)
		view->place[k] = (double)met->place_reason[k];
	for (int k = 0; k < PA_NR; k++)
		view->place[PLACE_AFFINE0 + k] = (double)met->place_affine[k];
	for (int k = 0; k < PLACE_DIST_NR; k++)
		view->place[PLACE_DIST0 + k] = (double)met->place_dist[k];
	view->nr_policy = met->nr_policy_counters;
	for (int k = 0; k < met->nr_policy_counters; k++) {
		view->policy_name[k] = met->policy_counter_name[k];
		view->policy[k] = (double)met->policy_counter[k];
	}
}

const char *place_key_group(int k)
{
	return k < PLACE_AFFINE0 ? "reason" : k < PLACE_DIST0 ? "affine" : "migrate";
}

const char *place_key_name(int k)
{
	if (k < PLACE_AFFINE0)
		return place_reason_name((enum place_reason)k);
	if (k < PLACE_DIST0)
		return place_affine_name((enum place_affine)(k - PLACE_AFFINE0));
	return place_dist_name(k - PLACE_DIST0);
}

void place_group_range(int g, int *from, int *to)
{
	*from = g == 0 ? 0 : g == 1 ? PLACE_AFFINE0 : PLACE_DIST0;
	*to = g == 0 ? PLACE_AFFINE0 : g == 1 ? PLACE_DIST0 : PLACE_ALL;
}

const char *const place_group_title[3] = {
	"placements by reason (select_task_rq(): forks and wake-ups)",
	"wake-ups by affine step (wake_wide(), wake_affine())",
	"placements by how far from prev they moved",
};

bool place_key_shown(int k)
{
	/* Forks take no affine step: the wake-ups' table leaves them out. */
	return k != PLACE_AFFINE0 + PA_NONE;
}

void placements_print(FILE *out, const struct metrics_view *v, const char *policy)
{
	for (int g = 0; g < 3; g++) {
		int from, to;
		double total = 0;

		place_group_range(g, &from, &to);
		for (int k = from; k < to; k++)
			total += place_key_shown(k) ? v->place[k] : 0;
		fprintf(out, "  %s: %.0f\n", place_group_title[g], total);
		for (int k = from; k < to; k++) {
			char name[64];

			if (v->place[k] == 0 || !place_key_shown(k))
				continue;
			if (k == PR_POLICY && policy)
				snprintf(name, sizeof(name), "policy:%s", policy);
			else
				snprintf(name, sizeof(name), "%s", place_key_name(k));
			fprintf(out, "    %-28s %12.0f %6.2f%%\n", name, v->place[k],
				100 * v->place[k] / total);
		}
	}
}

/* An idle state's name as a metric-name suffix: "haltpoll idle" -> "haltpoll_idle". */
void metrics_state_key(const char *name, char *out, size_t len)
{
	size_t i = 0;

	for (; name[i] && i + 1 < len; i++)
		out[i] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
				 (name[i] >= '0' && name[i] <= '9')
			 ? name[i]
			 : '_';
	out[i] = '\0';
}

void metrics_print(FILE *out, const struct machine *m, const struct metrics_view *v)
{
	for (int i = 0; i < nr_metric_defs; i++) {
		const struct metric_def *d = &metric_defs[i];

		if (d->only_if_nonzero && v->v[i] == 0)
			continue;
		fprintf(out, "  %-28s %14.*f\n", d->name, d->decimals, v->v[i]);
		if (i == M_IPIS)
			for (int s = 0; s < m->nr_idle_states; s++) {
				char key[24], name[48];

				metrics_state_key(m->idle[s].name, key, sizeof(key));
				snprintf(name, sizeof(name), "idle_exits_%s", key);
				fprintf(out, "  %-28s %14.0f\n", name, v->idle_exits[s]);
			}
	}
	for (int k = 0; k < v->nr_policy; k++) {
		char name[48];

		snprintf(name, sizeof(name), "policy.%s", v->policy_name[k]);
		fprintf(out, "  %-28s %14.0f\n", name, v->policy[k]);
	}
}

json_object *placements_json(const double *place, bool counts)
{
	json_object *pl = json_object_new_object();

	for (int g = 0; g < 3; g++) {
		json_object *grp = json_object_new_object();
		int from, to;

		place_group_range(g, &from, &to);
		for (int k = from; k < to; k++)
			json_object_object_add(grp, place_key_name(k),
					       counts ? json_object_new_int64((int64_t)place[k])
						      : json_object_new_double(place[k]));
		json_object_object_add(pl, place_key_group(from), grp);
	}
	return pl;
}

json_object *metrics_json(const struct machine *m, const struct metrics_view *v)
{
	json_object *o = json_object_new_object(), *ie = json_object_new_object();

	for (int i = 0; i < nr_metric_defs; i++) {
		const struct metric_def *d = &metric_defs[i];

		json_object_object_add(o, d->name, d->decimals ? json_object_new_double(v->v[i])
							       : json_object_new_int64((int64_t)v->v[i]));
	}
	for (int s = 0; s < m->nr_idle_states; s++) {
		char key[24];

		metrics_state_key(m->idle[s].name, key, sizeof(key));
		json_object_object_add(ie, key, json_object_new_int64((int64_t)v->idle_exits[s]));
	}
	json_object_object_add(o, "idle_exits", ie);
	json_object_object_add(o, "placements", placements_json(v->place, true));
	if (v->nr_policy) {
		json_object *pc = json_object_new_object();

		for (int k = 0; k < v->nr_policy; k++)
			json_object_object_add(pc, v->policy_name[k],
					       json_object_new_int64((int64_t)v->policy[k]));
		json_object_object_add(o, "policy", pc);
	}
	return o;
}
