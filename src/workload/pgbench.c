/*
 * pgbench.c - PostgreSQL's pgbench in select-only mode (-S), as mmtests'
 * db-pgbench-timed-ro-medium runs it (`pgbench -n -S -r -l -c N -j J
 * -T 300`): S3's database benchmark.
 *
 * -j threads of the pgbench process each drive their share of the -c
 * client connections (a contiguous range, as pgbench splits them),
 * waiting in poll() for any of them to answer. Each connection has its
 * own backend process (postgres forks one per connection) that waits for
 * a query, runs it and sends the result. A select-only transaction is one
 * statement: SELECT abalance FROM pgbench_accounts WHERE aid = :aid.
 *
 * The backend's work is parse/plan/execute of that primary-key lookup
 * (shorter with -M prepared); part of it is the buffer-mapping lookup
 * under one of PostgreSQL's 128 partition locks chosen by the key, the
 * "occasional contention" of concurrent clients on a partition.
 *
 * --buffer-hit PCT (a wakesim extension, default 100) sizes the database
 * against shared_buffers: each of the statement's two pages that are not
 * always cached (the index leaf and the heap page; the upper index levels
 * stay hot) misses with probability 100 - PCT. A miss is PostgreSQL's
 * BufferAlloc() (src/backend/storage/buffer/bufmgr.c, v15): the victim's
 * and the new tag's mapping partitions taken exclusively, in partition
 * order, while the mapping moves, then the page read from the OS page cache
 * with pread(). mmtests' timed-ro-medium puts the database at 60% of RAM
 * and shared_buffers at 20%, so a uniformly random page is found in
 * shared_buffers about a third of the time: --buffer-hit 33. Backends
 * that wait for a partition are woken by the one releasing it, so misses
 * make backends wake each other, which they never do otherwise.
 *
 * tps is transactions completed divided by the run's duration (-T) or,
 * with -t, by the time the last client finished, as pgbench prints
 * "tps = X (without initial connection time)".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/futex.h"
#include "kern/metwin.h"
#include "launcher.h"
#include "ratesteady.h"

/*
 * User-space CPU work per transaction (ns): PostgreSQL 15 and pgbench on
 * this project's 2-CPU KVM host (docs/workloads.md: user time over
 * transactions of `pgbench -S -c 8 -j 2 -T 5`, scale 10).
 */
#define PG_BACKEND_SIMPLE_NS 32000	/* parse, plan, execute, format */
#define PG_BACKEND_PREPARED_NS 15000	/* execute a prepared plan */
#define PG_CLIENT_SIMPLE_NS 3200	/* pgbench: script, libpq, latency stats */
#define PG_CLIENT_PREPARED_NS 1700
#define PG_PARTITION_HOLD_NS 600	/* BufMappingLock partition held [assumed] */
#define PG_POLL_NS 600			/* poll() entry and exit */
#define PG_POLL_PER_FD_NS 60		/* per watched socket */
#define PG_QUERY_BYTES 74		/* 'Q' message with the statement */
#define PG_RESULT_BYTES 110		/* RowDescription, DataRow, Complete, Ready */
#define PG_PARTITIONS 128		/* NUM_BUFFER_PARTITIONS */
#define PG_MISS_PAGES 2			/* index leaf and heap page of one aid */
#define PG_MISS_HOLD_NS 600		/* both partitions held: insert and delete the tag [assumed, as PG_PARTITION_HOLD_NS] */
#define PG_PREAD_NS 1000		/* pread() of a cached 8 KiB page without the copy: entry/exit, filemap_read() lookup [R] */
#define PG_PAGE_KIB 8			/* BLCKSZ */
#define PG_BACKEND_WSS (256 * 1024)
#define PG_CLIENT_WSS (32 * 1024)

struct pgbench;

enum { B_RECV_SYSCALL, B_RECV_DO, B_PLAN, B_LOCK, B_HELD, B_MISS, B_MISS_LOCK_LO, B_MISS_LOCK_HI,
       B_MISS_HELD, B_MISS_READ, B_EXEC, B_SEND_SYSCALL, B_SEND_DO };
