/*
 * kernel.h - the kernel model's internal interfaces, one section per file
 * of kern/. Workloads and ipc/ use only the "task and wake-up API" part.
 */
#ifndef WS_KERNEL_H
#define WS_KERNEL_H

#include "kern/sim.h"


#define task_of(__se) ((struct task_struct *)((char *)(__se) - offsetof(struct task_struct, se)))

/* ---- task and wake-up API (core.c) ---- */

/*
 * A new task in TASK_NEW state, running step_fn with prog, in address
 * space mm_id (threads of one process share it). Not yet runnable: pass it
 * to wake_up_new_task(). Returns NULL on allocation failure.
 */
struct task_struct *task_create(struct sim *sim, const char *comm, task_step_fn step_fn,
				void *prog, int mm_id, struct task_struct *parent);
/* A fresh address-space id for a new process. */
int sim_new_mm(struct sim *sim);
/*
 * wake_up_new_task(): place a forked task with select_task_rq(WF_FORK)
 * (the idlest-group slow path) from the parent's CPU and enqueue it.
 */
void wake_up_new_task(struct sim *sim, struct task_struct *p);
/*
 * try_to_wake_up() from the code running on sim->this_cpu: p becomes
 * runnable on the CPU select_task_rq() picks, directly or through the
 * target's wake list. Returns 1 if p was sleeping.
 */
int try_to_wake_up(struct sim *sim, struct task_struct *p, int wake_flags);
/* The task that runs on sim->this_cpu now (the waker), or NULL (idle/irq). */
struct task_struct *current_task(struct sim *sim);
/*
 * set_user_nice() for a task not yet enqueued (TASK_NEW): its weight from
 * sched_prio_to_weight[] (kernel/sched/core.c). nice is -20..19.
 */
void set_user_nice_new(struct task_struct *p, int nice);
/*
 * sched_setaffinity() of the running task p on itself: the new mask is
 * intersected with the run's --cpus/--node binding (empty: unchanged,
 * returns -1). Returns 1 when p's CPU is no longer allowed: p must then
 * block (STEP_BLOCK) and is moved at once, as the stopper moves it in
 * affine_move_task(), through the wake-up path; 0 otherwise.
 */
int set_cpus_allowed_self(struct sim *sim, struct task_struct *p, const struct cpumask *mask);

/* ---- scheduler core (core.c) ---- */

/* activate_task(): enqueue p on rq (ENQUEUE_* flags), count it in nr_running. */
void activate_task(struct sim *sim, struct rq *rq, struct task_struct *p, int flags);
/* deactivate_task(): dequeue p; with DEQUEUE_SLEEP also S4's dur_avg sample. */
void deactivate_task(struct sim *sim, struct rq *rq, struct task_struct *p, int flags);
/* Ask rq's CPU to reschedule: now if local, else by IPI (or poll). */
void resched_curr(struct sim *sim, struct rq *rq);
/* check_preempt_wakeup_fair() after p was enqueued on rq. */
void wakeup_preempt(struct sim *sim, struct rq *rq, struct task_struct *p, int wake_flags);
/* Move a task that is not running to another CPU (set_task_cpu()). */
void set_task_cpu(struct sim *sim, struct task_struct *p, int new_cpu);
/* Enqueue the wakes queued on rq's wake list (sched_ttwu_pending()). */
void sched_ttwu_pending(struct sim *sim, struct rq *rq);
/* EV_WAKE_ENQUEUE: a remote wake-up's enqueue or wake-list entry happens. */
void ttwu_queue_event(struct sim *sim, struct task_struct *p);

/* ---- CPU execution (exec.c) ---- */

/* Pick and switch to the next task on rq, or go idle (__schedule()). */
void schedule(struct sim *sim, struct rq *rq);
/*
 * A task was queued, or a wake-up is pending, on rq while it balances on
 * its way to idle (CPU_MODE_NEWIDLE): the balance stops at the end of
 * the domain level in progress, as newidle_balance() checks nr_running
 * and ttwu_pending after each level (v5.13+: Rik van Riel's "skip
 * newidle_balance if a wakeup is pending"; v6.12 through
 * should_we_balance()'s bail-out). No-op in any other mode.
 */
