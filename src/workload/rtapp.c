/*
 * rtapp.c - run an rt-app file (rtapp.h) the way rt-app's thread loop
 * does (scheduler-tools/rt-app, src/rt-app.c: run_event(), thread_body()).
 *
 * Every thread instance is a thread of one process, released together
 * (rt-app's start barrier) at t_zero; a "delay" sleeps until t_zero +
 * delay, which is also where the thread's timers start (t_first). Events:
 *  run N       N us of CPU work (rt-app calibrates a loop count on the
 *              calibration CPU; here the work is N us at full capacity)
 *  runtime N   32 us chunks of work until N us of wall time have passed
 *  sleep N     nanosleep(N us), with the timer slack of SCHED_OTHER
 *  timer       next += period (the first next is t_first); if now < next,
 *              clock_nanosleep(next) and wake-up latency = woken - next;
 *              else no sleep, latency 0, and in relative mode next = now
 *  lock/unlock pthread mutexes; wait/signal/broad condition variables;
 *  sync        signal, then wait (as rt-app's code does it)
 *  barrier     the last of its users broadcasts, the others wait
 *  suspend     wait on the thread's own condition; resume broadcasts it
 * One log row per phase iteration: period, run time, slack, wake-up
 * latency, as rt-app's per-thread logs; the report prints their means per
 * thread, and the result is the mean timer wake-up latency in us.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/futex.h"
#include "launcher.h"
#include "kern/metrics.h"
#include "rtapp.h"

#define RA_RUNTIME_CHUNK_NS (32 * NSEC_PER_USEC)
#define RA_WSS_BYTES (32 * 1024)

struct rtapp;

struct ra_timer_state {
	u64 next;
	bool init;
};

/* Shared state of one named resource. */
struct ra_rt_res {
	struct ws_mutex m;
	struct ws_cond c;
	struct ra_timer_state timer;
	int waiting;			/* barrier */
	unsigned long posts;		/* signals, broadcasts and resumes of c */
};

struct ra_stats {
	unsigned long long rows;
	u64 sum_period_ns, sum_run_ns;
	long long sum_slack_us;
	unsigned long long sum_wu_us;
};

struct ra_thread {
	struct rtapp *ra;
	const struct ra_task *t;
	int inst;
	char comm[16];
	int loop, ph, ph_loop, ev, sub;
	bool started, exited;
	u64 t_first;
	struct ra_timer_state *local;	/* [nres]: "unique" timers */
	/* the current phase iteration (one log row) */
	u64 row_start, row_run_ns, ev_start;
	long long row_slack_us;
	unsigned long long row_wu_us;
	int seq;			/* condition sequence sampled before waiting */
	struct ra_stats st;
	u64 events_done;
};

struct rtapp {
	struct workload *wl;
	struct ra_file f;
	struct launcher l;
	struct wl_child *child;
	struct ra_thread *thr;
	struct ra_rt_res *res;
	u64 t_zero;
	struct hist wu;			/* every timer wake-up latency, ns */
	unsigned long long timer_late;	/* timer events already overdue */
};

const char rtapp_usage[] =
	"Usage: rt-app FILE.json          (rt-app's workload files)\n"
	"  Simulated: global duration, default_policy (SCHED_OTHER), calibration,\n"
	"  cumulative_slack; tasks with instance, loop, phases, cpus, delay,\n"
	"  priority (the nice value of a SCHED_OTHER thread), policy SCHED_OTHER;\n"
	"  events run, runtime, sleep, timer, lock, unlock, wait, signal, broad,\n"
	"  sync, barrier, suspend, resume (keys by prefix: run0, timer1, ...).\n"
	"  Logging keys (logdir, log_basename, log_size, ftrace, gnuplot) write no\n"
	"  files: the report lists them. Anything else rt-app knows (mem, iorun,\n"
	"  yield, fork, RT and deadline policies, uclamp, taskgroup) is refused\n"
	"  with the file, line and key.\n"
	"Output: per thread, the means of rt-app's log columns; result: the mean\n"
	"wake-up latency of timer events (us).\n";

