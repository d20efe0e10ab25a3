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

/*
 * Interruptions of a running CPU (costs.irq_ns, costs.irq_interval_ns):
 * device and timer interrupts on bare metal, and on a guest also the
 * host taking the vCPU away, which the guest sees only as time passing
 * (docs/costs.md, "Interruptions"). Each lands between two instructions
 * of whatever runs; the kernel charges it as it charges any time in
 * update_curr(): to the interrupted task (and to the CPU's PELT
 * signals), unless CONFIG_IRQ_TIME_ACCOUNTING keeps it out of the task
 * clock, as account_softirq() does for softirqs. They come to every CPU
 * whatever it does, from their own stream of --seed (a profile without
 * them draws nothing and runs as before): lengths uniform over the
 * whole ns from irq_ns - irq_ns / 2 to irq_ns + irq_ns / 2, and the gap
 * from one's end to the next one's start uniform from 0 to 2 x
 * (irq_interval_ns - irq_ns), so they start irq_interval_ns apart on
 * average and take irq_ns / irq_interval_ns of a busy CPU, as wakesim
 * calibrate measures them. One that finds its CPU balancing on its way
 * to idle, interrupts off, waits for the balance and then takes its
 * time before the CPU goes on; one that finds it idle delays no task (a
 * halted vCPU's host wake-up is in its idle state's exit latency) and,
 * like an idle tick, neither keeps a finished run going nor counts as
 * activity.
 */
static void irq_arm_after(struct sim *sim, struct rq *rq, u64 busy_ns)
{
	const struct costs *k = &sim->m->costs;

	if (!event_queued(&rq->ev_irq))
		sim->nr_irqs_queued++;
	/* Profiles keep irq_ns under half the interval (costs_json.c, cost_keys.c). */
	evq_schedule(&sim->eng.evq, &rq->ev_irq,
		     sim->now + busy_ns +
			     rng_below(&sim->irq_rng, 2 * (k->irq_interval_ns - k->irq_ns) + 1));
}

void irq_arm(struct sim *sim, struct rq *rq)
{
	if (sim->m->costs.irq_interval_ns && sim->m->costs.irq_ns)
		irq_arm_after(sim, rq, 0);
}

void exec_handle_irq(struct sim *sim, int cpu)
{
	struct rq *rq = cpu_rq(sim, cpu);
	u64 mean = sim->m->costs.irq_ns, half = mean / 2;
	u64 ns = mean - half + rng_below(&sim->irq_rng, 2 * half + 1);

	irq_arm_after(sim, rq, ns);
	if (rq->mode != CPU_MODE_NEWIDLE && (rq->mode != CPU_MODE_RUNNING || !rq->curr))
		return;
	sim->active_ns = sim->now;
	sim->met.irq_ns += ns;
	if (sim->tun->irq_time_accounting)
		rq->irq_time += ns;
	if (rq->mode == CPU_MODE_NEWIDLE) {
		newidle_delay(sim, rq, ns);
		return;
	}
	sim->this_cpu = cpu;
	cpu_sync(sim, rq);
	/* Wall time taken from curr: its nominal work at the CPU's speed. */
	sim->kcost_ns = ns * rq->speed / FULL_SPEED;
	exec_irq_done(sim, rq);
}
