/*
 * hackbench.c - rt-tests' hackbench (src/hackbench/hackbench.c), the
 * benchmark of S1 and S2, as a simulated program.
 *
 * Each of the -g groups has -f receivers, each reading its own channel
 * (socketpair, or pipe with -p), and -f senders that each write -l
 * messages of -s bytes to every receiver of the group, round robin. Every
 * child writes one byte to a "ready" channel and poll()s a "wake" channel;
 * the main task reads all ready bytes, takes the start time, writes one
 * wake byte (waking every poller) and reaps the children; "Time" is from
 * just before that write until the last child is reaped, in seconds with
 * milliseconds truncated, as hackbench prints it. Children are forked
 * processes (-P, default) or threads of one process (-T).
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/chan.h"
#include "launcher.h"
#include "fastfwd.h"
#include "workload.h"

/* Bytes of cache a hackbench task touches: stack, buffer, fd and socket state. */
#define HACKBENCH_WSS_BYTES (16 * 1024)


enum hb_role { HB_MAIN, HB_SENDER, HB_RECEIVER };

enum hb_state {
	/* children */
	ST_READY_SYSCALL, ST_READY_DO, ST_POLL_SYSCALL, ST_POLL_DO,
	ST_IO_SYSCALL, ST_IO_DO, ST_EXIT_SYSCALL, ST_EXIT_DO,
	/* main */
	ST_FORK_SYSCALL, ST_FORK_DO, ST_RREADY_SYSCALL, ST_RREADY_DO,
	ST_GO_SYSCALL, ST_GO_DO, ST_REAP_SYSCALL, ST_REAP_DO,
};

struct hackbench;

struct hb_task {
	struct hackbench *hb;
	enum hb_role role;
	enum hb_state state;
	int group, index;	/* which group, which sender/receiver in it */
	long long msg;		/* messages done (sender: i * fds + j) */
	long long target;	/* messages to do: loops x fds, less after a fast-forward */
	u64 remaining;		/* bytes of the current message still to move */
	bool slept;		/* slept inside the current syscall */
	struct task_struct *task;
};

struct hackbench {
	/* options */
	int groups, fds, loops, datasize;
	bool threads, pipe;
	/* state */
	struct chan *rx;	/* [groups * fds]: receiver channels */
	struct chan ready, wake;
	struct hb_task main;
	struct hb_task *child;	/* [2 * groups * fds]: per group fds receivers then fds senders */
	int nr_children, forked, ready_read, reaped, exited;
	bool *exited_flag;
	struct wait_queue_head child_exit;
	int mm_id;
	u64 start_ns, stop_ns;
	u64 sent_bytes, recv_bytes;	/* message bytes moved, for conservation */
	/* --fast-forward (fastfwd.h): a round is a loop, a unit a message read */
	struct fast_forward ff;
	u64 recv_msgs;
};

static int nr_children(const struct hackbench *hb)
{
	return 2 * hb->groups * hb->fds;
}

static void child_exit_notify(struct sim *sim, struct hb_task *t)
{
	struct hackbench *hb = t->hb;
	int idx = (int)(t - hb->child);

	hb->exited_flag[idx] = true;
	hb->exited++;
	/* do_notify_parent() wakes wait() with WF_SYNC; a thread's exit wakes
	 * pthread_join() through its futex, a plain wake-up. */
	wake_up(sim, &hb->child_exit, 1, hb->threads ? 0 : WF_SYNC);
}

/*
 * The state is steady: every sender goes on for one more checkpoint
 * interval's worth of loops (--ff-window / 5) past where it is, each
 * receiver until it has read what its group's senders will send, so the
 * run still ends with its tasks exiting and being reaped. The loops
 * skipped are booked at the measured time per loop: the machine's
 * throughput, not one group's, sets the time while the groups outnumber
 * the CPUs' capacity. Each child's target is its own, so a lagging group
 * costs no more simulation than a leading one; the price is that the
 * groups' spread at a real run's end is not reproduced (about 0.1 s on S2,
 * docs/performance.md).
 */
