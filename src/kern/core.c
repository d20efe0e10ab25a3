/*
 * core.c - task creation, try_to_wake_up() and the enqueue/dequeue core,
 * after kernel/sched/core.c of v6.12 (try_to_wake_up(), ttwu_queue_cond(),
 * ttwu_queue_wakelist(), sched_ttwu_pending(), ttwu_do_activate(),
 * wake_up_new_task(), set_task_cpu(), resched_curr()).
 *
 * Timing: the wake-up decision is taken at sim->now on the waker's CPU and
 * costs what select_task_rq() read; the enqueue (or the wake-list entry and
 * its IPI) happens when that work is done, at now + the cost accumulated so
 * far. In that window other CPUs still see the target as it was, which is
 * the race SIS_SHORT (S4) is about. The per-task pi_lock is implicit: a
 * task being woken is TASK_WAKING and a second wake-up of it is a no-op.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "pelt.h"
#include "topology.h"
#include "trace.h"
#include "hooks.h"

/*
 * current: the task running on the CPU the kernel code runs on, or its
 * idle task (swapper/N) when none does. An interrupt's work (a timer's
 * callback, an IPI) runs as whatever it interrupted: select_task_rq_fair()
 * charges record_wakee() to it and weighs wake_affine() from its CPU, as
 * the kernel does with `current` in any context (fair.c, v6.12).
 */
struct task_struct *current_task(struct sim *sim)
{
	if (sim->this_cpu < 0)
		return NULL;
	struct rq *rq = &sim->rq[sim->this_cpu];

	return rq->curr ? rq->curr : rq->idle;
}

int sim_new_mm(struct sim *sim)
{
	return ++sim->next_mm_id;
}

struct task_struct *task_create(struct sim *sim, const char *comm, task_step_fn step_fn,
				void *prog, int mm_id, struct task_struct *parent)
{
	struct task_struct *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (sim->nr_tasks == sim->cap_tasks) {
		int ncap = sim->cap_tasks ? 2 * sim->cap_tasks : 64;
		struct task_struct **t = realloc(sim->tasks, sizeof(*t) * (size_t)ncap);

		if (!t) {
			free(p);
			return NULL;
		}
		sim->tasks = t;
		sim->cap_tasks = ncap;
	}
	sim->tasks[sim->nr_tasks++] = p;
	sim->nr_alive++;
	p->pid = sim->nr_tasks;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->__state = TASK_NEW;
	p->step_fn = step_fn;
	p->prog = prog;
	p->mm_id = mm_id;
	p->parent = parent;
	/* fork() copies the parent's affinity; the first task gets --cpus/--node. */
	p->cpus_ptr = parent ? parent->cpus_ptr : sim_cpumask(sim, &sim->cfg.allowed);
	if (!p->cpus_ptr)
		abort(); /* out of memory in the engine */
	p->nr_cpus_allowed = cpumask_weight(p->cpus_ptr);
	/* sched_cgroup_fork(): a child starts on its parent's current CPU. */
	p->cpu = parent && parent->on_cpu ? parent->cpu
					  : (sim->this_cpu >= 0 ? sim->this_cpu : 0);
	if (!cpumask_test_cpu(p->cpu, p->cpus_ptr))
		p->cpu = cpumask_first(p->cpus_ptr);
	p->wake_cpu = p->cpu;
	p->recent_used_cpu = p->cpu;
	p->left.cpu = -1;
	p->se.weight = 1024; /* nice 0 */
	cacheline_init(&p->flips_line);
	p->se.rq_idx = -1;
	p->se.slice = sim->tun->base_slice_ns;
	event_init(&p->ev_wake, EV_WAKE_ENQUEUE, 0, p);
	return p;
}

static enum migr_class migr_class_of(struct sim *sim, int from, int to)
{
	const struct cpu_topo *a = &sim->m->topo.cpu[from], *b = &sim->m->topo.cpu[to];

	if (a->node != b->node)
		return MIGR_CROSS_NODE;
	if (a->llc != b->llc)
		return MIGR_CROSS_LLC;
	return MIGR_LLC;
}

/*
 * set_task_cpu(): p (not running, not queued) moves; its PELT sums leave
 * the old CPU's cfs_rq (migrate_task_rq_fair()) and join the new one at the
 * next enqueue.
 */
