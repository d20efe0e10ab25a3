/*
 * measure.c - the microbenchmarks of measure.h: pinned pthreads, pipes,
 * CLOCK_MONOTONIC. Each figure is the median of a few repetitions so one
 * disturbed repetition (this machine is shared and virtual) does not set it.
 */
#include "measure.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPS 5

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long iters(const struct calib_opts *o, long full)
{
	return o->quick ? full / 10 : full;
}

/* ---- a dependent load chain ---- */

double calib_chase_ns(int cpu, unsigned long bytes, const struct calib_opts *o)
{
	/* Whole pages: aligned_alloc() takes a multiple of its alignment. */
	size_t n = bytes / 4096 * 64;
	char *buf = n > 1 ? aligned_alloc(4096, n * 64) : NULL;
	size_t *order = n > 1 ? malloc(n * sizeof(*order)) : NULL;
	double t[REPS];
	long loads = iters(o, 4000000);
	uint64_t x = 88172645463325252ull;
	void *volatile sink;

	if (!buf || !order || pin(cpu)) {
		free(buf);
		free(order);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Fisher-Yates with xorshift64: the same cycle on every run. */
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), s = order[i];

		order[i] = order[j];
		order[j] = s;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + order[i] * 64) = buf + order[(i + 1) % n] * 64;
	void *p = buf;

	/* Twice round the cycle first: the lines in the LLC, the pages in the TLB. */
	for (size_t i = 0; i < 2 * n; i++)
		p = *(void **)p;
	for (int r = 0; r < REPS; r++) {
		uint64_t t0 = now_ns();

		for (long i = 0; i < loads; i++)
			p = *(void **)p;
		t[r] = (double)(now_ns() - t0) / (double)loads;
	}
	sink = p;
	(void)sink;
	free(buf);
	free(order);
	return median(t, REPS);
}

/* ---- cache-line ping-pong ---- */

struct pingpong {
	_Alignas(64) _Atomic int flag;
	char pad[60];
	int cpu;
	long n;
	int failed;
};

static void *pong_thread(void *arg)
{
	struct pingpong *pp = arg;

	if (pin(pp->cpu)) {
		pp->failed = 1;
		atomic_store(&pp->flag, -1);
		return NULL;
	}
	for (long i = 0; i < pp->n; i++) {
		while (atomic_load_explicit(&pp->flag, memory_order_acquire) != 1)
			if (atomic_load_explicit(&pp->flag, memory_order_relaxed) < 0)
				return NULL;
		atomic_store_explicit(&pp->flag, 0, memory_order_release);
	}
	return NULL;
}

double calib_c2c_ns(int a, int b, const struct calib_opts *o)
{
	double r[REPS];

	for (int rep = 0; rep < REPS; rep++) {
		struct pingpong *pp = aligned_alloc(64, sizeof(*pp));
		pthread_t t;

		if (!pp)
			return -1;
		memset(pp, 0, sizeof(*pp));
		pp->cpu = b;
		pp->n = iters(o, 200000);
		if (pin(a) || pthread_create(&t, NULL, pong_thread, pp)) {
			free(pp);
			return -1;
		}
		uint64_t t0 = now_ns();

		for (long i = 0; i < pp->n && !pp->failed; i++) {
			atomic_store_explicit(&pp->flag, 1, memory_order_release);
			while (atomic_load_explicit(&pp->flag, memory_order_acquire) == 1)
				;
		}
		uint64_t t1 = now_ns();

		pthread_join(t, NULL);
		int failed = pp->failed;
		long n = pp->n;

		free(pp);
		if (failed)
			return -1;
		/* A round trip moves the line twice. */
		r[rep] = (double)(t1 - t0) / (double)n / 2;
	}
	return median(r, REPS);
}

/* ---- syscalls and pipes on one thread ---- */

double calib_syscall_ns(const struct calib_opts *o)
{
	double r[REPS];
	long n = iters(o, 1000000);

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t t0 = now_ns();

		for (long i = 0; i < n; i++)
			(void)getppid();
		r[rep] = (double)(now_ns() - t0) / (double)n;
	}
	return median(r, REPS);
}

