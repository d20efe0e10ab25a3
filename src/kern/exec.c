/*
 * exec.c - what a CPU does between scheduling decisions: it runs its
 * current task's work at its current speed, takes ticks and IPIs, and
 * calls __schedule() (here schedule()) when the task blocks, exits or is
 * preempted.
 *
 * A running task's time is split in pieces, in order: kernel work
 * (kwork_left: syscall bodies, wake-up paths, context switches; not
 * preemptible, as on a PREEMPT_VOLUNTARY distro kernel), cache refill after
 * a migration (cold_ns) and the step's own work (work_left, kernel or
 * user). The CPU has one pending event, the end of its current piece;
 * work is nominal ns (on a CPU of speed 1024), converted to time with the
 * CPU's speed (its core type's, times smt_speed_pct while its SMT sibling
 * also runs: DESIGN.md principle 3).
 */
#include <stdlib.h>

#include "kernel.h"
#include "linecache.h"
#include "pelt.h"
#include "timer.h"
#include "trace.h"
#include "hooks.h"

static inline bool preemptible(const struct task_struct *p)
{
	return p->kwork_left == 0 && (p->cold_ns || !p->step_kernel);
}

static inline u64 *current_piece(struct task_struct *p)
{
	if (p->kwork_left)
		return &p->kwork_left;
	if (p->cold_ns)
		return &p->cold_ns;
	return &p->work_left;
}

void cpu_sync(struct sim *sim, struct rq *rq)
{
	struct task_struct *p = rq->curr;
	u64 now = sim->now, elapsed = cpu_open_busy_ns(sim, rq);

	rq->busy_ns += elapsed;
	sim->met.busy_ns += elapsed;
	if (now > rq->seg_start)
		rq->seg_start = now;
	/* The balance on the way to idle (CPU_MODE_NEWIDLE) is busy, no task's progress. */
	if (rq->mode != CPU_MODE_RUNNING || !elapsed)
		return;
	if (now >= rq->piece_end) {
		/* The armed piece ended exactly: no rounding residue. */
		if (p->kwork_left && !p->cold_ns && p->step_kernel)
			p->work_left = 0;
		*current_piece(p) = 0;
		return;
	}
	u64 progress = elapsed * rq->speed / FULL_SPEED;

	while (progress) {
		u64 *piece = current_piece(p);

		if (!*piece)
			break;
		u64 d = progress < *piece ? progress : *piece;

		*piece -= d;
		progress -= d;
	}
}

void cpu_arm(struct sim *sim, struct rq *rq)
{
	struct task_struct *p = rq->curr;
	u64 size = *current_piece(p);

	/* Kernel work followed by more kernel work is one piece: nothing can
	 * interrupt it at the seam, so it needs no event there. */
	if (p->kwork_left && !p->cold_ns && p->step_kernel)
		size += p->work_left;
	u64 dur = cpu_wall_ns(size, rq->speed);

	rq->seg_start = sim->now;
	rq->piece_end = sim->now + dur;
	evq_schedule(&sim->eng.evq, &rq->ev_run, rq->piece_end);
}

static bool cpu_busy(const struct rq *rq)
{
	return rq->mode != CPU_MODE_IDLE;
}

void smt_update(struct sim *sim, int cpu)
{
	int s, o, k, j;

	if (sim->m->topo.smt_width < 2)
		return;
	for_each_smt_cpu(s, k, sim->m, cpu) {
		struct rq *rq = &sim->rq[s];
		bool sibling_busy = false;

		for_each_smt_cpu(o, j, sim->m, cpu)
			if (o != s && cpu_busy(&sim->rq[o]))
				sibling_busy = true;
		unsigned int pct = sibling_busy ? sim->m->costs.smt_speed_pct : 100;
		unsigned int speed = sim->m->topo.cpu[s].speed * pct;

		if (speed == rq->speed)
			continue;
		cpu_sync(sim, rq);
		rq->speed = speed;
		if (rq->mode == CPU_MODE_RUNNING && rq->curr)
			cpu_arm(sim, rq);
	}
}

void send_ipi(struct sim *sim, int cpu, u64 latency_ns)
{
	struct rq *rq = &sim->rq[cpu];
	u64 when = sim->now + sim->kcost_ns + latency_ns;

	if (event_queued(&rq->ev_ipi) && rq->ev_ipi.time <= when)
		return;
	sim->met.ipi_wait_ns += latency_ns;
	evq_schedule(&sim->eng.evq, &rq->ev_ipi, when);
}

