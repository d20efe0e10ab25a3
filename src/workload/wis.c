/*
 * wis.c - will-it-scale's context_switch1 (antonblanchard/will-it-scale:
 * main.c and tests/context_switch1.c), S4's first benchmark.
 *
 * The launcher forks -t tasks, each bound (unless -n) to core i mod
 * ncores in topology order (a core's every SMT thread; one thread with
 * -m), and releases them together through a start pipe. Each task makes
 * two pipes and forks a partner that inherits its binding; they ping-pong
 * one byte (task: write A, read B; partner: read A, write B); every round
 * trip counts 2 ops. Once a second (here: every --sample-ms) the launcher
 * prints "min: max: total:" of the ops each task did in that interval; the
 * first 6 intervals are warm-up, the next -s are averaged: "average:" is
 * the ops per second summed over tasks. Variants: context_switch1 and
 * context_switch1_processes (fork), context_switch1_threads (threads).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "kern/metwin.h"
#include "launcher.h"
#include "ratesteady.h"

#define WIS_WARMUP_SAMPLES 6	/* WARMUP_ITERATIONS 5, plus the first diff */
#define WIS_WSS_BYTES (8 * 1024)

enum { W_GO, W_FORK_SYSCALL, W_FORK_DO, W_WRITE_SYSCALL, W_WRITE_DO, W_READ_SYSCALL, W_READ_DO };

struct wis;

struct wis_task {
	struct wis *w;
	int index;
	bool partner;
	int state;
	bool slept;
	struct chan *a, *b;		/* task -> partner, partner -> task */
	unsigned long long ops;		/* the shared counter */
	unsigned long long prev;	/* ops at the last sample */
	struct task_struct *task;
};

struct wis {
	int tasks, samples;
	bool threads, no_affinity, smt;
	u64 sample_ns;
	struct launcher l;
	struct wl_child *child;
	struct wis_task *t;		/* [tasks] */
	struct wis_task *partner;	/* [tasks] */
	struct chan *pipes;		/* [2 * tasks] */
	struct sim_timer sample_timer;
	int nr_samples;
	int warm_samples;		/* WIS_WARMUP_SAMPLES, more with --until-steady */
	int measured;			/* samples averaged */
	unsigned long long sum_total;
	unsigned long long all_ops;	/* every sample's total, warm-up included */
	struct rate_steady rs;		/* --until-steady */
	char *log;			/* the per-second lines */
	size_t log_len;
	FILE *logf;
	double average;
};

const char wis_usage[] =
	"Usage: context_switch1[_processes|_threads] [-t TASKS] [-s SAMPLES] [-m] [-n]\n"
	"                       [--sample-ms MS]     (will-it-scale's flags)\n"
	"  -t N   tasks (each with a forked partner; default 1)\n"
	"  -s N   measured one-second samples to average (default 5; 0 is refused:\n"
	"         a simulation must end)\n"
	"  -m     bind each task to one SMT thread instead of a whole core\n"
	"  -n     no CPU binding (will-it-scale PR #22)\n"
	"  --sample-ms MS   length of a sample in simulated ms (wakesim; default 1000):\n"
	"         shorter samples trade precision for simulation time\n"
	RATE_STEADY_USAGE
	"         The warm-up is then the rule's, in whole samples (at least 6), a\n"
	"         checkpoint is taken at each sample's end, and -s caps the samples.\n"
	"Output: will-it-scale's warmup/measurement lines; result: average ops/s.\n";

