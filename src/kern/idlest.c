/*
 * idlest.c - the slow path that places forked tasks (and wake-ups on
 * levels with SD_BALANCE_WAKE, none by default): sched_balance_find_dst_cpu(),
 * sched_balance_find_dst_group(), sched_balance_find_dst_group_cpu(),
 * update_sg_wakeup_stats(), update_pick_idlest() and group_classify() of
 * kernel/sched/fair.c, v6.12 (find_idlest_* before v6.10).
 *
 * Not modelled: NUMA balancing preferences (no numa_preferred_nid),
 * misfit/asym classes (symmetric machines only), core-scheduling cookies.
 */
#include <limits.h>

#include "kernel.h"
#include "lb.h"

/* group_classify(): the first matching of overloaded, fully busy, spare. */
enum group_type group_classify(unsigned int imbalance_pct, const struct sg_stats *sgs)
{
	if (sgs->sum_nr_running > (unsigned long)sgs->group_weight &&
	    (sgs->group_capacity * 100 < sgs->group_util * imbalance_pct ||
	     sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100))
		return group_overloaded;
	/* group_has_capacity() */
	if (sgs->sum_nr_running < (unsigned long)sgs->group_weight)
		return group_has_spare;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return group_fully_busy;
	if (sgs->group_capacity * 100 > sgs->group_util * imbalance_pct)
		return group_has_spare;
	return group_fully_busy;
}

/* cpu_runnable_without(): the CPU's runnable_avg without p. */
static unsigned long cpu_runnable_without(struct sim *sim, int cpu, struct task_struct *p)
{
	const struct cfs_rq *cfs = &sim->rq[cpu].cfs;
	unsigned long r = cfs->avg.runnable_avg;

	if (task_cpu(p) == cpu && p->__state != TASK_NEW) {
		unsigned long pr = p->se.avg.runnable_avg;

		r = r > pr ? r - pr : 0;
	}
	return r;
}

static void update_sg_wakeup_stats(struct sim *sim, struct sched_domain *sd,
				   struct sched_group *group, struct sg_stats *sgs,
				   struct task_struct *p)
{
	int i, k;

	*sgs = (struct sg_stats){ 0 };
	for_each_group_cpu(i, k, group) {
		struct rq *rq = &sim->rq[i];
		unsigned int local;

		if (!cpumask_test_cpu(i, p->cpus_ptr))
			continue;
		/* Each runqueue's PELT sums and counts are read remotely. */
		line_read(sim, &rq->line);
		charge(sim, sim->m->costs.scan_cpu_ns);
		sgs->group_load += cpu_load_without(sim, i, p);
		sgs->group_util += cpu_util(sim, i, p, -1);
		sgs->group_runnable += cpu_runnable_without(sim, i, p);
		local = (rq->curr == p);
		sgs->sum_nr_running += rq->nr_running - local;
		if (rq->nr_running - local == 0 && (idle_cpu(sim, i) || rq->curr == p))
			sgs->idle_cpus++;
	}
	sgs->group_capacity = group->capacity;
	sgs->group_weight = group->weight;
	sgs->group_type = group_classify(sd->imbalance_pct, sgs);
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = sgs->group_load * 1024 / sgs->group_capacity;
}

static bool update_pick_idlest(const struct sg_stats *idlest, const struct sg_stats *sgs)
{
	if (sgs->group_type < idlest->group_type)
		return true;
	if (sgs->group_type > idlest->group_type)
		return false;
	switch (sgs->group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* Select the group with the lowest avg_load. */
		if (idlest->avg_load <= sgs->avg_load)
			return false;
		break;
	case group_has_spare:
		/* Select the group with the most idle CPUs, then the least utilised. */
		if (idlest->idle_cpus > sgs->idle_cpus)
			return false;
		if (idlest->idle_cpus == sgs->idle_cpus && idlest->group_util <= sgs->group_util)
			return false;
		break;
	}
	return true;
}

