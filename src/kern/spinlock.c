/*
 * spinlock.c - lock sections (spinlock.h).
 */
#include "kernel.h"
#include "spinlock.h"

static u64 context_time(const struct sim *sim)
{
	return sim->now + sim->kcost_ns;
}

u64 lock_section_spin(struct sim *sim, const struct lock_section *l)
{
	int cpu = sim->this_cpu;
	u64 t = context_time(sim), wait;

	if (cpu < 0 || l->owner < 0 || l->owner == cpu || t < l->from || t >= l->until)
		return 0;
	wait = l->until - t;
	charge(sim, wait);
	return wait;
}

void lock_section_take(struct sim *sim, struct lock_section *l)
{
	if (sim->this_cpu < 0)
		return;
	l->owner = sim->this_cpu;
	l->from = l->until = context_time(sim);
}

u64 lock_section_acquire(struct sim *sim, struct lock_section *l, struct cacheline *line)
{
	u64 wait = lock_section_spin(sim, l);

	if (line)
		line_write(sim, line);
	lock_section_take(sim, l);
	return wait;
}

void lock_section_release(struct sim *sim, struct lock_section *l, u64 hold_ns)
{
	if (sim->this_cpu < 0 || l->owner != sim->this_cpu)
		return;
	l->until = context_time(sim) + hold_ns;
}
