/*
 * tbench.c - dbench 4's tbench (sahlberg/dbench: dbench.c, child.c,
 * sockio.c, tbench_srv.c), run as mmtests' tbench4 runs it: S3's and S4's
 * network benchmark.
 *
 * NPROCS client processes each replay the load file (by default dbench's
 * own client.txt) against their own tbench_srv child over a loopback TCP
 * connection: every operation is one synchronous exchange whose request
 * and response sizes sockio.c derives from the operation (loadfile.h).
 * tbench_srv reads the 4-byte length word, then the rest, and writes the
 * reply in one write(); the client writes the request, reads the 4-byte
 * header, then the rest. Clients are released together after connecting.
 * Throughput counts WriteX and ReadX payload bytes only, in 10^6 bytes per
 * second, from the end of the warm-up (default -t/5) for -t seconds,
 * like dbench's "Throughput" line.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadfile.h"
#include "ratesteady.h"
#include "rr.h"

/*
 * User-space work of a client per operation: child.c splits the line,
 * substitutes the client name and dispatches; sockio.c formats the
 * request. Not measured: an assumption of about a microsecond
 * (docs/workloads.md).
 */
#define TBENCH_CLIENT_WORK_NS 1000
#define TBENCH_WSS_BYTES (64 * 1024)
#define TBENCH_HDR 4

enum { T_CONNECT, T_GO, T_NEXT, T_WORK, T_SEND_SYSCALL, T_SEND_DO, T_HDR_SYSCALL, T_HDR_DO,
       T_BODY_SYSCALL, T_BODY_DO, T_DONE_OP };

struct tbench;

struct tb_op_stat {
	unsigned long long count;
	u64 total_ns, max_ns;
};

struct tb_client {
	struct tbench *tb;
	struct rr_conn *conn;
	int idx;
	int state;
	bool slept;
	bool connected;
	int line;
	int extra;			/* bytes added per path: longer client name */
	u64 remain, got;
	u64 op_start, pass_start;
	unsigned long long bytes, bytes_at_window, exchanges, lines_done;
	struct tb_op_stat stat[NB_NR_OPS];	/* from the window's start */
};

struct tbench {
	int nprocs;
	u64 timelimit_ns, warmup_ns;
	bool warmup_set;
	bool warmup_auto;		/* --until-steady without --warmup */
	struct rate_steady rs;		/* --until-steady */
	char *loadpath;
	struct loadfile *lf;
	struct launcher l;
	struct wl_child *child;		/* servers [0, n), clients [n, 2n) */
	struct rr_conn *conn;
	struct tb_client *cl;
	struct sim_timer print_timer;
	u64 max_latency_ns;		/* worst operation since the window opened */
	double throughput;
	bool window_open;
	char *log;
	size_t log_len;
	FILE *logf;
};

const char tbench_usage[] =
	"Usage: tbench [-t SECONDS] [--warmup SECONDS] [-c|--loadfile FILE]\n"
	"              [--show-execute-time] NPROCS [127.0.0.1]   (dbench 4's flags)\n"
	"  NPROCS      client processes, each with its own tbench_srv child\n"
	"  --nprocs N  the same as an option (wakesim; compare --loads clients=...)\n"
	"  -t S        measured run time after the warm-up (default 600; fractions\n"
	"              of a second allowed, a wakesim extension)\n"
	"  --warmup S  warm-up time (default -t/5, or the rule's with --until-steady)\n"
	RATE_STEADY_USAGE
	"              -t stays the longest measurement.\n"
	"  -c, --loadfile FILE   dbench load file (default " LOADFILE_DEFAULT ",\n"
	"              from Debian's dbench package)\n"
	"Output: dbench's per-second lines, per-operation latencies, and\n"
	"\"Throughput X MB/sec  N clients  N procs  max_latency=Y ms\".\n";

static bool window_open(const struct tbench *tb)
{
	return tb->window_open;
}

