/*
 * replay.c - a recorded trace run as a workload: the programs of
 * trace/derive.h on the simulated machine, under its policy.
 *
 * A task is forked by its recorded parent when the parent's program gets
 * there; a task alive when the trace began, or forked by a task left out,
 * is started by the replay at its recorded time (fork placement). RUN is
 * user work of its recorded length, WAKE a try_to_wake_up() (with
 * --wake-flags), BLOCK waits for its waker's WAKE (a token: if the WAKE
 * came first, BLOCK passes), SLEEP a timer of its recorded length.
 * Everything else — where tasks run, how long they wait, what the
 * wake-ups and switches cost — is the simulation's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/timer.h"
#include "launcher.h"
#include "trace/derive.h"
#include "workload.h"

#define RP_MAX_SEL 64

struct rp_task {
	struct replay *rp;
	int idx;
	int pc;			/* next operation */
	int tokens;		/* WAKEs received, not yet consumed by a BLOCK */
	bool waiting;		/* blocked in a BLOCK */
	bool exited;
	bool woken;		/* a wake-up at woken_at, not yet running */
	u64 woken_at;
	struct task_struct *task;
	struct sim_timer start_timer;
};

struct replay {
	struct workload *wl;
	char path[512];
	char format[24];
	size_t nr_events, lost;
	uint32_t cut_line, gap_line, size_cut_line;
	uint64_t gap_ns, span_ns, size_cut_ns;
	int trace_tasks;
	struct replay_plan plan;
	struct rp_task *t;
	int wake_flags;
	bool threads;
	int mm_id;
	int nr_exited;
	u64 start_ns, end_ns;
	u64 ops_done, ops_total;
	struct hist wake_lat;	/* WAKE (or sleep expiry) to switch-in, ns */
};

const char replay_usage[] =
	"Usage: replay [--comm GLOB]... [--pid PID]... [--wake-flags none|sync] [--threads] TRACE\n"
	"  TRACE: perf script text of `perf sched record` (perf script --ns keeps ns),\n"
	"  ftrace text (/sys/kernel/tracing/trace, trace-cmd report, wakesim run --trace),\n"
	"  or trace-cmd's trace.dat.\n"
	"  --comm GLOB        replay the tasks whose comm matches (fnmatch; repeatable);\n"
	"  --pid PID          ...and these pids (repeatable). Neither: every task but pid 0\n"
	"  --wake-flags sync  wake-ups as WF_SYNC (pipes, sockets); default none\n"
	"  --threads          one address space for all (threads), default a process each\n"
	"Each task replays its CPU bursts; a wake-up by a replayed task waits for it,\n"
	"any other sleep lasts its recorded time. Output: recorded against replayed\n"
	"context switches, wake-ups, run delay and CPU time; result: the time until\n"
	"the last task ends (s).\n";

static void task_exit(struct sim *sim, struct rp_task *t, struct step *out)
{
	struct replay *rp = t->rp;

	t->exited = true;
	rp->end_ns = sim->now;
	if (++rp->nr_exited == rp->plan.nr_task)
		rp->wl->done = true;
	out->kind = STEP_EXIT;
}

static void rp_step(struct sim *sim, struct task_struct *p, struct step *out);

static void spawn(struct sim *sim, struct replay *rp, int idx, struct task_struct *parent)
{
	struct rp_task *t = &rp->t[idx];
	int mm = rp->threads ? rp->mm_id : sim_new_mm(sim);

	t->task = task_create(sim, rp->plan.task[idx].comm, rp_step, t, mm, parent);
	if (!t->task) {
		snprintf(rp->wl->input_error, sizeof(rp->wl->input_error), "out of memory");
		rp->wl->done = true;
		return;
	}
	wake_up_new_task(sim, t->task);
}