void set_task_cpu(struct sim *sim, struct task_struct *p, int new_cpu)
{
	int old = task_cpu(p);

	if (old == new_cpu)
		return;
	trace_sched_migrate_task(sim, p, old, new_cpu);
	sim->met.migrations[migr_class_of(sim, old, new_cpu)]++;
	if (sched_cfs(sim))
		cfs_migrate_task_rq(sim, p);
	cfs_avg_sync(sim, &sim->rq[old]);
	u64 old_clock = rq_clock_task(sim, &sim->rq[old]), new_clock = rq_clock_task(sim, &sim->rq[new_cpu]);

	pelt_update(&p->se.avg, old_clock, 0, 0, 0, p->se.weight);
	if (p->__state == TASK_WAKING)
		migrate_task_rq_lines(sim, p, old);
	pelt_detach(&sim->rq[old].cfs.avg, &p->se.avg);
	/*
	 * The entity's time moves to the new CPU's clock_task, as
	 * attach_entity_load_avg() aligns it with the cfs_rq it joins (the
	 * clocks differ by the irq time each took out).
	 */
	u64 age = old_clock - p->se.avg.last_update_time;

	p->se.avg.last_update_time = new_clock > age ? new_clock - age : 0;
	/*
	 * A waking task's load is only queued for removal (remove_entity_load_avg()),
	 * seen at the old CPU's next update; a queued task moved by the balancer is
	 * detached at once (DO_DETACH, v6.0; detach_entity_cfs_rq() before).
	 */
	if (p->__state == TASK_WAKING)
		sim->rq[old].cfs.tg_removed = true;
	else
		update_tg_load_avg(sim, &sim->rq[old]);
	p->attach_pending = true;
	p->cpu = new_cpu;
	p->wake_cpu = new_cpu;
	POLICY_CALL(sim, migrate_task, p, old, new_cpu);
}

/*
 * nr_running changed, and with it the cfs_rq's counts, the cfs_tasks
 * list and the group levels' lines between (kern/hier.c).
 */
static void rq_line_write(struct sim *sim, struct rq *rq)
{
	if (sim->this_cpu < 0)
		return;
	line_write(sim, &rq->line);
	line_write(sim, &rq->cfs_line);
	line_write(sim, &rq->tasks_line);
	group_lines_enqueue(sim, rq);
}

void activate_task(struct sim *sim, struct rq *rq, struct task_struct *p, int flags)
{
	if (p->attach_pending) {
		flags |= ENQUEUE_MIGRATED;
		p->attach_pending = false;
	}
	enqueue_entity(sim, rq, &p->se, flags);
	rq->nr_running++;
	sim->nr_running_total++;
	if (rq->nr_running == 2) {
		sim->nr_overloaded++;
		set_rd_overloaded(sim); /* add_nr_running() */
	}
	rq_line_write(sim, rq);
	/* enqueue_task_fair(): not for a new task's first enqueue */
	if (flags & ENQUEUE_WAKEUP)
		update_overutilized_status(sim, rq);
	POLICY_CALL(sim, enqueue_task, rq->cpu, p, flags);
}

void rq_dequeued(struct sim *sim, struct rq *rq)
{
	if (rq->nr_running == 2)
		sim->nr_overloaded--;
	rq->nr_running--;
	sim->nr_running_total--;
	rq_line_write(sim, rq);
}

void deactivate_task(struct sim *sim, struct rq *rq, struct task_struct *p, int flags)
{
	/*
	 * A sleep (not an exit, not a move off a CPU it may not use) may be
	 * delayed: then no count changes until a pick or a wake-up.
	 */
	bool delayed = (flags & DEQUEUE_SLEEP) && p->__state != TASK_DEAD && !p->migrate_pending &&
		       dequeue_entity_delayed(sim, rq, &p->se);

	if (!delayed) {
		dequeue_entity(sim, rq, &p->se, flags);
		rq_dequeued(sim, rq);
	}
	if (flags & DEQUEUE_SLEEP) {
		/*
		 * S4 patch 1/2 "Record the average duration of a task": CPU
		 * time between two voluntary sleeps, update_avg() weight 1/8.
		 */
		s64 dur = (s64)(p->se.sum_exec_runtime - p->prev_sleep_sum_runtime);

		p->prev_sleep_sum_runtime = p->se.sum_exec_runtime;
		p->dur_avg = (u64)((s64)p->dur_avg + (dur - (s64)p->dur_avg) / 8);
		p->sleep_start_ns = sim->now;
		p->sleep_stamped = true;
	}
	POLICY_CALL(sim, dequeue_task, rq->cpu, p, flags);
}

/* The waker's CPU time to send rq's CPU an IPI (ipi_send_cost()), counted. */
static void charge_ipi_send(struct sim *sim, const struct rq *rq)
{
	u64 send = ipi_send_cost(sim, rq);

	charge(sim, send);
	sim->met.ipi_send_ns += send;
}

void resched_curr(struct sim *sim, struct rq *rq)
{
	if (rq->need_resched)
		return;
	rq->need_resched = true;
	if (rq->cpu == sim->this_cpu && rq->mode != CPU_MODE_IDLE)
		return; /* the local CPU acts at its next preemption point */
	switch (rq->mode) {
	case CPU_MODE_EXITING:
		return; /* schedule() runs when the exit completes */
	case CPU_MODE_IDLE:
		if (idle_polls_flags(sim, rq)) {
			/* set_nr_and_not_polling(): the poll loop or MWAIT sees the flag. */
			send_ipi(sim, rq->cpu, sim->m->costs.poll_wake_ns);
			return;
		}
		break;
	case CPU_MODE_NEWIDLE: /* not polling: an IPI, acted on after the balance level */
		newidle_interrupt(sim, rq);
		break;
	case CPU_MODE_RUNNING:
		break;
	}
	charge_ipi_send(sim, rq);
	sim->met.ipis++;
	send_ipi(sim, rq->cpu, sim->m->costs.ipi_latency_ns);
}

