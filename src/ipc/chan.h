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
/*
 * The step before a write(2)/read(2) on this channel, ns: a write's cost
 * but its way out (syscall_entry_ns) and, on loopback TCP or UDP, the
 * send's part after its wake-up (tcp_send_tail_ns, udp_send_tail_ns); a
 * read's way in. chan_write() and chan_read() charge the rest once they
 * complete (not while they block): the write's after its wake-ups, the
 * read's data and way out after its own wake-up, so a read that slept
 * pays most of its cost on the far side of the sleep, as the kernel's
 * does.
 */
u64 chan_write_cost(const struct sim *sim, const struct chan *c);
u64 chan_read_cost(const struct sim *sim, const struct chan *c);
/*
 * Charge the rest of a read's cost past its way in (what chan_read()
 * charges when it completes): for a poll(2) whose step was
 * chan_read_cost(), once it finds the channel readable.
 */
void chan_read_rest(struct sim *sim, const struct chan *c);
u64 chan_write(struct sim *sim, struct chan *c, struct task_struct *p, u64 len, bool slept,
	       bool *blocked);
u64 chan_read(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
	      bool *blocked);
/*
 * chan_read() without the rest: for a call that reads on until it has all
 * (recv(MSG_WAITALL)), whose caller charges chan_read_rest() once, when
 * the call returns.
 */
u64 chan_read_on(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
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
