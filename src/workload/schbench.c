/*
 * schbench.c - Chris Mason's schbench, the 2023 design (masoncl/schbench,
 * schbench.c): message threads, each with -t worker threads, measuring
 * wake-up latency, request latency and requests per second.
 *
 * Saturate mode (default): a worker marks its futex blocked, stamps its
 * wake_time, pushes itself on its message thread's list, posts the
 * message thread and waits on its own futex. The message thread splices
 * its list, reads the clock once, writes that time into every listed
 * worker's wake_time and posts each (so later wakees of a batch see the
 * batch's start: waker preemption shows). A woken worker records now -
 * wake_time (whole microseconds, zero not recorded), then serves one
 * request: usleep(-s), then -n naive multiplies of three matrices of
 * -F KiB under its CPU's spinning per-CPU lock (retrying if it migrated
 * while acquiring); the request latency runs from before the usleep
 * (after it with -C) to the end.
 *
 * RPS mode (-R): each message thread posts R/m requests per second to its
 * workers round-robin (skipping, after a 100 us sleep, a worker with more
 * than 128 pending), then sleeps out the second; a worker serves all its
 * queued requests back to back.
 *
 * Statistics: fio's log-linear histogram (exact below 512, 256 buckets per
 * power of two above) and its percentile walk; RPS is sampled once a
 * second by the main thread from the workers' loop counts, the first
 * sample (at start) being 0 as in schbench. Output as schbench prints it.
 *
 * --until-steady (ratesteady.h, a wakesim extension): the rule's warm-up
 * (or -w), after which the statistics are zeroed, then the measurement
 * ends once its halves agree; -r stays the longest measurement. The
 * figure whose halves must agree is the request rate in saturate mode;
 * with -R the rate is fixed by the message threads, so it is the wake-up
 * latency the workers record per second, which at a fixed request rate
 * moves with their mean wake-up latency.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/futex.h"
#include "kern/metwin.h"
#include "launcher.h"
#include "ratesteady.h"
#include "schbench.h"

/*
 * One multiply-add of the naive matrix product (ns, x1000): measured on
 * this project's host with schbench's loop on 104x104 unsigned longs,
 * 0.63-1.16 ns; 0.7 ns taken (docs/workloads.md).
 */
#define SCH_MAC_PS 700
/*
 * A spinner polls its CPU's lock until the holder releases it: one step of
 * up to this long, cut short by the release (task_end_work()).
 */
#define SCH_SPIN_NS (10 * NSEC_PER_MSEC)
#define SCH_BATCH 128		/* RPS mode: max pending per worker */
#define SCH_GTOD_NS 30		/* gettimeofday() through the vDSO */

#define PLAT_BITS SCH_PLAT_BITS
#define PLAT_VAL SCH_PLAT_VAL
#define PLAT_NR SCH_PLAT_NR

enum { FUTEX_BLOCKED_S = 0, FUTEX_RUNNING_S = 1 };

struct sch_stats {
	unsigned int plat[PLAT_NR];
	unsigned long long nr_samples;
	unsigned long long sum;		/* of the samples, us */
	unsigned int max, min;
};

struct schbench;
struct sch_msg;

struct sch_req {
	struct sch_req *next;
};

enum {
	W_MSG, W_POST, W_WAIT, W_WAITED, W_REQ, W_SLEPT, W_LOCK, W_MATH, W_DONE,
};
enum { M_START, M_WAKE, M_WAIT, M_RPS_ROUND, M_RPS_POST, M_RPS_SLEEP };

struct sch_worker {
	struct schbench *s;
	struct sch_msg *msg;
	struct futex futex;
	u64 wake_time_us;
	struct sch_worker *next;	/* on the message thread's list */
	unsigned long pending;		/* RPS mode */
	unsigned long queued;		/* requests handed to it, not yet served */
	unsigned long batch;		/* requests being served now */
	int state;
	int lock_cpu;
	u64 work_start_us;
	unsigned long long loop_count;
	unsigned long long waits;	/* returns from the futex wait */
	struct sch_worker *spin_next;	/* on a lock's spinners while spinning */
	struct sch_lock *spin_lock;	/* the lock it spins on, or NULL */
	struct task_struct *task;
};

struct sch_msg {
	struct schbench *s;
	int index;
	struct futex futex;
	struct sch_worker *list;	/* workers waiting for a post */
	struct sch_worker *workers;	/* [t] */
	int state;
	struct sch_worker *wake_list;	/* being posted */
	u64 batch_us;
	/* RPS mode */
	int rps_i, cur_tid;
	u64 round_start;
	unsigned long long posted;	/* RPS mode: requests queued */
	/* Its workers' histograms: schbench keeps them per worker and adds them
	 * up; one per message thread gives the same sums in 1/t the memory. */
	struct sch_stats wakeup, request;
};

