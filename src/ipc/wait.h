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
};

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	wq->head = wq->tail = NULL;
}

static inline bool waitqueue_active(const struct wait_queue_head *wq)
{
	return wq->head != NULL;
}

/*
 * prepare_to_wait() / prepare_to_wait_exclusive(): queue p (if it is not
 * queued already) and mark it TASK_INTERRUPTIBLE; the caller then returns
 * STEP_BLOCK from its step.
 */
void prepare_to_wait(struct wait_queue_head *wq, struct task_struct *p, bool exclusive);
/* finish_wait(): leave the queue (if still on it) and run. */
void finish_wait(struct wait_queue_head *wq, struct task_struct *p);
/*
 * __wake_up(): wake waiters from the code running on sim->this_cpu with
 * wake_flags (WF_SYNC for the *_sync variants). Returns how many woke.
 */
int wake_up(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags);

/*
 * SIGKILL: p leaves whatever it sleeps on (wait queue or sleep timer) and
 * is woken (signal_wake_up() -> try_to_wake_up()); its program sees
 * p->killed at its next step and exits.
 */
void send_sigkill(struct sim *sim, struct task_struct *p);

#endif
