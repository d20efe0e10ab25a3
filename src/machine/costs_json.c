/*
 * costs_json.c - cost profiles (costs/NAME.json, built in, or a file):
 * costs/default.json first, then the profile a machine names, then
 * --cost-profile, which replaces all but the defaults; and the idle states
 * and costs fields every one of them, and a machine file, may give.
 */
#include "costs_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost_keys.h"
#include "presets_data.h"
#include "util/jsondoc.h"
#include "util/textfile.h"

static int parse_idle_states(const struct json_in *c, json_object *a, struct machine *m)
{
	static const char *const known[] = { "name", "exit_latency_us", "target_residency_us",
					     "polling", "mwait", "halt_poll_us", "halt_poll_exit_latency_us",
					     "halt_poll_ipi_send_ns", "halt_poll_max_us", NULL };

	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) < 1 ||
	    json_object_array_length(a) > WS_MAX_IDLE_STATES) {
		char what[96];

		snprintf(what, sizeof(what), "expected an array of 1..%d states", WS_MAX_IDLE_STATES);
		return jfail(c, "idle_states", what);
	}
	m->nr_idle_states = (int)json_object_array_length(a);
	for (int i = 0; i < m->nr_idle_states; i++) {
		json_object *s = json_object_array_get_idx(a, (size_t)i);
		struct idle_state *st = &m->idle[i];
		char prefix[32];
		u64 lat = 0, res = 0, hp = 0, hp_lat = 0, hp_send = 0, hp_max = 0;

		snprintf(prefix, sizeof(prefix), "idle_states[%d].", i);
		char ipath[48];

		snprintf(ipath, sizeof(ipath), "idle_states[%d]", i);
		if (!json_object_is_type(s, json_type_object))
			return jfail(c, ipath, "expected an object");
		if (json_in_known(c, s, prefix, known) ||
		    json_in_str(c, s, prefix, "name", true, st->name, sizeof(st->name)) ||
		    json_in_u64(c, s, prefix, "exit_latency_us", true, 0, COST_EXIT_US_MAX, &lat) ||
		    json_in_u64(c, s, prefix, "target_residency_us", true, 0, 1000000, &res) ||
		    json_in_u64(c, s, prefix, "halt_poll_us", false, 0, 1000000, &hp) ||
		    json_in_u64(c, s, prefix, "halt_poll_exit_latency_us", false, 0, COST_EXIT_US_MAX,
				&hp_lat) ||
		    json_in_u64(c, s, prefix, "halt_poll_ipi_send_ns", false, 0,
				COST_NS_MAX, &hp_send) ||
		    json_in_u64(c, s, prefix, "halt_poll_max_us", false, 0, 1000000, &hp_max))
			return -1;
		st->exit_latency_ns = lat * 1000;
		st->target_residency_ns = res * 1000;
		st->halt_poll_ns = hp * 1000;
		st->halt_poll_exit_ns = hp_lat * 1000;
		st->halt_poll_ipi_send_ns = hp_send;
		st->halt_poll_max_ns = hp_max * 1000;
		st->halt_poll_send_set = json_object_object_get_ex(s, "halt_poll_ipi_send_ns", NULL);
		st->polling = false;
		st->mwait = false;
		if (json_in_bool(c, s, prefix, "polling", &st->polling) ||
		    json_in_bool(c, s, prefix, "mwait", &st->mwait))
			return -1;
		/* cpuidle's rules: polling first and free to leave, then deeper
		 * states, each worth staying in at least as long as leaving it. */
		if (!st->name[0])
			return jfail(c, strcat(ipath, ".name"), "empty name");
		for (int j = 0; j < i; j++)
			if (!strcmp(m->idle[j].name, st->name))
				return jfail(c, strcat(ipath, ".name"), "repeats an earlier state's name");
		if (st->polling && (i > 0 && !m->idle[i - 1].polling))
			return jfail(c, strcat(ipath, ".polling"), "polling states come first");
		if (st->polling && st->exit_latency_ns)
			return jfail(c, strcat(ipath, ".exit_latency_us"),
				     "a polling state has no exit latency (0)");
		if (st->target_residency_ns < st->exit_latency_ns)
			return jfail(c, strcat(ipath, ".target_residency_us"),
				     "below the exit latency: the state could never pay off");
		if (st->mwait && st->polling)
			return jfail(c, strcat(ipath, ".mwait"),
				     "a polling state loops in software: it cannot also be MWAIT");
		if (st->mwait && st->halt_poll_ns)
			return jfail(c, strcat(ipath, ".halt_poll_us"),
				     "an MWAIT state does not halt: no host poll to end it");
		if (st->halt_poll_ns && st->polling)
			return jfail(c, strcat(ipath, ".halt_poll_us"),
				     "a polling state never halts: no host poll to end it");
		if (!st->halt_poll_ns && json_object_object_get_ex(s, "halt_poll_exit_latency_us", NULL))
			return jfail(c, strcat(ipath, ".halt_poll_exit_latency_us"),
				     "needs halt_poll_us above 0 (the host's poll window)");
		if (st->polling && st->halt_poll_send_set)
			return jfail(c, strcat(ipath, ".halt_poll_ipi_send_ns"),
				     "a polling state never halts: no host poll to send into");
		if (!st->halt_poll_ns && st->halt_poll_send_set)
			return jfail(c, strcat(ipath, ".halt_poll_ipi_send_ns"),
				     "needs halt_poll_us above 0 (the host's poll window)");
		if (st->halt_poll_ns && !json_object_object_get_ex(s, "halt_poll_exit_latency_us", NULL))
			return jfail(c, strcat(ipath, ".halt_poll_us"),
				     "needs halt_poll_exit_latency_us "
				     "(what a halt the host polls through costs)");
		if (!st->halt_poll_ns && st->halt_poll_max_ns)
			return jfail(c, strcat(ipath, ".halt_poll_max_us"),
				     "needs halt_poll_us above 0 (the window it starts from)");
		if (st->halt_poll_max_ns && st->halt_poll_max_ns < st->halt_poll_ns)
			return jfail(c, strcat(ipath, ".halt_poll_max_us"),
				     "below halt_poll_us: the host never polls longer than its maximum");
		if (st->halt_poll_exit_ns > st->exit_latency_ns)
			return jfail(c, strcat(ipath, ".halt_poll_exit_latency_us"),
				     "above exit_latency_us: a host poll ends a halt sooner, not later");
		if (i > 0 && st->exit_latency_ns < m->idle[i - 1].exit_latency_ns)
			return jfail(c, strcat(ipath, ".exit_latency_us"),
				     "states must be listed from shallowest to deepest");
		if (i > 0 && st->target_residency_ns < m->idle[i - 1].target_residency_ns)
			return jfail(c, strcat(ipath, ".target_residency_us"),
				     "below the shallower state's: listed from shallowest to deepest");
	}
	return 0;
}

