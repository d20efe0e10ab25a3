/*
 * runner.c - one simulation end to end, and a fork()-based pool of them.
 */
#include "runner.h"
#include "util/fdio.h"
#include "policy/registry.h"
#include "report/schedstat.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/workload.h"

/* Stop a run whose workload never finishes: an hour of simulated time. */
#define MAX_SIM_NS (3600ULL * NSEC_PER_SEC)

int run_one(const struct run_spec *spec, uint64_t seed, struct run_outcome *out, FILE *report)
{
	struct sim_config cfg = { .features = spec->features, .policy = spec->policy,
				  .tunables = spec->tunables,
				  .seed = seed, .allowed = spec->allowed, .max_sim_ns = MAX_SIM_NS,
				  .progress = spec->progress, .progress_arg = spec->progress_arg };
	struct sim sim;
	struct workload *wl;
	bool help;
	const char *unit = "";

	memset(out, 0, sizeof(*out));
	/* A sweep runs several machines in one process: cpumasks are sized per run. */
	nr_cpu_ids = spec->m->topo.nr_cpus;
	wl = workload_create(spec->argc, spec->argv, &help, out->err, sizeof(out->err));
	if (!wl)
		return -1;
	/* This process's guard on the policy's hook calls (a fork()ed worker
	 * does not inherit the timer). */
	if (cfg.policy)
		policy_watchdog_arm();
	if (sim_init(&sim, spec->m, &cfg, out->err, sizeof(out->err))) {
		wl->ops->free(wl);
		return -1;
	}
	sim_set_workload(&sim, wl);
	sim.trace = spec->trace;
	int r = sim_run(&sim, out->err, sizeof(out->err));

	if (r) {
		out->bad_input = r == -2 || (r == -3 && wl->ops->input_may_deadlock);
		if (r == -3 && wl->ops->input_may_deadlock) {
			char why[sizeof(out->err)];

			snprintf(why, sizeof(why), "%s", out->err);
			snprintf(out->err, sizeof(out->err), "%s: the file's threads wait for each other "
				 "forever: %s", wl->ops->name, why);
		}
		sim_free(&sim);
		return -1;
	}
	char why[200];

	/* The workload's conservation law: a violation is a simulator bug. */
	if (workload_check(wl, why, sizeof(why))) {
		snprintf(out->err, sizeof(out->err), "internal error: %s check failed: %s",
			 wl->ops->name, why);
		sim_free(&sim);
		return -1;
	}
	if (report)
		wl->ops->report(&sim, wl, report);
	if (spec->schedstat)
		schedstat_write(&sim, spec->schedstat);
	out->result = wl->ops->result(&sim, wl, &unit, &out->higher_is_better);
	snprintf(out->unit, sizeof(out->unit), "%s", unit);
	if (wl->ops->steady)
		wl->ops->steady(wl, &out->steady);
	out->met = sim.met;
	out->ok = 1;
	sim_free(&sim);
	return 0;
}

json_object *steady_json(const struct wl_steady *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "engaged", json_object_new_boolean(s->engaged));
	json_object_object_add(o, "warmup_s", json_object_new_double((double)s->warm_ns / 1e9));
	json_object_object_add(o, "window_s", json_object_new_double((double)s->window_ns / 1e9));
	json_object_object_add(o, "tolerance_pct", json_object_new_double(s->tol * 100));
	json_object_object_add(o, "steady_at_s",
			       s->engaged ? json_object_new_double((double)s->at_ns / 1e9) : NULL);
	return o;
}

int host_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* A worker writes its outcome and exits before the parent reads it. */
_Static_assert(sizeof(struct run_outcome) < 65536, "outcome must fit a pipe's buffer");

struct worker {
	pid_t pid;
	int fd;
	int job;
};

int run_many(int n, const struct run_spec *const *specs, const uint64_t *seeds,
	     struct run_outcome *out, int jobs, run_progress_fn progress, void *arg, char *err,
	     size_t errlen)
{
	if (jobs <= 1 || n <= 1) {
		for (int i = 0; i < n; i++) {
			run_one(specs[i], seeds[i], &out[i], NULL);
			if (progress)
				progress(i + 1, n, arg);
		}
		return 0;
	}
	struct worker *w = calloc((size_t)jobs, sizeof(*w));
	int next = 0, running = 0, finished = 0;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fflush(NULL);
	while (next < n || running) {
		while (running < jobs && next < n) {
			int fds[2], slot = 0;
			pid_t pid;

			while (w[slot].pid)
				slot++;
			if (pipe(fds)) {
				snprintf(err, errlen, "pipe: %s", strerror(errno));
				free(w);
				return -1;
			}
			pid = fork();
			if (pid < 0) {
				snprintf(err, errlen, "fork: %s", strerror(errno));
				close(fds[0]);
				close(fds[1]);
				free(w);
				return -1;
			}
			if (pid == 0) {
				struct run_outcome o;

				close(fds[0]);
				run_one(specs[next], seeds[next], &o, NULL);
				_exit(write_all(fds[1], &o, sizeof(o)) ? 1 : 0);
			}
			close(fds[1]);
			w[slot] = (struct worker){ pid, fds[0], next };
			next++;
			running++;
		}
		/*
		 * Collect whichever worker finishes first (its outcome fits in
		 * the pipe, so it can exit before we read); results land by job
		 * index, so the order of collection never shows in the output.
		 */
		int status;
		pid_t done = waitpid(-1, &status, 0);

		if (done < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			free(w);
			return -1;
		}
		for (int s = 0; s < jobs; s++) {
			if (w[s].pid != done)
				continue;
			struct run_outcome *o = &out[w[s].job];

			if (read_all(w[s].fd, o, sizeof(*o))) {
				memset(o, 0, sizeof(*o));
				if (WIFSIGNALED(status))
					snprintf(o->err, sizeof(o->err), "worker process died of signal %d",
						 WTERMSIG(status));
				else
					snprintf(o->err, sizeof(o->err), "worker process exited with status %d "
						 "(its message is above)", WEXITSTATUS(status));
			}
			close(w[s].fd);
			w[s].pid = 0;
			running--;
			if (progress)
				progress(++finished, n, arg);
			break;
		}
	}
	free(w);
	return 0;
}