/*
 * Cache refill owed by a task switched in on cpu (docs/costs.md): its
 * working set, wss_bytes / 64 lines, overlapped cold_mlp at a time, each
 * line where kern/linecache.h has it now: the working sets and messages
 * put through its last core and LLC since it left them push it out. A
 * line still in that core's L2 is free back on the same core or an SMT
 * sibling (context_switch_ns was measured with it there) and costs the
 * c2c latency of the move from another core; an evicted one comes from
 * the LLC or memory. Before 5 December 2026 a task back on its own core
 * owed nothing, however many tasks had run there meanwhile.
 */
u64 cold_penalty(struct sim *sim, struct task_struct *p, int cpu)
{
	return lines_read_ns(sim, &p->left, cpu, true, 0, p->wss_bytes / 64);
}

void tick_arm(struct sim *sim, struct rq *rq)
{
	if (event_queued(&rq->ev_tick))
		return;
	u64 t = sim->tun->tick_ns;

	sim->nr_ticks_queued++;
	evq_schedule(&sim->eng.evq, &rq->ev_tick, (sim->now / t + 1) * t);
}

/*
 * __schedule()'s writes of another line than the lock's (context_switch(),
 * v6.12): rq->curr and rq->nr_switches. Returns the ns they take at now.
 */
static u64 switch_lines(struct sim *sim, struct rq *rq)
{
	return cacheline_write(sim->m, &rq->curr_line, rq->cpu, sim->now) +
	       cacheline_write(sim->m, &rq->pend_line, rq->cpu, sim->now);
}

/*
 * p's working set stops being touched on cpu: it counts as put through
 * the core and LLC, and p stamps both counts, from which cold_penalty()
 * tells what pushed its lines out since. Only when another task (or the
 * idle task) takes the CPU: a schedule() that picks p again puts nothing
 * new through the caches.
 */
static void task_left_cpu(struct sim *sim, struct task_struct *p, int cpu)
{
	lines_touched(sim, cpu, &p->left, p->wss_bytes);
}

static void do_schedule(struct sim *sim, struct rq *rq);
static void schedule_out(struct sim *sim, struct rq *rq, struct task_struct *p);
static void cpu_continue(struct sim *sim, struct rq *rq);

/*
 * The kernel work done in __schedule() on the way to idle (the new-idle
 * balance, its lines and locks) takes its time before the idle task
 * runs: pick_next_task_fair() balances (sched_balance_newidle(), fair.c
 * v6.12; newidle_balance() before) with the blocked task still current
 * and on its CPU and with interrupts still disabled, as that function's
 * own comment says, so for that long the CPU is busy, is not
 * idle to idle_cpu() (a scan passes it by, a sibling's
 * __update_idle_core() sees no idle core), and a wake-up queued on it
 * is acted on only when the balance returns. newidle_window_end() runs
 * at ev_run.
 */
static void newidle_window(struct sim *sim, struct rq *rq, struct task_struct *prev)
{
	rq->mode = CPU_MODE_NEWIDLE;
	rq->newidle_prev = prev;
	rq->seg_start = sim->now;
	for (int k = 0; k < rq->newidle_levels; k++)
		rq->newidle_level_end[k] += sim->now;
	evq_schedule(&sim->eng.evq, &rq->ev_run, sim->now + cpu_wall_ns(sim->kcost_ns, rq->speed));
	sim->kcost_ns = 0;
	smt_update(sim, rq->cpu);
}

void newidle_delay(struct sim *sim, struct rq *rq, u64 ns)
{
	if (rq->mode != CPU_MODE_NEWIDLE)
		return;
	for (int k = 0; k < rq->newidle_levels; k++)
		if (rq->newidle_level_end[k] >= sim->now)
			rq->newidle_level_end[k] += ns;
	evq_schedule(&sim->eng.evq, &rq->ev_run, rq->ev_run.time + ns);
}

void newidle_interrupt(struct sim *sim, struct rq *rq)
{
	if (rq->mode != CPU_MODE_NEWIDLE)
		return;
	for (int k = 0; k < rq->newidle_levels; k++) {
		u64 end = rq->newidle_level_end[k];

		if (end < sim->now)
			continue;
		if (end < rq->ev_run.time)
			evq_schedule(&sim->eng.evq, &rq->ev_run, end);
		return;
	}
}

/*
 * __schedule() returns from the balance: the timers and wake-ups that
 * came meanwhile (their interrupts were held), then a task if one is
 * queued, else the idle task.
 */
