/*
 * futex.h - futexes (kernel/futex/: FUTEX_WAIT, FUTEX_WAKE) and the
 * user-space primitives built on them the way glibc builds them: a mutex
 * (0 free, 1 locked, 2 locked with waiters), a condition variable (a
 * sequence word), a barrier (a count and a generation word).
 *
 * Every atomic on a futex word costs the transfer of its cache line to
 * the CPU doing it (machine/coherence.h); a FUTEX_WAIT or FUTEX_WAKE costs
 * futex_ns of syscall work plus the wake-ups it does (not WF_SYNC).
 * The primitives return true when the calling task must block: it is then
 * queued and TASK_INTERRUPTIBLE, and calls the same primitive again after
 * it is woken.
 */
#ifndef WS_FUTEX_H
#define WS_FUTEX_H

#include "wait.h"

struct futex {
	int val;			/* the 32-bit futex word */
	struct wait_queue_head wq;	/* waiters on this word (its hash bucket) */
	struct cacheline line;		/* the word's cache line */
};

void futex_init(struct futex *f, int val);
/* FUTEX_WAIT: block p (exclusively) if the word still equals expected. */
bool futex_wait(struct sim *sim, struct futex *f, struct task_struct *p, int expected);
/* FUTEX_WAKE: wake up to nr waiters (INT_MAX: all); returns how many. */
int futex_wake(struct sim *sim, struct futex *f, int nr);

struct ws_mutex {
	struct futex f;
	struct task_struct *owner;	/* for checks only */
};

void mutex_init_ws(struct ws_mutex *m);
/* pthread_mutex_lock(); true: p must block and call again once woken. */
bool mutex_lock_ws(struct sim *sim, struct ws_mutex *m, struct task_struct *p);
/* pthread_mutex_unlock(): wakes one waiter if there are any. */
void mutex_unlock_ws(struct sim *sim, struct ws_mutex *m, struct task_struct *p);

struct ws_cond {
	struct futex seq;
};

void cond_init_ws(struct ws_cond *c);
/*
 * pthread_cond_wait() in two halves: cond_wait_begin() samples the
 * sequence, unlocks m and sleeps (returns true) unless a signal already
 * came; after waking, the caller relocks m with mutex_lock_ws().
 */
bool cond_wait_begin(struct sim *sim, struct ws_cond *c, struct ws_mutex *m,
		     struct task_struct *p, int *seq);
/* After a wake-up: true if p must sleep again (no signal since seq). */
bool cond_wait_again(struct sim *sim, struct ws_cond *c, struct task_struct *p, int seq);
/* pthread_cond_signal() / pthread_cond_broadcast(). */
void cond_signal_ws(struct sim *sim, struct ws_cond *c, bool all);

struct ws_barrier {
	int count, arrived;
	struct futex gen;	/* generation: bumped when the last task arrives */
};

void barrier_init_ws(struct ws_barrier *b, int count);
/*
 * pthread_barrier_wait(): the last of count tasks releases the others.
 * The first call returns true to block with *gen set; after a wake-up
 * call barrier_wait_again() with that generation.
 */
bool barrier_wait_ws(struct sim *sim, struct ws_barrier *b, struct task_struct *p, int *gen);
bool barrier_wait_again(struct sim *sim, struct ws_barrier *b, struct task_struct *p, int gen);

#endif