#define F(f) { #f, offsetof(struct costs, f) }
const struct cost_ns_field cost_ns_fields[] = {
	F(context_switch_ns), F(mm_switch_ns), F(pipe_write_ns), F(pipe_read_ns), F(unix_send_ns),
	F(unix_recv_ns), F(copy_ns_per_kib), F(ttwu_ns), F(select_ns), F(scan_cpu_ns),
	F(ipi_send_ns), F(ipi_latency_ns), F(poll_wake_ns), F(fork_ns), F(clone_ns), F(exit_ns),
	F(thread_exit_ns), F(reap_ns), F(futex_ns), F(nanosleep_ns), F(tcp_send_ns),
	F(tcp_recv_ns), F(udp_send_ns), F(udp_recv_ns), F(tcp_rx_softirq_ns), F(udp_rx_softirq_ns),
	F(llc_hit_ns), F(irq_ns), F(irq_interval_ns), F(syscall_entry_ns), F(tcp_send_tail_ns),
	F(udp_send_tail_ns),
};
#undef F
const int nr_cost_ns_fields = (int)(sizeof(cost_ns_fields) / sizeof(cost_ns_fields[0]));
_Static_assert(sizeof(cost_ns_fields) / sizeof(cost_ns_fields[0]) == COST_NS_NR,
	       "COST_NS_NR counts cost_ns_fields[]");