enum { P_SCAN, P_SEND, P_SEND_DO, P_RECV_DO, P_POLL, P_POLL_WAIT, P_DONE };

struct pg_conn {
	struct pgbench *pg;
	struct chan q, r;		/* query to the backend, result back */
	/* backend program */
	int bstate;
	bool bslept;
	u64 bgot;
	int partition;
	int misses;			/* pages of this statement still to read in */
	int miss_lo, miss_hi;		/* the partitions a miss holds (equal: one) */
	unsigned long long executed;
	/* client side, in its pgbench thread */
	bool busy;			/* a query is in flight */
	bool done;			/* -t reached or -T over */
	u64 sent_at;
	unsigned long long xacts;	/* completed transactions */
	u64 got;
};

struct pg_thread {
	struct pgbench *pg;
	int first, nr;			/* its connections */
	int state, cur;
	bool slept;
	struct wait_queue_head pollwq;
	u64 end_ns;
};

struct pgbench {
	int clients, threads;
	long long xacts_per_client;	/* -t, or 0 with -T */
	u64 duration_ns;		/* -T */
	bool prepared, report_latencies, log_aggregate, unix_socket;
	u64 aggregate_ns;
	struct launcher l;
	struct wl_child *child;		/* backends [0, c), threads [c, c + j) */
	struct pg_conn *conn;
	struct pg_thread *thr;
	struct ws_mutex part[PG_PARTITIONS];
	int buffer_hit;			/* --buffer-hit, percent */
	unsigned long long misses;	/* pages read into shared_buffers */
	u64 start_ns, end_ns;
	unsigned long long total, failed;
	u64 lat_sum_ns;
	double lat_sum2;
	u64 interval_start;
	unsigned long long iv_n;
	u64 iv_sum, iv_min, iv_max;
	double iv_sum2;
	struct sim_timer agg_timer;
	struct rate_steady rs;		/* --until-steady: -T is the cap after the warm-up */
	u64 measure_ns;			/* the measurement starts (after the warm-up) */
	u64 stop_ns;			/* steady: clients stop here (0: not yet) */
	unsigned long long warm_total;	/* transactions of the warm-up */
	char *log;
	size_t log_len;
	FILE *logf;
};

const char pgbench_usage[] =
	"Usage: pgbench [-S] [-n] [-c CLIENTS] [-j THREADS] [-T SECONDS | -t XACTS]\n"
	"               [-M simple|prepared] [-h 127.0.0.1|/socket/dir] [-p PORT] [-r]\n"
	"               [-l [--aggregate-interval=S]] [-v] [DBNAME]     (pgbench's flags)\n"
	"  -S, -b select-only   select-only transactions: the only script simulated,\n"
	"              so it is also the default (the TPC-B-like script is refused)\n"
	"  -c N        client connections, each with its own backend (default 1)\n"
	"  -j N        pgbench threads sharing the clients (default 1)\n"
	"  -T S        duration (fractions allowed, a wakesim extension)\n"
	"  -t N        transactions per client (default 10 without -T)\n"
	"  -M MODE     simple (default) or prepared\n"
	"  -h HOST     127.0.0.1/localhost: TCP loopback; a directory: Unix socket\n"
	"  -r          per-statement latencies; -l with --aggregate-interval: the\n"
	"              aggregated log lines are printed in the report\n"
	"  --buffer-hit PCT   share of the leaf and heap page lookups found in\n"
	"              shared_buffers (wakesim; default 100); mmtests' timed-ro-medium\n"
	"              (database 60% of RAM, shared_buffers 20%) is about 33\n"
	RATE_STEADY_USAGE
	"              With it, transactions of the warm-up are not counted and -T\n"
	"              (required) is the longest measurement after it.\n"
	"Output: pgbench's summary; result: tps (without initial connection time).\n";

/* The key a transaction looks up decides its buffer partition. */
static int pick_partition(struct sim *sim)
{
	return (int)rng_below(&sim->rng, PG_PARTITIONS);
}

