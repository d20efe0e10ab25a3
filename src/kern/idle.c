/*
 * idle.c - the idle loop's side of scheduling: idle predicates, idle-core
 * tracking, the tick while idle, and NO_HZ bookkeeping of nr_busy_cpus.
 *
 * Kernel sources (v6.12): idle_cpu() and available_idle_cpu() in core.c,
 * set_next_task_idle() -> update_idle_core() / __update_idle_core() in
 * idle.c and fair.c, nohz_balance_enter_idle() / nohz_balance_exit_idle()
 * with set_cpu_sd_state_idle/busy() in fair.c, called when the tick stops
 * (tick_nohz_idle_stop_tick()) and at the first busy tick.
 *
 * The governor is menu (kern/menu.c). It also decides the tick: a CPU
 * whose predicted idle is under a tick keeps it (tick_nohz_idle_retain_
 * tick()), wakes every tick and balances itself at the idle interval
 * (sched_tick() -> sched_balance_trigger() with rq->idle_balance); only a
 * CPU whose tick stops enters nohz.idle_cpus_mask and leaves nr_busy_cpus
 * (nohz_balance_enter_idle(), called from tick_nohz_idle_stop_tick()
 * alone), to be balanced by the nohz idle balancer (kernel/sched/idle.c,
 * kernel/time/tick-sched.c, v6.4 and v6.12).
 */
#include "kernel.h"
#include "lb.h"
#include "timer.h"
#include "hooks.h"

/*
 * __update_idle_core(): when a CPU of an SMT core goes idle and every
 * other sibling is idle too, the LLC has an idle core (has_idle_cores).
 */
static void update_idle_core(struct sim *sim, struct rq *rq)
{
	struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;
	int c, k;

	if (!sim->doms.smt_present || !sds)
		return;
	line_read(sim, &sds->line);
	if (sds->has_idle_cores)
		return;
	for_each_smt_cpu(c, k, sim->m, rq->cpu) {
		if (c != rq->cpu && !available_idle_cpu(sim, c))
			return;
	}
	sds->has_idle_cores = 1;
	line_write(sim, &sds->line);
}

/*
 * cpuidle_idle_call()'s tick step after the governor: stop the tick if
 * the governor allows it or it is stopped already, unless the next timer
 * is within a tick (tick_nohz_next_event() then keeps it); else retain it.
 */
static void idle_tick_step(struct sim *sim, struct rq *rq, bool stop_tick)
{
	u64 next = cpu_next_timer(sim, rq->cpu);

	if (!stop_tick && !rq->tick_stopped) {
		tick_arm(sim, rq);
		return;
	}
	if (!rq->tick_stopped && next != UINT64_MAX && next <= sim->now + sim->tun->tick_ns) {
		tick_arm(sim, rq);
		return;
	}
	if (event_queued(&rq->ev_tick)) {
		evq_cancel(&sim->eng.evq, &rq->ev_tick);
		sim->nr_ticks_queued--;
	}
	if (rq->tick_stopped)
		return;
	rq->tick_stopped = true;
	if (!rq->nohz_idle) {
		/* nohz_balance_enter_idle() -> set_cpu_sd_state_idle() */
		struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;

		rq->nohz_idle = true;
		if (sds) {
			sds->nr_busy_cpus--;
			line_write(sim, &sds->line);
		}
	}
}

/*
 * The window the host polls rq's halt for: the vCPU's own if it adapts
 * (never above the maximum: it starts at halt_poll_ns, which the profile
 * holds under it, and halt_poll_adapt() grows it no further).
 */
static u64 halt_window(const struct rq *rq, const struct idle_state *st)
{
	return st->halt_poll_max_ns ? rq->halt_poll_ns : st->halt_poll_ns;
}

/* The host still polls rq's halt: it has not scheduled the vCPU out. */
static bool halt_polled(const struct sim *sim, const struct rq *rq, const struct idle_state *st)
{
	u64 w = halt_window(rq, st);

	return w && sim->now - rq->idle_enter_ns < w;
}

#define KVM_HALT_POLL_GROW 2			/* halt_poll_ns_grow's default */
#define KVM_HALT_POLL_GROW_START_NS 10000	/* halt_poll_ns_grow_start's default */

void halt_poll_adapt(struct sim *sim, struct rq *rq, u64 halt_ns)
{
	const struct idle_state *st = &sim->m->idle[rq->idle_state];
	u64 max = st->halt_poll_max_ns, w;

	if (!max)
		return;
	w = halt_window(rq, st);
	if (halt_ns <= w)
		return;
	if (w && halt_ns > max) {
		w = 0;	/* shrink_halt_poll_ns() with halt_poll_ns_shrink 0: reset */
	} else if (w < max && halt_ns < max) {
		w *= KVM_HALT_POLL_GROW;	/* grow_halt_poll_ns() */
		if (w < KVM_HALT_POLL_GROW_START_NS)
			w = KVM_HALT_POLL_GROW_START_NS;
		if (w > max)
			w = max;
	}
	rq->halt_poll_ns = w;
}

u64 idle_exit_latency(const struct sim *sim, const struct rq *rq)
{
	const struct idle_state *st = &sim->m->idle[rq->idle_state];

	return halt_polled(sim, rq, st) ? st->halt_poll_exit_ns : st->exit_latency_ns;
}

u64 ipi_send_cost(const struct sim *sim, const struct rq *rq)
{
	const struct idle_state *st = &sim->m->idle[rq->idle_state];

	if (rq->mode == CPU_MODE_IDLE && st->halt_poll_send_set && halt_polled(sim, rq, st))
		return st->halt_poll_ipi_send_ns;
	return sim->m->costs.ipi_send_ns;
}