/*
 * check_preempt_wakeup_fair() of v6.12 with NEXT_BUDDY off (mainline's
 * default): the idle task always yields; otherwise the wakee preempts iff
 * pick_eevdf() would now choose it. WF_SYNC plays no part here. CFS
 * profiles share the early exits and then compare vruntimes (cfs.c).
 */
void wakeup_preempt(struct sim *sim, struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *curr = rq->curr;

	(void)wake_flags;
	if (!curr) {
		resched_curr(sim, rq);
		return;
	}
	if (curr == p || rq->need_resched || !sched_feat(WAKEUP_PREEMPTION))
		return;
	if (sched_cfs(sim)) {
		cfs_check_preempt_wakeup(sim, rq, p);
		return;
	}
	if (update_curr(sim, rq)) {
		resched_curr(sim, rq);
		return;
	}
	if (pick_eevdf(sim, &rq->cfs) == &p->se)
		resched_curr(sim, rq);
}

/*
 * The sleep a wake-up ends (at try_to_wake_up(), before the CPU is chosen)
 * joins p's average, update_avg() weight 1/8: state policies read
 * (task_avg_sleep()); the kernel keeps none.
 */
static void sleep_ended(struct sim *sim, struct task_struct *p)
{
	if (p->sleep_stamped) {
		s64 slept = (s64)(sim->now - p->sleep_start_ns);

		p->avg_sleep_ns = (u64)((s64)p->avg_sleep_ns + (slept - (s64)p->avg_sleep_ns) / 8);
		p->sleep_stamped = false;
	}
}

/* ttwu_do_activate(): enqueue a woken task and see if it preempts. */
static void ttwu_do_activate(struct sim *sim, struct rq *rq, struct task_struct *p,
			     int wake_flags)
{
	int en_flags = ENQUEUE_WAKEUP;
	bool was_idle = rq_is_idle(rq);

	activate_task(sim, rq, p, en_flags);
	/*
	 * enqueue_task_fair() raises nr_running at its end (add_nr_running(),
	 * fair.c v5.12 to v6.12), after the lock and the enqueue's lines: a
	 * remote waker's claim of an idle CPU shows then, not when it started
	 * to take the lock.
	 */
	if (was_idle && sim->this_cpu >= 0 && sim->this_cpu != rq->cpu) {
		rq->enq_visible_at = sim->now + sim->kcost_ns;
		rq->enq_by = sim->this_cpu;
	}
	p->__state = TASK_RUNNING;
	trace_sched_wakeup(sim, p, rq->cpu, false);
	p->runnable_since = sim->now;
	wakeup_preempt(sim, rq, p, wake_flags);
	if (rq->idle_stamp) {
		/* update_avg() of the idle period this wake-up ends. */
		s64 delta = (s64)(sim->now - rq->idle_stamp);
		u64 max = 2 * rq->max_idle_balance_cost;

		rq->avg_idle = (u64)((s64)rq->avg_idle + (delta - (s64)rq->avg_idle) / 8);
		if (rq->avg_idle > max)
			rq->avg_idle = max;
		/* SIS_PROP's budget from v5.13 on (select_idle_cpu()). */
		rq->wake_stamp = sim->now / sim->tun->tick_ns;
		rq->wake_avg_idle = rq->avg_idle / 2;
		rq->idle_stamp = 0;
	}
}

/*
 * ttwu_queue_cond() of v6.12: use the target's wake list when it is in
 * another LLC (do not touch remote cache lines) or, within the LLC, when
 * its runqueue is empty; never for the local CPU. The idle-target case
 * came in v6.0: v5.12 locks a same-LLC target's runqueue and enqueues.
 * The case of a wakee still switching out (v5.12's WF_ON_CPU) is
 * ttwu_on_cpu() below: its CPU's wake list, no selection.
 */
static bool ttwu_queue_cond(struct sim *sim, struct task_struct *p, int cpu)
{
	if (!cpumask_test_cpu(cpu, p->cpus_ptr))
		return false;
	if (sched_feat(TTWU_QUEUE_L2C) ? !doms_share_l2c(&sim->doms, sim->this_cpu, cpu)
				       : !doms_share_cache(&sim->doms, sim->this_cpu, cpu))
		return true;
	if (cpu == sim->this_cpu || sim->tun->kver == KV_5_12)
		return false;
	/* cpu_rq(cpu)->nr_running: a read of the target's runqueue line. */
	line_read(sim, &sim->rq[cpu].line);
	return sim->rq[cpu].nr_running == 0;
}

