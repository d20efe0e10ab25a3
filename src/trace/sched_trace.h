/*
 * sched_trace.h - a recorded scheduler trace, read from one of the files
 * kernel developers already make:
 *   perf script text of `perf sched record` (sched:NAME: lines);
 *   ftrace text: /sys/kernel/tracing/trace, `trace-cmd report` (with or
 *     without its sched plugin's layout), or wakesim's own `run --trace`;
 *   trace-cmd's trace.dat, through libtracecmd (read_dat.c).
 * Only the events that decide who ran and who woke whom are kept:
 * sched_switch, sched_waking, sched_wakeup(_new), sched_migrate_task,
 * sched_process_fork and sched_process_exit (include/trace/events/sched.h),
 * and sched_stat_runtime, which dates a switch-in a trace lost.
 */
#ifndef WS_SCHED_TRACE_H
#define WS_SCHED_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sev_type {
	SEV_SWITCH,		/* a = prev_pid, b = next_pid, state = prev_state */
	SEV_WAKING,		/* a = the woken pid (sched_waking: the waker's context) */
	SEV_WAKEUP,		/* a = the woken pid (sched_wakeup: maybe the target's context) */
	SEV_WAKEUP_NEW,		/* a = the new task's pid */
	SEV_MIGRATE,		/* a = pid, b = dest_cpu */
	SEV_FORK,		/* a = parent pid, b = child pid */
	SEV_EXIT,		/* a = pid */
	SEV_STAT_RUNTIME,	/* a = pid, val = runtime (ns since update_curr() last ran) */
	SEV_NR,
};

/* prev_state of a sched_switch, reduced to what replay needs. */
enum sev_state {
	SEV_PREEMPTED,		/* R or R+: still runnable */
	SEV_SLEEP,		/* S, D, I, T, ...: it blocked */
	SEV_DEAD,		/* X or Z */
};

struct sched_event {
	uint64_t ts_ns;
	uint32_t line;		/* source line (text), or record number (trace.dat) */
	int32_t cpu;
	int32_t pid;		/* the task current on cpu when it was written (0: idle) */
	int32_t a, b;
	uint64_t val;
	uint8_t type;		/* enum sev_type */
	uint8_t state;		/* enum sev_state, for SEV_SWITCH */
	bool irq;		/* written in hardirq/softirq context (flags 'h'/'s'/'H') */
};

/* A pid seen in the trace: the last comm it had, in first-seen order. */
struct sched_task {
	int pid;
	char comm[16];
};

struct sched_trace {
	char format[24];	/* "perf script", "ftrace text", "trace.dat" */
	struct sched_event *ev;
	size_t nr, cap;
	struct sched_task *task;
	int nr_task, cap_task;
	int *slot;		/* open addressing: pid -> index in task[] + 1 */
	int nr_slot;
	int nr_cpus;		/* 1 + the largest CPU seen (or #P of an ftrace header) */
	bool has_waking;	/* sched_waking present: it names the waker */
	size_t skipped;		/* lines of other events, kept out */
	size_t lost;		/* "[LOST N EVENTS]" markers: the trace has holes */
	uint32_t cut_line;	/* a last line without its newline, left out (0: none) */
	/* wakesim's own --trace-max-size marker: its line (0: none) and the
	 * simulated time it gives, ns. */
	uint32_t size_cut_line;
	uint64_t size_cut_ns;
	bool perf;		/* text lines in perf script's layout ("sched:EVENT") */
	uint64_t max_gap_ns;	/* the longest time between two events */
	uint32_t max_gap_line;	/* the line (record) after that gap */
};

/*
 * Read path into tr (zeroed by the caller), by its content: trace.dat by
 * its magic, else text lines in the perf script or ftrace layout. Events
 * are sorted by time (stable: the file's order among equal times). Returns
 * 0, or -1 with "FILE:LINE: field \"F\": what was expected" (or the
 * record's number for trace.dat) in err; tr is then freed.
 */
int sched_trace_read(const char *path, struct sched_trace *tr, char *err, size_t errlen);
void sched_trace_free(struct sched_trace *tr);

/* Parsers of one format, for sched_trace_read() and the fuzz targets. */
int sched_trace_parse_text(const char *path, const char *buf, size_t len, struct sched_trace *tr,
			   char *err, size_t errlen);
int sched_trace_read_dat(const char *path, struct sched_trace *tr, char *err, size_t errlen);

/* Builders the parsers share. Return 0, or -1 when out of memory. */
int sched_trace_add(struct sched_trace *tr, const struct sched_event *e);
/* Note that pid had this comm (the latest wins); comm may be NULL. */
int sched_trace_note(struct sched_trace *tr, int pid, const char *comm);
/* The task entry of pid, or NULL. */
const struct sched_task *sched_trace_task(const struct sched_trace *tr, int pid);
/* Sort by time, keeping file order among equal times; nr_cpus from the CPUs seen. */
void sched_trace_finish(struct sched_trace *tr);

/*
 * sched_switch's raw prev_state, as __trace_sched_switch_state()
 * (include/trace/events/sched.h, v4.14 to v6.12) encodes it: the
 * TASK_REPORT bits of task_state_index() (0x10 X, 0x20 Z, others a sleep),
 * TASK_REPORT_MAX (0x100) added for a preemption; no bit below 0x100 is R.
 */
static inline uint8_t sev_state_from_bits(unsigned long long bits)
{
	return bits & 0x30 ? SEV_DEAD : bits & 0xff ? SEV_SLEEP : SEV_PREEMPTED;
}

/* "sched_switch" for SEV_SWITCH, ... */
const char *sev_name(int type);

#endif