static void cut_to_tail(struct hackbench *hb)
{
	long long tail = fast_forward_tail_rounds(&hb->ff);
	double sum = 0;

	for (int g = 0; g < hb->groups; g++) {
		struct hb_task *grp = &hb->child[g * 2 * hb->fds];
		long long group_loops = 0;

		for (int i = hb->fds; i < 2 * hb->fds; i++) {
			long long done = (grp[i].msg + hb->fds - 1) / hb->fds;
			long long loops = done + tail < hb->loops ? done + tail : hb->loops;

			grp[i].target = loops * hb->fds;
			group_loops += loops;
		}
		/* Each loop of each sender sends one message to every receiver. */
		for (int i = 0; i < hb->fds; i++)
			grp[i].target = group_loops;
		sum += (double)group_loops;
	}
	fast_forward_skipped(&hb->ff, sum / ((double)hb->groups * hb->fds));
}

static void child_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct hb_task *t = p->prog;
	struct hackbench *hb = t->hb;
	const struct costs *k = &sim->m->costs;
	bool blocked;

	for (;;) {
		switch (t->state) {
		case ST_READY_SYSCALL:
			step_kernel(out, chan_write_cost(sim, &hb->ready));
			t->state = ST_READY_DO;
			return;
		case ST_READY_DO:
			chan_write(sim, &hb->ready, p, 1, t->slept, &blocked);
			if (blocked) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			t->slept = false;
			t->state = ST_POLL_SYSCALL;
			continue;
		case ST_POLL_SYSCALL:
			step_kernel(out, chan_read_cost(sim, &hb->wake));
			t->state = ST_POLL_DO;
			return;
		case ST_POLL_DO:
			if (!chan_poll_in(sim, &hb->wake, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			chan_poll_done(&hb->wake, p);
			chan_read_rest(sim, &hb->wake);
			t->state = ST_IO_SYSCALL;
			t->remaining = (u64)hb->datasize;
			continue;
		case ST_IO_SYSCALL:
			if (t->msg == t->target) {
				t->state = ST_EXIT_SYSCALL;
				continue;
			}
			step_kernel(out, t->role == HB_SENDER ? chan_write_cost(sim, &hb->rx[0])
						      : chan_read_cost(sim, &hb->rx[0]));
			t->state = ST_IO_DO;
			return;
		case ST_IO_DO: {
			u64 n;

			if (t->role == HB_SENDER) {
				int j = (int)(t->msg % hb->fds);

				n = chan_write(sim, &hb->rx[t->group * hb->fds + j], p, t->remaining,
					       t->slept, &blocked);
			} else {
				n = chan_read(sim, &hb->rx[t->group * hb->fds + t->index], p,
					      t->remaining, t->slept, &blocked);
			}
			t->remaining -= n;
			if (t->role == HB_SENDER)
				hb->sent_bytes += n;
			else
				hb->recv_bytes += n;
			if (blocked) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			t->slept = false;
			if (!t->remaining) {
				t->msg++;
				t->remaining = (u64)hb->datasize;
				if (t->role == HB_RECEIVER && hb->ff.on &&
				    fast_forward_unit_done(&hb->ff, sim->now, ++hb->recv_msgs))
					cut_to_tail(hb);
			}
			t->state = ST_IO_SYSCALL;
			continue;
		}
		case ST_EXIT_SYSCALL:
			step_kernel(out, hb->threads ? k->thread_exit_ns : k->exit_ns);
			t->state = ST_EXIT_DO;
			return;
		case ST_EXIT_DO:
			child_exit_notify(sim, t);
			out->kind = STEP_EXIT;
			return;
		default:
			abort(); /* a main-task state in a child: a bug */
		}
	}
}

static void main_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct hb_task *t = p->prog;
	struct hackbench *hb = t->hb;
	const struct costs *k = &sim->m->costs;
	bool blocked;

	for (;;) {
		switch (t->state) {
		case ST_FORK_SYSCALL:
			if (hb->forked == nr_children(hb)) {
				t->state = ST_RREADY_SYSCALL;
				continue;
			}
			step_kernel(out, hb->threads ? k->clone_ns : k->fork_ns);
			t->state = ST_FORK_DO;
			return;
		case ST_FORK_DO: {
			struct hb_task *c = &hb->child[hb->forked];
			int mm = hb->threads ? hb->mm_id : sim_new_mm(sim);

			c->task = task_create(sim, c->role == HB_SENDER ? "hackbench-tx" : "hackbench-rx",
					      child_step, c, mm, p);
			if (!c->task)
				abort(); /* out of memory in the engine */
			c->task->wss_bytes = HACKBENCH_WSS_BYTES;
			wake_up_new_task(sim, c->task);
			hb->forked++;
			t->state = ST_FORK_SYSCALL;
			continue;
		}
		case ST_RREADY_SYSCALL:
			if (hb->ready_read == nr_children(hb)) {
				t->state = ST_GO_SYSCALL;
				continue;
			}
			step_kernel(out, chan_read_cost(sim, &hb->ready));
			t->state = ST_RREADY_DO;
			return;
		case ST_RREADY_DO:
			if (!chan_read(sim, &hb->ready, p, 1, t->slept, &blocked)) {
				t->slept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			t->slept = false;
			hb->ready_read++;
			t->state = ST_RREADY_SYSCALL;
			continue;
		case ST_GO_SYSCALL:
			/* gettimeofday(&start) right before the wake byte is written. */
			hb->start_ns = sim->now;
			fast_forward_begin(sim, &hb->ff, hb->start_ns,
					   (u64)hb->groups * (u64)hb->fds * (u64)hb->fds);
			step_kernel(out, chan_write_cost(sim, &hb->wake));
			t->state = ST_GO_DO;
			return;
		case ST_GO_DO:
			chan_write(sim, &hb->wake, p, 1, false, &blocked);
			t->state = ST_REAP_SYSCALL;
			continue;
		case ST_REAP_SYSCALL:
			if (hb->reaped == nr_children(hb)) {
				hb->stop_ns = sim->now;
				sim->wl->done = true;
				out->kind = STEP_EXIT;
				return;
			}
			step_kernel(out, k->reap_ns);
			t->state = ST_REAP_DO;
			return;
		case ST_REAP_DO:
			/* wait() takes any dead child; pthread_join() the next in order. */
			if (hb->threads ? !hb->exited_flag[hb->reaped] : hb->exited == hb->reaped) {
				prepare_to_wait(sim, &hb->child_exit, p, true);
				out->kind = STEP_BLOCK;
				return;
			}
			finish_wait(&hb->child_exit, p);
			hb->reaped++;
			t->state = ST_REAP_SYSCALL;
			continue;
		default:
			abort(); /* a child state in the main task: a bug */
		}
	}
}

static int hb_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct hackbench *hb = wl->priv;
	int first = cpumask_first(&sim->cfg.allowed);

	(void)err;
	(void)errlen;
	hb->mm_id = sim_new_mm(sim);
	sim->this_cpu = first;
	hb->main.task = task_create(sim, "hackbench", main_step, &hb->main, hb->mm_id, NULL);
	if (!hb->main.task) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hb->main.task->wss_bytes = HACKBENCH_WSS_BYTES;
	wake_up_new_task(sim, hb->main.task);
	sim->this_cpu = -1;
	return 0;
}

