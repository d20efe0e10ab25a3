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

void prepare_to_wait(struct wait_queue_head *wq, struct task_struct *p, bool exclusive)
{
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
}

void finish_wait(struct wait_queue_head *wq, struct task_struct *p)
{
	if (p->wq_head == wq)
		wq_del(wq, p);
	p->__state = TASK_RUNNING;
}

int wake_up(struct sim *sim, struct wait_queue_head *wq, int nr_exclusive, int wake_flags)
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
		}
		if (ret && exclusive && !--nr_exclusive)
			break;
		p = next;
	}
	return woken;
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
