/*
 * cost_keys.c - a machine's costs by name, and their ranges
 * (docs/costs.md, "Ranges").
 */
#include "cost_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const c2c_class_names[C2C_NR + 1] = { "local", "smt", "cluster", "llc", "node",
						  "package", "remote", NULL };

int cost_key_count(const struct machine *m)
{
	return COST_KEY_IDLE0 + m->nr_idle_states;
}

void cost_key_name(const struct machine *m, int k, char *buf, size_t len)
{
	if (k < C2C_NR)
		snprintf(buf, len, "c2c_ns.%s", c2c_class_names[k]);
	else if (k < COST_KEY_SMT_SPEED)
		snprintf(buf, len, "%s", cost_ns_fields[k - C2C_NR].name);
	else if (k == COST_KEY_SMT_SPEED)
		snprintf(buf, len, "smt_speed_pct");
	else if (k == COST_KEY_COLD_MLP)
		snprintf(buf, len, "cold_mlp");
	else
		snprintf(buf, len, "idle_states.%s.exit_latency_us", m->idle[k - COST_KEY_IDLE0].name);
}

int cost_key_find(const struct machine *m, const char *name)
{
	char buf[64];

	for (int k = 0; k < cost_key_count(m); k++) {
		cost_key_name(m, k, buf, sizeof(buf));
		if (!strcmp(buf, name))
			return k;
	}
	return -1;
}

const char *cost_key_unit(int k)
{
	if (k == COST_KEY_SMT_SPEED)
		return "%";
	if (k == COST_KEY_COLD_MLP)
		return "";
	return k >= COST_KEY_IDLE0 ? "us" : "ns";
}

static u64 *ns_field(struct costs *c, int k)
{
	return (u64 *)((char *)c + cost_ns_fields[k - C2C_NR].off);
}

double cost_key_value(const struct machine *m, int k)
{
	if (k < C2C_NR)
		return (double)m->costs.c2c_ns[k];
	if (k < COST_KEY_SMT_SPEED)
		return (double)*ns_field((struct costs *)&m->costs, k);
	if (k == COST_KEY_SMT_SPEED)
		return m->costs.smt_speed_pct;
	if (k == COST_KEY_COLD_MLP)
		return m->costs.cold_mlp;
	return (double)m->idle[k - COST_KEY_IDLE0].exit_latency_ns / 1000;
}

double cost_key_max(int k)
{
	if (k < C2C_NR)
		return (double)COST_C2C_MAX;
	if (k < COST_KEY_SMT_SPEED)
		return (double)COST_NS_MAX;
	if (k == COST_KEY_SMT_SPEED)
		return (double)COST_SMT_SPEED_MAX;
	if (k == COST_KEY_COLD_MLP)
		return (double)COST_COLD_MLP_MAX;
	return (double)COST_EXIT_US_MAX;
}

double cost_key_min(int k)
{
	return k == COST_KEY_SMT_SPEED || k == COST_KEY_COLD_MLP ? 1 : 0;
}

void cost_key_set(struct machine *m, int k, double v)
{
	if (v < cost_key_min(k))
		v = cost_key_min(k);
	if (v > cost_key_max(k))
		v = cost_key_max(k);
	if (k < C2C_NR) {
		m->costs.c2c_ns[k] = (u64)llround(v);
	} else if (k < COST_KEY_SMT_SPEED) {
		*ns_field(&m->costs, k) = (u64)llround(v);
	} else if (k == COST_KEY_SMT_SPEED) {
		m->costs.smt_speed_pct = (unsigned)lround(v);
	} else if (k == COST_KEY_COLD_MLP) {
		m->costs.cold_mlp = (unsigned)lround(v);
	} else {
		struct idle_state *st = &m->idle[k - COST_KEY_IDLE0];
		u64 lat = (u64)llround(v * 1000);

		if (st->exit_latency_ns)
			st->target_residency_ns = (u64)llround((double)st->target_residency_ns *
							       (double)lat / (double)st->exit_latency_ns);
		if (st->target_residency_ns < lat)
			st->target_residency_ns = lat;
		st->exit_latency_ns = lat;
	}
}

void cost_key_range(const struct machine *m, int k, struct cost_range *out)
{
	const struct cost_range *r = &m->range[k];
	double v = cost_key_value(m, k);

	if (r->set) {
		*out = *r;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->min = v / 2;
	out->max = v * 2;
	/* Whole units: a value of 1 (an L1 hit, one miss in flight) stays. */
	if (k < COST_KEY_IDLE0) {
		out->min = ceil(out->min);
		out->max = floor(out->max);
	}
	if (out->min < cost_key_min(k))
		out->min = cost_key_min(k);
	if (out->max > cost_key_max(k))
		out->max = cost_key_max(k);
	if (k == COST_KEY_SMT_SPEED && v >= 100)
		out->min = out->max = v;	/* no SMT sharing: nothing to vary */
	snprintf(out->source, sizeof(out->source),
		 "default: the value halved to doubled (no range given; docs/costs.md, Ranges)");
}

void cost_keys_order_idle(struct machine *m)
{
	for (int i = 1; i < m->nr_idle_states; i++) {
		struct idle_state *p = &m->idle[i - 1], *s = &m->idle[i];

		if (s->exit_latency_ns < p->exit_latency_ns)
			s->exit_latency_ns = p->exit_latency_ns;
		if (s->target_residency_ns < p->target_residency_ns)
			s->target_residency_ns = p->target_residency_ns;
		if (s->target_residency_ns < s->exit_latency_ns)
			s->target_residency_ns = s->exit_latency_ns;
	}
	/* A host's poll ends a halt sooner than the state's exit, never later,
	 * and a send into it costs no more than one the host must act on. */
	for (int i = 0; i < m->nr_idle_states; i++) {
		if (m->idle[i].halt_poll_exit_ns > m->idle[i].exit_latency_ns)
			m->idle[i].halt_poll_exit_ns = m->idle[i].exit_latency_ns;
		if (m->idle[i].halt_poll_ipi_send_ns > m->costs.ipi_send_ns)
			m->idle[i].halt_poll_ipi_send_ns = m->costs.ipi_send_ns;
	}
	costs_fit_irq(&m->costs);
}

void costs_fit_irq(struct costs *k)
{
	if (!k->irq_interval_ns)
		return;
	if (k->irq_interval_ns < IRQ_INTERVAL_MIN_NS)
		k->irq_interval_ns = IRQ_INTERVAL_MIN_NS;
	if (k->irq_interval_ns > COST_NS_MAX)
		k->irq_interval_ns = COST_NS_MAX;
	if (2 * k->irq_ns >= k->irq_interval_ns)
		k->irq_ns = (k->irq_interval_ns - 1) / 2;
}