static void newidle_window_end(struct sim *sim, struct rq *rq)
{
	struct task_struct *prev = rq->newidle_prev;

	cpu_sync(sim, rq);
	rq->newidle_prev = NULL;
	/*
	 * The held interrupts run once __schedule() has switched to the
	 * idle task: this CPU is idle to the wake-ups they make.
	 */
	rq->mode = CPU_MODE_RUNNING;
	timer_run_expired(sim, rq);
	if (rq->wake_list)
		sched_ttwu_pending(sim, rq);
	if (rq->nr_running) {
		do_schedule(sim, rq);
		cpu_continue(sim, rq);
		return;
	}
	/* Their work was done in the handlers' time: nothing to wait for. */
	sim->kcost_ns = 0;
	rq->need_resched = false;
	rq->sched_goidle++;
	idle_enter(sim, rq, prev);
	smt_update(sim, rq->cpu);
}

/*
 * __schedule(): put prev back (if still runnable), pick next with
 * pick_next_entity(), try new-idle balance when nothing is runnable, and switch.
 * Does not run the next task's program: cpu_continue() does.
 */
static void __do_schedule(struct sim *sim, struct rq *rq, struct task_struct *sleeper)
{
	struct task_struct *prev = rq->curr, *next;
	struct sched_entity *se;
	int cpu = rq->cpu;

	cpu_sync(sim, rq);
	/* __schedule() holds the rq lock from here to finish_task_switch(). */
	rq_lock(sim, rq);
	update_rq_clock(sim, rq);
	/*
	 * A prev that sleeps or exits is dequeued under it (__schedule(),
	 * core.c v6.4 and v6.12: deactivate_task() after rq_lock()), its
	 * PELT and task-group lines with it.
	 */
	if (sleeper)
		deactivate_task(sim, rq, sleeper, DEQUEUE_SLEEP);
	rq->need_resched = false;
	rq->sched_count++;
	if (prev) {
		put_prev_entity(sim, rq, &prev->se);
		prev->on_cpu = 0;
		rq->curr = NULL;
	}
	se = rq->nr_running ? pick_next_entity(sim, rq) : NULL;
	if (!se) {
		/* sched_balance_newidle() drops the lock while it balances. */
		rq_unlock(sim, rq, 0);
		bool pulled = newidle_balance(sim, rq);

		rq_lock(sim, rq);
		if (pulled)
			se = pick_next_entity(sim, rq);
	}
	if (!se) {
		rq_unlock(sim, rq, 0);
		/*
		 * TIF_NEED_RESCHED belongs to the task switched out: the idle
		 * task starts without it. (A new-idle pull of a delayed sleeper,
		 * purged by the pick, sets it and leaves nothing to run.)
		 */
		rq->need_resched = false;
		if (prev) {
			task_left_cpu(sim, prev, cpu);
			trace_sched_switch(sim, cpu, prev, NULL);
			/* To the idle task: a cost no task waits for. */
			switch_lines(sim, rq);
		}
		if (rq->mode != CPU_MODE_IDLE) {
			evq_cancel(&sim->eng.evq, &rq->ev_run);
			/* pick_next_task_idle() comes after the balance: counted then. */
			if (sim->kcost_ns) {
				newidle_window(sim, rq, prev);
				return;
			}
			idle_enter(sim, rq, prev);
			smt_update(sim, cpu);
		}
		rq->sched_goidle++;
		return;
	}
	next = task_of(se);
	/*
	 * pick_next_task_fair(), under the lock: list_move() of next to the
	 * front of cfs_tasks; for a switch, put_prev_entity() and
	 * set_next_entity() on the leaf cfs_rq (kern/hier.c).
	 */
	line_write(sim, &rq->tasks_line);
	if (next != prev)
		group_lines_pick(sim, rq);
	rq_unlock(sim, rq, next != prev ? sim->m->costs.context_switch_ns : 0);
	/* A preempted prev waits on the rq from now (sched_info_enqueue()). */
	if (prev && prev != next && prev->se.on_rq && !prev->se.sched_delayed)
		prev->runnable_since = sim->now;
	set_next_entity(sim, rq, se);
	rq->curr = next;
	next->on_cpu = 1;
	if (next != prev) {
		const struct costs *k = &sim->m->costs;

		if (prev)
			task_left_cpu(sim, prev, cpu);

		trace_sched_switch(sim, cpu, prev, next);
		rq->nr_switches++;
		next->nr_switches++;
		sim->met.nr_switches++;
		next->kwork_left += k->context_switch_ns + sim->kcost_ns;
		sim->kcost_ns = 0;
		if (next->mm_id != rq->last_mm_id)
			next->kwork_left += k->mm_switch_ns;
		rq->last_mm_id = next->mm_id;
		u64 cold = cold_penalty(sim, next, cpu);

		next->cold_ns += cold;
		sim->met.cold_ns += cold;
		next->pcount++;
		next->last_switch_in = sim->now;
		if (next->runnable_since) {
			hist_add(&sim->met.run_delay, sim->now - next->runnable_since);
			next->run_delay += sim->now - next->runnable_since;
			rq->rq_run_delay += sim->now - next->runnable_since;
			next->runnable_since = 0;
		}
		/* The switch is the next task's kernel work, priced at now. */
		u64 ns = switch_lines(sim, rq);

		sim->met.coherence_ns += ns;
		next->kwork_left += ns;
	}
	if (rq->mode != CPU_MODE_RUNNING) {
		rq->mode = CPU_MODE_RUNNING;
		rq->seg_start = sim->now;
		smt_update(sim, cpu);
	}
	tick_arm(sim, rq);
}