/* ns from the wake byte to the last reap, plus the fast-forwarded loops. */
static double hb_time_ns(const struct hackbench *hb)
{
	return (double)(hb->stop_ns - hb->start_ns) + hb->ff.skip_ns;
}

static void hb_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct hackbench *hb = wl->priv;
	u64 us = (u64)(hb_time_ns(hb) / 1000);

	(void)sim;
	fprintf(out, "Running in %s mode with %d groups using %d file descriptors each (== %d tasks)\n",
		hb->threads ? "threaded" : "process", hb->groups, 2 * hb->fds, nr_children(hb));
	fprintf(out, "Each sender will pass %d messages of %d bytes\n", hb->loops, hb->datasize);
	fprintf(out, "Time: %llu.%03llu\n", (unsigned long long)(us / 1000000),
		(unsigned long long)(us % 1000000 / 1000));
	fast_forward_report(&hb->ff, "loop", "senders", out);
}

static double hb_result(struct sim *sim, struct workload *wl, const char **unit,
			bool *higher_is_better)
{
	struct hackbench *hb = wl->priv;

	(void)sim;
	*unit = "s";
	*higher_is_better = false;
	return hb_time_ns(hb) / 1e9;
}

static void hb_free(struct workload *wl)
{
	struct hackbench *hb = wl->priv;

	if (hb) {
		for (int i = 0; i < hb->groups * hb->fds; i++)
			chan_free(&hb->rx[i]);
		chan_free(&hb->ready);
		chan_free(&hb->wake);
		fast_forward_free(&hb->ff);
		free(hb->rx);
		free(hb->child);
		free(hb->exited_flag);
		free(hb);
	}
	free(wl);
}

