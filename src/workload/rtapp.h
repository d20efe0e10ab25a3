/*
 * rtapp.h - rt-app workload descriptions (scheduler-tools/rt-app,
 * doc/tutorial.txt and src/rt-app_parse_config.c), parsed by
 * rtapp_parse.c and run by rtapp.c.
 *
 * A file has "tasks" (each a thread description with "instance" copies)
 * and optionally "global" and the legacy "resources". A thread runs its
 * phases in order "loop" times (-1: until the run's "duration" ends); a
 * phase runs its events in order its own "loop" times. Events name
 * resources (mutexes, condition variables, timers, barriers, threads to
 * suspend/resume), created on first use by name, shared by every thread.
 * Event keys are recognised by prefix, as rt-app does ("run0", "timer1").
 */
#ifndef WS_RTAPP_H
#define WS_RTAPP_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpumask.h"

enum ra_ev {
	RA_RUN, RA_RUNTIME, RA_SLEEP, RA_TIMER, RA_LOCK, RA_UNLOCK, RA_WAIT, RA_SIGNAL,
	RA_BROAD, RA_SYNC, RA_BARRIER, RA_SUSPEND, RA_RESUME,
};

enum ra_res_type { RA_MUTEX, RA_COND, RA_TIMER_RES, RA_BARRIER_RES };

struct ra_event {
	enum ra_ev type;
	uint64_t usec;		/* run, runtime, sleep; timer period */
	int res;		/* resource index: mutex, cond, timer, barrier, thread's cond */
	int mutex;		/* wait/sync's mutex; suspend/resume's mutex */
	bool absolute;		/* timer "mode": "absolute" */
	bool unique;		/* timer "ref" starting "unique": one per thread */
	char *key;		/* its path in the file ("tasks.t.phases.p.lock0") */
};

struct ra_phase {
	int loop;		/* >= 1 */
	struct ra_event *ev;
	int nev;
	bool has_cpus;
	struct cpumask cpus;
	int cpus_max, cpus_line;	/* for the check against the machine */
};

struct ra_task {
	char *name;
	int instance;
	int loop;		/* -1: forever */
	int nice;		/* SCHED_OTHER "priority" */
	uint64_t delay_us;
	bool has_cpus;
	struct cpumask cpus;
	int cpus_max, cpus_line;
	struct ra_phase *ph;
	int nph;
};

struct ra_res {
	char *name;
	enum ra_res_type type;
	int users;		/* barrier: references in the file */
};

struct ra_file {
	char *path;
	long long duration_s;	/* -1: until every thread is done */
	bool cumulative_slack;
	struct ra_task *task;
	int ntask;
	struct ra_res *res;
	int nres;
	int nthreads;		/* sum of instances */
	char notes[512];	/* keys accepted without effect, told to the user */
	int renamed;		/* repeated keys renamed as workgen renames them */
};

/*
 * Read an rt-app file. Repeated keys in an object are first renamed as
 * workgen renames them ("run", "run" -> "run", "run1"). Returns 0, or -1
 * with "FILE:LINE: key PATH: why" in err for malformed JSON, a bad value
 * or a key wakesim does not simulate.
 */
int rtapp_parse(const char *path, struct ra_file *f, char *err, size_t errlen);
/*
 * "FILE:LINE: key \"KEY\": " for an error found while running, LINE found
 * again in the file (as parsed, repeated keys renamed); "FILE: ..." if the
 * file cannot be read again.
 */
void rtapp_where(const struct ra_file *f, const char *key, char *buf, size_t len);
/* Every "cpus" list names CPUs of a machine of nr_cpus; else -1 and err. */
int rtapp_check_cpus(const struct ra_file *f, int nr_cpus, char *err, size_t errlen);
void rtapp_file_free(struct ra_file *f);

#endif
