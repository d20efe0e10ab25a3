/*
 * launcher.h - the parent process every benchmark has: it forks its
 * workers (fork() or pthread_create(), each placed by the fork path),
 * optionally releases them together through a start pipe they poll (as
 * will-it-scale and hackbench do), runs the measurement window, then
 * stops them (SIGKILL) and reaps them. A workload describes its children
 * and gets callbacks; the launcher owns the process mechanics.
 */
#ifndef WS_LAUNCHER_H
#define WS_LAUNCHER_H

#include "ipc/chan.h"
#include "kern/timer.h"
#include "workload.h"

struct launcher;

struct wl_child {
	const char *comm;
	task_step_fn fn;
	void *prog;
	bool thread;			/* pthread_create() in the launcher's process */
	unsigned int wss_bytes;		/* working set refilled after migrations */
	int nice;			/* -20..19 (set_user_nice() before it runs) */
	bool pinned;			/* affinity below, intersected with --cpus */
	struct cpumask affinity;
	struct task_struct *task;	/* set when forked */
};

struct launcher {
	struct workload *wl;
	struct wl_child *child;
	int nr_children, forked, exited, reaped;
	bool start_pipe;		/* children poll it; the launcher writes "go" */
	struct chan go;
	u64 window_ns;			/* measurement length; 0: until children exit */
	u64 warmup_ns;			/* before the window opens */
	u64 start_ns, window_start_ns, window_end_ns;
	bool window_opened, window_closed;
	/* Called at go (start_ns), when the window opens and when it closes. */
	void (*on_start)(struct sim *sim, struct launcher *l);
	void (*on_window_open)(struct sim *sim, struct launcher *l);
	void (*on_window_close)(struct sim *sim, struct launcher *l);
	bool kill_at_end;		/* SIGKILL the children when the window closes */
	struct sim_timer window_timer;
	struct wait_queue_head child_exit;
	struct task_struct *task;
	int mm_id;
	int state;
	bool slept;
};

/* A launcher for n children (array filled by the caller). */
void launcher_init(struct launcher *l, struct workload *wl, struct wl_child *child, int n);
void launcher_free(struct launcher *l);
/* Create the launcher task (the "main" of the benchmark) on the first allowed CPU. */
int launcher_start(struct sim *sim, struct launcher *l, const char *comm, char *err,
		   size_t errlen);
/*
 * The share of a timed run done, 0..1, for the progress display: simulated
 * time since go over the warm-up and window (a workload's done_fraction);
 * -1 without a window (the run ends when its children do).
 */
double launcher_done_fraction(const struct sim *sim, const struct launcher *l);

/*
 * Close the open measurement window now, before window_ns (--until-steady
 * found the rate steady): on_window_close and kill_at_end follow as at
 * the window's end. Nothing if the window is not open.
 */
void launcher_close_window(struct sim *sim, struct launcher *l);
/* A child's program calls this before returning STEP_EXIT. */
void launcher_child_exit(struct sim *sim, struct launcher *l);
/*
 * At the top of a child's step: if p was SIGKILLed, tell the launcher (l
 * may be NULL), set out to exit and return true.
 */
bool launcher_child_killed(struct sim *sim, struct launcher *l, struct task_struct *p,
			   struct step *out);
/*
 * The start barrier from a child's program: true while the child must
 * keep sleeping (it is queued on the start pipe); call again once woken.
 */
bool launcher_wait_go(struct sim *sim, struct launcher *l, struct task_struct *p);

/* Strict integer option parsing for workload flags (exit-2 messages). */
int wl_parse_long(const char *tool, const char *opt, const char *arg, long min, long max,
		  long *out, char *err, size_t errlen);

/* getopt() found an unknown option: name it (the letter, or the long word). */
void wl_bad_option(const char *tool, int argc, char **argv, char *err, size_t errlen);

/* Seconds with a fraction, "1", "0.5" -> ns; min..max in ns. */
int wl_parse_seconds(const char *tool, const char *opt, const char *arg, u64 min, u64 max,
		     u64 *out_ns, char *err, size_t errlen);

#endif
