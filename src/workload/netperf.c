/*
 * netperf.c - netperf's TCP_RR and UDP_RR (HewlettPackard/netperf, manual
 * and nettest_omni's loop), S4's second and third benchmarks.
 *
 * Each instance is a netperf process and the netserver child that serves
 * it (netserver forks one per connection), joined by a loopback TCP
 * connection or a UDP socket pair. netperf sends a request of the first
 * -r size and waits for the whole response of the second; one transaction
 * is outstanding. The test lasts -l seconds from each instance's start (or
 * -l -N: N transactions), measured by the instance; the rate is its
 * transactions over its elapsed time, and N concurrent instances are
 * summed, as the manual does. --warmup S (a wakesim extension) runs each
 * instance S seconds before its measured -l: a real run's first second is
 * nothing against its 60, but PELT needs about 100 ms to settle and
 * SIS_UTIL's scan budget, refreshed by busy CPUs' LLC-level balancing,
 * seconds (docs/fidelity.md): both would dominate the short runs
 * simulations use. Each pair starts as soon as it is forked, as a shell
 * loop's pairs do, so fork balancing places the next pair on a machine that is
 * already running the earlier ones. (Held until all were forked, the
 * blocked pairs looked alike to find_idlest_group() and 3 in 4 of 224
 * clients went to one socket of spr-8480-2s; their servers followed them
 * at the first wake-up, and the balancer could not move the cache-hot
 * tasks back within seconds: docs/fidelity.md.) The measurement starts
 * for all together, after the last fork and the warm-up, so every window
 * has every pair running (a shell loop's few-ms stagger is nothing against
 * its 10 s runs, but would dominate the short runs simulations use). UDP
 * loses nothing on loopback here (no retransmission is needed).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "kern/metwin.h"
#include "ratesteady.h"
#include "rr.h"

#define NETPERF_WSS_BYTES (8 * 1024)

enum { C_GO, C_SEND_SYSCALL, C_SEND_DO, C_RECV_SYSCALL, C_RECV_DO, C_DONE };

struct netperf;

struct np_client {
	struct netperf *np;
	struct rr_conn *conn;
	int state;
	bool slept;
	u64 remain;
	unsigned long long trans;	/* every transaction, warm-up included */
	unsigned long long trans0;	/* trans when the measured run began */
	u64 start_ns, end_ns;		/* measured run began; ended */
	bool measuring;
};

struct netperf {
	bool udp;
	int instances;
	long long testlen;		/* >0: ns; <0: transactions */
	u64 warmup_ns;			/* --warmup: unmeasured run before -l */
	bool warmup_auto;		/* --until-steady without --warmup */
	struct rate_steady rs;		/* --until-steady */
	u64 stop_ns;			/* steady: instances end here (0: not yet) */
	u64 go_ns;			/* the last pair was forked: warm-up starts */
	bool gone;
	u64 req, resp;
	int lcpu, rcpu;			/* -T: netperf's and netserver's CPU, or -1 */
	struct launcher l;
	struct wl_child *child;		/* server i at 2i, client i at 2i+1 */
	struct rr_conn *conn;
	struct np_client *cl;
};

const char netperf_usage[] =
	"Usage: netperf -t TCP_RR|UDP_RR [-l TESTLEN] [-H localhost] [-T L,R] [--instances N]\n"
	"               [-- -r REQ[,RESP]]        (netperf's flags)\n"
	"  -t TEST     TCP_RR or UDP_RR\n"
	"  -l TESTLEN  seconds per instance (default 10; fractions allowed, a wakesim\n"
	"              extension), or -N for N transactions\n"
	"  -H HOST     loopback only (localhost, 127.0.0.1, ::1)\n"
	"  -T L[,R]    bind netperf to CPU L and netserver to CPU R (default: R = L)\n"
	"  -r REQ,RESP request and response sizes (default 1,1; one value sets both;\n"
	"              K/M/G suffixes are 2^10..2^30, k/m/g 10^3..10^9)\n"
	"  --instances N   N concurrent netperf/netserver pairs, as a shell loop\n"
	"              starts them (wakesim; default 1); their rates are summed\n"
	"  --warmup S  run S seconds unmeasured before -l starts (wakesim; default 0,\n"
	"              or the rule's with --until-steady): lets PELT settle in short\n"
	"              simulated runs (SIS_UTIL's budget takes seconds on big LLCs:\n"
	"              docs/fidelity.md)\n"
	RATE_STEADY_USAGE
	"              -l stays the longest measurement.\n";

