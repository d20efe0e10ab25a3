/*
 * placement.h - why select_task_rq() put a task where it did: the branch
 * of the kernel's path that chose the CPU, in the kernel's terms
 * (kernel/sched/fair.c, v6.12 and the older profiles' forms), recorded for
 * every placement of a waking or forked task. The counts go to the run's
 * metrics (a table per reason), and the trace gets one sched_select_rq
 * event per placement (kern/trace.h).
 *
 * A placement has two parts. The affine step (enum place_affine) is
 * select_task_rq_fair()'s choice of target: wake_wide(), then
 * wake_affine() between the waking CPU and prev. The reason (enum
 * place_reason) is the branch that returned the final CPU: the slow path
 * (sched_balance_find_dst_cpu(), find_idlest_cpu() before v6.10), or one
 * of select_idle_sibling()'s returns. A feature's own branch (S4's
 * SIS_SHORT) has its own code; a --policy's answer that is not mainline's
 * is PR_POLICY.
 */
#ifndef WS_PLACEMENT_H
#define WS_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

enum place_reason {
	PR_SINGLE_CPU,		/* one CPU allowed: no choice (select_task_rq()) */
	PR_FORK_BALANCE,	/* fork/exec: the slow path, sched_balance_find_dst_cpu() */
	PR_WAKE_BALANCE,	/* a wake-up through SD_BALANCE_WAKE's slow path */
	PR_TARGET_IDLE,		/* select_idle_sibling(): target idle */
	PR_PREV_IDLE,		/* ...prev idle, sharing target's LLC */
	PR_RECENT_IDLE,		/* ...p->recent_used_cpu idle */
	PR_SMT_SIBLING,		/* ...an idle SMT sibling of prev (select_idle_smt()) */
	PR_SCAN_IDLE_CORE,	/* ...select_idle_cpu() found a wholly idle core */
	PR_SCAN_IDLE_CPU,	/* ...select_idle_cpu() found an idle CPU */
	PR_SCAN_NO_BUDGET,	/* ...SIS_UTIL's nr_idle_scan was 0: no scan, target */
	PR_SCAN_BUDGET_SPENT,	/* ...the scan's budget ran out on busy CPUs: target */
	PR_SCAN_EXHAUSTED,	/* ...every CPU examined, none idle: target */
	PR_PREV_OTHER_CLUSTER,	/* ...after a failed scan, prev (idle, another cluster) */
	PR_RECENT_OTHER_CLUSTER,/* ...after a failed scan, recent_used_cpu (idle, another cluster) */
	PR_CAPACITY,		/* ...select_idle_capacity() (CPUs of unequal capacity) */
	PR_NO_LLC,		/* ...target has no sd_llc: target */
	PR_SIS_SHORT_SCAN,	/* S4's select_idle_cpu() branch: target, unscanned */
	PR_POLICY,		/* a --policy hook's own answer (not mainline's) */
	PR_ON_CPU,		/* try_to_wake_up(): prev still in __schedule() with p, its wake list */
	PR_NR
};

enum place_affine {
	PA_NONE,		/* fork/exec, or one CPU allowed: no affine step */
	PA_NO_WAKER,		/* no waking task (a timer's callback): target = prev */
	PA_WIDE,		/* wake_wide() said wide: target = prev */
	PA_WAKER_IS_PREV,	/* the waking CPU is prev: nothing to decide */
	PA_NO_DOMAIN,		/* no SD_WAKE_AFFINE domain spans both: target = prev */
	PA_IDLE,		/* wake_affine_idle(): the waking CPU is idle: waker's CPU */
	PA_IDLE_PREV,		/* ...it is, and so is prev in its LLC: prev */
	PA_SYNC,		/* ...WF_SYNC and the waker alone on its CPU: waker's CPU */
	PA_PREV_IDLE,		/* ...prev idle: prev */
	PA_WEIGHT,		/* wake_affine_weight(): the waker's CPU is lighter: waker's CPU */
	PA_WEIGHT_PREV,		/* ...it is not: prev */
	PA_SIS_SHORT,		/* S4's wake_affine_idle() branch: waker's CPU */
	PA_ON_CPU,		/* p still on_cpu on prev: no select_task_rq(), prev */
	PA_NR
};

/* How far the task moved from prev: machine/machine.h's c2c classes, named. */
#define PLACE_DIST_NR 7

/* The placement being made (struct sim's plc), filled as the path runs. */
struct placement {
	int prev, target, dest;	/* CPUs: prev, after the affine step, chosen (-1: unset) */
	enum place_reason reason;
	enum place_affine affine;
	bool sync;		/* WF_SYNC with a waking task */
	/* The reason of a CPU a layer takes before the scan (->sis_scan_budget): its own, or S4's. */
	enum place_reason take_reason;
	uint64_t scanned0;	/* met.sis_scanned when it began */
	/* sim->kcost_ns when the path returned its answer: the time, into the
	 * path, of its last read of the chosen CPU (ns) */
	uint64_t check_kcost;
	uint64_t idle_seen_kcost;	/* ...of an idle-core scan's first idle CPU */
	/* Where select_idle_cpu()'s walk would go on past its answer: the next
	 * CPU and the budget left (SCAN_IDLE_CORE/SCAN_IDLE_CPU answers; the
	 * first goes on looking for idle cores, the second for any idle CPU) */
	int scan_next, scan_nr;
	int sis_prev, sis_target;	/* select_idle_sibling()'s arguments */
	bool resumed;		/* the rest of a wake-up's path after a re-read (core.c) */
};

/* Names as the trace, tables and JSON print them ("prev_idle", "SIS_SHORT_scan"). */
const char *place_reason_name(enum place_reason r);
const char *place_affine_name(enum place_affine a);
/* "none" (stayed), "smt", "cluster", "llc", "node", "package", "remote". */
const char *place_dist_name(int d);

#endif
