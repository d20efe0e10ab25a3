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

/*
 * The wait for a transfer in flight at now. A transfer decided earlier in
 * simulation order may lie in now's future (its CPU had already run ahead
 * by the kernel work it was charged): an access before its start does not
 * wait for it.
 */
static inline __attribute__((always_inline)) u64 busy_wait(const struct cacheline *l, u64 now)
{
	return now >= l->busy_from && now < l->busy_until ? l->busy_until - now : 0;
}

/*
 * A miss that occupies the line: it queues from its request (now) behind
 * the transfer in flight, then holds the line for its own.
 */
static inline __attribute__((always_inline)) u64 serialized(struct cacheline *l, u64 transfer, u64 now)
{
	u64 start = now + busy_wait(l, now);

	if (!(now >= l->busy_from && now < l->busy_until))
		l->busy_from = now;
	l->busy_until = start + transfer;
	return start - now + transfer;
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
