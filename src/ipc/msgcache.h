/*
 * msgcache.h - where a message's cache lines are when it is read.
 *
 * A message written to a pipe or a socket sits in its writer's caches
 * until read. While it waits, the writers of the same core and LLC keep
 * writing other messages, and those push it out: first from the core's
 * private L2, then from the LLC to memory. The more messages in flight
 * (hackbench's groups, netperf's pairs), the farther the reader fetches
 * them from. A receive finds the message in dependent steps (the skb
 * through the queue, then its head through the skb: unix_stream_read_
 * generic() and consume_skb(); the pipe_buffer, then its page: fs/pipe.c
 * pipe_read(), v6.12): each step waits for its first line, and the other
 * lines of a step are fetched while it waits, cold_mlp at a time (the
 * overlap cold_penalty() gives a refill; docs/costs.md).
 *
 * Survival of a line after S bytes written behind it in a cache of C
 * bytes is taken as C / (C + S), the hyperbolic stand-in for LRU that
 * cold_penalty() uses [R]; L2 survival counts the bytes its core wrote
 * or pulled in, LLC survival the bytes the LLC's cores wrote. Prices:
 * a line still in the writer's L2 comes at the c2c latency between
 * writer and reader, one in the LLC at the LLC's transfer latency (or
 * the writer-reader latency if farther), one in memory at the farthest
 * transfer's, as cold_penalty() prices evicted lines (docs/costs.md).
 * A machine without cache sizes (l2_bytes or llc_bytes 0) keeps every
 * line in that level.
 */
#ifndef WS_MSGCACHE_H
#define WS_MSGCACHE_H

#include "kern/sim.h"

/* A message's writer and the bytes its core and LLC had written by then. */
struct msg_stamp {
	int cpu;		/* the writer's CPU, -1: none (free of cost) */
	u64 core_at, llc_at;	/* bytes, sim->msg_core_bytes / msg_llc_bytes */
};

/*
 * The code on sim->this_cpu writes a message of footprint `bytes` (the
 * bytes of cache lines it fills): stamp s and count them in its core's
 * and LLC's totals.
 */
void msg_written(struct sim *sim, struct msg_stamp *s, u64 bytes);

/*
 * ns for sim->this_cpu to read `lines` cache lines of the message stamped
 * s, found in `steps` dependent steps, by where each line is likely to be
 * now (see above): (steps + (lines - steps) / cold_mlp) times a line's
 * expected latency. Charged to the CPU and counted in met.coherence_ns. A
 * reader on another core pulls the lines into its own L2, and they count
 * there. 0 if s has no writer.
 */
u64 msg_read(struct sim *sim, const struct msg_stamp *s, u64 steps, u64 lines);

/* The price above without charging or counting anything (ns). */
u64 msg_read_ns(const struct sim *sim, const struct msg_stamp *s, u64 steps, u64 lines);

#endif
