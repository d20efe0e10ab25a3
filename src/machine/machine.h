/*
 * machine.h - a modelled machine: its topology, its idle states and the
 * costs that decide wake-up placement trade-offs (docs/costs.md gives the
 * source of every figure).
 *
 * Machines come from presets (machines/NAME.json, built into the binary),
 * from a JSON file path, from a copied sysfs tree (sysfs:DIR) or from this
 * host's /sys ("host"). All paths end in the same struct so the scheduler
 * model never knows where a machine came from.
 */
#ifndef WS_MACHINE_H
#define WS_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topology.h"

typedef uint64_t u64;

#define WS_MAX_IDLE_STATES 16

/* Relation between two CPUs, nearest first; indexes costs.c2c_ns[]. */
enum c2c_class {
	C2C_LOCAL,	/* the same CPU: an L1 hit */
	C2C_SMT,	/* SMT siblings: shared L1/L2 */
	C2C_CLUSTER,	/* same cluster (shared L2 or L3 tag) */
	C2C_LLC,	/* same last-level cache */
	C2C_NODE,	/* same NUMA node, other LLC */
	C2C_PACKAGE,	/* same package, other node */
	C2C_REMOTE,	/* other package */
	C2C_NR
};

/* What a machine reader may have had to assume (struct machine.assumed). */
enum machine_assumed {
	ASSUMED_LLC,	/* no cache information: LLC = package */
	ASSUMED_IDLE,	/* no cpuidle states: the kernel's default_idle_call() */
	MACHINE_ASSUMED_NR
};

/* One cpuidle state, as the kernel's driver tables list it. */
struct idle_state {
	char name[16];
	u64 exit_latency_ns;
	u64 target_residency_ns;
	bool polling;	/* CPU watches its flags: a wake-up needs no IPI */
	/*
	 * Entered with x86 MWAIT (intel_idle's states, acpi_idle's FFH ones):
	 * mwait_idle_with_hints() sets TIF_POLLING_NRFLAG and monitors the
	 * flags' line, so a wake-up writes TIF_NEED_RESCHED instead of
	 * sending an IPI (set_nr_if_polling(), core.c v6.4 and v6.12), and
	 * the CPU then pays exit_latency_ns as after an IPI.
	 */
	bool mwait;
	/*
	 * A virtual CPU's halt under a hypervisor that halt-polls (KVM's
	 * halt_poll_ns): an idle period shorter than halt_poll_ns is ended
	 * by the host's poll loop, in halt_poll_exit_ns instead of
	 * exit_latency_ns (the host's scheduling of the vCPU thread). 0: no
	 * polling host (bare metal).
	 */
	u64 halt_poll_ns;
	u64 halt_poll_exit_ns;
	/*
	 * What an IPI costs its sender while the host still polls this halt
	 * (ns; a guest's IPI is a VM exit, and one to a vCPU the host has
	 * scheduled out also wakes its thread, inside that exit): used when
	 * halt_poll_send_set, else costs.ipi_send_ns as for any other target.
	 */
	u64 halt_poll_ipi_send_ns;
	bool halt_poll_send_set;
	/*
	 * A host that adapts the window (KVM's kvm_vcpu_halt(), virt/kvm/
	 * kvm_main.c, v5.x-v6.x): its maximum, the halt_poll_ns module
	 * parameter (ns). Each vCPU then keeps its own window, starting at
	 * halt_poll_ns: a halt that outlasts it but not the maximum doubles
	 * it (to at least 10 us, at most the maximum), one that outlasts the
	 * maximum resets it to 0. 0: a fixed window of halt_poll_ns.
	 */
	u64 halt_poll_max_ns;
};

/*
 * Costs in ns of CPU time (charged to the CPU doing the work) or of latency
 * (a delay before something happens elsewhere). Figures and sources:
 * docs/costs.md.
 */