static void backend_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct pg_conn *c = p->prog;
	struct pgbench *pg = c->pg;
	bool blocked;

	for (;;) {
		if (launcher_child_killed(sim, &pg->l, p, out))
			return;
		switch (c->bstate) {
		case B_RECV_SYSCALL:
			step_run(out, chan_read_cost(sim, &c->q), true);
			c->bstate = B_RECV_DO;
			return;
		case B_RECV_DO: {
			u64 n = chan_read(sim, &c->q, p, PG_QUERY_BYTES - c->bgot, c->bslept, &blocked);

			if (blocked) {
				c->bslept = true;
				out->kind = STEP_BLOCK;
				return;
			}
			c->bslept = false;
			if (!n && chan_eof(&c->q)) {
				p->killed = true; /* the client disconnected */
				continue;
			}
			c->bgot += n;
			if (c->bgot < PG_QUERY_BYTES) {
				c->bstate = B_RECV_SYSCALL;
				continue;
			}
			c->bgot = 0;
			c->bstate = B_PLAN;
			step_run(out, (pg->prepared ? PG_BACKEND_PREPARED_NS : PG_BACKEND_SIMPLE_NS) / 2,
			    false);
			return;
		}
		case B_PLAN:
			c->partition = pick_partition(sim);
			c->bstate = B_LOCK;
			continue;
		case B_LOCK:
			if (mutex_lock_ws(sim, &pg->part[c->partition], p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			c->bstate = B_HELD;
			step_run(out, PG_PARTITION_HOLD_NS, false);
			return;
		case B_HELD:
			mutex_unlock_ws(sim, &pg->part[c->partition], p);
			c->misses = 0;
			if (pg->buffer_hit < 100)
				for (int i = 0; i < PG_MISS_PAGES; i++)
					c->misses += (int)rng_below(&sim->rng, 100) >= pg->buffer_hit;
			c->bstate = B_MISS;
			continue;
		case B_MISS: {
			if (!c->misses) {
				c->bstate = B_EXEC;
				step_run(out, (pg->prepared ? PG_BACKEND_PREPARED_NS : PG_BACKEND_SIMPLE_NS) / 2 -
					PG_PARTITION_HOLD_NS, false);
				return;
			}
			/* The victim's old tag and the new tag: any two partitions. */
			int a = pick_partition(sim), b = pick_partition(sim);

			c->miss_lo = a < b ? a : b;
			c->miss_hi = a < b ? b : a;
			c->bstate = B_MISS_LOCK_LO;
			continue;
		}
		case B_MISS_LOCK_LO:
		case B_MISS_LOCK_HI: {
			int part = c->bstate == B_MISS_LOCK_LO ? c->miss_lo : c->miss_hi;

			if (mutex_lock_ws(sim, &pg->part[part], p)) {
				out->kind = STEP_BLOCK;
				return;
			}
			if (c->bstate == B_MISS_LOCK_LO && c->miss_hi != c->miss_lo) {
				c->bstate = B_MISS_LOCK_HI;
				continue;
			}
			c->bstate = B_MISS_HELD;
			step_run(out, PG_MISS_HOLD_NS, false);
			return;
		}
		case B_MISS_HELD:
			if (c->miss_hi != c->miss_lo)
				mutex_unlock_ws(sim, &pg->part[c->miss_hi], p);
			mutex_unlock_ws(sim, &pg->part[c->miss_lo], p);
			c->bstate = B_MISS_READ;
			step_run(out, PG_PREAD_NS + PG_PAGE_KIB * sim->m->costs.copy_ns_per_kib, true);
			return;
		case B_MISS_READ:
			c->misses--;
			pg->misses++;
			c->bstate = B_MISS;
			continue;
		case B_EXEC:
			c->executed++;
			c->bstate = B_SEND_SYSCALL;
			continue;
		case B_SEND_SYSCALL:
			step_run(out, chan_write_cost(sim, &c->r), true);
			c->bstate = B_SEND_DO;
			return;
		case B_SEND_DO: {
			u64 n = chan_write(sim, &c->r, p, PG_RESULT_BYTES, c->bslept, &blocked);

			if (blocked || n < PG_RESULT_BYTES) {
				/* A 110-byte result always fits in the socket buffer. */
				abort();
			}
			c->bstate = B_RECV_SYSCALL;
			continue;
		}
		}
	}
}

static bool time_over(struct sim *sim, const struct pgbench *pg)
{
	if (pg->rs.on)
		return (pg->stop_ns && sim->now >= pg->stop_ns) ||
		       sim->now >= pg->measure_ns + pg->duration_ns;
	return pg->duration_ns && sim->now - pg->start_ns >= pg->duration_ns;
}

static void record(struct sim *sim, struct pgbench *pg, u64 lat)
{
	if (pg->rs.on && sim->now < pg->measure_ns) {
		pg->warm_total++; /* the warm-up's transactions are not counted */
		return;
	}
	if (pg->rs.on)
		metrics_window_begin(sim);
	pg->total++;
	pg->lat_sum_ns += lat;
	pg->lat_sum2 += (double)lat * (double)lat;
	pg->iv_n++;
	pg->iv_sum += lat;
	pg->iv_sum2 += (double)lat * (double)lat;
	if (!pg->iv_min || lat < pg->iv_min)
		pg->iv_min = lat;
	if (lat > pg->iv_max)
		pg->iv_max = lat;
}

/* One pgbench thread: send for idle clients, poll, collect results. */
static void thread_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct pg_thread *t = p->prog;
	struct pgbench *pg = t->pg;
	bool blocked;

	for (;;) {
		if (launcher_child_killed(sim, &pg->l, p, out))
			return;
		switch (t->state) {
		case P_SCAN: {
			/* The next client that can send, or whose result is in. */
			int live = 0;

			for (int k = 0; k < t->nr; k++) {
				struct pg_conn *c = &pg->conn[t->first + (t->cur + k) % t->nr];

				if (c->done)
					continue;
				if (!c->busy) {
					if (time_over(sim, pg) ||
					    (pg->xacts_per_client && c->xacts >= (unsigned long long)pg->xacts_per_client)) {
						rate_steady_end(sim, &pg->rs);
						if (pg->rs.on)
							metrics_window_end(sim);
						c->done = true;
						chan_close(sim, &c->q); /* PQfinish() */
						continue;
					}
					t->cur = (t->cur + k) % t->nr;
					t->state = P_SEND;
					break;
				}
				live++;
				if (chan_readable(&c->r)) {
					t->cur = (t->cur + k) % t->nr;
					step_run(out, chan_read_cost(sim, &c->r), true);
					t->state = P_RECV_DO;
					return;
				}
			}
			if (t->state == P_SEND)
				continue;
			if (!live) {
				t->state = P_DONE;
				continue;
			}
			t->state = P_POLL;
			step_run(out, PG_POLL_NS + PG_POLL_PER_FD_NS * (u64)t->nr, true);
			return;
		}
		case P_SEND: {
			struct pg_conn *c = &pg->conn[t->first + t->cur];

			c->sent_at = op_return_ns(sim);
			c->busy = true;
			c->got = 0;
			t->state = P_SEND_DO;
			/* The script's \set, PQsendQuery() formatting, then send(). */
			step_run(out, (pg->prepared ? PG_CLIENT_PREPARED_NS : PG_CLIENT_SIMPLE_NS) +
					 chan_write_cost(sim, &c->q), false);
			return;
		}
		case P_SEND_DO: {
			struct pg_conn *c = &pg->conn[t->first + t->cur];

			chan_write(sim, &c->q, p, PG_QUERY_BYTES, false, &blocked);
			if (blocked)
				abort(); /* a query always fits in the socket buffer */
			t->cur = (t->cur + 1) % t->nr;
			t->state = P_SCAN;
			continue;
		}
		case P_RECV_DO: {
			struct pg_conn *c = &pg->conn[t->first + t->cur];

			c->got += chan_read(sim, &c->r, p, PG_RESULT_BYTES - c->got, false, &blocked);
			if (blocked)
				abort(); /* only ready sockets are read */
			if (c->got < PG_RESULT_BYTES) {
				t->state = P_SCAN;
				continue;
			}
			c->busy = false;
			c->xacts++;
			record(sim, pg, op_return_ns(sim) - c->sent_at);
			t->state = P_SCAN; /* this client sends again first */
			continue;
		}
		case P_POLL:
			/* Queue on every socket's wait queue, then look once more. */
			prepare_to_wait(sim, &t->pollwq, p, false);
			for (int k = 0; k < t->nr; k++) {
				struct pg_conn *c = &pg->conn[t->first + k];

				if (!c->done && c->busy && chan_readable(&c->r)) {
					finish_wait(&t->pollwq, p);
					t->state = P_SCAN;
					break;
				}
			}
			if (t->state == P_SCAN)
				continue;
			t->state = P_POLL_WAIT;
			out->kind = STEP_BLOCK;
			return;
		case P_POLL_WAIT:
			finish_wait(&t->pollwq, p);
			t->state = P_SCAN;
			continue;
		case P_DONE:
			if (sim->now > pg->end_ns)
				pg->end_ns = sim->now;
			t->end_ns = sim->now;
			launcher_child_exit(sim, &pg->l);
			out->kind = STEP_EXIT;
			return;
		}
	}
}

