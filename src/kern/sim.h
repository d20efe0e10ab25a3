/*
 * sim.h - one simulation: a machine, the kernel model's state on it and a
 * workload, driven by the engine's event loop (sim/engine.h).
 *
 * Everything that happens is an event at an integer nanosecond, handled
 * in (time, seq) order, so a run is a pure function of its inputs and
 * --seed. The event types below are the kernel model's; the engine only
 * orders them. Kernel code runs "on" a CPU: sim->this_cpu is
 * smp_processor_id() and the costs it incurs accumulate in sim->kcost_ns
 * until the CPU is charged for them.
 */
#ifndef WS_SIM_H
#define WS_SIM_H

#include "kern/hooks.h"
#include "kern/sched.h"
#include "kern/metrics.h"
#include "sim/engine.h"
#include "sim/rng.h"

/* The kernel model's event types (event.type). */
enum {
	EV_CPU_RUN,	/* arg = cpu: a run piece ended, or an idle exit finished */
	EV_CPU_TICK,	/* arg = cpu: scheduler tick */
	EV_CPU_IPI,	/* arg = cpu: an IPI (or a polling CPU's wake) arrives */
	EV_WAKE_ENQUEUE,/* ptr = task: a direct remote wake-up's enqueue happens */
	EV_TIMER,	/* ptr = struct sim_timer: an hrtimer fires */
	EV_CPU_IRQ,	/* arg = cpu: an interruption (costs.irq_ns) starts */
};

struct workload;
struct wakesim_policy;

/*
 * What a workload's steady-state rule did (--until-steady, hackbench's
 * --fast-forward), for the run's JSON and compare's notes: plain old data,
 * as worker processes send their outcome as bytes.
 */
struct wl_steady {
	bool asked;		/* the rule was on */
	bool engaged;		/* it found the rate steady and ended (or skipped) early */
	u64 warm_ns;		/* ns of warm-up before the measurement */
	u64 window_ns;		/* ns: the shortest half */
	double tol;		/* fraction: how far the halves' rates may differ */
	u64 at_ns;		/* engaged: ns of measurement when it was decided */
};

/* A workload drives tasks through their step functions (workload/). */
struct workload_ops {
	const char *name;
	/* Create the initial task(s); returns 0 or -1 with err set. */
	int (*start)(struct sim *sim, struct workload *wl, char *err, size_t errlen);
	/* Print the benchmark's own output (e.g. "Time: 1.234"). */
	void (*report)(struct sim *sim, struct workload *wl, FILE *out);
	/*
	 * The benchmark's figure and unit ("s", lower is better); NAN when the
	 * run has none (an rt-app file without timer events): "n/a".
	 */
	double (*result)(struct sim *sim, struct workload *wl, const char **unit,
			 bool *higher_is_better);
	/*
	 * After the run: the workload's conservation law (every message sent
	 * was received, every request answered). Returns 0 or -1 with why.
	 */
	int (*check)(struct workload *wl, char *why, size_t len);
	void (*free)(struct workload *wl);
	/* The workload is a user's description (rt-app): a deadlock is its fault. */
	bool input_may_deadlock;
	/* Optional: the fraction of its work done, 0..1, for a progress bar. */
	double (*done_fraction)(const struct sim *sim, const struct workload *wl);
	/* Optional: what its steady-state rule did (left zero when it has none). */
	void (*steady)(const struct workload *wl, struct wl_steady *out);
};

struct workload {
	const struct workload_ops *ops;
	void *priv;
	bool done;		/* stop the simulation */
	/* Set (with done) when the run shows the input is wrong: exit status 2. */
	char input_error[256];
};

struct sim_config {
	struct sched_features features;
	struct sched_tunables tunables;
	uint64_t seed;
	struct cpumask allowed;	/* --cpus/--node binding of the workload's tasks */
	/* --policy: the wake-up policy (policy/registry.h); NULL: mainline's own. */
	const struct wakesim_policy *policy;
	uint64_t max_sim_ns;	/* safety stop, 0 = none */
	/* Called every ENGINE_PROGRESS_EVENTS events, if set: a progress display. */
	void (*progress)(const struct sim *sim, void *arg);
	void *progress_arg;
};

