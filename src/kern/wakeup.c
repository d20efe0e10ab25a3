/*
 * wakeup.c - where a waking task runs: select_task_rq_fair() and the fast
 * path it calls, after kernel/sched/fair.c of v6.12: record_wakee(),
 * wake_wide(), wake_affine() with wake_affine_idle()/wake_affine_weight(),
 * select_idle_sibling(), select_idle_cpu() with the SIS_UTIL budget and the
 * cluster-first pass, select_idle_core(), select_idle_smt() and
 * test_idle_cores(). The v5.12 profile follows v5.12's forms of
 * select_idle_sibling() and select_idle_cpu() (SIS_PROP), the v6.4 and
 * v6.6 profiles those without clusters. The four seed proposals hook in
 * where their patches did; each hook names its thread.
 *
 * Every read of another CPU's state goes through available_idle_cpu() or
 * the LLC shared line, so the time this path takes follows from what it
 * reads (machine/coherence.h); sim->met counts the CPUs it examined.
 * On CPUs of unequal capacity, select_idle_capacity() and the fit tests of
 * util_fits_cpu() without uclamp. Not modelled: EAS
 * (find_energy_efficient_cpu()), uclamp, WF_CURRENT_CPU, per-CPU kthread
 * stacking (no workload has kthreads), SCHED_IDLE tasks, core scheduling.
 */
#include "hooks.h"
#include "kernel.h"
#include "pelt.h"
#include "topology.h"

#define NO_CPU (-1)

static inline bool cpus_share_cache(struct sim *sim, int a, int b)
{
	return doms_share_cache(&sim->doms, a, b);
}

static inline u64 jiffies(struct sim *sim)
{
	return sim->now / sim->tun->tick_ns;
}

/*
 * The SIS schedstats of Mel Gorman's patch count on this_rq(), the CPU
 * running the wake-up: the waker's, or prev for a timer's (no waker CPU).
 */
static inline struct rq *sis_rq(struct sim *sim)
{
	return &sim->rq[sim->this_cpu >= 0 ? sim->this_cpu : sim->plc.prev >= 0 ? sim->plc.prev : 0];
}

/* A return of the fast path: why this CPU (kern/placement.h). */
static inline int placed(struct sim *sim, enum place_reason why, int cpu)
{
	sim->plc.reason = why;
	sim->plc.dest = cpu;
	/* The answer's last read was just made: its time in the path. */
	sim->plc.check_kcost = sim->kcost_ns;
	return cpu;
}

void record_wakee(struct sim *sim, struct task_struct *waker, struct task_struct *p)
{
	/* Decay the flips at most once per second (HZ jiffies). */
	if (jiffies(sim) > waker->wakee_flip_decay_ts + sim->tun->hz) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay_ts = jiffies(sim);
	}
	if (waker->last_wakee != p) {
		waker->last_wakee = p;
		waker->wakee_flips++;
		line_write(sim, &waker->flips_line);
	}
}

/*
 * wake_wide(): a waker that keeps switching between many wakees (a
 * dispatcher) should spread them rather than pull them onto its LLC. The
 * flip counts of both must exceed the LLC size, and the larger must exceed
 * the smaller by that factor too.
 */
int wake_wide(struct sim *sim, struct task_struct *waker, struct task_struct *p)
{
	unsigned int master = waker->wakee_flips;
	unsigned int slave = p->wakee_flips;
	int factor = sim->doms.cpu[sim->this_cpu].sd_llc_size;

	/* The wakee's count was last written where it ran (its own wake-ups). */
	line_read(sim, &p->flips_line);

	if (master < slave) {
		unsigned int t = master;

		master = slave;
		slave = t;
	}
	if (slave < (unsigned int)factor || master < slave * (unsigned int)factor)
		return 0;
	return 1;
}

/*
 * S4 v6: a task is short if it never flips wakees and its average CPU time
 * between sleeps is under an eighth of the minimum granularity
 * (sis_short_ns, the EEVDF base slice / 8 by default).
 */
bool is_short_task(struct sim *sim, const struct task_struct *t)
{
	return t && t->wakee_flips == 0 && t->dur_avg != 0 && t->dur_avg < sim->tun->sis_short_ns;
}

