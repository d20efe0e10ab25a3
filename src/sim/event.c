/*
 * event.c - the event queue of event.h: a calendar ring for near events,
 * an indexed binary heap for the rest. Heap keys live in the heap array
 * itself, so comparisons stay within one contiguous array.
 */
#include "event.h"

#include <stdlib.h>

#define SENTINEL ((struct evq_slot){ ~(evq_key)0, 0 })
#define RING_MASK (EVQ_RING_SIZE - 1)
#define USED_WORDS EVQ_USED_WORDS
#define SUMMARY_WORDS (USED_WORDS / 64)

void event_init(struct event *ev, int type, int arg, void *ptr)
{
	ev->time = 0;
	ev->seq = 0;
	ev->heap_idx = EVQ_NOT_QUEUED;
	ev->type = type;
	ev->arg = arg;
	ev->ptr = ptr;
	ev->rnext = ev->rprev = 0;
}

int evq_init(struct evq *q)
{
	q->cap = 256;
	q->nr = 0;
	q->next_seq = 0;
	q->ring_base = 0;
	q->ring_nr = 0;
	for (int i = 0; i < SUMMARY_WORDS; i++)
		q->summary[i] = 0;
	q->heap = malloc(sizeof(*q->heap) * (size_t)(q->cap + 1));
	q->bucket = calloc(EVQ_RING_SIZE, sizeof(*q->bucket));
	q->used = calloc(USED_WORDS, sizeof(*q->used));
	if (!q->heap || !q->bucket || !q->used) {
		evq_free(q);
		return -1;
	}
	q->heap[0] = SENTINEL;
	return 0;
}

void evq_free(struct evq *q)
{
	for (int i = 0; q->heap && i < q->nr; i++)
		q->heap[i].ev->heap_idx = EVQ_NOT_QUEUED;
	for (int b = 0; q->bucket && b < EVQ_RING_SIZE; b++)
		for (struct event *e = q->bucket[b]; e; e = e->rnext)
			e->heap_idx = EVQ_NOT_QUEUED;
	free(q->heap);
	free(q->bucket);
	free(q->used);
	q->heap = 0;
	q->bucket = 0;
	q->used = 0;
	q->nr = q->cap = q->ring_nr = 0;
}

static inline evq_key key_of(u64 time, u64 seq)
{
	return (evq_key)time << 64 | seq;
}

/* ---- the heap ---- */

static inline int before(const struct evq_slot *a, const struct evq_slot *b)
{
	return a->key < b->key;
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
		int l = 2 * i + 1;

		if (l >= n)
			break;
		/* heap[n] is the sentinel: a missing right child never wins. */
		int best = l + before(&q->heap[l + 1], &q->heap[l]);

		if (!before(&q->heap[best], &s))
			break;
		place(q, i, q->heap[best]);
		i = best;
	}
	place(q, i, s);
}

static void heap_insert(struct evq *q, struct event *ev)
{
	if (q->nr == q->cap) {
		int ncap = q->cap * 2;
		struct evq_slot *h = realloc(q->heap, sizeof(*h) * (size_t)(ncap + 1));

		if (!h)
			abort(); /* out of memory in the engine: nothing sane to do */
		q->heap = h;
		q->cap = ncap;
	}
	q->heap[q->nr] = (struct evq_slot){ key_of(ev->time, ev->seq), ev };
	ev->heap_idx = q->nr++;
	q->heap[q->nr] = SENTINEL;
	sift_up(q, q->nr - 1);
}

static void heap_remove(struct evq *q, struct event *ev)
{
	int i = ev->heap_idx;

	ev->heap_idx = EVQ_NOT_QUEUED;
	q->nr--;
	struct evq_slot moved = q->heap[q->nr];

	q->heap[q->nr] = SENTINEL;
	if (i == q->nr)
		return;
	place(q, i, moved);
	sift_up(q, i);
	sift_down(q, moved.ev->heap_idx);
}

/* ---- the ring ---- */

static inline u64 bucket_of(u64 time)
{
	return time >> EVQ_BUCKET_SHIFT;
}