struct wc_checker;

struct sim {
	const struct machine *m;
	bool arena_ref;		/* holds a reference on the lines' arena (coherence.h) */
	/* The distinct affinity masks of its tasks (sim_cpumask()). */
	struct cpumask **masks;
	int nr_masks, cap_masks;
	struct sim_config cfg;
	struct sched_features feat;	/* cfg.features, read on hot paths */
	const struct sched_tunables *tun;
	struct sched_domains doms;
	struct rq *rq;			/* [nr_cpus] */
	int nr_cpus;

	struct engine eng;		/* its event queue and loop */
	u64 now;			/* ns: the kernel's clock, eng.now of the event handled */
	u64 active_ns;			/* the last event that was not an idle tick */
	u64 debug_last_ns;		/* the event before, for WS_DEBUG's invariant checks */
	struct rng rng;
	struct rng irq_rng;		/* interruptions' arrivals and lengths (kern/irqtime.c) */

	/* The context kernel code runs in. */
	int this_cpu;
	u64 kcost_ns;
	bool in_irq;			/* a timer's callback runs: hardirq context */
	struct placement plc;		/* the select_task_rq() under way (kern/placement.h) */

	struct task_struct **tasks;
	struct task_struct *idle_tasks;	/* [nr_cpus]: swapper/N, rq->idle */
	int nr_tasks, cap_tasks;
	struct ftrace *trace;		/* ftrace text output (kern/trace.h), or NULL */
	int nr_alive;
	int nr_overloaded;		/* rqs with nr_running >= 2: rd->overloaded */
	long nr_running_total;		/* sum of the rqs' nr_running */
	int nr_ticks_queued;		/* CPUs with a tick in the event queue */
	int nr_irqs_queued;		/* CPUs with an interruption in it (kern/irqtime.c) */
	u64 nohz_next_balance;		/* nohz.next_balance */
	u64 enqueue_seq;
	int next_mm_id;

	struct workload *wl;
	struct metrics met;
	/* The measured window's copies of met (kern/metwin.h), or NULL. */
	struct metrics *met_from, *met_to;
	u64 met_from_ns, met_to_ns;
	bool met_window_failed;
	/* Wake-ups counted in met.wakeups whose CPU is not yet claimed (core.c). */
	u64 wakes_in_flight;
	void *policy_cpu_data;		/* [nr_cpus] x the policy's cpu_data_size bytes, or NULL */
	/* The policy's layers (kern/hooks.h): cfg.policy, then the seed features on. */
	const struct wakesim_policy *layer[SIM_MAX_LAYERS];
	int nr_layers;
	signed char first_layer[POLICY_SLOTS];	/* by POLICY_SLOT(hook): POLICY_FIRST() */
	struct wc_checker *wc;		/* kern/wc.c, during sim_run() */
	/* tg->load_avg of each task group from the root's child down (kern/tg.c). */
	struct cacheline tg_load_line[TG_MAX_DEPTH];
	/* Each CPU's group cfs_rq and entity lines per level (kern/hier.c), or NULL. */
	struct cacheline *grp_lines;
	int grp_depth;			/* their levels: cgroup_depth at sim_init() */
	/*
	 * Bytes put through each core's L2 ([nr_cores]) and each LLC
	 * ([nr_llcs]) so far: messages written or pulled in, working sets of
	 * the tasks that ran (kern/linecache.h).
	 */
	u64 *core_bytes_in, *llc_bytes_in;
};

#define sched_feat(x) sched_feat_of(&sim->feat, x)

static inline struct rq *cpu_rq(struct sim *sim, int cpu)
{
	return &sim->rq[cpu];
}

static inline struct task_struct *rq_curr(struct sim *sim, int cpu)
{
	return sim->rq[cpu].curr;
}

/* Charge ns of kernel work to the CPU the current kernel code runs on. */
static inline void charge(struct sim *sim, u64 ns)
{
	sim->kcost_ns += ns;
}