/*
 * -l --aggregate-interval: one line per interval (pgbench's log format:
 * start, transactions, sum and sum of squares of latency, min, max; us),
 * the start in seconds from the run's start (pgbench prints epoch seconds).
 */
static void agg_line(struct pgbench *pg)
{
	u64 at = pg->interval_start - pg->start_ns;

	if (pg->aggregate_ns % NSEC_PER_SEC)
		fprintf(pg->logf, "%.3f", (double)at / 1e9);
	else
		fprintf(pg->logf, "%llu", (unsigned long long)(at / NSEC_PER_SEC));
	fprintf(pg->logf, " %llu %llu %.0f %llu %llu\n", pg->iv_n,
		(unsigned long long)(pg->iv_sum / 1000), pg->iv_sum2 / 1e6,
		(unsigned long long)(pg->iv_min / 1000), (unsigned long long)(pg->iv_max / 1000));
	pg->interval_start += pg->aggregate_ns;
	pg->iv_n = 0;
	pg->iv_sum = pg->iv_min = pg->iv_max = 0;
	pg->iv_sum2 = 0;
}

static void agg_fn(struct sim *sim, struct sim_timer *tm)
{
	struct pgbench *pg = tm->data;

	agg_line(pg);
	if (!pg->duration_ns || sim->now - pg->start_ns < pg->duration_ns)
		timer_arm(sim, tm, -1, sim->now + pg->aggregate_ns);
}