static void tb_client_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct tb_client *c = p->prog;
	struct tbench *tb = c->tb;
	struct rr_conn *conn = c->conn;
	const struct nb_line *ln;

	for (;;) {
		if (launcher_child_killed(sim, &tb->l, p, out))
			return;
		ln = &tb->lf->line[c->line];
		switch (c->state) {
		case T_CONNECT:
			/* The 8-byte hello sockio.c exchanges once connected. */
			conn->req_len = 8;
			conn->resp_len = 8;
			c->remain = 8;
			c->state = T_SEND_SYSCALL;
			continue;
		case T_GO:
			if (launcher_wait_go(sim, &tb->l, p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			c->pass_start = op_return_ns(sim);
			c->state = T_NEXT;
			continue;
		case T_NEXT:
			if (ln->stamped && op_return_ns(sim) < c->pass_start + ln->stamp_us * NSEC_PER_USEC) {
				/* Replay at the trace's pace (nb_time_delay()). */
				task_sleep_until(sim, p, c->pass_start + ln->stamp_us * NSEC_PER_USEC);
				c->state = T_WORK;
				out->kind = STEP_BLOCK;
				return;
			}
			c->state = T_WORK;
			continue;
		case T_WORK:
			c->op_start = op_return_ns(sim);
			if (ln->op == NB_SLEEP && ln->sleep_us) {
				task_sleep_until(sim, p, op_return_ns(sim) + ln->sleep_us * NSEC_PER_USEC);
				c->state = T_DONE_OP;
				out->kind = STEP_BLOCK;
				return;
			}
			if (!ln->req) {
				c->state = T_DONE_OP;
				continue;
			}
			conn->req_len = ln->req + (u64)(ln->npaths * c->extra);
			conn->resp_len = ln->resp;
			c->remain = conn->req_len;
			c->state = T_SEND_SYSCALL;
			step_run(out, TBENCH_CLIENT_WORK_NS, false);
			return;
		case T_SEND_SYSCALL:
			step_run(out, chan_write_cost(sim, &conn->c2s), true);
			c->state = T_SEND_DO;
			return;
		case T_SEND_DO:
			switch (rr_write_rest(sim, &conn->c2s, p, &c->remain, &c->slept, out)) {
			case RR_IO_BLOCK:
				return;
			case RR_IO_SYSCALL:
				c->state = T_SEND_SYSCALL;
				continue;
			case RR_IO_DONE:
				break;
			}
			c->got = 0;
			c->state = T_HDR_SYSCALL;
			continue;
		case T_HDR_SYSCALL:
			step_run(out, chan_read_cost(sim, &conn->s2c), true);
			c->state = T_HDR_DO;
			return;
		case T_HDR_DO:
		case T_BODY_DO: {
			/* read() of the length word, then recv(MSG_WAITALL) of the
			 * rest: one syscall that sleeps until all has arrived. */
			bool hdr = c->state == T_HDR_DO;
			u64 want = hdr ? TBENCH_HDR - c->got : conn->resp_len - c->got, n;

			/* MSG_WAITALL reads on in one call: its rest once, at the end. */
			if ((hdr ? rr_read_some : rr_read_on)(sim, &conn->s2c, p, want, &n, &c->slept,
							      out) == RR_IO_BLOCK)
				return;
			c->got += n;
			if (hdr && c->got < TBENCH_HDR) {
				c->state = T_HDR_SYSCALL;
				continue;
			}
			if (c->got < conn->resp_len) {
				c->state = hdr ? T_BODY_SYSCALL : T_BODY_DO;
				continue;
			}
			if (!hdr)
				chan_read_rest(sim, &conn->s2c);
			c->exchanges++;
			if (!c->connected) {
				c->connected = true;
				c->state = T_GO;
				continue;
			}
			c->state = T_DONE_OP;
			continue;
		}
		case T_BODY_SYSCALL:
			step_run(out, chan_read_cost(sim, &conn->s2c), true);
			c->state = T_BODY_DO;
			return;
		case T_DONE_OP: {
			if (window_open(tb)) {
				struct tb_op_stat *s = &c->stat[ln->op];
				u64 lat = op_return_ns(sim) - c->op_start;

				s->count++;
				s->total_ns += lat;
				if (lat > s->max_ns)
					s->max_ns = lat;
				if (lat > tb->max_latency_ns)
					tb->max_latency_ns = lat;
			}
			c->bytes += ln->payload;
			c->lines_done++;
			if (++c->line == tb->lf->nr_lines) {
				c->line = 0; /* the load file is replayed until the end */
				c->pass_start = op_return_ns(sim);
			}
			c->state = T_NEXT;
			continue;
		}
		}
	}
}

static unsigned long long window_bytes(const struct tbench *tb)
{
	unsigned long long b = 0;

	for (int i = 0; i < tb->nprocs; i++)
		b += tb->cl[i].bytes - tb->cl[i].bytes_at_window;
	return b;
}

static unsigned long long all_bytes(const struct tbench *tb)
{
	unsigned long long b = 0;

	for (int i = 0; i < tb->nprocs; i++)
		b += tb->cl[i].bytes;
	return b;
}

static unsigned long long avg_lines(const struct tbench *tb)
{
	unsigned long long n = 0;

	for (int i = 0; i < tb->nprocs; i++)
		n += tb->cl[i].lines_done;
	return n / (unsigned long long)tb->nprocs;
}

/* dbench's once-a-second status line (cumulative MB/s of the phase). */
static void print_fn(struct sim *sim, struct sim_timer *t)
{
	struct tbench *tb = t->data;
	u64 phase = window_open(tb) ? tb->l.window_start_ns : tb->l.start_ns;
	double secs = (double)(sim->now - phase) / 1e9;
	double mb = (double)(window_open(tb) ? window_bytes(tb) : all_bytes(tb)) / 1e6;

	fprintf(tb->logf, "%4d  %8llu  %7.2f MB/sec  %s %3.0f sec  latency %.03f ms\n", tb->nprocs,
		avg_lines(tb), secs > 0 ? mb / secs : 0, window_open(tb) ? "execute" : "warmup ",
		secs, (double)tb->max_latency_ns / 1e6);
	timer_arm(sim, t, -1, sim->now + NSEC_PER_SEC);
}

static void on_start(struct sim *sim, struct launcher *l)
{
	struct tbench *tb = l->wl->priv;

	fprintf(tb->logf, "%d clients started\nreleasing clients\n", tb->nprocs);
	timer_init(&tb->print_timer, print_fn, tb);
	timer_arm(sim, &tb->print_timer, -1, sim->now + NSEC_PER_SEC);
}

/* --until-steady's units: payload bytes so far (only differences count). */
static u64 tb_units(const struct sim *sim, void *arg)
{
	const struct tbench *tb = arg;
	u64 n = 0;

	(void)sim;
	for (int i = 0; i < tb->nprocs; i++)
		n += tb->cl[i].bytes;
	return n;
}

static void tb_steady(struct sim *sim, void *arg)
{
	launcher_close_window(sim, &((struct tbench *)arg)->l);
}

static void on_window_open(struct sim *sim, struct launcher *l)
{
	struct tbench *tb = l->wl->priv;

	tb->window_open = true;
	tb->max_latency_ns = 0;
	for (int i = 0; i < tb->nprocs; i++)
		tb->cl[i].bytes_at_window = tb->cl[i].bytes;
	if (tb->rs.on) {
		tb->rs.units = tb_units;
		tb->rs.stop = tb_steady;
		tb->rs.arg = tb;
		rate_steady_begin(sim, &tb->rs, sim->now, l->warmup_ns);
	}
}

static void on_window_close(struct sim *sim, struct launcher *l)
{
	struct tbench *tb = l->wl->priv;
	u64 el = l->window_end_ns - l->window_start_ns;

	tb->throughput = el ? (double)window_bytes(tb) / 1e6 / ((double)el / 1e9) : 0;
	tb->window_open = false;
	rate_steady_end(sim, &tb->rs);
	timer_cancel(sim, &tb->print_timer);
	fprintf(tb->logf, "%4d  cleanup %3.0f sec\n", tb->nprocs,
		(double)(sim->now - l->start_ns) / 1e9);
}

static int tb_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct tbench *tb = wl->priv;

	if (tb->warmup_auto)
		tb->l.warmup_ns = tb->warmup_ns = rate_steady_warmup_ns(sim);

	for (int i = 0; i < tb->nprocs; i++) {
		tb->child[i] = (struct wl_child){ .comm = "tbench_srv", .fn = rr_server_step,
						  .prog = &tb->conn[i],
						  .wss_bytes = TBENCH_WSS_BYTES };
		tb->child[tb->nprocs + i] = (struct wl_child){ .comm = "tbench",
								.fn = tb_client_step,
								.prog = &tb->cl[i],
								.wss_bytes = TBENCH_WSS_BYTES };
	}
	return launcher_start(sim, &tb->l, "tbench", err, errlen);
}