const u64 *costs_field_ns(const struct costs *k, const char *name)
{
	for (int i = 0; i < nr_cost_ns_fields; i++)
		if (!strcmp(cost_ns_fields[i].name, name))
			return (const u64 *)((const char *)k + cost_ns_fields[i].off);
	return NULL;
}

static int parse_costs(const struct json_in *c, json_object *o, struct costs *k)
{
	static const char *const known[] = { "c2c_ns", "context_switch_ns", "mm_switch_ns",
		"pipe_write_ns", "pipe_read_ns", "unix_send_ns", "unix_recv_ns",
		"copy_ns_per_kib", "ttwu_ns", "select_ns", "scan_cpu_ns", "ipi_send_ns",
		"ipi_latency_ns", "poll_wake_ns", "fork_ns", "clone_ns", "exit_ns",
		"thread_exit_ns", "reap_ns", "futex_ns", "nanosleep_ns", "tcp_send_ns", "tcp_recv_ns",
		"udp_send_ns", "udp_recv_ns", "tcp_rx_softirq_ns", "udp_rx_softirq_ns", "llc_hit_ns",
		"irq_ns", "irq_interval_ns", "syscall_entry_ns", "tcp_send_tail_ns",
		"udp_send_tail_ns", "smt_speed_pct", "cold_mlp", "jitter_pct_x10", NULL };
	const char *p = "costs.";
	u64 v;
	json_object *cc;

	if (json_in_known(c, o, p, known))
		return -1;
	if (json_object_object_get_ex(o, "c2c_ns", &cc)) {
		if (!json_object_is_type(cc, json_type_object))
			return jfail(c, "costs.c2c_ns", "expected an object");
		if (json_in_known(c, cc, "costs.c2c_ns.", c2c_class_names))
			return -1;
		for (int i = 0; i < C2C_NR; i++)
			if (json_in_u64(c, cc, "costs.c2c_ns.", c2c_class_names[i], false, 0, COST_C2C_MAX,
				    &k->c2c_ns[i]))
				return -1;
	}
	for (int i = 0; i < nr_cost_ns_fields; i++)
		if (json_in_u64(c, o, p, cost_ns_fields[i].name, false, 0, COST_NS_MAX,
			    (u64 *)((char *)k + cost_ns_fields[i].off)))
			return -1;
	v = k->smt_speed_pct;
	if (json_in_u64(c, o, p, "smt_speed_pct", false, 1, COST_SMT_SPEED_MAX, &v))
		return -1;
	k->smt_speed_pct = (unsigned)v;
	v = k->cold_mlp;
	if (json_in_u64(c, o, p, "cold_mlp", false, 1, COST_COLD_MLP_MAX, &v))
		return -1;
	k->cold_mlp = (unsigned)v;
	v = k->jitter_pct_x10;
	if (json_in_u64(c, o, p, "jitter_pct_x10", false, 0, 250, &v))
		return -1;
	k->jitter_pct_x10 = (unsigned)v;
	/*
	 * Interruptions that took half a CPU's time would leave its tasks
	 * none; a million a second per CPU is past any device's, and each is
	 * an event on every CPU.
	 */
	if (k->irq_interval_ns && 2 * k->irq_ns >= k->irq_interval_ns) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%llu ns is at least half of irq_interval_ns (%llu ns): "
			 "interruptions would take half the CPU", (unsigned long long)k->irq_ns,
			 (unsigned long long)k->irq_interval_ns);
		return jfail(c, "costs.irq_ns", msg);
	}
	if (k->irq_interval_ns && k->irq_interval_ns < IRQ_INTERVAL_MIN_NS) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%llu ns is below %d ns: over a million interruptions "
			 "a second per CPU", (unsigned long long)k->irq_interval_ns, IRQ_INTERVAL_MIN_NS);
		return jfail(c, "costs.irq_interval_ns", msg);
	}
	/*
	 * A part of a send this file gives (its receive side, its part after
	 * the wake-up) is at most the send it knows of.
	 */
	const struct {
		const char *field, *msg;
		u64 part, send;
	} parts[] = {
		{ "tcp_rx_softirq_ns", "above tcp_send_ns: the receive side is part of the send",
		  k->tcp_rx_softirq_ns, k->tcp_send_ns },
		{ "udp_rx_softirq_ns", "above udp_send_ns: the receive side is part of the send",
		  k->udp_rx_softirq_ns, k->udp_send_ns },
		{ "tcp_send_tail_ns", "above tcp_send_ns: the part after the wake-up is part of the send",
		  k->tcp_send_tail_ns, k->tcp_send_ns },
		{ "udp_send_tail_ns", "above udp_send_ns: the part after the wake-up is part of the send",
		  k->udp_send_tail_ns, k->udp_send_ns },
	};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		char at[64];

		if (json_object_object_get_ex(o, parts[i].field, NULL) && parts[i].part > parts[i].send) {
			snprintf(at, sizeof(at), "costs.%s", parts[i].field);
			return jfail(c, at, parts[i].msg);
		}
	}
	return 0;
}

