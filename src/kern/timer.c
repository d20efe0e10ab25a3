/*
 * timer.c - hrtimers per CPU, and the sleep timer of tasks.
 */
#include "timer.h"

#include "kernel.h"

void timer_init(struct sim_timer *t, sim_timer_fn fn, void *data)
{
	event_init(&t->ev, EV_TIMER, 0, t);
	t->fn = fn;
	t->data = data;
	t->cpu = -1;
	t->next = NULL;
}

static void list_del(struct sim *sim, struct sim_timer *t)
{
	if (t->cpu < 0)
		return;
	struct sim_timer **pp = &sim->rq[t->cpu].timers;

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	t->next = NULL;
}

void timer_cancel(struct sim *sim, struct sim_timer *t)
{
	if (!timer_armed(t))
		return;
	evq_cancel(&sim->eng.evq, &t->ev);
	list_del(sim, t);
}

void timer_arm(struct sim *sim, struct sim_timer *t, int cpu, u64 expires_ns)
{
	timer_cancel(sim, t);
	t->cpu = cpu;
	if (cpu >= 0) {
		struct sim_timer **pp = &sim->rq[cpu].timers;

		while (*pp && (*pp)->ev.time <= expires_ns)
			pp = &(*pp)->next;
		t->next = *pp;
		*pp = t;
	}
	evq_schedule(&sim->eng.evq, &t->ev, expires_ns);
}

u64 cpu_next_timer(const struct sim *sim, int cpu)
{
	const struct sim_timer *t = sim->rq[cpu].timers;

	return t ? t->ev.time : UINT64_MAX;
}

void timer_handle(struct sim *sim, struct sim_timer *t)
{
	int cpu = t->cpu;

	list_del(sim, t);
	if (cpu < 0) {
		sim->this_cpu = -1;
		sim->kcost_ns = 0;
		sim->in_irq = true;
		t->fn(sim, t);
		sim->in_irq = false;
		sim->kcost_ns = 0;
		return;
	}
	struct rq *rq = &sim->rq[cpu];

	if (rq->mode != CPU_MODE_RUNNING) {
		/* The interrupt wakes an idle CPU: run it once the CPU is out. */
		t->next = rq->expired;
		rq->expired = t;
		sim->kcost_ns = 0;
		if (rq->mode == CPU_MODE_IDLE)
			send_ipi(sim, cpu, 0);
		return;
	}
	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
	cpu_sync(sim, rq);
	sim->in_irq = true;
	t->fn(sim, t);
	sim->in_irq = false;
	exec_irq_done(sim, rq);
}

void timer_run_expired(struct sim *sim, struct rq *rq)
{
	while (rq->expired) {
		struct sim_timer *t = rq->expired;

		rq->expired = t->next;
		t->next = NULL;
		sim->in_irq = true;
		t->fn(sim, t);
		sim->in_irq = false;
	}
}

static void sleep_timer_fn(struct sim *sim, struct sim_timer *t)
{
	try_to_wake_up(sim, t->data, 0);
}

void task_sleep_exact(struct sim *sim, struct task_struct *p, u64 when_ns)
{
	if (!p->sleep_timer.fn)
		timer_init(&p->sleep_timer, sleep_timer_fn, p);
	p->__state = TASK_INTERRUPTIBLE;
	timer_arm(sim, &p->sleep_timer, sim->this_cpu, when_ns);
}

void task_sleep_until(struct sim *sim, struct task_struct *p, u64 when_ns)
{
	task_sleep_exact(sim, p, when_ns + sim->tun->timer_slack_ns);
}