/*
 * The wake-list add happens now: ttwu_pending, and an IPI if the list was
 * empty, sent p->wake_ipi_lag ns later (its waker's llist add and send,
 * which follow the ttwu_pending write in __ttwu_queue_wakelist()).
 */
static void ttwu_queue_wakelist(struct sim *sim, struct task_struct *p, int cpu)
{
	struct rq *rq = cpu_rq(sim, cpu);
	bool was_empty = !rq->wake_list;

	rq->ttwu_pending++;
	/* v5.12's balance loop checks nr_running only, not ttwu_pending. */
	if (sim->tun->kver != KV_5_12)
		newidle_interrupt(sim, rq);
	p->wake_entry = NULL;
	if (was_empty) {
		rq->wake_list = p;
	} else {
		struct task_struct *t = rq->wake_list;

		while (t->wake_entry)
			t = t->wake_entry;
		t->wake_entry = p;
	}
	if (!was_empty)
		return;
	/* call_function_single_prep_ipi(): a polling idle CPU needs no IPI. */
	if (idle_polls_flags(sim, rq)) {
		rq->need_resched = true;
		send_ipi(sim, cpu, sim->m->costs.poll_wake_ns);
	} else {
		sim->met.ipis++;
		sim->kcost_ns = p->wake_ipi_lag;
		send_ipi(sim, cpu, sim->m->costs.ipi_latency_ns);
		sim->kcost_ns = 0;
	}
}

void sched_ttwu_pending(struct sim *sim, struct rq *rq)
{
	struct task_struct *p = rq->wake_list;
	u64 hold = 0;

	rq_lock(sim, rq);
	update_rq_clock(sim, rq);
	rq->wake_list = NULL;
	while (p) {
		struct task_struct *next = p->wake_entry;

		p->wake_entry = NULL;
		rq->ttwu_pending--;
		ttwu_do_activate(sim, rq, p, p->wake_flags);
		hold += sim->m->costs.ttwu_ns;
		p = next;
	}
	/*
	 * Each ttwu_do_activate() wrote the runqueue's, the list's and the
	 * group levels' lines; only ttwu_pending's is left to clear.
	 */
	rq->ttwu_pending = 0;
	line_write(sim, &rq->pend_line);
	/* Each ttwu_do_activate() under the lock costs as a local wake-up's. */
	rq_unlock(sim, rq, hold);
}

/* EV_WAKE_ENQUEUE: the waker's CPU finished selecting and now enqueues. */
static void ttwu_check_event(struct sim *sim, struct task_struct *p);

/*
 * Work the waker's path did after its start (sim->kcost_ns, priced at the
 * time it is done) is the waker CPU's kernel time, as an interrupt
 * handler's is its CPU's: it delays the task running there. A CPU that
 * has since left its task (gone to its new-idle balance or idle) is not
 * charged: the model's waker has finished its wake-up by then.
 */
static void charge_waker(struct sim *sim, int cpu)
{
	struct rq *rq;

	if (cpu < 0 || !sim->kcost_ns)
		return;
	rq = cpu_rq(sim, cpu);
	if (rq->mode == CPU_MODE_RUNNING && rq->curr) {
		cpu_sync(sim, rq);
		exec_irq_done(sim, rq);
	}
}

/* p's waker claimed cpu, or is about to read it again: no longer pending. */
static void claim_done(struct sim *sim, const struct task_struct *p, int cpu)
{
	if (sim->rq[cpu].claim_from == p->wake_from_cpu)
		sim->rq[cpu].claim_from = -1;
}

/*
 * A wake-up run under a wait queue's lock (__wake_up_common_lock(),
 * kernel/sched/wait.c, v5.12 to v6.12) keeps it until try_to_wake_up()
 * returns: the section lasts at least to t, the
 * waker's time now, and is released when the path is done. Another CPU
 * may have taken the lock since the section's last end: then it is not
 * the waker's to hold.
 */
static void wake_lock_hold(struct task_struct *p, u64 t, bool done)
{
	struct lock_section *l = p->wake_lock;

	if (!l)
		return;
	if (l->owner == p->wake_from_cpu && l->until < t)
		l->until = t;
	if (done)
		p->wake_lock = NULL;
}

