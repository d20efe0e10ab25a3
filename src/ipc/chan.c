/*
 * chan.c - dispatch of channel operations to pipes or unix sockets.
 */
#include "chan.h"

void chan_init(struct chan *c, enum chan_kind kind)
{
	c->kind = kind;
	pipe_init(&c->pipe);
	unix_stream_init(&c->us);
}

void chan_free(struct chan *c)
{
	unix_stream_free(&c->us);
}

u64 chan_write_cost(const struct sim *sim, const struct chan *c)
{
	return c->kind == CHAN_PIPE ? sim->m->costs.pipe_write_ns : sim->m->costs.unix_send_ns;
}

u64 chan_read_cost(const struct sim *sim, const struct chan *c)
{
	return c->kind == CHAN_PIPE ? sim->m->costs.pipe_read_ns : sim->m->costs.unix_recv_ns;
}

u64 chan_write(struct sim *sim, struct chan *c, struct task_struct *p, u64 len, bool slept,
	       bool *blocked)
{
	if (c->kind == CHAN_PIPE)
		return pipe_write(sim, &c->pipe, p, len, slept, blocked);
	return unix_send(sim, &c->us, p, len, blocked);
}

u64 chan_read(struct sim *sim, struct chan *c, struct task_struct *p, u64 want, bool slept,
	      bool *blocked)
{
	if (c->kind == CHAN_PIPE)
		return pipe_read(sim, &c->pipe, p, want, slept, blocked);
	return unix_recv(sim, &c->us, p, want, blocked);
}

bool chan_poll_in(struct sim *sim, struct chan *c, struct task_struct *p)
{
	(void)sim;
	if (c->kind == CHAN_PIPE) {
		/* pipe_poll() marks the pipe: writers now always wake readers. */
		c->pipe.poll_usage = true;
		if (c->pipe.head != c->pipe.tail)
			return true;
		prepare_to_wait(&c->pipe.rd_wait, p, false);
		return false;
	}
	if (c->us.qcount)
		return true;
	prepare_to_wait(&c->us.rx_wait, p, false);
	return false;
}

void chan_poll_done(struct chan *c, struct task_struct *p)
{
	finish_wait(c->kind == CHAN_PIPE ? &c->pipe.rd_wait : &c->us.rx_wait, p);
}
