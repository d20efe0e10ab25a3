/*
 * futexwake.c - `perf bench futex wake` (tools/perf/bench/futex-wake.c,
 * read at the v5.x form with struct cpu_map): the cost, to one waker, of
 * waking threads that sleep on one futex, one FUTEX_WAKE at a time.
 *
 * The program, per run (perf bench's -r, default 10): pthread_create()
 * -t threads (default: one per CPU), thread i pinned to CPU i mod the
 * CPUs; each takes thread_lock, counts itself in (the last one signals
 * the parent), waits on a condition variable, and once released calls
 * FUTEX_WAIT on a word that stays 0. The parent waits for the count,
 * broadcasts, sleeps 100 ms so that every thread is in FUTEX_WAIT, then
 * times (gettimeofday) a loop of FUTEX_WAKE calls of -w waiters each
 * until all have been woken, and joins the threads, which exit once woken.
 * It prints each run's time unless -s, then the mean and the relative
 * standard deviation of that mean ("Wokeup 1024 of 1024 threads in
 * 9.2178 ms (+-x%)"). The parent is not pinned. The timed loop is the
 * waker's side of a wake-up alone: syscall, futex hash, try_to_wake_up()
 * of a task bound to one CPU (no select_task_rq_fair()) and the IPI or
 * wake-list send; the wakees' wait for their CPUs is not in it.
 *
 * One departure: perf pins over every online CPU even under taskset; the
 * model pins over the CPUs the run may use (--cpus, --node).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/futex.h"
#include "kern/timer.h"
#include "launcher.h"
#include "perfbench.h"

#define FW_SETTLE_NS (100 * NSEC_PER_MSEC)	/* usleep(100000) before the timed loop */
/* -t's bound, as pgbench's -c: the balancer's work grows faster than the threads. */
#define FW_MAX_THREADS 16384
#define FW_LOOP_NS 1		/* the wake loop's own compare and add, in user space */
#define FW_WSS_BYTES (8 * 1024)			/* a thread's stack: sched pipe's figure */

enum {
	/* the parent */
	FW_CREATE_SYSCALL, FW_CREATE_DO, FW_LOCK, FW_COUNT_WAIT, FW_COUNT_AGAIN, FW_RELEASE,
	FW_SLEEP, FW_WAKE, FW_JOIN, FW_JOIN_DO,
	/* a worker */
	FW_W_LOCK, FW_W_COUNT, FW_W_COND_AGAIN, FW_W_RELOCK, FW_W_FUTEX, FW_W_WOKEN, FW_W_EXIT,
};

struct futex_wake_bench;

struct fw_task {
	struct futex_wake_bench *fw;
	int state;
	int seq;		/* the condition variable's sequence at the wait */
};

struct futex_wake_bench {
	long nthreads, nwakes, repeat;
	bool silent, shared, simple;
	int mm_id;
	struct ws_mutex thread_lock;
	struct ws_cond thread_parent, thread_worker;
	struct futex futex1;
	long threads_starting;
	struct fw_task parent;
	struct fw_task *worker;		/* nthreads, reused by each run */
	long created, woken, exited, joined;
	struct wait_queue_head join_wq;	/* pthread_join(): the thread's exit wakes it */
	long run;			/* runs finished */
	bool slept;			/* this run's usleep() was entered */
	u64 start_ns;
	double *run_us;			/* each run's loop, whole us as perf keeps tv_usec */
	int *cpus, nr_cpus;		/* the CPUs the run may use, in order */
};

/* The CPU thread i is pinned to: the allowed CPUs in turn. */
static int pin_cpu(const struct futex_wake_bench *fw, long i)
{
	return fw->cpus[i % fw->nr_cpus];
}