void ttwu_queue_event(struct sim *sim, struct task_struct *p)
{
	int cpu = task_cpu(p);
	struct rq *rq = cpu_rq(sim, cpu);

	claim_done(sim, p, p->wake_checking ? p->wake_plc.dest : cpu);
	if (p->wake_checking) {
		ttwu_check_event(sim, p);
		wake_lock_hold(p, sim->now, !event_queued(&p->ev_wake));
		return;
	}

	sim->this_cpu = p->wake_from_cpu;
	sim->kcost_ns = 0;
	if (p->wake_via_list) {
		ttwu_queue_wakelist(sim, p, cpu);
		/* Its cost (the llist add, the IPI) was charged at the claim;
		 * the path, and a wait queue's lock, end after the send. */
		wake_lock_hold(p, sim->now + p->wake_ipi_lag, true);
	} else {
		/*
		 * ttwu_queue() (core.c v6.4, v6.12): the waker takes the
		 * target's lock and runs ttwu_do_activate() under it, the
		 * enqueue's PELT updates and task-group lines included, so
		 * the lock is held for that work and the waker pays it, its
		 * spin on the lock first. The hold after the lines is the
		 * activation's own work (ttwu_ns, charged at the wake-up's
		 * start). A waker that must spin enqueues only once it holds
		 * the lock: the step comes back then.
		 */
		u64 spin = rq_lock_spin(sim, rq);

		if (!spin) {
			rq_lock(sim, rq);
			update_rq_clock(sim, rq);
			ttwu_do_activate(sim, rq, p, p->wake_flags);
			rq_unlock(sim, rq, sim->m->costs.ttwu_ns);
		}
		wake_lock_hold(p, sim->now + sim->kcost_ns, !spin);
		sim->met.wakeup_path_ns += sim->kcost_ns;
		charge_waker(sim, p->wake_from_cpu);
		if (spin)
			evq_schedule(&sim->eng.evq, &p->ev_wake, sim->now + spin);
	}
	sim->kcost_ns = 0;
	sim->this_cpu = -1;
}

/*
 * The end of a placement (kern/placement.h): an answer that is not the
 * one the kernel's path recorded is the policy's own; count the reason,
 * the affine step and the distance from prev, and trace it.
 */
static void placement_end(struct sim *sim, struct task_struct *p, int cpu)
{
	struct placement *pl = &sim->plc;
	struct metrics *met = &sim->met;
	int dist = machine_c2c_class(sim->m, pl->prev, cpu);
	bool idle = rq_is_idle(cpu_rq(sim, cpu));

	if (pl->dest != cpu)
		pl->reason = PR_POLICY;
	met->place_reason[pl->reason]++;
	met->place_affine[pl->affine]++;
	met->place_dist[dist]++;
	met->place_busy += !idle;
	/* FNV-1a over (pid, CPU): two runs that placed alike hash alike. */
	met->place_digest = (met->place_digest ^ ((u64)(unsigned)p->pid << 16 | (unsigned)cpu)) *
			    0x100000001b3ULL;
	trace_sched_select_rq(sim, p, pl, cpu, (int)(met->sis_scanned - pl->scanned0), idle, dist);
}

static int select_task_rq(struct sim *sim, struct task_struct *p, int prev_cpu, int wake_flags)
{
	struct placement *pl = &sim->plc;
	int cpu;

	*pl = (struct placement){ .prev = prev_cpu, .target = prev_cpu, .dest = -1,
				  .reason = PR_POLICY, .affine = PA_NONE, .take_reason = PR_POLICY,
				  .scanned0 = sim->met.sis_scanned };
	if (p->nr_cpus_allowed > 1 && POLICY_HAS(sim, select_task_rq)) {
		POLICY_CALL_RET(sim, &cpu, select_task_rq, p, prev_cpu, wake_flags);
	} else if (p->nr_cpus_allowed > 1) {
		cpu = select_task_rq_fair(sim, p, prev_cpu, wake_flags);
	} else {
		cpu = pl->dest = cpumask_first(p->cpus_ptr);
		pl->reason = PR_SINGLE_CPU;
	}
	if (cpu < 0 || cpu >= sim->nr_cpus || !cpumask_test_cpu(cpu, p->cpus_ptr)) {
		sim->met.policy_fallbacks += sim->cfg.policy != NULL;
		cpu = cpumask_first(p->cpus_ptr); /* select_fallback_rq() */
	}
	/* A wake-up records its placement when it claims the CPU (try_to_wake_up()). */
	if (!(wake_flags & WF_TTWU))
		placement_end(sim, p, cpu);
	return cpu;
}

/*
 * ttwu_stat() (kernel/sched/core.c, v6.12): counted by the waker's CPU;
 * cpu is where p runs.
 * A wake-up from the workload's clock (no CPU) is not counted.
 */
static void ttwu_stat(struct sim *sim, int this_cpu, int cpu)
{
	struct sched_domain *sd;

	if (this_cpu < 0)
		return;
	struct rq *rq = &sim->rq[this_cpu];

	if (cpu == this_cpu) {
		rq->ttwu_local++;
	} else {
		for_each_domain(sim, this_cpu, sd)
			if (cpumask_test_cpu(cpu, &sd->span)) {
				sd->ttwu_wake_remote++;
				break;
			}
	}
	rq->ttwu_count++;
}

/*
 * The wake-up metrics of where p goes: cpu, from the waker's CPU this_cpu
 * (-1: no CPU, a timer) and p's prev. A requeued delayed sleeper counts
 * too, on its own CPU (cpu == prev).
 */
static void count_wake_target(struct sim *sim, int this_cpu, int prev, int cpu)
{
	if (rq_is_idle(cpu_rq(sim, cpu)))
		sim->met.wake_idle++;
	if (cpu == this_cpu)
		sim->met.wake_waker_cpu++;
	if (this_cpu >= 0 && !doms_share_cache(&sim->doms, this_cpu, cpu))
		sim->met.wake_cross_llc++;
	if (cpu == prev)
		sim->met.wake_prev_cpu++;
}

