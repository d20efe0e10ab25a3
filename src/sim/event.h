/*
 * event.h - the engine's one event queue.
 *
 * A binary min-heap of events ordered by (time, seq): time in integer
 * nanoseconds of simulated time, seq a counter taken at each (re)schedule so
 * that events due at the same nanosecond fire in the order they were
 * scheduled, on every machine. Events are embedded in the objects that own
 * them (a CPU's run/tick events, a task's pending wake-up), so scheduling
 * never allocates, and an owner can move or cancel its event in O(log n).
 */
#ifndef WS_EVENT_H
#define WS_EVENT_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t u64;

struct event {
	u64 time;	/* ns of simulated time when it fires */
	u64 seq;	/* tie-breaker, from evq.next_seq */
	int heap_idx;	/* position in the heap, -1 when not queued */
	int type;	/* dispatch key, owned by the user of the queue */
	int arg;	/* small payload, e.g. a CPU number */
	void *ptr;	/* payload, e.g. the owning task */
};

/* Heap slots carry the keys, so sifting never touches the events. */
struct evq_slot {
	u64 time, seq;
	struct event *ev;
};

struct evq {
	struct evq_slot *heap;
	int nr, cap;
	u64 next_seq;
};

/* An event not queued yet; type/arg/ptr set by the owner. */
void event_init(struct event *ev, int type, int arg, void *ptr);
static inline bool event_queued(const struct event *ev)
{
	return ev->heap_idx >= 0;
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
static inline struct event *evq_peek(const struct evq *q)
{
	return q->nr ? q->heap[0].ev : 0;
}

#endif