/* adjust_numa_imbalance(): tolerate a small imbalance toward a quiet node. */
long adjust_numa_imbalance(long imbalance, int dst_running, int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

static struct sched_group *find_idlest_group(struct sim *sim, struct sched_domain *sd,
					     struct task_struct *p, int this_cpu)
{
	struct sched_group *idlest = NULL, *local = NULL, *group = sd->groups;
	struct sg_stats local_sgs = { 0 }, tmp_sgs, *sgs;
	struct sg_stats idlest_sgs = { .avg_load = UINT_MAX, .group_type = group_overloaded };
	unsigned long imbalance;

	do {
		bool local_group;

		if (!cpumask_intersects(&group->span, p->cpus_ptr))
			continue;
		local_group = cpumask_test_cpu(this_cpu, &group->span);
		if (local_group) {
			sgs = &local_sgs;
			local = group;
		} else {
			sgs = &tmp_sgs;
		}
		update_sg_wakeup_stats(sim, sd, group, sgs, p);
		if (!local_group && update_pick_idlest(&idlest_sgs, sgs)) {
			idlest = group;
			idlest_sgs = *sgs;
		}
	} while (group = group->next, group != sd->groups);

	if (!idlest)
		return NULL;
	if (!local)
		return idlest;
	if (local_sgs.group_type < idlest_sgs.group_type)
		return NULL;
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;
	switch (local_sgs.group_type) {
	case group_overloaded:
	case group_fully_busy:
		imbalance = 1024 * (sd->imbalance_pct - 100) / 100;
		/* Across nodes, stay local unless the other node is clearly idler. */
		if ((sd->flags & SD_NUMA) && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return NULL;
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return NULL;
		if (100 * local_sgs.avg_load <= sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		break;
	case group_has_spare:
		if (sd->flags & SD_NUMA) {
			struct cpumask cpus;
			int imb_numa_nr = sd->imb_numa_nr;
			long imb;

			cpumask_and(&cpus, &local->span, p->cpus_ptr);
			if (cpumask_weight(&cpus) < imb_numa_nr)
				imb_numa_nr = cpumask_weight(&cpus);
			imb = (long)local_sgs.idle_cpus - (long)idlest_sgs.idle_cpus;
			if (imb < 0)
				imb = -imb;
			if (!adjust_numa_imbalance(imb, (int)local_sgs.sum_nr_running + 1,
						   imb_numa_nr))
				return NULL;
		}
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return NULL;
		break;
	}
	return idlest;
}

/*
 * sched_balance_find_dst_group_cpu(): the idle CPU in the shallowest idle
 * state (most recently idled on ties), else the least loaded CPU.
 */
static int find_idlest_group_cpu(struct sim *sim, struct sched_group *group,
				 struct task_struct *p, int this_cpu)
{
	unsigned long load, min_load = ULONG_MAX;
	u64 min_exit_latency = UINT64_MAX, latest_idle_timestamp = 0;
	int least_loaded_cpu = this_cpu, shallowest_idle_cpu = -1;
	int i, k;

	if (group->weight == 1)
		return cpumask_first(&group->span);
	for_each_group_cpu(i, k, group) {
		struct rq *rq = &sim->rq[i];

		if (!cpumask_test_cpu(i, p->cpus_ptr))
			continue;
		if (available_idle_cpu(sim, i)) {
			u64 lat = rq->mode == CPU_MODE_IDLE ? sim->m->idle[rq->idle_state].exit_latency_ns
						      : 0;

			if (lat < min_exit_latency) {
				min_exit_latency = lat;
				latest_idle_timestamp = rq->idle_enter_ns;
				shallowest_idle_cpu = i;
			} else if (lat == min_exit_latency &&
				   rq->idle_enter_ns > latest_idle_timestamp) {
				latest_idle_timestamp = rq->idle_enter_ns;
				shallowest_idle_cpu = i;
			}
		} else if (shallowest_idle_cpu == -1) {
			load = cpu_load(sim, i);
			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = i;
			}
		}
	}
	return shallowest_idle_cpu != -1 ? shallowest_idle_cpu : least_loaded_cpu;
}

/* The slow path's answer, as a placement (kern/placement.h). */
static int slow_path_placed(struct sim *sim, int sd_flag, int cpu)
{
	sim->plc.reason = (sd_flag & SD_BALANCE_WAKE) ? PR_WAKE_BALANCE : PR_FORK_BALANCE;
	sim->plc.dest = cpu;
	return cpu;
}

int find_idlest_cpu(struct sim *sim, struct sched_domain *sd, struct task_struct *p, int cpu,
		    int prev_cpu, int sd_flag)
{
	int new_cpu = cpu;

	if (!cpumask_intersects(&sd->span, p->cpus_ptr))
		return slow_path_placed(sim, sd_flag, prev_cpu);
	while (sd) {
		struct sched_group *group;
		struct sched_domain *tmp;
		int weight;

		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		group = find_idlest_group(sim, sd, p, cpu);
		if (!group) {
			sd = sd->child;
			continue;
		}
		new_cpu = find_idlest_group_cpu(sim, group, p, cpu);
		if (new_cpu == cpu) {
			sd = sd->child;
			continue;
		}
		/* Go down from the new CPU's domains, below this level. */
		cpu = new_cpu;
		weight = sd->span_weight;
		sd = NULL;
		for_each_domain(sim, cpu, tmp) {
			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & sd_flag)
				sd = tmp;
		}
	}
	return slow_path_placed(sim, sd_flag, new_cpu);
}