double calib_futex_ns(const struct calib_opts *o)
{
	static uint32_t word;
	double r[REPS];
	long n = iters(o, 1000000);

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t t0 = now_ns();

		for (long i = 0; i < n; i++)
			if (syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
				return -1;
		r[rep] = (double)(now_ns() - t0) / (double)n;
	}
	return median(r, REPS);
}

/*
 * A 1-byte write then read on a connected pair (closed on return): write()
 * and read() take a socket's sendmsg/recvmsg path as send() and recv() do.
 */
static double pair_rw_ns(const struct calib_opts *o, int fd[2])
{
	double r[REPS];
	long n = iters(o, 300000);
	char c = 1;
	double ret = -1;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t t0 = now_ns();

		for (long i = 0; i < n; i++)
			if (write(fd[1], &c, 1) != 1 || read(fd[0], &c, 1) != 1)
				goto out;
		r[rep] = (double)(now_ns() - t0) / (double)n;
	}
	ret = median(r, REPS);
out:
	close(fd[0]);
	close(fd[1]);
	return ret;
}

double calib_pipe_rw_ns(const struct calib_opts *o)
{
	int fd[2];

	return pipe(fd) ? -1 : pair_rw_ns(o, fd);
}

double calib_unix_rw_ns(const struct calib_opts *o)
{
	int sv[2];

	return socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ? -1 : pair_rw_ns(o, sv);
}

/*
 * SPLIT_BATCH 1-byte writes, then as many reads, timed apart: a pipe
 * takes them in one page, an AF_UNIX socket in 64 skbs of well under its
 * sk_sndbuf, so no call blocks and no reader is waiting to be woken.
 */
#define SPLIT_BATCH 64

static int pair_split(const struct calib_opts *o, int fd[2], double *write_ns, double *read_ns)
{
	double w[REPS], r[REPS];
	long n = iters(o, 300000) / SPLIT_BATCH;
	char c = 1;
	int ret = -1;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t tw = 0, tr = 0;

		for (long b = 0; b < n; b++) {
			uint64_t t0 = now_ns();

			for (int i = 0; i < SPLIT_BATCH; i++)
				if (write(fd[1], &c, 1) != 1)
					goto out;
			uint64_t t1 = now_ns();

			for (int i = 0; i < SPLIT_BATCH; i++)
				if (read(fd[0], &c, 1) != 1)
					goto out;
			tw += t1 - t0;
			tr += now_ns() - t1;
		}
		w[rep] = (double)tw / (double)(n * SPLIT_BATCH);
		r[rep] = (double)tr / (double)(n * SPLIT_BATCH);
	}
	*write_ns = median(w, REPS);
	*read_ns = median(r, REPS);
	ret = 0;
out:
	close(fd[0]);
	close(fd[1]);
	return ret;
}

int calib_pipe_split(const struct calib_opts *o, double *write_ns, double *read_ns)
{
	int fd[2];

	return pipe(fd) ? -1 : pair_split(o, fd, write_ns, read_ns);
}

int calib_unix_split(const struct calib_opts *o, double *send_ns, double *recv_ns)
{
	int sv[2];

	return socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ? -1 : pair_split(o, sv, send_ns, recv_ns);
}

/*
 * A connected loopback pair (127.0.0.1) of type SOCK_STREAM or
 * SOCK_DGRAM: sv[1] sends, sv[0] receives. TCP_NODELAY, so each 1-byte
 * write(2) is a segment sent and delivered at once, as netperf's TCP_RR
 * sets it. 0, or -1 with nothing left open.
 */
