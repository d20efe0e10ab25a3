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

struct rr_conn;
/* Server work that may block (a lock); returns true while it must sleep. */
typedef bool (*rr_server_hook)(struct sim *sim, struct rr_conn *c, struct task_struct *p);

struct rr_conn {
	struct chan c2s, s2c;
	u64 req_len, resp_len;		/* bytes of the current transaction */
	u64 server_work_ns;		/* CPU work between request and response */
	u64 hdr_len;			/* >0: the server reads this much first, in
					 * its own read(2) (tbench_srv's length word) */
	unsigned long long served;	/* responses fully sent */
	struct launcher *l;		/* notified when the server exits */
	rr_server_hook hook;		/* optional, run before server_work_ns */
	void (*unhook)(struct sim *sim, struct rr_conn *c, struct task_struct *p);
	void *hook_data;
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

#endif