static int hackbench_check(struct workload *wl, char *why, size_t len)
{
	struct hackbench *hb = wl->priv;
	u64 total = 0;

	for (int i = 0; i < nr_children(hb); i++) {
		const struct hb_task *c = &hb->child[i];

		if (c->msg != c->target) {
			snprintf(why, len, "%s %d of group %d moved %lld messages, not %lld",
				 c->role == HB_SENDER ? "sender" : "receiver", c->index, c->group,
				 c->msg, c->target);
			return -1;
		}
		if (c->role == HB_SENDER)
			total += (u64)c->target * (u64)hb->datasize;
	}
	for (int i = 0; i < hb->groups * hb->fds; i++) {
		const struct chan *c = &hb->rx[i];

		if (c->pipe.bytes || c->us.qcount) {
			snprintf(why, len, "channel %d still holds data", i);
			return -1;
		}
	}
	if (hb->sent_bytes != total || hb->recv_bytes != total) {
		snprintf(why, len, "sent %llu and received %llu bytes, expected %llu",
			 (unsigned long long)hb->sent_bytes, (unsigned long long)hb->recv_bytes,
			 (unsigned long long)total);
		return -1;
	}
	return 0;
}

/* Messages moved of those to move (after a fast-forward, of the new targets). */
static double hb_done_fraction(const struct sim *sim, const struct workload *wl)
{
	const struct hackbench *hb = wl->priv;
	double done = 0, total = 0;

	(void)sim;
	for (int i = 0; i < hb->nr_children; i++) {
		done += (double)hb->child[i].msg;
		total += (double)hb->child[i].target;
	}
	return total > 0 ? done / total : 0;
}

/* Engaged means loops were skipped, not merely that the rate settled. */
static void hb_steady_info(const struct workload *wl, struct wl_steady *out)
{
	const struct hackbench *hb = wl->priv;

	fast_forward_info(&hb->ff, out);
}

static const struct workload_ops hackbench_ops = {
	.done_fraction = hb_done_fraction,
	.name = "hackbench",
	.start = hb_start,
	.report = hb_report,
	.result = hb_result,
	.check = hackbench_check,
	.free = hb_free,
	.steady = hb_steady_info,
};

const char hackbench_usage[] =
	"Usage: hackbench [options]   (rt-tests hackbench flags)\n"
	"  -p, --pipe            send data via pipes (default: AF_UNIX socket pairs)\n"
	"  -s, --datasize=SIZE   message size in bytes (default 100)\n"
	"  -l, --loops=LOOPS     messages each sender sends to each receiver (default 100)\n"
	"  -g, --groups=NUM      number of groups (default 10)\n"
	"  -f, --fds=NUM         senders and receivers per group (default 20)\n"
	"  -T, --threads         use POSIX threads\n"
	"  -P, --process         use fork() (default)\n"
	"  -h, --help            this message\n"
	"wakesim extensions (docs/performance.md, fast-forward):\n"
	FAST_FORWARD_USAGE("loop")
	"Not simulated: -i/--inet (TCP) and -F/--fifo (SCHED_FIFO main thread).";

static int parse_int(const char *opt, const char *arg, int min, int max, int *out, char *err,
		     size_t errlen)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < min || v > max) {
		snprintf(err, errlen, "hackbench: option %s: \"%s\" is not an integer in %d..%d", opt,
			 arg, min, max);
		return -1;
	}
	*out = (int)v;
	return 0;
}