static int inet_pair(int type, int sv[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in b = a;
	socklen_t len = sizeof(a);
	int one = 1, l = socket(AF_INET, type, 0), c = socket(AF_INET, type, 0);

	sv[0] = sv[1] = -1;
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		goto fail;
	if (type == SOCK_DGRAM) {
		len = sizeof(b);
		if (bind(c, (struct sockaddr *)&b, sizeof(b)) ||
		    getsockname(c, (struct sockaddr *)&b, &len) ||
		    connect(c, (struct sockaddr *)&a, sizeof(a)) ||
		    connect(l, (struct sockaddr *)&b, sizeof(b)))
			goto fail;
		sv[0] = l;
		sv[1] = c;
		return 0;
	}
	if (listen(l, 1) || connect(c, (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	sv[0] = accept(l, NULL, NULL);
	close(l);
	l = -1;
	if (sv[0] < 0 || setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(sv[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		goto fail;
	sv[1] = c;
	return 0;
fail:
	if (l >= 0)
		close(l);
	if (c >= 0)
		close(c);
	if (sv[0] >= 0)
		close(sv[0]);
	sv[0] = sv[1] = -1;
	return -1;
}

/* ---- two threads on one CPU ---- */

struct yielder {
	int cpu;
	long n;
	_Atomic int go;
	int failed;
};

static void *yield_thread(void *arg)
{
	struct yielder *y = arg;

	if (pin(y->cpu))
		y->failed = 1;
	while (!atomic_load(&y->go))
		sched_yield();
	for (long i = 0; i < y->n; i++)
		sched_yield();
	return NULL;
}

double calib_yield_switch_ns(int cpu, const struct calib_opts *o)
{
	double r[REPS];

	for (int rep = 0; rep < REPS; rep++) {
		struct yielder y = { .cpu = cpu, .n = iters(o, 200000) };
		pthread_t t;

		if (pin(cpu) || pthread_create(&t, NULL, yield_thread, &y))
			return -1;
		atomic_store(&y.go, 1);
		uint64_t t0 = now_ns();

		for (long i = 0; i < y.n; i++)
			sched_yield();
		uint64_t t1 = now_ns();

		pthread_join(t, NULL);
		if (y.failed)
			return -1;
		/* Both threads yielded n times: 2n switches in that time. */
		r[rep] = (double)(t1 - t0) / (double)(2 * y.n);
	}
	return median(r, REPS);
}

/* ---- a thread's creation and exit ---- */

struct thread_stamps {
	uint64_t first, last;	/* the child's first and last user-space instants */
};

static void *stamped_thread(void *arg)
{
	struct thread_stamps *s = arg;

	s->first = now_ns();
	s->last = now_ns();
	return NULL;
}

int calib_thread_ns(int cpu, const struct calib_opts *o, double *create_ns, double *exit_ns)
{
	long n = iters(o, 2000), nc = 0;
	double *create = malloc((size_t)n * sizeof(*create)), *exit = malloc((size_t)n * sizeof(*exit));
	double rc[REPS], rx[REPS];
	int ret = -1;

	if (!create || !exit || pin(cpu))
		goto out;
	for (int rep = 0; rep < REPS; rep++) {
		nc = 0;
		for (long i = 0; i < n; i++) {
			struct thread_stamps s = { 0 };
			pthread_t t;
			uint64_t t0 = now_ns();

			if (pthread_create(&t, NULL, stamped_thread, &s))
				goto out;
			uint64_t t1 = now_ns();

			if (pthread_join(t, NULL))
				goto out;
			uint64_t t2 = now_ns();

			/* A child that ran first put its own time into the creation. */
			if (s.first >= t1)
				create[nc++] = (double)(t1 - t0);
			exit[i] = (double)(t2 - s.last);
		}
		if (!nc)
			goto out;
		rc[rep] = median(create, (int)nc);
		rx[rep] = median(exit, (int)n);
	}
	*create_ns = median(rc, REPS);
	*exit_ns = median(rx, REPS);
	ret = 0;
out:
	free(create);
	free(exit);
	return ret;
}

/* ---- pipe ping-pong and wake-up latency ---- */

struct piper {
	int cpu;
	int sock_type;		/* 0: two pipes; SOCK_STREAM/SOCK_DGRAM: one loopback pair */
	int a[2], b[2];		/* a: main -> partner, b: partner -> main */
	long n;
	int failed;
	_Atomic uint64_t stamp;	/* the waker's clock just before its write */
	uint64_t *lat;		/* per wake-up latency, or NULL */
};

static void *pipe_partner(void *arg)
{
	struct piper *p = arg;
	char c;

	if (pin(p->cpu))
		p->failed = 1;
	for (long i = 0; i < p->n; i++) {
		if (read(p->a[0], &c, 1) != 1)
			return NULL;
		if (p->lat)
			p->lat[i] = now_ns() - atomic_load(&p->stamp);
		if (write(p->b[1], &c, 1) != 1)
			return NULL;
	}
	return NULL;
}

static int piper_open(struct piper *p)
{
	if (p->sock_type) {
		/* One connection both ways: main sends on sv[1], the partner on sv[0]. */
		int sv[2];

		if (inet_pair(p->sock_type, sv))
			return -1;
		p->a[1] = p->b[0] = sv[1];
		p->a[0] = p->b[1] = sv[0];
		return 0;
	}
	if (pipe(p->a))
		return -1;
	if (pipe(p->b)) {
		close(p->a[0]);
		close(p->a[1]);
		return -1;
	}
	return 0;
}

static void piper_close(struct piper *p)
{
	close(p->a[0]);
	close(p->a[1]);
	if (p->sock_type)
		return;
	close(p->b[0]);
	close(p->b[1]);
}

/*
 * Open p's channels, pin the caller to cpu_a and start the partner (on
 * p->cpu) in *t: 0, or -1 with everything closed again.
 */
static int piper_start(struct piper *p, int cpu_a, pthread_t *t)
{
	if (piper_open(p))
		return -1;
	if (pin(cpu_a) || pthread_create(t, NULL, pipe_partner, p)) {
		piper_close(p);
		return -1;
	}
	return 0;
}

/* The one-byte ping-pong's round trip over pipes or a loopback pair. */
static double rtt_ns(int cpu_a, int cpu_b, int sock_type, const struct calib_opts *o)
{
	double r[REPS];

	for (int rep = 0; rep < REPS; rep++) {
		struct piper p = { .cpu = cpu_b, .sock_type = sock_type, .n = iters(o, 100000) };
		pthread_t t;
		char c = 1;

		if (piper_start(&p, cpu_a, &t))
			return -1;
		uint64_t t0 = now_ns();
		long i;

		for (i = 0; i < p.n; i++)
			if (write(p.a[1], &c, 1) != 1 || read(p.b[0], &c, 1) != 1)
				break;
		uint64_t t1 = now_ns();

		pthread_join(t, NULL);
		piper_close(&p);
		if (p.failed || i < p.n)
			return -1;
		r[rep] = (double)(t1 - t0) / (double)p.n;
	}
	return median(r, REPS);
}

double calib_pipe_rtt_ns(int cpu_a, int cpu_b, const struct calib_opts *o)
{
	return rtt_ns(cpu_a, cpu_b, 0, o);
}

double calib_tcp_rtt_ns(int cpu, const struct calib_opts *o)
{
	return rtt_ns(cpu, cpu, SOCK_STREAM, o);
}

double calib_udp_rtt_ns(int cpu, const struct calib_opts *o)
{
	return rtt_ns(cpu, cpu, SOCK_DGRAM, o);
}

double calib_pipe_rtt_proc_ns(int cpu, const struct calib_opts *o)
{
	double r[REPS];

	if (pin(cpu))
		return -1;
	for (int rep = 0; rep < REPS; rep++) {
		struct piper p = { .cpu = cpu, .n = iters(o, 100000) };
		char c = 1;
		pid_t pid;

		if (piper_open(&p))
			return -1;
		pid = fork();
		if (pid < 0) {
			piper_close(&p);
			return -1;
		}
		if (pid == 0) {
			/* The child inherits the pinning: the partner's loop. */
			for (long i = 0; i < p.n; i++)
				if (read(p.a[0], &c, 1) != 1 || write(p.b[1], &c, 1) != 1)
					_exit(1);
			_exit(0);
		}
		uint64_t t0 = now_ns();
		long i;

		for (i = 0; i < p.n; i++)
			if (write(p.a[1], &c, 1) != 1 || read(p.b[0], &c, 1) != 1)
				break;
		uint64_t t1 = now_ns();
		int st;

		waitpid(pid, &st, 0);
		piper_close(&p);
		if (i < p.n)
			return -1;
		r[rep] = (double)(t1 - t0) / (double)p.n;
	}
	return median(r, REPS);
}

/*
 * Both CPUs idle for idle_us, then a write from cpu_a wakes the reader on
 * cpu_b: per iteration, the wakee's latency (lat) and the write's own
 * duration in the waker (wr). Returns 0, or -1 if a step failed.
 */
static int idle_wakes(int cpu_a, int cpu_b, int idle_us, long n, uint64_t *lat, uint64_t *wr)
{
	struct piper p = { .cpu = cpu_b, .n = n, .lat = lat };
	pthread_t t;
	char c = 1;
	long i;

	if (piper_start(&p, cpu_a, &t))
		return -1;
	for (i = 0; i < n; i++) {
		struct timespec ts = { 0, (long)idle_us * 1000 };
		uint64_t t0;

		nanosleep(&ts, NULL);
		t0 = now_ns();
		atomic_store(&p.stamp, t0);
		if (write(p.a[1], &c, 1) != 1)
			break;
		wr[i] = now_ns() - t0;
		if (read(p.b[0], &c, 1) != 1)
			break;
	}
	pthread_join(t, NULL);
	piper_close(&p);
	return p.failed || i < n ? -1 : 0;
}

static double median_u64(const uint64_t *x, long n)
{
	double *v = malloc(sizeof(*v) * (size_t)n);
	double m;

	if (!v)
		return -1;
	for (long k = 0; k < n; k++)
		v[k] = (double)x[k];
	m = median(v, (int)n);
	free(v);
	return m;
}

int calib_idle_wake(int cpu_a, int cpu_b, int idle_us, const struct calib_opts *o,
		    double *latency_ns, double *write_ns)
{
	long n = o->quick ? 100 : 1000;
	uint64_t *lat = calloc((size_t)n, sizeof(*lat)), *wr = calloc((size_t)n, sizeof(*wr));
	int ret = -1;

	if (lat && wr && !idle_wakes(cpu_a, cpu_b, idle_us, n, lat, wr)) {
		*latency_ns = median_u64(lat, n);
		*write_ns = median_u64(wr, n);
		ret = *latency_ns < 0 || *write_ns < 0 ? -1 : 0;
	}
	free(lat);
	free(wr);
	return ret;
}

/* The ladder's lengths whose median is a short halt's (10, 20 and 50 us). */
#define SHORT_STEPS 3

int calib_halt_poll(int cpu_a, int cpu_b, double long_ns, const struct calib_opts *o,
		    struct calib_halt_poll *hp)
{
	static const int ladder[CALIB_HALT_POLL_STEPS] = { 10, 20, 50, 100, 200, 500, 1000 };
	double wr;

	memset(hp, 0, sizeof(*hp));
	for (int i = 0; i < CALIB_HALT_POLL_STEPS; i++) {
		hp->idle_us[i] = ladder[i];
		hp->wake_ns[i] = -1;
	}
	/*
	 * A short halt's cost: the median of the three shortest lengths, not
	 * the 10-us one alone, whose median over its wake-ups took 40.5 us
	 * in one calibration where 20 and 50 us took 13.0 and 8.6 (and 10.9,
	 * 11.0, 11.4 us a minute later).
	 */
	double writes[SHORT_STEPS], lat[SHORT_STEPS];

	for (int i = 0; i < SHORT_STEPS; i++) {
		if (calib_idle_wake(cpu_a, cpu_b, ladder[i], o, &hp->wake_ns[i], &writes[i]))
			return -1;
		lat[i] = hp->wake_ns[i];
	}
	hp->short_ns = median(lat, SHORT_STEPS);
	hp->short_write_ns = median(writes, SHORT_STEPS);
	/* Short halts no cheaper than long ones by a quarter: no polling host. */
	if (!(long_ns > 0) || long_ns - hp->short_ns < long_ns / 4)
		return 0;
	double mid = (hp->short_ns + long_ns) / 2;

	/* A guest's medians move with the host's load: the window ends at the
	 * first of two lengths in a row above the midpoint, not at one. */
	int above = 0;

	hp->window_us = ladder[0];
	for (int i = 1; i < CALIB_HALT_POLL_STEPS && above < 2; i++) {
		if (i >= SHORT_STEPS &&
		    calib_idle_wake(cpu_a, cpu_b, ladder[i], o, &hp->wake_ns[i], &wr))
			return -1;
		if (hp->wake_ns[i] > mid) {
			above++;
			continue;
		}
		above = 0;
		hp->window_us = ladder[i];
	}
	return 0;
}

/*
 * Whether the host's poll window grows to cover halts of idle_us: the
 * partner on cpu_b first halts 2 ms (longer than any host's maximum, so
 * KVM resets its window to 0), then is woken HALT_ADAPT_WAKES times after
 * idle_us of the waker spinning on cpu_a (spinning, so that only the
 * partner halts). A host that adapts polls through the last wake-ups.
 */
#define HALT_ADAPT_WAKES 16
#define HALT_ADAPT_LAST 6

int calib_halt_poll_adapt(int cpu_a, int cpu_b, int idle_us, double *late_ns)
{
	uint64_t lat[HALT_ADAPT_WAKES];
	double last[REPS];
	char c = 1;

	for (int rep = 0; rep < REPS; rep++) {
		struct piper p = { .cpu = cpu_b, .n = HALT_ADAPT_WAKES, .lat = lat };
		pthread_t t;
		long i;

		if (piper_start(&p, cpu_a, &t))
			return -1;
		for (i = 0; i < HALT_ADAPT_WAKES; i++) {
			uint64_t t0 = now_ns(), spin = (i ? (uint64_t)idle_us : 2000) * 1000;

			while (now_ns() - t0 < spin)
				;
			atomic_store(&p.stamp, now_ns());
			if (write(p.a[1], &c, 1) != 1 || read(p.b[0], &c, 1) != 1)
				break;
		}
		pthread_join(t, NULL);
		piper_close(&p);
		if (p.failed || i < HALT_ADAPT_WAKES)
			return -1;
		double v[HALT_ADAPT_LAST];

		for (int k = 0; k < HALT_ADAPT_LAST; k++)
			v[k] = (double)lat[HALT_ADAPT_WAKES - HALT_ADAPT_LAST + k];
		last[rep] = median(v, HALT_ADAPT_LAST);
	}
	*late_ns = median(last, REPS);
	return 0;
}

/* ---- interruptions of a running thread ---- */

/* Far above a turn of the loop (tens of ns), below any interrupt's cost. */
#define IRQ_GAP_NS 1000

int calib_irq(int cpu, const struct calib_opts *o, double *per_s, double *mean_ns)
{
	double share[REPS], rate[REPS], len[REPS];
	uint64_t span = o->quick ? 10000000 : 100000000;
	int kept = 0;
	cpu_set_t was;

	if (pthread_getaffinity_np(pthread_self(), sizeof(was), &was) || pin(cpu))
		return -1;
	for (int rep = 0; rep < REPS; rep++) {
		struct rusage ru0, ru1;
		uint64_t n = 0, stolen = 0, t0, prev, t;

		getrusage(RUSAGE_THREAD, &ru0);
		t0 = prev = now_ns();
		while ((t = now_ns()) - t0 < span) {
			if (t - prev >= IRQ_GAP_NS) {
				n++;
				stolen += t - prev;
			}
			prev = t;
		}
		getrusage(RUSAGE_THREAD, &ru1);
		if (ru1.ru_nivcsw != ru0.ru_nivcsw)
			continue;
		share[kept] = (double)stolen / (double)(t - t0);
		rate[kept] = (double)n * 1e9 / (double)(t - t0);
		len[kept] = n ? (double)stolen / (double)n : 0;
		kept++;
	}
	pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
	if (!kept)
		return -1;
	/* The repetition whose stolen share is the median one, whole. */
	int mid = 0;

	for (int i = 0; i < kept; i++) {
		int below = 0;

		for (int j = 0; j < kept; j++)
			below += share[j] < share[i] || (share[j] == share[i] && j < i);
		if (below == kept / 2)
			mid = i;
	}
	*per_s = rate[mid];
	*mean_ns = len[mid];
	return 0;
}