static void rp_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct rp_task *t = p->prog;
	struct replay *rp = t->rp;
	const struct rtask *rt = &rp->plan.task[t->idx];

	if (t->woken) {
		t->woken = false;
		hist_add(&rp->wake_lat, p->last_switch_in - t->woken_at);
	}
	for (;;) {
		if (p->killed || t->pc >= rt->nr_op) {
			task_exit(sim, t, out);
			return;
		}
		const struct rop *o = &rt->op[t->pc];

		switch (o->kind) {
		case ROP_RUN:
			t->pc++;
			rp->ops_done++;
			out->kind = STEP_RUN;
			out->work_ns = o->ns;
			out->kernel = false;
			return;
		case ROP_WAKE: {
			struct rp_task *w = o->task >= 0 ? &rp->t[o->task] : NULL;

			t->pc++;
			rp->ops_done++;
			if (o->task < 0)
				continue;	/* a wake-up of a task that was not asleep */
			w->tokens++;
			if (w->waiting) {
				w->waiting = false;
				w->woken = true;
				w->woken_at = sim->now;
				try_to_wake_up(sim, w->task, rp->wake_flags);
			}
			continue;
		}
		case ROP_FORK:
			t->pc++;
			rp->ops_done++;
			spawn(sim, rp, o->task, p);
			continue;
		case ROP_BLOCK:
			if (t->tokens) {
				t->tokens--;
				t->pc++;
				rp->ops_done++;
				continue;
			}
			t->waiting = true;
			p->__state = TASK_INTERRUPTIBLE;
			out->kind = STEP_BLOCK;
			return;
		case ROP_SLEEP:
			t->pc++;
			rp->ops_done++;
			t->woken = true;
			t->woken_at = sim->now + o->ns;
			task_sleep_exact(sim, p, t->woken_at);
			out->kind = STEP_BLOCK;
			return;
		default:
			rp->ops_done++;
			task_exit(sim, t, out);
			return;
		}
	}
}

/* A task the replay starts itself, forked from the first allowed CPU. */
static void start_external(struct sim *sim, struct replay *rp, int idx)
{
	int saved = sim->this_cpu;

	sim->this_cpu = cpumask_first(&sim->cfg.allowed);
	spawn(sim, rp, idx, NULL);
	sim->this_cpu = saved;
}

static void start_timer_fn(struct sim *sim, struct sim_timer *tm)
{
	struct rp_task *t = tm->data;

	start_external(sim, t->rp, t->idx);
}

static int rp_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct replay *rp = wl->priv;

	rp->t = calloc((size_t)rp->plan.nr_task, sizeof(*rp->t));
	if (!rp->t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rp->mm_id = sim_new_mm(sim);
	rp->start_ns = sim->now;
	for (int i = 0; i < rp->plan.nr_task; i++) {
		struct rp_task *t = &rp->t[i];
		const struct rtask *rt = &rp->plan.task[i];

		*t = (struct rp_task){ .rp = rp, .idx = i };
		rp->ops_total += (u64)rt->nr_op;
		if (!rt->external_start)
			continue;
		if (!rt->start_ns) {
			start_external(sim, rp, i);
		} else {
			timer_init(&t->start_timer, start_timer_fn, t);
			timer_arm(sim, &t->start_timer, -1, sim->now + rt->start_ns);
		}
	}
	return 0;
}

