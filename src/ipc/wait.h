/*
 * wait.h - wait queues, after include/linux/wait.h and kernel/sched/wait.c:
 * non-exclusive waiters queue at the head, exclusive ones at the tail; a
 * wake-up wakes every non-exclusive waiter it meets and stops after
 * nr_exclusive exclusive ones; a woken waiter leaves the queue
 * (autoremove_wake_function()).
 */
#ifndef WS_WAIT_H
#define WS_WAIT_H

#include "kern/kernel.h"

struct wait_queue_head {
	struct task_struct *head, *tail;
	/*
	 * wq_head->lock: taken by every wake-up over its whole walk, the
	 * waiters' try_to_wake_up() included (__wake_up_common_lock()), and
	 * by prepare_to_wait(). line is the cache line it sits on when its
	 * owner prices that line (a pipe's rd_wait shares pipe->mutex's),
	 * else NULL.
	 */
	struct lock_section lock;
	struct cacheline *line;
};

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	wq->head = wq->tail = NULL;
	lock_section_init(&wq->lock);
	wq->line = NULL;
}

static inline bool waitqueue_active(const struct wait_queue_head *wq)
{
	return wq->head != NULL;
}

/*
 * prepare_to_wait() / prepare_to_wait_exclusive(): queue p (if it is not
 * queued already) and mark it TASK_INTERRUPTIBLE; the caller then returns
 * STEP_BLOCK from its step. Takes wq's lock for a moment (the wait for it
 * is charged to sim->this_cpu; kernel/sched/wait.c, v5.12 to v6.12).
 */
void prepare_to_wait(struct sim *sim, struct wait_queue_head *wq, struct task_struct *p,
		     bool exclusive);
/*
 * spin_lock(&wq->lock) and its release around a step that holds it for no
 * modelled time (a pipe's head++ under rd_wait.lock): the wait for another
 * CPU's section is charged to sim->this_cpu and counted in
 * met.wq_lock_wait_ns; returns it (ns).
 */
u64 wq_lock_pass(struct sim *sim, struct wait_queue_head *wq);
/* finish_wait(): leave the queue (if still on it) and run. */
void finish_wait(struct wait_queue_head *wq, struct task_struct *p);
/*
 * __wake_up(): wake waiters from the code running on sim->this_cpu with
 * wake_flags (WF_SYNC for the *_sync variants), holding wq's lock from
 * the first waiter's try_to_wake_up() to the last one's end, so another
 * CPU that wants the lock meanwhile waits for all of them. Returns how
 * many woke.
 */
int wake_up(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags);
/*
 * futex_wake()'s order (kernel/futex/waitwake.c, v5.12-v6.12): the
 * waiters are marked under the hash bucket's lock (wq's, here) and woken
 * by wake_up_q() after it is dropped, so the lock's section holds none of
 * their try_to_wake_up(). Returns how many woke.
 */
int wake_up_q(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags);

/*
 * SIGKILL: p leaves whatever it sleeps on (wait queue or sleep timer) and
 * is woken (signal_wake_up() -> try_to_wake_up()); its program sees
 * p->killed at its next step and exits.
 */
void send_sigkill(struct sim *sim, struct task_struct *p);

#endif