struct costs {
	u64 c2c_ns[C2C_NR];	/* one cache-line transfer, by relation (latency) */
	u64 context_switch_ns;	/* schedule() + switch_to between threads of one mm */
	u64 mm_switch_ns;	/* extra when the address space changes */
	u64 pipe_write_ns;	/* write(2) of a small message to a pipe, w/o wake-up */
	u64 pipe_read_ns;	/* read(2) of a small message from a pipe */
	u64 unix_send_ns;	/* send on an AF_UNIX stream socket, w/o wake-up */
	u64 unix_recv_ns;	/* receive on an AF_UNIX stream socket */
	u64 copy_ns_per_kib;	/* copy_{to,from}_user per KiB beyond the first line */
	u64 ttwu_ns;		/* try_to_wake_up() fixed part: locks, enqueue */
	u64 select_ns;		/* select_task_rq_fair() fixed part */
	u64 scan_cpu_ns;	/* select_idle_cpu() loop work per CPU, w/o its cache line */
	u64 ipi_send_ns;	/* sender's cost of an IPI */
	u64 ipi_latency_ns;	/* IPI send to handler start on the target */
	u64 poll_wake_ns;	/* a polling idle CPU notices need_resched */
	u64 fork_ns;		/* fork() of a small process, parent side */
	u64 clone_ns;		/* pthread_create(), parent side */
	u64 exit_ns;		/* exit() of a process, mm teardown included */
	u64 thread_exit_ns;	/* pthread exit */
	u64 reap_ns;		/* wait()/pthread_join() returning a dead child */
	u64 futex_ns;		/* a FUTEX_WAIT or FUTEX_WAKE syscall, w/o wake-ups */
	u64 nanosleep_ns;	/* nanosleep()/clock_nanosleep() entry, timer arming */
	u64 tcp_send_ns;	/* send on a loopback TCP socket, receive path included */
	u64 tcp_recv_ns;	/* receive on a TCP socket */
	u64 udp_send_ns;	/* send on a loopback UDP socket, receive path included */
	u64 udp_recv_ns;	/* receive on a UDP socket */
	u64 tcp_rx_softirq_ns;	/* the part of tcp_send_ns run in the NET_RX softirq */
	u64 udp_rx_softirq_ns;	/* the part of udp_send_ns run in the NET_RX softirq */
	/*
	 * The part of a loopback send after its wake-up of the receiver, its
	 * way out not included: the NET_RX softirq's rest after
	 * sk_data_ready() and the transmit's return (chan.c).
	 */
	u64 tcp_send_tail_ns;
	u64 udp_send_tail_ns;
	u64 llc_hit_ns;		/* a line read back from this core's LLC (latency) */
	u64 irq_ns;		/* one interruption of a running CPU, mean length */
	u64 irq_interval_ns;	/* mean time between them on one CPU (0: none) */
	/*
	 * A syscall's way in (and, mirrored, its way out): a read that blocks
	 * pays it before it sleeps and the rest of its cost after its wake-up;
	 * a write pays its way out after the wake-ups it makes (chan.c).
	 */
	u64 syscall_entry_ns;
	unsigned smt_speed_pct;	/* speed of each SMT sibling while both run, % */
	unsigned cold_mlp;	/* misses in flight while refilling a cold cache */
	unsigned jitter_pct_x10; /* relative stddev of op durations, 0.1% units */
};

/*
 * The costs given in ns (every field of struct costs but c2c_ns and the
 * percentages), by the name cost files use: the profile reader takes them
 * from this table, and policies read them by name (policy/api.c).
 */
struct cost_ns_field {
	const char *name;
	size_t off;		/* offsetof(struct costs, field) */
};
extern const struct cost_ns_field cost_ns_fields[];
extern const int nr_cost_ns_fields;
#define COST_NS_NR 32		/* entries of cost_ns_fields[] */
#define IRQ_INTERVAL_MIN_NS 1000 /* the shortest irq_interval_ns a file may give */
/* The ns cost named name in k, or NULL if none is. */
const u64 *costs_field_ns(const struct costs *k, const char *name);

/*
 * The plausible interval of one cost (machine/cost_keys.h names them), as
 * a machine file or cost profile gives it under "ranges". It belongs to
 * the file that gave it: a later file that gives the cost's value (or
 * lists idle_states) unsets it (costs_json.c), and the cost has the
 * default range of docs/costs.md.
 */
