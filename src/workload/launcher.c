/*
 * launcher.c - fork the children, release them, time the window, reap.
 */
#include "launcher.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kern/metwin.h"

enum {
	L_FORK_SYSCALL, L_FORK_DO, L_GO_SYSCALL, L_GO_DO, L_REAP_SYSCALL, L_REAP_DO,
};

void launcher_init(struct launcher *l, struct workload *wl, struct wl_child *child, int n)
{
	memset(l, 0, sizeof(*l));
	l->wl = wl;
	l->child = child;
	l->nr_children = n;
	chan_init(&l->go, CHAN_PIPE);
	init_waitqueue_head(&l->child_exit);
}

void launcher_free(struct launcher *l)
{
	chan_free(&l->go);
}

static void window_timer_fn(struct sim *sim, struct sim_timer *t)
{
	struct launcher *l = t->data;

	if (!l->window_opened) {
		/* Time 0 is a valid start on a machine where nothing costs. */
		l->window_opened = true;
		l->window_start_ns = sim->now;
		metrics_window_begin(sim);
		if (l->on_window_open)
			l->on_window_open(sim, l);
		if (l->window_ns) {
			timer_arm(sim, &l->window_timer, -1, sim->now + l->window_ns);
			return;
		}
	}
	l->window_end_ns = sim->now;
	l->window_closed = true;
	metrics_window_end(sim);
	if (l->on_window_close)
		l->on_window_close(sim, l);
	if (l->kill_at_end)
		for (int i = 0; i < l->forked; i++)
			if (l->child[i].task && l->child[i].task->__state != TASK_DEAD)
				send_sigkill(sim, l->child[i].task);
}

void launcher_close_window(struct sim *sim, struct launcher *l)
{
	if (l->window_opened && !l->window_closed)
		timer_arm(sim, &l->window_timer, -1, sim->now);
}

double launcher_done_fraction(const struct sim *sim, const struct launcher *l)
{
	u64 len = l->warmup_ns + l->window_ns;

	if (!l->window_ns)
		return -1;
	if (!l->start_ns || sim->now <= l->start_ns)
		return 0;
	double f = (double)(sim->now - l->start_ns) / (double)len;

	return f < 1 ? f : 1;
}

/* The measurement starts: at go, or when the children are created. */
static void start_window(struct sim *sim, struct launcher *l)
{
	l->start_ns = sim->now;
	if (l->on_start)
		l->on_start(sim, l);
	if (l->warmup_ns || l->window_ns)
		timer_arm(sim, &l->window_timer, -1, sim->now + l->warmup_ns);
	else {
		l->window_opened = true;
		l->window_start_ns = sim->now;
		if (l->on_window_open)
			l->on_window_open(sim, l);
	}
}

static void launcher_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	struct launcher *l = p->prog;
	const struct costs *k = &sim->m->costs;
	bool blocked;

	for (;;) {
		switch (l->state) {
		case L_FORK_SYSCALL:
			if (l->forked == l->nr_children) {
				l->state = l->start_pipe ? L_GO_SYSCALL : L_REAP_SYSCALL;
				if (!l->start_pipe)
					start_window(sim, l);
				continue;
			}
			step_kernel(out, l->child[l->forked].thread ? k->clone_ns : k->fork_ns);
			l->state = L_FORK_DO;
			return;
		case L_FORK_DO: {
			struct wl_child *c = &l->child[l->forked];
			struct task_struct *t;

			t = task_create(sim, c->comm, c->fn, c->prog,
					c->thread ? l->mm_id : sim_new_mm(sim), p);
			if (!t)
				abort(); /* out of memory in the engine */
			t->wss_bytes = c->wss_bytes;
			if (c->nice)
				set_user_nice_new(t, c->nice);
			if (c->pinned) {
				struct cpumask m;

				if (!cpumask_and(&m, t->cpus_ptr, &c->affinity))
					cpumask_copy(&m, &sim->cfg.allowed);
				t->cpus_ptr = sim_cpumask(sim, &m);
				if (!t->cpus_ptr)
					abort(); /* out of memory in the engine */
				t->nr_cpus_allowed = cpumask_weight(&m);
				/* sched_setaffinity() before fork: the child starts inside it. */
				if (!cpumask_test_cpu(t->cpu, t->cpus_ptr))
					t->cpu = t->wake_cpu = cpumask_first(t->cpus_ptr);
			}
			c->task = t;
			wake_up_new_task(sim, t);
			l->forked++;
			l->state = L_FORK_SYSCALL;
			continue;
		}
		case L_GO_SYSCALL:
			step_kernel(out, chan_write_cost(sim, &l->go));
			l->state = L_GO_DO;
			return;
		case L_GO_DO:
			chan_write(sim, &l->go, p, 1, false, &blocked);
			start_window(sim, l);
			l->state = L_REAP_SYSCALL;
			continue;
		case L_REAP_SYSCALL:
			if (l->reaped == l->nr_children) {
				sim->wl->done = true;
				out->kind = STEP_EXIT;
				return;
			}
			step_kernel(out, k->reap_ns);
			l->state = L_REAP_DO;
			return;
		case L_REAP_DO:
			if (l->exited == l->reaped) {
				prepare_to_wait(sim, &l->child_exit, p, true);
				out->kind = STEP_BLOCK;
				return;
			}
			finish_wait(&l->child_exit, p);
			l->reaped++;
			l->state = L_REAP_SYSCALL;
			continue;
		}
	}
}