struct sch_lock {
	struct task_struct *owner;
	struct sch_worker *spinners;	/* polling the word until it changes */
	struct cacheline line;
};

struct schbench {
	int m, t;			/* t = 0: ceil(ncpus / m), set at start */
	u64 runtime_s, warmup_s, interval_s;
	u64 sleep_us, footprint_kb, operations;
	u64 rps;			/* total; per message thread = rps / m */
	bool calibrate, skip_locking;
	u64 math_ns;			/* one do_some_math() */
	struct launcher l;
	struct wl_child *child;
	struct sch_msg *msgs;
	struct sch_worker *workers;	/* [m * t] */
	struct sch_lock *locks;		/* one per CPU */
	struct sch_stats rps_stats;
	unsigned long long last_loops;
	u64 last_rps_ns, last_calc_ns, start_ns;
	double current_rps;
	bool warmup_done;
	struct sim_timer tick;		/* the main thread's sleep(1) loop */
	int nr_ticks;
	bool stopping;
	unsigned long long final_loops;
	struct sch_stats fin_wakeup, fin_request;
	unsigned long long fin_msg_delay, fin_worker_delay;
	bool finished;
	char *log;
	size_t log_len;
	FILE *logf;
	/* --until-steady */
	struct rate_steady rs;
	bool warmup_set;		/* -w given: it is the warm-up */
	struct sim_timer warm_timer;	/* the warm-up's end, then -r's */
	u64 meas_start_ns, meas_ns;	/* the measured span, ns */
	unsigned long long meas_loops0;	/* loops done when it began */
};

const char schbench_usage[] =
	"Usage: schbench [-m MSG_THREADS] [-t WORKERS] [-r RUNTIME] [-w WARMUP]\n"
	"                [-i INTERVAL] [-R RPS] [-s SLEEP_US] [-n OPERATIONS]\n"
	"                [-F FOOTPRINT_KB] [-C] [-L]               (schbench's flags)\n"
	"  -m N   message threads (default 1)\n"
	"  -t N   workers per message thread (default ceil(CPUs / m))\n"
	"  -r S   runtime in seconds (default 30)\n"
	"  -w S   warm-up seconds, stats zeroed after (used only if -r >= 30)\n"
	"  -i S   interval between reports (default 10)\n"
	"  -R N   requests per second in total (default 0: saturate mode)\n"
	"  -s US  usleep per request (default 100)\n"
	"  -n N   matrix multiplies per request (default 5)\n"
	"  -F KB  cache footprint per worker (default 256)\n"
	"  -C     calibrate: no locking, and the usleep not in the request latency\n"
	"  -L     no per-CPU locking\n"
	RATE_STEADY_USAGE
	"              Here the figure is the request rate (with -R: the wake-up\n"
	"              latency recorded per second, and halves of at least 1 s, as\n"
	"              requests come in bursts once a second); -w, if given, is the warm-up;\n"
	"              -r stays the longest measurement after it.\n"
	"Output: schbench's percentile blocks; result: p99 wake-up latency (usec).\n"
	"Not simulated (refused): -p pipe mode, -A auto-rps, -M/-W pinning, -j/-J json.\n";

/* ---- fio's histogram (plat_val_to_idx / plat_idx_to_val), our code ---- */

unsigned int schbench_plat_index(unsigned int val)
{
	unsigned int msb = val ? 31u - (unsigned int)__builtin_clz(val) : 0;

	if (msb <= PLAT_BITS)
		return val;
	unsigned int error_bits = msb - PLAT_BITS;
	unsigned int base = (error_bits + 1) << PLAT_BITS;
	unsigned int idx = base + ((PLAT_VAL - 1) & (val >> error_bits));

	return idx < PLAT_NR - 1 ? idx : PLAT_NR - 1;
}

unsigned int schbench_plat_value(unsigned int idx)
{
	if (idx < (PLAT_VAL << 1))
		return idx;
	unsigned int error_bits = (idx >> PLAT_BITS) - 1;
	unsigned int base = 1u << (error_bits + PLAT_BITS);
	unsigned int k = idx % PLAT_VAL;

	/* The bucket's middle. */
	return base + (unsigned int)((k + 0.5) * (double)(1u << error_bits));
}