static void block(struct step *out)
{
	out->kind = STEP_BLOCK;
}

static void end_row(struct sim *sim, struct ra_thread *th)
{
	th->st.rows++;
	th->st.sum_period_ns += sim->now - th->row_start;
	th->st.sum_run_ns += th->row_run_ns;
	th->st.sum_slack_us += th->row_slack_us;
	th->st.sum_wu_us += th->row_wu_us;
}

/* The file asks for something pthreads forbid: stop with its line. */
static void input_error(struct rtapp *ra, struct task_struct *p, const struct ra_thread *th,
			const struct ra_event *e, const char *what)
{
	char where[200];

	p->__state = TASK_INTERRUPTIBLE; /* it stops here; the run ends */
	rtapp_where(&ra->f, e->key, where, sizeof(where));
	snprintf(ra->wl->input_error, sizeof(ra->wl->input_error), "%sthread %s %s", where,
		 th->comm, what);
	ra->wl->done = true;
}

/* The affinity a phase runs with: its own, else the thread's, else all. */
static const struct cpumask *phase_mask(struct sim *sim, const struct ra_thread *th)
{
	const struct ra_phase *ph = &th->t->ph[th->ph];

	if (ph->has_cpus)
		return &ph->cpus;
	if (th->t->has_cpus)
		return &th->t->cpus;
	return &sim->cfg.allowed;
}

/*
 * pthread_cond_wait(c, m) as steps from th->sub = 1: true once p holds m
 * again after a signal; false when out says block (continue at th->sub).
 */
static bool cond_wait_steps(struct sim *sim, struct task_struct *p, struct ra_thread *th,
			    struct ws_cond *c, struct ws_mutex *m, struct step *out)
{
	if (th->sub == 1) {
		th->sub = 2;
		if (cond_wait_begin(sim, c, m, p, &th->seq)) {
			block(out);
			return false;
		}
		th->sub = 3;
	}
	if (th->sub == 2) {
		if (cond_wait_again(sim, c, p, th->seq)) {
			block(out);
			return false;
		}
		th->sub = 3;
	}
	if (mutex_lock_ws(sim, m, p)) {
		block(out);
		return false;
	}
	return true;
}

/*
 * One event; returns true when it is complete, false when out was filled
 * (run or block) and the event continues at th->sub when p is called again.
 */
