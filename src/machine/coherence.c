/*
 * coherence.c - the cache-line model of coherence.h.
 */
#include "coherence.h"

#include <stdlib.h>
#include <string.h>

/* The arena: chunks of words, bump-allocated, freed all at once. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;	/* words */
	uint64_t words[];
};

static struct arena_chunk *arena;
static int arena_users;

void cacheline_arena_get(void)
{
	arena_users++;
}

void cacheline_arena_put(void)
{
	if (arena_users > 0 && --arena_users == 0)
		while (arena) {
			struct arena_chunk *c = arena;

			arena = c->next;
			free(c);
		}
}

/* n zeroed words; aborts when memory is out (a line cannot fail to hold). */
static uint64_t *arena_words(size_t n)
{
	if (!arena || arena->cap - arena->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		struct arena_chunk *c = calloc(1, sizeof(*c) + cap * sizeof(uint64_t));

		if (!c)
			abort();
		c->cap = cap;
		c->next = arena;
		arena = c;
	}
	uint64_t *w = arena->words + arena->used;

	arena->used += n;
	return w;
}

/* Over 1024 CPUs: the line's bits in the arena, allocated at first use. */
static __attribute__((noinline)) uint64_t *big_words(struct cacheline *l)
{
	if (!l->big)
		l->big = arena_words((size_t)cpumask_nr_words());
	return l->big;
}

static inline __attribute__((always_inline)) uint64_t *holder_words(struct cacheline *l)
{
	return nr_cpu_ids <= CACHELINE_INLINE_WORDS * 64 ? l->small : big_words(l);
}

void cacheline_init(struct cacheline *l)
{
	l->owner = -1;
	l->nr_holders = 0;
	l->dirty = false;
	l->busy_from = l->busy_until = 0;
	l->cal = NULL;
	l->big = NULL;
	memset(l->small, 0, sizeof(l->small));
	l->wlo = 1;
	l->whi = 0;
}

static inline __attribute__((always_inline)) bool is_holder(struct cacheline *l, int cpu)
{
	if (l->wlo > l->whi)
		return false;
	return (holder_words(l)[cpu >> 6] >> (cpu & 63)) & 1;
}

static inline __attribute__((always_inline)) void add_holder(struct cacheline *l, int cpu)
{
	unsigned short w = (unsigned short)(cpu >> 6);

	holder_words(l)[w] |= UINT64_C(1) << (cpu & 63);
	if (l->wlo > l->whi) {
		l->wlo = l->whi = w;
	} else {
		if (w < l->wlo)
			l->wlo = w;
		if (w > l->whi)
			l->whi = w;
	}
}

/* The lowest holder other than cpu, or -1. */
static inline __attribute__((always_inline)) int other_holder(struct cacheline *l, int cpu)
{
	if (l->wlo > l->whi)
		return -1;
	const uint64_t *hw = holder_words(l);

	for (unsigned w = l->wlo; w <= l->whi; w++) {
		uint64_t bits = hw[w];

		if ((int)w == cpu >> 6)
			bits &= ~(UINT64_C(1) << (cpu & 63));
		if (bits) {
			int h = (int)(w << 6) + __builtin_ctzll(bits);

			return h < nr_cpu_ids ? h : -1;
		}
	}
	return -1;
}

/* Where a missing CPU gets the line from: the last writer, else a holder. */
static inline __attribute__((always_inline)) u64 fetch_cost(const struct machine *m, struct cacheline *l, int cpu)
{
	int src = l->owner;

	if (src < 0 || src == cpu)
		src = other_holder(l, cpu);
	if (src < 0) /* only memory has it: priced as the farthest transfer */
		return m->costs.c2c_ns[C2C_REMOTE];
	return machine_c2c_ns(m, src, cpu);
}

/* Bucket b's span, for b in the window (head - LINE_CAL_BUCKETS, head]. */
static inline __attribute__((always_inline)) struct line_cal_slot cal_get(const struct line_calendar *c, u64 b)
{
	return c->slot[b % LINE_CAL_BUCKETS];
}

