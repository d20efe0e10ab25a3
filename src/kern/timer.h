/*
 * timer.h - hrtimers: a callback at an absolute time, run in the interrupt
 * context of a CPU (or of no CPU, for the workload's own clock).
 *
 * A timer armed on a CPU is what nanosleep(), clock_nanosleep() and
 * futex timeouts arm in the kernel (hrtimer_start() on the sleeping task's
 * CPU). When it fires on an idle CPU, the CPU first leaves its idle state
 * (exit latency), then runs the callback; the cpuidle governor sees the
 * earliest armed timer as a bound on the coming idle period, as menu does.
 */
#ifndef WS_TIMER_H
#define WS_TIMER_H

#include "kern/sim.h"

/* A timer that calls fn(sim, t) with t->data set to data. */
void timer_init(struct sim_timer *t, sim_timer_fn fn, void *data);
/* Arm t to fire at expires_ns on cpu (-1: no CPU context); re-arms if armed. */
void timer_arm(struct sim *sim, struct sim_timer *t, int cpu, u64 expires_ns);
void timer_cancel(struct sim *sim, struct sim_timer *t);
static inline bool timer_armed(const struct sim_timer *t)
{
	return event_queued(&t->ev);
}
/* The earliest expiry armed on cpu, or UINT64_MAX. */
u64 cpu_next_timer(const struct sim *sim, int cpu);
/* EV_TIMER fired. */
void timer_handle(struct sim *sim, struct sim_timer *t);
/* Run the timers that woke cpu from idle, once its exit latency is paid. */
void timer_run_expired(struct sim *sim, struct rq *rq);

/*
 * nanosleep() for the task running on sim->this_cpu: p sleeps
 * (TASK_INTERRUPTIBLE) until ns from now plus the timer slack
 * (timer_slack_ns, 50 us for a SCHED_OTHER task: the hrtimer fires at its
 * hard expiry when nothing else interrupts the CPU). The caller returns
 * STEP_BLOCK. Wakes with try_to_wake_up() from the timer's CPU.
 */
void task_sleep_until(struct sim *sim, struct task_struct *p, u64 when_ns);
/*
 * The same without the slack: a wake-up at when_ns exactly, for a sleep
 * whose length was measured (a recorded trace's, slack included).
 */
void task_sleep_exact(struct sim *sim, struct task_struct *p, u64 when_ns);

#endif
