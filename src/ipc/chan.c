/*
 * chan.c - dispatch of channel operations to pipes or unix sockets.
 */
#include "chan.h"

void chan_init(struct chan *c, enum chan_kind kind)
{
	c->kind = kind;
	pipe_init(&c->pipe);
	unix_stream_init(&c->us);
	if (kind == CHAN_TCP)
		c->us.sndbuf = TCP_SNDBUF;
	c->us.sender_frees = kind == CHAN_TCP;
	c->us.datagram = kind == CHAN_UDP;
	c->poller = NULL;
}

void chan_free(struct chan *c)
{
	unix_stream_free(&c->us);
}

/* A write's or read's whole cost on this channel, ns. */
static u64 write_whole(const struct sim *sim, const struct chan *c)
{
	const struct costs *k = &sim->m->costs;

	switch (c->kind) {
	case CHAN_PIPE:
		return k->pipe_write_ns;
	case CHAN_UNIX:
		return k->unix_send_ns;
	case CHAN_TCP:
		return k->tcp_send_ns;
	case CHAN_UDP:
		return k->udp_send_ns;
	}
	return 0;
}

static u64 read_whole(const struct sim *sim, const struct chan *c)
{
	const struct costs *k = &sim->m->costs;

	switch (c->kind) {
	case CHAN_PIPE:
		return k->pipe_read_ns;
	case CHAN_UNIX:
		return k->unix_recv_ns;
	case CHAN_TCP:
		return k->tcp_recv_ns;
	case CHAN_UDP:
		return k->udp_recv_ns;
	}
	return 0;
}

/*
 * What a write does after its wake-ups, ns, of a write costing w. A pipe
 * or AF_UNIX write wakes the reader once the data is queued and the lock
 * dropped, and then leaves the call (fs/pipe.c, net/unix/af_unix.c,
 * v6.12): its way out. A loopback send wakes the receiver from inside
 * the NET_RX softirq its transmit runs at local_bh_enable()
 * (sock_def_readable() from tcp_data_ready() or
 * __udp_enqueue_schedule_skb()), and has the softirq's rest, the return
 * through the transmit and tcp_sendmsg()'s release_sock() still to do:
 * tcp_send_tail_ns or udp_send_tail_ns, at most what the way out leaves.
 */
static u64 write_after(const struct sim *sim, const struct chan *c, u64 w)
{
	const struct costs *k = &sim->m->costs;
	u64 edge = costs_syscall_edge(k, w);
	u64 tail = c->kind == CHAN_TCP ? k->tcp_send_tail_ns
		 : c->kind == CHAN_UDP ? k->udp_send_tail_ns : 0;

	return edge + (tail < w - edge ? tail : w - edge);
}

/* The step before the op: the write but its part after the wake-ups. */
u64 chan_write_cost(const struct sim *sim, const struct chan *c)
{
	u64 w = write_whole(sim, c);

	return w - write_after(sim, c, w);
}

/*
 * A read that finds nothing has only come in, taken the lock and looked
 * before it sleeps; after its wake-up it takes the data, copies it and
 * returns (pipe_read()'s wait_event_interruptible_exclusive() in its loop,
 * unix_stream_read_generic()'s unix_stream_data_wait(), tcp_recvmsg()'s
 * sk_wait_data(), v6.12). So the step before the op is the way in; the op
 * charges the rest once it has data (or end of file), slept or not.
 */
u64 chan_read_cost(const struct sim *sim, const struct chan *c)
{
	return costs_syscall_edge(&sim->m->costs, read_whole(sim, c));
}

void chan_read_rest(struct sim *sim, const struct chan *c)
{
	u64 r = read_whole(sim, c);

	charge(sim, r - costs_syscall_edge(&sim->m->costs, r));
}

/*
 * Loopback TCP/UDP: the part of p's send that ran as the receive side in
 * its NET_RX softirq (ns; 0 for pipes and AF_UNIX), at most the whole send
 * and drawn with the send step's jitter.
 */