struct cost_range {
	bool set;
	double min, max;	/* in the cost's own unit (ns, us, %) */
	char source[200];
};
#define COST_KEYS_MAX (C2C_NR + COST_NS_NR + 2 + WS_MAX_IDLE_STATES)

struct machine {
	char name[64];
	char description[256];
	char cost_profile[64];	/* the profile applied last ("" : defaults only) */
	/*
	 * What the reader assumed because its source did not say ("" if
	 * nothing): outputs print each as "assumed: ..." so a result never
	 * hides a guess (machine_print_assumed()).
	 */
	char assumed[MACHINE_ASSUMED_NR][200];
	struct topology topo;
	int nr_idle_states;
	struct idle_state idle[WS_MAX_IDLE_STATES];
	struct costs costs;
	struct cost_range range[COST_KEYS_MAX];	/* by cost key (cost_keys.h) */
	bool idle_replaced;	/* a cost file listed idle_states (costs_json.c) */
	u64 l2_bytes;		/* private L2 per core */
	u64 llc_bytes;		/* one last-level cache */
	/*
	 * The CPUs' vendor and family as /proc/cpuinfo's vendor_id and "cpu
	 * family" give them ("" and 0: not known, or not x86). The kernel
	 * reads them at boot, and some of its scheduling rules depend on them
	 * (AMD Zen's node_reclaim_distance: kern/topology.c).
	 */
	char cpu_vendor[16];
	int cpu_family;
	struct cpumask *smt;	/* [nr_cpus]: cpu_smt_mask(), precomputed */
	/*
	 * The same as lists, for loops: [nr_cpus * topo.smt_width] CPUs of
	 * each CPU's core, ascending, and smt_nr[cpu] of them. Walking a mask
	 * of siblings numbered nr_cpus/2 apart reads every word between them
	 * and after, which on a machine of thousands of CPUs is most of a
	 * wake-up's time.
	 */
	int *smt_cpus, *smt_nr;
};

/* for_each_cpu(c, cpu_smt_mask(cpu)), in the same order; k is the index. */
#define for_each_smt_cpu(c, k, m, cpu)                                              \
	for ((k) = 0; (k) < (m)->smt_nr[cpu] &&                                    \
		      ((c) = (m)->smt_cpus[(cpu) * (m)->topo.smt_width + (k)], 1); \
	     (k)++)

/* cpu_smt_mask(): cpu and its SMT siblings. */
static inline const struct cpumask *machine_smt_mask(const struct machine *m, int cpu)
{
	return &m->smt[cpu];
}

/*
 * The closest level CPUs a and b share. Computed from their topology
 * fields, not looked up in a table: an nr_cpus^2 table is 64 MiB at 8192
 * CPUs, and at 1536 its random reads already cost more than the compares.
 */
static inline enum c2c_class machine_c2c_class(const struct machine *m, int a, int b)
{
	const struct cpu_topo *x = &m->topo.cpu[a], *y = &m->topo.cpu[b];

	if (a == b)
		return C2C_LOCAL;
	if (x->core == y->core)
		return C2C_SMT;
	if (x->llc == y->llc)
		return x->cluster == y->cluster ? C2C_CLUSTER : C2C_LLC;
	if (x->node == y->node)
		return C2C_NODE;
	return x->package == y->package ? C2C_PACKAGE : C2C_REMOTE;
}

/*
 * A syscall's way in or out (syscall_entry_ns) of a call costing whole ns,
 * at most the whole: what a read pays before it sleeps and a write after
 * its wake-ups (src/ipc/chan.c).
 */
static inline u64 costs_syscall_edge(const struct costs *k, u64 whole)
{
	return k->syscall_entry_ns < whole ? k->syscall_entry_ns : whole;
}

/* ns for a cache line to move from CPU a to CPU b. */
static inline u64 machine_c2c_ns(const struct machine *m, int a, int b)
{
	return m->costs.c2c_ns[machine_c2c_class(m, a, b)];
}

/*
 * Replace m's costs by costs/default.json overlaid with a cost profile:
 * spec is a built-in profile's name (costs/NAME.json, e.g. "kunpeng920")
 * or a file. Idle states come from the profile if it lists any, else stay
 * the machine's. Returns 0, or -1 with "FILE:LINE: field ...: why".
 */
