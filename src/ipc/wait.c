/*
 * wait.c - wait queue lists and __wake_up_common().
 */
#include "wait.h"

#include "kern/timer.h"

static void wq_del(struct wait_queue_head *wq, struct task_struct *p)
{
	if (p->wq_prev)
		p->wq_prev->wq_next = p->wq_next;
	else
		wq->head = p->wq_next;
	if (p->wq_next)
		p->wq_next->wq_prev = p->wq_prev;
	else
		wq->tail = p->wq_prev;
	p->wq_next = p->wq_prev = NULL;
	p->wq_head = NULL;
}

/* spin_lock_irqsave(&wq_head->lock): wait out another CPU's section, then own it. */
static u64 wq_lock(struct sim *sim, struct wait_queue_head *wq)
{
	u64 wait = lock_section_acquire(sim, &wq->lock, wq->line);

	sim->met.wq_lock_wait_ns += wait;
	return wait;
}

u64 wq_lock_pass(struct sim *sim, struct wait_queue_head *wq)
{
	u64 wait = wq_lock(sim, wq);

	lock_section_release(sim, &wq->lock, 0);
	return wait;
}

void prepare_to_wait(struct sim *sim, struct wait_queue_head *wq, struct task_struct *p,
		     bool exclusive)
{
	wq_lock(sim, wq);
	if (p->wq_head != wq) {
		if (p->wq_head)
			wq_del(p->wq_head, p);
		p->wq_head = wq;
		p->wq_exclusive = exclusive;
		if (exclusive) {
			p->wq_prev = wq->tail;
			p->wq_next = NULL;
			if (wq->tail)
				wq->tail->wq_next = p;
			else
				wq->head = p;
			wq->tail = p;
		} else {
			p->wq_next = wq->head;
			p->wq_prev = NULL;
			if (wq->head)
				wq->head->wq_prev = p;
			else
				wq->tail = p;
			wq->head = p;
		}
	}
	p->__state = TASK_INTERRUPTIBLE;
	lock_section_release(sim, &wq->lock, 0);
}

void finish_wait(struct wait_queue_head *wq, struct task_struct *p)
{
	if (p->wq_head == wq)
		wq_del(wq, p);
	p->__state = TASK_RUNNING;
}

/* __wake_up_common(): held is the lock the waker keeps over the wake-ups, or NULL. */
static int wake_common(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive,
		       int wake_flags, struct lock_section *held)
{
	struct task_struct *p = wq->head;
	int woken = 0;

	while (p) {
		struct task_struct *next = p->wq_next;
		bool exclusive = p->wq_exclusive;
		int ret = try_to_wake_up(sim, p, wake_flags);

		if (ret) {
			wq_del(wq, p);
			woken++;
			/*
			 * The model ends p's wake-up (the target's lock and
			 * enqueue, or its wake list) in ev_wake's event: the
			 * kernel's waker holds wq's lock until then.
			 */
			if (held && event_queued(&p->ev_wake))
				p->wake_lock = held;
		}
		if (ret && exclusive && !--nr_exclusive)
			break;
		p = next;
	}
	return woken;
}

int wake_up(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags)
{
	int woken;

	wq_lock(sim, wq);
	woken = wake_common(sim, wq, nr_exclusive, wake_flags, &wq->lock);
	lock_section_release(sim, &wq->lock, 0);
	return woken;
}

int wake_up_q(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags)
{
	wq_lock_pass(sim, wq);
	return wake_common(sim, wq, nr_exclusive, wake_flags, NULL);
}

void send_sigkill(struct sim *sim, struct task_struct *p)
{
	if (p->killed || p->__state == TASK_DEAD)
		return;
	p->killed = true;
	if (p->wq_head)
		wq_del(p->wq_head, p);
	if (p->sleep_timer.fn)
		timer_cancel(sim, &p->sleep_timer);
	try_to_wake_up(sim, p, 0);
}