static u64 rx_softirq_ns(const struct sim *sim, const struct chan *c, const struct task_struct *p)
{
	const struct costs *k = &sim->m->costs;
	u64 rx, send;

	if (c->kind == CHAN_TCP) {
		rx = k->tcp_rx_softirq_ns;
		send = k->tcp_send_ns;
	} else if (c->kind == CHAN_UDP) {
		rx = k->udp_rx_softirq_ns;
		send = k->udp_send_ns;
	} else {
		return 0;
	}
	/*
	 * The receive side runs before the send's way out: in the step before
	 * the op, drawn with its jitter, and past it in the part after the
	 * wake-up, which is charged as it is.
	 */
	u64 step = send - write_after(sim, c, send);

	send -= costs_syscall_edge(&sim->m->costs, send);
	if (rx > send)
		rx = send;
	u64 in_step = rx < step ? rx : step;

	if (in_step && p->step_nominal_ns == step)
		rx = rx - in_step + (u64)((unsigned __int128)in_step * p->step_drawn_ns / step);
	return rx;
}

u64 chan_write(struct sim *sim, struct chan *c, struct task_struct *p, u64 len, bool slept,
	       bool *blocked)
{
	c->us.rx_softirq_ns = rx_softirq_ns(sim, c, p);
	u64 n = c->kind == CHAN_PIPE ? pipe_write(sim, &c->pipe, p, len, slept, blocked)
				     : unix_send(sim, &c->us, p, len, blocked);

	/* ep_poll_callback()/pollwake(): readiness reaches the watcher, sync. */
	if (n && c->poller && waitqueue_active(c->poller)) {
		u64 k0 = sim->kcost_ns;

		wake_up(sim, c->poller, 1, WF_SYNC);
		/* A loopback socket's readiness is signalled from its softirq. */
		if (c->us.rx_softirq_ns)
			account_softirq(sim, sim->this_cpu, sim->kcost_ns - k0);
	}
	if (!*blocked)
		charge(sim, write_after(sim, c, write_whole(sim, c)));
	return n;
}

u64 chan_read_on(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
		 bool *blocked)
{
	if (c->kind == CHAN_PIPE)
		return pipe_read(sim, &c->pipe, p, want, slept, blocked);
	return unix_recv(sim, &c->us, p, want, blocked);
}

u64 chan_read(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
	      bool *blocked)
{
	u64 n = chan_read_on(sim, c, p, want, slept, blocked);

	if (!*blocked)
		chan_read_rest(sim, c);
	return n;
}

bool chan_poll_in(struct sim *sim, struct chan *c, struct task_struct *p)
{
	(void)sim;
	if (c->kind == CHAN_PIPE) {
		/* pipe_poll() marks the pipe: writers now always wake readers. */
		c->pipe.poll_usage = true;
		if (c->pipe.head != c->pipe.tail)
			return true;
		prepare_to_wait(sim, &c->pipe.rd_wait, p, false);
		return false;
	}
	if (c->us.qcount)
		return true;
	prepare_to_wait(sim, &c->us.rx_wait, p, false);
	return false;
}

void chan_poll_done(struct chan *c, struct task_struct *p)
{
	finish_wait(c->kind == CHAN_PIPE ? &c->pipe.rd_wait : &c->us.rx_wait, p);
}

void chan_close(struct sim *sim, struct chan *c)
{
	if (c->kind == CHAN_PIPE) {
		c->pipe.closed = true;
		wake_up(sim, &c->pipe.rd_wait, 1 << 30, 0);
	} else {
		c->us.closed = true;
		wake_up(sim, &c->us.rx_wait, 1 << 30, 0);
	}
	if (c->poller && waitqueue_active(c->poller))
		wake_up(sim, c->poller, 1, 0);
}

bool chan_readable(const struct chan *c)
{
	return c->kind == CHAN_PIPE ? c->pipe.head != c->pipe.tail : c->us.qcount > 0;
}

bool chan_eof(const struct chan *c)
{
	if (c->kind == CHAN_PIPE)
		return c->pipe.closed && c->pipe.head == c->pipe.tail;
	return c->us.closed && !c->us.qcount;
}

void chan_set_poller(struct chan *c, struct wait_queue_head *wq)
{
	c->poller = wq;
}