static bool instance_done(struct sim *sim, const struct np_client *c)
{
	const struct netperf *np = c->np;

	if (!c->measuring)
		return false;
	if (np->stop_ns && sim->now >= np->stop_ns)
		return true;
	if (np->testlen > 0)
		return sim->now - c->start_ns >= (u64)np->testlen;
	return c->trans - c->trans0 >= (unsigned long long)-np->testlen;
}

/* --until-steady's units: every transaction so far (only differences count). */
static u64 np_units(const struct sim *sim, void *arg)
{
	const struct netperf *np = arg;
	u64 n = 0;

	(void)sim;
	for (int i = 0; i < np->instances; i++)
		n += np->cl[i].trans;
	return n;
}

/* Steady: every instance ends its measurement at its next transaction. */
static void np_steady(struct sim *sim, void *arg)
{
	((struct netperf *)arg)->stop_ns = sim->now;
}

static void client_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct np_client *c = p->prog;
	struct rr_conn *conn = c->conn;

	for (;;) {
		switch (c->state) {
		case C_GO:
			/* A pair runs from its fork (see the file comment). */
			c->state = C_SEND_SYSCALL;
			continue;
		case C_SEND_SYSCALL:
			/*
			 * The measured run begins at the first transaction after
			 * the common warm-up, which starts once every pair runs.
			 */
			if (!c->measuring && c->np->gone &&
			    sim->now - c->np->go_ns >= c->np->warmup_ns) {
				c->measuring = true;
				c->start_ns = sim->now;
				c->trans0 = c->trans;
				metrics_window_begin(sim);
			}
			if (instance_done(sim, c)) {
				c->end_ns = sim->now;
				rate_steady_end(sim, &c->np->rs);
				metrics_window_end(sim);
				chan_close(sim, &conn->c2s);
				c->state = C_DONE;
				continue;
			}
			conn->req_len = c->np->req;
			conn->resp_len = c->np->resp;
			c->remain = c->np->req;
			step_kernel(out, chan_write_cost(sim, &conn->c2s));
			c->state = C_SEND_DO;
			return;
		case C_SEND_DO:
			switch (rr_write_rest(sim, &conn->c2s, p, &c->remain, &c->slept, out)) {
			case RR_IO_BLOCK:
				return;
			case RR_IO_SYSCALL:
				step_kernel(out, chan_write_cost(sim, &conn->c2s));
				return;
			case RR_IO_DONE:
				break;
			}
			c->remain = c->np->resp;
			c->state = C_RECV_SYSCALL;
			continue;
		case C_RECV_SYSCALL:
			step_kernel(out, chan_read_cost(sim, &conn->s2c));
			c->state = C_RECV_DO;
			return;
		case C_RECV_DO: {
			u64 n;

			if (rr_read_some(sim, &conn->s2c, p, c->remain, &n, &c->slept, out) == RR_IO_BLOCK)
				return;
			c->remain -= n;
			if (c->remain) {
				c->state = C_RECV_SYSCALL;
				continue;
			}
			c->trans++;
			c->state = C_SEND_SYSCALL;
			/* The recv's rest runs before netperf, back in user space, stamps. */
			step_kernel(out, 0);
			return;
		}
		case C_DONE:
			launcher_child_exit(sim, &c->np->l);
			out->kind = STEP_EXIT;
			return;
		}
	}
}

