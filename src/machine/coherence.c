/*
 * coherence.c - the cache-line model of coherence.h.
 */
#include "coherence.h"

void cacheline_init(struct cacheline *l)
{
	l->owner = -1;
	l->nr_holders = 0;
	l->dirty = false;
	l->busy_from = l->busy_until = 0;
	cpumask_clear(&l->holders);
	l->wlo = 1;
	l->whi = 0;
}

static void add_holder(struct cacheline *l, int cpu)
{
	unsigned short w = (unsigned short)(cpu >> 6);

	cpumask_set_cpu(cpu, &l->holders);
	if (l->wlo > l->whi) {
		l->wlo = l->whi = w;
	} else {
		if (w < l->wlo)
			l->wlo = w;
		if (w > l->whi)
			l->whi = w;
	}
}

/* Where a missing CPU gets the line from: the last writer, else a holder. */
static u64 fetch_cost(const struct machine *m, const struct cacheline *l, int cpu)
{
	int src = l->owner;

	if (src < 0 || src == cpu) {
		int h = cpumask_first(&l->holders);

		if (h == cpu)
			h = cpumask_next(h, &l->holders);
		src = h < nr_cpu_ids ? h : -1;
	}
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
static u64 busy_wait(const struct cacheline *l, u64 now)
{
	return now >= l->busy_from && now < l->busy_until ? l->busy_until - now : 0;
}

/*
 * A miss that occupies the line: it queues from its request (now) behind
 * the transfer in flight, then holds the line for its own.
 */
static u64 serialized(struct cacheline *l, u64 transfer, u64 now)
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
	if (cpumask_test_cpu(cpu, &l->holders))
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
	for (unsigned w = l->wlo; w <= l->whi; w++)
		l->holders.bits[w] = 0;
	l->wlo = 1;
	l->whi = 0;
	add_holder(l, cpu);
	l->nr_holders = 1;
	l->owner = cpu;
	l->dirty = true;
	return ns;
}