static void tb_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct tbench *tb = wl->priv;

	(void)sim;
	fflush(tb->logf);
	fputs(tb->log, out);
	fprintf(out, "\n Operation      Count    AvgLat    MaxLat\n"
		     " ----------------------------------------\n");
	for (int op = 0; op < NB_NR_OPS; op++) {
		struct tb_op_stat s = { 0, 0, 0 };

		for (int i = 0; i < tb->nprocs; i++) {
			s.count += tb->cl[i].stat[op].count;
			s.total_ns += tb->cl[i].stat[op].total_ns;
			if (tb->cl[i].stat[op].max_ns > s.max_ns)
				s.max_ns = tb->cl[i].stat[op].max_ns;
		}
		if (s.count)
			fprintf(out, " %-12s %8llu %9.3f %9.3f\n", nb_op_label[op], s.count,
				(double)s.total_ns / (double)s.count / 1e6, (double)s.max_ns / 1e6);
	}
	fprintf(out, "\nThroughput %g MB/sec  %d clients  %d procs  max_latency=%.03f ms\n\n",
		tb->throughput, tb->nprocs, tb->nprocs, (double)tb->max_latency_ns / 1e6);
	rate_steady_report(&tb->rs, "MB/sec", 1e-3, out);
}

static double tb_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	(void)sim;
	*unit = "MB/sec";
	*hib = true;
	return ((struct tbench *)wl->priv)->throughput;
}