int machine_apply_cost_profile(struct machine *m, const char *spec, char *err, size_t errlen);

/*
 * Load a machine from a spec: a preset name ("epyc9654-2s"), "host",
 * "sysfs:DIR" (a copied /sys, or a directory holding sys/devices/system),
 * "hwloc:FILE.xml", "lscpu:FILE", a path to a machine JSON file, or a path
 * ending in ".xml" (read as hwloc XML, what `lstopo --of xml` writes).
 * Sets nr_cpu_ids. Returns 0, or -1 with a message naming the file, line
 * and field in err.
 */
int machine_load(const char *spec, struct machine *m, char *err, size_t errlen);

/*
 * Whether an unprefixed machine spec names a file (a path, FILE.json or
 * FILE.xml) rather than a preset or "host": machine_load()'s rule, for
 * callers that resolve such paths first (sweep plans).
 */
bool machine_spec_is_file(const char *spec);

void machine_free(struct machine *m);

/* Fill derived data (SMT masks) after topo is final. Returns 0 or -1. */
int machine_finish(struct machine *m, char *err, size_t errlen);

/* Built-in presets, for `wakesim machines`: name and one-line description. */
int machine_preset_count(void);
const char *machine_preset_name(int i);
/* Loads preset i to read its description; returns 0 or -1. */
int machine_preset_describe(int i, char *buf, size_t len);

/* Parse a machine JSON document (text, named `file` in errors). */
int machine_parse_json(const char *text, size_t len, const char *file,
		       struct machine *m, char *err, size_t errlen);

/*
 * Read an hwloc XML topology (lstopo --of xml) into m->topo, m->l2_bytes and
 * m->llc_bytes, and the first package's CPUVendor and CPUFamilyNumber into
 * m->cpu_vendor and m->cpu_family (machine/hwloc.c says how). Returns 0, or
 * -1 with "FILE: why".
 */
int machine_read_hwloc(const char *file, struct machine *m, char *err, size_t errlen);

/*
 * Read `lscpu -p=CPU,CORE,SOCKET,NODE,CACHE` output into m->topo
 * (machine/lscpu.c). Returns 0, or -1 with "FILE:LINE: field X: why".
 */
int machine_read_lscpu(const char *file, struct machine *m, char *err, size_t errlen);

/*
 * Read a sysfs tree rooted at dir into m->topo, its cpuidle states into
 * m->idle, and cpu0's L2 and last-level cache sizes (bytes; 0 when absent)
 * into m->l2_bytes and m->llc_bytes. Where the tree has no cache
 * information (the LLC becomes the package) or no cpuidle states (one halt
 * state, as default_idle_call()), says so in m->assumed. A tree in a
 * directory named sys (/sys, or DUMP/sys as hwloc-gather-topology makes)
 * takes m->cpu_vendor and m->cpu_family from the proc/cpuinfo beside it,
 * if there is one. Returns 0, or -1 with "DIR/FILE:LINE: why".
 */
int machine_read_sysfs(const char *dir, struct machine *m, char *err, size_t errlen);

/*
 * Read the first processor's vendor_id and "cpu family" (decimal) of a
 * /proc/cpuinfo text into m->cpu_vendor and m->cpu_family; a text without
 * them (arm64's) leaves both unset. Returns 0, or -1 with "FILE:LINE:
 * field: why" for a family that is not a number in 1..255 or a vendor of
 * more than 15 characters.
 */
int machine_parse_cpuinfo(const char *text, const char *file, struct machine *m, char *err,
			  size_t errlen);

/*
 * The sysfs root `--machine host` reads: $WAKESIM_SYSFS when set and not
 * empty (a copied tree, so tests and CI never depend on the host), else
 * "/sys".
 */
const char *machine_host_sysfs(void);

/* Print each of m's assumptions as "<prefix>assumed: ...\n" (none: nothing). */
void machine_print_assumed(FILE *f, const struct machine *m, const char *prefix);
/* m's assumptions one per line ("" if none) into buf, cut to len. */
void machine_assumed_text(const struct machine *m, char *buf, size_t len);

/* Default costs and idle states for machines read from sysfs. */
void machine_default_costs(struct machine *m);

#endif