/* The launcher forked the last pair: the common warm-up starts. */
static void np_on_start(struct sim *sim, struct launcher *l)
{
	struct netperf *np = l->wl->priv;

	np->go_ns = sim->now;
	np->gone = true;
	if (np->warmup_auto)
		np->warmup_ns = rate_steady_warmup_ns(sim);
	if (np->rs.on) {
		np->rs.units = np_units;
		np->rs.stop = np_steady;
		np->rs.arg = np;
		rate_steady_begin(sim, &np->rs, np->go_ns + np->warmup_ns, np->warmup_ns);
	}
}

static int np_start(struct sim *sim, struct workload *wl, char *err, size_t errlen)
{
	struct netperf *np = wl->priv;

	int nr = sim->m->topo.nr_cpus;

	if (np->lcpu >= nr || np->rcpu >= nr) {
		snprintf(err, errlen, "netperf: -T %d,%d: this machine has CPUs 0-%d", np->lcpu,
			 np->rcpu, nr - 1);
		return -1;
	}
	for (int i = 0; i < np->instances; i++) {
		struct wl_child *srv = &np->child[2 * i], *cli = &np->child[2 * i + 1];

		*srv = (struct wl_child){ .comm = "netserver", .fn = rr_server_step,
					  .prog = &np->conn[i], .wss_bytes = NETPERF_WSS_BYTES };
		*cli = (struct wl_child){ .comm = "netperf", .fn = client_step, .prog = &np->cl[i],
					  .wss_bytes = NETPERF_WSS_BYTES };
		if (np->lcpu >= 0) {
			cli->pinned = srv->pinned = true;
			cpumask_clear(&cli->affinity);
			cpumask_clear(&srv->affinity);
			cpumask_set_cpu(np->lcpu, &cli->affinity);
			cpumask_set_cpu(np->rcpu, &srv->affinity);
		}
	}
	return launcher_start(sim, &np->l, "sh", err, errlen);
}

static double np_rate(const struct np_client *c)
{
	u64 el = c->end_ns - c->start_ns;

	return el ? (double)(c->trans - c->trans0) * 1e9 / (double)el : 0;
}

static void np_report(struct sim *sim, struct workload *wl, FILE *out)
{
	struct netperf *np = wl->priv;
	double sum = 0;

	(void)sim;
	fprintf(out, "MIGRATED %s REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET "
		     "to localhost () port 0 AF_INET\n",
		np->udp ? "UDP" : "TCP");
	fprintf(out, "Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.\n"
		     "Send   Recv   Size     Size    Time     Rate\n"
		     "bytes  Bytes  bytes    bytes   secs.    per sec\n\n");
	for (int i = 0; i < np->instances; i++) {
		const struct np_client *c = &np->cl[i];

		sum += np_rate(c);
		if (i < 8)
			fprintf(out, "%-6d %-6d %-8llu %-7llu %-8.2f %.2f\n",
				np->udp ? 212992 : 16384, np->udp ? 212992 : 131072,
				(unsigned long long)np->req, (unsigned long long)np->resp,
				(double)(c->end_ns - c->start_ns) / 1e9, np_rate(c));
	}
	if (np->instances > 8)
		fprintf(out, "(%d more instances)\n", np->instances - 8);
	fprintf(out, "\n%d instance%s, sum of Trans. Rate per sec: %.2f\n", np->instances,
		np->instances > 1 ? "s" : "", sum);
	rate_steady_report(&np->rs, "trans/s", 1000, out);
}

static double np_result(struct sim *sim, struct workload *wl, const char **unit, bool *hib)
{
	struct netperf *np = wl->priv;
	double sum = 0;

	(void)sim;
	for (int i = 0; i < np->instances; i++)
		sum += np_rate(&np->cl[i]);
	*unit = "trans/s";
	*hib = true;
	return sum;
}

