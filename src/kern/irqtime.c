/*
 * irqtime.c - CONFIG_IRQ_TIME_ACCOUNTING: the time a CPU spends in
 * softirq is kept out of its task clock.
 *
 * irqtime_account_irq() (kernel/sched/cputime.c) adds each softirq's
 * length to the CPU's irqtime->total when it ends; update_rq_clock_task()
 * (kernel/sched/core.c, v5.12 to v6.12) takes the irq time accrued since
 * its last call out of the clock delta before rq->clock_task advances,
 * never more than the delta (the rest waits for the next update), so
 * clock_task never runs backward. update_curr() charges tasks from
 * clock_task and PELT's clock follows it (rq_clock_pelt()), so with the
 * option a task interrupted by a softirq is not charged for it and the
 * CPU's util_avg, which SIS_UTIL's scan budget and the balancer read,
 * leaves it out. Without it (the default, as Debian builds its kernels)
 * clock_task is the clock, and irq time is counted as the interrupted
 * task's. The model's softirqs are the loopback receive path
 * (net_rx_action() at the sender's local_bh_enable()) and the wake-ups it
 * does (docs/kernel-model.md).
 */
#include "kernel.h"

void account_softirq(struct sim *sim, int cpu, u64 work_ns)
{
	struct rq *rq;
	u64 ns;

	if (cpu < 0 || !work_ns)
		return;
	rq = cpu_rq(sim, cpu);
	ns = cpu_wall_ns(work_ns, rq->speed);
	sim->met.softirq_ns += ns;
	if (sim->tun->irq_time_accounting)
		rq->irq_time += ns;
}

u64 rq_clock_task(struct sim *sim, struct rq *rq)
{
	u64 now = sim->now;

	if (now > rq->clock) {
		u64 delta = now - rq->clock;
		u64 irq_delta = rq->irq_time - rq->prev_irq_time;

		if (irq_delta > delta)
			irq_delta = delta;
		rq->prev_irq_time += irq_delta;
		rq->clock_task += delta - irq_delta;
		rq->clock = now;
	}
	return rq->clock_task;
}
