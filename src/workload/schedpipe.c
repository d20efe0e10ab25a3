/*
 * schedpipe.c - `perf bench sched pipe` (tools/perf/bench/sched-pipe.c,
 * read at v6.12): two tasks ping-pong one int over two pipes, -l times.
 *
 * The program: two pipes; gettimeofday(start); then either (default)
 * fork() a child that runs worker 0 while the parent runs worker 1 and
 * then waitpid()s the child, or (-T) pthread_create() two threads, one per
 * worker, and pthread_join() both. Worker 0 reads pipe 1 and writes pipe
 * 2; worker 1 writes pipe 1 and reads pipe 2; each does it -l times.
 * gettimeofday(stop) after the wait; "Total time" and "usecs/op" are over
 * the -l round trips. It is the benchmark kernel developers run to see a
 * wake-up's round trip on one CPU (taskset -c 0) and across two.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/chan.h"
#include "ipc/wait.h"
#include "launcher.h"
#include "perfbench.h"

#define SP_DEFAULT_LOOPS 1000000	/* sched-pipe.c's DEFAULT_LOOPS */
#define SP_WSS_BYTES (8 * 1024)	/* a stack and one int: context_switch1's figure */

enum {
	SP_FORK_SYSCALL, SP_FORK_DO, SP_WRITE_SYSCALL, SP_WRITE_DO, SP_READ_SYSCALL, SP_READ_DO,
	SP_EXIT_SYSCALL, SP_EXIT_DO, SP_REAP_SYSCALL, SP_REAP_DO,
};

struct sched_pipe;

struct sp_task {
	struct sched_pipe *sp;
	int nr;			/* worker 0 reads first, worker 1 writes first; -1: main */
	int state;
	bool slept;
	long done;		/* loops finished */
	struct task_struct *task;
};

struct sched_pipe {
	long loops;
	bool threaded;
	bool simple;	/* perf bench -f simple: the total seconds alone */
	struct chan pipe1, pipe2;
	struct sp_task main;	/* the parent; worker 1 too unless -T */
	struct sp_task worker[2];
	int forked, exited, reaped;
	struct wait_queue_head child_exit;
	int mm_id;
	u64 start_ns, stop_ns;
};

/* The worker loop; returns true with out set, false when the loops are done. */
static bool worker_step(struct sim *sim, struct sp_task *t, struct task_struct *p,
			struct step *out)
{
	struct sched_pipe *sp = t->sp;
	int nr = t == &sp->main ? 1 : t->nr;
	struct chan *rd = nr ? &sp->pipe2 : &sp->pipe1, *wr = nr ? &sp->pipe1 : &sp->pipe2;
	bool blocked;

	for (;;) {
		switch (t->state) {
		case SP_WRITE_SYSCALL:
			if (t->done == sp->loops)
				return false;
			step_kernel(out, chan_write_cost(sim, wr));
			t->state = SP_WRITE_DO;
			return true;
		case SP_WRITE_DO:
			chan_write(sim, wr, p, sizeof(int), t->slept, &blocked);
			if (blocked) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return true;
			}
			t->slept = false;
			if (!nr)
				t->done++;	/* worker 0's answer ends a round trip */
			t->state = SP_READ_SYSCALL;
			continue;
		case SP_READ_SYSCALL:
			if (t->done == sp->loops)
				return false;
			step_kernel(out, chan_read_cost(sim, rd));
			t->state = SP_READ_DO;
			return true;
		case SP_READ_DO:
			if (!chan_read(sim, rd, p, sizeof(int), t->slept, &blocked)) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return true;
			}
			t->slept = false;
			if (nr)
				t->done++;
			t->state = SP_WRITE_SYSCALL;
			continue;
		default:
			abort(); /* not a worker state: a bug */
		}
	}
}

static void child_exit_notify(struct sim *sim, struct sched_pipe *sp)
{
	sp->exited++;
	/* do_notify_parent() wakes waitpid() with WF_SYNC; a thread's exit
	 * wakes pthread_join() through its futex, a plain wake-up. */
	wake_up(sim, &sp->child_exit, 1, sp->threaded ? 0 : WF_SYNC);
}