/*
 * A file that gives a cost's value without its range drops the range an
 * earlier file gave (that range was for the earlier figure), even when the
 * two figures happen to be equal: costs o gave are ranged by o's file.
 */
static void drop_given_ranges(json_object *o, struct machine *m)
{
	json_object *cc, *x;
	char name[64];

	for (int k = 0; k < COST_KEY_IDLE0; k++) {
		cost_key_name(m, k, name, sizeof(name));
		if (k < C2C_NR) {
			if (json_object_object_get_ex(o, "c2c_ns", &cc) &&
			    json_object_object_get_ex(cc, c2c_class_names[k], &x))
				m->range[k].set = false;
		} else if (json_object_object_get_ex(o, name, &x)) {
			m->range[k].set = false;
		}
	}
}

/* A number field of a range, into *v; a missing one leaves *v. */
static int range_number(const struct json_in *c, json_object *r, const char *path,
			const char *key, double *v)
{
	json_object *x;
	char p[160];

	if (!json_object_object_get_ex(r, key, &x))
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!json_object_is_type(x, json_type_int) && !json_object_is_type(x, json_type_double))
		return jfail(c, p, "expected a number");
	if (json_in_figure(c, x, p, false))
		return -1;
	*v = json_object_get_double(x);
	return 0;
}

/*
 * One range, {"min", "max", "source"} or {"factor", "source"}, for cost
 * key k at path ("ranges.c2c_ns.llc"): checked against the key's limits
 * and the value the cost has now, which it must contain.
 */
static int parse_range(const struct json_in *c, json_object *r, const char *path,
		       struct machine *m, int k)
{
	static const char *const known[] = { "min", "max", "factor", "source", NULL };
	struct cost_range *g = &m->range[k];
	double v = cost_key_value(m, k), lo = NAN, hi = NAN, f = NAN;
	char prefix[160], p[180];

	snprintf(prefix, sizeof(prefix), "%s.", path);
	if (!json_object_is_type(r, json_type_object))
		return jfail(c, path, "expected an object: {\"min\", \"max\", \"source\"} or "
			     "{\"factor\", \"source\"}");
	json_object *src;