static void add_lat(struct sch_stats *st, unsigned int us)
{
	if (us > st->max)
		st->max = us;
	if (!st->min || us < st->min)
		st->min = us;
	st->plat[schbench_plat_index(us)]++;
	st->nr_samples++;
	st->sum += us;
}

static void combine(struct sch_stats *d, const struct sch_stats *s)
{
	for (int i = 0; i < PLAT_NR; i++)
		d->plat[i] += s->plat[i];
	d->nr_samples += s->nr_samples;
	d->sum += s->sum;
	if (s->max > d->max)
		d->max = s->max;
	if (!d->min || s->min < d->min)
		d->min = s->min;
}

static const double plist[] = { 20.0, 50.0, 90.0, 99.0, 99.9 };
#define NPLIST SCH_NPLIST

int schbench_percentiles(const unsigned int *plat, unsigned long long nr, unsigned int *val,
			 unsigned long long *cnt)
{
	unsigned long long sum = 0, last = 0;
	int j = 0;

	if (!nr)
		return 0;
	for (int i = 0; i < PLAT_NR && j < NPLIST; i++) {
		sum += plat[i];
		while (j < NPLIST && (double)sum >= plist[j] / 100.0 * (double)nr) {
			val[j] = schbench_plat_value((unsigned int)i);
			cnt[j] = sum;
			j++;
		}
	}
	for (int k = 1; k < j; k++) {
		last += cnt[k - 1];
		cnt[k] -= last;
	}
	return j;
}

/* runtime: s, printed with prec decimals (schbench's are whole seconds). */
static void show(FILE *f, const struct sch_stats *st, const char *label, const char *units,
		 double runtime, int prec, unsigned mask, unsigned star)
{
	unsigned int val[NPLIST];
	unsigned long long cnt[NPLIST];
	int n = schbench_percentiles(st->plat, st->nr_samples, val, cnt);

	if (n) {
		fprintf(f, "%s percentiles (%s) runtime %.*f (s) (%llu total samples)\n", label, units,
			prec, runtime, st->nr_samples);
		for (int i = 0; i < n; i++) {
			if (!(mask & (1u << i)))
				continue;
			fprintf(f, "\t%s%2.1fth: %-10u (%llu samples)\n", (1u << i) == star ? "* " : "  ",
				plist[i], val[i], cnt[i]);
		}
	}
	fprintf(f, "\t  min=%u, max=%u\n", st->min, st->max);
}

#define PL_20 (1u << 0)
#define PL_50 (1u << 1)
#define PL_90 (1u << 2)
#define PL_99 (1u << 3)
#define PL_999 (1u << 4)
#define PL_LAT (PL_50 | PL_90 | PL_99 | PL_999)
#define PL_RPS (PL_20 | PL_50 | PL_90)

/* ---- programs ---- */

static u64 now_us(const struct sim *sim)
{
	return sim->now / NSEC_PER_USEC;
}

/* fpost(): CAS blocked -> running, FUTEX_WAKE only if it was blocked. */
static void fpost(struct sim *sim, struct futex *f)
{
	line_write(sim, &f->line);
	if (f->val == FUTEX_BLOCKED_S) {
		f->val = FUTEX_RUNNING_S;
		futex_wake(sim, f, 1);
	}
}

/* fwait(): true while p must sleep (it is then queued on the futex). */
static bool fwait(struct sim *sim, struct futex *f, struct task_struct *p)
{
	line_write(sim, &f->line);
	finish_wait(&f->wq, p);
	if (f->val == FUTEX_RUNNING_S) {
		f->val = FUTEX_BLOCKED_S;
		return false;
	}
	return futex_wait(sim, f, p, FUTEX_BLOCKED_S);
}

/* Leave the spinner list of the lock w polled. */
static void spin_forget(struct sch_worker *w)
{
	struct sch_worker **pp;

	if (!w->spin_lock)
		return;
	for (pp = &w->spin_lock->spinners; *pp; pp = &(*pp)->spin_next)
		if (*pp == w) {
			*pp = w->spin_next;
			break;
		}
	w->spin_lock = NULL;
}

static bool finished(const struct schbench *s)
{
	return s->stopping;
}