static void worker_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct fw_task *t = p->prog;
	struct futex_wake_bench *fw = t->fw;

	for (;;) {
		switch (t->state) {
		case FW_W_LOCK:
			if (mutex_lock_ws(sim, &fw->thread_lock, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_W_COUNT;
			continue;
		case FW_W_COUNT:
			if (!--fw->threads_starting)
				cond_signal_ws(sim, &fw->thread_parent, false);
			t->state = FW_W_COND_AGAIN;
			if (cond_wait_begin(sim, &fw->thread_worker, &fw->thread_lock, p, &t->seq)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_W_RELOCK;
			continue;
		case FW_W_COND_AGAIN:
			if (cond_wait_again(sim, &fw->thread_worker, p, t->seq)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_W_RELOCK;
			continue;
		case FW_W_RELOCK:
			if (mutex_lock_ws(sim, &fw->thread_lock, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			mutex_unlock_ws(sim, &fw->thread_lock, p);
			t->state = FW_W_FUTEX;
			continue;
		case FW_W_FUTEX:
			/* The word stays 0, so FUTEX_WAIT always sleeps. */
			if (futex_wait(sim, &fw->futex1, p, 0)) {
				t->state = FW_W_WOKEN;
				out->kind = STEP_BLOCK;
				return;
			}
			abort(); /* futex1 is never written: a bug */
		case FW_W_WOKEN:
			/* FUTEX_WAIT returned 0: woken, so the loop ends in pthread_exit(). */
			finish_wait(&fw->futex1.wq, p);
			step_kernel(out, sim->m->costs.thread_exit_ns);
			t->state = FW_W_EXIT;
			return;
		case FW_W_EXIT:
			fw->exited++;
			/* The exit's clear of the thread id wakes pthread_join()'s futex. */
			wake_up(sim, &fw->join_wq, 1, 0);
			out->kind = STEP_EXIT;
			return;
		default:
			abort(); /* not a worker state: a bug */
		}
	}
}

static void run_reset(struct futex_wake_bench *fw)
{
	fw->created = fw->woken = fw->exited = fw->joined = 0;
	fw->threads_starting = fw->nthreads;
	for (long i = 0; i < fw->nthreads; i++)
		fw->worker[i] = (struct fw_task){ .fw = fw, .state = FW_W_LOCK };
}

static void parent_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct fw_task *t = p->prog;
	struct futex_wake_bench *fw = t->fw;
	const struct costs *k = &sim->m->costs;

	for (;;) {
		switch (t->state) {
		case FW_CREATE_SYSCALL:
			if (fw->created == fw->nthreads) {
				t->state = FW_LOCK;
				continue;
			}
			step_kernel(out, k->clone_ns);
			t->state = FW_CREATE_DO;
			return;
		case FW_CREATE_DO: {
			struct fw_task *w = &fw->worker[fw->created];
			struct cpumask m;
			struct task_struct *c;

			c = task_create(sim, "perf", worker_step, w, fw->mm_id, p);
			if (!c)
				abort(); /* out of memory in the engine */
			c->wss_bytes = FW_WSS_BYTES;
			/* pthread_attr_setaffinity_np(): the thread starts on its CPU. */
			cpumask_clear(&m);
			cpumask_set_cpu(pin_cpu(fw, fw->created), &m);
			c->cpus_ptr = sim_cpumask(sim, &m);
			if (!c->cpus_ptr)
				abort(); /* out of memory in the engine */
			c->nr_cpus_allowed = 1;
			c->cpu = c->wake_cpu = cpumask_first(&m);
			wake_up_new_task(sim, c);
			fw->created++;
			t->state = FW_CREATE_SYSCALL;
			continue;
		}
		case FW_LOCK:
			if (mutex_lock_ws(sim, &fw->thread_lock, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_COUNT_WAIT;
			continue;
		case FW_COUNT_WAIT:
			if (!fw->threads_starting) {
				t->state = FW_RELEASE;
				continue;
			}
			t->state = FW_COUNT_AGAIN;
			if (cond_wait_begin(sim, &fw->thread_parent, &fw->thread_lock, p, &t->seq)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_LOCK;
			continue;
		case FW_COUNT_AGAIN:
			if (cond_wait_again(sim, &fw->thread_parent, p, t->seq)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = FW_LOCK;	/* relock, then test the count again */
			continue;
		case FW_RELEASE:
			cond_signal_ws(sim, &fw->thread_worker, true);
			mutex_unlock_ws(sim, &fw->thread_lock, p);
			step_kernel(out, k->nanosleep_ns);
			t->state = FW_SLEEP;
			return;
		case FW_SLEEP:
			if (!fw->slept) {
				/* usleep(100000); the timed loop starts when it returns. */
				fw->slept = true;
				task_sleep_until(sim, p, sim->now + FW_SETTLE_NS);
				out->kind = STEP_BLOCK;
				return;
			}
			fw->start_ns = sim->now;	/* gettimeofday(&start) */
			t->state = FW_WAKE;
			continue;
		case FW_WAKE:
			if (fw->woken != fw->nthreads) {
				/*
				 * One FUTEX_WAKE (its syscall and wake-ups are charged
				 * as it runs), then the loop's test in user space, so
				 * that a call that found no waiter yet still takes time.
				 */
				fw->woken += futex_wake(sim, &fw->futex1, (int)fw->nwakes);
				step_user(out, FW_LOOP_NS);
				return;
			}
			/* gettimeofday(&end); perf keeps only tv_usec of the difference. */
			fw->run_us[fw->run] = (double)((sim->now - fw->start_ns) / NSEC_PER_USEC % 1000000);
			t->state = FW_JOIN;
			continue;
		case FW_JOIN:
			if (fw->joined == fw->nthreads) {
				fw->run++;
				fw->slept = false;
				if (fw->run == fw->repeat) {
					sim->wl->done = true;
					out->kind = STEP_EXIT;
					return;
				}
				run_reset(fw);
				t->state = FW_CREATE_SYSCALL;
				continue;
			}
			step_kernel(out, k->futex_ns);
			t->state = FW_JOIN_DO;
			return;
		case FW_JOIN_DO:
			if (fw->exited == fw->joined) {
				prepare_to_wait(sim, &fw->join_wq, p, true);
				out->kind = STEP_BLOCK;
				return;
			}
			finish_wait(&fw->join_wq, p);
			fw->joined++;
			t->state = FW_JOIN;
			continue;
		default:
			abort(); /* not a parent state: a bug */
		}
	}
}

static int fw_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct futex_wake_bench *fw = wl->priv;
	int cpu;

	fw->cpus = calloc((size_t)nr_cpu_ids, sizeof(*fw->cpus));
	if (!fw->cpus) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for_each_cpu(cpu, &sim->cfg.allowed)
		fw->cpus[fw->nr_cpus++] = cpu;
	if (fw->nthreads == 0)
		fw->nthreads = fw->nr_cpus; /* one per CPU */
	fw->worker = calloc((size_t)fw->nthreads, sizeof(*fw->worker));
	fw->run_us = calloc((size_t)fw->repeat, sizeof(*fw->run_us));
	if (!fw->worker || !fw->run_us) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	run_reset(fw);
	fw->mm_id = sim_new_mm(sim);
	sim->this_cpu = cpumask_first(&sim->cfg.allowed);
	struct task_struct *parent = task_create(sim, "perf", parent_step, &fw->parent, fw->mm_id, NULL);

	if (!parent) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	parent->wss_bytes = FW_WSS_BYTES;
	wake_up_new_task(sim, parent);
	sim->this_cpu = -1;
	return 0;
}

/* perf's avg_stats() and the relative stddev of the mean (util/stat.c). */
static void fw_stats(const struct futex_wake_bench *fw, double *avg, double *rel_pct)
{
	double mean = 0, m2 = 0;
	long n = fw->run;

	for (long i = 0; i < n; i++) {
		double delta = fw->run_us[i] - mean;

		mean += delta / (double)(i + 1);
		m2 += delta * (fw->run_us[i] - mean);
	}
	*avg = mean;
	*rel_pct = n < 2 || mean == 0 ? 0 : 100.0 * sqrt(m2 / (double)(n - 1) / (double)n) / mean;
}

static void fw_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct futex_wake_bench *fw = wl->priv;
	double avg, rel;

	(void)sim;
	if (!fw->simple)
		fprintf(out, "# Running 'futex/wake' benchmark:\n");
	/* No real PID or address exists here: fixed ones keep outputs identical. */
	fprintf(out, "Run summary [PID 1]: blocking on %ld threads (at [%s] futex 0x1000), "
		     "waking up %ld at a time.\n\n",
		fw->nthreads, fw->shared ? "shared" : "private", fw->nwakes);
	for (long i = 0; !fw->silent && i < fw->run; i++)
		fprintf(out, "[Run %ld]: Wokeup %ld of %ld threads in %.4f ms\n", i + 1, fw->nthreads,
			fw->nthreads, fw->run_us[i] / 1000.0);
	fw_stats(fw, &avg, &rel);
	fprintf(out, "Wokeup %ld of %ld threads in %.4f ms (+-%.2f%%)\n", fw->nthreads, fw->nthreads,
		avg / 1000.0, rel);
}

static double fw_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct futex_wake_bench *fw = wl->priv;
	double avg, rel;

	(void)sim;
	*unit = "ms";
	*hib = false;
	fw_stats(fw, &avg, &rel);
	return avg / 1000.0;
}

static int fw_check(struct workload *wl, char *why, size_t len)
{
	struct futex_wake_bench *fw = wl->priv;

	/* Every run woke every thread once, and every thread exited and was joined. */
	if (fw->run != fw->repeat || fw->woken != fw->nthreads || fw->joined != fw->nthreads ||
	    fw->exited != fw->nthreads) {
		snprintf(why, len, "%ld of %ld runs; last run woke %ld, joined %ld of %ld threads",
			 fw->run, fw->repeat, fw->woken, fw->joined, fw->nthreads);
		return -1;
	}
	return 0;
}

static double fw_done_fraction(const struct sim *sim, const struct workload *wl)
{
	const struct futex_wake_bench *fw = wl->priv;

	(void)sim;
	return (double)fw->run / (double)fw->repeat;
}

static void fw_free(struct workload *wl)
{
	struct futex_wake_bench *fw = wl->priv;

	if (fw) {
		free(fw->worker);
		free(fw->run_us);
		free(fw->cpus);
		free(fw);
	}
	free(wl);
}

static const struct workload_ops fw_ops = {
	.name = "perf bench futex wake",
	.start = fw_start,
	.report = fw_report,
	.result = fw_result,
	.check = fw_check,
	.free = fw_free,
	.done_fraction = fw_done_fraction,
};

struct workload *futexwake_create(int argc, char **argv, const struct perf_bench_opts *o,
				  char *err, size_t errlen, bool *help)
{
	static const struct option longopts[] = {
		{ "threads", required_argument, NULL, 't' }, { "nwakes", required_argument, NULL, 'w' },
		{ "silent", no_argument, NULL, 's' }, { "shared", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *tool = "perf bench futex wake";
	long nthreads = 0, nwakes = 1;
	bool silent = false, shared = false;
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":t:w:sSh", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (wl_parse_long(tool, "-t", optarg, 1, FW_MAX_THREADS, &nthreads, err, errlen))
				return NULL;
			break;
		case 'w':
			if (wl_parse_long(tool, "-w", optarg, 1, FW_MAX_THREADS, &nwakes, err, errlen))
				return NULL;
			break;
		case 's':
			silent = true;
			break;
		case 'S':
			shared = true;
			break;
		default:
			perf_opt_fail(c, tool, argc, argv, err, errlen, help);
			return NULL;
		}
	}
	if (perf_no_operands(tool, argc, argv, err, errlen))
		return NULL;

	struct workload *wl = calloc(1, sizeof(*wl));
	struct futex_wake_bench *fw = calloc(1, sizeof(*fw));

	if (!wl || !fw) {
		free(wl);
		free(fw);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &fw_ops;
	wl->priv = fw;
	fw->nthreads = nthreads;
	fw->nwakes = nwakes;
	fw->repeat = o->repeat;
	fw->silent = silent;
	fw->shared = shared;
	fw->simple = o->simple;
	mutex_init_ws(&fw->thread_lock);
	cond_init_ws(&fw->thread_parent);
	cond_init_ws(&fw->thread_worker);
	futex_init(&fw->futex1, 0);
	init_waitqueue_head(&fw->join_wq);
	fw->parent = (struct fw_task){ .fw = fw, .state = FW_CREATE_SYSCALL };
	return wl;
}
