/*
 * spinlock.h - a lock as the model times it: who last held it and the
 * span (ns, on the holder's clock) of its critical section.
 *
 * The model runs each context to its end at once, its CPU ahead of
 * sim->now by the kernel work charged so far (sim->kcost_ns), so a lock
 * is a section [from, until) of the last holder's time. A context that
 * arrives inside another CPU's open section waits for its end: a queued
 * spinlock (kernel/locking/qspinlock.c) serves waiters in arrival order,
 * and a mutex whose owner is running spins on it (mutex_optimistic_spin(),
 * kernel/locking/mutex.c, v5.12 to v6.12), so either way the waiter's CPU
 * burns the wait and the next section starts where the last one ended.
 * Users: rq->__lock (kern/rqlock.c), pipe->mutex (ipc/pipe.c) and the
 * wait queues' locks (ipc/wait.c).
 */
#ifndef WS_SPINLOCK_H
#define WS_SPINLOCK_H

#include <stdint.h>

struct sim;
struct cacheline;

struct lock_section {
	int owner;		/* CPU of the last holder, -1 if never held */
	uint64_t from, until;	/* its critical section, ns of its clock */
};

static inline void lock_section_init(struct lock_section *l)
{
	l->owner = -1;
	l->from = l->until = 0;
}

/*
 * The wait alone: if another CPU's section on l is open at the running
 * context's time (sim->now + sim->kcost_ns), charge the wait until it
 * closes to sim->this_cpu and return it (ns); else 0. Nothing is taken,
 * and a context with no CPU never waits.
 */
uint64_t lock_section_spin(struct sim *sim, const struct lock_section *l);
/*
 * Take l once lock_section_spin() has returned: the running CPU owns it
 * and its section opens (and for now closes) at the context's time.
 * No-op without a CPU.
 */
void lock_section_take(struct sim *sim, struct lock_section *l);
/*
 * Spin on l (lock_section_spin()), then write its cache line (NULL: none
 * priced) and take it: a lock's acquisition as rq->__lock, pipe->mutex
 * and a wait queue's lock are taken. Returns the wait (ns).
 */
uint64_t lock_section_acquire(struct sim *sim, struct lock_section *l, struct cacheline *line);
/*
 * Release l: its section closes hold_ns (work done under the lock but
 * charged later, ns) after the context's time. Only the holder's release
 * counts.
 */
void lock_section_release(struct sim *sim, struct lock_section *l, uint64_t hold_ns);

#endif