static void worker_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct sch_worker *w = p->prog;
	struct schbench *s = w->s;

	for (;;) {
		if (launcher_child_killed(sim, &s->l, p, out))
			return;
		switch (w->state) {
		case W_MSG:
			/* msg_and_wait() */
			w->futex.val = FUTEX_BLOCKED_S;
			w->wake_time_us = now_us(sim);
			if (s->rps) {
				w->pending = 0;
				if (w->queued) {
					/* request_splice(): serve them all, no wait. */
					w->batch = w->queued;
					w->queued = 0;
					w->futex.val = FUTEX_RUNNING_S;
					w->state = W_REQ;
					continue;
				}
			} else {
				w->next = w->msg->list;
				w->msg->list = w;
			}
			w->state = W_POST;
			step_run(out, SCH_GTOD_NS, false);
			return;
		case W_POST:
			/* In RPS mode the message thread never blocks on its futex,
			 * so the CAS fails and nothing is woken. */
			fpost(sim, &w->msg->futex);
			w->state = W_WAIT;
			continue;
		case W_WAIT:
			if (!finished(s) && fwait(sim, &w->futex, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			w->state = W_WAITED;
			step_run(out, SCH_GTOD_NS, false);
			return;
		case W_WAITED: {
			u64 d = now_us(sim) - w->wake_time_us;

			w->waits++;
			if (d > 0)
				add_lat(&w->msg->wakeup, (unsigned int)(d > UINT32_MAX ? UINT32_MAX : d));
			if (s->rps) {
				w->state = W_MSG; /* returns NULL: go splice */
				continue;
			}
			w->batch = 1;
			w->state = W_REQ;
			continue;
		}
		case W_REQ:
			if (!s->calibrate)
				w->work_start_us = now_us(sim);
			if (s->sleep_us) {
				task_sleep_until(sim, p, sim->now + s->sleep_us * NSEC_PER_USEC);
				w->state = W_SLEPT;
				out->kind = STEP_BLOCK;
				return;
			}
			w->state = W_SLEPT;
			continue;
		case W_SLEPT:
			if (s->calibrate)
				w->work_start_us = now_us(sim);
			w->state = s->skip_locking ? W_MATH : W_LOCK;
			continue;
		case W_LOCK: {
			/* lock_this_cpu(): spin on trylock of this CPU's lock. */
			int cpu = sim->this_cpu;
			struct sch_lock *lk = &s->locks[cpu];
			line_write(sim, &lk->line);
			if (w->spin_lock && w->spin_lock != lk)
				spin_forget(w); /* it moved to another CPU */
			if (lk->owner && lk->owner != p) {
				if (!w->spin_lock) {
					w->spin_lock = lk;
					w->task = p;
					w->spin_next = lk->spinners;
					lk->spinners = w;
				}
				step_run(out, SCH_SPIN_NS, false);
				return;
			}
			spin_forget(w);
			lk->owner = p;
			w->lock_cpu = cpu;
			w->state = W_MATH;
			continue;
		}
		case W_MATH:
			w->state = W_DONE;
			step_run(out, s->operations * s->math_ns, false);
			return;
		case W_DONE: {
			if (!s->skip_locking) {
				struct sch_lock *lk = &s->locks[w->lock_cpu];

				lk->owner = NULL;
				/* The spinners see the word change and retry. */
				while (lk->spinners) {
					struct sch_worker *sp = lk->spinners;

					lk->spinners = sp->spin_next;
					sp->spin_lock = NULL;
					task_end_work(sim, sp->task);
				}
			}
			u64 d = now_us(sim) - w->work_start_us;

			w->loop_count++;
			if (d > 0)
				add_lat(&w->msg->request, (unsigned int)(d > UINT32_MAX ? UINT32_MAX : d));
			if (--w->batch) {
				w->state = W_REQ;
				continue;
			}
			w->state = W_MSG;
			continue;
		}
		}
	}
}

/* Message threads are children too: the launcher owns them. */
static void msg_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct sch_msg *m = p->prog;
	struct schbench *s = m->s;

	for (;;) {
		if (launcher_child_killed(sim, &s->l, p, out))
			return;
		switch (m->state) {
		case M_START:
			m->state = s->rps ? M_RPS_ROUND : M_WAKE;
			continue;
		case M_WAKE:
			/* run_msg_thread(): futex blocked, wake all listed, wait. */
			m->futex.val = FUTEX_BLOCKED_S;
			m->wake_list = m->list;
			m->list = NULL;
			m->batch_us = now_us(sim);
			while (m->wake_list) {
				struct sch_worker *w = m->wake_list;

				m->wake_list = w->next;
				w->next = NULL;
				w->wake_time_us = m->batch_us;
				fpost(sim, &w->futex);
			}
			m->state = M_WAIT;
			step_run(out, SCH_GTOD_NS, false);
			return;
		case M_WAIT:
			if (fwait(sim, &m->futex, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			m->state = M_WAKE;
			continue;
		case M_RPS_ROUND:
			m->round_start = sim->now;
			m->rps_i = 0;
			m->state = M_RPS_POST;
			continue;
		case M_RPS_POST: {
			u64 per = s->rps / (u64)s->m;

			if (m->rps_i >= (int)per) {
				m->state = M_RPS_SLEEP;
				continue;
			}
			m->rps_i++;
			struct sch_worker *w = &m->workers[m->cur_tid++ % s->t];

			if (w->pending > SCH_BATCH) {
				task_sleep_until(sim, p, sim->now + 100 * NSEC_PER_USEC);
				out->kind = STEP_BLOCK;
				return;
			}
			w->pending++;
			w->queued++;
			m->posted++;
			w->wake_time_us = now_us(sim);
			fpost(sim, &w->futex);
			/* gettimeofday() and a malloc() per request */
			step_run(out, SCH_GTOD_NS + 50, false);
			return;
		}
		case M_RPS_SLEEP:
			if (sim->now - m->round_start < NSEC_PER_SEC) {
				task_sleep_until(sim, p, m->round_start + NSEC_PER_SEC);
				out->kind = STEP_BLOCK;
				return;
			}
			m->state = M_RPS_ROUND;
			continue;
		}
	}
}

static unsigned long long total_loops(const struct schbench *s)
{
	unsigned long long n = 0;

	for (int i = 0; i < s->m * s->t; i++)
		n += s->workers[i].loop_count;
	return n;
}

static void combine_all(const struct schbench *s, struct sch_stats *wk, struct sch_stats *rq)
{
	memset(wk, 0, sizeof(*wk));
	memset(rq, 0, sizeof(*rq));
	for (int i = 0; i < s->m; i++) {
		combine(wk, &s->msgs[i].wakeup);
		combine(rq, &s->msgs[i].request);
	}
}

/* collect_sched_delay(): mean rq wait per switch-in, averaged per thread. */
static void sched_delay(const struct schbench *s, unsigned long long *msg, unsigned long long *wk)
{
	unsigned long long md = 0, wd = 0;

	/* Children: message thread i, then its t workers. */
	for (int i = 0; i < s->l.forked; i++) {
		const struct task_struct *t = s->child[i].task;
		unsigned long long d = t && t->pcount ? t->run_delay / t->pcount : 0;

		if (i % (s->t + 1) == 0)
			md += d;
		else
			wd += d;
	}
	*msg = md / (unsigned long long)s->m;
	*wk = wd / (unsigned long long)(s->m * s->t);
}

static void reset_stats(struct schbench *s)
{
	memset(&s->rps_stats, 0, sizeof(s->rps_stats));
	for (int i = 0; i < s->m; i++) {
		memset(&s->msgs[i].wakeup, 0, sizeof(s->msgs[i].wakeup));
		memset(&s->msgs[i].request, 0, sizeof(s->msgs[i].request));
	}
}

/* The run's end: the final statistics, then the threads go. */
static void finish(struct sim *sim, struct schbench *s)
{
	s->stopping = true;
	metrics_window_end(sim);
	s->final_loops = total_loops(s);
	if (s->rs.on)
		s->meas_ns = sim->now - s->meas_start_ns;
	combine_all(s, &s->fin_wakeup, &s->fin_request);
	sched_delay(s, &s->fin_msg_delay, &s->fin_worker_delay);
	s->finished = true;
	for (int i = 0; i < s->l.forked; i++)
		if (s->l.child[i].task && s->l.child[i].task->__state != TASK_DEAD)
			send_sigkill(sim, s->l.child[i].task);
}

static u64 steady_units(const struct sim *sim, void *arg)
{
	const struct schbench *s = arg;
	unsigned long long lat = 0;

	(void)sim;
	if (!s->rps)
		return total_loops(s);
	for (int i = 0; i < s->m; i++)
		lat += s->msgs[i].wakeup.sum;
	return lat;
}

static void steady_stop(struct sim *sim, void *arg)
{
	struct schbench *s = arg;

	rate_steady_end(sim, &s->rs);
	timer_cancel(sim, &s->tick);
	timer_cancel(sim, &s->warm_timer);
	finish(sim, s);
}

/* --until-steady: -r of measurement are over, steady or not. */
static void measure_end_fn(struct sim *sim, struct sim_timer *tm)
{
	struct schbench *s = tm->data;

	if (s->stopping)
		return;
	rate_steady_end(sim, &s->rs);
	timer_cancel(sim, &s->tick);
	finish(sim, s);
}

/* --until-steady: the warm-up is over; zero the statistics and measure. */
static void warm_fn(struct sim *sim, struct sim_timer *tm)
{
	struct schbench *s = tm->data;

	fprintf(s->logf, "warmup done, zeroing stats\n");
	reset_stats(s);
	metrics_window_begin(sim);
	s->meas_start_ns = sim->now;
	s->meas_loops0 = total_loops(s);
	s->rs.units = steady_units;
	s->rs.stop = steady_stop;
	s->rs.arg = s;
	rate_steady_begin(sim, &s->rs, sim->now, sim->now - s->start_ns);
	/* -r is the longest measurement: to the ns, not at the next 1 s tick. */
	timer_init(&s->warm_timer, measure_end_fn, s);
	timer_arm(sim, &s->warm_timer, -1, sim->now + s->runtime_s * NSEC_PER_SEC);
}

/* The main thread's loop (sleep_for_runtime()), once a second. */
static void tick_fn(struct sim *sim, struct sim_timer *tm)
{
	struct schbench *s = tm->data;
	u64 elapsed = sim->now - s->start_ns;
	/* --until-steady: -r counts from the warm-up's end (measure_end_fn()) */
	bool done = !s->rs.on && elapsed >= s->runtime_s * NSEC_PER_SEC;

	if (!s->rs.on && !s->rps && elapsed > s->warmup_s * NSEC_PER_SEC && !s->warmup_done && s->warmup_s) {
		s->warmup_done = true;
		fprintf(s->logf, "warmup done, zeroing stats\n");
		reset_stats(s);
		metrics_window_begin(sim);
	} else {
		u64 d = sim->now - s->last_rps_ns;
		unsigned long long loops = total_loops(s);
		double rps = d ? (double)(loops - s->last_loops) * 1e9 / (double)d : 0;

		s->last_loops = loops;
		s->last_rps_ns = sim->now;
		s->current_rps = rps;
		add_lat(&s->rps_stats, (unsigned int)rps);
		if (sim->now - s->last_calc_ns >= s->interval_s * NSEC_PER_SEC) {
			struct sch_stats wk, rq;
			unsigned long long md, wd;

			combine_all(s, &wk, &rq);
			sched_delay(s, &md, &wd);
			s->last_calc_ns = sim->now;
			double rt = (double)(elapsed / NSEC_PER_SEC);

			show(s->logf, &wk, "Wakeup Latencies", "usec", rt, 0, PL_LAT, PL_99);
			show(s->logf, &rq, "Request Latencies", "usec", rt, 0, PL_LAT, PL_99);
			show(s->logf, &s->rps_stats, "RPS", "requests", rt, 0, PL_RPS, PL_50);
			fprintf(s->logf, "sched delay: message %llu (usec) worker %llu (usec)\n",
				md / 1000, wd / 1000);
			fprintf(s->logf, "current rps: %.2f\n", rps);
		}
	}
	if (!done) {
		timer_arm(sim, tm, -1, sim->now + NSEC_PER_SEC);
		return;
	}
	rate_steady_end(sim, &s->rs);
	finish(sim, s);
}

static void on_start(struct sim *sim, struct launcher *l)
{
	struct schbench *s = l->wl->priv;

	s->start_ns = s->last_rps_ns = s->last_calc_ns = sim->now;
	timer_init(&s->tick, tick_fn, s);
	/* The first round runs at once: its RPS sample is 0, as schbench's. */
	timer_arm(sim, &s->tick, -1, sim->now);
	if (s->rs.on) {
		timer_init(&s->warm_timer, warm_fn, s);
		timer_arm(sim, &s->warm_timer, -1,
			  sim->now + (s->warmup_set ? s->warmup_s * NSEC_PER_SEC
						    : rate_steady_warmup_ns(sim)));
	}
}

static int sch_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct schbench *s = wl->priv;
	int ncpus = sim->m->topo.nr_cpus; /* get_nprocs(): every online CPU */

	if (!s->t)
		s->t = (ncpus + s->m - 1) / s->m;
	if ((long long)s->m * s->t > 65536) {
		snprintf(err, errlen, "schbench: %d message threads x %d workers is over the 65536 "
			 "tasks wakesim allows", s->m, s->t);
		return -1;
	}
	s->msgs = calloc((size_t)s->m, sizeof(*s->msgs));
	s->workers = calloc((size_t)(s->m * s->t), sizeof(*s->workers));
	s->child = calloc((size_t)(s->m + s->m * s->t), sizeof(*s->child));
	s->locks = calloc((size_t)ncpus, sizeof(*s->locks));
	if (!s->msgs || !s->workers || !s->child || !s->locks) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int c = 0; c < ncpus; c++)
		cacheline_init(&s->locks[c].line);
	unsigned int wss = (unsigned int)(s->footprint_kb * 1024);
	int n = 0;

	for (int i = 0; i < s->m; i++) {
		struct sch_msg *m = &s->msgs[i];

		*m = (struct sch_msg){ .s = s, .index = i, .workers = &s->workers[i * s->t] };
		futex_init(&m->futex, FUTEX_RUNNING_S);
		s->child[n++] = (struct wl_child){ .comm = "schbench-msg", .fn = msg_step,
						   .prog = m, .thread = true, .wss_bytes = 4096 };
		for (int k = 0; k < s->t; k++) {
			struct sch_worker *w = &m->workers[k];

			*w = (struct sch_worker){ .s = s, .msg = m };
			futex_init(&w->futex, FUTEX_RUNNING_S);
			s->child[n++] = (struct wl_child){ .comm = "schbench-worker", .fn = worker_step,
							   .prog = w, .thread = true, .wss_bytes = wss };
		}
	}
	launcher_init(&s->l, wl, s->child, n);
	s->l.on_start = on_start;
	return launcher_start(sim, &s->l, "schbench", err, errlen);
}