/* --until-steady's units: transactions counted so far. */
static u64 pg_units(const struct sim *sim, void *arg)
{
	(void)sim;
	return ((const struct pgbench *)arg)->total;
}

static void pg_steady(struct sim *sim, void *arg)
{
	struct pgbench *pg = arg;

	if (sim->now < pg->measure_ns + pg->duration_ns)
		pg->stop_ns = sim->now;
}

static void on_start(struct sim *sim, struct launcher *l)
{
	struct pgbench *pg = l->wl->priv;

	pg->start_ns = sim->now;
	if (pg->rs.on) {
		u64 warm = rate_steady_warmup_ns(sim);

		pg->measure_ns = sim->now + warm;
		pg->rs.units = pg_units;
		pg->rs.stop = pg_steady;
		pg->rs.arg = pg;
		rate_steady_begin(sim, &pg->rs, pg->measure_ns, warm);
	}
	pg->interval_start = sim->now;
	if (pg->log_aggregate) {
		timer_init(&pg->agg_timer, agg_fn, pg);
		timer_arm(sim, &pg->agg_timer, -1, sim->now + pg->aggregate_ns);
	}
}

static int pg_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct pgbench *pg = wl->priv;

	for (int i = 0; i < pg->clients; i++)
		pg->child[i] = (struct wl_child){ .comm = "postgres", .fn = backend_step,
						  .prog = &pg->conn[i], .wss_bytes = PG_BACKEND_WSS };
	for (int j = 0; j < pg->threads; j++)
		pg->child[pg->clients + j] = (struct wl_child){ .comm = "pgbench", .fn = thread_step,
								 .prog = &pg->thr[j], .thread = true,
								 .wss_bytes = PG_CLIENT_WSS };
	return launcher_start(sim, &pg->l, "pgbench", err, errlen);
}

