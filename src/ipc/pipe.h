/*
 * pipe.h - anonymous pipes as fs/pipe.c runs them (v5.5-v6.13, and v6.14's
 * "pipe_read: don't wake up the writer if the pipe is still full" on the
 * mainline profile): a ring of 16 page buffers; a write of at most a page
 * goes whole into the last buffer if it fits there, else into a free slot,
 * and blocks only when neither exists (so 40 writes of 100 bytes share a
 * page and 640 fill the pipe); a writer woken for a slot takes a new page
 * whatever room the last one has. Readers are woken only when the pipe was
 * empty (or has been polled). Writers are woken by a read that began on a
 * full pipe (v5.5-v6.13: even when it freed no slot, so the woken writer
 * finds the pipe full and sleeps again), or from v6.14 only by a read that
 * freed a slot of a full pipe. All wake-ups are WF_SYNC and one waiter at a
 * time (exclusive waits), a woken writer or reader passing the wake-up on.
 * pipe->mutex is held over the copy and released before the wake-ups,
 * which hold the wait queue's lock over the woken task's whole
 * try_to_wake_up(); up to v6.6 the mutex's holder also takes rd_wait.lock
 * to move head or tail, so it waits for a wake-up in flight on rd_wait.
 */
#ifndef WS_PIPE_H
#define WS_PIPE_H

#include "msgcache.h"
#include "wait.h"

#define PIPE_DEF_BUFFERS 16
#define PIPE_PAGE_SIZE 4096

struct pipe {
	unsigned int off[PIPE_DEF_BUFFERS];	/* read offset in each slot's page */
	unsigned int end[PIPE_DEF_BUFFERS];	/* write end in each slot's page */
	unsigned int head, tail;		/* slot counters, head - tail = in use */
	u64 bytes;				/* buffered bytes */
	bool poll_usage;			/* someone poll()ed: wake readers on every write */
	struct wait_queue_head rd_wait, wr_wait;
	struct cacheline line;			/* pipe->mutex, rd_wait, head, tail */
	struct lock_section mutex;		/* pipe->mutex's hold (kern/spinlock.h) */
	struct line_stamp at[PIPE_DEF_BUFFERS];	/* each slot's last write (msgcache.h) */
	struct line_stamp buf_at[PIPE_DEF_BUFFERS];	/* each slot's struct pipe_buffer line */
	bool closed;				/* the writers are gone: EOF once drained */
};

void pipe_init(struct pipe *pp);

/*
 * pipe_write() for task p on sim->this_cpu: write up to len bytes. Returns
 * the bytes written now; if *blocked is set, p is queued on wr_wait and
 * must sleep, then call again with the rest and slept = true. Costs
 * (locking, copying, waking) are charged to sim->kcost_ns.
 */
u64 pipe_write(struct sim *sim, struct pipe *pp, struct task_struct *p, u64 len, bool slept,
	       bool *blocked);
/*
 * pipe_read(): read up to want bytes; 0 with *blocked set means the pipe
 * was empty and p is queued on rd_wait.
 */
u64 pipe_read(struct sim *sim, struct pipe *pp, struct task_struct *p, u64 want, bool slept,
	      bool *blocked);

#endif
