/*
 * rr.h - one request/response connection (netperf's data connection, a
 * tbench_srv child's socket, a PostgreSQL backend's client socket) and the
 * server side of it: receive a whole request, do the server's work, send
 * the whole response, until the client closes (EOF), then exit. One
 * transaction is outstanding at a time, so the client states the sizes and
 * the server's work of the next transaction in the connection before it
 * sends the request.
 */
#ifndef WS_RR_H
#define WS_RR_H

#include "launcher.h"

struct rr_conn {
	struct chan c2s, s2c;
	u64 req_len, resp_len;		/* bytes of the current transaction */
	u64 server_work_ns;		/* CPU work between request and response */
	u64 hdr_len;			/* >0: the server reads this much first, in
					 * its own read(2) (tbench_srv's length word) */
	unsigned long long served;	/* responses fully sent */
	struct launcher *l;		/* notified when the server exits */
	/* server program state */
	int state;
	bool slept;
	u64 got;			/* bytes of the current request read */
	u64 remain;			/* bytes of the response still to send */
};

/* A connection over kind (CHAN_TCP, CHAN_UDP, CHAN_UNIX). */
void rr_conn_init(struct rr_conn *c, enum chan_kind kind, struct launcher *l);
void rr_conn_free(struct rr_conn *c);
/* The server's program (prog = the rr_conn). */
void rr_server_step(struct sim *sim, struct task_struct *p, struct step *out);

/* What one attempt at moving a message's bytes left to do. */
enum rr_io { RR_IO_DONE, RR_IO_SYSCALL, RR_IO_BLOCK };

/*
 * write(2) of the *remain bytes left of a message: RR_IO_DONE when all
 * are queued, RR_IO_SYSCALL when a new write() is needed for the rest,
 * RR_IO_BLOCK when p must sleep for buffer space (out is set). *slept
 * carries "this attempt follows a wake-up" between attempts.
 */
enum rr_io rr_write_rest(struct sim *sim, struct chan *c, struct task_struct *p, u64 *remain,
			 bool *slept, struct step *out);
/*
 * read(2) of up to want bytes into *got: RR_IO_BLOCK when nothing is queued
 * (p sleeps; out is set), else RR_IO_DONE with *n read (0 at end of file).
 */
enum rr_io rr_read_some(struct sim *sim, struct chan *c, struct task_struct *p, u64 want,
			u64 *n, bool *slept, struct step *out);
/*
 * rr_read_some() without the read's rest (chan_read_on()): a part of a
 * recv(MSG_WAITALL), whose caller charges chan_read_rest() once, when the
 * call has all it waits for.
 */
enum rr_io rr_read_on(struct sim *sim, struct chan *c, struct task_struct *p, u64 want,
		      u64 *n, bool *slept, struct step *out);

#endif