/* pgbench's elapsed time: the -T duration, or until the last client ended. */
static u64 elapsed(const struct pgbench *pg)
{
	if (pg->rs.on)
		return (pg->stop_ns ? pg->stop_ns : pg->measure_ns + pg->duration_ns) - pg->measure_ns;
	if (pg->duration_ns)
		return pg->duration_ns;
	return pg->end_ns > pg->start_ns ? pg->end_ns - pg->start_ns : 0;
}

static double tps(const struct pgbench *pg)
{
	u64 el = elapsed(pg);

	return el ? (double)pg->total * 1e9 / (double)el : 0;
}

static void pg_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct pgbench *pg = wl->priv;

	(void)sim;
	fprintf(out, "pgbench (15, simulated)\n"
		     "transaction type: <builtin: select only>\n"
		     "scaling factor: 1\n"
		     "query mode: %s\n"
		     "number of clients: %d\nnumber of threads: %d\n"
		     "maximum number of tries: 1\n",
		pg->prepared ? "prepared" : "simple", pg->clients, pg->threads);
	if (pg->duration_ns)
		fprintf(out, "duration: %g s\n", (double)elapsed(pg) / 1e9);
	else
		fprintf(out, "number of transactions per client: %lld\n", pg->xacts_per_client);
	fprintf(out, "number of transactions actually processed: %llu\n", pg->total);
	fprintf(out, "number of failed transactions: 0 (0.000%%)\n");
	fprintf(out, "latency average = %.3f ms\n",
		pg->total ? (double)pg->lat_sum_ns / (double)pg->total / 1e6 : 0.0);
	if (pg->total > 1) {
		double mean = (double)pg->lat_sum_ns / (double)pg->total;
		double var = pg->lat_sum2 / (double)pg->total - mean * mean;

		fprintf(out, "latency stddev = %.3f ms\n", var > 0 ? __builtin_sqrt(var) / 1e6 : 0.0);
	}
	fprintf(out, "initial connection time = 0.000 ms\n");
	fprintf(out, "tps = %f (without initial connection time)\n", tps(pg));
	rate_steady_report(&pg->rs, "tps", 1000, out);
	if (pg->report_latencies)
		fprintf(out, "statement latencies in milliseconds and failures:\n"
			     "         0.002           0  \\set aid random(1, 100000 * :scale)\n"
			     "  %12.3f           0  SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n",
			pg->total ? (double)pg->lat_sum_ns / (double)pg->total / 1e6 : 0.0);
	if (pg->log_aggregate) {
		/* The last, partial interval is logged at exit, as pgbench does. */
		if (pg->iv_n)
			agg_line(pg);
		fflush(pg->logf);
		fprintf(out, "aggregated log (interval_start num_transactions sum_latency "
			     "sum_latency_2 min_latency max_latency, us):\n%s", pg->log);
	}
}

static double pg_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	(void)sim;
	*unit = "tps";
	*hib = true;
	return tps(wl->priv);
}

static int pg_check(struct workload *wl, char *why, size_t len)
{
	struct pgbench *pg = wl->priv;
	unsigned long long sum = 0;

	for (int i = 0; i < pg->clients; i++) {
		const struct pg_conn *c = &pg->conn[i];

		sum += c->xacts;
		if (c->executed != c->xacts) {
			snprintf(why, len, "client %d: %llu transactions, its backend executed %llu", i,
				 c->xacts, c->executed);
			return -1;
		}
		if (pg->xacts_per_client && c->xacts != (unsigned long long)pg->xacts_per_client) {
			snprintf(why, len, "client %d ran %llu transactions of %lld", i, c->xacts,
				 pg->xacts_per_client);
			return -1;
		}
	}
	if (sum != pg->total + pg->warm_total) {
		snprintf(why, len, "%llu transactions counted (and %llu in the warm-up), %llu per "
			 "client", pg->total, pg->warm_total, sum);
		return -1;
	}
	return 0;
}

