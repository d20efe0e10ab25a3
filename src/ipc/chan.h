/*
 * chan.h - a one-way byte channel over a pipe, an AF_UNIX stream socket, a
 * loopback TCP connection or a UDP socket, so a workload is written once
 * for all (hackbench's -p, netperf's TCP_RR and UDP_RR). TCP and UDP have
 * their own costs (docs/costs.md); loopback delivery runs in the sender's
 * softirq and wakes the receiver with WF_SYNC (sock_def_readable()), as a
 * Unix socket does.
 */
#ifndef WS_CHAN_H
#define WS_CHAN_H

#include "pipe.h"
#include "unix.h"

enum chan_kind { CHAN_PIPE, CHAN_UNIX, CHAN_TCP, CHAN_UDP };

/* TCP's autotuned send buffer can reach tcp_wmem[2] = 4 MiB. */
#define TCP_SNDBUF (4 << 20)

struct chan {
	enum chan_kind kind;
	struct pipe pipe;
	struct unix_stream us;
	struct wait_queue_head *poller;	/* select()/epoll() waiters, or NULL */
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
/*
 * close(2) of the writing end: readers drain what is queued, then read 0
 * bytes (EOF, chan_eof()); sleeping readers are woken.
 */
void chan_close(struct sim *sim, struct chan *c);
/* True when data is queued (a read would not block). */
bool chan_readable(const struct chan *c);
/* True when a read would return EOF now. */
bool chan_eof(const struct chan *c);
/*
 * Also wake the readiness waiters of wq (a select()/epoll() caller
 * watching several channels) whenever data arrives on c.
 */
void chan_set_poller(struct chan *c, struct wait_queue_head *wq);

#endif
