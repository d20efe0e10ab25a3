/*
 * event.c - indexed binary heap keyed by (time, seq). Keys live in the
 * heap array itself: comparisons stay within one contiguous array, and an
 * event is only written to record its new position. (time, seq) is a
 * total order, so the pop order does not depend on the heap's shape.
 */
#include "event.h"

#include <stdlib.h>

void event_init(struct event *ev, int type, int arg, void *ptr)
{
	ev->time = 0;
	ev->seq = 0;
	ev->heap_idx = -1;
	ev->type = type;
	ev->arg = arg;
	ev->ptr = ptr;
}

int evq_init(struct evq *q)
{
	q->cap = 256;
	q->nr = 0;
	q->next_seq = 0;
	q->heap = malloc(sizeof(*q->heap) * (size_t)q->cap);
	return q->heap ? 0 : -1;
}

void evq_free(struct evq *q)
{
	for (int i = 0; i < q->nr; i++)
		q->heap[i].ev->heap_idx = -1;
	free(q->heap);
	q->heap = 0;
	q->nr = q->cap = 0;
}

static inline int before(const struct evq_slot *a, const struct evq_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct evq *q, int i, struct evq_slot s)
{
	q->heap[i] = s;
	s.ev->heap_idx = i;
}

static void sift_up(struct evq *q, int i)
{
	struct evq_slot s = q->heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(&s, &q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, s);
}

static void sift_down(struct evq *q, int i)
{
	struct evq_slot s = q->heap[i];
	int n = q->nr;

	for (;;) {
		int l = 2 * i + 1, best = l;

		if (l >= n)
			break;
		if (l + 1 < n && before(&q->heap[l + 1], &q->heap[l]))
			best = l + 1;
		if (!before(&q->heap[best], &s))
			break;
		place(q, i, q->heap[best]);
		i = best;
	}
	place(q, i, s);
}

void evq_schedule(struct evq *q, struct event *ev, u64 time)
{
	ev->time = time;
	ev->seq = q->next_seq++;
	if (ev->heap_idx >= 0) {
		int i = ev->heap_idx;
		struct evq_slot *s = &q->heap[i];
		int later = time >= s->time;

		s->time = time;
		s->seq = ev->seq;
		/* A moved event only goes one way: later sinks, earlier rises. */
		if (later)
			sift_down(q, i);
		else
			sift_up(q, i);
		return;
	}
	if (q->nr == q->cap) {
		int ncap = q->cap * 2;
		struct evq_slot *h = realloc(q->heap, sizeof(*h) * (size_t)ncap);

		if (!h)
			abort(); /* out of memory in the engine: nothing sane to do */
		q->heap = h;
		q->cap = ncap;
	}
	q->heap[q->nr] = (struct evq_slot){ time, ev->seq, ev };
	ev->heap_idx = q->nr++;
	sift_up(q, q->nr - 1);
}

void evq_cancel(struct evq *q, struct event *ev)
{
	int i = ev->heap_idx;

	if (i < 0)
		return;
	ev->heap_idx = -1;
	q->nr--;
	if (i == q->nr)
		return;
	struct evq_slot moved = q->heap[q->nr];

	place(q, i, moved);
	sift_up(q, i);
	sift_down(q, moved.ev->heap_idx);
}

struct event *evq_pop(struct evq *q)
{
	if (!q->nr)
		return 0;
	struct event *top = q->heap[0].ev;

	top->heap_idx = -1;
	q->nr--;
	if (q->nr) {
		place(q, 0, q->heap[q->nr]);
		sift_down(q, 0);
	}
	return top;
}