static void sp_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct sp_task *t = p->prog;
	struct sched_pipe *sp = t->sp;
	const struct costs *k = &sim->m->costs;
	bool is_main = t == &sp->main;
	int nr_children = sp->threaded ? 2 : 1;

	for (;;) {
		switch (t->state) {
		case SP_FORK_SYSCALL:
			if (sp->forked == nr_children) {
				t->state = sp->threaded ? SP_REAP_SYSCALL : SP_WRITE_SYSCALL;
				continue;
			}
			step_kernel(out, sp->threaded ? k->clone_ns : k->fork_ns);
			t->state = SP_FORK_DO;
			return;
		case SP_FORK_DO: {
			struct sp_task *w = &sp->worker[sp->threaded ? sp->forked : 0];

			w->task = task_create(sim, "sched-pipe", sp_step, w,
					      sp->threaded ? sp->mm_id : sim_new_mm(sim), p);
			if (!w->task)
				abort(); /* out of memory in the engine */
			w->task->wss_bytes = SP_WSS_BYTES;
			wake_up_new_task(sim, w->task);
			sp->forked++;
			t->state = SP_FORK_SYSCALL;
			continue;
		}
		case SP_WRITE_SYSCALL:
		case SP_WRITE_DO:
		case SP_READ_SYSCALL:
		case SP_READ_DO:
			if (worker_step(sim, t, p, out))
				return;
			t->state = is_main ? SP_REAP_SYSCALL : SP_EXIT_SYSCALL;
			continue;
		case SP_EXIT_SYSCALL:
			step_kernel(out, sp->threaded ? k->thread_exit_ns : k->exit_ns);
			t->state = SP_EXIT_DO;
			return;
		case SP_EXIT_DO:
			child_exit_notify(sim, sp);
			out->kind = STEP_EXIT;
			return;
		case SP_REAP_SYSCALL:
			if (sp->reaped == nr_children) {
				/* gettimeofday(&stop) after the last wait. */
				sp->stop_ns = sim->now;
				sim->wl->done = true;
				out->kind = STEP_EXIT;
				return;
			}
			step_kernel(out, k->reap_ns);
			t->state = SP_REAP_DO;
			return;
		case SP_REAP_DO:
			if (sp->exited == sp->reaped) {
				prepare_to_wait(sim, &sp->child_exit, p, true);
				out->kind = STEP_BLOCK;
				return;
			}
			finish_wait(&sp->child_exit, p);
			sp->reaped++;
			t->state = SP_REAP_SYSCALL;
			continue;
		default:
			abort(); /* unknown state: a bug */
		}
	}
}

static int sp_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct sched_pipe *sp = wl->priv;

	sp->mm_id = sim_new_mm(sim);
	sim->this_cpu = cpumask_first(&sim->cfg.allowed);
	sp->main.task = task_create(sim, "sched-pipe", sp_step, &sp->main, sp->mm_id, NULL);
	if (!sp->main.task) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sp->main.task->wss_bytes = SP_WSS_BYTES;
	/* gettimeofday(&start) comes before the fork or the threads' creation. */
	sp->start_ns = sim->now;
	wake_up_new_task(sim, sp->main.task);
	sim->this_cpu = -1;
	return 0;
}

static double sp_total_ns(const struct sched_pipe *sp)
{
	return (double)(sp->stop_ns - sp->start_ns);
}