static void sch_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct schbench *s = wl->priv;

	(void)sim;
	fflush(s->logf);
	fputs(s->log, out);
	/* --until-steady: the measured span, to the ms (schbench prints whole seconds). */
	double rt = s->rs.on ? (double)s->meas_ns / 1e9 : (double)s->runtime_s;
	int prec = s->rs.on ? 3 : 0;

	show(out, &s->fin_wakeup, "Wakeup Latencies", "usec", rt, prec, PL_LAT, PL_99);
	show(out, &s->fin_request, "Request Latencies", "usec", rt, prec, PL_LAT, PL_99);
	show(out, &s->rps_stats, "RPS", "requests", rt, prec, PL_RPS, PL_50);
	fprintf(out, "average rps: %.2f\n",
		s->rs.on ? (s->meas_ns ? (double)(s->final_loops - s->meas_loops0) / rt : 0)
			 : (double)s->final_loops / rt);
	fprintf(out, "sched delay: message %llu (usec) worker %llu (usec)\n",
		s->fin_msg_delay / 1000, s->fin_worker_delay / 1000);
	rate_steady_report(&s->rs, s->rps ? "wake-up us/s" : "requests/s", 1e3, out);
}

static double sch_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct schbench *s = wl->priv;
	unsigned int val[NPLIST];
	unsigned long long cnt[NPLIST];

	(void)sim;
	*unit = "p99 wakeup us";
	*hib = false;
	if (schbench_percentiles(s->fin_wakeup.plat, s->fin_wakeup.nr_samples, val, cnt) < 4)
		return 0;
	return val[3];
}

