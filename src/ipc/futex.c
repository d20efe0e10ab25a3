/*
 * futex.c - futex wait/wake and glibc-like mutex, condvar and barrier.
 */
#include "futex.h"

#include <limits.h>

static void word_atomic(struct sim *sim, struct futex *f)
{
	line_write(sim, &f->line);
}

void futex_init(struct futex *f, int val)
{
	f->val = val;
	init_waitqueue_head(&f->wq);
	cacheline_init(&f->line);
}

bool futex_wait(struct sim *sim, struct futex *f, struct task_struct *p, int expected)
{
	charge(sim, sim->m->costs.futex_ns);
	if (f->val != expected)
		return false; /* EAGAIN: the word moved on */
	prepare_to_wait(sim, &f->wq, p, true);
	return true;
}

int futex_wake(struct sim *sim, struct futex *f, int nr)
{
	charge(sim, sim->m->costs.futex_ns);
	return wake_up_q(sim, &f->wq, nr, 0);
}

void mutex_init_ws(struct ws_mutex *m)
{
	futex_init(&m->f, 0);
	m->owner = NULL;
}

bool mutex_lock_ws(struct sim *sim, struct ws_mutex *m, struct task_struct *p)
{
	word_atomic(sim, &m->f);
	finish_wait(&m->f.wq, p);
	if (m->f.val == 0) {
		/* Taken; after a wait there may be others: keep "contended". */
		m->f.val = m->f.wq.head ? 2 : 1;
		m->owner = p;
		return false;
	}
	m->f.val = 2;
	return futex_wait(sim, &m->f, p, 2);
}

void mutex_unlock_ws(struct sim *sim, struct ws_mutex *m, struct task_struct *p)
{
	int old = m->f.val;

	(void)p;
	word_atomic(sim, &m->f);
	m->f.val = 0;
	m->owner = NULL;
	if (old == 2)
		futex_wake(sim, &m->f, 1);
}

void cond_init_ws(struct ws_cond *c)
{
	futex_init(&c->seq, 0);
}

bool cond_wait_begin(struct sim *sim, struct ws_cond *c, struct ws_mutex *m,
		     struct task_struct *p, int *seq)
{
	*seq = c->seq.val;
	mutex_unlock_ws(sim, m, p);
	return futex_wait(sim, &c->seq, p, *seq);
}

bool cond_wait_again(struct sim *sim, struct ws_cond *c, struct task_struct *p, int seq)
{
	finish_wait(&c->seq.wq, p);
	if (c->seq.val != seq)
		return false;
	return futex_wait(sim, &c->seq, p, seq);
}

void cond_signal_ws(struct sim *sim, struct ws_cond *c, bool all)
{
	word_atomic(sim, &c->seq);
	c->seq.val++;
	if (waitqueue_active(&c->seq.wq))
		futex_wake(sim, &c->seq, all ? INT_MAX : 1);
}

void barrier_init_ws(struct ws_barrier *b, int count)
{
	b->count = count;
	b->arrived = 0;
	futex_init(&b->gen, 0);
}

bool barrier_wait_ws(struct sim *sim, struct ws_barrier *b, struct task_struct *p, int *gen)
{
	word_atomic(sim, &b->gen);
	*gen = b->gen.val;
	if (++b->arrived == b->count) {
		b->arrived = 0;
		b->gen.val++;
		if (waitqueue_active(&b->gen.wq))
			futex_wake(sim, &b->gen, INT_MAX);
		return false;
	}
	return futex_wait(sim, &b->gen, p, *gen);
}

bool barrier_wait_again(struct sim *sim, struct ws_barrier *b, struct task_struct *p, int gen)
{
	finish_wait(&b->gen.wq, p);
	if (b->gen.val != gen)
		return false;
	return futex_wait(sim, &b->gen, p, gen);
}
