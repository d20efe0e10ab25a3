/*
 * derive.h - a replayable workload from a recorded trace (sched_trace.h).
 *
 * Each replayed task gets a program of operations, in the order it did
 * them:
 *   RUN ns      CPU time it ran (across preemptions: a switch-out in state
 *               R is not a sleep), between two of its other operations
 *   WAKE t      it woke task t (sched_waking in its context, not in irq)
 *   FORK t      it forked task t (sched_process_fork)
 *   BLOCK       it slept (switch-out in S, D, ...) until a replayed task's
 *               WAKE: that wake-up is the edge of the wake-up graph
 *   SLEEP ns    it slept ns and something not replayed woke it: a timer,
 *               an interrupt, the idle task, a task left out by --comm
 * A waker that its wakee preempts at once, and that runs on only when the
 * wakee sleeps (a pipe's writer and reader sharing a CPU), is not asleep
 * in the trace but waits all the same: a BLOCK, and a WAKE of it in the
 * wakee's program where the wakee sleeps (a hand-off). Left as it was,
 * it would run on unsynchronised wherever the replay places the wakee.
 *   EXIT        it exited (switch-out in X or Z), or the trace ended
 * So "who woke it, after which burst of whom" is the WAKE's place in the
 * waker's program. Replayed, a BLOCK waits for its WAKE (a token, so the
 * order can change with the machine), a SLEEP lasts its recorded time.
 *
 * The trace's own figures for the same tasks (context switches, wake-ups,
 * run delay, CPU time, elapsed) are kept to set the replay against.
 */
#ifndef WS_DERIVE_H
#define WS_DERIVE_H

#include "kern/metrics.h"
#include "sched_trace.h"

enum rop_kind { ROP_RUN, ROP_WAKE, ROP_FORK, ROP_BLOCK, ROP_SLEEP, ROP_EXIT };

struct rop {
	uint8_t kind;		/* enum rop_kind */
	int32_t task;		/* WAKE, FORK: index in replay_plan.task */
	uint64_t ns;		/* RUN: CPU ns; SLEEP: ns asleep */
};

struct rtask {
	int pid;
	char comm[16];
	/* Started by the replay itself at start_ns after the trace's start:
	 * alive when the trace began, or forked by a task not replayed. */
	bool external_start;
	uint64_t start_ns;
	struct rop *op;
	int nr_op, cap_op;
};

struct replay_plan {
	struct rtask *task;
	int nr_task;
	uint64_t start_ns, end_ns;	/* the trace's first and last event times */
	/* Recorded, for the replayed tasks: */
	uint64_t rec_switches;		/* sched_switch to one of them */
	uint64_t rec_wakeups;		/* wake-ups of one asleep (sched_waking or sched_wakeup) */
	uint64_t rec_cpu_ns;		/* their CPU time in the trace */
	uint64_t rec_elapsed_ns;	/* trace start to the last one's end */
	uint64_t rec_migrations;	/* sched_migrate_task of one of them */
	struct hist rec_wake_lat;	/* wake-up (sched_waking, else sched_wakeup) to switch-in */
	/* How the wake-ups were read: */
	uint64_t wakes_graph;		/* by a replayed task: BLOCK + WAKE */
	uint64_t wakes_external;	/* by anything else: SLEEP */
	uint64_t wakes_runnable;	/* of a task not asleep (ttwu_runnable()): dropped */
	uint64_t anomalies;		/* switched in while asleep with no wake-up seen, ... */
	uint64_t inferred_switches;	/* switch-ins missing from the trace, inferred */
	uint64_t handoffs;		/* a waker preempted by its wakee, waiting for its sleep */
	bool used_waking;		/* the waker came from sched_waking, else sched_wakeup */
};

/* Which tasks to replay: comm globs (fnmatch) and pids; none given: all but pid 0. */
struct replay_select {
	const char *const *comm;
	int nr_comm;
	const int *pid;
	int nr_pid;
};

/*
 * Derive the plan of tr's tasks chosen by sel. Returns 0, or -1 with err
 * (out of memory; no task selected).
 */
int replay_derive(const struct sched_trace *tr, const struct replay_select *sel,
		  struct replay_plan *plan, char *err, size_t errlen);
void replay_plan_free(struct replay_plan *plan);
/*
 * Make sure the plan's replay ends (replay_derive() calls it): a BLOCK
 * that no WAKE can ever satisfy becomes a SLEEP of no time, a task nothing
 * starts is started by the replay; each counts in anomalies. Returns 0, or
 * -1 when out of memory.
 */
int replay_plan_complete(struct replay_plan *plan);


#endif