static void wis_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct wis_task *t = p->prog;
	struct wis *w = t->w;
	const struct costs *k = &sim->m->costs;
	bool blocked;

	/* Partners are the tasks' children, not the launcher's. */
	if (launcher_child_killed(sim, t->partner ? NULL : &w->l, p, out))
		return;
	for (;;) {
		switch (t->state) {
		case W_GO:
			if (launcher_wait_go(sim, &w->l, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			t->state = W_FORK_SYSCALL;
			continue;
		case W_FORK_SYSCALL:
			step_kernel(out, w->threads ? k->clone_ns : k->fork_ns);
			t->state = W_FORK_DO;
			return;
		case W_FORK_DO: {
			struct wis_task *pt = &w->partner[t->index];
			struct task_struct *c = task_create(sim, "cs1-partner", wis_step, pt,
							    w->threads ? p->mm_id : sim_new_mm(sim), p);

			if (!c)
				abort(); /* out of memory in the engine */
			c->wss_bytes = WIS_WSS_BYTES;
			pt->task = c;
			wake_up_new_task(sim, c);
			t->state = W_WRITE_SYSCALL;
			continue;
		}
		case W_WRITE_SYSCALL:
			step_kernel(out, chan_write_cost(sim, t->partner ? t->b : t->a));
			t->state = W_WRITE_DO;
			return;
		case W_WRITE_DO:
			chan_write(sim, t->partner ? t->b : t->a, p, 1, t->slept, &blocked);
			if (blocked) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			t->slept = false;
			t->state = W_READ_SYSCALL;
			if (t->partner)
				t->ops++;
			continue;
		case W_READ_SYSCALL:
			step_kernel(out, chan_read_cost(sim, t->partner ? t->a : t->b));
			t->state = W_READ_DO;
			return;
		case W_READ_DO:
			if (!chan_read(sim, t->partner ? t->a : t->b, p, 1, t->slept, &blocked)) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			t->slept = false;
			if (!t->partner)
				t->ops += 2; /* a round trip: two context switches */
			t->state = W_WRITE_SYSCALL;
			continue;
		}
	}
}

/* The launcher's once-a-second report (here: every sample_ns). */
static void sample_fn(struct sim *sim, struct sim_timer *tm)
{
	struct wis *w = tm->data;
	unsigned long long min = ~0ULL, max = 0, total = 0;

	for (int i = 0; i < w->tasks; i++) {
		unsigned long long d = w->t[i].ops - w->t[i].prev;

		w->t[i].prev = w->t[i].ops;
		if (d < min)
			min = d;
		if (d > max)
			max = d;
		total += d;
	}
	w->nr_samples++;
	w->all_ops += total;
	fprintf(w->logf, "min:%llu max:%llu total:%llu\n", min, max, total);
	if (w->nr_samples == w->warm_samples) {
		fprintf(w->logf, "measurement\n");
		metrics_window_begin(sim);
		if (w->rs.on) {
			rate_steady_begin(sim, &w->rs, sim->now,
					  (u64)w->warm_samples * w->sample_ns);
			rate_steady_point(&w->rs, sim->now, w->all_ops);
		}
	}
	bool steady = false;

	if (w->nr_samples > w->warm_samples) {
		w->sum_total += total;
		w->measured++;
		steady = rate_steady_point(&w->rs, sim->now, w->all_ops);
	}
	if (steady || w->nr_samples == w->warm_samples + w->samples) {
		rate_steady_end(sim, &w->rs);
		metrics_window_end(sim);
		/* average: ops per second (samples may be shorter than 1 s). */
		w->average = (double)w->sum_total / w->measured * 1e9 / (double)w->sample_ns;
		fprintf(w->logf, "average:%.0f\n", w->average);
		for (int i = 0; i < w->tasks; i++) {
			send_sigkill(sim, w->child[i].task);
			if (w->partner[i].task)
				send_sigkill(sim, w->partner[i].task);
		}
		return;
	}
	timer_arm(sim, tm, -1, sim->now + w->sample_ns);
}

static void on_start(struct sim *sim, struct launcher *l)
{
	struct wis *w = l->wl->priv;

	fprintf(w->logf, "testcase:Context switch via pipes\nwarmup\n");
	if (w->rs.on) {
		u64 warm = rate_steady_warmup_ns(sim);
		u64 n = (warm + w->sample_ns - 1) / w->sample_ns;

		if (n > (u64)w->warm_samples)
			w->warm_samples = (int)n;
	}
	timer_init(&w->sample_timer, sample_fn, w);
	timer_arm(sim, &w->sample_timer, -1, sim->now + w->sample_ns);
}

static int wis_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct wis *w = wl->priv;
	const struct topology *t = &sim->m->topo;
	int nobj = 0, *obj = calloc((size_t)t->nr_cpus, sizeof(int));

	if (!obj) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* hwloc's objects in logical order: cores (or PUs with -m) we may use. */
	for (int c = 0; c < t->nr_cpus; c++) {
		if (!cpumask_test_cpu(c, &sim->cfg.allowed))
			continue;
		int key = w->smt ? c : t->cpu[c].core, seen = 0;

		for (int i = 0; i < nobj; i++)
			seen |= obj[i] == key;
		if (!seen)
			obj[nobj++] = key;
	}
	for (int i = 0; i < w->tasks; i++) {
		struct wl_child *c = &w->child[i];

		c->comm = "context_switch1";
		c->fn = wis_step;
		c->prog = &w->t[i];
		c->thread = w->threads;
		c->wss_bytes = WIS_WSS_BYTES;
		c->pinned = !w->no_affinity;
		if (c->pinned) {
			int key = obj[i % nobj];

			cpumask_clear(&c->affinity);
			for (int cpu = 0; cpu < t->nr_cpus; cpu++)
				if (w->smt ? cpu == key : t->cpu[cpu].core == key)
					cpumask_set_cpu(cpu, &c->affinity);
		}
	}
	free(obj);
	return launcher_start(sim, &w->l, "will-it-scale", err, errlen);
}

static void wis_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct wis *w = wl->priv;

	(void)sim;
	fflush(w->logf);
	fputs(w->log, out);
	rate_steady_report(&w->rs, "ops/s", 1000, out);
}

static double wis_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	(void)sim;
	*unit = "ops/s";
	*hib = true;
	return ((struct wis *)wl->priv)->average;
}

