/*
 * linecache.h - where lines a core touched are when they are read again.
 *
 * Each core's L2 and each LLC count the bytes that have been put through
 * them: messages written or pulled in (ipc/msgcache.h) and the working
 * sets of the tasks that ran there (cold_penalty(), kern/exec.c). Lines
 * stamped with both counts when touched are pushed out by the bytes put
 * through behind them. With S bytes behind them in the core's L2 of A
 * bytes and T in the LLC of B bytes, a line is still in the L2 with
 * probability fl fw, only in the LLC with fl (1 - fw), in memory with
 * 1 - fl, fw = A / (A + S), fl = B / (B + T) [R: a hyperbolic stand-in
 * for LRU eviction; a line that leaves the LLC leaves the L2 too, as in
 * an inclusive LLC; docs/costs.md]. A machine without cache sizes
 * (l2_bytes or llc_bytes 0) keeps every line in that level.
 */
#ifndef WS_LINECACHE_H
#define WS_LINECACHE_H

#include "kern/sim.h"

/*
 * cpu touches `bytes` of lines: count them in its core's and LLC's
 * totals, then stamp s (so s does not count its own lines behind it).
 * cpu < 0 stamps s as touched by no CPU.
 */
void lines_touched(struct sim *sim, int cpu, struct line_stamp *s, u64 bytes);

/*
 * ns for CPU `reader` to read `lines` lines stamped s, found in `steps`
 * dependent steps, cold_mlp misses in flight: each step's first line
 * waits a line's expected latency in full, the others 1 / cold_mlp of
 * it. A line still in the L2 of s->cpu costs the c2c latency between
 * s->cpu and reader, or nothing on the same core when own_core_free (a
 * working set, whose hits context_switch_ns includes); one only in the
 * LLC llc_hit_ns, or that c2c latency if they do not share the LLC; one
 * in memory c2c_ns.remote. 0 if s or reader has no CPU or lines is 0.
 */
u64 lines_read_ns(const struct sim *sim, const struct line_stamp *s, int reader, bool own_core_free,
		  u64 steps, u64 lines);

#endif