static int tb_check(struct workload *wl, char *why, size_t len)
{
	struct tbench *tb = wl->priv;

	/* Every exchange a client completed was served once; a client may be
	 * killed with one request served and its reply unread. */
	for (int i = 0; i < tb->nprocs; i++) {
		unsigned long long s = tb->conn[i].served, e = tb->cl[i].exchanges;

		if (s != e && s != e + 1) {
			snprintf(why, len, "client %d completed %llu exchanges, its server served %llu",
				 i, e, s);
			return -1;
		}
	}
	if (!tb->l.window_closed) {
		snprintf(why, len, "the measurement window never closed");
		return -1;
	}
	return 0;
}

static void tb_free(struct workload *wl)
{
	struct tbench *tb = wl->priv;

	if (tb) {
		for (int i = 0; tb->conn && i < tb->nprocs; i++)
			rr_conn_free(&tb->conn[i]);
		launcher_free(&tb->l);
		rate_steady_free(&tb->rs);
		loadfile_put(tb->lf);
		if (tb->logf)
			fclose(tb->logf);
		free(tb->log);
		free(tb->loadpath);
		free(tb->child);
		free(tb->conn);
		free(tb->cl);
		free(tb);
	}
	free(wl);
}

static void tb_steady_info(const struct workload *wl, struct wl_steady *out)
{
	rate_steady_info(&((const struct tbench *)wl->priv)->rs, out);
}

static double tb_done_fraction(const struct sim *sim, const struct workload *wl)
{
	return launcher_done_fraction(sim, &((const struct tbench *)wl->priv)->l);
}

static const struct workload_ops tbench_ops = {
	.name = "tbench",
	.start = tb_start,
	.report = tb_report,
	.result = tb_result,
	.check = tb_check,
	.free = tb_free,
	.steady = tb_steady_info,
	.done_fraction = tb_done_fraction,
};