/*
 * try_to_wake_up()'s p->on_cpu test: p blocked, and its CPU is still in
 * __schedule() with it as prev (the new-idle balance before the idle
 * task runs: CPU_MODE_NEWIDLE). ttwu_queue_cond() then takes the wake
 * list when that CPU may run p and runs at most one task (v6.12; v5.8's
 * WF_ON_CPU case the same).
 */
static bool ttwu_on_cpu(struct sim *sim, struct task_struct *p)
{
	struct rq *rq = cpu_rq(sim, task_cpu(p));

	return rq->mode == CPU_MODE_NEWIDLE && rq->newidle_prev == p &&
	       cpumask_test_cpu(rq->cpu, p->cpus_ptr) && rq->nr_running <= 1;
}

static bool wake_needs_check(struct sim *sim, struct task_struct *p, int cpu);
static void ttwu_claim(struct sim *sim, struct task_struct *p, int cpu, bool on_cpu, u64 kcost0);

int try_to_wake_up(struct sim *sim, struct task_struct *p, int wake_flags)
{
	const struct costs *k = &sim->m->costs;
	int this_cpu = sim->this_cpu;
	u64 kcost0 = sim->kcost_ns;

	wake_flags |= WF_TTWU;
	if (p->__state == TASK_RUNNING || p->__state == TASK_WAKING ||
	    p->__state == TASK_DEAD || p->__state == TASK_NEW)
		return 0;
	charge(sim, k->ttwu_ns);
	if (p->se.on_rq) {
		/*
		 * ttwu_runnable(): still queued, because it had not finished
		 * blocking, or as a delayed sleeper (DELAY_DEQUEUE): requeued
		 * in place on its CPU's locked runqueue, no CPU selection.
		 */
		trace_sched_waking(sim, p);
		p->__state = TASK_RUNNING;
		sleep_ended(sim, p);
		if (p->se.sched_delayed) {
			struct rq *rq = cpu_rq(sim, task_cpu(p));

			/* __task_rq_lock(): the requeue is done under p's rq lock. */
			rq_lock(sim, rq);
			update_rq_clock(sim, rq);
			rq_unlock(sim, rq, k->ttwu_ns);
			requeue_delayed_entity(sim, rq, &p->se);
			sim->met.wakeups++;
			sim->met.wake_requeued++;
			count_wake_target(sim, this_cpu, rq->cpu, rq->cpu);
			p->runnable_since = sim->now;
			if (!p->on_cpu)
				wakeup_preempt(sim, rq, p, wake_flags);
		}
		trace_sched_wakeup(sim, p, task_cpu(p), false);
		ttwu_stat(sim, this_cpu, task_cpu(p));
		sim->met.wakeup_path_ns += sim->kcost_ns - kcost0;
		return 1;
	}
	p->__state = TASK_WAKING;
	sleep_ended(sim, p);
	sim->met.wakeups++;
	sim->wakes_in_flight++;

	int prev = p->wake_cpu, cpu;
	bool on_cpu = ttwu_on_cpu(sim, p);

	if (on_cpu) {
		/*
		 * p's CPU is still in __schedule() with p as prev, balancing
		 * on its way to idle (p->on_cpu): try_to_wake_up() queues p on
		 * that CPU's wake list, with no select_task_rq() (v5.8+,
		 * ttwu_queue_cond() for a CPU running at most one task).
		 */
		cpu = task_cpu(p);
		sim->plc = (struct placement){ .prev = prev, .target = cpu, .dest = cpu,
					       .reason = PR_ON_CPU, .affine = PA_ON_CPU,
					       .take_reason = PR_ON_CPU,
					       .scanned0 = sim->met.sis_scanned };
		placement_end(sim, p, cpu);
	} else {
		cpu = select_task_rq(sim, p, prev, wake_flags);
	}

	p->wake_flags = wake_flags;
	p->wake_from_cpu = this_cpu;
	p->wake_rechecks = 0;
	if (!on_cpu && wake_needs_check(sim, p, cpu)) {
		sim->met.wakeup_path_ns += sim->kcost_ns - kcost0;
		return 1;
	}
	if (!on_cpu)
		placement_end(sim, p, cpu);
	/*
	 * The kernel traces sched_waking before selecting; writing it after
	 * sched_select_rq, at the time the choice is final, puts the reason
	 * right before the pair it explains.
	 */
	trace_sched_waking(sim, p);
	ttwu_claim(sim, p, cpu, on_cpu, kcost0);
	return 1;
}