static bool do_event(struct sim *sim, struct task_struct *p, struct ra_thread *th,
		     const struct ra_event *e, struct step *out)
{
	struct rtapp *ra = th->ra;
	struct ra_rt_res *r = e->res >= 0 ? &ra->res[e->res] : NULL;
	struct ra_rt_res *mx = e->mutex >= 0 ? &ra->res[e->mutex] : NULL;

	switch (e->type) {
	case RA_RUN:
		if (th->sub == 0) {
			th->ev_start = sim->now;
			th->sub = 1;
			step_user(out, e->usec * NSEC_PER_USEC);
			return false;
		}
		th->row_run_ns += sim->now - th->ev_start;
		return true;
	case RA_RUNTIME:
		if (th->sub == 0) {
			th->ev_start = sim->now;
			th->sub = 1;
		}
		if ((sim->now - th->ev_start) / NSEC_PER_USEC < e->usec) {
			step_user(out, RA_RUNTIME_CHUNK_NS);
			return false;
		}
		th->row_run_ns += sim->now - th->ev_start;
		return true;
	case RA_SLEEP:
		if (th->sub == 0) {
			th->sub = 1;
			task_sleep_until(sim, p, sim->now + e->usec * NSEC_PER_USEC);
			block(out);
			return false;
		}
		return true;
	case RA_TIMER: {
		struct ra_timer_state *ts = e->unique ? &th->local[e->res] : &r->timer;
		u64 period = e->usec * NSEC_PER_USEC;

		if (th->sub == 1) {
			/* Woken: latency against the programmed expiry. */
			u64 lat = sim->now - ts->next;

			th->row_wu_us += lat / NSEC_PER_USEC;
			hist_add(&ra->wu, lat);
			return true;
		}
		if (!ts->init) {
			ts->init = true;
			ts->next = th->t_first;
		}
		ts->next += period;
		long long slack = ((long long)ts->next - (long long)sim->now) / 1000;

		th->row_slack_us = ra->f.cumulative_slack ? th->row_slack_us + slack : slack;
		if (sim->now < ts->next) {
			th->sub = 1;
			task_sleep_until(sim, p, ts->next);
			block(out);
			return false;
		}
		ra->timer_late++;
		if (!e->absolute)
			ts->next = sim->now;
		th->row_wu_us = 0;
		return true;
	}
	case RA_LOCK:
		if (mutex_lock_ws(sim, &r->m, p)) {
			block(out);
			return false;
		}
		return true;
	case RA_UNLOCK:
		if (r->m.owner != p) {
			input_error(ra, p, th, e, "unlocks a mutex it does not hold");
			block(out);
			return false;
		}
		mutex_unlock_ws(sim, &r->m, p);
		return true;
	case RA_SIGNAL:
	case RA_BROAD:
		cond_signal_ws(sim, &r->c, e->type == RA_BROAD);
		r->posts++;
		return true;
	case RA_SYNC:
	case RA_WAIT:
	case RA_SUSPEND:
		/* suspend: lock(own), wait(own), unlock(own); wait/sync: the
		 * caller holds the mutex (sync signals first). */
		if (th->sub == 0) {
			if (e->type == RA_SUSPEND && mutex_lock_ws(sim, &mx->m, p)) {
				block(out);
				return false;
			}
			if (e->type != RA_SUSPEND && mx->m.owner != p) {
				/* pthread_cond_wait() needs the mutex held. */
				input_error(ra, p, th, e, "waits on a condition without holding "
					    "its mutex (lock it first)");
				block(out);
				return false;
			}
			if (e->type == RA_SYNC) {
				cond_signal_ws(sim, &r->c, false);
				r->posts++;
			}
			th->sub = 1;
		}
		if (!cond_wait_steps(sim, p, th, &r->c, &mx->m, out))
			return false;
		if (e->type == RA_SUSPEND)
			mutex_unlock_ws(sim, &mx->m, p);
		return true;
	case RA_RESUME:
		if (mutex_lock_ws(sim, &mx->m, p)) {
			block(out);
			return false;
		}
		cond_signal_ws(sim, &r->c, true);
		r->posts++;
		mutex_unlock_ws(sim, &mx->m, p);
		return true;
	case RA_BARRIER:
		if (th->sub == 0) {
			if (mutex_lock_ws(sim, &r->m, p)) {
				block(out);
				return false;
			}
			if (r->waiting == 0) {
				/* The last to arrive: everyone else waits. */
				cond_signal_ws(sim, &r->c, true);
				mutex_unlock_ws(sim, &r->m, p);
				return true;
			}
			r->waiting--;
			th->sub = 1;
		}
		if (!cond_wait_steps(sim, p, th, &r->c, &r->m, out))
			return false;
		r->waiting++;
		mutex_unlock_ws(sim, &r->m, p);
		return true;
	}
	return true;
}

enum { S_GO = -3, S_DELAY = -2, S_PHASE = -1 };