static bool fits_ring(const struct evq *q, u64 time)
{
	u64 b = bucket_of(time);

	return b >= q->ring_base && b - q->ring_base < EVQ_RING_SIZE;
}

static void ring_insert(struct evq *q, struct event *ev)
{
	unsigned int b = (unsigned int)(bucket_of(ev->time) & RING_MASK);
	struct event **link = &q->bucket[b], *prev = 0;

	/* ev has the newest seq: it goes after every event not later than it. */
	while (*link && (*link)->time <= ev->time) {
		prev = *link;
		link = &prev->rnext;
	}
	ev->rnext = *link;
	ev->rprev = prev;
	if (*link)
		(*link)->rprev = ev;
	*link = ev;
	ev->heap_idx = EVQ_IN_RING;
	q->used[b / 64] |= 1ULL << (b % 64);
	q->summary[b / 4096] |= 1ULL << (b / 64 % 64);
	q->ring_nr++;
}

static void ring_remove(struct evq *q, struct event *ev)
{
	unsigned int b = (unsigned int)(bucket_of(ev->time) & RING_MASK);

	if (ev->rprev)
		ev->rprev->rnext = ev->rnext;
	else
		q->bucket[b] = ev->rnext;
	if (ev->rnext)
		ev->rnext->rprev = ev->rprev;
	if (!q->bucket[b]) {
		q->used[b / 64] &= ~(1ULL << (b % 64));
		if (!q->used[b / 64])
			q->summary[b / 4096] &= ~(1ULL << (b / 64 % 64));
	}
	ev->rnext = ev->rprev = 0;
	ev->heap_idx = EVQ_NOT_QUEUED;
	q->ring_nr--;
}

/* The first non-zero word of used from word w on, wrapping; -1 if none. */
static int next_used_word(const struct evq *q, unsigned int w)
{
	for (unsigned int n = 0, sw = w / 64; n <= SUMMARY_WORDS; n++) {
		u64 bits = q->summary[sw];

		if (n == 0)
			bits &= ~0ULL << (w % 64);
		if (bits)
			return (int)(sw * 64 + (unsigned int)__builtin_ctzll(bits));
		sw = (sw + 1) % SUMMARY_WORDS;
	}
	return -1;
}

/*
 * The ring's earliest event: the first used bucket from ring_base on,
 * wrapping (every event lies within one ring's span of ring_base).
 */
static struct event *ring_first(const struct evq *q)
{
	unsigned int start = (unsigned int)(q->ring_base & RING_MASK);
	unsigned int w = start / 64;
	u64 bits = q->used[w] & (~0ULL << (start % 64));

	if (!bits) {
		int nw = next_used_word(q, (w + 1) % USED_WORDS);

		if (nw < 0)
			return 0;
		w = (unsigned int)nw;
		bits = q->used[w];
		/* Wrapped back to the start word: its low buckets are the latest. */
	}
	return q->bucket[w * 64 + (unsigned int)__builtin_ctzll(bits)];
}

/* ---- the queue ---- */

void evq_schedule(struct evq *q, struct event *ev, u64 time)
{
	evq_cancel(q, ev);
	ev->time = time;
	ev->seq = q->next_seq++;
	if (fits_ring(q, time))
		ring_insert(q, ev);
	else
		heap_insert(q, ev);
}

void evq_cancel(struct evq *q, struct event *ev)
{
	if (ev->heap_idx == EVQ_IN_RING)
		ring_remove(q, ev);
	else if (ev->heap_idx >= 0)
		heap_remove(q, ev);
}

struct event *evq_pop(struct evq *q)
{
	struct event *r = q->ring_nr ? ring_first(q) : 0;
	struct event *h = q->nr ? q->heap[0].ev : 0;
	struct event *top;

	if (r && h)
		top = key_of(r->time, r->seq) < q->heap[0].key ? r : h;
	else
		top = r ? r : h;
	if (!top)
		return 0;
	if (top == r)
		ring_remove(q, top);
	else
		heap_remove(q, top);
	/* Nothing queued is earlier than top: the ring may start at its bucket. */
	q->ring_base = bucket_of(top->time);
	return top;
}