static int sch_check(struct workload *wl, char *why, size_t len)
{
	struct schbench *s = wl->priv;

	if (!s->finished) {
		snprintf(why, len, "the run never reached its end");
		return -1;
	}
	unsigned long long posted = 0, accounted = 0;

	for (int i = 0; i < s->m * s->t; i++) {
		const struct sch_worker *w = &s->workers[i];

		/* Saturate mode: one request per wait, the last may be cut short. */
		if (!s->rps && w->loop_count != w->waits && w->loop_count + 1 != w->waits) {
			snprintf(why, len, "worker %d: %llu waits answered, %llu requests served", i,
				 w->waits, w->loop_count);
			return -1;
		}
		accounted += w->loop_count + w->queued + w->batch;
	}
	for (int i = 0; i < s->m; i++)
		posted += s->msgs[i].posted;
	/* RPS mode: every request posted was served or is still queued. */
	if (s->rps && posted != accounted) {
		snprintf(why, len, "%llu requests posted, %llu served or queued", posted, accounted);
		return -1;
	}
	return 0;
}

static void sch_steady_info(const struct workload *wl, struct wl_steady *out)
{
	rate_steady_info(&((const struct schbench *)wl->priv)->rs, out);
}

static void sch_free(struct workload *wl)
{
	struct schbench *s = wl->priv;

	if (s) {
		rate_steady_free(&s->rs);
		launcher_free(&s->l);
		if (s->logf)
			fclose(s->logf);
		free(s->log);
		free(s->msgs);
		free(s->workers);
		free(s->child);
		free(s->locks);
		free(s);
	}
	free(wl);
}

