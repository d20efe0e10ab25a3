/*
 * sim.c - setting up a simulation, and handling the engine's events.
 *
 * The engine (sim/engine.c) pops the earliest event and hands it here;
 * the handler sets the kernel's clock to it and passes it to its owner
 * (a CPU, a wake-up in flight, a timer). A run ends when the workload
 * says it is done, when no event is left (every task asleep forever:
 * reported as a deadlock), or at the max_sim_ns safety stop.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "kern/kernel.h"
#include "kern/metwin.h"
#include "kern/pelt.h"
#include "kern/timer.h"
#include "kern/topology.h"
#include "kern/wc.h"
#include "hooks.h"
#include "kern/check.h"
#include "features/features.h"

void sim_layers_build(struct sim *sim)
{
	/* The seed features are layers after the policy, in this order (features.h). */
	static const struct {
		int feat;
		const struct wakesim_policy *layer;
	} builtin[] = {
		{ __SCHED_FEAT_IDLE_DELAY, &feature_idle_delay },
		{ __SCHED_FEAT_AFFINE_SAME_LLC, &feature_affine_same_llc },
		{ __SCHED_FEAT_SIS_SHORT, &feature_sis_short },
		{ __SCHED_FEAT_IDLE_CORES_NO_SMT, &feature_idle_cores_no_smt },
	};

	sim->nr_layers = 0;
	if (sim->cfg.policy)
		sim->layer[sim->nr_layers++] = sim->cfg.policy;
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		if (sim->feat.on[builtin[i].feat])
			sim->layer[sim->nr_layers++] = builtin[i].layer;
	/* Every hook's first layer; the slots between them are never asked. */
	for (size_t s = POLICY_SLOT(init); s <= POLICY_SLOT(migrate_task); s++)
		sim->first_layer[s] = (signed char)policy_layer_of(sim, 0, s * sizeof(void (*)(void)));
}