/*
 * The kernel reads the CPU it chooses at its place in the path that
 * chooses it (select_idle_sibling()'s test of target, prev or
 * recent_used_cpu; select_idle_cpu()'s scan, which stops at the first
 * idle core or CPU it reads, or returns after the whole walk the first
 * idle CPU it saw), and claims it after: set_task_cpu(), then
 * ttwu_queue_wakelist()'s write of ttwu_pending (try_to_wake_up(),
 * core.c v6.4 and v6.12). The model decides at the wake-up's start with
 * the states of then; what it may not do is claim a CPU another wake-up
 * claimed before this path could have read it. So a remote wake-up that
 * took its CPU for being idle reads it again at the time its path got
 * there (plc.check_kcost into the path): still idle, the claim follows
 * as before; taken meanwhile, the path goes on from there, a scan from
 * the next CPU with its budget left, a test of target, prev or recent
 * with the rest of select_idle_sibling() (run again from its start: the
 * tests before it cost a few reads), and the claim waits for the new
 * answer, which is read again in turn. Within [read, claim] the race is
 * the kernel's own (the SIS_SHORT changelog's select_task_rq() against
 * the enqueue) and is left alone. The placement is recorded, and traced
 * with sched_waking, once its CPU is final.
 */
static bool wake_relies_on_idle(enum place_reason r)
{
	switch (r) {
	case PR_TARGET_IDLE:
	case PR_PREV_IDLE:
	case PR_RECENT_IDLE:
	case PR_SMT_SIBLING:
	case PR_SCAN_IDLE_CORE:
	case PR_SCAN_IDLE_CPU:
	case PR_PREV_OTHER_CLUSTER:
	case PR_RECENT_OTHER_CLUSTER:
		return true;
	default:
		return false;
	}
}

/*
 * A guard, not the kernel's (whose walk ends at the LLC's last CPU): the
 * re-reads one wake-up makes before it claims its answer unread.
 */
#define WAKE_RECHECKS_MAX 8

static bool wake_needs_check(struct sim *sim, struct task_struct *p, int cpu)
{
	int this_cpu = p->wake_from_cpu;

	if (this_cpu < 0 || cpu == this_cpu || !wake_relies_on_idle(sim->plc.reason) ||
	    sim->plc.dest != cpu || p->wake_rechecks >= WAKE_RECHECKS_MAX)
		return false;
	p->wake_checking = true;
	sim->rq[cpu].claim_from = this_cpu;
	/* The placement so far (its dest, where its scan would go on), with
	 * the runqueues its path has examined. */
	p->wake_plc = sim->plc;
	p->wake_plc.scanned0 = sim->met.sis_scanned - sim->plc.scanned0;
	evq_schedule(&sim->eng.evq, &p->ev_wake, sim->now + sim->plc.check_kcost);
	return true;
}

/*
 * The path past a chosen CPU found taken: a scan's answer goes on with the
 * scan (an idle core's walk for idle cores; an idle CPU's, or an idle-core
 * walk's fallback, for any idle CPU), a test of target, prev or
 * recent_used_cpu with the rest of select_idle_sibling().
 */
static int wake_path_goes_on(struct sim *sim, struct task_struct *p, const struct placement *w)
{
	int cpu;

	if (w->reason == PR_SCAN_IDLE_CORE || w->reason == PR_SCAN_IDLE_CPU)
		return select_idle_cpu_resume(sim, p, w->sis_target, w->reason == PR_SCAN_IDLE_CORE,
					      w->scan_next, w->scan_nr);
	if (!POLICY_HAS(sim, select_idle_sibling))
		return select_idle_sibling(sim, p, w->sis_prev, w->sis_target);
	POLICY_DECIDE_CPU(sim, &cpu, 0, select_idle_sibling, p, w->sis_prev, w->sis_target);
	return cpu;
}

/* The chosen CPU as the path reads it now: idle, or taken since the start. */
static void ttwu_check_event(struct sim *sim, struct task_struct *p)
{
	const struct placement *w = &p->wake_plc;
	int cpu = w->dest;
	bool idle;

	p->wake_checking = false;
	sim->this_cpu = -1; /* the read was priced when the path was */
	idle = available_idle_cpu(sim, cpu);
	sim->this_cpu = p->wake_from_cpu;
	sim->kcost_ns = 0;
	sim->plc = *w;
	/* scanned0 held the runqueues examined so far: count on from now. */
	sim->plc.scanned0 = sim->met.sis_scanned - w->scanned0;
	if (!idle) {
		p->wake_rechecks++;
		sim->met.wake_rechecks++;
		sim->plc.resumed = true;
		sim->plc.dest = -1;
		cpu = wake_path_goes_on(sim, p, w);
		if (wake_needs_check(sim, p, cpu)) {
			sim->met.wakeup_path_ns += sim->kcost_ns;
			goto charge;
		}
	}
	placement_end(sim, p, cpu);
	trace_sched_waking(sim, p);
	ttwu_claim(sim, p, cpu, false, 0);
charge:
	charge_waker(sim, p->wake_from_cpu);
	sim->kcost_ns = 0;
	sim->this_cpu = -1;
}

/*
 * The rest of try_to_wake_up() once the CPU is chosen: set_task_cpu(),
 * then an enqueue on the local runqueue, or a remote one's wake-list
 * entry or locked enqueue at the end of the path's cost.
 */
