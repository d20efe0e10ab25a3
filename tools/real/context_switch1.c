/*
 * context_switch1.c - a real run of will-it-scale's context_switch1
 * (antonblanchard/will-it-scale, written again here: processes and threads),
 * to compare wakesim's simulation with this machine (docs/validation.md).
 *
 * cc -O2 -pthread -o context_switch1 tools/real/context_switch1.c
 * ./context_switch1 -t TASKS -s SAMPLES [-n] [-T]
 *
 * Task i is bound to core i mod cores (all of the core's CPUs, read from
 * /sys/devices/system/cpu/cpuN/topology/thread_siblings_list) unless -n;
 * it forks a partner that inherits the binding; they ping-pong one byte
 * over two pipes; a round trip counts 2. Once a second the parent prints
 * "min: max: total:" of the ops in that second; the first 6 lines are
 * warm-up, the next SAMPLES are averaged: "average:N" ops/s. -T: the
 * threads variant (context_switch1_threads): each task and its partner
 * are threads of this process, so a switch between them changes no mm.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>

#define WARMUP 6

static int core_mask(int core_index, cpu_set_t *set);

struct pair {
	int a[2], b[2];
	unsigned long long *ctr;
	cpu_set_t set;
	int bind;
};

static void *partner_thread(void *arg)
{
	struct pair *p = arg;
	char ch;

	if (p->bind)
		sched_setaffinity(0, sizeof(p->set), &p->set);
	while (read(p->a[0], &ch, 1) == 1 && write(p->b[1], &ch, 1) == 1)
		;
	return NULL;
}

static void *task_thread(void *arg)
{
	struct pair *p = arg;
	char ch = 0;

	if (p->bind)
		sched_setaffinity(0, sizeof(p->set), &p->set);
	while (write(p->a[1], &ch, 1) == 1 && read(p->b[0], &ch, 1) == 1)
		__atomic_add_fetch(p->ctr, 2, __ATOMIC_RELAXED);
	return NULL;
}

/* -T: start task i and its partner as threads; 0, or -1 on failure. */
static int start_threads(int i, unsigned long long *ctr, int noaff)
{
	struct pair *p = calloc(1, sizeof(*p));
	pthread_t t;

	if (!p || pipe(p->a) || pipe(p->b))
		return -1;
	p->ctr = ctr;
	p->bind = !noaff && core_mask(i, &p->set) == 0;
	if (pthread_create(&t, NULL, partner_thread, p) || pthread_create(&t, NULL, task_thread, p))
		return -1;
	return 0;
}

static int core_mask(int core_index, cpu_set_t *set)
{
	/* The core_index-th distinct core, in CPU order. */
	int seen = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	for (int cpu = 0; cpu < ncpu; cpu++) {
		char path[128], buf[256];
		FILE *f;
		int first;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		f = fopen(path, "r");
		if (!f || !fgets(buf, sizeof(buf), f)) {
			if (f)
				fclose(f);
			return -1;
		}
		fclose(f);
		first = atoi(buf);
		if (first != cpu)
			continue; /* not the core's first thread */
		if (seen++ == core_index) {
			CPU_ZERO(set);
			/* siblings: "a,b" or "a-b" or "a" */
			char *p = buf;
			while (*p) {
				int lo = (int)strtol(p, &p, 10), hi = lo;

				if (*p == '-')
					hi = (int)strtol(p + 1, &p, 10);
				for (int c = lo; c <= hi; c++)
					CPU_SET(c, set);
				if (*p == ',')
					p++;
				else
					break;
			}
			return 0;
		}
	}
	return seen ? core_mask(core_index % seen, set) : -1;
}

int main(int argc, char **argv)
{
	int tasks = 1, samples = 5, noaff = 0, threads = 0, c;

	while ((c = getopt(argc, argv, "t:s:nT")) != -1) {
		if (c == 't')
			tasks = atoi(optarg);
		else if (c == 's')
			samples = atoi(optarg);
		else if (c == 'n')
			noaff = 1;
		else if (c == 'T')
			threads = 1;
		else
			return 2;
	}
	if (tasks < 1 || samples < 1)
		return 2;
	/* Our own process group: the SIGTERM at the end reaches our tasks only. */
	setpgid(0, 0);
	unsigned long long *count = mmap(NULL, (size_t)tasks * 128, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t *pids = calloc((size_t)tasks, sizeof(*pids));

	if (count == MAP_FAILED || !pids)
		return 1;
	for (int i = 0; threads && i < tasks; i++)
		if (start_threads(i, &count[i * 16], noaff))
			return 1;
	for (int i = 0; !threads && i < tasks; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			unsigned long long *ctr = &count[i * 16];
			int a[2], b[2];
			char ch = 0;
			cpu_set_t set;

			if (!noaff && core_mask(i, &set) == 0)
				sched_setaffinity(0, sizeof(set), &set);
			if (pipe(a) || pipe(b))
				_exit(1);
			if (fork() == 0) {
				for (;;) {
					if (read(a[0], &ch, 1) != 1 || write(b[1], &ch, 1) != 1)
						_exit(0);
				}
			}
			for (;;) {
				if (write(a[1], &ch, 1) != 1 || read(b[0], &ch, 1) != 1)
					_exit(0);
				*ctr += 2;
			}
		}
		pids[i] = pid;
	}
	unsigned long long prev[4096] = { 0 }, sum = 0;

	printf("testcase:Context switch via pipes\nwarmup\n");
	for (int n = 1; n <= WARMUP + samples; n++) {
		unsigned long long min = ~0ULL, max = 0, total = 0;

		sleep(1);
		for (int i = 0; i < tasks && i < 4096; i++) {
			unsigned long long v = __atomic_load_n(&count[i * 16], __ATOMIC_RELAXED);
			unsigned long long d = v - prev[i];

			prev[i] = v;
			min = d < min ? d : min;
			max = d > max ? d : max;
			total += d;
		}
		printf("min:%llu max:%llu total:%llu\n", min, max, total);
		if (n == WARMUP)
			printf("measurement\n");
		if (n > WARMUP)
			sum += total;
		fflush(stdout);
	}
	printf("average:%llu\n", sum / (unsigned long long)samples);
	fflush(stdout);
	if (threads)
		return 0; /* the pairs' threads end with the process */
	signal(SIGTERM, SIG_IGN);
	kill(0, SIGTERM);
	while (wait(NULL) > 0)
		;
	return 0;
}