int launcher_start(struct sim *sim, struct launcher *l, const char *comm, char *err,
		   size_t errlen)
{
	timer_init(&l->window_timer, window_timer_fn, l);
	l->mm_id = sim_new_mm(sim);
	sim->this_cpu = cpumask_first(&sim->cfg.allowed);
	l->task = task_create(sim, comm, launcher_step, l, l->mm_id, NULL);
	if (!l->task) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	wake_up_new_task(sim, l->task);
	sim->this_cpu = -1;
	return 0;
}

void launcher_child_exit(struct sim *sim, struct launcher *l)
{
	l->exited++;
	wake_up(sim, &l->child_exit, 1, WF_SYNC);
}

bool launcher_child_killed(struct sim *sim, struct launcher *l, struct task_struct *p,
			   struct step *out)
{
	if (!p->killed)
		return false;
	if (l)
		launcher_child_exit(sim, l);
	out->kind = STEP_EXIT;
	return true;
}

bool launcher_wait_go(struct sim *sim, struct launcher *l, struct task_struct *p)
{
	if (chan_poll_in(sim, &l->go, p)) {
		chan_poll_done(&l->go, p);
		return false;
	}
	return true;
}

int wl_parse_long(const char *tool, const char *opt, const char *arg, long min, long max,
		  long *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		snprintf(err, errlen, "%s: option %s: \"%s\" is not an integer in %ld..%ld", tool, opt,
			 arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

void wl_bad_option(const char *tool, int argc, char **argv, char *err, size_t errlen)
{
	(void)argc;
	if (optopt)
		snprintf(err, errlen, "%s: unknown option \"-%c\" (see %s --help)", tool, optopt, tool);
	else
		snprintf(err, errlen, "%s: unknown option \"%s\" (see %s --help)", tool,
			 argv[optind - 1], tool);
}

int wl_parse_seconds(const char *tool, const char *opt, const char *arg, u64 min, u64 max,
		     u64 *out_ns, char *err, size_t errlen)
{
	/* Digits and at most 9 decimals, parsed exactly (no libm, no locale). */
	const char *p = arg;
	u64 whole = 0, frac = 0, scale = NSEC_PER_SEC;

	if (!*p)
		goto bad;
	while (*p >= '0' && *p <= '9') {
		whole = whole * 10 + (u64)(*p++ - '0');
		if (whole > 1000000)
			goto bad;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9' && scale > 1) {
			scale /= 10;
			frac += (u64)(*p++ - '0') * scale;
		}
	}
	if (*p || p == arg)
		goto bad;
	*out_ns = whole * NSEC_PER_SEC + frac;
	if (*out_ns < min || *out_ns > max)
		goto bad;
	return 0;
bad:
	snprintf(err, errlen, "%s: option %s: \"%s\" is not a number of seconds in %g..%g", tool,
		 opt, arg, (double)min / 1e9, (double)max / 1e9);
	return -1;
}