void newidle_interrupt(struct sim *sim, struct rq *rq);
/* Bring rq's accounting of the running piece up to now. */
void cpu_sync(struct sim *sim, struct rq *rq);
/*
 * The busy time (ns) cpu_sync() would add now: a CPU running a task, or
 * balancing on its way to idle (CPU_MODE_NEWIDLE), since its segment began.
 */
static inline u64 cpu_open_busy_ns(const struct sim *sim, const struct rq *rq)
{
	bool busy = rq->mode == CPU_MODE_NEWIDLE || (rq->mode == CPU_MODE_RUNNING && rq->curr);

	return busy && sim->now > rq->seg_start ? sim->now - rq->seg_start : 0;
}
/* (Re)arm the end of rq's current run piece. */
void cpu_arm(struct sim *sim, struct rq *rq);
/* An IPI to cpu, arriving after latency_ns. */
void send_ipi(struct sim *sim, int cpu, u64 latency_ns);
/* EV_CPU_RUN: cpu's run piece ended, or its idle exit completed. */
void exec_handle_run(struct sim *sim, int cpu);
/*
 * A CPU balancing on its way to idle (CPU_MODE_NEWIDLE) loses ns of wall
 * time: the balance's levels and the window end that much later.
 */
void newidle_delay(struct sim *sim, struct rq *rq, u64 ns);
/* EV_CPU_TICK: sched_tick() on a busy CPU (idle CPUs are tickless). */
void exec_handle_tick(struct sim *sim, int cpu);
/* EV_CPU_IPI: an IPI (or a polling CPU's need_resched) reaches cpu. */
void exec_handle_ipi(struct sim *sim, int cpu);
/* An interrupt handler ran on rq's running CPU: charge it, then carry on. */
void exec_irq_done(struct sim *sim, struct rq *rq);
/* Arm rq's next tick, on the jiffy grid, unless one is armed. */
void tick_arm(struct sim *sim, struct rq *rq);
/* The cache refill (ns of work) p owes when it next runs on cpu (exec.c). */
u64 cold_penalty(struct sim *sim, struct task_struct *p, int cpu);
/*
 * End the user work of p's current step now (its program is called for
 * the next step as soon as p runs): what a spinning task does when the
 * lock word it polls changes. Kernel work and cache refill still owed are
 * kept. p may be running on any CPU, queued, or preempted.
 */
void task_end_work(struct sim *sim, struct task_struct *p);
/* Recompute SMT speeds of cpu's siblings after its busy state changed. */
void smt_update(struct sim *sim, int cpu);

/* ---- idle (idle.c) ---- */

/* Enter the idle loop on rq: governor, tick, idle-core and nohz bookkeeping. */
void idle_enter(struct sim *sim, struct rq *rq, struct task_struct *prev);
/* Leave idle: the exit latency has been paid (schedule_idle()). */
void idle_exit(struct sim *sim, struct rq *rq);
/*
 * ns from now until the CPU is out of the state it idles in: the state's
 * exit latency, or on a virtual CPU whose host halt-polls (the state's
 * halt_poll_ns, KVM's halt_poll_ns) and that halted less than that long
 * ago, its halt_poll_exit_ns.
 */
u64 idle_exit_latency(const struct sim *sim, const struct rq *rq);
/*
 * A vCPU's halt ended halt_ns (ns) after it began, its host's wake-up
 * included: an adapting host (idle_state.halt_poll_max_ns) grows or
 * resets rq's window as kvm_vcpu_halt() does (virt/kvm/kvm_main.c,
 * v5.x-v6.x). Nothing for a fixed window or another state.
 */
void halt_poll_adapt(struct sim *sim, struct rq *rq, u64 halt_ns);
/*
 * ns of the sender's CPU time to send rq's CPU an IPI: costs.ipi_send_ns,
 * or, to a virtual CPU halted less than its state's halt_poll_ns ago (its
 * host still polling it, so the send's VM exit need not wake the vCPU's
 * thread), the state's halt_poll_ipi_send_ns when the profile gives one
 * (wakesim calibrate measures both: docs/costs.md).
 */
