/*
 * event.h - the engine's one event queue.
 *
 * Events are ordered by (time, seq): time in integer nanoseconds of
 * simulated time, seq a counter taken at each (re)schedule so that events
 * due at the same nanosecond fire in the order they were scheduled, on
 * every machine. Events are embedded in the objects that own them (a CPU's
 * run/tick events, a task's pending wake-up), so scheduling never
 * allocates, and an owner can move or cancel its event.
 *
 * Two structures hold them. Most events are due within microseconds (the
 * end of a CPU's current piece of work): those go to a ring of 8-ns
 * buckets covering the next EVQ_RING_SPAN_NS, a calendar queue, where
 * insertion and removal are O(1) and the earliest bucket is found in a
 * two-level bitmap. Later events (ticks, timers) go to a binary heap. Pop takes the
 * earlier of the two minima, so the order is the total order (time, seq)
 * whichever structure holds an event: the split is invisible in results.
 * It replaced a single heap whose sifting took 30% of S2's run time
 * (docs/performance.md).
 */
#ifndef WS_EVENT_H
#define WS_EVENT_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t u64;

#define EVQ_NOT_QUEUED (-1)
#define EVQ_IN_RING (-2)

struct event {
	u64 time;	/* ns of simulated time when it fires */
	u64 seq;	/* tie-breaker, from evq.next_seq */
	int heap_idx;	/* position in the heap, EVQ_IN_RING, or EVQ_NOT_QUEUED */
	int type;	/* dispatch key, owned by the user of the queue */
	int arg;	/* small payload, e.g. a CPU number */
	void *ptr;	/* payload, e.g. the owning task */
	struct event *rnext, *rprev;	/* bucket list, in (time, seq) order */
};

/*
 * Heap slots carry the keys, so sifting never touches the events. The key
 * is time and seq in one 128-bit integer (time in the high half): one
 * comparison without branches orders two slots.
 */
typedef unsigned __int128 evq_key;

struct evq_slot {
	evq_key key;
	struct event *ev;
};

/* 8-ns buckets: S2's 384 busy CPUs keep their next events within a few
 * microseconds, about two per bucket. */
#define EVQ_BUCKET_SHIFT 3
#define EVQ_RING_BITS 13	/* 8192 buckets */
#define EVQ_RING_SIZE (1 << EVQ_RING_BITS)
#define EVQ_RING_SPAN_NS ((u64)EVQ_RING_SIZE << EVQ_BUCKET_SHIFT)	/* 65.5 us */
#define EVQ_USED_WORDS (EVQ_RING_SIZE / 64)

struct evq {
	struct evq_slot *heap;	/* [cap + 1]: heap[nr] is a sentinel above every key */
	int nr, cap;
	u64 next_seq;
	/* The ring: every event in it lies in buckets ring_base .. ring_base
	 * + EVQ_RING_SIZE - 1 (bucket = time >> EVQ_BUCKET_SHIFT). */
	struct event **bucket;	/* [EVQ_RING_SIZE] list heads */
	u64 *used;		/* [EVQ_USED_WORDS]: non-empty buckets */
	u64 summary[EVQ_USED_WORDS / 64];	/* non-zero words of used */
	u64 ring_base;
	int ring_nr;
};

/* An event not queued yet; type/arg/ptr set by the owner. */
void event_init(struct event *ev, int type, int arg, void *ptr);
static inline bool event_queued(const struct event *ev)
{
	return ev->heap_idx != EVQ_NOT_QUEUED;
}

/* Returns 0, or -1 on allocation failure. */
int evq_init(struct evq *q);
void evq_free(struct evq *q);
/* Queue ev at time, or move it there if already queued (new seq). */
void evq_schedule(struct evq *q, struct event *ev, u64 time);
/* Remove ev if queued; no-op otherwise. */
void evq_cancel(struct evq *q, struct event *ev);
/* Earliest event, removed from the queue; NULL when empty. */
struct event *evq_pop(struct evq *q);
/* Events queued. */
static inline int evq_size(const struct evq *q)
{
	return q->nr + q->ring_nr;
}

#endif
