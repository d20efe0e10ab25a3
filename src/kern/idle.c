/*
 * idle.c - the idle loop's side of scheduling: idle predicates, idle-core
 * tracking, NO_HZ bookkeeping of nr_busy_cpus, and a cpuidle governor.
 *
 * Kernel sources (v6.12): idle_cpu() and available_idle_cpu() in core.c,
 * set_next_task_idle() -> update_idle_core() / __update_idle_core() in
 * idle.c and fair.c, nohz_balance_enter_idle() / nohz_balance_exit_idle()
 * with set_cpu_sd_state_idle/busy() in fair.c, called when the tick stops
 * (tick_nohz_idle_stop_tick()) and at the first busy tick.
 *
 * Governor (documented simplification of menu): the predicted idle length
 * is the mean of the CPU's last 8 idle periods, each without the exit
 * latency it paid (menu_update()), as menu's typical interval without its
 * outlier rejection; an unknown CPU predicts "long"; bounded
 * by the CPU's next armed hrtimer; the deepest state whose target
 * residency fits is chosen, and the tick is stopped when the prediction
 * exceeds a tick, as menu does.
 */
#include "kernel.h"
#include "timer.h"
#include "policy/registry.h"

/* menu: the typical recent idle period, bounded by the next timer. */
static u64 predict_idle_ns(const struct sim *sim, const struct rq *rq)
{
	const struct idle_history *h = &rq->idle_hist;
	u64 next = cpu_next_timer(sim, rq->cpu), typical = UINT64_MAX, sum = 0;

	if (h->nr) {
		for (int i = 0; i < h->nr; i++)
			sum += h->dur_ns[i];
		typical = sum / (u64)h->nr;
	}
	next = next > sim->now ? next - sim->now : 0;
	return typical < next ? typical : next;
}

/* The deepest state whose target residency is within the prediction. */
int idle_select_state(const struct machine *m, u64 predicted_ns)
{
	int s = 0;

	for (int i = 1; i < m->nr_idle_states; i++)
		if (m->idle[i].target_residency_ns <= predicted_ns)
			s = i;
	return s;
}

/*
 * __update_idle_core(): when a CPU of an SMT core goes idle and every
 * other sibling is idle too, the LLC has an idle core (has_idle_cores).
 */
static void update_idle_core(struct sim *sim, struct rq *rq)
{
	struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;
	int c;

	if (!sim->doms.smt_present || !sds)
		return;
	line_read(sim, &sds->line);
	if (sds->has_idle_cores)
		return;
	for_each_cpu(c, machine_smt_mask(sim->m, rq->cpu)) {
		if (c != rq->cpu && !available_idle_cpu(sim, c))
			return;
	}
	sds->has_idle_cores = 1;
	line_write(sim, &sds->line);
}

void idle_enter(struct sim *sim, struct rq *rq)
{
	u64 predicted = predict_idle_ns(sim, rq);

	rq->mode = CPU_MODE_IDLE;
	rq->curr = NULL;
	rq->idle_enter_ns = sim->now;
	rq->idle_state = idle_select_state(sim->m, predicted);
	update_idle_core(sim, rq);
	evq_cancel(&sim->evq, &rq->ev_tick);
	if (predicted >= sim->tun->tick_ns && !rq->nohz_idle) {
		/* nohz_balance_enter_idle() -> set_cpu_sd_state_idle() */
		struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;

		rq->nohz_idle = true;
		if (sds) {
			sds->nr_busy_cpus--;
			line_write(sim, &sds->line);
		}
	}
	POLICY_CALL(sim, idle_enter, rq->cpu);
}

void nohz_balance_exit_idle(struct sim *sim, struct rq *rq)
{
	struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;

	if (!rq->nohz_idle)
		return;
	rq->nohz_idle = false;
	if (sds) {
		sds->nr_busy_cpus++;
		line_write(sim, &sds->line);
	}
}

void idle_exit(struct sim *sim, struct rq *rq)
{
	struct idle_history *h = &rq->idle_hist;

	u64 dur = sim->now - rq->idle_enter_ns;
	u64 exit_ns = sim->m->idle[rq->idle_state].exit_latency_ns;

	POLICY_CALL(sim, idle_exit, rq->cpu);

	/*
	 * menu_update(): what the CPU slept, without the exit latency it paid
	 * (or half the period when that is the larger part), so a deep state's
	 * own exit does not make the next prediction long.
	 */
	dur = dur > 2 * exit_ns ? dur - exit_ns : dur / 2;
	h->dur_ns[h->pos] = dur;
	h->pos = (h->pos + 1) % 8;
	if (h->nr < 8)
		h->nr++;
	/* S2: schedule_idle() records when the CPU left the idle loop. */
	rq->idle_end_time = sim->now;
	rq->mode = CPU_MODE_RUNNING;
	rq->seg_start = sim->now;
}

bool idle_cpu(struct sim *sim, int cpu)
{
	const struct rq *rq = &sim->rq[cpu];

	if (sim->cfg.policy && sim->cfg.policy->idle_cpu) {
		bool idle;

		POLICY_CALL_RET(sim, &idle, idle_cpu, cpu);
		return idle;
	}	bool idle = rq_is_idle(rq);

	/*
	 * S2 "sched: Extend cpu idle state for 1ms": a CPU that left idle
	 * less than idle_delay_ns ago still reports idle.
	 */
	if (sched_feat(IDLE_DELAY) && rq->idle_end_time &&
	    sim->now < rq->idle_end_time + sim->tun->idle_delay_ns) {
		sim->met.hits_idle_delay += !idle;
		return true;
	}
	return idle;
}

bool available_idle_cpu(struct sim *sim, int cpu)
{
	if (sim->this_cpu >= 0) {
		line_read(sim, &sim->rq[cpu].line);
	}
	return idle_cpu(sim, cpu);
}