/* Relative change, "+12.3%", or "-" when the recorded figure is 0. */
static void delta(char *buf, size_t len, double rec, double sim)
{
	if (rec == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", (sim - rec) / rec * 100);
}

static void row(FILE *out, const char *what, double rec, double sim, int prec)
{
	char d[32];

	delta(d, sizeof(d), rec, sim);
	fprintf(out, "%-26s %14.*f %14.*f %9s\n", what, prec, rec, prec, sim, d);
}

static double mean_us(const struct hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count / 1e3 : 0;
}

static void rp_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct replay *rp = wl->priv;
	const struct replay_plan *pl = &rp->plan;
	u64 switches = 0, cpu_ns = 0;

	for (int i = 0; i < pl->nr_task; i++)
		if (rp->t[i].task) {
			switches += rp->t[i].task->nr_switches;
			cpu_ns += rp->t[i].task->se.sum_exec_runtime;
		}
	fprintf(out, "replay %s (%s): %zu events, %d tasks, %d replayed%s\n", rp->path, rp->format,
		rp->nr_events, rp->trace_tasks, pl->nr_task,
		rp->lost ? "; the trace lost events" : "");
	fprintf(out, "wake-ups read: %llu by a replayed task (waited for), %llu by a timer, irq or "
		"other task (timed), %llu of a task not asleep (dropped); waker from %s\n",
		(unsigned long long)pl->wakes_graph, (unsigned long long)pl->wakes_external,
		(unsigned long long)pl->wakes_runnable, pl->used_waking ? "sched_waking" : "sched_wakeup");
	if (rp->cut_line)
		fprintf(out, "warning: line %u has no end of line (a truncated file?): left out\n",
			rp->cut_line);
	if (rp->size_cut_line)
		fprintf(out, "warning: line %u: wakesim stopped writing this trace at its "
			"--trace-max-size, %.6f s into the run: the replay ends where the trace "
			"does, not where the run did\n", rp->size_cut_line,
			(double)rp->size_cut_ns / 1e9);
	/* One event far from the rest is a wrong time more often than a pause. */
	if (rp->gap_ns > NSEC_PER_SEC && rp->gap_ns > rp->span_ns / 2)
		fprintf(out, "warning: %.3f s without events before line %u, %.0f%% of the trace's "
			"span: a wrong timestamp?\n", (double)rp->gap_ns / 1e9, rp->gap_line,
			100.0 * (double)rp->gap_ns / (double)rp->span_ns);
	if (pl->handoffs)
		fprintf(out, "hand-offs (a waker preempted by its wakee, running on when it sleeps): "
			"%llu, replayed as a wake-up of the waker\n", (unsigned long long)pl->handoffs);
	if (pl->inferred_switches)
		fprintf(out, "switch-ins missing from the trace, inferred: %llu (dated by "
			"sched_stat_runtime where the trace has it)\n",
			(unsigned long long)pl->inferred_switches);
	if (pl->anomalies)
		fprintf(out, "inconsistent events (a wake-up or switch missing): %llu\n",
			(unsigned long long)pl->anomalies);
	fprintf(out, "%-26s %14s %14s %9s\n", "#", "recorded", "replayed", "delta");
	row(out, "context switches", (double)pl->rec_switches, (double)switches, 0);
	row(out, "wake-ups", (double)pl->rec_wakeups, (double)sim->met.wakeups, 0);
	row(out, "wake-up latency samples", (double)pl->rec_wake_lat.count,
	    (double)rp->wake_lat.count, 0);
	row(out, "wake-up latency mean (us)", mean_us(&pl->rec_wake_lat), mean_us(&rp->wake_lat), 2);
	const double qs[] = { 0.5, 0.9, 0.99 };
	const char *qn[] = { "wake-up latency p50 (us)", "wake-up latency p90 (us)",
			     "wake-up latency p99 (us)" };

	for (int i = 0; i < 3; i++)
		row(out, qn[i], (double)hist_quantile(&pl->rec_wake_lat, qs[i]) / 1e3,
		    (double)hist_quantile(&rp->wake_lat, qs[i]) / 1e3, 2);
	row(out, "CPU time (ms)", (double)pl->rec_cpu_ns / 1e6, (double)cpu_ns / 1e6, 3);
	row(out, "elapsed (ms)", (double)pl->rec_elapsed_ns / 1e6,
	    (double)(rp->end_ns - rp->start_ns) / 1e6, 3);
	fprintf(out, "Time: %.6f\n", (double)(rp->end_ns - rp->start_ns) / 1e9);
}

static double rp_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct replay *rp = wl->priv;

	(void)sim;
	*unit = "s";
	*hib = false;
	return (double)(rp->end_ns - rp->start_ns) / 1e9;
}

static int rp_check(struct workload *wl, char *why, size_t len)
{
	struct replay *rp = wl->priv;

	for (int i = 0; i < rp->plan.nr_task; i++) {
		const struct rp_task *t = &rp->t[i];

		if (!t->exited || t->pc < rp->plan.task[i].nr_op - 1) {
			snprintf(why, len, "replayed task %s (pid %d in the trace) stopped at operation "
				 "%d of %d", rp->plan.task[i].comm, rp->plan.task[i].pid, t->pc,
				 rp->plan.task[i].nr_op);
			return -1;
		}
		/* Every WAKE meets its BLOCK: none is left over. */
		if (t->tokens) {
			snprintf(why, len, "replayed task %s got %d wake-ups it never waited for",
				 rp->plan.task[i].comm, t->tokens);
			return -1;
		}
	}
	return 0;
}

static double rp_done(const struct sim *sim, const struct workload *wl)
{
	const struct replay *rp = wl->priv;

	(void)sim;
	return rp->ops_total ? (double)rp->ops_done / (double)rp->ops_total : 0;
}