	if (json_in_known(c, r, prefix, known) ||
	    json_in_get(c, r, prefix, "source", json_type_string, true, &src))
		return -1;
	snprintf(p, sizeof(p), "%s.source", path);
	/* Whole, or not at all: a cut could split a UTF-8 character. */
	if (json_object_get_string_len(src) >= (int)sizeof(g->source))
		return json_in_fail(c, p, "longer than %zu bytes", sizeof(g->source) - 1);
	if (k >= COST_KEY_IDLE0 && m->idle[k - COST_KEY_IDLE0].polling)
		return jfail(c, path, "a polling state has no exit latency to vary (always 0)");
	if (json_in_str(c, r, prefix, "source", true, g->source, sizeof(g->source)) ||
	    range_number(c, r, path, "min", &lo) || range_number(c, r, path, "max", &hi) ||
	    range_number(c, r, path, "factor", &f))
		return -1;
	if (!isnan(f)) {
		if (!isnan(lo) || !isnan(hi))
			return jfail(c, path, "give min and max, or a factor, not both");
		snprintf(p, sizeof(p), "%s.factor", path);
		if (f < 1 || f > 100)
			return json_in_fail(c, p, "%g is outside 1..100 (the range is value / factor "
					    "to value x factor, clipped at the cost's limits)", f);
		lo = v / f;
		hi = v * f;
		if (lo < cost_key_min(k))
			lo = cost_key_min(k);
		if (hi > cost_key_max(k))
			hi = cost_key_max(k);
	} else if (isnan(lo) || isnan(hi)) {
		return jfail(c, path, isnan(lo) ? "missing field \"min\" (or give \"factor\")"
					      : "missing field \"max\" (or give \"factor\")");
	}
	snprintf(p, sizeof(p), "%s.min", path);
	if (lo < cost_key_min(k))
		return json_in_fail(c, p, "%g is below the cost's least value, %g", lo,
				    cost_key_min(k));
	snprintf(p, sizeof(p), "%s.max", path);
	if (hi > cost_key_max(k))
		return json_in_fail(c, p, "%g is above the cost's largest value, %g", hi,
				    cost_key_max(k));
	if (lo > hi)
		return json_in_fail(c, p, "%g is below min (%g)", hi, lo);
	if (v < lo || v > hi)
		return json_in_fail(c, path, "the cost's value, %g, is outside its range %g..%g", v,
				    lo, hi);
	g->set = true;
	g->min = lo;
	g->max = hi;
	return 0;
}

/*
 * "ranges", shaped as "costs" and "idle_states" are named: {"c2c_ns":
 * {"llc": RANGE}, "context_switch_ns": RANGE, "idle_states": {"C2":
 * {"exit_latency_us": RANGE}}}. Read after this document's costs, so a
 * range is checked against the value it comes with.
 */
static int parse_ranges(const struct json_in *c, json_object *o, struct machine *m)
{
	char path[160], name[96];

	if (!json_object_is_type(o, json_type_object))
		return jfail(c, "ranges", "expected an object, keyed as \"costs\" is");
	json_object_object_foreach(o, key, val) {
		int k;

		snprintf(path, sizeof(path), "ranges.%.60s", key);
		if (!strcmp(key, "c2c_ns") || !strcmp(key, "idle_states")) {
			bool idle = key[0] == 'i';

			if (!json_object_is_type(val, json_type_object))
				return jfail(c, path, idle ? "expected an object of idle state names"
							   : "expected an object of c2c_ns's keys");
			json_object_object_foreach(val, sub, r) {
				char spath[200];

				snprintf(spath, sizeof(spath), "%s.%.40s", path, sub);
				if (idle) {
					static const char *const only[] = { "exit_latency_us", NULL };
					char pre[210];

					snprintf(name, sizeof(name), "idle_states.%.40s.exit_latency_us", sub);
					k = cost_key_find(m, name);
					if (k < 0)
						return jfail(c, spath, "no idle state of that name here");
					snprintf(pre, sizeof(pre), "%s.", spath);
					if (!json_object_is_type(r, json_type_object))
						return jfail(c, spath, "expected {\"exit_latency_us\": RANGE}");
					if (json_in_known(c, r, pre, only))
						return -1;
					json_object *x;

					if (!json_object_object_get_ex(r, "exit_latency_us", &x))
						continue;
					snprintf(spath + strlen(spath), sizeof(spath) - strlen(spath),
						 ".exit_latency_us");
					if (parse_range(c, x, spath, m, k))
						return -1;
					continue;
				}
				snprintf(name, sizeof(name), "c2c_ns.%.40s", sub);
				k = cost_key_find(m, name);
				if (k < 0)
					return jfail(c, spath, "not a key of c2c_ns (local, smt, cluster, "
						     "llc, node, package, remote)");
				if (parse_range(c, r, spath, m, k))
					return -1;
			}
			continue;
		}
		/* Nested as "costs" is: "c2c_ns.llc" as one key is not one. */
		k = strchr(key, '.') ? -1 : cost_key_find(m, key);
		if (k < 0)
			return jfail(c, path, "not a cost with a range (`wakesim costs` lists them; "
				     "c2c_ns and idle_states nest)");
		if (parse_range(c, val, path, m, k))
			return -1;
	}
	return 0;
}

