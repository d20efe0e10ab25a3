/*
 * linecache.c - the cache level a line is read from (linecache.h says
 * the model and its sources).
 */
#include "kern/linecache.h"

/* Bytes put through cpu's core and its LLC. */
static void lines_pulled(struct sim *sim, int cpu, u64 bytes)
{
	const struct cpu_topo *t = &sim->m->topo.cpu[cpu];

	sim->core_bytes_in[t->core] += bytes;
	sim->llc_bytes_in[t->llc] += bytes;
}

void lines_touched(struct sim *sim, int cpu, struct line_stamp *s, u64 bytes)
{
	s->cpu = cpu;
	if (cpu < 0)
		return;
	const struct cpu_topo *t = &sim->m->topo.cpu[cpu];

	lines_pulled(sim, cpu, bytes);
	s->core_at = sim->core_bytes_in[t->core];
	s->llc_at = sim->llc_bytes_in[t->llc];
}

u64 lines_read_ns(const struct sim *sim, const struct line_stamp *s, int reader, bool own_core_free,
		  u64 steps, u64 lines)
{
	const struct machine *m = sim->m;

	if (s->cpu < 0 || reader < 0 || !lines)
		return 0;
	u64 mlp = m->costs.cold_mlp ? m->costs.cold_mlp : 1;

	if (steps > lines)
		steps = lines;
	const struct cpu_topo *t = &m->topo.cpu[s->cpu];
	enum c2c_class cls = machine_c2c_class(m, s->cpu, reader);
	u64 warm_ns = own_core_free && cls <= C2C_SMT ? 0 : m->costs.c2c_ns[cls];
	u64 c_llc = cls > C2C_LLC ? m->costs.c2c_ns[cls] : m->costs.llc_hit_ns;
	u64 c_mem = m->costs.c2c_ns[C2C_REMOTE];
	/* A = L2, S = put through it since; B = LLC, T = put through it since. */
	unsigned __int128 A = m->l2_bytes, S = sim->core_bytes_in[t->core] - s->core_at;
	unsigned __int128 B = m->llc_bytes, T = sim->llc_bytes_in[t->llc] - s->llc_at;

	if (!A) {
		A = 1;
		S = 0;
	}
	if (!B) {
		B = 1;
		T = 0;
	}
	/*
	 * A line's expected latency is fl (fw warm + (1 - fw) c_llc) +
	 * (1 - fl) c_mem over one denominator; steps + (lines - steps) / mlp
	 * of them.
	 */
	unsigned __int128 num = B * (A * warm_ns + S * c_llc) + T * (A + S) * c_mem;
	unsigned __int128 den = (A + S) * (B + T);

	return (u64)(num * (steps * mlp + lines - steps) / (den * mlp));
}