u64 ipi_send_cost(const struct sim *sim, const struct rq *rq);
/*
 * Whether rq's CPU idles with TIF_POLLING_NRFLAG set, so that a wake-up
 * sets TIF_NEED_RESCHED and sends no IPI (set_nr_if_polling() and
 * set_nr_and_not_polling(), core.c v6.4/v6.12): the kernel's poll loop
 * (a polling state) or x86 MWAIT (an mwait state).
 */
bool idle_polls_flags(const struct sim *sim, const struct rq *rq);
/*
 * The tick on an idle CPU whose governor kept it (sched_tick() with
 * rq->idle_balance set): it wakes the CPU out of its state, balances this
 * CPU at the idle interval when due, then either leaves idle (it pulled
 * work) or lets the governor choose again.
 */
void idle_tick(struct sim *sim, struct rq *rq);
/*
 * The CPU runs its idle task with nothing queued or pending: idle_cpu()
 * without S2. A CPU still balancing on its way to idle is not: the
 * kernel's rq->curr is the task that blocked until the switch.
 */
static inline bool rq_is_idle(const struct rq *rq)
{
	return !rq->curr && rq->mode != CPU_MODE_NEWIDLE && rq->nr_running == 0 &&
	       !rq->ttwu_pending;
}
/*
 * rq_is_idle() of cpu as the running context reads it: also idle while a
 * remote waker's locked enqueue onto it has not yet raised nr_running
 * where others see it (enqueue_task_fair()'s add_nr_running(), v5.12 to
 * v6.12; rq->enq_visible_at). idle_cpu()'s answer under any policy layer.
 */
bool rq_idle_seen(const struct sim *sim, int cpu);
/* idle_cpu(): curr is idle, nothing queued, no wake pending (plus S2). */
bool idle_cpu(struct sim *sim, int cpu);
/*
 * available_idle_cpu() as read from sim->this_cpu: charges the runqueue
 * lines idle_cpu() reads (rq->curr's, then nr_running's, then
 * ttwu_pending's, stopping where it stops).
 */
bool available_idle_cpu(struct sim *sim, int cpu);
/*
 * The reads of sched_idle_cpu() (nr_running and cfs.idle_h_nr_running,
 * core.c/fair.c v6.4 and v6.12), which its callers evaluate after a
 * failed available_idle_cpu(). No SCHED_IDLE task is modelled, so it
 * answers no; what it costs is charged to sim->this_cpu (none without).
 */
void sched_idle_cpu_reads(struct sim *sim, int cpu);
/* ---- the menu cpuidle governor (menu.c) ---- */

/* A CPU's governor state at the start of a run (idle for a while). */
void menu_init(struct menu_device *d);
/*
 * menu_select(): the idle state rq's CPU enters now, and in *stop_tick
 * whether the governor lets the tick stop (drivers/cpuidle/governors/
 * menu.c, v6.12 for mainline, v6.4's form for the older profiles).
 */
int menu_select(struct sim *sim, struct rq *rq, bool *stop_tick);
/*
 * The deepest of m's idle states (index) whose exit latency fits a PM QoS
 * limit of latency_req ns, as menu_select() walks them: 0 when the limit
 * is under state 1's exit latency.
 */
int menu_deepest_state(const struct machine *m, u64 latency_req);
/*
 * menu_reflect() + menu_update(): the idle period in rq->idle_state ended
 * after residency_ns (exit latency included), by the tick or not.
 */
void menu_reflect(struct sim *sim, struct rq *rq, u64 residency_ns, bool tick_wakeup);
/* nohz_balance_exit_idle(): first busy tick after a tickless idle. */
void nohz_balance_exit_idle(struct sim *sim, struct rq *rq);

/* ---- EEVDF (eevdf.c) ---- */