/*
 * A send to a vCPU its host still polls costs less than one whose thread
 * the host must wake: checked once both are known, against the field this
 * file gave (the state's send, else its ipi_send_ns).
 */
static int check_halt_poll_send(const struct json_in *c, json_object *root, const struct machine *m)
{
	json_object *o;
	bool states = json_object_object_get_ex(root, "idle_states", NULL);
	bool send = json_object_object_get_ex(root, "costs", &o) &&
		    json_object_object_get_ex(o, "ipi_send_ns", NULL);

	for (int i = 0; (states || send) && i < m->nr_idle_states; i++) {
		const struct idle_state *st = &m->idle[i];
		char path[64];

		if (!st->halt_poll_send_set || st->halt_poll_ipi_send_ns <= m->costs.ipi_send_ns)
			continue;
		if (!states)
			return jfail(c, "costs.ipi_send_ns",
				     "below an idle state's halt_poll_ipi_send_ns: a send to a vCPU "
				     "its host must wake costs more than one it still polls, not less");
		snprintf(path, sizeof(path), "idle_states[%d].halt_poll_ipi_send_ns", i);
		return jfail(c, path, "above costs.ipi_send_ns: a send to a vCPU its host still "
				      "polls costs less than one it must wake, not more");
	}
	return 0;
}

/*
 * "idle_states" (replacing the machine's), "costs" (over what is already
 * set) and their "ranges", as a machine file and a cost profile both give
 * them.
 */
int costs_json_idle_and_costs(const struct json_in *c, json_object *root, struct machine *m)
{
	json_object *o;

	if (json_object_object_get_ex(root, "idle_states", &o)) {
		if (parse_idle_states(c, o, m))
			return -1;
		for (int i = 0; i < WS_MAX_IDLE_STATES; i++)
			m->range[COST_KEY_IDLE0 + i].set = false;
		m->idle_replaced = true;
	}
	if (json_object_object_get_ex(root, "costs", &o)) {
		if (!json_object_is_type(o, json_type_object))
			return jfail(c, "costs", "expected an object");
		if (parse_costs(c, o, &m->costs))
			return -1;
		drop_given_ranges(o, m);
	}
	if (check_halt_poll_send(c, root, m))
		return -1;
	if (json_object_object_get_ex(root, "ranges", &o))
		return parse_ranges(c, o, m);
	return 0;
}

int costs_json_sources(const struct json_in *c, json_object *root, bool figures_ok)
{
	json_object *o;

	if (!json_object_object_get_ex(root, "sources", &o))
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return jfail(c, "sources", "expected an object of strings");
	json_object_object_foreach(o, skey, sval) {
		bool ok = json_object_is_type(sval, json_type_string);

		if (figures_ok && json_object_is_type(sval, json_type_object)) {
			ok = true;
			json_object_object_foreach(sval, rkey, rval) {
				(void)rkey;
				ok &= json_object_is_type(rval, json_type_string) ||
				      json_object_is_type(rval, json_type_int) ||
				      json_object_is_type(rval, json_type_double);
			}
		}
		if (!ok) {
			char spath[160];

			snprintf(spath, sizeof(spath), "sources.%s", skey);
			return jfail(c, spath, figures_ok ? "expected a string, or an object of strings "
							    "and numbers" : "expected a string");
		}
	}
	return 0;
}