static void sp_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct sched_pipe *sp = wl->priv;
	/* perf truncates to whole microseconds, then prints sec.msec. */
	unsigned long long usec = (unsigned long long)(sp_total_ns(sp) / 1e3);

	(void)sim;
	if (sp->simple) {
		fprintf(out, "%llu.%03llu\n", usec / 1000000, usec % 1000000 / 1000);
		return;
	}
	fprintf(out, "# Running 'sched/pipe' benchmark:\n");
	fprintf(out, "# Executed %ld pipe operations between two %s\n\n", sp->loops,
		sp->threaded ? "threads" : "processes");
	fprintf(out, " %14s: %llu.%03llu [sec]\n\n", "Total time", usec / 1000000,
		usec % 1000000 / 1000);
	fprintf(out, " %14lf usecs/op\n", (double)usec / (double)sp->loops);
	fprintf(out, " %14d ops/sec\n",
		usec ? (int)((double)sp->loops / ((double)usec / 1e6)) : 0);
}

static double sp_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct sched_pipe *sp = wl->priv;

	(void)sim;
	*unit = "usecs/op";
	*hib = false;
	return sp_total_ns(sp) / 1e3 / (double)sp->loops;
}

static int sp_check(struct workload *wl, char *why, size_t len)
{
	struct sched_pipe *sp = wl->priv;
	const struct sp_task *w1 = sp->threaded ? &sp->worker[1] : &sp->main;

	/* Every round trip: worker 1 wrote and read back, worker 0 answered. */
	if (sp->worker[0].done != sp->loops || w1->done != sp->loops ||
	    sp->reaped != (sp->threaded ? 2 : 1)) {
		snprintf(why, len, "workers did %ld and %ld of %ld round trips, %d reaped",
			 sp->worker[0].done, w1->done, sp->loops, sp->reaped);
		return -1;
	}
	return 0;
}

static double sp_done_fraction(const struct sim *sim, const struct workload *wl)
{
	const struct sched_pipe *sp = wl->priv;

	(void)sim;
	return (double)sp->worker[0].done / (double)sp->loops;
}

static void sp_free(struct workload *wl)
{
	struct sched_pipe *sp = wl->priv;

	if (sp) {
		chan_free(&sp->pipe1);
		chan_free(&sp->pipe2);
		free(sp);
	}
	free(wl);
}

static const struct workload_ops sp_ops = {
	.name = "perf bench sched pipe",
	.start = sp_start,
	.report = sp_report,
	.result = sp_result,
	.check = sp_check,
	.free = sp_free,
	.done_fraction = sp_done_fraction,
};

struct workload *schedpipe_new(int argc, char **argv, const struct perf_bench_opts *o, char *err,
			       size_t errlen, bool *help)
{
	static const struct option longopts[] = {
		{ "loop", required_argument, NULL, 'l' }, { "threaded", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *tool = "perf bench sched pipe";
	long loops = SP_DEFAULT_LOOPS;
	bool threaded = false;
	int c;

	/* getopt sees "pipe" as its argv[0]. */
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":l:Th", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (wl_parse_long(tool, "-l", optarg, 1, 1000000000L, &loops, err, errlen))
				return NULL;
			break;
		case 'T':
			threaded = true;
			break;
		default:
			perf_opt_fail(c, tool, argc, argv, err, errlen, help);
			return NULL;
		}
	}
	if (perf_no_operands(tool, argc, argv, err, errlen))
		return NULL;

	struct workload *wl = calloc(1, sizeof(*wl));
	struct sched_pipe *sp = calloc(1, sizeof(*sp));

	if (!wl || !sp) {
		free(wl);
		free(sp);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &sp_ops;
	wl->priv = sp;
	sp->loops = loops;
	sp->threaded = threaded;
	sp->simple = o->simple;
	chan_init(&sp->pipe1, CHAN_PIPE);
	chan_init(&sp->pipe2, CHAN_PIPE);
	init_waitqueue_head(&sp->child_exit);
	sp->main = (struct sp_task){ .sp = sp, .nr = -1, .state = SP_FORK_SYSCALL };
	for (int i = 0; i < 2; i++)
		sp->worker[i] = (struct sp_task){ .sp = sp, .nr = i, .state = SP_READ_SYSCALL };
	/* Worker 1 writes first; without -T it is the parent itself. */
	sp->worker[1].state = SP_WRITE_SYSCALL;
	return wl;
}