/* An empty fair runqueue, and releasing its queue array. */
void cfs_rq_init(struct cfs_rq *cfs);
void cfs_rq_free(struct cfs_rq *cfs);
/* enqueue_entity(): PELT/util_est update, place_entity(), queue it. */
void enqueue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
/* A task left rq's count (deactivate_task() or a delayed sleeper's final dequeue). */
void rq_dequeued(struct sim *sim, struct rq *rq);

/*
 * raw_spin_rq_lock(): the running context (sim->this_cpu) takes rq's lock,
 * spinning first (charged as its CPU time, ns, and counted in
 * met.rq_lock_wait_ns) while another CPU's critical section is open at its
 * local time; then writes the lock's line. No-op without a CPU. See
 * kern/rqlock.c for which paths take it (core.c, v6.4/v6.12).
 */
void rq_lock(struct sim *sim, struct rq *rq);
/*
 * The spin alone: if another CPU's critical section on rq is open at the
 * running context's time, charge and count the wait until it closes and
 * return it (ns), taking nothing; else 0. For a path that must act only
 * once it holds the lock (a remote enqueue), to come back when it can.
 */
u64 rq_lock_spin(struct sim *sim, struct rq *rq);
/*
 * raw_spin_rq_unlock(): the critical section ends hold_ns (work done
 * under the lock but charged elsewhere, ns) after the context's current
 * time. Only the holder's unlock counts.
 */
void rq_unlock(struct sim *sim, struct rq *rq, u64 hold_ns);

/*
 * update_rq_clock() (core.c, v5.12 to v6.12), right after rq_lock() on
 * every path above but __schedule()'s relock after a new-idle balance:
 * it writes rq->clock (with clock_update_flags) and, in
 * update_rq_clock_task(), clock_task and clock_pelt, the next line
 * (rq->clock_line, rq->clock_task_line), charged to sim->this_cpu. The
 * clock's value is kept by rq_clock_task() (kern/irqtime.c).
 */
void update_rq_clock(struct sim *sim, struct rq *rq);
/* dequeue_entity(): save lag (update_entity_lag()), unqueue, util_est_update() on sleep. */
void dequeue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
/* update_curr(): account curr's runtime; true if its deadline passed. */
bool update_curr(struct sim *sim, struct rq *rq);
/* pick_eevdf(): the eligible entity with the earliest deadline (RUN_TO_PARITY keeps curr). */
struct sched_entity *pick_eevdf(struct sim *sim, struct cfs_rq *cfs);
/* set_next_entity(): se starts running; its slice is protected. */
void set_next_entity(struct sim *sim, struct rq *rq, struct sched_entity *se);
/* put_prev_entity(): curr stops running; re-queued if still runnable. */
void put_prev_entity(struct sim *sim, struct rq *rq, struct sched_entity *prev);
/* avg_vruntime(): V, the weighted mean vruntime (virtual ns), floored. */
u64 avg_vruntime(struct cfs_rq *cfs);
/* entity_eligible(): vruntime <= V, tested without division. */
bool entity_eligible(struct cfs_rq *cfs, struct sched_entity *se);
/*
 * pick_next_entity(): pick_eevdf(), or on CFS profiles the leftmost or a
 * buddy. A delayed sleeper it would pick is dequeued for real and the
 * pick retried (pick_task_fair(), v6.12); NULL when nothing runnable is left.
 */
struct sched_entity *pick_next_entity(struct sim *sim, struct rq *rq);
/*
 * DELAY_DEQUEUE (v6.12): a sleep dequeue of an entity with negative lag
 * (not eligible) is delayed: it stays queued and counted, sched_delayed,
 * out of util_est. Returns true if so; false: dequeue it as usual.
 */
bool dequeue_entity_delayed(struct sim *sim, struct rq *rq, struct sched_entity *se);
/*
 * ttwu_runnable() of a delayed sleeper (requeue_delayed_entity(), v6.12):
 * it stays where it is; with DELAY_ZERO a positive lag rejoins at V with
 * a fresh deadline, a negative one keeps vruntime and deadline.
 */