int sim_init(struct sim *sim, const struct machine *m, const struct sim_config *cfg,
	     char *err, size_t errlen)
{
	memset(sim, 0, sizeof(*sim));
	sim->m = m;
	sim->cfg = *cfg;
	sim->feat = cfg->features;
	sim->tun = &sim->cfg.tunables;
	sim->nr_cpus = m->topo.nr_cpus;
	sim->this_cpu = -1;
	rng_seed(&sim->rng, cfg->seed);
	/* Interruptions draw apart, so profiles without them keep sim->rng's stream. */
	rng_seed(&sim->irq_rng, cfg->seed ^ 0x697271ull);
	if (pelt_load_avg_max() != LOAD_AVG_MAX) {
		snprintf(err, errlen, "internal error: PELT series does not give LOAD_AVG_MAX");
		return -1;
	}
	/* Lines' holder bits on machines over 1024 CPUs (coherence.h). */
	cacheline_arena_get();
	sim->arena_ref = true;
	if (engine_init(&sim->eng) || build_sched_domains_for(m, &sim->doms, kernel_profile(cfg->tunables.kver))) {
		snprintf(err, errlen, "out of memory building the machine model");
		sim_free(sim);
		return -1;
	}
	sim_layers_build(sim);
	sim->rq = calloc((size_t)sim->nr_cpus, sizeof(*sim->rq));
	sim->idle_tasks = calloc((size_t)sim->nr_cpus, sizeof(*sim->idle_tasks));
	if (cfg->policy && cfg->policy->cpu_data_size)
		sim->policy_cpu_data = calloc((size_t)sim->nr_cpus, cfg->policy->cpu_data_size);
	sim->core_bytes_in = calloc((size_t)m->topo.nr_cores, sizeof(u64));
	sim->llc_bytes_in = calloc((size_t)m->topo.nr_llcs, sizeof(u64));
	if (!sim->rq || !sim->idle_tasks || !sim->core_bytes_in || !sim->llc_bytes_in ||
	    (cfg->policy && cfg->policy->cpu_data_size && !sim->policy_cpu_data)) {
		snprintf(err, errlen, "out of memory");
		sim_free(sim);
		return -1;
	}
	struct cpumask none;

	cpumask_clear(&none);
	const struct cpumask *no_cpus = sim_cpumask(sim, &none);

	if (!no_cpus) {
		snprintf(err, errlen, "out of memory");
		sim_free(sim);
		return -1;
	}
	for (int d = 0; d < TG_MAX_DEPTH; d++)
		cacheline_init(&sim->tg_load_line[d]);
	if (group_lines_alloc(sim)) {
		snprintf(err, errlen, "out of memory");
		sim_free(sim);
		return -1;
	}
	int deepest_state = menu_deepest_state(m, cfg->tunables.cpu_latency_qos_ns);
	bool poll_boot = m->nr_idle_states > 0 && m->idle[deepest_state].polling;

	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		struct rq *rq = &sim->rq[cpu];

		rq->cpu = cpu;
		rq->idle = &sim->idle_tasks[cpu];
		/* Only what current is read for: wakee flips, load (0), its CPU. */
		snprintf(rq->idle->comm, sizeof(rq->idle->comm), "swapper/%d", cpu);
		rq->idle->cpu = rq->idle->wake_cpu = rq->idle->recent_used_cpu = cpu;
		rq->idle->cpus_ptr = no_cpus;	/* an idle task moves nowhere */
		cacheline_init(&rq->idle->flips_line);
		cfs_rq_init(&rq->cfs);
		rq->mode = CPU_MODE_IDLE;
		/*
		 * A booted machine has been idle a while: in the deepest state
		 * the PM QoS limit allows, tick off (nohz), unless that state
		 * polls: menu_select() then keeps the tick, and the CPU stays
		 * out of nohz (writing the limit wakes every idle CPU:
		 * cpu_latency_qos_apply() -> wake_up_all_idle_cpus()).
		 */
		rq->idle_state = deepest_state;
		rq->nohz_idle = !poll_boot;
		rq->tick_stopped = !poll_boot;
		menu_init(&rq->menu);
		/* An adapting host's window starts where the profile says. */
		for (int s = 0; s < m->nr_idle_states; s++)
			if (m->idle[s].halt_poll_max_ns)
				rq->halt_poll_ns = m->idle[s].halt_poll_ns;
		rq->speed = m->topo.cpu[cpu].speed * 100;
		rq->cpu_capacity = m->topo.cpu[cpu].capacity;
		rq->avg_idle = 2 * cfg->tunables.migration_cost_ns;
		rq->max_idle_balance_cost = cfg->tunables.migration_cost_ns;
		/* sched_init() (core.c, v5.13-v6.6) starts SIS_PROP's estimate
		 * at avg_idle, stamped with the current jiffy. */
		rq->wake_stamp = 0;
		rq->wake_avg_idle = rq->avg_idle;
		rq->last_mm_id = -1;
		cacheline_init(&rq->line);
		cacheline_init(&rq->pend_line);
		cacheline_init(&rq->curr_line);
		cacheline_init(&rq->cfs_line);
		cacheline_init(&rq->avg_line);
		cacheline_init(&rq->removed_line);
		cacheline_init(&rq->clock_line);
		cacheline_init(&rq->clock_task_line);
		cacheline_init(&rq->tasks_line);
		lock_section_init(&rq->lock);
		rq->claim_from = -1;
		rq->enq_by = -1;
		event_init(&rq->ev_run, EV_CPU_RUN, cpu, NULL);
		event_init(&rq->ev_tick, EV_CPU_TICK, cpu, NULL);
		event_init(&rq->ev_ipi, EV_CPU_IPI, cpu, NULL);
		event_init(&rq->ev_irq, EV_CPU_IRQ, cpu, NULL);
		irq_arm(sim, rq);
		if (poll_boot)
			tick_arm(sim, rq);
	}
	/*
	 * A benchmark starts on a machine that has been up and idle, not at
	 * boot: idle CPUs are out of nr_busy_cpus (nohz_balance_enter_idle()),
	 * every SMT core is idle (__update_idle_core() set has_idle_cores) and
	 * the last LLC balance saw no load, so SIS_UTIL's budget is the whole
	 * LLC (update_idle_cpu_scan() with util 0). After a domain rebuild the
	 * kernel has 0 there instead; a machine idles long enough to get here.
	 */
	for (int i = 0; i < sim->doms.nr_shared; i++) {
		struct sched_domain_shared *sds = &sim->doms.shared[i];

		/* CPUs that keep their tick count as busy (nohz_balance_exit_idle()). */
		sds->nr_busy_cpus = poll_boot ? sim->doms.cpu[sds->llc_id].sd_llc_size : 0;
		sds->has_idle_cores = sim->doms.smt_present;
		sis_budget_set(sim, sds, sim->doms.cpu[sds->llc_id].sd_llc_size);
	}
	return 0;
}

