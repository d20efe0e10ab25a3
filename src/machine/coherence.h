/*
 * coherence.h - scheduler state that CPUs share, kept in modelled cache
 * lines so that reading another CPU's state costs what it costs on the
 * machine.
 *
 * A line remembers its last writer and the CPUs holding a copy. A read by a
 * holder is a hit; otherwise the line comes from the last writer (or a
 * holder) at the c2c latency of their relation. A write by the sole holder
 * is a hit; otherwise it fetches the line and invalidates the others. This
 * is MESI without the protocol corner cases: enough for a heuristic's cost
 * to follow from what it reads (DESIGN.md principle 2).
 *
 * Contention: transfers of one line are serialized (the line's home
 * directory handles one request at a time). A write miss, or the first
 * read of a freshly written line, occupies the line for its transfer; a
 * miss arriving while the line is busy waits for it first. Reads of a line
 * already shared proceed in parallel. So a line that many CPUs read while
 * one keeps writing costs more the more CPUs take part, and one asked for
 * more transfers per second than it can make holds its requesters in a
 * queue that grows until they slow down. Known limit: no capacity
 * evictions.
 */
#ifndef WS_COHERENCE_H
#define WS_COHERENCE_H

#include "machine.h"

/*
 * The holders' bits: inline for machines of up to 1024 CPUs (what a line
 * weighed before the limit rose to 8192), else nr_cpu_ids bits from an
 * arena shared by the simulations alive, allocated at the first holder,
 * so an object with a line stays small and its hot fields together.
 */
#define CACHELINE_INLINE_WORDS 16

/*
 * A contended line's transfers, booked in time: LINE_CAL_BUCKETS buckets
 * of LINE_CAL_NS ns each, the newest being bucket number head. Requests
 * arrive out of time order (a CPU runs ahead by the kernel work charged
 * to it), and the calendar books each one into the first free time at or
 * after its request, so that the line never makes more than one transfer
 * at a time however the requests are ordered, and a queue forms when more
 * are asked for than it can make. Each bucket keeps the span booked in it
 * ([lo, hi) ns from its start; hi 0: none), so the time before and after
 * a span is free. Bucket b lives in slot b % LINE_CAL_BUCKETS; the slots
 * of the buckets that enter the window as head moves up are cleared
 * then, so two bytes a slot say it all (a quarter of a slot tagged with
 * its turn of the ring). From the arena, at the first overlap.
 */
#define LINE_CAL_BUCKETS 128
#define LINE_CAL_NS 128
struct line_cal_slot {
	uint8_t lo, hi;
};
struct line_calendar {
	u64 head;				/* the newest bucket's number (time / LINE_CAL_NS) */
	struct line_cal_slot slot[LINE_CAL_BUCKETS];
};

struct cacheline {
	int owner;		/* last writer CPU, -1 if none yet */
	int nr_holders;		/* how many CPUs hold a copy */
	bool dirty;		/* written since it was last read remotely */
	/*
	 * The words of the holders' bits that may be set (wlo > whi: none),
	 * so that a write clears those and not every word of a big machine.
	 */
	unsigned short wlo, whi;
	u64 busy_from, busy_until; /* ns: the transfer in flight, while no queue formed */
	/* Once transfers overlap or arrive out of order: when they are booked. */
	struct line_calendar *cal;
	uint64_t *big;		/* over 1024 CPUs: the holders' bits, or NULL before any */
	uint64_t small[CACHELINE_INLINE_WORDS];	/* up to 1024 CPUs: the holders' bits */
};

/* A line nobody has touched: the first access costs a memory fetch. */
void cacheline_init(struct cacheline *l);

/*
 * Cost in ns for cpu to read l at time now (ns): the wait for a transfer
 * in flight plus its own (latency, charged by the caller). cpu -1 (code run
 * from the workload's clock, on no CPU) costs and changes nothing.
 */
u64 cacheline_read(const struct machine *m, struct cacheline *l, int cpu, u64 now);

/* Cost in ns for cpu to write l at now; it becomes the only holder (cpu -1: 0). */
u64 cacheline_write(const struct machine *m, struct cacheline *l, int cpu, u64 now);

/*
 * The arena of big machines' holder bits and of contended lines'
 * calendars lives while a simulation does:
 * sim_init() takes a reference, sim_free() drops it, and the last drop
 * frees the arena (every line then belongs to a freed simulation).
 */
void cacheline_arena_get(void);
void cacheline_arena_put(void);

#endif
