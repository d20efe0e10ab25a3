/*
 * metwin.c - the metrics of the measured window (metwin.h).
 */
#include "metwin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/kernel.h"

/*
 * sim->met as it would read had the run ended now: the busy time of the
 * segments still open (as cpu_sync() would add it), SIS_UTIL's budget up
 * to now, and the wake-ups whose CPU is chosen; nothing written.
 */
static void metrics_now(const struct sim *sim, struct metrics *out)
{
	*out = sim->met;
	/*
	 * A wake-up counts at its start and its shares where it claims its
	 * CPU: one still choosing belongs to the side where it will claim.
	 */
	out->wakeups -= sim->wakes_in_flight;
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++)
		out->busy_ns += cpu_open_busy_ns(sim, &sim->rq[cpu]);
	sis_budget_totals(sim, &out->sis_budget_area, &out->sis_budget_span);
	out->elapsed_ns = sim->now;
}

int metrics_window_begin(struct sim *sim)
{
	if (sim->met_from || sim->met_window_failed)
		return 0;
	sim->met_from = malloc(sizeof(*sim->met_from));
	if (!sim->met_from) {
		sim->met_window_failed = true;
		fprintf(stderr, "wakesim: no memory for the measured window's metrics: they "
				"cover the whole run\n");
		return -1;
	}
	metrics_now(sim, sim->met_from);
	sim->met_from_ns = sim->now;
	return 0;
}

void metrics_window_end(struct sim *sim)
{
	if (!sim->met_from)
		return;
	if (!sim->met_to) {
		sim->met_to = malloc(sizeof(*sim->met_to));
		if (!sim->met_to)
			return; /* the window then runs to the end of the run */
	}
	metrics_now(sim, sim->met_to);
	sim->met_to_ns = sim->now;
}

void metrics_window_finish(struct sim *sim)
{
	u64 run_ns = sim->met.elapsed_ns;

	sim->met.run_ns = run_ns;
	sim->met.from_ns = 0;
	if (!sim->met_from)
		return;
	u64 to_ns = run_ns;
	/*
	 * Whole-run identities are the final copy's: they are not counters,
	 * and a policy may name a counter after the window ended.
	 */
	u64 digest = sim->met.place_digest, events = sim->met.events;
	int nr_names = sim->met.nr_policy_counters;
	char names[POLICY_MAX_COUNTERS][POLICY_COUNTER_NAME];

	memcpy(names, sim->met.policy_counter_name, sizeof(names));
	if (sim->met_to) {
		sim->met = *sim->met_to;
		to_ns = sim->met_to_ns;
	}
	metrics_sub(&sim->met, sim->met_from);
	sim->met.place_digest = digest;
	sim->met.events = events;
	sim->met.nr_policy_counters = nr_names;
	memcpy(sim->met.policy_counter_name, names, sizeof(names));
	sim->met.elapsed_ns = to_ns - sim->met_from_ns;
	sim->met.from_ns = sim->met_from_ns;
	sim->met.run_ns = run_ns;
	free(sim->met_from);
	free(sim->met_to);
	sim->met_from = sim->met_to = NULL;
}