bool sim_quiescent(const struct sim *sim)
{
	int background = sim->nr_ticks_queued + sim->nr_irqs_queued +
			 (sim->wc && timer_armed(&sim->wc->timer));

	return !sim->nr_running_total && evq_size(&sim->eng.evq) <= background;
}

const struct cpumask *sim_cpumask(struct sim *sim, const struct cpumask *m)
{
	for (int i = 0; i < sim->nr_masks; i++)
		if (cpumask_equal(sim->masks[i], m))
			return sim->masks[i];
	if (sim->nr_masks == sim->cap_masks) {
		int cap = sim->cap_masks ? 2 * sim->cap_masks : 8;
		struct cpumask **n = realloc(sim->masks, sizeof(*n) * (size_t)cap);

		if (!n)
			return NULL;
		sim->masks = n;
		sim->cap_masks = cap;
	}
	struct cpumask *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	cpumask_copy(c, m);
	sim->masks[sim->nr_masks++] = c;
	return c;
}

void sim_free(struct sim *sim)
{
	/* The queue points into tasks and runqueues: release it first. */
	engine_free(&sim->eng);
	for (int i = 0; i < sim->nr_tasks; i++) {
		free(sim->tasks[i]->policy_data);
		free(sim->tasks[i]);
	}
	free(sim->policy_cpu_data);
	free(sim->met_from);
	free(sim->met_to);
	free(sim->tasks);
	if (sim->rq)
		for (int cpu = 0; cpu < sim->nr_cpus; cpu++)
			cfs_rq_free(&sim->rq[cpu].cfs);
	free(sim->rq);
	free(sim->idle_tasks);
	free(sim->core_bytes_in);
	free(sim->grp_lines);
	free(sim->llc_bytes_in);
	free_sched_domains(&sim->doms);
	if (sim->wl && sim->wl->ops->free)
		sim->wl->ops->free(sim->wl);
	for (int i = 0; i < sim->nr_masks; i++)
		free(sim->masks[i]);
	free(sim->masks);
	/* Last: the workload's lines (futexes, pipes) were in the arena too. */
	if (sim->arena_ref)
		cacheline_arena_put();
	memset(sim, 0, sizeof(*sim));
}

void sim_set_workload(struct sim *sim, struct workload *wl)
{
	sim->wl = wl;
}

static int sim_loop(struct sim *sim, char *err, size_t errlen);

