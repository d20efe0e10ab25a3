/*
 * cost_keys.h - every cost of a machine by one name, with its plausible
 * range: the c2c_ns transfers ("c2c_ns.llc"), the ns costs
 * ("context_switch_ns"), smt_speed_pct, cold_mlp and each idle state's
 * exit latency ("idle_states.C2.exit_latency_us"). `wakesim costs` prints
 * them, and `compare --robust` draws profiles across their ranges
 * (docs/costs.md, "Ranges").
 */
#ifndef WS_COST_KEYS_H
#define WS_COST_KEYS_H

#include "machine.h"

/* c2c_ns's keys by enum c2c_class, NULL-terminated ("local", "smt", ...). */
extern const char *const c2c_class_names[C2C_NR + 1];

/* The largest value a cost file may give (costs_json.c reads with them). */
#define COST_NS_MAX 100000000ULL	/* every *_ns cost */
#define COST_C2C_MAX 100000ULL		/* a c2c_ns transfer */
#define COST_EXIT_US_MAX 100000ULL	/* an idle state's exit latency, us */
#define COST_SMT_SPEED_MAX 100ULL	/* smt_speed_pct, from 1 */
#define COST_COLD_MLP_MAX 64ULL		/* cold_mlp, from 1 */

/* Keys before the idle states' (fixed for every machine). */
#define COST_KEY_SMT_SPEED (C2C_NR + COST_NS_NR)
#define COST_KEY_COLD_MLP (COST_KEY_SMT_SPEED + 1)
#define COST_KEY_IDLE0 (COST_KEY_COLD_MLP + 1)

/* How many keys m has: the fixed ones, then one per idle state. */
int cost_key_count(const struct machine *m);
/* Key k's name into buf ("c2c_ns.llc"). */
void cost_key_name(const struct machine *m, int k, char *buf, size_t len);
/* The key named name, or -1. */
int cost_key_find(const struct machine *m, const char *name);
/* Its unit: "ns", "us" (idle exit latencies), "%" or "" (cold_mlp). */
const char *cost_key_unit(int k);
/* Its value in that unit. */
double cost_key_value(const struct machine *m, int k);
/* The largest and smallest values a cost file may give it. */
double cost_key_max(int k);
double cost_key_min(int k);

/*
 * Set key k to v (in its unit), rounded as the field stores it (whole ns,
 * percent, misses in flight). An idle state's target residency is scaled
 * with its exit latency, so the state still pays off after the same
 * multiple of its cost (acpi_idle's residency = 2 x latency stays so).
 */
void cost_key_set(struct machine *m, int k, double v);

/*
 * Key k's range: the one the cost file that gave the cost's value gave
 * with it, else the default (the value halved to doubled, within the
 * field's limits, source saying so). out->set tells which.
 */
void cost_key_range(const struct machine *m, int k, struct cost_range *out);

/*
 * After idle exit latencies were set one by one: keep the states listed
 * shallowest to deepest (each latency and residency at least the
 * shallower state's, a residency at least its latency), as cpuidle
 * requires, by raising the deeper state's; a host's halt-poll exit at
 * most its state's exit latency; a send into its poll at most
 * ipi_send_ns; and interruptions as costs_fit_irq() fits them.
 */
void cost_keys_order_idle(struct machine *m);

/*
 * Interruptions as a cost file must give them (costs_json.c): with any,
 * irq_interval_ns from IRQ_INTERVAL_MIN_NS to COST_NS_MAX, and irq_ns
 * (ns) under half of it, cut to fit. For drawn profiles and calibrate.
 */
void costs_fit_irq(struct costs *k);

#endif