static void thread_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct ra_thread *th = p->prog;
	struct rtapp *ra = th->ra;
	const struct ra_task *t = th->t;

	for (;;) {
		if (p->killed)
			th->exited = true;
		if (launcher_child_killed(sim, &ra->l, p, out))
			return;
		if (th->ev == S_GO) {
			if (launcher_wait_go(sim, &ra->l, p)) {
				block(out);
				return;
			}
			th->t_first = ra->t_zero + t->delay_us * NSEC_PER_USEC;
			th->ev = S_DELAY;
			if (t->delay_us) {
				task_sleep_until(sim, p, th->t_first);
				block(out);
				return;
			}
			continue;
		}
		if (th->ev == S_DELAY) {
			th->ev = S_PHASE;
			continue;
		}
		if (th->ev == S_PHASE) {
			/* A phase iteration starts: its affinity, a new log row. */
			th->ev = 0;
			th->sub = 0;
			th->row_start = sim->now;
			th->row_run_ns = 0;
			th->row_wu_us = 0;
			th->row_slack_us = 0;
			const struct cpumask *m = phase_mask(sim, th);

			if (!cpumask_equal(m, p->cpus_ptr) && set_cpus_allowed_self(sim, p, m) == 1) {
				block(out);
				return;
			}
			continue;
		}
		const struct ra_phase *ph = &t->ph[th->ph];

		if (!do_event(sim, p, th, &ph->ev[th->ev], out))
			return;
		th->events_done++;
		th->sub = 0;
		if (++th->ev < ph->nev)
			continue;
		end_row(sim, th);
		th->ev = S_PHASE;
		if (++th->ph_loop < ph->loop)
			continue;
		th->ph_loop = 0;
		if (++th->ph < t->nph)
			continue;
		th->ph = 0;
		if (t->loop < 0 || ++th->loop < t->loop)
			continue;
		th->exited = true;
		launcher_child_exit(sim, &ra->l);
		out->kind = STEP_EXIT;
		return;
	}
}

static void on_start(struct sim *sim, struct launcher *l)
{
	struct rtapp *ra = l->wl->priv;

	ra->t_zero = sim->now;
}

/*
 * global.duration is over: a thread that never finished a row and sleeps
 * on a condition (wait, sync, suspend) that nothing signalled in the whole
 * run waited for something the file never does; or on a mutex whose
 * holder waits, through a chain of holders, on one it holds (a cycle, as
 * two threads taking two mutexes in opposite orders): a deadlock, not a
 * result. (A mutex held by a running thread, or a barrier, may just be
 * slow: not judged.)
 */
/* The event thread i (index in ra->thr) sleeps in, or NULL if it does not. */
static const struct ra_event *asleep_in(const struct rtapp *ra, int i)
{
	const struct ra_thread *th = &ra->thr[i];
	const struct task_struct *p = ra->child[i].task;

	if (!p || p->__state == TASK_RUNNING || th->ev < 0 || th->ev >= th->t->ph[th->ph].nev)
		return NULL;
	return &th->t->ph[th->ph].ev[th->ev];
}

/* Whether thread i's lock wait leads, holder by holder, back to thread i. */
static bool lock_cycle(const struct rtapp *ra, int i)
{
	int cur = i;

	for (int n = 0; n < ra->f.nthreads; n++) {
		const struct ra_event *e = asleep_in(ra, cur);
		const struct task_struct *owner;
		int next = -1;

		if (!e || e->type != RA_LOCK || e->res < 0 || !(owner = ra->res[e->res].m.owner))
			return false;
		for (int k = 0; k < ra->f.nthreads; k++)
			if (ra->child[k].task == owner)
				next = k;
		if (next < 0)
			return false;
		if (next == i)
			return true;
		cur = next;
	}
	return false;
}

static void on_duration_end(struct sim *sim, struct launcher *l)
{
	struct rtapp *ra = l->wl->priv;

	(void)sim;
	for (int i = 0; i < ra->f.nthreads; i++) {
		const struct ra_thread *th = &ra->thr[i];
		const struct ra_event *e = th->st.rows ? NULL : asleep_in(ra, i);
		const char *what, *why = "nothing signalled it in the whole run";

		if (!e)
			continue;

		switch (e->type) {
		case RA_WAIT: case RA_SYNC: what = "condition"; break;
		case RA_SUSPEND: what = "resume of"; break;
		case RA_LOCK:
			what = "mutex";
			why = "its holder waits, directly or through other holders, for a mutex "
			      "this thread holds";
			break;
		default: continue;
		}
		if (e->res < 0 || (e->type == RA_LOCK ? !lock_cycle(ra, i) : ra->res[e->res].posts > 0))
			continue;
		char where[200];

		rtapp_where(&ra->f, e->key, where, sizeof(where));
		snprintf(ra->wl->input_error, sizeof(ra->wl->input_error), "%sthread %s waited on %s "
			 "\"%s\" from its start to global.duration's end without a row done, and "
			 "%s (a deadlock)", where, th->comm, what, ra->f.res[e->res].name, why);
		ra->wl->done = true;
		return;
	}
}