bool idle_polls_flags(const struct sim *sim, const struct rq *rq)
{
	const struct idle_state *st = &sim->m->idle[rq->idle_state];

	return rq->mode == CPU_MODE_IDLE && (st->polling || st->mwait);
}

/* One pass of do_idle()'s loop: the governor's state, then the tick. */
static void idle_select(struct sim *sim, struct rq *rq)
{
	bool stop_tick;

	rq->idle_enter_ns = sim->now;
	rq->idle_reflected = false;
	rq->idle_state = menu_select(sim, rq, &stop_tick);
	idle_tick_step(sim, rq, stop_tick);
}

void idle_enter(struct sim *sim, struct rq *rq, struct task_struct *prev)
{
	rq->mode = CPU_MODE_IDLE;
	rq->curr = NULL;
	update_idle_core(sim, rq);
	idle_select(sim, rq);
	POLICY_CALL(sim, idle_enter, rq->cpu, prev);
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
	POLICY_CALL(sim, idle_exit, rq->cpu);
	if (!rq->idle_reflected)
		menu_reflect(sim, rq, sim->now - rq->idle_enter_ns, false);
	/* tick_nohz_idle_exit(): the tick restarts (do_schedule() arms it). */
	rq->tick_stopped = false;
	rq->mode = CPU_MODE_RUNNING;
	rq->seg_start = sim->now;
}

void idle_tick(struct sim *sim, struct rq *rq)
{
	/* The timer interrupt ends this idle period: the governor hears of it. */
	sim->met.idle_exits[rq->idle_state]++;
	sim->met.idle_ticks++;
	menu_reflect(sim, rq, sim->now - rq->idle_enter_ns, true);
	rq->idle_reflected = true;
	/* The timer ends the halt too: the host's window adapts to it. */
	u64 exit_ns = idle_exit_latency(sim, rq);

	halt_poll_adapt(sim, rq, sim->now + exit_ns - rq->idle_enter_ns);
	/* Out of the state while the handler runs: a resched now waits for it. */
	rq->mode = CPU_MODE_EXITING;
	idle_balance_tick(sim, rq);
	sim->kcost_ns = 0; /* the handler's own time is not modelled */
	if (rq->nr_running || rq->need_resched || rq->wake_list) {
		/* It pulled work: the idle loop ends once the state is left. */
		smt_update(sim, rq->cpu);
		evq_schedule(&sim->eng.evq, &rq->ev_run, sim->now + exit_ns);
		return;
	}
	rq->mode = CPU_MODE_IDLE;
	idle_select(sim, rq);
}

/*
 * A remote waker's locked enqueue onto this idle CPU is done but not yet
 * seen by the reading context (kern/sched.h, enq_visible_at): the CPU
 * still reads idle to any CPU but that waker's.
 */
static bool enqueue_unseen(const struct sim *sim, const struct rq *rq)
{
	u64 t = sim->now + (sim->this_cpu >= 0 ? sim->kcost_ns : 0);

	return rq->enq_by >= 0 && rq->enq_by != sim->this_cpu && t < rq->enq_visible_at &&
	       !rq->curr && rq->mode != CPU_MODE_NEWIDLE && rq->nr_running == 1 &&
	       !rq->ttwu_pending;
}

bool rq_idle_seen(const struct sim *sim, int cpu)
{
	const struct rq *rq = &sim->rq[cpu];

	return rq_is_idle(rq) || enqueue_unseen(sim, rq);
}

bool idle_cpu(struct sim *sim, int cpu)
{
	const struct rq *rq = &sim->rq[cpu];

	/*
	 * A CPU's wake-ups run one after another in the kernel: each writes
	 * ttwu_pending or nr_running (try_to_wake_up(), core.c v6.4/v6.12)
	 * before the next one reads. The model's claim of a remote CPU is an
	 * event at the end of the path, so until then its waker's own reads
	 * see it taken here. Other CPUs see it when it lands, as they would.
	 */
	if (rq->claim_from >= 0 && rq->claim_from == sim->this_cpu)
		return false;
	if (POLICY_HAS(sim, idle_cpu)) {
		bool idle;

		POLICY_CALL_RET(sim, &idle, idle_cpu, cpu);
		return idle;
	}
	/* S2's IDLE_DELAY is a layer (features/idle_delay.c). */
	return rq_idle_seen(sim, cpu);
}

/*
 * The lines idle_cpu() (core.c, v6.4 and v6.12) reads, in its order and
 * stopping where it stops: rq->curr (a busy CPU ends it there), then
 * nr_running, then ttwu_pending. A policy's idle_cpu and S2 (whose new
 * field's place in struct rq the patch does not fix) are charged the
 * same reads, so a plug-in and its built-in twin cost alike.
 */
static void idle_cpu_reads(struct sim *sim, int cpu)
{
	struct rq *rq = &sim->rq[cpu];

	line_read(sim, &rq->curr_line);
	if (rq->curr || rq->mode == CPU_MODE_NEWIDLE)
		return;
	line_read(sim, &rq->line);
	if (rq->nr_running && !enqueue_unseen(sim, rq))
		return;
	line_read(sim, &rq->pend_line);
}

bool available_idle_cpu(struct sim *sim, int cpu)
{
	if (sim->this_cpu >= 0)
		idle_cpu_reads(sim, cpu);
	return idle_cpu(sim, cpu);
}

void sched_idle_cpu_reads(struct sim *sim, int cpu)
{
	if (sim->this_cpu < 0)
		return;
	line_read(sim, &sim->rq[cpu].line);
	line_read(sim, &sim->rq[cpu].cfs_line);
}
