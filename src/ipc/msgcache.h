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
 * A write prices the lines it stores into the same way, from the stamp
 * of their last writer: the pipe_buffer, the line a merged pipe write
 * starts in, an skb's lines as its receiver's free left them (pipe.c,
 * unix.c; docs/costs.md, "The writer's lines").
 *
 * Where a line is by then is kern/linecache.h's model: the bytes put
 * through the writer's core and LLC behind it (other messages, and the
 * working sets of the tasks that ran there) push it out. A line still in
 * the writer's L2 comes at the c2c latency between writer and reader,
 * one in the LLC at an LLC hit's (llc_hit_ns; the writer-reader latency
 * if they do not share the LLC), one in memory at the farthest
 * transfer's (docs/costs.md).
 */
#ifndef WS_MSGCACHE_H
#define WS_MSGCACHE_H

#include "kern/linecache.h"

/*
 * The code on sim->this_cpu writes a message of footprint `bytes` (the
 * bytes of cache lines it fills): stamp s and count them in its core's
 * and LLC's totals.
 */
void msg_written(struct sim *sim, struct line_stamp *s, u64 bytes);

/*
 * ns for sim->this_cpu to read `lines` cache lines of the message stamped
 * s, found in `steps` dependent steps, by where each line is likely to be
 * now (see above): (steps + (lines - steps) / cold_mlp) times a line's
 * expected latency. Charged to the CPU and counted in met.coherence_ns. A
 * reader on another core pulls the lines into its own L2, and they count
 * there. 0 if s has no writer.
 */
u64 msg_read(struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines);

/*
 * A write's fetch for ownership of `lines` lines stamped s (ns), priced
 * and charged as msg_read() does, the lines not counted in the writer's
 * core: the msg_written() of the write that stores into them counts them.
 */
u64 msg_rfo(struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines);
/* The price above without charging or counting anything (ns). */
u64 msg_read_ns(const struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines);

#endif