static int np_check(struct workload *wl, char *why, size_t len)
{
	struct netperf *np = wl->priv;

	for (int i = 0; i < np->instances; i++)
		if (np->conn[i].served != np->cl[i].trans) {
			snprintf(why, len, "instance %d: %llu responses served, %llu received", i,
				 np->conn[i].served, np->cl[i].trans);
			return -1;
		}
	return 0;
}

static void np_free(struct workload *wl)
{
	struct netperf *np = wl->priv;

	if (np) {
		for (int i = 0; np->conn && i < np->instances; i++)
			rr_conn_free(&np->conn[i]);
		launcher_free(&np->l);
		rate_steady_free(&np->rs);
		free(np->child);
		free(np->conn);
		free(np->cl);
		free(np);
	}
	free(wl);
}

static void np_steady_info(const struct workload *wl, struct wl_steady *out)
{
	rate_steady_info(&((const struct netperf *)wl->priv)->rs, out);
}

static const struct workload_ops netperf_ops = {
	.name = "netperf",
	.start = np_start,
	.report = np_report,
	.result = np_result,
	.check = np_check,
	.free = np_free,
	.steady = np_steady_info,
};

/* netperf's size syntax: K/M/G = 2^10.., k/m/g = 10^3.. */
static int parse_size(const char *s, const char **end, u64 *out)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 10);

	if (e == s || *s == '-')
		return -1;
	switch (*e) {
	case 'K': v <<= 10; e++; break;
	case 'M': v <<= 20; e++; break;
	case 'G': v <<= 30; e++; break;
	case 'k': v *= 1000; e++; break;
	case 'm': v *= 1000000; e++; break;
	case 'g': v *= 1000000000; e++; break;
	}
	if (v < 1 || v > (64 << 20))
		return -1;
	*out = v;
	*end = e;
	return 0;
}

