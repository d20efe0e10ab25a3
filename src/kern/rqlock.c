/*
 * rqlock.c - the runqueue lock as a contended resource.
 *
 * raw_spin_rq_lock() (kernel/sched/core.c, v6.4 and v6.12) takes
 * rq->__lock, the first field of struct rq, on the same cache line as
 * nr_running: taking it is a write of rq->line (coherence.h), and each
 * path below then calls update_rq_clock(), which writes the clock's two
 * lines (but __schedule() after a new-idle balance relocks without it).
 * Who takes a CPU's lock, in the paths the model has:
 *   - its own CPU in __schedule(), from its start (a prev that sleeps or
 *     exits is dequeued under it) to finish_task_switch();
 *   - its own CPU in scheduler_tick(), for task_tick_fair();
 *   - its own CPU in sched_ttwu_pending(), for the wake-list's enqueues;
 *   - a remote waker in ttwu_queue() when the wake-list is not used
 *     (ttwu_queue_cond() false: TTWU_QUEUE off, or a busy CPU of the same
 *     LLC, or of the same L2 with TTWU_QUEUE_L2C), for ttwu_do_activate()
 *     at the end of its path, once it holds the lock (rq_lock_spin());
 *   - a balancer pulling from it (detach_tasks() under the busiest rq's
 *     lock, attach_tasks() under the puller's own).
 * A context that arrives while another CPU's critical section is open
 * spins until it closes (kern/spinlock.h).
 */
#include "kernel.h"

static u64 count_spin(struct sim *sim, u64 wait)
{
	if (wait) {
		sim->met.rq_lock_wait_ns += wait;
		sim->met.rq_lock_contended++;
	}
	return wait;
}

u64 rq_lock_spin(struct sim *sim, struct rq *rq)
{
	return count_spin(sim, lock_section_spin(sim, &rq->lock));
}

void rq_lock(struct sim *sim, struct rq *rq)
{
	if (sim->this_cpu < 0)
		return; /* the workload's clock: no CPU takes the lock */
	count_spin(sim, lock_section_acquire(sim, &rq->lock, &rq->line));
}

void update_rq_clock(struct sim *sim, struct rq *rq)
{
	if (sim->this_cpu < 0)
		return;
	line_write(sim, &rq->clock_line);
	line_write(sim, &rq->clock_task_line);
}

void rq_unlock(struct sim *sim, struct rq *rq, u64 hold_ns)
{
	lock_section_release(sim, &rq->lock, hold_ns);
}