static void do_schedule(struct sim *sim, struct rq *rq)
{
	__do_schedule(sim, rq, NULL);
}

/* __schedule() for curr p, which blocks or exits: dequeued under the lock. */
static void schedule_out(struct sim *sim, struct rq *rq, struct task_struct *p)
{
	__do_schedule(sim, rq, p);
}

void task_end_work(struct sim *sim, struct task_struct *p)
{
	struct rq *rq = &sim->rq[task_cpu(p)];

	if (p->step_kernel)
		return;
	if (rq->curr == p && rq->mode == CPU_MODE_RUNNING) {
		cpu_sync(sim, rq);
		p->work_left = 0;
		cpu_arm(sim, rq);
		return;
	}
	p->work_left = 0;
}

/*
 * A task that changed its own affinity away from this CPU is off it now:
 * move it (migration_cpu_stop() -> move_queued_task() in the kernel; here
 * through the wake-up path, which picks a CPU of its new mask).
 */
static void migrate_blocked(struct sim *sim, struct task_struct *p)
{
	if (!p->migrate_pending)
		return;
	p->migrate_pending = false;
	try_to_wake_up(sim, p, 0);
}

/* The step's program ran out of work: call it for the next step. */
static void run_step(struct sim *sim, struct rq *rq, struct task_struct *p)
{
	struct step st = { .kind = STEP_RUN };

	sim->this_cpu = rq->cpu;
	sim->kcost_ns = 0;
	p->step_fn(sim, p, &st);

	u64 k = sim->kcost_ns;

	sim->kcost_ns = 0;
	switch (st.kind) {
	case STEP_RUN:
		p->kwork_left += k;
		p->work_left = rng_jitter_ns(&sim->rng, st.work_ns, sim->m->costs.jitter_pct_x10);
		p->step_nominal_ns = st.work_ns;
		p->step_drawn_ns = p->work_left;
		p->step_kernel = st.kernel;
		break;
	case STEP_BLOCK:
		p->kwork_left += k;
		p->work_left = 0;
		if (p->kwork_left) {
			p->blocking = true;
		} else {
			schedule_out(sim, rq, p);
			migrate_blocked(sim, p);
		}
		break;
	case STEP_EXIT:
		p->__state = TASK_DEAD;
		trace_sched_process_exit(sim, p);
		sim->nr_alive--;
		schedule_out(sim, rq, p);
		break;
	}
}

/*
 * Keep the CPU going until it has an armed piece or is idle: run steps
 * whose work is done, finish blocks, and honour need_resched at
 * preemption points.
 */