static void ttwu_claim(struct sim *sim, struct task_struct *p, int cpu, bool on_cpu, u64 kcost0)
{
	int this_cpu = p->wake_from_cpu;
	int wake_flags = p->wake_flags;
	u64 claim_ns;

	/* Counted at its start; where it went, now (kern/metwin.h). */
	sim->wakes_in_flight--;
	count_wake_target(sim, this_cpu, p->wake_cpu, cpu);
	if (cpu != task_cpu(p)) {
		wake_flags |= WF_MIGRATED;
		set_task_cpu(sim, p, cpu);
	}
	ttwu_stat(sim, this_cpu, cpu);
	p->wake_flags = wake_flags;
	p->wake_via_list = on_cpu || (sched_feat(TTWU_QUEUE) && this_cpu >= 0 &&
				      ttwu_queue_cond(sim, p, cpu));
	/* Its wake-list add (ttwu_queue_wakelist()) follows at the path's end. */
	sim->met.wake_remote_queued += p->wake_via_list;
	if (!p->wake_via_list && (cpu == this_cpu || this_cpu < 0)) {
		/* Local: the rq lock is ours, enqueue right away. */
		ttwu_do_activate(sim, cpu_rq(sim, cpu), p, wake_flags);
		sim->met.wakeup_path_ns += sim->kcost_ns - kcost0;
		return;
	}
	/* Remote: the wake-list entry or the locked enqueue happens once the
	 * selection work is done; the locked one is priced then. */
	if (p->wake_via_list) {
		/*
		 * __ttwu_queue_wakelist(): WRITE_ONCE(rq->ttwu_pending, 1). The
		 * IPI is sent only to a CPU not idling with TIF_POLLING_NRFLAG
		 * (call_function_single_prep_ipi()): a polling or MWAIT one
		 * takes the flag instead.
		 */
		line_write(sim, &sim->rq[cpu].pend_line);
	}
	/*
	 * Other CPUs see the claim once ttwu_pending is written (or, on the
	 * locked path, once the enqueue is done, the event's own work). The
	 * wake list's llist add and IPI send come after that write
	 * (__smp_call_single_queue(), v6.4 and v6.12): the waker's time, not
	 * the claim's.
	 */
	claim_ns = sim->kcost_ns;
	if (p->wake_via_list && !idle_polls_flags(sim, &sim->rq[cpu]))
		charge_ipi_send(sim, &sim->rq[cpu]);
	p->wake_ipi_lag = sim->kcost_ns - claim_ns;
	sim->met.wakeup_path_ns += sim->kcost_ns - kcost0;
	sim->rq[cpu].claim_from = this_cpu;
	evq_schedule(&sim->eng.evq, &p->ev_wake, sim->now + claim_ns);
}

void wake_up_new_task(struct sim *sim, struct task_struct *p)
{
	struct rq *rq;
	int cpu;

	if (p->parent)
		trace_sched_process_fork(sim, p->parent, p);
	if (sched_cfs(sim))
		cfs_task_fork(sim, p); /* sched_fork(), on the parent's CPU */
	p->__state = TASK_RUNNING;
	p->recent_used_cpu = task_cpu(p);
	cpu = select_task_rq(sim, p, task_cpu(p), WF_FORK);
	p->cpu = cpu;
	p->wake_cpu = cpu;
	rq = cpu_rq(sim, cpu);
	update_load_avg_se(sim, rq, NULL);
	pelt_init_task(&p->se.avg, &rq->cfs.avg, rq->cfs.avg.load_avg, p->se.weight,
		       sim->m->topo.cpu[cpu].capacity, rq_clock_task(sim, rq));
	p->attach_pending = true;
	p->runnable_since = sim->now;
	sim->met.forks++;
	activate_task(sim, rq, p, ENQUEUE_INITIAL);
	trace_sched_wakeup(sim, p, cpu, true);
	wakeup_preempt(sim, rq, p, WF_FORK);
}

/* sched_prio_to_weight[]: nice -20..19, about 1.25x per step. */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

void set_user_nice_new(struct task_struct *p, int nice)
{
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	p->se.weight = prio_to_weight[nice + 20];
}

int set_cpus_allowed_self(struct sim *sim, struct task_struct *p, const struct cpumask *mask)
{
	struct cpumask m;

	cpumask_and(&m, mask, &sim->cfg.allowed);
	if (cpumask_empty(&m))
		return -1;
	const struct cpumask *in = sim_cpumask(sim, &m);

	if (!in)
		abort(); /* out of memory in the engine */
	p->cpus_ptr = in;
	p->nr_cpus_allowed = cpumask_weight(&m);
	if (cpumask_test_cpu(task_cpu(p), &m))
		return 0;
	/* The stopper moves it once it is off the CPU (exec.c). */
	p->__state = TASK_INTERRUPTIBLE;
	p->migrate_pending = true;
	return 1;
}
