/*
 * balance.c - load balancing as far as it shapes wake-up placement, after
 * kernel/sched/fair.c of v6.12: sched_balance_rq() with should_we_balance(),
 * update_sd_lb_stats()/update_sg_lb_stats(), update_sd_pick_busiest(),
 * sched_balance_find_src_group() and calculate_imbalance(),
 * sched_balance_find_src_rq(), detach_tasks() with can_migrate_task() and
 * task_hot(); the periodic sched_balance_domains() from the tick; nohz idle
 * balancing; sched_balance_newidle(); and update_idle_cpu_scan(), which is
 * where SIS_UTIL's nr_idle_scan comes from.
 *
 * Simplifications (docs/kernel-model.md): no active balancing of running
 * tasks, no misfit/asym classes, no NI_RANDOM; the nohz idle balance runs
 * for the idle CPUs at the moment a busy CPU's tick kicks it, instead of
 * after the kicked CPU wakes; the cost of a balance pass is the cache lines
 * it reads (one per runqueue examined) plus scan_cpu_ns per CPU.
 */
#include <limits.h>

#include "kernel.h"
#include "lb.h"
#include "hooks.h"

enum migration_type { migrate_load, migrate_util, migrate_task };

#define SCHED_NR_MIGRATE 32	/* sysctl_sched_nr_migrate */

struct lb_env {
	struct sched_domain *sd;
	int dst_cpu;
	enum cpu_idle_type idle;
	long imbalance;
	enum migration_type migration_type;
};

struct sd_lb_stats {
	struct sched_group *busiest, *local;
	unsigned long total_load, total_capacity, avg_load;
	struct sg_stats busiest_stat, local_stat;
	bool prefer_sibling;
};

/* Balancing reads a remote runqueue: its line, and the loop's own work. */
static void read_rq(struct sim *sim, int cpu)
{
	line_read(sim, &sim->rq[cpu].line);
	charge(sim, sim->m->costs.scan_cpu_ns);
}

static bool is_core_idle(struct sim *sim, int cpu)
{
	int c, k;

	for_each_smt_cpu(c, k, sim->m, cpu)
		if (c != cpu && !idle_cpu(sim, c))
			return false;
	return true;
}

/*
 * should_we_balance(): one CPU balances a group per level: the first idle
 * CPU with an idle core, else the first idle CPU, else the group's first.
 */