static inline __attribute__((always_inline)) void cal_set(struct line_calendar *c, u64 b, unsigned lo, unsigned hi)
{
	c->slot[b % LINE_CAL_BUCKETS] = (struct line_cal_slot){ .lo = (uint8_t)lo, .hi = (uint8_t)hi };
}

/* Move head up to b: the buckets head+1..b enter the window empty. */
static inline __attribute__((always_inline)) void cal_advance(struct line_calendar *c, u64 b)
{
	if (b <= c->head)
		return;
	if (b - c->head >= LINE_CAL_BUCKETS) {
		memset(c->slot, 0, sizeof(c->slot));
	} else {
		/* Slots head+1 .. b of the ring: one run, or two where it wraps. */
		unsigned from = (unsigned)((c->head + 1) % LINE_CAL_BUCKETS);
		unsigned n = (unsigned)(b - c->head);
		unsigned first = from + n <= LINE_CAL_BUCKETS ? n : LINE_CAL_BUCKETS - from;

		memset(&c->slot[from], 0, first * sizeof(c->slot[0]));
		memset(c->slot, 0, (n - first) * sizeof(c->slot[0]));
	}
	c->head = b;
}

/* The line's calendar, started from its one transfer in flight. */
static __attribute__((noinline)) struct line_calendar *calendar(struct cacheline *l)
{
	_Static_assert(sizeof(struct line_calendar) % sizeof(uint64_t) == 0, "whole words");
	struct line_calendar *c = (struct line_calendar *)arena_words(sizeof(*c) / sizeof(uint64_t));

	/* Zeroed slots: every bucket of the window empty. */
	c->head = l->busy_from / LINE_CAL_NS;
	for (u64 t = l->busy_from; t < l->busy_until;) {
		u64 b = t / LINE_CAL_NS, end = (b + 1) * LINE_CAL_NS;
		u64 upto = end < l->busy_until ? end : l->busy_until;

		cal_advance(c, b);
		cal_set(c, b, (unsigned)(t - b * LINE_CAL_NS), (unsigned)(upto - b * LINE_CAL_NS));
		t = upto;
	}
	l->cal = c;
	return c;
}

/*
 * Book transfer ns at the first free time at or after now; returns when
 * it completes, in ns after now. Buckets past head are empty (head
 * moves up to them). A request older than the calendar is booked from
 * its oldest bucket on, as the time before is gone. If the line is
 * booked without a gap through the whole calendar, from its oldest
 * bucket's first ns to its newest booking, after which the request finds
 * room, the line has been saturated for the whole span, its queue is
 * taken to reach back past the calendar, and the request waits from when
 * it asked: a queue longer than the span costs its whole length. If the
 * calendar has idle time, the line was not queued through it, and the
 * request counts as one asked at its oldest bucket (a CPU that ran
 * behind the others, not a queue). A transfer that fits before a
 * bucket's span takes that time; else it starts after the span and
 * continues into the next buckets (after their spans, if it cannot end
 * before them).
 */
static u64 cal_book(struct line_calendar *c, u64 transfer, u64 now)
{
	u64 b = now / LINE_CAL_NS, asked = now;
	bool queued = false;	/* older than the calendar, no gap met yet */

	cal_advance(c, b);
	if (b + LINE_CAL_BUCKETS <= c->head) {
		b = c->head - LINE_CAL_BUCKETS + 1;
		now = b * LINE_CAL_NS;
		queued = true;
	}
	u64 off = now - b * LINE_CAL_NS, head = c->head;
	bool booked = false;	/* part of the transfer has its time */

	for (;; b++, off = 0) {
		cal_advance(c, b);
		struct line_cal_slot s = cal_get(c, b);
		u64 from;

		if (!s.hi || off + transfer <= s.lo) {
			/* An empty bucket, or room before its span: the span now starts here. */
			from = off;
			if (!s.hi || from + transfer > s.hi)
				s.hi = (uint8_t)(from + transfer < LINE_CAL_NS ? from + transfer : LINE_CAL_NS);
			s.lo = (uint8_t)from;
		} else {
			if (!booked && s.lo > off)
				queued = false;	/* idle before this bucket's span */
			from = off > s.hi ? off : s.hi;
			if (from >= LINE_CAL_NS)
				continue;
			s.hi = (uint8_t)(from + transfer < LINE_CAL_NS ? from + transfer : LINE_CAL_NS);
		}
		cal_set(c, b, s.lo, s.hi);
		u64 take = LINE_CAL_NS - from < transfer ? LINE_CAL_NS - from : transfer;

		/*
		 * Room before the newest booking (an empty bucket, or room
		 * before or after a span): the line idled in the window.
		 */
		if (!booked && b < head)
			queued = false;
		booked = true;
		transfer -= take;
		if (!transfer)
			return b * LINE_CAL_NS + from + take - (queued ? asked : now);
	}
}

