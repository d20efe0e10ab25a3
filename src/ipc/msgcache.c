/*
 * msgcache.c - the cache level a message's lines are read from
 * (msgcache.h says the model and its sources).
 */
#include "msgcache.h"

void msg_written(struct sim *sim, struct msg_stamp *s, u64 bytes)
{
	int cpu = sim->this_cpu;

	s->cpu = cpu;
	if (cpu < 0)
		return;
	const struct cpu_topo *t = &sim->m->topo.cpu[cpu];

	sim->msg_core_bytes[t->core] += bytes;
	sim->msg_llc_bytes[t->llc] += bytes;
	s->core_at = sim->msg_core_bytes[t->core];
	s->llc_at = sim->msg_llc_bytes[t->llc];
}

u64 msg_read_ns(const struct sim *sim, const struct msg_stamp *s, u64 steps, u64 lines)
{
	const struct machine *m = sim->m;
	int r = sim->this_cpu;

	if (s->cpu < 0 || r < 0 || !lines)
		return 0;
	u64 mlp = m->costs.cold_mlp ? m->costs.cold_mlp : 1;

	if (steps > lines)
		steps = lines;
	const struct cpu_topo *t = &m->topo.cpu[s->cpu];
	enum c2c_class cls = machine_c2c_class(m, s->cpu, r);
	u64 c_warm = m->costs.c2c_ns[cls];
	u64 c_llc = m->costs.c2c_ns[cls > C2C_LLC ? cls : C2C_LLC];
	u64 c_mem = m->costs.c2c_ns[C2C_REMOTE];
	/* A = L2, S = written behind in it; B = LLC, T = written behind in it. */
	unsigned __int128 A = m->l2_bytes, S = sim->msg_core_bytes[t->core] - s->core_at;
	unsigned __int128 B = m->llc_bytes, T = sim->msg_llc_bytes[t->llc] - s->llc_at;

	if (!A) {
		A = 1;
		S = 0;
	}
	if (!B) {
		B = 1;
		T = 0;
	}
	/*
	 * A line's expected latency is fl (fw c_warm + (1 - fw) c_llc) +
	 * (1 - fl) c_mem with fw = A / (A + S), fl = B / (B + T), over one
	 * denominator; a step's first line waits it in full, the other lines
	 * 1 / mlp of it: steps + (lines - steps) / mlp latencies.
	 */
	unsigned __int128 num = B * (A * c_warm + S * c_llc) + T * (A + S) * c_mem;
	unsigned __int128 den = (A + S) * (B + T);

	return (u64)(num * (steps * mlp + lines - steps) / (den * mlp));
}

u64 msg_read(struct sim *sim, const struct msg_stamp *s, u64 steps, u64 lines)
{
	u64 ns = msg_read_ns(sim, s, steps, lines);
	int r = sim->this_cpu;

	if (s->cpu < 0 || r < 0)
		return 0;
	const struct cpu_topo *tr = &sim->m->topo.cpu[r], *tw = &sim->m->topo.cpu[s->cpu];

	if (tr->core != tw->core)
		sim->msg_core_bytes[tr->core] += lines * 64;
	if (tr->llc != tw->llc)
		sim->msg_llc_bytes[tr->llc] += lines * 64;
	sim->met.coherence_ns += ns;
	charge(sim, ns);
	return ns;
}