static bool should_we_balance(struct sim *sim, struct lb_env *env)
{
	struct sched_group *sg = env->sd->groups;
	int cpu, k, idle_smt = -1;

	if (env->idle == CPU_NEWLY_IDLE)
		return !sim->rq[env->dst_cpu].nr_running && !sim->rq[env->dst_cpu].ttwu_pending;
	for_each_group_cpu(cpu, k, sg) {
		if (!idle_cpu(sim, cpu))
			continue;
		if (!(env->sd->flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(sim, cpu)) {
			if (idle_smt == -1)
				idle_smt = cpu;
			continue;
		}
		return cpu == env->dst_cpu;
	}
	if (idle_smt != -1)
		return idle_smt == env->dst_cpu;
	return cpumask_first(&sg->span) == env->dst_cpu;
}

/*
 * load * 1024 / capacity, the kernel's avg_load: a shift where the
 * capacity is a power of two (an SMT core's 2 x 1024 and most groups of
 * symmetric machines), since the balancer divides once per group it visits.
 */
static inline unsigned long scale_load_to(unsigned long load, unsigned long capacity)
{
	if (capacity && !(capacity & (capacity - 1)))
		return (load * 1024) >> __builtin_ctzl(capacity);
	return load * 1024 / capacity;
}

/* cpu_overutilized() without uclamp: util_fits_cpu() is fits_capacity(). */
static bool cpu_overutilized(struct sim *sim, int cpu)
{
	return cpu_util_cfs(sim, cpu) * 1280 >= capacity_of(sim, cpu) * 1024;
}

/* Up to v6.8 the root domain's flags were stored at every top-level
 * balance; from v6.9/v6.10 only when they change, and overutilized only
 * under EAS (set_rd_overloaded(), set_rd_overutilized(), v6.12). */
static bool rd_flags_always_stored(const struct sim *sim)
{
	return !kernel_profile(sim->tun->kver)->rd_flags_on_change;
}

void set_rd_overloaded(struct sim *sim)
{
	struct root_domain *rd = &sim->doms.rd;

	line_read(sim, &rd->line);
	if (!rd->overloaded) {
		line_write(sim, &rd->line);
		rd->overloaded = true;
	}
}

void update_overutilized_status(struct sim *sim, struct rq *rq)
{
	struct root_domain *rd = &sim->doms.rd;

	if (!rd_flags_always_stored(sim))
		return; /* is_rd_overutilized() is true without EAS: nothing read */
	line_read(sim, &rd->line);
	if (!rd->overutilized && cpu_overutilized(sim, rq->cpu)) {
		line_write(sim, &rd->line);
		rd->overutilized = true;
	}
}

/* update_sd_lb_stats()'s end at the top level: the flags from what it saw. */
static void update_rd_flags(struct sim *sim, bool overloaded, bool overutilized)
{
	struct root_domain *rd = &sim->doms.rd;

	if (rd_flags_always_stored(sim)) {
		line_write(sim, &rd->line);
		rd->overloaded = overloaded;
		rd->overutilized = overutilized;
		return;
	}
	line_read(sim, &rd->line);
	if (rd->overloaded != overloaded) {
		line_write(sim, &rd->line);
		rd->overloaded = overloaded;
	}
}

static void update_sg_lb_stats(struct sim *sim, struct sched_group *group, struct lb_env *env,
			       struct sg_stats *sgs, bool *sg_overloaded, bool *sg_overutilized)
{
	int i, k;

	*sgs = (struct sg_stats){ 0 };
	for_each_group_cpu(i, k, group) {
		struct rq *rq = &sim->rq[i];

		read_rq(sim, i);
		sgs->group_load += cpu_load(sim, i);
		sgs->group_util += cpu_util_cfs(sim, i);
		sgs->group_runnable += rq->cfs.avg.runnable_avg;
		sgs->sum_nr_running += rq->nr_running;
		/* Only a top-level balance stores them (NULL elsewhere): not
		 * computed for each CPU of every pass. */
		if (sg_overloaded && rq->nr_running > 1)
			*sg_overloaded = true;
		if (sg_overutilized && !*sg_overutilized && cpu_overutilized(sim, i))
			*sg_overutilized = true;
		if (!rq->nr_running && idle_cpu(sim, i))
			sgs->idle_cpus++;
	}
	sgs->group_capacity = group->capacity;
	sgs->group_weight = group->weight;
	sgs->group_type = group_classify(env->sd->imbalance_pct, sgs);
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = scale_load_to(sgs->group_load, sgs->group_capacity);
}

static bool update_sd_pick_busiest(struct sd_lb_stats *sds, const struct sg_stats *sgs)
{
	const struct sg_stats *busiest = &sds->busiest_stat;

	if (!sgs->sum_nr_running)
		return false;
	if (!sds->busiest)
		return true;
	if (sgs->group_type > busiest->group_type)
		return true;
	if (sgs->group_type < busiest->group_type)
		return false;
	switch (sgs->group_type) {
	case group_overloaded:
		return sgs->avg_load > busiest->avg_load;
	case group_fully_busy:
		return sgs->avg_load > busiest->avg_load;
	case group_has_spare:
		/* Fewest idle CPUs, then most running tasks. */
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		if (sgs->idle_cpus == busiest->idle_cpus &&
		    sgs->sum_nr_running <= busiest->sum_nr_running)
			return false;
		return true;
	}
	return false;
}

/*
 * update_idle_cpu_scan(): SIS_UTIL's scan budget from the LLC's average
 * utilisation x (0..1024): nr = W * (1 - (x * pct/100 / 1024)^2), zero
 * from x ~ 85.5% at pct 117. Written only by non-newidle balancing of the
 * LLC domain itself.
 */
static void update_idle_cpu_scan(struct sim *sim, struct sched_domain *sd, int dst_cpu,
			  int idle_type_newly, unsigned long sum_util)
{
	struct sched_domain_shared *sds = sim->doms.cpu[dst_cpu].sd_llc_shared;
	int llc_weight = sim->doms.cpu[dst_cpu].sd_llc_size;
	unsigned long long x, pct, tmp, y;
	int nr;

	if (!sched_feat(SIS_UTIL) || idle_type_newly || !sds || sd->span_weight != llc_weight)
		return;
	x = sum_util / (unsigned long)llc_weight;
	pct = sd->imbalance_pct;
	tmp = x * x * pct * pct / (10000ULL * 1024);
	if (tmp > 1024)
		tmp = 1024;
	y = 1024 - tmp;
	nr = (int)(y * (unsigned long long)llc_weight / 1024);
	if (sds->nr_idle_scan != nr) {
		line_write(sim, &sds->line);
		sis_budget_set(sim, sds, nr);
	}
}

void sis_budget_set(struct sim *sim, struct sched_domain_shared *sds, int nr)
{
	/* A run that ends idle ends at its last activity, maybe before a tick's write. */
	if (sim->now > sds->scan_budget_since) {
		sds->scan_budget_area += (u64)sds->nr_idle_scan * (sim->now - sds->scan_budget_since);
		sds->scan_budget_since = sim->now;
	}
	sds->nr_idle_scan = nr;
}

void sis_budget_totals(const struct sim *sim, u64 *area, u64 *span)
{
	*area = *span = 0;
	if (!sched_feat(SIS_UTIL))
		return;
	for (int i = 0; i < sim->doms.nr_shared; i++) {
		const struct sched_domain_shared *sds = &sim->doms.shared[i];
		/* A run that ends idle ends at its last activity, maybe before a tick's write. */
		u64 end = sim->now > sds->scan_budget_since ? sim->now : sds->scan_budget_since;

		*area += sds->scan_budget_area + (u64)sds->nr_idle_scan * (end - sds->scan_budget_since);
		*span += (u64)sim->doms.cpu[sds->llc_id].sd_llc_size * end;
	}
}

static void update_sd_lb_stats(struct sim *sim, struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sched_group *sg = env->sd->groups;
	unsigned long sum_util = 0;
	bool sg_overloaded = false, sg_overutilized = false;
	bool top = !env->sd->parent;
	/* overutilized is read back only where it is stored (up to v6.8) */
	bool *ou = top && rd_flags_always_stored(sim) ? &sg_overutilized : NULL;

	*sds = (struct sd_lb_stats){ 0 };
	sds->prefer_sibling = env->sd->child && (env->sd->child->flags & SD_PREFER_SIBLING);
	do {
		struct sg_stats sgs;
		bool local = cpumask_test_cpu(env->dst_cpu, &sg->span);

		update_sg_lb_stats(sim, sg, env, &sgs, top ? &sg_overloaded : NULL, ou);
		if (local) {
			sds->local = sg;
			sds->local_stat = sgs;
		} else if (update_sd_pick_busiest(sds, &sgs)) {
			sds->busiest = sg;
			sds->busiest_stat = sgs;
		}
		sds->total_load += sgs.group_load;
		sds->total_capacity += sgs.group_capacity;
		sum_util += sgs.group_util;
		sg = sg->next;
	} while (sg != env->sd->groups);
	if (top)
		update_rd_flags(sim, sg_overloaded, sg_overutilized);
	update_idle_cpu_scan(sim, env->sd, env->dst_cpu, env->idle == CPU_NEWLY_IDLE, sum_util);
}

/* sibling_imbalance(): even out tasks per core between sibling groups. */
static long sibling_imbalance(struct lb_env *env, const struct sd_lb_stats *sds)
{
	const struct sg_stats *busiest = &sds->busiest_stat, *local = &sds->local_stat;
	long ncores_busiest = sds->busiest->nr_cores, ncores_local = sds->local->nr_cores;
	long imbalance;

	if (env->idle == CPU_NOT_IDLE || !busiest->sum_nr_running)
		return 0;
	if (ncores_busiest == ncores_local) {
		imbalance = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return imbalance > 0 ? imbalance : 0;
	}
	imbalance = ncores_local * (long)busiest->sum_nr_running -
		    ncores_busiest * (long)local->sum_nr_running;
	if (imbalance < 0)
		imbalance = 0;
	imbalance = (2 * imbalance + ncores_local + ncores_busiest) / (ncores_local + ncores_busiest);
	if (imbalance <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

static void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	if (local->group_type == group_has_spare) {
		if (busiest->group_type > group_fully_busy && !(env->sd->flags & SD_SHARE_LLC)) {
			/* Fill the local group's spare capacity. */
			env->migration_type = migrate_util;
			env->imbalance = (long)((local->group_capacity > local->group_util
							 ? local->group_capacity
							 : local->group_util) -
						local->group_util);
			if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		env->migration_type = migrate_task;
		if (busiest->group_weight == 1 || sds->prefer_sibling)
			env->imbalance = sibling_imbalance(env, sds);
		else
			env->imbalance = (long)local->idle_cpus > (long)busiest->idle_cpus
						 ? (long)(local->idle_cpus - busiest->idle_cpus)
						 : 0;
		if (env->sd->flags & SD_NUMA)
			env->imbalance = adjust_numa_imbalance(env->imbalance,
							       (int)local->sum_nr_running + 1,
							       env->sd->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}
	if (local->group_type < group_overloaded) {
		local->avg_load = local->group_load * 1024 / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = sds->total_load * 1024 / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	env->migration_type = migrate_load;
	unsigned long a = (busiest->avg_load - sds->avg_load) * busiest->group_capacity;
	unsigned long b = (sds->avg_load - local->avg_load) * local->group_capacity;

	env->imbalance = (long)((a < b ? a : b) / 1024);
}

static struct sched_group *find_busiest_group(struct sim *sim, struct lb_env *env)
{
	struct sd_lb_stats sds;
	struct sg_stats *local, *busiest;

	update_sd_lb_stats(sim, env, &sds);
	if (!sds.busiest)
		return NULL;
	busiest = &sds.busiest_stat;
	local = &sds.local_stat;
	if (local->group_type > busiest->group_type)
		return NULL;
	if (local->group_type == group_overloaded) {
		if (local->avg_load >= busiest->avg_load)
			return NULL;
		sds.avg_load = sds.total_load * 1024 / sds.total_capacity;
		if (local->avg_load >= sds.avg_load)
			return NULL;
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			return NULL;
	}
	if (!(sds.prefer_sibling && local->group_type == group_has_spare &&
	      sibling_imbalance(env, &sds) > 1) &&
	    busiest->group_type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			return NULL;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			return NULL;
		if (busiest->sum_nr_running == 1)
			return NULL;
	}
	calculate_imbalance(env, &sds);
	return env->imbalance > 0 ? sds.busiest : NULL;
}

static int find_busiest_queue(struct sim *sim, struct lb_env *env, struct sched_group *group)
{
	unsigned long busiest_load = 0, busiest_capacity = 1, busiest_util = 0;
	unsigned int busiest_nr = 0;
	int i, k, busiest = -1;

	for_each_group_cpu(i, k, group) {
		struct rq *rq = &sim->rq[i];
		unsigned int nr = rq->nr_running;
		unsigned long capacity = capacity_of(sim, i);

		if (!nr)
			continue;
		switch (env->migration_type) {
		case migrate_load: {
			unsigned long load = cpu_load(sim, i);

			if (nr == 1 && load > (unsigned long)env->imbalance)
				break;
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = i;
			}
			break;
		}
		case migrate_util: {
			unsigned long util = cpu_util_cfs(sim, i);

			if (nr <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = i;
			}
			break;
		}
		case migrate_task:
			if (busiest_nr < nr) {
				busiest_nr = nr;
				busiest = i;
			}
			break;
		}
	}
	return busiest;
}

/*
 * task_hot(): ran within migration_cost_ns; SMT siblings share caches; a
 * buddy (only CFS profiles make them) stays where it is about to run.
 */
static bool task_hot(struct sim *sim, struct task_struct *p, struct lb_env *env)
{
	const struct cfs_rq *cfs = &sim->rq[task_cpu(p)].cfs;

	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return false;
	if (sched_feat(CACHE_HOT_BUDDY) && sim->rq[env->dst_cpu].nr_running &&
	    (&p->se == cfs->next || &p->se == cfs->last))
		return true;
	if (sim->tun->migration_cost_ns == 0)
		return false;
	/* The kernel's signed delta of the source rq's clock_task: a stamp of
	 * another CPU's clock (irq time taken out differs) may be ahead of it. */
	s64 delta = (s64)(rq_clock_task(sim, &sim->rq[task_cpu(p)]) - p->se.exec_start);

	return delta < (s64)sim->tun->migration_cost_ns;
}

static bool can_migrate_task(struct sim *sim, struct task_struct *p, struct lb_env *env)
{
	if (!cpumask_test_cpu(env->dst_cpu, p->cpus_ptr))
		return false;
	if (p->on_cpu)
		return false;
	if (!task_hot(sim, p, env))
		return true;
	if (env->sd->nr_balance_failed <= env->sd->cache_nice_tries)
		return false;
	/* hot, moved after failures: can_migrate_task()'s lb_hot_gained (fair.c, v6.12) */
	env->sd->lb_hot_gained[env->idle]++;
	return true;
}

/* detach_tasks() + attach_tasks(): oldest-queued first, as cfs_tasks' tail. */
static int move_tasks(struct sim *sim, struct lb_env *env, int src_cpu)
{
	struct rq *src = &sim->rq[src_cpu], *dst = &sim->rq[env->dst_cpu];
	int moved = 0, loop = 0;
	int loop_max = src->nr_running < SCHED_NR_MIGRATE ? (int)src->nr_running : SCHED_NR_MIGRATE;
	u64 last_seq = 0;

	if (src->nr_running <= 1 || env->imbalance <= 0)
		return 0;
	/* detach_tasks() runs under the busiest rq's lock, attach_tasks()
	 * under the puller's (sched_balance_rq(), v6.12). */
	rq_lock(sim, src);
	update_rq_clock(sim, src);
	while (loop++ < loop_max) {
		struct sched_entity *best = NULL;

		if (env->idle != CPU_NOT_IDLE && src->nr_running <= 1)
			break;
		for (int i = 0; i < src->cfs.nr_queue; i++) {
			struct sched_entity *se = src->cfs.queue[i];

			if (se->enqueue_seq < last_seq)
				continue;
			if (!best || se->enqueue_seq < best->enqueue_seq)
				best = se;
		}
		if (!best)
			break;
		last_seq = best->enqueue_seq + 1;
		struct task_struct *p = task_of(best);

		if (!can_migrate_task(sim, p, env))
			continue;
		if (env->migration_type == migrate_load) {
			unsigned long load = p->se.avg.load_avg ? p->se.avg.load_avg : 1;
			unsigned int shift = env->sd->nr_balance_failed < 63 ? env->sd->nr_balance_failed : 63;

			if ((long)(load >> shift) > env->imbalance)
				continue;
			env->imbalance -= (long)load;
		} else if (env->migration_type == migrate_util) {
			unsigned long util = task_util(p);

			if ((long)util > env->imbalance)
				continue;
			env->imbalance -= (long)util;
		} else {
			env->imbalance--;
		}
		deactivate_task(sim, src, p, 0);
		set_task_cpu(sim, p, env->dst_cpu);
		activate_task(sim, dst, p, 0);
		wakeup_preempt(sim, dst, p, 0);
		moved++;
		/* With CONFIG_PREEMPTION a new-idle pull stops at one task. */
		if (env->idle == CPU_NEWLY_IDLE || env->imbalance <= 0)
			break;
	}
	rq_unlock(sim, src, 0);
	if (moved) {
		rq_lock(sim, dst);
		update_rq_clock(sim, dst);
		rq_unlock(sim, dst, 0);
	}
	return moved;
}

/* sched_balance_rq(): one balance pass of dst_cpu at one level. */
int sched_balance_rq(struct sim *sim, int dst_cpu, struct sched_domain *sd,
		     enum cpu_idle_type idle)
{
	struct lb_env env = { .sd = sd, .dst_cpu = dst_cpu, .idle = idle };
	struct sched_group *busiest;
	int src, moved = 0;

	if (!should_we_balance(sim, &env))
		return 0;
	/* schedstats where sched_balance_rq() (fair.c, v6.12) counts them */
	sd->lb_count[idle]++;
	busiest = find_busiest_group(sim, &env);
	if (!busiest) {
		sd->lb_nobusyg[idle]++;
		goto out_balanced;
	}
	src = find_busiest_queue(sim, &env, busiest);
	if (src < 0) {
		sd->lb_nobusyq[idle]++;
		goto out_balanced;
	}
	sd->lb_imbalance[idle] += (unsigned long)(env.imbalance > 0 ? env.imbalance : 0);
	moved = move_tasks(sim, &env, src);
	sd->lb_gained[idle] += (unsigned int)moved;
	if (!moved) {
		sd->lb_failed[idle]++;
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
	} else {
		sd->nr_balance_failed = 0;
		sd->balance_interval = sd->min_interval;
	}
	return moved;
out_balanced:
	sd->lb_balanced[idle]++;
	sd->nr_balance_failed = 0;
	if (idle != CPU_NEWLY_IDLE && sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return 0;
}

/* max_newidle_lb_cost decays by 253/256 at most once a second. */
static void update_newidle_cost(struct sim *sim, struct sched_domain *sd, u64 cost)
{
	if (cost > sd->max_newidle_lb_cost) {
		sd->max_newidle_lb_cost = cost;
		sd->last_decay_max_lb_cost = sim->now;
	} else if (sim->now > sd->last_decay_max_lb_cost + NSEC_PER_SEC) {
		sd->max_newidle_lb_cost = sd->max_newidle_lb_cost * 253 / 256;
		sd->last_decay_max_lb_cost = sim->now;
	}
}

/* get_sd_balance_interval() in ns: balance_interval ms, x busy_factor when busy. */
static u64 balance_interval_ns(struct sim *sim, struct sched_domain *sd, bool busy)
{
	u64 ms = sd->balance_interval * (busy ? sd->busy_factor : 1);
	u64 ns = ms * NSEC_PER_MSEC;
	u64 max = (u64)sim->tun->hz * (u64)sim->nr_cpus / 10 * sim->tun->tick_ns;

	if (busy && ns > sim->tun->tick_ns)
		ns -= sim->tun->tick_ns;
	if (ns < sim->tun->tick_ns)
		ns = sim->tun->tick_ns;
	if (ns > max)
		ns = max;
	return ns;
}

/*
 * update_next_balance() (fair.c): the idle interval of sd, so a CPU that
 * goes idle after a busy spell balances at the idle pace, not the busy one.
 */
static void update_next_balance(struct sim *sim, struct sched_domain *sd, u64 *next)
{
	u64 due = sd->last_balance + balance_interval_ns(sim, sd, false);

	if (due < *next)
		*next = due;
}

int newidle_balance(struct sim *sim, struct rq *rq)
{
	struct sched_domain *sd = sim->doms.cpu[rq->cpu].sd;
	u64 next_balance = sim->now + NSEC_PER_SEC; /* jiffies + HZ */
	u64 curr_cost = 0;
	int pulled = 0;

	POLICY_CALL(sim, newidle, rq->cpu);

	rq->newidle_levels = 0;
	if (rq->ttwu_pending)
		return 0;
	rq->idle_stamp = sim->now;
	/*
	 * v5.12 gated on the migration cost before it read rd->overload; v5.16+
	 * reads rd->overload(ed) first, then the lowest domain's balance cost.
	 * The flag, not the runqueues: it stays set after they drain until a
	 * top-level balance sees none with 2 tasks.
	 */
	bool skip;

	if (sim->tun->kver == KV_5_12) {
		skip = rq->avg_idle < sim->tun->migration_cost_ns;
		if (!skip) {
			line_read(sim, &sim->doms.rd.line);
			skip = !sim->doms.rd.overloaded;
		}
	} else {
		line_read(sim, &sim->doms.rd.line);
		skip = !sim->doms.rd.overloaded || (sd && rq->avg_idle < sd->max_newidle_lb_cost);
	}
	if (!sd || skip) {
		if (sd)
			update_next_balance(sim, sd, &next_balance);
		goto out;
	}
	update_blocked_averages(sim, rq);
	for (; sd; sd = sd->parent) {
		update_next_balance(sim, sd, &next_balance);
		if (rq->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;
		if (sd->flags & SD_BALANCE_NEWIDLE) {
			u64 before = sim->kcost_ns;

			pulled = sched_balance_rq(sim, rq->cpu, sd, CPU_NEWLY_IDLE);
			/*
			 * sched_balance_newidle()'s domain_cost (fair.c v6.12;
			 * newidle_balance() in v6.4) is sched_clock_cpu() after
			 * minus before: time, so the work takes longer while the
			 * SMT sibling runs (cpu_wall_ns()), as a task's own does.
			 */
			u64 cost = cpu_wall_ns(sim->kcost_ns - before, rq->speed);

			update_newidle_cost(sim, sd, cost);
			curr_cost += cost;
			sim->met.newidle_balances++;
			sim->met.newidle_ns += cost;
			if (rq->newidle_levels < NEWIDLE_MAX_LEVELS)
				rq->newidle_level_end[rq->newidle_levels++] =
					cpu_wall_ns(sim->kcost_ns, rq->speed);
		}
		if (pulled || rq->nr_running || rq->ttwu_pending)
			break;
	}
	if (curr_cost > rq->max_idle_balance_cost)
		rq->max_idle_balance_cost = curr_cost;
out:
	/* "Move the next balance forward" (sched_balance_newidle(), v6.12) */
	if (rq->next_balance > next_balance)
		rq->next_balance = next_balance;
	if (pulled) {
		rq->idle_stamp = 0;
		sim->met.newidle_pulls++;
	}
	return pulled;
}

u64 sis_util_refresh_ns(struct sim *sim)
{
	u64 longest = 0;

	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		struct sched_domain *sd = sim->doms.cpu[cpu].sd_llc;

		if (sd) {
			u64 ns = balance_interval_ns(sim, sd, true);

			if (ns > longest)
				longest = ns;
		}
	}
	return longest;
}

/* sched_balance_domains(): every level whose interval elapsed. */
static void rebalance_domains(struct sim *sim, struct rq *rq, enum cpu_idle_type idle)
{
	u64 next = sim->now + 60 * NSEC_PER_SEC;
	bool busy = idle == CPU_NOT_IDLE;
	struct sched_domain *sd;
	int prev_this = sim->this_cpu;

	sim->this_cpu = rq->cpu;
	update_blocked_averages(sim, rq); /* sched_balance_softirq() */
	for_each_domain(sim, rq->cpu, sd) {
		update_newidle_cost(sim, sd, 0);
		u64 interval = balance_interval_ns(sim, sd, busy);

		/* Never balanced (last_balance 0): due, as on a machine that has been up. */
		if (!sd->last_balance || sim->now >= sd->last_balance + interval) {
			int moved = sched_balance_rq(sim, rq->cpu, sd, idle);

			sim->met.lb_pulls += (uint64_t)moved;
			sd->last_balance = sim->now;
			/* The CPU got work: the remaining levels are busy balancing. */
			if (moved)
				busy = true;
			interval = balance_interval_ns(sim, sd, busy);
		}
		if (sd->last_balance + interval < next)
			next = sd->last_balance + interval;
	}
	rq->next_balance = next;
	sim->this_cpu = prev_this;
}

/* sched_balance_trigger() on an idle CPU that kept its tick: CPU_IDLE intervals. */
void idle_balance_tick(struct sim *sim, struct rq *rq)
{
	if (sim->now >= rq->next_balance)
		rebalance_domains(sim, rq, CPU_IDLE);
}

/*
 * The tick's sched_balance_trigger(): the CPU's own periodic balance, then
 * nohz_balancer_kick(): if this CPU has two tasks or its LLC more than one
 * busy CPU, balance on behalf of the idle CPUs that are due.
 */
void balance_tick(struct sim *sim, struct rq *rq)
{
	if (sim->now >= rq->next_balance)
		rebalance_domains(sim, rq, CPU_NOT_IDLE);
	struct sched_domain_shared *sds = sim->doms.cpu[rq->cpu].sd_llc_shared;
	bool kick = rq->nr_running >= 2 || (sds && sds->nr_busy_cpus > 1);

	if (!kick || sim->now < sim->nohz_next_balance)
		return;
	u64 next = sim->now + 60 * NSEC_PER_SEC;
	u64 saved = sim->kcost_ns;

	for (int cpu = 0; cpu < sim->nr_cpus; cpu++) {
		struct rq *irq = &sim->rq[cpu];

		if (irq->mode != CPU_MODE_IDLE || !irq->nohz_idle)
			continue;
		if (sim->now >= irq->next_balance)
			rebalance_domains(sim, irq, CPU_IDLE);
		if (irq->next_balance < next)
			next = irq->next_balance;
	}
	/* The idle CPUs do this work, not the kicking one. */
	sim->kcost_ns = saved;
	sim->nohz_next_balance = next;
}