static void pg_free(struct workload *wl)
{
	struct pgbench *pg = wl->priv;

	if (pg) {
		for (int i = 0; pg->conn && i < pg->clients; i++) {
			chan_free(&pg->conn[i].q);
			chan_free(&pg->conn[i].r);
		}
		launcher_free(&pg->l);
		rate_steady_free(&pg->rs);
		if (pg->logf)
			fclose(pg->logf);
		free(pg->log);
		free(pg->child);
		free(pg->conn);
		free(pg->thr);
		free(pg);
	}
	free(wl);
}

static void pg_steady_info(const struct workload *wl, struct wl_steady *out)
{
	rate_steady_info(&((const struct pgbench *)wl->priv)->rs, out);
}

static const struct workload_ops pgbench_ops = {
	.name = "pgbench",
	.start = pg_start,
	.report = pg_report,
	.result = pg_result,
	.check = pg_check,
	.free = pg_free,
	.steady = pg_steady_info,
};

struct workload *pgbench_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "aggregate-interval", required_argument, NULL, 'A' },
		{ "select-only", no_argument, NULL, 'S' },
		{ "builtin", required_argument, NULL, 'b' },
		{ "client", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "time", required_argument, NULL, 'T' },
		{ "transactions", required_argument, NULL, 't' },
		{ "protocol", required_argument, NULL, 'M' },
		{ "host", required_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "report-per-command", no_argument, NULL, 'r' },
		{ "log", no_argument, NULL, 'l' },
		{ "no-vacuum", no_argument, NULL, 'n' },
		{ "vacuum-all", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'H' },
		{ "buffer-hit", required_argument, NULL, 'B' }, RATE_STEADY_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *tool = "pgbench";
	struct rate_steady rs;
	long clients = 1, threads = 1, xacts = 0, hit = 100, v;
	u64 duration = 0, agg = 0;
	bool select_only = true, prepared = false, rep = false, logflag = false, unix_sock = false;
	int c;

	rate_steady_init(&rs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":Sb:Nc:j:T:t:M:h:p:rlnv", longopts, NULL)) != -1) {
		switch (c) {
		case 'S':
			break;
		case 'b':
			/* Built-in script names may be abbreviated, as pgbench allows. */
			if (strncmp(optarg, "select-only", strlen(optarg)) || !optarg[0])
				select_only = false;
			break;
		case 'N':
			select_only = false;
			break;
		case 'c':
			if (wl_parse_long(tool, "-c", optarg, 1, 16384, &clients, err, errlen))
				return NULL;
			break;
		case 'j':
			if (wl_parse_long(tool, "-j", optarg, 1, 16384, &threads, err, errlen))
				return NULL;
			break;
		case 'T':
			if (wl_parse_seconds(tool, "-T", optarg, NSEC_PER_MSEC, WL_MAX_SECONDS * NSEC_PER_SEC,
					     &duration, err, errlen))
				return NULL;
			break;
		case 't':
			if (wl_parse_long(tool, "-t", optarg, 1, 1000000000L, &xacts, err, errlen))
				return NULL;
			break;
		case 'M':
			if (!strcmp(optarg, "prepared"))
				prepared = true;
			else if (strcmp(optarg, "simple")) {
				snprintf(err, errlen, "pgbench: -M %s: only simple and prepared are "
					 "simulated", optarg);
				return NULL;
			}
			break;
		case 'h':
			if (optarg[0] == '/')
				unix_sock = true;
			else if (strcmp(optarg, "127.0.0.1") && strcmp(optarg, "localhost") &&
				 strcmp(optarg, "::1")) {
				snprintf(err, errlen, "pgbench: -h %s: only loopback (or a Unix socket "
					 "directory) is simulated", optarg);
				return NULL;
			}
			break;
		case 'p':
			if (wl_parse_long(tool, "-p", optarg, 1, 65535, &v, err, errlen))
				return NULL;
			break;
		case 'r':
			rep = true;
			break;
		case 'l':
			logflag = true;
			break;
		case 'A':
			if (wl_parse_seconds(tool, "--aggregate-interval", optarg, NSEC_PER_MSEC,
					     WL_MAX_SECONDS * NSEC_PER_SEC, &agg, err, errlen))
				return NULL;
			break;
		case 'B':
			if (wl_parse_long(tool, "--buffer-hit", optarg, 0, 100, &hit, err, errlen))
				return NULL;
			break;
		case 'n':
		case 'v':
			break; /* no tables are vacuumed in a simulation */
		case 'H':
			*help = true;
			snprintf(err, errlen, "%s", pgbench_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "pgbench: option %s needs a value", argv[optind - 1]);
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
		snprintf(err, errlen, "pgbench: --steady-window and --steady-tolerance need --until-steady");
		return NULL;
	}
	if (rs.on && !duration) {
		snprintf(err, errlen, "pgbench: --until-steady needs a duration (-T), the longest "
			 "measurement");
		return NULL;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "pgbench: unexpected argument \"%s\"", argv[optind + 1]);
		return NULL;
	}
	if (!select_only) {
		snprintf(err, errlen, "pgbench: only the select-only script (-S, -b select-only) is "
			 "simulated: the TPC-B-like and simple-update scripts write, and wakesim "
			 "models no WAL or row locks");
		return NULL;
	}
	if (duration && xacts) {
		snprintf(err, errlen, "pgbench: specify either a number of transactions (-t) or a "
			 "duration (-T), not both");
		return NULL;
	}
	if (agg && !logflag) {
		snprintf(err, errlen, "pgbench: log aggregation is allowed only when actually logging "
			 "transactions (-l)");
		return NULL;
	}
	if (threads > clients) {
		/* pgbench refuses more threads than clients. */
		snprintf(err, errlen, "pgbench: number of threads (%ld) must be no more than the "
			 "number of clients (%ld)", threads, clients);
		return NULL;
	}
	if (!duration && !xacts)
		xacts = 10; /* pgbench's default */

	struct workload *wl = calloc(1, sizeof(*wl));
	struct pgbench *pg = calloc(1, sizeof(*pg));

	if (!wl || !pg) {
		free(wl);
		free(pg);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &pgbench_ops;
	wl->priv = pg;
	pg->clients = (int)clients;
	pg->threads = (int)threads;
	pg->xacts_per_client = xacts;
	pg->duration_ns = duration;
	pg->rs = rs;
	pg->prepared = prepared;
	pg->report_latencies = rep;
	pg->log_aggregate = logflag && agg;
	pg->aggregate_ns = agg;
	pg->unix_socket = unix_sock;
	pg->buffer_hit = (int)hit;
	pg->child = calloc((size_t)(clients + threads), sizeof(*pg->child));
	pg->conn = calloc((size_t)clients, sizeof(*pg->conn));
	pg->thr = calloc((size_t)threads, sizeof(*pg->thr));
	pg->logf = open_memstream(&pg->log, &pg->log_len);
	if (!pg->child || !pg->conn || !pg->thr || !pg->logf) {
		pg_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < PG_PARTITIONS; i++)
		mutex_init_ws(&pg->part[i]);
	launcher_init(&pg->l, wl, pg->child, pg->clients + pg->threads);
	pg->l.on_start = on_start;
	for (int j = 0; j < pg->threads; j++) {
		struct pg_thread *t = &pg->thr[j];

		/* pgbench: thread j gets clients [j*c/t, (j+1)*c/t). */
		*t = (struct pg_thread){ .pg = pg };
		t->first = (int)(j * clients / threads);
		t->nr = (int)((j + 1) * clients / threads) - t->first;
		init_waitqueue_head(&t->pollwq);
		for (int k = 0; k < t->nr; k++) {
			struct pg_conn *cn = &pg->conn[t->first + k];

			cn->pg = pg;
			chan_init(&cn->q, unix_sock ? CHAN_UNIX : CHAN_TCP);
			chan_init(&cn->r, unix_sock ? CHAN_UNIX : CHAN_TCP);
			chan_set_poller(&cn->r, &t->pollwq);
		}
	}
	return wl;
}
