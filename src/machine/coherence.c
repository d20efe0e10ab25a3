/*
 * coherence.c - the cache-line model of coherence.h.
 */
#include "coherence.h"

void cacheline_init(struct cacheline *l)
{
	l->owner = -1;
	l->nr_holders = 0;
	cpumask_clear(&l->holders);
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

u64 cacheline_read(const struct machine *m, struct cacheline *l, int cpu)
{
	if (cpu < 0)
		return 0; /* the workload's own clock, outside every CPU */
	if (cpumask_test_cpu(cpu, &l->holders))
		return m->costs.c2c_ns[C2C_LOCAL];
	u64 ns = fetch_cost(m, l, cpu);

	cpumask_set_cpu(cpu, &l->holders);
	l->nr_holders++;
	return ns;
}

u64 cacheline_write(const struct machine *m, struct cacheline *l, int cpu)
{
	u64 ns;

	if (cpu < 0)
		return 0; /* the workload's own clock, outside every CPU */
	if (l->owner == cpu && l->nr_holders == 1)
		return m->costs.c2c_ns[C2C_LOCAL];
	/* Fetch from the owner, or invalidate the readers of our own line. */
	ns = fetch_cost(m, l, cpu);
	cpumask_clear(&l->holders);
	cpumask_set_cpu(cpu, &l->holders);
	l->nr_holders = 1;
	l->owner = cpu;
	return ns;
}