static void cpu_continue(struct sim *sim, struct rq *rq)
{
	for (int guard = 0; guard < 1000000; guard++) {
		struct task_struct *p = rq->curr;

		sim->this_cpu = rq->cpu;
		if (!p) {
			if (rq->mode == CPU_MODE_RUNNING || rq->nr_running)
				do_schedule(sim, rq);
			if (!rq->curr)
				return;
			continue;
		}
		if (p->kwork_left || p->cold_ns || p->work_left) {
			if (rq->need_resched && preemptible(p)) {
				do_schedule(sim, rq);
				continue;
			}
			cpu_arm(sim, rq);
			return;
		}
		if (p->blocking) {
			p->blocking = false;
			if (p->__state != TASK_RUNNING) {
				schedule_out(sim, rq, p);
				migrate_blocked(sim, p);
				continue;
			}
		}
		/* A step boundary is a return to user space: preempt here. */
		if (rq->need_resched) {
			do_schedule(sim, rq);
			if (rq->curr == p)
				run_step(sim, rq, p);
			continue;
		}
		run_step(sim, rq, p);
	}
	/*
	 * A million steps without time passing: work that costs nothing loops
	 * (a profile with zero syscall costs, say). Stop the run; the input is
	 * at fault, not the machine's physics.
	 */
	snprintf(sim->wl->input_error, sizeof(sim->wl->input_error),
		 "task %s on CPU %d made a million steps without simulated time passing: "
		 "the costs make its work free (give syscalls and switches a cost)",
		 rq->curr ? rq->curr->comm : "?", rq->cpu);
	sim->wl->done = true;
}

void schedule(struct sim *sim, struct rq *rq)
{
	do_schedule(sim, rq);
	cpu_continue(sim, rq);
}

void exec_handle_run(struct sim *sim, int cpu)
{
	struct rq *rq = &sim->rq[cpu];

	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
	if (rq->mode == CPU_MODE_NEWIDLE) {
		newidle_window_end(sim, rq);
		return;
	}
	if (rq->mode == CPU_MODE_EXITING) {
		idle_exit(sim, rq);
		timer_run_expired(sim, rq);
		sched_ttwu_pending(sim, rq);
		do_schedule(sim, rq);
		cpu_continue(sim, rq);
		return;
	}
	cpu_sync(sim, rq);
	cpu_continue(sim, rq);
}

void exec_handle_tick(struct sim *sim, int cpu)
{
	struct rq *rq = &sim->rq[cpu];

	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
	if (rq->mode == CPU_MODE_IDLE) {
		idle_tick(sim, rq); /* the governor kept the tick */
		return;
	}
	if (rq->mode != CPU_MODE_RUNNING || !rq->curr)
		return;
	cpu_sync(sim, rq);
	nohz_balance_exit_idle(sim, rq);
	/* scheduler_tick() (core.c v6.4, v6.12) runs task_tick_fair() under the rq lock. */
	rq_lock(sim, rq);
	update_rq_clock(sim, rq);
	entity_tick(sim, rq);
	update_overutilized_status(sim, rq); /* task_tick_fair() */
	POLICY_CALL(sim, task_tick, cpu, rq->curr);
	/* entity_tick()'s update_load_avg(UPDATE_TG) and update_cfs_group() */
	update_tg_load_avg_if(sim, rq, update_load_avg_se(sim, rq, &rq->curr->se));
	update_cfs_group(sim);
	group_lines_tick(sim, rq);
	rq_unlock(sim, rq, 0);
	balance_tick(sim, rq);
	if (rq->curr)
		rq->curr->kwork_left += sim->kcost_ns;
	sim->kcost_ns = 0;
	tick_arm(sim, rq);
	cpu_continue(sim, rq);
}

void exec_handle_ipi(struct sim *sim, int cpu)
{
	struct rq *rq = &sim->rq[cpu];

	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
	switch (rq->mode) {
	case CPU_MODE_IDLE: {
		u64 exit_ns = idle_exit_latency(sim, rq);

		halt_poll_adapt(sim, rq, sim->now + exit_ns - rq->idle_enter_ns);
		sim->met.idle_exits[rq->idle_state]++;
		sim->met.idle_exit_ns += exit_ns;
		rq->mode = CPU_MODE_EXITING;
		smt_update(sim, cpu);
		evq_schedule(&sim->eng.evq, &rq->ev_run, sim->now + exit_ns);
		return;
	}
	case CPU_MODE_EXITING:
	case CPU_MODE_NEWIDLE: /* interrupts are off in __schedule(): after the balance */
		return;
	case CPU_MODE_RUNNING:
		cpu_sync(sim, rq);
		if (rq->wake_list)
			sched_ttwu_pending(sim, rq);
		exec_irq_done(sim, rq);
		return;
	}
}

void exec_irq_done(struct sim *sim, struct rq *rq)
{
	/* The handler's work interrupted curr: it is curr's kernel time. */
	if (rq->curr) {
		rq->curr->kwork_left += sim->kcost_ns;
		sim->kcost_ns = 0;
	}
	cpu_continue(sim, rq);
}