/*
 * A cost profile: "idle_states" (replacing the machine's) and "costs" (over
 * what is already set), with "name", "description" and "sources".
 */
int costs_json_profile(const char *text, size_t len, const char *file, struct machine *m,
		       char *err, size_t errlen)
{
	static const char *const known[] = { "name", "description", "idle_states", "costs",
					     "ranges", "sources", NULL };
	struct json_in c = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen };
	json_object *root;
	char name[64];
	int ret = -1;

	if (json_doc_parse(text, len, file, &root, err, errlen))
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "%s:1: expected a JSON object", file);
		goto out;
	}
	if (json_in_known(&c, root, "", known) || json_in_str(&c, root, "", "name", true, name, sizeof(name)))
		goto out;
	if (costs_json_idle_and_costs(&c, root, m))
		goto out;
	if (costs_json_sources(&c, root, true))
		goto out;
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

int costs_json_defaults(struct machine *m, char *err, size_t errlen)
{
	const struct preset_blob *b = preset_blob_find("costs/default");

	if (!b) {
		snprintf(err, errlen, "built-in costs/default.json is missing");
		return -1;
	}
	return costs_json_profile(b->text, b->len, "costs/default.json", m, err, errlen);
}

int machine_apply_cost_profile(struct machine *m, const char *spec, char *err, size_t errlen)
{
	char bname[96];
	const struct preset_blob *b;
	int nr_idle = m->nr_idle_states;
	struct idle_state idle[WS_MAX_IDLE_STATES];

	/* Idle states of a machine read from sysfs stay unless the profile has some. */
	memcpy(idle, m->idle, sizeof(idle));
	memset(&m->costs, 0, sizeof(m->costs));
	memset(m->range, 0, sizeof(m->range));
	m->nr_idle_states = 0;
	if (costs_json_defaults(m, err, errlen))
		return -1;
	/*
	 * The machine's states while the profile is read, so that its ranges
	 * can name them; replaced if the profile lists its own.
	 */
	memcpy(m->idle, idle, sizeof(idle));
	m->nr_idle_states = nr_idle;
	m->idle_replaced = false;
	snprintf(bname, sizeof(bname), "costs/%s", spec);
	if (!strchr(spec, '/') && !strstr(spec, ".json") && (b = preset_blob_find(bname))) {
		if (costs_json_profile(b->text, b->len, bname, m, err, errlen))
			return -1;
	} else {
		char *text;
		size_t len;

		if (!strchr(spec, '/') && !strstr(spec, ".json") && access(spec, F_OK) &&
		    errno == ENOENT) {
			int off = snprintf(err, errlen, "no cost profile \"%s\" (built in:", spec);

			for (int i = 0; i < preset_blob_count && off > 0 && (size_t)off < errlen; i++)
				if (!strncmp(preset_blobs[i].name, "costs/", 6))
					off += snprintf(err + off, errlen - (size_t)off, " %s",
							preset_blobs[i].name + 6);
			if (off > 0 && (size_t)off < errlen)
				snprintf(err + off, errlen - (size_t)off, "; or a file)");
			return -1;
		}
		if (text_file_read(spec, "cost profile", &text, &len, err, errlen))
			return -1;
		int r = costs_json_profile(text, len, spec, m, err, errlen);

		free(text);
		if (r)
			return -1;
	}
	/* The profile's states replace whatever the reader assumed. */
	if (m->idle_replaced)
		m->assumed[ASSUMED_IDLE][0] = '\0';
	snprintf(m->cost_profile, sizeof(m->cost_profile), "%.63s", spec);
	return 0;
}