/*
 * When the op the running task just made returns to user space (ns): what
 * the step has charged so far runs first (a read's rest, its lines), at
 * full speed. For a workload's own clock readings taken after an op.
 */
static inline u64 op_return_ns(const struct sim *sim)
{
	return sim->now + sim->kcost_ns;
}

/*
 * The code running on sim->this_cpu reads or writes a shared cache line:
 * the transfer (coherence.h) is charged to it and counted in
 * met.coherence_ns. Returns the ns charged.
 */
static inline u64 line_read(struct sim *sim, struct cacheline *l)
{
	u64 ns = cacheline_read(sim->m, l, sim->this_cpu, sim->now + sim->kcost_ns);

	sim->met.coherence_ns += ns;
	charge(sim, ns);
	return ns;
}

static inline u64 line_write(struct sim *sim, struct cacheline *l)
{
	u64 ns = cacheline_write(sim->m, l, sim->this_cpu, sim->now + sim->kcost_ns);

	sim->met.coherence_ns += ns;
	charge(sim, ns);
	return ns;
}

/*
 * Create a simulation of machine m with cfg; returns 0, or -1 with err.
 * The workload is attached with sim_set_workload() before sim_run().
 */
int sim_init(struct sim *sim, const struct machine *m, const struct sim_config *cfg,
	     char *err, size_t errlen);
void sim_free(struct sim *sim);
/*
 * The policy's layers from cfg.policy and feat (kern/hooks.h): sim_init()
 * makes them; a test that sets either by hand makes them again.
 */
void sim_layers_build(struct sim *sim);

/*
 * The simulation's copy of mask m (bits 0..nr_cpu_ids-1): one per distinct
 * mask, kept until sim_free(), so tasks share their affinity (a task's
 * cpus_ptr). NULL when out of memory.
 */
const struct cpumask *sim_cpumask(struct sim *sim, const struct cpumask *m);
/*
 * Nothing can happen any more: no task is runnable and the event queue
 * holds only ticks and the work-conservation checker's sampling.
 */
bool sim_quiescent(const struct sim *sim);
void sim_set_workload(struct sim *sim, struct workload *wl);
/*
 * Run until the workload is done (or max_sim_ns). Returns 0, -1 with err
 * when the run fails, -2 when the workload cannot start on this machine
 * (its input names CPUs it lacks, ...) or stopped on wl->input_error, -3
 * on a deadlock (every task asleep with nothing left to wake them).
 */
int sim_run(struct sim *sim, char *err, size_t errlen);

/* Default tunables for a machine of nr_cpus CPUs (mainline values). */
void sched_tunables_default(struct sched_tunables *t, int nr_cpus);
/*
 * Values that follow others, after a profile or --sysctl changed them:
 * SIS_SHORT's sis_short_ns is the profile's slice / 8 unless it was set.
 */
void sched_tunables_derive(struct sched_tunables *t);
/* Switch t to a kernel version's profile: its pick algorithm and defaults. */
void sched_tunables_kernel(struct sched_tunables *t, int kver, int nr_cpus);
/*
 * Apply "name=value" (--sysctl) for kernel profile kver; name is the
 * table's, the sysctl (sched_*) or the debugfs spelling. Returns 0, or -1
 * with err: unknown name, value out of range, or a knob the profile's pick
 * algorithm lacks (base_slice_ns on CFS, the granularities on EEVDF).
 */
int sched_tunables_set(struct sched_tunables *t, int kver, const char *assignment, char *err,
		       size_t errlen);
/* The tunables of t that differ from def, "name=value,...", or "default". */
void sched_tunables_diff(const struct sched_tunables *def, const struct sched_tunables *t,
			 char *buf, size_t len);
/* Print every tunable, one per line, "name = value". */
void sched_tunables_print(const struct sched_tunables *t, FILE *out);
/* A tunable by any of its names (as --sysctl takes them); 0, or -1 if there is none. */
int sched_tunable_get(const struct sched_tunables *t, const char *name, unsigned long long *v);

#endif