static void rp_free(struct workload *wl)
{
	struct replay *rp = wl->priv;

	if (rp) {
		replay_plan_free(&rp->plan);
		free(rp->t);
		free(rp);
	}
	free(wl);
}

static const struct workload_ops replay_ops = {
	.name = "replay",
	.start = rp_start,
	.report = rp_report,
	.result = rp_result,
	.check = rp_check,
	.free = rp_free,
	.done_fraction = rp_done,
};

static int add_pid(const char *arg, int *pids, int *n, char *err, size_t errlen)
{
	long v;

	if (*n == RP_MAX_SEL) {
		snprintf(err, errlen, "replay: more than %d --pid options", RP_MAX_SEL);
		return -1;
	}
	if (wl_parse_long("replay", "--pid", arg, 1, 0x7fffffff, &v, err, errlen))
		return -1;
	pids[(*n)++] = (int)v;
	return 0;
}

struct workload *replay_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "comm", required_argument, NULL, 'c' }, { "pid", required_argument, NULL, 'p' },
		{ "wake-flags", required_argument, NULL, 'w' }, { "threads", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *comm[RP_MAX_SEL];
	int pids[RP_MAX_SEL], ncomm = 0, npid = 0, flags = 0, c;
	bool threads = false;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":c:p:w:Th", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (ncomm == RP_MAX_SEL || !*optarg) {
				snprintf(err, errlen, ncomm == RP_MAX_SEL ? "replay: more than %d --comm "
					 "options" : "replay: --comm needs a non-empty pattern", RP_MAX_SEL);
				return NULL;
			}
			comm[ncomm++] = optarg;
			break;
		case 'p':
			if (add_pid(optarg, pids, &npid, err, errlen))
				return NULL;
			break;
		case 'w':
			if (strcmp(optarg, "none") && strcmp(optarg, "sync")) {
				snprintf(err, errlen, "replay: --wake-flags \"%s\": expected none or sync",
					 optarg);
				return NULL;
			}
			flags = strcmp(optarg, "sync") ? 0 : WF_SYNC;
			break;
		case 'T':
			threads = true;
			break;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", replay_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "replay: option %s needs a value", argv[optind - 1]);
			return NULL;
		default:
			wl_bad_option("replay", argc, argv, err, errlen);
			return NULL;
		}
	}
	if (optind != argc - 1) {
		snprintf(err, errlen, optind >= argc ? "replay: TRACE missing (replay [options] TRACE)"
			 : "replay: expected one TRACE, got \"%s\" too", argv[optind + 1 < argc ?
			 optind + 1 : optind]);
		return NULL;
	}
	const char *path = argv[optind];
	struct sched_trace tr = { 0 };
	struct replay_select sel = { .comm = comm, .nr_comm = ncomm, .pid = pids, .nr_pid = npid };
	struct workload *wl = calloc(1, sizeof(*wl));
	struct replay *rp = calloc(1, sizeof(*rp));

	if (!wl || !rp) {
		free(wl);
		free(rp);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &replay_ops;
	wl->priv = rp;
	rp->wl = wl;
	rp->wake_flags = flags;
	rp->threads = threads;
	snprintf(rp->path, sizeof(rp->path), "%s", path);
	if (sched_trace_read(path, &tr, err, errlen)) {
		rp_free(wl);
		return NULL;
	}
	snprintf(rp->format, sizeof(rp->format), "%s", tr.format);
	rp->nr_events = tr.nr;
	rp->lost = tr.lost;
	rp->cut_line = tr.cut_line;
	rp->size_cut_line = tr.size_cut_line;
	rp->size_cut_ns = tr.size_cut_ns;
	rp->gap_ns = tr.max_gap_ns;
	rp->gap_line = tr.max_gap_line;
	rp->span_ns = tr.nr ? tr.ev[tr.nr - 1].ts_ns - tr.ev[0].ts_ns : 0;
	rp->trace_tasks = tr.nr_task;
	int r = replay_derive(&tr, &sel, &rp->plan, err, errlen);

	sched_trace_free(&tr);
	if (r) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: %s", path, err);
		snprintf(err, errlen, "%s", msg);
		rp_free(wl);
		return NULL;
	}
	return wl;
}