static int ra_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct rtapp *ra = wl->priv;
	struct ra_file *f = &ra->f;
	int n = 0;

	if (rtapp_check_cpus(f, sim->m->topo.nr_cpus, err, errlen))
		return -1;
	ra->res = calloc((size_t)f->nres, sizeof(*ra->res));
	ra->thr = calloc((size_t)f->nthreads, sizeof(*ra->thr));
	ra->child = calloc((size_t)f->nthreads, sizeof(*ra->child));
	if ((f->nres && !ra->res) || !ra->thr || !ra->child) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < f->nres; i++) {
		mutex_init_ws(&ra->res[i].m);
		cond_init_ws(&ra->res[i].c);
		/* rt-app starts the count at -1, each user in the file adds one. */
		ra->res[i].waiting = f->res[i].users - 1;
	}
	for (int k = 0; k < f->ntask; k++) {
		const struct ra_task *t = &f->task[k];

		if (t->has_cpus) {
			struct cpumask m;

			cpumask_and(&m, &t->cpus, &sim->cfg.allowed);
			if (cpumask_empty(&m)) {
				snprintf(err, errlen, "%s:%d: field \"tasks.%s.cpus\": none of these CPUs is "
					 "in the run's --cpus/--node binding", f->path, t->cpus_line,
					 t->name);
				return -1;
			}
		}
		for (int i = 0; i < t->instance; i++, n++) {
			struct ra_thread *th = &ra->thr[n];

			*th = (struct ra_thread){ .ra = ra, .t = t, .inst = i, .ev = S_GO };
			th->local = calloc((size_t)(f->nres ? f->nres : 1), sizeof(*th->local));
			if (!th->local) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			snprintf(th->comm, sizeof(th->comm), "%.12s-%d", t->name, i);
			ra->child[n] = (struct wl_child){ .comm = th->comm, .fn = thread_step,
							  .prog = th, .thread = true,
							  .wss_bytes = RA_WSS_BYTES, .nice = t->nice,
							  .pinned = t->has_cpus };
			if (t->has_cpus)
				cpumask_copy(&ra->child[n].affinity, &t->cpus);
		}
	}
	launcher_init(&ra->l, wl, ra->child, f->nthreads);
	ra->l.start_pipe = true;
	ra->l.on_start = on_start;
	if (f->duration_s > 0) {
		ra->l.window_ns = (u64)f->duration_s * NSEC_PER_SEC;
		ra->l.kill_at_end = true;
		ra->l.on_window_close = on_duration_end;
	}
	return launcher_start(sim, &ra->l, "rt-app", err, errlen);
}

static void ra_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct rtapp *ra = wl->priv;

	(void)sim;
	fprintf(out, "rt-app %s: %d threads, %s\n", ra->f.path, ra->f.nthreads,
		ra->f.duration_s > 0 ? "until global.duration" : "until every thread ends");
	if (ra->f.notes[0])
		fprintf(out, "accepted without effect: %s\n", ra->f.notes);
	if (ra->f.renamed)
		fprintf(out, "%d repeated keys renamed as workgen renames them (run in file order)\n",
			ra->f.renamed);
	fprintf(out, "%-16s %8s %12s %12s %12s %12s\n", "#thread", "rows", "period_us", "run_us",
		"slack_us", "wu_lat_us");
	for (int i = 0; i < ra->f.nthreads; i++) {
		const struct ra_thread *th = &ra->thr[i];
		const struct ra_stats *s = &th->st;
		double n = s->rows ? (double)s->rows : 1;

		if (i >= 32) {
			fprintf(out, "(%d more threads)\n", ra->f.nthreads - 32);
			break;
		}
		fprintf(out, "%-16s %8llu %12.1f %12.1f %12.1f %12.1f\n", th->comm, s->rows,
			(double)s->sum_period_ns / 1e3 / n, (double)s->sum_run_ns / 1e3 / n,
			(double)s->sum_slack_us / n, (double)s->sum_wu_us / n);
	}
	if (!ra->wu.count && !ra->timer_late) {
		fprintf(out, "timer wake-ups: none (the file has no timer events: no wake-up latency)\n");
		return;
	}
	fprintf(out, "timer wake-ups: %llu, mean %.1f us, p99 %.1f us; overdue timer events: %llu\n",
		(unsigned long long)ra->wu.count,
		ra->wu.count ? (double)ra->wu.sum_ns / (double)ra->wu.count / 1e3 : 0.0,
		(double)hist_quantile(&ra->wu, 0.99) / 1e3, ra->timer_late);
}