static const struct workload_ops schbench_ops = {
	.name = "schbench",
	.start = sch_start,
	.report = sch_report,
	.result = sch_result,
	.check = sch_check,
	.free = sch_free,
	.steady = sch_steady_info,
};

struct workload *schbench_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "message-threads", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "runtime", required_argument, NULL, 'r' },
		{ "rps", required_argument, NULL, 'R' },
		{ "warmuptime", required_argument, NULL, 'w' },
		{ "intervaltime", required_argument, NULL, 'i' },
		{ "operations", required_argument, NULL, 'n' },
		{ "sleep_usec", required_argument, NULL, 's' },
		{ "cache_footprint", required_argument, NULL, 'F' },
		{ "calibrate", no_argument, NULL, 'C' },
		{ "no-locking", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		RATE_STEADY_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *tool = "schbench";
	struct rate_steady rs;
	bool warmup_set = false;
	long m = 1, t = 0, r = 30, w = 0, iv = 10, rps = 0, ops = 5, sl = 100, fp = 256;
	bool cal = false, nolock = false;
	int c;

	rate_steady_init(&rs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":m:t:r:R:w:i:n:s:F:CLp:A:M:W:j:J:z:P:h", longopts,
				NULL)) != -1) {
		long *dst = NULL, lo = 0, hi = 0;

		switch (c) {
		case 'm': dst = &m; lo = 1; hi = 4096; break;
		case 't': dst = &t; lo = 1; hi = 65536; break;
		case 'r': dst = &r; lo = 1; hi = WL_MAX_SECONDS; break;
		case 'R': dst = &rps; lo = 0; hi = 100000000; break;
		case 'w': dst = &w; lo = 0; hi = WL_MAX_SECONDS; warmup_set = true; break;
		case 'i': dst = &iv; lo = 1; hi = 100000; break;
		case 'n': dst = &ops; lo = 0; hi = 100000; break;
		case 's': dst = &sl; lo = 0; hi = 100000000; break;
		case 'F': dst = &fp; lo = 1; hi = 1 << 20; break;
		case 'C':
			cal = true;
			continue;
		case 'L':
			nolock = true;
			continue;
		case 'p': case 'A': case 'M': case 'W': case 'j': case 'J': case 'z': case 'P':
			snprintf(err, errlen, "schbench: option -%c is not simulated (only -m -t -r -R "
				 "-w -i -n -s -F -C -L)", c);
			return NULL;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", schbench_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "schbench: option %s needs a value", argv[optind - 1]);
			return NULL;
		default:
			switch (rate_steady_option(&rs, c, tool, optarg, err, errlen)) {
			case 1:
				continue;
			case -1:
				return NULL;
			}
			wl_bad_option(tool, argc, argv, err, errlen);
			return NULL;
		}
		char opt[4] = { '-', (char)c, 0, 0 };

		if (wl_parse_long(tool, opt, optarg, lo, hi, dst, err, errlen))
			return NULL;
	}
	if (optind < argc) {
		snprintf(err, errlen, "schbench: Error Extra arguments '%s'", argv[optind]);
		return NULL;
	}
	if (rs.opts && !rs.on) {
		snprintf(err, errlen, "schbench: --steady-window and --steady-tolerance need --until-steady");
		return NULL;
	}

	struct workload *wl = calloc(1, sizeof(*wl));
	struct schbench *s = calloc(1, sizeof(*s));

	if (!wl || !s) {
		free(wl);
		free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &schbench_ops;
	wl->priv = s;
	s->m = (int)m;
	s->t = (int)t;
	s->runtime_s = (u64)r;
	/* schbench ignores -w below 30 s; --until-steady takes it as its warm-up. */
	s->warmup_s = r < 30 && !rs.on ? 0 : (u64)w;
	s->rs = rs;
	s->warmup_set = rs.on && warmup_set;
	/* -R posts in bursts once a second: a shorter half would see the phase. */
	if (rs.on && rps && s->rs.window_ns < NSEC_PER_SEC)
		s->rs.window_ns = NSEC_PER_SEC;
	s->interval_s = (u64)iv;
	s->rps = (u64)rps;
	s->operations = (u64)ops;
	s->sleep_us = (u64)sl;
	s->footprint_kb = (u64)fp;
	s->calibrate = cal;
	s->skip_locking = cal || nolock;
	/* matrix_size = sqrt(F * 1024 / 3 / sizeof(unsigned long)) */
	u64 msz = (u64)sqrt((double)(s->footprint_kb * 1024 / 3 / 8));

	s->math_ns = msz * msz * msz * SCH_MAC_PS / 1000;
	s->logf = open_memstream(&s->log, &s->log_len);
	if (!s->logf) {
		sch_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return wl;
}