static int wis_check(struct workload *wl, char *why, size_t len)
{
	struct wis *w = wl->priv;

	/* Each round trip is a write and a read by both sides. */
	for (int i = 0; i < w->tasks; i++) {
		unsigned long long rt = w->t[i].ops / 2, pt = w->partner[i].ops;

		if (w->t[i].ops % 2 || (rt != pt && rt + 1 != pt)) {
			snprintf(why, len, "task %d counted %llu ops, its partner answered %llu times",
				 i, w->t[i].ops, pt);
			return -1;
		}
	}
	if (w->nr_samples != w->warm_samples + w->measured ||
	    (!w->rs.st.steady && w->measured != w->samples)) {
		snprintf(why, len, "%d samples taken, %d expected", w->nr_samples,
			 w->warm_samples + w->samples);
		return -1;
	}
	return 0;
}

static void wis_free(struct workload *wl)
{
	struct wis *w = wl->priv;

	if (w) {
		for (int i = 0; i < 2 * w->tasks; i++)
			chan_free(&w->pipes[i]);
		launcher_free(&w->l);
		rate_steady_free(&w->rs);
		if (w->logf)
			fclose(w->logf);
		free(w->log);
		free(w->child);
		free(w->t);
		free(w->partner);
		free(w->pipes);
		free(w);
	}
	free(wl);
}

static void wis_steady_info(const struct workload *wl, struct wl_steady *out)
{
	rate_steady_info(&((const struct wis *)wl->priv)->rs, out);
}

static const struct workload_ops wis_ops = {
	.name = "context_switch1",
	.start = wis_start,
	.report = wis_report,
	.result = wis_result,
	.check = wis_check,
	.free = wis_free,
	.steady = wis_steady_info,
};

struct workload *wis_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "sample-ms", required_argument, NULL, 'S' }, { "help", no_argument, NULL, 'h' },
		RATE_STEADY_LONGOPTS, { NULL, 0, NULL, 0 },
	};
	struct rate_steady rs;
	const char *tool = argv[0];
	long tasks = 1, samples = 5, sample_ms = 1000;
	bool smt = false, noaff = false;
	int c;

	rate_steady_init(&rs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":t:s:mnh", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (wl_parse_long(tool, "-t", optarg, 1, 4096, &tasks, err, errlen))
				return NULL;
			break;
		case 's':
			if (wl_parse_long(tool, "-s", optarg, 1, 100000, &samples, err, errlen))
				return NULL;
			break;
		case 'm':
			smt = true;
			break;
		case 'n':
			noaff = true;
			break;
		case 'S':
			if (wl_parse_long(tool, "--sample-ms", optarg, 1, 60000, &sample_ms, err, errlen))
				return NULL;
			break;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", wis_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "%s: option %s needs a value", tool, argv[optind - 1]);
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
	}
	if (optind < argc) {
		snprintf(err, errlen, "%s: unexpected argument \"%s\"", tool, argv[optind]);
		return NULL;
	}
	if (rs.opts && !rs.on) {
		snprintf(err, errlen, "%s: --steady-window and --steady-tolerance need --until-steady",
			 tool);
		return NULL;
	}
	if ((WIS_WARMUP_SAMPLES + samples) * sample_ms > WL_MAX_SECONDS * 1000L) {
		snprintf(err, errlen, "%s: %d warm-up + %ld samples of %ld ms exceed %d s of simulated "
			 "time", tool, WIS_WARMUP_SAMPLES, samples, sample_ms, WL_MAX_SECONDS);
		return NULL;
	}

	struct workload *wl = calloc(1, sizeof(*wl));
	struct wis *w = calloc(1, sizeof(*w));

	if (!wl || !w) {
		free(wl);
		free(w);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &wis_ops;
	wl->priv = w;
	w->tasks = (int)tasks;
	w->samples = (int)samples;
	w->smt = smt;
	w->no_affinity = noaff;
	w->threads = strstr(tool, "_threads") != NULL;
	w->sample_ns = (u64)sample_ms * NSEC_PER_MSEC;
	w->warm_samples = WIS_WARMUP_SAMPLES;
	w->rs = rs;
	w->child = calloc((size_t)tasks, sizeof(*w->child));
	w->t = calloc((size_t)tasks, sizeof(*w->t));
	w->partner = calloc((size_t)tasks, sizeof(*w->partner));
	w->pipes = calloc(2 * (size_t)tasks, sizeof(*w->pipes));
	w->logf = open_memstream(&w->log, &w->log_len);
	if (!w->child || !w->t || !w->partner || !w->pipes || !w->logf) {
		wis_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < w->tasks; i++) {
		chan_init(&w->pipes[2 * i], CHAN_PIPE);
		chan_init(&w->pipes[2 * i + 1], CHAN_PIPE);
		w->t[i] = (struct wis_task){ .w = w, .index = i, .state = W_GO,
					     .a = &w->pipes[2 * i], .b = &w->pipes[2 * i + 1] };
		w->partner[i] = (struct wis_task){ .w = w, .index = i, .partner = true,
						   .state = W_READ_SYSCALL, .a = &w->pipes[2 * i],
						   .b = &w->pipes[2 * i + 1] };
	}
	launcher_init(&w->l, wl, w->child, w->tasks);
	w->l.start_pipe = true;
	w->l.on_start = on_start;
	return wl;
}