int sim_run(struct sim *sim, char *err, size_t errlen)
{
	for (int l = 0; l < sim->nr_layers; l++) {
		int r = 0;

		if (sim->layer[l]->init)
			POLICY_CALL_AT(sim, l, &r, init);
		if (r) {
			snprintf(err, errlen, "policy %s: its init() returned %d, refusing the run on "
				 "machine %s", sim->layer[l]->name, r, sim->m->name);
			return -2;
		}
	}
	if (sim->wl->ops->start(sim, sim->wl, err, errlen))
		return -2;
	struct wc_checker wc;

	if (wc_start(sim, &wc, sim->tun->wc_threshold_ns)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sim->wc = &wc;
	int r = sim_loop(sim, err, errlen);

	wc_finish(sim, &wc);
	sim->wc = NULL;
	return r;
}

/* engine_ops for sim_run(): the workload ends the run. */
static bool sim_done(void *ctx)
{
	const struct sim *sim = ctx;

	return sim->wl->done;
}

static void sim_progress(void *ctx)
{
	struct sim *sim = ctx;

	sim->now = sim->eng.now;
	sim->met.events = sim->eng.events;
	sim->cfg.progress(sim, sim->cfg.progress_arg);
}

/* One event to its owner; false when the run is over (quiescent). */
static bool sim_handle(void *ctx, struct event *ev)
{
	struct sim *sim = ctx;

	sim->now = ev->time;
	sim->met.events = sim->eng.events;
	if (ev->type == EV_CPU_TICK)
		sim->nr_ticks_queued--;
	else if (ev->type == EV_CPU_IRQ)
		sim->nr_irqs_queued--;
	if (ev->type != EV_CPU_TICK && ev->type != EV_CPU_IRQ) {
		sim->active_ns = sim->now;
	} else if (sim_quiescent(sim)) {
		/*
		 * Nothing runnable and nothing but ticks and interruptions left:
		 * idle CPUs that keep their tick (a polling state) would tick on
		 * forever with nothing to balance, and interruptions come to
		 * idle CPUs too. The run is over (finished, or every task waits
		 * on another), since the last event that was neither.
		 */
		sim->now = sim->active_ns;
		return false;
	}
	switch (ev->type) {
	case EV_CPU_RUN:
		exec_handle_run(sim, ev->arg);
		break;
	case EV_CPU_TICK:
		exec_handle_tick(sim, ev->arg);
		break;
	case EV_CPU_IPI:
		exec_handle_ipi(sim, ev->arg);
		break;
	case EV_WAKE_ENQUEUE:
		ttwu_queue_event(sim, ev->ptr);
		break;
	case EV_TIMER:
		timer_handle(sim, ev->ptr);
		break;
	case EV_CPU_IRQ:
		exec_handle_irq(sim, ev->arg);
		break;
	}
#ifdef WS_DEBUG
	sim_check_invariants(sim, sim->debug_last_ns);
	sim->debug_last_ns = sim->now;
#endif
	return true;
}

/* The event loop of sim_run(), and how the run ended. */
static int sim_loop(struct sim *sim, char *err, size_t errlen)
{
	static const struct engine_ops ops = { .done = sim_done, .handle = sim_handle };
	struct engine_ops with_progress = ops;

	with_progress.progress = sim_progress;
	sim->active_ns = sim->now;
#ifdef WS_DEBUG
	sim->debug_last_ns = sim->now;
#endif
	int r = engine_run(&sim->eng, sim->cfg.progress ? &with_progress : &ops, sim,
			   sim->cfg.max_sim_ns, err, errlen);

	if (r)
		return r;
	if (sim->wl->input_error[0]) {
		snprintf(err, errlen, "%s", sim->wl->input_error);
		return -2;
	}
	if (!sim->wl->done) {
		int off = snprintf(err, errlen,
				   "deadlock: every task sleeps and nothing can wake them (at %.6f s, "
				   "%d tasks alive:", (double)sim->now / 1e9, sim->nr_alive);
		int shown = 0;

		for (int i = 0; i < sim->nr_tasks && off > 0 && (size_t)off < errlen; i++) {
			const struct task_struct *p = sim->tasks[i];

			if (p->__state == TASK_DEAD)
				continue;
			if (++shown > 8) {
				off += snprintf(err + off, errlen - (size_t)off, " ...");
				break;
			}
			off += snprintf(err + off, errlen - (size_t)off, " %s/%d", p->comm, p->pid);
		}
		if (off > 0 && (size_t)off < errlen)
			snprintf(err + off, errlen - (size_t)off, ")");
		return -3;
	}
	/* Close the per-CPU busy accounting at the end of the run. */
	for (int cpu = 0; cpu < sim->nr_cpus; cpu++)
		cpu_sync(sim, &sim->rq[cpu]);
	sis_budget_totals(sim, &sim->met.sis_budget_area, &sim->met.sis_budget_span);
	sim->met.elapsed_ns = sim->now;
	metrics_window_finish(sim);
	return 0;
}