static double ra_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct rtapp *ra = wl->priv;

	(void)sim;
	*unit = "us timer wu_lat";
	*hib = false;
	/*
	 * No timer event at all: no latency to report, not a latency of 0.
	 * Only overdue ones: 0, as rt-app logs an overdue timer's wu_lat.
	 */
	if (!ra->wu.count)
		return ra->timer_late ? 0 : NAN;
	return (double)ra->wu.sum_ns / (double)ra->wu.count / 1e3;
}

static int ra_check(struct workload *wl, char *why, size_t len)
{
	struct rtapp *ra = wl->priv;

	for (int i = 0; i < ra->f.nthreads; i++) {
		const struct ra_thread *th = &ra->thr[i];

		if (!th->exited) {
			snprintf(why, len, "thread %s did not end", th->comm);
			return -1;
		}
		/* A thread that ended by itself ran every row of its loops. */
		if (th->t->loop > 0 && ra->f.duration_s < 0) {
			unsigned long long rows = 0;

			for (int p = 0; p < th->t->nph; p++)
				rows += (unsigned long long)th->t->ph[p].loop;
			rows *= (unsigned long long)th->t->loop;
			if (th->st.rows != rows) {
				snprintf(why, len, "thread %s logged %llu rows, its loops make %llu",
					 th->comm, th->st.rows, rows);
				return -1;
			}
		}
	}
	return 0;
}

static void ra_free(struct workload *wl)
{
	struct rtapp *ra = wl->priv;

	if (ra) {
		for (int i = 0; ra->thr && i < ra->f.nthreads; i++)
			free(ra->thr[i].local);
		if (ra->child)
			launcher_free(&ra->l);
		rtapp_file_free(&ra->f);
		free(ra->thr);
		free(ra->child);
		free(ra->res);
		free(ra);
	}
	free(wl);
}

static double ra_done_fraction(const struct sim *sim, const struct workload *wl)
{
	return launcher_done_fraction(sim, &((const struct rtapp *)wl->priv)->l);
}

static const struct workload_ops rtapp_ops = {
	.name = "rt-app",
	.start = ra_start,
	.report = ra_report,
	.result = ra_result,
	.check = ra_check,
	.free = ra_free,
	.input_may_deadlock = true,
	.done_fraction = ra_done_fraction,
};

struct workload *rtapp_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			*help = true;
			snprintf(err, errlen, "%s", rtapp_usage);
			return NULL;
		}
	if (argc != 2) {
		snprintf(err, errlen, argc < 2 ? "rt-app: FILE.json missing (rt-app FILE.json)"
					       : "rt-app: expected one argument, FILE.json");
		return NULL;
	}
	if (!strcmp(argv[1], "-")) {
		snprintf(err, errlen, "rt-app: reading the file from standard input (\"-\") is not "
			 "simulated: give its path");
		return NULL;
	}
	if (argv[1][0] == '-') {
		snprintf(err, errlen, "rt-app: unknown option \"%s\" (rt-app FILE.json)", argv[1]);
		return NULL;
	}

	struct workload *wl = calloc(1, sizeof(*wl));
	struct rtapp *ra = calloc(1, sizeof(*ra));

	if (!wl || !ra) {
		free(wl);
		free(ra);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &rtapp_ops;
	wl->priv = ra;
	ra->wl = wl;
	if (rtapp_parse(argv[1], &ra->f, err, errlen)) {
		ra_free(wl);
		return NULL;
	}
	return wl;
}
