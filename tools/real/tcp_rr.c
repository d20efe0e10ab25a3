/*
 * tcp_rr.c - a real netperf TCP_RR pair on this machine: a client and a
 * server ping-pong one byte over loopback TCP (TCP_NODELAY), each bound to
 * one CPU, to compare with `wakesim run -- netperf -t TCP_RR -T C,S`
 * (docs/validation.md, section d). With a fourth argument `udp`, the same
 * over a connected loopback UDP pair (netperf's UDP_RR); `unix`, over an
 * AF_UNIX stream socket pair; `pipe`, over two pipes, with write(2) and
 * read(2) (perf bench sched pipe's ping-pong).
 *
 * cc -O2 -o tcp_rr tools/real/tcp_rr.c
 * ./tcp_rr TRANSACTIONS CLIENT_CPU SERVER_CPU [udp|unix|pipe]
 *
 * A CPU given as "any" leaves that end unbound: several unbound pairs run
 * at once show where the kernel places them at a load level.
 *
 * Prints "us_per_trans W cpu_us_per_trans C share S": the wall time of a
 * transaction, the CPU time (user + system) both ends spent on it, and
 * their ratio, the CPUs the pair keeps busy. Exit 2 on bad arguments or a
 * failed socket call.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* ANY_CPU: left free to run anywhere, as an unbound netperf is. */
#define ANY_CPU (-2L)

static void bind_cpu(long cpu)
{
	cpu_set_t set;

	if (cpu == ANY_CPU)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* A whole number of at least min, or -1. */
static long whole(const char *s, long min)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= min ? v : -1;
}

/* What the pair spent: wall and CPU time a transaction, and their ratio. */
static void report(long n, struct timespec t0, struct timespec t1, struct rusage r0,
		   struct rusage rc, struct rusage rs)
{
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	double cpu = tv_s(rc.ru_utime) + tv_s(rc.ru_stime) - tv_s(r0.ru_utime) - tv_s(r0.ru_stime) +
		     tv_s(rs.ru_utime) + tv_s(rs.ru_stime);

	printf("us_per_trans %.2f cpu_us_per_trans %.2f share %.2f\n", wall / (double)n * 1e6,
	       cpu / (double)n * 1e6, cpu / wall);
}

/*
 * The ping-pong over an AF_UNIX stream socket pair (send/recv) or two
 * pipes (write/read): the server's end closed by the client ends it.
 */
static int local_rr(long n, long ccpu, long scpu, bool pipes)
{
	int up[2], down[2];	/* pipes: client -> server, server -> client */
	int c_wr, c_rd, s_rd, s_wr;
	char byte = 'x';

	bind_cpu(scpu);
	bind_cpu(ccpu);
	if (pipes) {
		if (pipe(up) || pipe(down))
			die("pipe");
		c_wr = up[1], s_rd = up[0], s_wr = down[1], c_rd = down[0];
	} else {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, up))
			die("socketpair");
		c_wr = c_rd = up[0], s_rd = s_wr = up[1];
	}
	pid_t srv = fork();

	if (srv < 0)
		die("fork");
	if (srv == 0) {
		bind_cpu(scpu);
		close(c_wr);
		if (pipes)
			close(c_rd);
		while ((pipes ? read(s_rd, &byte, 1) : recv(s_rd, &byte, 1, 0)) == 1)
			if ((pipes ? write(s_wr, &byte, 1) : send(s_wr, &byte, 1, 0)) != 1)
				die("send");
		_exit(0);
	}
	close(s_rd);
	if (pipes)
		close(s_wr);
	struct rusage r0, rs, rc;
	struct timespec t0, t1;

	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		if ((pipes ? write(c_wr, &byte, 1) : send(c_wr, &byte, 1, 0)) != 1 ||
		    (pipes ? read(c_rd, &byte, 1) : recv(c_rd, &byte, 1, 0)) != 1)
			die("round trip");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &rc);
	close(c_wr);	/* the server reads the end */
	if (pipes)
		close(c_rd);
	waitpid(srv, NULL, 0);
	getrusage(RUSAGE_CHILDREN, &rs);
	report(n, t0, t1, r0, rc, rs);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 5 ? argv[4] : "tcp";
	bool ok = argc == 4 || (argc == 5 && (!strcmp(mode, "udp") || !strcmp(mode, "unix") ||
					      !strcmp(mode, "pipe")));
	bool udp = !strcmp(mode, "udp"), local = !strcmp(mode, "unix") || !strcmp(mode, "pipe");
	long n = ok ? whole(argv[1], 1) : -1;
	long ccpu = !ok ? -1 : !strcmp(argv[2], "any") ? ANY_CPU : whole(argv[2], 0);
	long scpu = !ok ? -1 : !strcmp(argv[3], "any") ? ANY_CPU : whole(argv[3], 0);
	int one = 1;

	if (n < 0 || ccpu == -1 || scpu == -1) {
		fprintf(stderr, "usage: tcp_rr TRANSACTIONS CLIENT_CPU SERVER_CPU [udp|unix|pipe] "
			"(whole numbers, TRANSACTIONS at least 1; a CPU may be \"any\")\n");
		return 2;
	}
	if (local)
		return local_rr(n, ccpu, scpu, !strcmp(mode, "pipe"));
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in ca = a;
	socklen_t alen = sizeof(a);
	char byte = 'x';
	int ls = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	int c = udp ? socket(AF_INET, SOCK_DGRAM, 0) : -1;

	/* Both CPUs must exist before a server can be left waiting. */
	bind_cpu(scpu);
	bind_cpu(ccpu);
	if (ls < 0 || bind(ls, (void *)&a, sizeof(a)) || getsockname(ls, (void *)&a, &alen) ||
	    (!udp && listen(ls, 1)))
		die("listen");
	/* UDP: each end connected to the other, so send() and recv() suffice. */
	alen = sizeof(ca);
	if (udp && (c < 0 || bind(c, (void *)&ca, sizeof(ca)) ||
		    getsockname(c, (void *)&ca, &alen) || connect(ls, (void *)&ca, sizeof(ca))))
		die("udp socket");
	pid_t srv = fork();

	if (srv < 0)
		die("fork");
	if (srv == 0) {
		bind_cpu(scpu);
		int s = udp ? ls : accept(ls, NULL, NULL);

		if (s < 0)
			die("accept");
		if (!udp)
			setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while (recv(s, &byte, 1, 0) == 1)
			if (send(s, &byte, 1, 0) != 1)
				die("send");
		_exit(0);
	}
	close(ls);	/* the server's copy alone: if it dies, the connection is refused */
	if (!udp)
		c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		die("connect");
	if (!udp)
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	struct rusage r0, rs, rc;
	struct timespec t0, t1;

	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++)
		if (send(c, &byte, 1, 0) != 1 || recv(c, &byte, 1, 0) != 1)
			die("round trip");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &rc);
	/* A UDP server learns of the end from an empty datagram. */
	if (udp && send(c, &byte, 0, 0) != 0)
		die("send");
	close(c);
	waitpid(srv, NULL, 0);
	/* The server's whole life is the loop, bar its accept. */
	getrusage(RUSAGE_CHILDREN, &rs);
	report(n, t0, t1, r0, rc, rs);
	return 0;
}
