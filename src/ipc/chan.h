/*
 * chan.h - a one-way byte channel over a pipe or an AF_UNIX stream socket
 * pair, so a workload can be written once for both (hackbench's -p).
 */
#ifndef WS_CHAN_H
#define WS_CHAN_H

#include "pipe.h"
#include "unix.h"

enum chan_kind { CHAN_PIPE, CHAN_UNIX };

struct chan {
	enum chan_kind kind;
	struct pipe pipe;
	struct unix_stream us;
};

void chan_init(struct chan *c, enum chan_kind kind);
void chan_free(struct chan *c);
/* Base CPU cost (ns) of one write(2)/read(2) syscall on this channel. */
u64 chan_write_cost(const struct sim *sim, const struct chan *c);
u64 chan_read_cost(const struct sim *sim, const struct chan *c);
u64 chan_write(struct sim *sim, struct chan *c, struct task_struct *p, u64 len, bool slept,
	       bool *blocked);
u64 chan_read(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
	      bool *blocked);
/*
 * poll(POLLIN) without consuming: true if readable; else p is queued (non
 * exclusively, as poll's wait entries are) and must sleep.
 */
bool chan_poll_in(struct sim *sim, struct chan *c, struct task_struct *p);
/* A poller woke or gives up: leave the wait queue. */
void chan_poll_done(struct chan *c, struct task_struct *p);

#endif
