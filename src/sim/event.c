/*
 * event.c - indexed binary heap keyed by (time, seq).
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
		q->heap[i]->heap_idx = -1;
	free(q->heap);
	q->heap = 0;
	q->nr = q->cap = 0;
}

static inline bool before(const struct event *a, const struct event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct evq *q, int i, struct event *ev)
{
	q->heap[i] = ev;
	ev->heap_idx = i;
}

static void sift_up(struct evq *q, int i)
{
	struct event *ev = q->heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(ev, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, ev);
}

static void sift_down(struct evq *q, int i)
{
	struct event *ev = q->heap[i];

	for (;;) {
		int l = 2 * i + 1, best = i;
		struct event *b = ev;

		if (l < q->nr && before(q->heap[l], b)) {
			best = l;
			b = q->heap[l];
		}
		if (l + 1 < q->nr && before(q->heap[l + 1], b)) {
			best = l + 1;
			b = q->heap[l + 1];
		}
		if (best == i)
			break;
		place(q, i, b);
		i = best;
	}
	place(q, i, ev);
}

void evq_schedule(struct evq *q, struct event *ev, u64 time)
{
	ev->time = time;
	ev->seq = q->next_seq++;
	if (ev->heap_idx >= 0) {
		/* Moved: it may need to go either way. */
		sift_up(q, ev->heap_idx);
		sift_down(q, ev->heap_idx);
		return;
	}
	if (q->nr == q->cap) {
		int ncap = q->cap * 2;
		struct event **h = realloc(q->heap, sizeof(*h) * (size_t)ncap);

		if (!h)
			abort(); /* out of memory in the engine: nothing sane to do */
		q->heap = h;
		q->cap = ncap;
	}
	place(q, q->nr++, ev);
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
	struct event *moved = q->heap[q->nr];

	place(q, i, moved);
	sift_up(q, i);
	sift_down(q, moved->heap_idx);
}

struct event *evq_pop(struct evq *q)
{
	if (!q->nr)
		return 0;
	struct event *top = q->heap[0];

	top->heap_idx = -1;
	q->nr--;
	if (q->nr) {
		place(q, 0, q->heap[q->nr]);
		sift_down(q, 0);
	}
	return top;
}
