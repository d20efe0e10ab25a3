/*
 * metrics_out.c - deriving and printing run metrics.
 */
#include "metrics_out.h"

#include <string.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void metrics_view(const struct metrics *met, int nr_cpus, struct metrics_view *v)
{
	memset(v, 0, sizeof(*v));
	v->wakeups = (double)met->wakeups;
	v->wake_idle_pct = pct(met->wake_idle, met->wakeups);
	v->wake_waker_cpu_pct = pct(met->wake_waker_cpu, met->wakeups);
	v->wake_prev_cpu_pct = pct(met->wake_prev_cpu, met->wakeups);
	v->wake_queued_pct = pct(met->wake_remote_queued, met->wakeups);
	v->sis_calls = (double)met->sis_calls;
	v->sis_cpus_per_call = met->sis_calls ? (double)met->sis_scanned / (double)met->sis_calls : 0;
	v->migrations_llc = (double)met->migrations[MIGR_LLC];
	v->migrations_cross_llc = (double)met->migrations[MIGR_CROSS_LLC];
	v->migrations_cross_node = (double)met->migrations[MIGR_CROSS_NODE];
	v->run_delay_mean_us = met->run_delay.count
				       ? (double)met->run_delay.sum_ns / (double)met->run_delay.count / 1e3
				       : 0;
	v->run_delay_p99_us = (double)hist_quantile(&met->run_delay, 0.99) / 1e3;
	v->context_switches = (double)met->nr_switches;
	v->ipis = (double)met->ipis;
	v->forks = (double)met->forks;
	v->newidle_pulls = (double)met->newidle_pulls;
	v->lb_pulls = (double)met->lb_pulls;
	v->cpu_util_pct = pct(met->busy_ns, met->elapsed_ns * (uint64_t)nr_cpus);
	v->coherence_pct = pct(met->coherence_ns, met->busy_ns);
	v->sim_seconds = (double)met->elapsed_ns / 1e9;
	v->events = (double)met->events;
	for (int i = 0; i < WS_MAX_IDLE_STATES; i++)
		v->idle_exits[i] = (double)met->idle_exits[i];
}

void metrics_print(FILE *out, const struct machine *m, const struct metrics_view *v)
{
	fprintf(out, "  %-28s %14.0f\n", "wakeups", v->wakeups);
	fprintf(out, "  %-28s %14.2f\n", "wake_idle_cpu_pct", v->wake_idle_pct);
	fprintf(out, "  %-28s %14.2f\n", "wake_waker_cpu_pct", v->wake_waker_cpu_pct);
	fprintf(out, "  %-28s %14.2f\n", "wake_prev_cpu_pct", v->wake_prev_cpu_pct);
	fprintf(out, "  %-28s %14.2f\n", "wake_via_wakelist_pct", v->wake_queued_pct);
	fprintf(out, "  %-28s %14.0f\n", "select_idle_cpu_calls", v->sis_calls);
	fprintf(out, "  %-28s %14.2f\n", "cpus_examined_per_call", v->sis_cpus_per_call);
	fprintf(out, "  %-28s %14.0f\n", "migrations_within_llc", v->migrations_llc);
	fprintf(out, "  %-28s %14.0f\n", "migrations_across_llc", v->migrations_cross_llc);
	fprintf(out, "  %-28s %14.0f\n", "migrations_across_node", v->migrations_cross_node);
	fprintf(out, "  %-28s %14.2f\n", "run_delay_mean_us", v->run_delay_mean_us);
	fprintf(out, "  %-28s %14.2f\n", "run_delay_p99_us", v->run_delay_p99_us);
	fprintf(out, "  %-28s %14.0f\n", "context_switches", v->context_switches);
	fprintf(out, "  %-28s %14.0f\n", "ipis", v->ipis);
	for (int i = 0; i < m->nr_idle_states; i++) {
		char name[48];

		snprintf(name, sizeof(name), "idle_exits_%s", m->idle[i].name);
		fprintf(out, "  %-28s %14.0f\n", name, v->idle_exits[i]);
	}
	fprintf(out, "  %-28s %14.0f\n", "newidle_pulls", v->newidle_pulls);
	fprintf(out, "  %-28s %14.0f\n", "balance_pulls", v->lb_pulls);
	fprintf(out, "  %-28s %14.2f\n", "cpu_util_pct", v->cpu_util_pct);
	fprintf(out, "  %-28s %14.2f\n", "coherence_time_pct", v->coherence_pct);
	fprintf(out, "  %-28s %14.6f\n", "simulated_seconds", v->sim_seconds);
	fprintf(out, "  %-28s %14.0f\n", "events", v->events);
}

static void add(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

json_object *metrics_json(const struct machine *m, const struct metrics_view *v)
{
	json_object *o = json_object_new_object(), *ie = json_object_new_object();

	add(o, "wakeups", v->wakeups);
	add(o, "wake_idle_cpu_pct", v->wake_idle_pct);
	add(o, "wake_waker_cpu_pct", v->wake_waker_cpu_pct);
	add(o, "wake_prev_cpu_pct", v->wake_prev_cpu_pct);
	add(o, "wake_via_wakelist_pct", v->wake_queued_pct);
	add(o, "select_idle_cpu_calls", v->sis_calls);
	add(o, "cpus_examined_per_call", v->sis_cpus_per_call);
	add(o, "migrations_within_llc", v->migrations_llc);
	add(o, "migrations_across_llc", v->migrations_cross_llc);
	add(o, "migrations_across_node", v->migrations_cross_node);
	add(o, "run_delay_mean_us", v->run_delay_mean_us);
	add(o, "run_delay_p99_us", v->run_delay_p99_us);
	add(o, "context_switches", v->context_switches);
	add(o, "ipis", v->ipis);
	for (int i = 0; i < m->nr_idle_states; i++)
		add(ie, m->idle[i].name, v->idle_exits[i]);
	json_object_object_add(o, "idle_exits", ie);
	add(o, "newidle_pulls", v->newidle_pulls);
	add(o, "balance_pulls", v->lb_pulls);
	add(o, "forks", v->forks);
	add(o, "cpu_util_pct", v->cpu_util_pct);
	add(o, "coherence_time_pct", v->coherence_pct);
	add(o, "simulated_seconds", v->sim_seconds);
	add(o, "events", v->events);
	return o;
}
