/*
 * idle_delay.c - seed S2 as a policy: "sched: Extend cpu idle state for
 * 1ms" (Mathieu Desnoyers, LKML, 2023-07-25). The built-in form,
 * --features IDLE_DELAY, is this file compiled into wakesim
 * (src/features/idle_delay.c).
 *
 * The idea: a CPU that left the idle loop less than a millisecond ago is
 * likely to go idle again soon, so idle_cpu() keeps calling it idle for
 * that long. Wake-ups then keep landing on recently used CPUs instead of
 * spreading to CPUs in deep idle states. The patch changes idle_cpu()
 * itself, so every caller sees it: this policy replaces the ->idle_cpu
 * hook and records, with ->idle_exit, when each CPU left idle. Placement
 * is mainline's.
 */
#include "wakesim/policy.h"

static uint64_t idle_end[WS_MAX_CPUS];	/* ns: when the CPU last left idle; 0: never */
static uint64_t delay_ns;		/* the patch's IDLE_CPU_DELAY_NS: idle_delay_ns (1 ms) */

static int delay_init(void)
{
	for (int i = 0; i < WS_MAX_CPUS; i++)
		idle_end[i] = 0;
	delay_ns = sched_tunable("idle_delay_ns");
	return 0;
}

/* schedule_idle(): the CPU leaves the idle loop now. */
static void delay_idle_exit(int cpu)
{
	idle_end[cpu] = sched_clock();
}

static bool delay_idle_cpu(int cpu)
{
	if (idle_end[cpu] && sched_clock() < idle_end[cpu] + delay_ns) {
		if (!rq_idle(cpu))
			feature_hit(HIT_IDLE_DELAY);
		return true;
	}
	return idle_cpu(cpu);
}

WAKESIM_POLICY(.name = "idle-delay", .summary = "S2: a CPU stays idle for idle_cpu() 1 ms after it ran",
	       .init = delay_init, .idle_exit = delay_idle_exit, .idle_cpu = delay_idle_cpu);