void requeue_delayed_entity(struct sim *sim, struct rq *rq, struct sched_entity *se);
/* The tick's preemption test of curr (entity_tick()): EEVDF's deadline or CFS's slice. */
void entity_tick(struct sim *sim, struct rq *rq);
/* The profile's pick algorithm is CFS (--kernel v5.12, v6.4), not EEVDF. */
static inline bool sched_cfs(const struct sim *sim)
{
	return kernel_profile(sim->tun->kver)->cfs;
}
/* Insert into / remove from the cfs_rq's queue of entities other than curr. */
void timeline_add(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
void timeline_del(struct cfs_rq *cfs, struct sched_entity *se);
/* The load-tracking halves of enqueue/dequeue_entity(), shared with cfs.c. */
void enqueue_entity_load(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
void dequeue_entity_load(struct sim *sim, struct rq *rq, struct sched_entity *se);
/* account_entity_enqueue/dequeue(): load, nr_queued, the queue, on_rq. */
void account_entity_enqueue(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
void account_entity_dequeue(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
/* calc_delta_fair(): ns of runtime to virtual ns for this weight. */
static inline u64 calc_delta_fair(u64 delta, const struct sched_entity *se)
{
	return se->weight == 1024 ? delta : delta * 1024 / se->weight;
}

/* ---- CFS, the pick of the v5.12 and v6.4 profiles (cfs.c) ---- */

/* enqueue_entity() of v5.12: renormalise a relative vruntime, place a waking one. */
void cfs_enqueue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
/* dequeue_entity() of v5.12: a move (not a sleep) leaves vruntime relative. */
void cfs_dequeue_entity(struct sim *sim, struct rq *rq, struct sched_entity *se, int flags);
/* update_curr(): charge curr, advance min_vruntime. Never asks to reschedule. */
bool cfs_update_curr(struct sim *sim, struct rq *rq);
/* pick_next_entity() of v5.12: leftmost vruntime, unless a last/next buddy is close. */
struct sched_entity *cfs_pick_next_entity(struct sim *sim, struct cfs_rq *cfs);
/* check_preempt_wakeup(): p (just enqueued) preempts rq->curr if it is more
 * than wakeup_granularity_ns (scaled to p's weight) left of it. */
void cfs_check_preempt_wakeup(struct sim *sim, struct rq *rq, struct task_struct *p);
/* check_preempt_tick(): curr ran its sched_slice(), or is that far right of the leftmost. */
void cfs_check_preempt_tick(struct sim *sim, struct rq *rq);
/* sched_slice(): se's share (ns) of the period, as if se were queued. */
u64 cfs_sched_slice(struct sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
/* task_fork_fair(): a new task's vruntime, relative to its parent CPU's min_vruntime. */
void cfs_task_fork(struct sim *sim, struct task_struct *p);
/* migrate_task_rq_fair(): a waking task leaves its old min_vruntime behind. */
void cfs_migrate_task_rq(struct sim *sim, struct task_struct *p);

/* ---- irq time accounting (irqtime.c) ---- */

/*
 * A softirq of work_ns nominal ns (at speed 1024) ran on cpu and ended now
 * (irqtime_account_irq()): counted in met.softirq_ns, and with
 * CONFIG_IRQ_TIME_ACCOUNTING (sysctl irq_time_accounting) in cpu's irq
 * time, as its wall time at the CPU's speed. cpu -1: nothing.
 */
void account_softirq(struct sim *sim, int cpu, u64 work_ns);
/*
 * Arm rq's first interruption (costs.irq_interval_ns - irq_ns after now
 * on average, from sim->irq_rng), unless the profile has none: every CPU
 * has one armed from sim_init() on, and each arms the next.
 */
void irq_arm(struct sim *sim, struct rq *rq);
/*
 * EV_CPU_IRQ: an interruption of irq_ns (mean) wall ns on a running CPU,
 * charged to curr as kernel work (exec_irq_done()), or left out of its
 * clock under CONFIG_IRQ_TIME_ACCOUNTING; nothing on an idle CPU. Arms
 * the next.
 */
void exec_handle_irq(struct sim *sim, int cpu);
/*
 * rq_clock_task() after update_rq_clock_task() (core.c, v5.12-v6.12), ns:
 * the clock less the irq time taken out of it; the clock itself while no
 * irq time is accounted. The clock of update_curr() and of the rq's PELT.
 */
u64 rq_clock_task(struct sim *sim, struct rq *rq);

/* ---- load tracking helpers (eevdf.c) ---- */

/*
 * update_load_avg() for a task entity (NULL: none) and its cfs_rq, at
 * sim->now; returns 1 if the cfs_rq's averages decayed (a PELT period
 * crossed: update_cfs_rq_load_avg()'s "decayed").
 */
int update_load_avg_se(struct sim *sim, struct rq *rq, struct sched_entity *se);
/*
 * The root cfs_rq's averages brought up to now for the model's own
 * bookkeeping (set_task_cpu()'s immediate detach), which the kernel does
 * not do there: no line is written. Returns update_load_avg_se()'s decayed.
 */
int cfs_avg_sync(struct sim *sim, struct rq *rq);

/* ---- a wake-up migration's lines on the CPU it leaves (migrate.c) ---- */

/*
 * migrate_task_rq_fair() of a waking p leaving CPU old, from sim->this_cpu
 * (nothing charged without one): on CFS profiles the old cfs_rq's
 * min_vruntime line, then its averages' line (sync_entity_load_avg()),
 * the removed line written under its lock (remove_entity_load_avg()), and
 * from v6.0 old's rq->curr (migrate_se_pelt_lag()) unless p's averages
 * decayed to 0. Queues the removal for old's next update. fair.c v5.12,
 * v6.4, v6.12.
 */
void migrate_task_rq_lines(struct sim *sim, struct task_struct *p, int old);
/*
 * update_cfs_rq_load_avg() on rq from sim->this_cpu (its own CPU, or a
 * waker's or balancer's holding its lock; nothing charged without a CPU):
 * reads removed.nr, takes the removed load back under removed.lock if a
 * migration queued some, and writes the averages' line if it did or
 * moved: the PELT clock's 1024-ns step passed since the last update.
 */
void cfs_avg_update_lines(struct sim *sim, struct rq *rq, bool moved);

/* ---- the task group's load_avg line (tg.c), all no-ops without --cgroup ---- */

/*
 * update_tg_load_avg() for rq's group cfs_rq: writes tg->load_avg's line
 * at each level (charged to sim->this_cpu) when the cfs_rq's load_avg
 * moved by more than 1/64 since its last write, and with
 * TG_LOAD_RATELIMIT (v6.7) not within 1 ms of it.
 */
void update_tg_load_avg(struct sim *sim, struct rq *rq);
void __update_tg_load_avg_if(struct sim *sim, struct rq *rq, int decayed);
void __update_cfs_group(struct sim *sim);

/*
 * update_load_avg(UPDATE_TG)'s tail: update_tg_load_avg() if decayed or
 * load was removed. Inline, so that the root group pays no call on every
 * enqueue and dequeue.
 */
static inline void update_tg_load_avg_if(struct sim *sim, struct rq *rq, int decayed)
{
	if (sim->tun->cgroup_depth)
		__update_tg_load_avg_if(sim, rq, decayed);
}

/* update_cfs_group(): calc_group_shares() reads tg->load_avg at each level. */
static inline void update_cfs_group(struct sim *sim)
{
	if (sim->tun->cgroup_depth)
		__update_cfs_group(sim);
}
/*
 * The group hierarchy's per-CPU lines (kern/hier.c): group_lines_alloc()
 * makes them at sim_init() (-1: out of memory); enqueue_task_fair() and
 * dequeue_task_fair() write five at each level (group_lines_enqueue()),
 * pick_next_task_fair() the leaf cfs_rq's two (group_lines_pick()),
 * entity_tick() four at each level (group_lines_tick()). Charged to
 * sim->this_cpu; nothing with no group or no CPU.
 */
int group_lines_alloc(struct sim *sim);
void group_lines_enqueue(struct sim *sim, struct rq *rq);
void group_lines_pick(struct sim *sim, struct rq *rq);
void group_lines_tick(struct sim *sim, struct rq *rq);

/* update_blocked_averages() of rq's CPU (balancing): decay, then update_tg_load_avg(). */
void update_blocked_averages(struct sim *sim, struct rq *rq);
/* cpu_load(): the root cfs_rq's load_avg (weight units, 1024 per busy nice-0 task). */
static inline unsigned long cpu_load(struct sim *sim, int cpu)
{
	return sim->rq[cpu].cfs.avg.load_avg;
}

/* cpu_load_without() (fair.c, v6.12): cpu_load() less p's share if p is accounted there. */
static inline unsigned long cpu_load_without(struct sim *sim, int cpu, struct task_struct *p)
{
	unsigned long l = cpu_load(sim, cpu);

	if (task_cpu(p) == cpu && p->__state != TASK_NEW) {
		unsigned long pl = p->se.avg.load_avg;

		l = l > pl ? l - pl : 0;
	}
	return l;
}

/*
 * cpu_util_cfs() (fair.c, v6.12; cpu_util(cpu, NULL, -1, 0)): util_avg
 * floored by util_est under UTIL_EST, capped at the CPU's capacity
 * (0..1024). Inline because the balancer reads it for every CPU it visits.
 */
static inline unsigned long cpu_util_cfs(struct sim *sim, int cpu)
{
	const struct cfs_rq *cfs = &sim->rq[cpu].cfs;
	unsigned long util = cfs->avg.util_avg;
	unsigned long cap = sim->m->topo.cpu[cpu].capacity;

	if (sched_feat(UTIL_EST) && cfs->util_est > util)
		util = cfs->util_est;
	return util < cap ? util : cap;
}

/*
 * add_nr_running()'s half of rd->overload(ed) (sched.h): a runqueue that
 * reaches 2 tasks reads the root domain's line and sets the flag if clear.
 */
void set_rd_overloaded(struct sim *sim);
/*
 * update_overutilized_status() (fair.c up to v6.8, from a wake-up's
 * enqueue and the tick): reads the root domain's line, sets overutilized
 * if this CPU's util is past 80% of its capacity. Nothing from v6.9 on
 * without EAS (the mainline profile).
 */
void update_overutilized_status(struct sim *sim, struct rq *rq);

/* cpu_util(cpu, p, dst, 0) of v6.12: p removed (dst != cpu) or added. */
unsigned long cpu_util(struct sim *sim, int cpu, struct task_struct *p, int dst_cpu);
/* task_util(): p's util_avg, 0..1024. */
unsigned long task_util(const struct task_struct *p);
/* task_util_est(): the larger of p's util_avg and util_est, 0..1024. */
unsigned long task_util_est(const struct task_struct *p);
static inline unsigned long capacity_of(struct sim *sim, int cpu)
{
	return sim->rq[cpu].cpu_capacity;
}

/* ---- wake-up CPU selection (wakeup.c) ---- */

/* select_task_rq_fair(): the CPU p wakes (WF_TTWU) or forks (WF_FORK) on, from sim->this_cpu. */
int select_task_rq_fair(struct sim *sim, struct task_struct *p, int prev_cpu, int wake_flags);
/* record_wakee(): the waker's flip counter. */
void record_wakee(struct sim *sim, struct task_struct *waker, struct task_struct *p);
/* wake_wide(): 1 if waker and wakee flip between many partners (spread, not pull). */
int wake_wide(struct sim *sim, struct task_struct *waker, struct task_struct *p);
/* select_idle_sibling(): the fast path's CPU for p, from target's LLC. */
int select_idle_sibling(struct sim *sim, struct task_struct *p, int prev, int target);
/*
 * select_idle_cpu()'s walk of target's LLC resumed at CPU from (0..nr_cpus-1),
 * for an idle core if has_idle_core (else an idle CPU, nr CPUs of budget
 * left): the rest of a scan whose answer was taken before the wake-up's
 * path read it (try_to_wake_up(), core.c). Returns an idle CPU, else target.
 */
int select_idle_cpu_resume(struct sim *sim, struct task_struct *p, int target, bool has_idle_core,
			   int from, int nr);
/* wake_affine(): this_cpu or prev_cpu, by WA_IDLE then WA_WEIGHT. */
int wake_affine(struct sim *sim, struct sched_domain *sd, struct task_struct *p, int this_cpu,
		int prev_cpu, int sync);
/* test_idle_cores(): the LLC's has_idle_cores, a read of its shared line. */
bool test_idle_cores(struct sim *sim, int cpu);
/* set_idle_cores(): write the LLC's has_idle_cores. */
void set_idle_cores(struct sim *sim, int cpu, int val);
/* wake_affine_idle(): this_cpu or prev_cpu by which is idle (and S4's hook 1), else -1. */
int wake_affine_idle(struct sim *sim, int this_cpu, int prev_cpu, int sync);
/* SIS_SHORT's test (S4 v6): no wakee flips, dur_avg under sis_short_ns (no feature check). */
bool is_short_task(struct sim *sim, const struct task_struct *t);
/*
 * Whether select_idle_sibling() takes candidate cpu (SIS_TARGET, SIS_PREV,
 * SIS_RECENT of policy_abi.h) before scanning; fits: v5.16+'s capacity
 * check for util (0..1024).
 */
bool sis_candidate(struct sim *sim, struct task_struct *p, int which, int cpu, int prev,
		   int target, unsigned long util, bool fits);
/* wake_affine_weight(): this_cpu if its load, p added, is lower than prev's; else -1. */
int wake_affine_weight(struct sim *sim, struct sched_domain *sd, struct task_struct *p,
		       int this_cpu, int prev_cpu, int sync);
/* The scan's steps (fair.c, v6.12), each charging scan_cpu_ns per CPU examined: */
/* __select_idle_cpu(): cpu if it is idle, else -1. */
int __select_idle_cpu(struct sim *sim, int cpu);
/* select_idle_core(): core if all its threads are idle; else its threads leave cpus. */
int select_idle_core(struct sim *sim, int core, struct cpumask *cpus, int *idle_cpu);
/* select_idle_smt(): an idle SMT sibling of target in sd, or -1. */
int select_idle_smt(struct sim *sim, struct task_struct *p, struct sched_domain *sd, int target);
/* select_idle_cpu(): the LLC scan (SIS_UTIL/SIS_PROP budget, cluster first), or -1. */
int select_idle_cpu(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
		    bool has_idle_core, int target);

/* ---- fork placement (idlest.c) ---- */

/* sched_balance_find_dst_cpu(): descend sd's groups to the idlest CPU for p. */
int find_idlest_cpu(struct sim *sim, struct sched_domain *sd, struct task_struct *p,
		    int cpu, int prev_cpu, int sd_flag);

/* ---- load balancing (balance.c) ---- */

/* sched_balance_newidle(): returns 1 if a task was pulled to rq. */
int newidle_balance(struct sim *sim, struct rq *rq);
/*
 * Write SIS_UTIL's nr_idle_scan (CPUs, 0..LLC size) of sds at now, as
 * update_idle_cpu_scan() (fair.c v6.0+) does, keeping the time-weighted
 * record behind the sis_util_budget_pct metric.
 */
void sis_budget_set(struct sim *sim, struct sched_domain_shared *sds, int nr);
/*
 * Every LLC's nr_idle_scan integrated from the run's start to now, or to
 * its last write if that is later (*area, CPUs x ns), and the LLCs' CPUs
 * over the same span (*span); both 0 without SIS_UTIL. Nothing written:
 * the run's end and the measured window's copies (kern/metwin.c) read it.
 */
void sis_budget_totals(const struct sim *sim, u64 *area, u64 *span);
/* The tick's sched_balance_trigger(): periodic and nohz balancing. */
void balance_tick(struct sim *sim, struct rq *rq);
/*
 * The same tick on an idle CPU that kept its tick: its own periodic balance
 * as CPU_IDLE, at the idle intervals (no busy_factor), when due; idle CPUs
 * never kick the nohz idle balancer (nohz_balancer_kick(), v6.12).
 */
void idle_balance_tick(struct sim *sim, struct rq *rq);

#endif