struct workload *netperf_create(int argc, char **argv, bool *help, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "instances", required_argument, NULL, 'I' }, { "help", no_argument, NULL, 'h' },
		{ "warmup", required_argument, NULL, 'W' }, RATE_STEADY_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *test = NULL, *tool = "netperf";
	struct rate_steady rs;
	bool warmup_set = false;
	long long testlen = 10 * (long long)NSEC_PER_SEC;
	u64 warmup = 0;
	long instances = 1, v;
	int lcpu = -1, rcpu = -1;
	u64 req = 1, resp = 1;
	int c;

	rate_steady_init(&rs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":t:l:H:T:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			test = optarg;
			break;
		case 'l':
			/* Seconds (fractions: a wakesim extension), or -N transactions. */
			if (optarg[0] == '-') {
				if (wl_parse_long(tool, "-l", optarg, -1000000000L, -1, &v, err, errlen))
					return NULL;
				testlen = v;
			} else {
				u64 ns;

				if (wl_parse_seconds(tool, "-l", optarg, NSEC_PER_MSEC,
						     WL_MAX_SECONDS * NSEC_PER_SEC, &ns, err, errlen))
					return NULL;
				testlen = (long long)ns;
			}
			break;
		case 'W':
			if (wl_parse_seconds(tool, "--warmup", optarg, 0, WL_MAX_SECONDS * NSEC_PER_SEC,
					     &warmup, err, errlen))
				return NULL;
			warmup_set = true;
			break;
		case 'H':
			if (strcmp(optarg, "localhost") && strcmp(optarg, "127.0.0.1") &&
			    strcmp(optarg, "::1")) {
				snprintf(err, errlen, "netperf: -H %s: only loopback is simulated", optarg);
				return NULL;
			}
			break;
		case 'T': {
			char *end;
			long a = strtol(optarg, &end, 10), b = a;

			if (end != optarg && *end == ',' && end[1]) {
				char *e2;

				b = strtol(end + 1, &e2, 10);
				end = e2;
			}
			if (end == optarg || *end || a < 0 || b < 0 || a >= 4096 || b >= 4096) {
				snprintf(err, errlen, "netperf: -T \"%s\": expected CPU numbers L[,R]", optarg);
				return NULL;
			}
			lcpu = (int)a;
			rcpu = (int)b;
			break;
		}
		case 'I':
			if (wl_parse_long(tool, "--instances", optarg, 1, 8192, &instances, err, errlen))
				return NULL;
			break;
		case 'h':
			*help = true;
			snprintf(err, errlen, "%s", netperf_usage);
			return NULL;
		case ':':
			snprintf(err, errlen, "netperf: option %s needs a value", argv[optind - 1]);
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
		snprintf(err, errlen, "netperf: --steady-window and --steady-tolerance need --until-steady");
		return NULL;
	}
	/* Test-specific options, after "--". */
	for (int i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc) {
			const char *s = argv[++i], *e = s;

			if (*s != ',' && parse_size(s, &e, &req))
				goto bad_r;
			if (*e == ',') {
				if (e[1] && parse_size(e + 1, &e, &resp))
					goto bad_r;
				else if (!e[1])
					e++;
			} else if (s != e) {
				resp = req; /* one value sets both */
			}
			if (*e)
				goto bad_r;
			continue;
bad_r:
			snprintf(err, errlen, "netperf: -r \"%s\": expected REQ[,RESP] sizes of 1 byte to 64M",
				 s);
			return NULL;
		}
		if (!strcmp(argv[i], "-r")) {
			snprintf(err, errlen, "netperf: test-specific option -r needs a value (REQ[,RESP])");
			return NULL;
		}
		snprintf(err, errlen, "netperf: test-specific option \"%s\" is not simulated (only -r)",
			 argv[i]);
		return NULL;
	}
	if (!test || (strcmp(test, "TCP_RR") && strcmp(test, "UDP_RR"))) {
		snprintf(err, errlen, "netperf: -t %s: only TCP_RR and UDP_RR are simulated",
			 test ? test : "(missing)");
		return NULL;
	}
	if (!strcmp(test, "UDP_RR") && (req > 65507 || resp > 65507)) {
		/* A UDP datagram over IPv4 carries at most 65507 bytes. */
		snprintf(err, errlen, "netperf: UDP_RR -r %llu,%llu: a UDP message holds at most 65507 "
			 "bytes", (unsigned long long)req, (unsigned long long)resp);
		return NULL;
	}
		if (!strcmp(test, "UDP_RR") && testlen < 0) {
		snprintf(err, errlen, "netperf: UDP tests can only be timed (-l must be positive)");
		return NULL;
	}

	struct workload *wl = calloc(1, sizeof(*wl));
	struct netperf *np = calloc(1, sizeof(*np));

	if (!wl || !np) {
		free(wl);
		free(np);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	wl->ops = &netperf_ops;
	wl->priv = np;
	np->udp = !strcmp(test, "UDP_RR");
	np->instances = (int)instances;
	np->testlen = testlen;
	np->warmup_ns = warmup;
	np->warmup_auto = rs.on && !warmup_set;
	np->rs = rs;
	np->req = req;
	np->resp = resp;
	np->lcpu = lcpu;
	np->rcpu = rcpu;
	np->child = calloc(2 * (size_t)instances, sizeof(*np->child));
	np->conn = calloc((size_t)instances, sizeof(*np->conn));
	np->cl = calloc((size_t)instances, sizeof(*np->cl));
	if (!np->child || !np->conn || !np->cl) {
		np_free(wl);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	launcher_init(&np->l, wl, np->child, 2 * np->instances);
	np->l.on_start = np_on_start;
	for (int i = 0; i < np->instances; i++) {
		rr_conn_init(&np->conn[i], np->udp ? CHAN_UDP : CHAN_TCP, &np->l);
		np->cl[i] = (struct np_client){ .np = np, .conn = &np->conn[i] };
	}
	return wl;
}