int wake_affine_idle(struct sim *sim, int this_cpu, int prev_cpu, int sync)
{
	struct placement *pl = &sim->plc;

	/* A wake-up from an idle CPU's interrupt: prefer prev if it is idle too. */
	if (available_idle_cpu(sim, this_cpu) && cpus_share_cache(sim, this_cpu, prev_cpu)) {
		bool prev_idle = available_idle_cpu(sim, prev_cpu);

		pl->affine = prev_idle ? PA_IDLE_PREV : PA_IDLE;
		return prev_idle ? prev_cpu : this_cpu;
	}
	if (sync && sim->rq[this_cpu].nr_running == 1) {
		pl->affine = PA_SYNC;
		return this_cpu;
	}
	if (available_idle_cpu(sim, prev_cpu)) {
		pl->affine = PA_PREV_IDLE;
		return prev_cpu;
	}
	return NO_CPU;
}

int wake_affine_weight(struct sim *sim, struct sched_domain *sd, struct task_struct *p,
		       int this_cpu, int prev_cpu, int sync)
{
	struct task_struct *curr = current_task(sim);
	s64 this_eff_load, prev_eff_load;
	unsigned long task_load;

	/* Reading prev's PELT sums pulls its runqueue line. */
	line_read(sim, &sim->rq[prev_cpu].line);
	this_eff_load = (s64)cpu_load(sim, this_cpu);
	if (sync && curr) {
		unsigned long current_load = curr->se.avg.load_avg;

		if ((s64)current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= (s64)current_load;
	}
	task_load = p->se.avg.load_avg;
	this_eff_load += (s64)task_load;
	if (sched_feat(WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= (s64)capacity_of(sim, prev_cpu);

	prev_eff_load = (s64)cpu_load(sim, prev_cpu);
	prev_eff_load -= (s64)task_load;
	if (sched_feat(WA_BIAS))
		prev_eff_load *= 100 + ((s64)sd->imbalance_pct - 100) / 2;
	prev_eff_load *= (s64)capacity_of(sim, this_cpu);
	/* Sync wake-ups break ties toward the waker's CPU. */
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : NO_CPU;
}

int wake_affine(struct sim *sim, struct sched_domain *sd, struct task_struct *p, int this_cpu,
		int prev_cpu, int sync)
{
	int target = NO_CPU;

	if (sched_feat(WA_IDLE)) {
		if (POLICY_HAS(sim, wake_affine_idle))
			POLICY_DECIDE_CPU(sim, &target, 1, wake_affine_idle, this_cpu, prev_cpu, sync);
		else
			target = wake_affine_idle(sim, this_cpu, prev_cpu, sync);
	}
	if (target == NO_CPU) {
		if (sched_feat(WA_WEIGHT) && POLICY_HAS(sim, wake_affine_weight))
			POLICY_DECIDE_CPU(sim, &target, 1, wake_affine_weight, sd, p, this_cpu, prev_cpu,
					sync);
		else if (sched_feat(WA_WEIGHT))
			target = wake_affine_weight(sim, sd, p, this_cpu, prev_cpu, sync);
		sim->plc.affine = target == this_cpu ? PA_WEIGHT : PA_WEIGHT_PREV;
	}
	if (target != this_cpu)
		return prev_cpu;
	sd->ttwu_move_affine++; /* wake_affine()'s schedstat (fair.c, v6.12) */
	return this_cpu;
}

/* test_idle_cores(): the LLC's has_idle_cores, a read of its shared line. */
bool test_idle_cores(struct sim *sim, int cpu)
{
	struct sched_domain_shared *sds = sim->doms.cpu[cpu].sd_llc_shared;

	if (!sds)
		return false;
	line_read(sim, &sds->line);
	return sds->has_idle_cores;
}

void set_idle_cores(struct sim *sim, int cpu, int val)
{
	struct sched_domain_shared *sds = sim->doms.cpu[cpu].sd_llc_shared;

	if (!sds)
		return;
	line_write(sim, &sds->line);
	sds->has_idle_cores = val;
}

/*
 * available_idle_cpu(cpu) || sched_idle_cpu(cpu), as select_idle_sibling()
 * and its scans test a CPU: the second's reads are paid when the first
 * says no. No SCHED_IDLE task is modelled, so only the first can say yes.
 */
static bool idle_or_sched_idle(struct sim *sim, int cpu)
{
	if (available_idle_cpu(sim, cpu))
		return true;
	sched_idle_cpu_reads(sim, cpu);
	return false;
}

/* __select_idle_cpu(): no SCHED_IDLE tasks or core cookies are modelled. */
int __select_idle_cpu(struct sim *sim, int cpu)
{
	charge(sim, sim->m->costs.scan_cpu_ns);
	sim->met.sis_scanned++;
	sis_rq(sim)->sis_scanned++;
	return idle_or_sched_idle(sim, cpu) ? cpu : NO_CPU;
}


/*
 * select_idle_core(): the core is returned only if all its threads are
 * idle; the first idle thread seen is kept as a fallback, and a busy
 * core's threads leave the scan.
 */
int select_idle_core(struct sim *sim, int core, struct cpumask *cpus, int *idle_cpu)
{
	bool idle = true;
	int cpu, k;

	for_each_smt_cpu(cpu, k, sim->m, core) {
		charge(sim, sim->m->costs.scan_cpu_ns);
		sim->met.sis_scanned++;
		sis_rq(sim)->sis_scanned++;
		if (!available_idle_cpu(sim, cpu)) {
			idle = false;
			if (*idle_cpu == NO_CPU) {
				sched_idle_cpu_reads(sim, cpu);
				continue;
			}
			break;
		}
		if (*idle_cpu == NO_CPU && cpumask_test_cpu(cpu, cpus)) {
			*idle_cpu = cpu;
			/* Read now; returned, if no core is idle, after the whole scan. */
			sim->plc.idle_seen_kcost = sim->kcost_ns;
		}
	}
	if (idle)
		return core;
	/* cpumask_andnot(cpus, cpus, smt), without a pass over every word */
	for_each_smt_cpu(cpu, k, sim->m, core)
		cpumask_clear_cpu(cpu, cpus);
	return NO_CPU;
}

/* select_idle_smt(): an idle SMT sibling of target (prev's core). */
int select_idle_smt(struct sim *sim, struct task_struct *p, struct sched_domain *sd, int target)
{
	int cpu, k;

	for_each_smt_cpu(cpu, k, sim->m, target) {
		if (cpu == target)
			continue;
		if (!cpumask_test_cpu(cpu, p->cpus_ptr) || !cpumask_test_cpu(cpu, &sd->span))
			continue;
		charge(sim, sim->m->costs.scan_cpu_ns);
		sim->met.sis_scanned++;
		sis_rq(sim)->sis_scanned++;
		if (idle_or_sched_idle(sim, cpu))
			return cpu;
	}
	return NO_CPU;
}

/*
 * After the LLC scan: its answer, placed (and its read timed) by the scan
 * itself, or target when it found none.
 */
static int scan_placed(struct sim *sim, int i, int target)
{
	if (i == NO_CPU)
		return placed(sim, sim->plc.reason, target);
	sim->plc.dest = i;
	return i;
}

#define SCAN_NEXT (-2)
#define SCAN_IDLE_CPU (-3)

/* What ended the scan early: an idle core, an idle CPU, or the budget. */
static int scan_end(struct sim *sim, int i, int idle_cpu)
{
	if (i == SCAN_IDLE_CPU)
		return placed(sim, PR_SCAN_IDLE_CPU, idle_cpu);
	return placed(sim, i != NO_CPU ? PR_SCAN_IDLE_CORE : PR_SCAN_BUDGET_SPENT, i);
}

/*
 * One step of select_idle_cpu()'s scan at cpu: in idle-core mode the core
 * if it is wholly idle (no budget used), else the budget is spent on one
 * CPU. Returns a CPU (an idle core), NO_CPU (budget exhausted),
 * SCAN_IDLE_CPU (*idle_cpu is an idle CPU: stop) or SCAN_NEXT.
 */
static int scan_one(struct sim *sim, struct task_struct *p, int cpu, struct cpumask *cpus,
		    bool has_idle_core, int *nr, int *idle_cpu)
{
	if (has_idle_core) {
		int i;

		if (POLICY_HAS(sim, select_idle_core)) {
			POLICY_DECIDE_CPU(sim, &i, 1, select_idle_core, p, cpu, cpus, idle_cpu);
			POLICY_CPU_CHECK(sim, select_idle_core, *idle_cpu, 1);
		} else {
			i = select_idle_core(sim, cpu, cpus, idle_cpu);
		}

		return i != NO_CPU ? i : SCAN_NEXT;
	}
	if (--*nr <= 0)
		return NO_CPU;
	if (POLICY_HAS(sim, sis_scan_cpu))
		POLICY_DECIDE_CPU(sim, idle_cpu, 1, sis_scan_cpu, p, cpu);
	else
		*idle_cpu = __select_idle_cpu(sim, cpu);
	return *idle_cpu != NO_CPU ? SCAN_IDLE_CPU : SCAN_NEXT;
}

/*
 * SIS_PROP's budget (v5.12's default, off from v6.0): as many CPUs as the
 * waking CPU's expected idle time buys at the LLC's average scan cost,
 * at least 4. v5.12 expected avg_idle / 512 (a "fuzz factor"); v5.13 on
 * use wake_avg_idle, halved for every jiffy since the CPU last woke from
 * idle (ttwu_do_activate()).
 */
static int sis_prop_budget(struct sim *sim, struct sched_domain *sd, struct sched_domain *this_sd,
			   int this)
{
	struct rq *this_rq = &sim->rq[this];
	u64 avg_idle;

	if (sim->tun->kver == KV_5_12) {
		avg_idle = this_rq->avg_idle / 512;
	} else {
		while (this_rq->wake_stamp < jiffies(sim) && this_rq->wake_avg_idle) {
			this_rq->wake_stamp++;
			this_rq->wake_avg_idle >>= 1;
		}
		avg_idle = this_rq->wake_avg_idle;
	}
	u64 avg_cost = this_sd->avg_scan_cost + 1;
	u64 span_avg = (u64)sd->span_weight * avg_idle;

	if (span_avg <= 4 * avg_cost)
		return 4;
	return span_avg / avg_cost < (1u << 30) ? (int)(span_avg / avg_cost) : 1 << 30;
}

/* After a SIS_PROP scan that found a CPU: fold its time into avg_scan_cost. */
static void sis_prop_account(struct sim *sim, struct sched_domain *this_sd, int this, u64 time)
{
	struct rq *this_rq = &sim->rq[this];

	if (sim->tun->kver != KV_5_12)
		this_rq->wake_avg_idle -= this_rq->wake_avg_idle < time ? this_rq->wake_avg_idle : time;
	/* update_avg(): an eighth of the way to the new sample. */
	this_sd->avg_scan_cost = (u64)((s64)this_sd->avg_scan_cost +
				       ((s64)time - (s64)this_sd->avg_scan_cost) / 8);
}

/*
 * select_idle_cpu(): scan the LLC for an idle core (if the LLC has one) or
 * an idle CPU, starting next to target (v5.12: at target). SIS_UTIL bounds
 * the scan to nr_idle_scan CPUs, which periodic balancing derives from the
 * LLC's utilisation (zero, no scan, above ~85%); SIS_PROP (older kernels)
 * by the waking CPU's idle time. With clusters, the target's cluster is
 * scanned first (v6.7+, the mainline profile).
 */
static int select_idle_cpu_scan(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
				bool has_idle_core, int target);

/* select_idle_cpu(), with the CPU time of its scan accounted (met.scan_ns). */
int select_idle_cpu(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
		    bool has_idle_core, int target)
{
	u64 k0 = sim->kcost_ns;
	int cpu = select_idle_cpu_scan(sim, p, sd, has_idle_core, target);

	sim->met.scan_ns += sim->kcost_ns - k0;
	sim->met.sis_failed += cpu == NO_CPU;
	sis_rq(sim)->sis_failed += cpu == NO_CPU;
	return cpu;
}

/*
 * select_idle_cpu()'s walk over cpus from first, with nr the budget left
 * and idle_cpu an idle CPU already seen (the cluster pass's), to its end:
 * an idle core or CPU, placed with the time of its read, or none. Where
 * it stopped is kept (plc.scan_next, plc.scan_nr): a wake-up whose CPU was
 * taken before its path read it goes on from there (core.c).
 */
static int scan_llc_from(struct sim *sim, struct task_struct *p, struct cpumask *cpus,
			 bool has_idle_core, int target, int first, int nr, int idle_cpu,
			 struct sched_domain *prop_sd, u64 t0)
{
	bool v5_12 = sim->tun->kver == KV_5_12;
	int this = sim->this_cpu >= 0 ? sim->this_cpu : target;
	int cpu;

	for_each_cpu_wrap(cpu, cpus, first) {
		int i = scan_one(sim, p, cpu, cpus, has_idle_core, &nr, &idle_cpu);

		if (i == SCAN_NEXT)
			continue;
		sim->plc.scan_next = (cpu + 1) % sim->nr_cpus;
		sim->plc.scan_nr = nr;
		if (i == SCAN_IDLE_CPU)
			break;
		return scan_end(sim, i, idle_cpu);
	}
	/* v5.12 cleared the flag of the waking CPU's LLC, later the target's. */
	if (has_idle_core)
		set_idle_cores(sim, v5_12 ? this : target, 0);
	if (prop_sd)
		sis_prop_account(sim, prop_sd, this, sim->kcost_ns - t0);
	if (idle_cpu == NO_CPU)
		return placed(sim, PR_SCAN_EXHAUSTED, NO_CPU);
	placed(sim, PR_SCAN_IDLE_CPU, idle_cpu);
	/* An idle-core scan's fallback was read when first seen, not now:
	 * its continuation looks for any idle CPU past it. */
	if (has_idle_core) {
		sim->plc.check_kcost = sim->plc.idle_seen_kcost;
		sim->plc.scan_next = (idle_cpu + 1) % sim->nr_cpus;
		sim->plc.scan_nr = 1 << 30;
	}
	return idle_cpu;
}

int select_idle_cpu_resume(struct sim *sim, struct task_struct *p, int target, bool has_idle_core,
			   int from, int nr)
{
	struct sched_domain *sd = sim->doms.cpu[target].sd_llc;
	struct cpumask cpus;
	u64 k0 = sim->kcost_ns;

	if (!sd)
		return target;
	cpumask_and(&cpus, &sd->span, p->cpus_ptr);
	int i = scan_llc_from(sim, p, &cpus, has_idle_core, target, from, nr, NO_CPU, NULL, 0);

	/* Its time and its failure are the one select_idle_cpu() call's. */
	sim->met.scan_ns += sim->kcost_ns - k0;
	sim->met.sis_failed += i == NO_CPU;
	sis_rq(sim)->sis_failed += i == NO_CPU;
	return i != NO_CPU ? i : placed(sim, sim->plc.reason, target);
}

static int select_idle_cpu_scan(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
				bool has_idle_core, int target)
{
	struct cpumask cpus;
	int nr = 1 << 30, cpu, idle_cpu = NO_CPU;
	int this_cpu = sim->this_cpu;
	int this = this_cpu >= 0 ? this_cpu : target;
	bool v5_12 = sim->tun->kver == KV_5_12;
	struct sched_domain *this_sd = sim->doms.cpu[this].sd_llc;
	bool prop = sched_feat(SIS_PROP) && !has_idle_core && this_sd;
	u64 t0 = 0;

	sim->met.sis_calls++;
	sis_rq(sim)->sis_domain_search++;
	/* v5.12 read this CPU's sd_llc before the scan and gave up without
	 * one; v5.13 on take the scanned domain's span alone. */
	if (v5_12 && !this_sd)
		return placed(sim, PR_NO_LLC, NO_CPU);
	cpumask_and(&cpus, &sd->span, p->cpus_ptr);
	if (prop) {
		nr = sis_prop_budget(sim, sd, this_sd, this);
		t0 = sim->kcost_ns;
	}
	if (sched_feat(SIS_UTIL)) {
		struct sched_domain_shared *sds = sim->doms.cpu[target].sd_llc_shared;

		if (sds) {
			line_read(sim, &sds->line);
			/* +1: the loop below pre-decrements. */
			nr = sds->nr_idle_scan + 1;
			/* A policy's ->sis_scan_budget may still give one, below. */
			if (nr == 1 && !POLICY_HAS(sim, sis_scan_budget))
				return placed(sim, PR_SCAN_NO_BUDGET, NO_CPU);
		}
	}
	if (POLICY_HAS(sim, sis_scan_budget)) {
		int take;

		POLICY_DECIDE_CPU(sim, &take, 1, sis_scan_budget, p, sd, has_idle_core, target, &nr);
		if (take != NO_CPU)
			return placed(sim, sim->plc.take_reason, take);
		if (nr <= 1)
			return placed(sim, PR_SCAN_NO_BUDGET, NO_CPU);
	}
	/* The target's cluster first: v6.7's "Scan cluster before scanning
	 * LLC in wake-up path", in mainline's profile only. */
	if (sim->tun->kver == KV_MAINLINE && sim->doms.cluster_active &&
	    (sd->groups->flags & SD_CLUSTER)) {
		const struct cpumask *cluster = &sd->groups->span;

		for_each_cpu_wrap(cpu, cluster, target + 1) {
			if (!cpumask_test_cpu(cpu, &cpus))
				continue;
			int i = scan_one(sim, p, cpu, &cpus, has_idle_core, &nr, &idle_cpu);

			/* In the cluster pass any idle CPU ends the search. */
			if (i != SCAN_NEXT) {
				sim->plc.scan_next = (cpu + 1) % sim->nr_cpus;
				sim->plc.scan_nr = nr;
				return scan_end(sim, i, idle_cpu);
			}
		}
		cpumask_andnot(&cpus, &cpus, cluster);
	}
	int first = v5_12 ? target : target + 1;

	if (POLICY_HAS(sim, sis_scan_first)) {
		POLICY_CALL_RET(sim, &first, sis_scan_first, p, sd, target);
		/* Any int a policy returns names a CPU, as the walk wraps. */
		first = (first % sim->nr_cpus + sim->nr_cpus) % sim->nr_cpus;
	}
	return scan_llc_from(sim, p, &cpus, has_idle_core, target, first, nr, idle_cpu,
			     prop ? this_sd : NULL, t0);
}

/*
 * test_idle_cores() as select_idle_sibling() calls it: with SMT, the LLC's
 * flag; without, nothing, unless S1 is reversed (IDLE_CORES_NO_SMT, the
 * v5.12 default): then the flag's line is read for a flag never set.
 */
static bool sis_idle_cores(struct sim *sim, int target)
{
	if (sim->doms.smt_present)
		return test_idle_cores(sim, target);
	return false;
}

/* fits_capacity(): util fits cap with 20% headroom (util x 1.25 < cap, capacity 0..1024). */
static inline bool fits_capacity(unsigned long util, unsigned long cap)
{
	return util * 1280 < cap * 1024;
}

/*
 * util_fits_cpu() (v6.2+) for tasks without uclamp (uclamp_min 0,
 * uclamp_max 1024): reduces to fits_capacity() against the CPU's current
 * capacity, as v5.12's select_idle_capacity() tested it. 1 or 0.
 */
static int util_fits_cpu(struct sim *sim, unsigned long util, int cpu)
{
	return fits_capacity(util, capacity_of(sim, cpu));
}

/* asym_fits_cpu(): any CPU fits on a symmetric machine. */
static bool asym_fits_cpu(struct sim *sim, unsigned long util, int cpu)
{
	return !sim->doms.asym_cpucap_active || util_fits_cpu(sim, util, cpu) > 0;
}

/*
 * select_idle_capacity(): on CPUs of unequal capacity, the first idle CPU
 * (from target, wrapping) the task's utilisation fits; failing that, the
 * idle CPU of the highest capacity. NO_CPU if none is idle.
 */
static int select_idle_capacity(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
				int target, unsigned long task_util)
{
	struct cpumask cpus;
	unsigned long best_cap = 0;
	int cpu, best_cpu = NO_CPU, best_fits = 2;
	u64 k0 = sim->kcost_ns;

	sim->met.sis_calls++;
	sis_rq(sim)->sis_domain_search++;
	cpumask_and(&cpus, &sd->span, p->cpus_ptr);
	for_each_cpu_wrap(cpu, &cpus, target) {
		unsigned long cap = capacity_of(sim, cpu);

		charge(sim, sim->m->costs.scan_cpu_ns);
		sim->met.sis_scanned++;
		sis_rq(sim)->sis_scanned++;
		if (!idle_or_sched_idle(sim, cpu))
			continue;
		int fits = util_fits_cpu(sim, task_util, cpu);

		if (fits > 0) {
			best_cpu = cpu;
			break;
		}
		if (fits < best_fits || (fits == best_fits && cap > best_cap)) {
			best_cap = cap;
			best_cpu = cpu;
			best_fits = fits;
		}
	}
	sim->met.scan_ns += sim->kcost_ns - k0;
	sim->met.sis_failed += best_cpu == NO_CPU;
	sis_rq(sim)->sis_failed += best_cpu == NO_CPU;
	return placed(sim, best_cpu != NO_CPU ? PR_CAPACITY : PR_SCAN_EXHAUSTED, best_cpu);
}

/* sync_entity_load_avg(): a sleeping task's util decayed to now. */
static unsigned long waking_task_util(struct sim *sim, struct task_struct *p)
{
	if (!p->se.on_rq)
		pelt_update(&p->se.avg, rq_clock_task(sim, cpu_rq(sim, task_cpu(p))), 0, 0, 0,
			    p->se.weight);
	return task_util_est(p);
}

/*
 * Whether select_idle_sibling() takes its cheap candidate cpu (which:
 * target, prev or the recently used CPU) before any scan, in the order
 * the kernel tests it (its line reads are charged as they come). fits:
 * the capacity check of v5.16 on (asym_fits_cpu(), util the task's).
 */
static inline bool candidate_test(struct sim *sim, struct task_struct *p, int which, int cpu,
				  int prev, int target, unsigned long util, bool fits)
{
	switch (which) {
	case SIS_TARGET:
		return idle_or_sched_idle(sim, cpu) && (!fits || asym_fits_cpu(sim, util, cpu));
	case SIS_PREV:
		return cpu != target && cpus_share_cache(sim, cpu, target) &&
		       idle_or_sched_idle(sim, cpu) && (!fits || asym_fits_cpu(sim, util, cpu));
	case SIS_RECENT:
		return cpu != prev && cpu != target && cpus_share_cache(sim, cpu, target) &&
		       idle_or_sched_idle(sim, cpu) && cpumask_test_cpu(cpu, p->cpus_ptr) &&
		       (!fits || asym_fits_cpu(sim, util, cpu));
	}
	return false;
}

bool sis_candidate(struct sim *sim, struct task_struct *p, int which, int cpu, int prev,
		   int target, unsigned long util, bool fits)
{
	return candidate_test(sim, p, which, cpu, prev, target, util, fits);
}

/* sis_candidate() as the run's policy may redefine it (->sis_candidate). */
static inline bool candidate(struct sim *sim, struct task_struct *p, int which, int cpu, int prev,
			     int target, unsigned long util, bool fits)
{
	bool r;

	if (!POLICY_HAS(sim, sis_candidate))
		return candidate_test(sim, p, which, cpu, prev, target, util, fits);
	POLICY_CALL_RET(sim, &r, sis_candidate, p, which, cpu, prev, target);
	return r;
}

/* select_idle_cpu() as the run's policy may redefine it (->select_idle_cpu). */
static int idle_cpu_search(struct sim *sim, struct task_struct *p, struct sched_domain *sd,
			   bool has_idle_core, int target)
{
	int r;

	if (!POLICY_HAS(sim, select_idle_cpu))
		return select_idle_cpu(sim, p, sd, has_idle_core, target);
	POLICY_DECIDE_CPU(sim, &r, 1, select_idle_cpu, p, sd, has_idle_core, target);
	return r;
}

/*
 * select_idle_sibling() of v5.12 (--kernel v5.12): target, prev, then the
 * recently used CPU, which is replaced by prev only when it is taken; no
 * SMT-sibling step (v5.13 brought select_idle_smt() back); the LLC scan.
 */
static int select_idle_sibling_v5_12(struct sim *sim, struct task_struct *p, int prev, int target)
{
	struct sched_domain *sd;
	int i, r = p->recent_used_cpu;

	/* Asymmetric capacity came first in v5.12 (after prev/recent from v5.16). */
	sd = sim->doms.cpu[target].sd_asym_cpucapacity;
	if (sim->doms.asym_cpucap_active && sd) {
		i = select_idle_capacity(sim, p, sd, target, waking_task_util(sim, p));
		return placed(sim, sim->plc.reason, i != NO_CPU ? i : target);
	}
	if (candidate(sim, p, SIS_TARGET, target, prev, target, 0, false))
		return placed(sim, PR_TARGET_IDLE, target);
	if (candidate(sim, p, SIS_PREV, prev, prev, target, 0, false))
		return placed(sim, PR_PREV_IDLE, prev);
	if (candidate(sim, p, SIS_RECENT, r, prev, target, 0, false)) {
		p->recent_used_cpu = prev;
		return placed(sim, PR_RECENT_IDLE, r);
	}
	sd = sim->doms.cpu[target].sd_llc;
	if (!sd)
		return placed(sim, PR_NO_LLC, target);
	i = idle_cpu_search(sim, p, sd, sis_idle_cores(sim, target), target);
	return scan_placed(sim, i, target);
}

/*
 * select_idle_sibling(): the fast path. Cheap candidates first (target,
 * prev, the recently used CPU), then prev's SMT siblings, then the LLC
 * scan; stack on target when nothing is idle. Clusters (mainline, v6.7+)
 * make prev and the recent CPU fallbacks when they are in another cluster.
 */
int select_idle_sibling(struct sim *sim, struct task_struct *p, int prev, int target)
{
	struct sched_domain *sd;
	bool has_idle_core = false;
	int i, recent_used_cpu, prev_aff = NO_CPU;
	bool clusters = sim->doms.cluster_active && sim->tun->kver == KV_MAINLINE;
	bool asym = sim->doms.asym_cpucap_active;
	unsigned long util = asym ? waking_task_util(sim, p) : 0;

	sim->plc.sis_prev = prev;
	sim->plc.sis_target = target;
	/* A wake-up's re-read goes on with the call it belongs to (core.c). */
	if (!sim->plc.resumed) {
		sim->met.sis_search++;
		sis_rq(sim)->sis_search++;
	}
	if (sim->tun->kver == KV_5_12)
		return select_idle_sibling_v5_12(sim, p, prev, target);
	if (candidate(sim, p, SIS_TARGET, target, prev, target, util, true))
		return placed(sim, PR_TARGET_IDLE, target);
	if (candidate(sim, p, SIS_PREV, prev, prev, target, util, true)) {
		if (!clusters || doms_share_resources(&sim->doms, prev, target))
			return placed(sim, PR_PREV_IDLE, prev);
		prev_aff = prev;
	}
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (candidate(sim, p, SIS_RECENT, recent_used_cpu, prev, target, util, true)) {
		if (!clusters || doms_share_resources(&sim->doms, recent_used_cpu, target))
			return placed(sim, PR_RECENT_IDLE, recent_used_cpu);
	} else {
		recent_used_cpu = NO_CPU;
	}
	/* On CPUs of unequal capacity the search spans sd_asym_cpucapacity. */
	sd = sim->doms.cpu[target].sd_asym_cpucapacity;
	if (asym && sd) {
		i = select_idle_capacity(sim, p, sd, target, util);
		return placed(sim, sim->plc.reason, i != NO_CPU ? i : target);
	}
	sd = sim->doms.cpu[target].sd_llc;
	if (!sd)
		return placed(sim, PR_NO_LLC, target);
	has_idle_core = sis_idle_cores(sim, target);
	if (sim->doms.smt_present && !has_idle_core && cpus_share_cache(sim, prev, target)) {
		if (POLICY_HAS(sim, select_idle_smt))
			POLICY_DECIDE_CPU(sim, &i, 1, select_idle_smt, p, sd, prev);
		else
			i = select_idle_smt(sim, p, sd, prev);
		if (i != NO_CPU)
			return placed(sim, PR_SMT_SIBLING, i);
	}
	i = idle_cpu_search(sim, p, sd, has_idle_core, target);
	if (i != NO_CPU)
		return scan_placed(sim, i, target);
	if (prev_aff != NO_CPU)
		return placed(sim, PR_PREV_OTHER_CLUSTER, prev_aff);
	if (recent_used_cpu != NO_CPU)
		return placed(sim, PR_RECENT_OTHER_CLUSTER, recent_used_cpu);
	/* The scan's failure (no budget, budget spent, exhausted) is the reason. */
	return placed(sim, sim->plc.reason, target);
}

int select_task_rq_fair(struct sim *sim, struct task_struct *p, int prev_cpu, int wake_flags)
{
	struct task_struct *waker = current_task(sim);
	int sync = (wake_flags & WF_SYNC) && waker;
	int sd_flag = wake_flags & 0xF;
	struct sched_domain *tmp, *sd = NULL;
	int cpu = sim->this_cpu >= 0 ? sim->this_cpu : prev_cpu;
	int new_cpu = prev_cpu;
	int want_affine = 0;

	struct placement *pl = &sim->plc;

	charge(sim, sim->m->costs.select_ns);
	pl->sync = sync;
	pl->affine = !(wake_flags & WF_TTWU) ? PA_NONE : waker ? PA_NO_DOMAIN : PA_NO_WAKER;
	if ((wake_flags & WF_TTWU) && waker) {
		record_wakee(sim, waker, p);
		/*
		 * S3 "don't depend on wake_wide if waker and wakee are already
		 * in same LLC": the affine path always runs within an LLC.
		 */
		int wide;

		if (POLICY_HAS(sim, wake_wide))
			POLICY_CALL_RET(sim, &wide, wake_wide, p);
		else
			wide = wake_wide(sim, waker, p);

		want_affine = !wide && cpumask_test_cpu(cpu, p->cpus_ptr);
		if (wide && !want_affine)
			pl->affine = PA_WIDE;
	}
	for_each_domain(sim, cpu, tmp) {
		/* The lowest domain holding both CPUs decides between them. */
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) &&
		    cpumask_test_cpu(prev_cpu, &tmp->span)) {
			if (cpu != prev_cpu && POLICY_HAS(sim, wake_affine))
				POLICY_DECIDE_CPU(sim, &new_cpu, 0, wake_affine, tmp, p, cpu, prev_cpu,
						  sync);
			else if (cpu != prev_cpu)
				new_cpu = wake_affine(sim, tmp, p, cpu, prev_cpu, sync);
			else
				pl->affine = PA_WAKER_IS_PREV;
			sd = NULL;
			break;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}
	pl->target = new_cpu;
	if (sd) {
		new_cpu = find_idlest_cpu(sim, sd, p, cpu, prev_cpu, sd_flag);
	} else if (wake_flags & WF_TTWU) {
		if (POLICY_HAS(sim, select_idle_sibling))
			POLICY_DECIDE_CPU(sim, &new_cpu, 0, select_idle_sibling, p, prev_cpu, new_cpu);
		else
			new_cpu = select_idle_sibling(sim, p, prev_cpu, new_cpu);
		/* Until v5.16 an affine wake-up also made the waking CPU the
		 * waker's recently used one. */
		if (want_affine && sim->tun->kver == KV_5_12)
			waker->recent_used_cpu = cpu;
	} else {
		/* A fork no domain balances stays on the parent's CPU. */
		placed(sim, PR_FORK_BALANCE, new_cpu);
	}
	return new_cpu;
}