struct workload *hackbench_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "pipe", no_argument, NULL, 'p' },	   { "inet", no_argument, NULL, 'i' },
		{ "datasize", required_argument, NULL, 's' }, { "loops", required_argument, NULL, 'l' },
		{ "groups", required_argument, NULL, 'g' },   { "fds", required_argument, NULL, 'f' },
		{ "threads", no_argument, NULL, 'T' },	   { "process", no_argument, NULL, 'P' },
		{ "processes", no_argument, NULL, 'P' },   { "fifo", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		FAST_FORWARD_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int groups = 10, fds = 20, loops = 100, datasize = 100, c;
	bool threads = false, pipe = false;
	struct fast_forward ff;

	fast_forward_init(&ff, 0);

	opterr = 0;
	optind = 0; /* glibc: full re-initialisation, so we can parse many times */
	while ((c = getopt_long(argc, argv, ":ps:l:g:f:TPiFh", longopts, NULL)) != -1) {
		int r = 0;

		switch (c) {
		case 'p':
			pipe = true;
			break;
		case 's':
			r = parse_int("-s/--datasize", optarg, 1, 1 << 20, &datasize, err, errlen);
			break;
		case 'l':
			r = parse_int("-l/--loops", optarg, 1, INT_MAX / 64, &loops, err, errlen);
			break;
		case 'g':
			r = parse_int("-g/--groups", optarg, 1, 10000, &groups, err, errlen);
			break;
		case 'f':
			r = parse_int("-f/--fds", optarg, 1, 1000, &fds, err, errlen);
			break;
		case 'T':
			threads = true;
			break;
		case 'P':
			threads = false;
			break;
		case 'i':
			snprintf(err, errlen, "hackbench: -i/--inet (TCP loopback) is not simulated yet");
			return NULL;
		case 'F':
			snprintf(err, errlen, "hackbench: -F/--fifo (SCHED_FIFO) is not simulated: "
					      "wakesim models the fair class only");
			return NULL;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", hackbench_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "hackbench: option %s needs a value", argv[optind - 1]);
			return NULL;
		default:
			r = fast_forward_option(&ff, c, "hackbench", optarg, err, errlen);
			if (r > 0) {
				r = 0;
				break;
			}
			if (!r)
				snprintf(err, errlen, "hackbench: unknown option \"%s\" (see hackbench "
					 "--help)", argv[optind - 1]);
			return NULL;
		}
		if (r)
			return NULL;
	}
	if (optind < argc) {
		snprintf(err, errlen, "hackbench: unexpected argument \"%s\" (see hackbench --help)",
			 argv[optind]);
		return NULL;
	}
	if (fast_forward_check(&ff, "hackbench", err, errlen))
		return NULL;
	if ((long long)groups * fds * 2 > 65536) {
		snprintf(err, errlen, "hackbench: %d groups x %d fds is %lld tasks, more than the "
			 "65536 wakesim allows", groups, fds, (long long)groups * fds * 2);
		return NULL;
	}

	struct workload *wl = calloc(1, sizeof(*wl));
	struct hackbench *hb = calloc(1, sizeof(*hb));

	if (!wl || !hb) {
		free(wl);
		free(hb);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &hackbench_ops;
	wl->priv = hb;
	hb->groups = groups;
	hb->fds = fds;
	hb->loops = loops;
	hb->ff = ff;
	hb->ff.rounds = loops;
	hb->ff.rounds_sim = loops;
	hb->datasize = datasize;
	hb->threads = threads;
	hb->pipe = pipe;
	hb->nr_children = nr_children(hb);
	hb->rx = calloc((size_t)groups * (size_t)fds, sizeof(*hb->rx));
	hb->child = calloc((size_t)hb->nr_children, sizeof(*hb->child));
	hb->exited_flag = calloc((size_t)hb->nr_children, sizeof(*hb->exited_flag));
	if (!hb->rx || !hb->child || !hb->exited_flag) {
		hb_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	enum chan_kind kind = pipe ? CHAN_PIPE : CHAN_UNIX;

	for (int i = 0; i < groups * fds; i++)
		chan_init(&hb->rx[i], kind);
	chan_init(&hb->ready, kind);
	chan_init(&hb->wake, kind);
	init_waitqueue_head(&hb->child_exit);
	hb->main = (struct hb_task){ .hb = hb, .role = HB_MAIN, .state = ST_FORK_SYSCALL };
	for (int g = 0; g < groups; g++)
		for (int i = 0; i < 2 * fds; i++) {
			struct hb_task *t = &hb->child[g * 2 * fds + i];

			t->hb = hb;
			t->group = g;
			t->role = i < fds ? HB_RECEIVER : HB_SENDER;
			t->index = i < fds ? i : i - fds;
			t->state = ST_READY_SYSCALL;
			t->target = (long long)loops * fds;
		}
	return wl;
}