/* The wait of a read of a shared line: for a transfer in flight at now. */
static inline __attribute__((always_inline)) u64 busy_wait(const struct cacheline *l, u64 now)
{
	if (l->cal) {
		const struct line_calendar *c = l->cal;
		u64 b = now / LINE_CAL_NS, off = now - b * LINE_CAL_NS;

		if (b > c->head || b + LINE_CAL_BUCKETS <= c->head)
			return 0;
		struct line_cal_slot s = cal_get(c, b);

		if (off < s.lo || off >= s.hi)
			return 0;
		/* A span that fills its bucket may go on in the next. */
		u64 until = b * LINE_CAL_NS + s.hi;

		while (s.hi == LINE_CAL_NS && ++b <= c->head) {
			s = cal_get(c, b);
			if (s.lo || !s.hi)
				break;
			until = b * LINE_CAL_NS + s.hi;
		}
		return until - now;
	}
	return now >= l->busy_from && now < l->busy_until ? l->busy_until - now : 0;
}

/*
 * A miss that occupies the line for transfer ns, requested at now: the
 * wait for the transfers booked before it, plus its own. While transfers
 * come one after another in time order, one interval in flight says it
 * all; the first that overlaps it or comes before it starts the calendar.
 */
static inline __attribute__((always_inline)) u64 serialized(struct cacheline *l, u64 transfer, u64 now)
{
	if (!l->cal) {
		if (now >= l->busy_until) {
			l->busy_from = now;
			l->busy_until = now + transfer;
			return transfer;
		}
		calendar(l);
	}
	return cal_book(l->cal, transfer, now);
}

u64 cacheline_read(const struct machine *m, struct cacheline *l, int cpu, u64 now)
{
	if (cpu < 0)
		return 0; /* the workload's own clock, outside every CPU */
	if (is_holder(l, cpu))
		return m->costs.c2c_ns[C2C_LOCAL];
	u64 ns = fetch_cost(m, l, cpu);

	if (l->dirty) {
		/* The writer's copy is downgraded: one transfer at a time. */
		ns = serialized(l, ns, now);
		l->dirty = false;
	} else {
		ns += busy_wait(l, now); /* reads of a shared line overlap */
	}
	add_holder(l, cpu);
	l->nr_holders++;
	return ns;
}

u64 cacheline_write(const struct machine *m, struct cacheline *l, int cpu, u64 now)
{
	u64 ns;

	if (cpu < 0)
		return 0; /* the workload's own clock, outside every CPU */
	if (l->owner == cpu && l->nr_holders == 1) {
		l->dirty = true;
		return m->costs.c2c_ns[C2C_LOCAL];
	}
	/* Fetch from the owner, or invalidate the readers of our own line. */
	ns = serialized(l, fetch_cost(m, l, cpu), now);
	if (l->wlo <= l->whi) {
		uint64_t *hw = holder_words(l);

		for (unsigned w = l->wlo; w <= l->whi; w++)
			hw[w] = 0;
	}
	l->wlo = 1;
	l->whi = 0;
	add_holder(l, cpu);
	l->nr_holders = 1;
	l->owner = cpu;
	l->dirty = true;
	return ns;
}