struct workload *tbench_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "timelimit", required_argument, NULL, 't' },
		{ "loadfile", required_argument, NULL, 'c' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "show-execute-time", no_argument, NULL, 'E' },
		{ "nprocs", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' }, RATE_STEADY_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *tool = "tbench", *loadpath = LOADFILE_DEFAULT;
	struct rate_steady rs;
	u64 timelimit = 600 * NSEC_PER_SEC, warmup = 0;
	bool warmup_set = false;
	long nprocs = 0;
	const char *nprocs_opt = NULL;
	int c;

	rate_steady_init(&rs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":t:c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (wl_parse_seconds(tool, "-t", optarg, NSEC_PER_MSEC, WL_MAX_SECONDS * NSEC_PER_SEC,
					     &timelimit, err, errlen))
				return NULL;
			break;
		case 'W':
			if (wl_parse_seconds(tool, "--warmup", optarg, 0, 600 * NSEC_PER_SEC,
					     &warmup, err, errlen))
				return NULL;
			warmup_set = true;
			break;
		case 'c':
			loadpath = optarg;
			break;
		case 'E':
			break; /* the status lines always show the phase's time */
		case 'N':
			nprocs_opt = optarg;
			break;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", tbench_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "tbench: option %s needs a value", argv[optind - 1]);
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
	if (rs.opts && !rs.on) {
		snprintf(err, errlen, "tbench: --steady-window and --steady-tolerance need --until-steady");
		return NULL;
	}
	/* NPROCS [server], or --nprocs (what compare --loads clients= sets). */
	int pos = optind;

	if (nprocs_opt &&
	    wl_parse_long(tool, "--nprocs", nprocs_opt, 1, 16384, &nprocs, err, errlen))
		return NULL;
	if (pos < argc && !nprocs_opt) {
		if (wl_parse_long(tool, "NPROCS", argv[pos], 1, 16384, &nprocs, err, errlen))
			return NULL;
		pos++;
	} else if (pos < argc && argv[pos][0] >= '0' && argv[pos][0] <= '9') {
		snprintf(err, errlen, "tbench: NPROCS given twice (%s and --nprocs %s): give it once "
			 "(compare --loads clients= sets --nprocs)", argv[pos], nprocs_opt);
		return NULL;
	}
	if (!nprocs) {
		snprintf(err, errlen, "tbench: NPROCS missing (tbench [options] NPROCS [server])");
		return NULL;
	}
	if (pos < argc && strcmp(argv[pos], "127.0.0.1") && strcmp(argv[pos], "localhost")) {
		snprintf(err, errlen, "tbench: server \"%s\": only loopback is simulated", argv[pos]);
		return NULL;
	}
	if (pos + 1 < argc) {
		snprintf(err, errlen, "tbench: unexpected argument \"%s\"", argv[pos + 1]);
		return NULL;
	}

	struct loadfile *lf = loadfile_get(loadpath, err, errlen);

	if (!lf)
		return NULL;

	struct workload *wl = calloc(1, sizeof(*wl));
	struct tbench *tb = calloc(1, sizeof(*tb));

	if (!wl || !tb) {
		free(wl);
		free(tb);
		loadfile_put(lf);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &tbench_ops;
	wl->priv = tb;
	tb->lf = lf;
	tb->nprocs = (int)nprocs;
	tb->timelimit_ns = timelimit;
	tb->warmup_ns = warmup_set ? warmup : timelimit / 5;
	tb->warmup_auto = rs.on && !warmup_set;
	tb->rs = rs;
	tb->child = calloc(2 * (size_t)nprocs, sizeof(*tb->child));
	tb->conn = calloc((size_t)nprocs, sizeof(*tb->conn));
	tb->cl = calloc((size_t)nprocs, sizeof(*tb->cl));
	tb->logf = open_memstream(&tb->log, &tb->log_len);
	if (!tb->child || !tb->conn || !tb->cl || !tb->logf) {
		tb_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	launcher_init(&tb->l, wl, tb->child, 2 * tb->nprocs);
	tb->l.start_pipe = true;
	tb->l.warmup_ns = tb->warmup_ns;
	tb->l.window_ns = tb->timelimit_ns;
	tb->l.kill_at_end = true;
	tb->l.on_start = on_start;
	tb->l.on_window_open = on_window_open;
	tb->l.on_window_close = on_window_close;
	for (int i = 0; i < tb->nprocs; i++) {
		char name[32];

		rr_conn_init(&tb->conn[i], CHAN_TCP, &tb->l);
		tb->conn[i].hdr_len = TBENCH_HDR;
		snprintf(name, sizeof(name), "client%d", i);
		tb->cl[i] = (struct tb_client){ .tb = tb, .conn = &tb->conn[i], .idx = i,
						.extra = 2 * ((int)strlen(name) - 7) };
	}
	return wl;
}
