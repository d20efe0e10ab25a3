/*
 * unix.h - one direction of an AF_UNIX stream socket pair, after
 * net/unix/af_unix.c and net/core/sock.c (v6.12): every send() is one skb
 * queued to the peer and one sk_data_ready() (a WF_SYNC wake-up of readers);
 * skbs are charged to the sender's sk_wmem_alloc by their truesize, and a
 * sender blocks when that reaches sk_sndbuf (212992 bytes by default) and
 * is woken, with every other blocked sender, when it falls to a quarter
 * (unix_writable()). A receive copies across queued skbs. The same queue
 * serves loopback TCP (a stream with a larger send buffer) and UDP (a
 * receive returns one datagram, the rest of it dropped: MSG_TRUNC).
 */
#ifndef WS_UNIX_H
#define WS_UNIX_H

#include "msgcache.h"
#include "wait.h"

#define UNIX_SNDBUF_DEFAULT 212992	/* sysctl_wmem_default on x86-64 */

struct unix_skb {
	u64 len, consumed, truesize;
	struct line_stamp at;		/* its writer and when (msgcache.h) */
};

struct unix_stream {
	struct unix_skb *q;		/* ring of queued skbs */
	int qhead, qcount, qcap;
	u64 wmem_alloc;			/* sender's sk_wmem_alloc, starts at 1 */
	u64 sndbuf;
	struct wait_queue_head rx_wait;	/* the receiver's sk_sleep */
	struct wait_queue_head tx_wait;	/* the sender's sk_sleep */
	struct cacheline line;		/* receive queue lock and wmem counter */
	struct line_stamp free_at;	/* the last skb freed by the receiver */
	/*
	 * Loopback TCP: the sender's skbs are not the receiver's frees. Its
	 * data sits in page frags, and from v5.19 tcp_eat_recv_skb() hands
	 * each skb back to the CPU that allocated it (skb_attempt_defer_free()).
	 */
	bool sender_frees;
	bool datagram;			/* a receive returns at most one skb (UDP) */
	/*
	 * Loopback TCP/UDP: the part of a send's cost that ran as the
	 * receive side in the sender's NET_RX softirq, ns (0: AF_UNIX).
	 */
	u64 rx_softirq_ns;
	bool closed;			/* the sender shut down: EOF once drained */
};

void unix_stream_init(struct unix_stream *us);
void unix_stream_free(struct unix_stream *us);
/* skb->truesize of a linear skb holding len bytes (x86-64 slab sizes). */
u64 unix_skb_truesize(u64 len);
/*
 * Cache lines of an skb carrying len bytes that its receive reads (and
 * its sender wrote): the struct sk_buff, the first line of its shared
 * info and the data.
 */
u64 unix_skb_lines(u64 len);
/* unix_stream_sendmsg(): like pipe_write(); *blocked: wait for wmem. */
u64 unix_send(struct sim *sim, struct unix_stream *us, struct task_struct *p, u64 len,
	      bool *blocked);
/* unix_stream_recvmsg(): like pipe_read(); *blocked: the queue is empty. */
u64 unix_recv(struct sim *sim, struct unix_stream *us, struct task_struct *p, u64 want,
	      bool *blocked);

#endif
