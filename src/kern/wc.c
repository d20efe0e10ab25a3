/*
 * wc.c - the work-conservation checker, after "The Linux Scheduler: a
 * Decade of Wasted Cores" (Lozi et al., EuroSys 2016): a CPU the workload
 * may use sits idle while a runnable task that may run on it waits on
 * another CPU's runqueue. Such an interval that lasts at least the
 * threshold (--wc-threshold, 1 ms by default) counts as one violation, and
 * its whole length as wasted CPU time.
 *
 * The checker samples the machine every threshold/8 from the run's own
 * clock (no CPU; it costs the simulated machine nothing), so interval
 * lengths are known to that granularity: an interval is taken to start at
 * the first sample that sees it and to end at the first that no longer
 * does. It stops sampling when nothing else is left to happen, so it never
 * keeps a finished or deadlocked run alive.
 */
#include "wc.h"

#include <stdlib.h>

#include "kernel.h"
#include "timer.h"

/*
 * CPUs that may run a task waiting on some runqueue (queued, not curr; a
 * delayed sleeper of DELAY_DEQUEUE is queued but not waiting).
 */
static void waiting_mask(struct sim *sim, struct cpumask *out)
{
	cpumask_clear(out);
	for (int c = 0; c < sim->nr_cpus; c++) {
		const struct cfs_rq *cfs = &sim->rq[c].cfs;

		for (int i = 0; i < cfs->nr_queue; i++)
			if (!cfs->queue[i]->sched_delayed)
				cpumask_or(out, out, task_of(cfs->queue[i])->cpus_ptr);
	}
	cpumask_and(out, out, &sim->cfg.allowed);
}

void wc_sample(struct sim *sim, struct wc_checker *wc)
{
	struct cpumask may;
	bool any_waiting = sim->nr_overloaded > 0;

	if (any_waiting)
		waiting_mask(sim, &may);
	for (int c = 0; c < sim->nr_cpus; c++) {
		bool wasting = any_waiting && cpumask_test_cpu(c, &sim->cfg.allowed) &&
			       rq_is_idle(&sim->rq[c]) && cpumask_test_cpu(c, &may);
		u64 *since = &wc->since[c];

		if (wasting && *since == WC_NONE) {
			*since = sim->now;
		} else if (!wasting && *since != WC_NONE) {
			u64 len = sim->now - *since;

			if (len >= wc->threshold_ns) {
				sim->met.wc_intervals++;
				sim->met.wc_wasted_ns += len;
			}
			*since = WC_NONE;
		}
	}
}

static void sample(struct sim *sim, struct sim_timer *t)
{
	struct wc_checker *wc = t->data;

	wc_sample(sim, wc);
	/* Only the checker (and ticks) left: the run is over (or deadlocked). */
	if (!sim_quiescent(sim))
		timer_arm(sim, t, -1, sim->now + wc->period_ns);
}

int wc_start(struct sim *sim, struct wc_checker *wc, u64 threshold_ns)
{
	wc->threshold_ns = threshold_ns;
	wc->period_ns = threshold_ns / 8 ? threshold_ns / 8 : 1;
	wc->since = malloc(sizeof(*wc->since) * (size_t)sim->nr_cpus);
	if (!wc->since)
		return -1;
	for (int c = 0; c < sim->nr_cpus; c++)
		wc->since[c] = WC_NONE;
	timer_init(&wc->timer, sample, wc);
	timer_arm(sim, &wc->timer, -1, sim->now);
	return 0;
}

void wc_finish(struct sim *sim, struct wc_checker *wc)
{
	/* Close the intervals still open when the run ends. */
	for (int c = 0; wc->since && c < sim->nr_cpus; c++)
		if (wc->since[c] != WC_NONE && sim->now - wc->since[c] >= wc->threshold_ns) {
			sim->met.wc_intervals++;
			sim->met.wc_wasted_ns += sim->now - wc->since[c];
		}
	timer_cancel(sim, &wc->timer);
	free(wc->since);
	wc->since = NULL;
}
