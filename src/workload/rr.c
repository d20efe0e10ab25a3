/*
 * rr.c - the server side of a request/response connection.
 */
#include "rr.h"

enum { S_RECV_SYSCALL, S_RECV_DO, S_HOOK, S_WORK, S_SEND_SYSCALL, S_SEND_DO };

void rr_conn_init(struct rr_conn *c, enum chan_kind kind, struct launcher *l)
{
	*c = (struct rr_conn){ .l = l };
	chan_init(&c->c2s, kind);
	chan_init(&c->s2c, kind);
}

void rr_conn_free(struct rr_conn *c)
{
	chan_free(&c->c2s);
	chan_free(&c->s2c);
}

void rr_server_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct rr_conn *c = p->prog;

	for (;;) {
		if (launcher_child_killed(sim, c->l, p, out))
			return;
		switch (c->state) {
		case S_RECV_SYSCALL:
			step_kernel(out, chan_read_cost(sim, &c->c2s));
			c->state = S_RECV_DO;
			return;
		case S_RECV_DO: {
			/* A request's size is known once its first bytes are queued:
			 * read it at each attempt, not before sleeping. */
			u64 left = c->req_len - c->got, n;
			u64 want = !c->got && c->hdr_len && c->hdr_len < left ? c->hdr_len : left;

			if (rr_read_some(sim, &c->c2s, p, want, &n, &c->slept, out) == RR_IO_BLOCK)
				return;
			if (!n && chan_eof(&c->c2s)) {
				/* The client closed the connection: the server exits. */
				chan_close(sim, &c->s2c);
				p->killed = true;
				continue;
			}
			c->got += n;
			c->state = c->got < c->req_len ? S_RECV_SYSCALL : S_HOOK;
			if (c->state == S_HOOK)
				c->got = 0;
			continue;
		}
		case S_HOOK:
			c->state = S_WORK;
			if (c->server_work_ns) {
				out->kind = STEP_RUN;
				out->work_ns = c->server_work_ns;
				out->kernel = false;
				return;
			}
			continue;
		case S_WORK:
			c->remain = c->resp_len;
			c->state = S_SEND_SYSCALL;
			continue;
		case S_SEND_SYSCALL:
			step_kernel(out, chan_write_cost(sim, &c->s2c));
			c->state = S_SEND_DO;
			return;
		case S_SEND_DO:
			switch (rr_write_rest(sim, &c->s2c, p, &c->remain, &c->slept, out)) {
			case RR_IO_BLOCK:
				return;
			case RR_IO_SYSCALL:
				c->state = S_SEND_SYSCALL;
				continue;
			case RR_IO_DONE:
				break;
			}
			c->served++;
			c->state = S_RECV_SYSCALL;
			continue;
		}
	}
}

enum rr_io rr_write_rest(struct sim *sim, struct chan *c, struct task_struct *p, u64 *remain,
			 bool *slept, struct step *out)
{
	bool blocked;

	*remain -= chan_write(sim, c, p, *remain, *slept, &blocked);
	if (blocked) {
		*slept = true;
		out->kind = STEP_BLOCK;
		return RR_IO_BLOCK;
	}
	*slept = false;
	return *remain ? RR_IO_SYSCALL : RR_IO_DONE;
}

static enum rr_io rr_read(struct sim *sim, struct chan *c, struct task_struct *p, u64 want,
			  u64 *n, bool *slept, struct step *out, bool rest)
{
	bool blocked;

	*n = rest ? chan_read(sim, c, p, want, *slept, &blocked)
		  : chan_read_on(sim, c, p, want, *slept, &blocked);
	if (blocked) {
		*slept = true;
		out->kind = STEP_BLOCK;
		return RR_IO_BLOCK;
	}
	*slept = false;
	return RR_IO_DONE;
}

enum rr_io rr_read_some(struct sim *sim, struct chan *c, struct task_struct *p, u64 want,
			u64 *n, bool *slept, struct step *out)
{
	return rr_read(sim, c, p, want, n, slept, out, true);
}

enum rr_io rr_read_on(struct sim *sim, struct chan *c, struct task_struct *p, u64 want,
		      u64 *n, bool *slept, struct step *out)
{
	return rr_read(sim, c, p, want, n, slept, out, false);
}
