/*
 * msgcache.c - the cache level a message's lines are read from
 * (msgcache.h says the model and its sources).
 */
#include "msgcache.h"

void msg_written(struct sim *sim, struct line_stamp *s, u64 bytes)
{
	lines_touched(sim, sim->this_cpu, s, bytes);
}

u64 msg_read_ns(const struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines)
{
	return lines_read_ns(sim, s, sim->this_cpu, false, steps, lines);
}

u64 msg_read(struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines)
{
	u64 ns = msg_rfo(sim, s, steps, lines);
	int r = sim->this_cpu;

	if (s->cpu < 0 || r < 0)
		return ns;
	const struct cpu_topo *tr = &sim->m->topo.cpu[r], *tw = &sim->m->topo.cpu[s->cpu];

	if (tr->core != tw->core)
		sim->core_bytes_in[tr->core] += lines * 64;
	if (tr->llc != tw->llc)
		sim->llc_bytes_in[tr->llc] += lines * 64;
	return ns;
}

u64 msg_rfo(struct sim *sim, const struct line_stamp *s, u64 steps, u64 lines)
{
	u64 ns = msg_read_ns(sim, s, steps, lines);

	sim->met.coherence_ns += ns;
	charge(sim, ns);
	return ns;
}
