/*
 * derive.c - a trace's events to replay programs (derive.h).
 *
 * One pass in time order with a state per pid: running (since when, and
 * CPU time not yet written as a RUN), runnable, asleep (where its BLOCK
 * sits, decided when the wake-up comes), dead. A task first seen as the
 * one switched out, or as a waker, was running since the trace began; one
 * first seen switched in was runnable; one first seen woken was asleep.
 */
#include "derive.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ds { DS_UNKNOWN, DS_RUNNING, DS_RUNNABLE, DS_BLOCKED, DS_DEAD };

struct dstate {
	uint8_t state;
	bool selected;
	bool has_rs;		/* woken at runnable_since, not yet switched in */
	int rt;			/* index in plan->task, -1 until created */
	int pending;		/* its BLOCK's op index while asleep, or -1 */
	uint64_t since;		/* running since */
	uint64_t acc;		/* CPU ns not yet written as RUN */
	uint64_t blocked_at;
	uint64_t runnable_since;
	uint64_t end;		/* when it last stopped being able to run */
	/* An inferred switch-in, until sched_stat_runtime dates it: */
	bool inferred, lat_pending;
	int inf_op;		/* its first op after that switch-in */
	uint64_t inf_since, lat_from;
	/* A wake-up seen while it still ran, kept for a switch-out just after: */
	bool early;
	int early_rt, early_op;	/* the waker's tentative WAKE, or early_rt -1 */
	uint64_t early_at;
	/*
	 * A hand-off (see on_switch()): last_woke, the pid it woke last in its
	 * current burst; handoff, its BLOCK waits for the task it woke, which
	 * preempted it, to sleep (handoff_from that pid); handoff_waiter, the
	 * task waiting so on this one.
	 */
	int last_woke, handoff_from, handoff_waiter;
	bool handoff;
};

/*
 * Two CPUs' clocks can disagree by a few us (seen at 2 us on this
 * project's KVM guest): a sched_waking on one CPU can be stamped before
 * the sched_switch that put its target to sleep on another. A wake-up of
 * a running task followed within this window by its switch-out to sleep
 * is taken as the wake-up of that sleep.
 */
#define CLOCK_SKEW_NS 20000

struct dctx {
	const struct sched_trace *tr;
	struct replay_plan *plan;
	struct dstate *ds;
	int *cpu_curr;		/* per CPU: the pid switched in last, -1 unknown */
	uint64_t *cpu_since;	/* ...and when */
	bool oom;
};

static bool selected(const struct sched_task *t, const struct replay_select *sel)
{
	if (!t->pid)
		return false;
	if (!sel || (!sel->nr_comm && !sel->nr_pid))
		return true;
	for (int i = 0; i < sel->nr_pid; i++)
		if (sel->pid[i] == t->pid)
			return true;
	for (int i = 0; i < sel->nr_comm; i++)
		if (!fnmatch(sel->comm[i], t->comm, 0))
			return true;
	return false;
}

/* The pid's state, or NULL for pid 0 and pids not in the table. */
static struct dstate *st(struct dctx *c, int pid)
{
	const struct sched_task *t = pid ? sched_trace_task(c->tr, pid) : NULL;

	return t ? &c->ds[t - c->tr->task] : NULL;
}

static struct rtask *rt_of(struct dctx *c, struct dstate *d)
{
	if (d->rt < 0) {
		struct replay_plan *p = c->plan;
		const struct sched_task *t = &c->tr->task[d - c->ds];
		struct rtask *n = realloc(p->task, (size_t)(p->nr_task + 1) * sizeof(*n));

		if (!n) {
			c->oom = true;
			return NULL;
		}
		p->task = n;
		n[p->nr_task] = (struct rtask){ .pid = t->pid };
		snprintf(n[p->nr_task].comm, sizeof(n->comm), "%s", t->comm);
		d->rt = p->nr_task++;
	}
	return &c->plan->task[d->rt];
}

static int emit(struct dctx *c, struct dstate *d, int kind, int task, uint64_t ns)
{
	struct rtask *t = rt_of(c, d);

	if (!t)
		return -1;
	if (t->nr_op == t->cap_op) {
		int cap = t->cap_op ? 2 * t->cap_op : 8;
		struct rop *n = realloc(t->op, (size_t)cap * sizeof(*n));

		if (!n) {
			c->oom = true;
			return -1;
		}
		t->op = n;
		t->cap_op = cap;
	}
	t->op[t->nr_op] = (struct rop){ .kind = (uint8_t)kind, .task = task, .ns = ns };
	return t->nr_op++;
}

/* Write the CPU time run so far (at now) as a RUN. */
static void flush_run(struct dctx *c, struct dstate *d, uint64_t now)
{
	if (d->state == DS_RUNNING) {
		d->acc += now - d->since;
		d->since = now;
	}
	if (d->acc) {
		c->plan->rec_cpu_ns += d->acc;
		emit(c, d, ROP_RUN, -1, d->acc);
		d->acc = 0;
	}
}

/* A task seen for the first time doing something only a running task does. */
static void first_running(struct dctx *c, struct dstate *d)
{
	if (d->state != DS_UNKNOWN)
		return;
	struct rtask *t = rt_of(c, d);

	if (!t)
		return;
	t->external_start = true;
	t->start_ns = 0;
	d->state = DS_RUNNING;
	d->since = c->plan->start_ns;
}

/* Runnable from now; woken: by a wake-up, whose latency to switch-in is measured. */
static void set_runnable(struct dstate *d, uint64_t now, bool woken)
{
	d->state = DS_RUNNABLE;
	d->has_rs = woken;
	d->runnable_since = now;
}

/* The early wake-up was of a task that never slept: ttwu_runnable(), dropped. */
static void early_drop(struct dctx *c, struct dstate *d)
{
	if (!d->early)
		return;
	if (d->early_rt >= 0)
		c->plan->task[d->early_rt].op[d->early_op].task = -1;
	c->plan->wakes_runnable++;
	d->early = false;
}

/* It went to sleep just after the early wake-up: that wake-up ends the sleep. */
static void early_take(struct dctx *c, struct dstate *d, uint64_t now)
{
	if (d->early_rt >= 0) {
		c->plan->wakes_graph++;
	} else {
		struct rop *o = &c->plan->task[d->rt].op[d->pending];

		o->kind = ROP_SLEEP;
		o->ns = 0;
		c->plan->wakes_external++;
	}
	c->plan->rec_wakeups++;
	d->early = false;
	d->pending = -1;
	set_runnable(d, now, true);
}

/*
 * A hand-off that did not happen as recorded (the preempted task ran again
 * before its preemptor slept): its BLOCK becomes a no-op, and it is
 * runnable again as it really was.
 */
static void cancel_handoff(struct dctx *c, struct dstate *d)
{
	struct dstate *from = st(c, d->handoff_from);

	if (d->pending >= 0) {
		struct rop *o = &c->plan->task[d->rt].op[d->pending];

		o->kind = ROP_WAKE;	/* of no one: replay.c skips it */
		o->task = -1;
	}
	if (from && from->handoff_waiter == (int)(d - c->ds))
		from->handoff_waiter = -1;
	d->handoff = false;
	d->pending = -1;
	set_runnable(d, d->blocked_at, false);
	c->plan->handoffs--;
}

static void on_switch(struct dctx *c, const struct sched_event *e)
{
	struct dstate *prev = st(c, e->a), *next = st(c, e->b);

	c->cpu_curr[e->cpu] = e->b;
	c->cpu_since[e->cpu] = e->ts_ns;

	if (prev && prev->selected) {
		if (prev->state == DS_UNKNOWN)
			first_running(c, prev);
		if (prev->state != DS_RUNNING) {
			c->plan->anomalies++;	/* switched out without being switched in */
		} else if (e->state == SEV_PREEMPTED && next && next->selected && e->b &&
			   prev->last_woke == e->b && next->state == DS_RUNNABLE && prev->rt >= 0 &&
			   next->rt >= 0) {
			/*
			 * A hand-off: prev woke next and next preempted it at
			 * once (wake-up preemption, a pipe's reader on the
			 * writer's CPU). prev runs on only when next sleeps, so
			 * what it does next (read next's answer) follows next's
			 * burst: replayed, prev waits for next's sleep like a
			 * wake-up, or runs on where the machine places them apart.
			 */
			early_drop(c, prev);
			flush_run(c, prev, e->ts_ns);
			prev->pending = emit(c, prev, ROP_BLOCK, -1, 0);
			prev->state = DS_BLOCKED;
			prev->blocked_at = e->ts_ns;
			prev->handoff = prev->pending >= 0;
			prev->handoff_from = e->b;
			next->handoff_waiter = (int)(prev - c->ds);
			c->plan->handoffs += prev->handoff;
		} else if (e->state == SEV_PREEMPTED) {
			early_drop(c, prev);
			prev->acc += e->ts_ns - prev->since;
			set_runnable(prev, e->ts_ns, false);
		} else {
			bool take = prev->early && e->state == SEV_SLEEP &&
				    e->ts_ns - prev->early_at <= CLOCK_SKEW_NS;

			if (!take)
				early_drop(c, prev);
			flush_run(c, prev, e->ts_ns);
			prev->end = e->ts_ns;
			/* It sleeps: the task it preempted in a hand-off runs on. */
			struct dstate *hw = prev->handoff_waiter >= 0 ? &c->ds[prev->handoff_waiter] : NULL;

			if (hw && hw->handoff && hw->state == DS_BLOCKED && hw->pending >= 0) {
				emit(c, prev, ROP_WAKE, hw->rt, 0);
				hw->handoff = false;
				hw->pending = -1;
				set_runnable(hw, e->ts_ns, false);
			}
			prev->handoff_waiter = -1;
			if (e->state == SEV_DEAD) {
				emit(c, prev, ROP_EXIT, -1, 0);
				prev->state = DS_DEAD;
			} else {
				prev->pending = emit(c, prev, ROP_BLOCK, -1, 0);
				prev->state = DS_BLOCKED;
				prev->blocked_at = e->ts_ns;
				if (take && prev->pending >= 0)
					early_take(c, prev, e->ts_ns);
			}
		}
	}
	if (next && next->selected && next->state == DS_DEAD) {
		c->plan->anomalies++;	/* it exited: a corrupt or reused pid, not replayed again */
	} else if (next && next->selected) {
		if (next->state == DS_UNKNOWN) {
			/* Queued when the trace began. */
			struct rtask *t = rt_of(c, next);

			if (t)
				t->external_start = true;
		} else if (next->state == DS_BLOCKED && next->handoff) {
			cancel_handoff(c, next);
		} else if (next->state == DS_BLOCKED) {
			/* Its wake-up is not in the trace (lost events): it slept this long. */
			c->plan->anomalies++;
			if (next->pending >= 0) {
				struct rop *o = &c->plan->task[next->rt].op[next->pending];

				o->kind = ROP_SLEEP;
				o->ns = e->ts_ns - next->blocked_at;
			}
		} else if (next->state != DS_RUNNABLE) {
			c->plan->anomalies++;
		}
		c->plan->rec_switches++;
		if (next->has_rs)
			hist_add(&c->plan->rec_wake_lat, e->ts_ns - next->runnable_since);
		next->has_rs = false;
		next->pending = -1;
		next->state = DS_RUNNING;
		next->since = e->ts_ns;
		next->last_woke = 0;	/* a new burst */
	}
}

/* sched_waking, or sched_wakeup when the trace has no sched_waking. */
static void on_wake(struct dctx *c, const struct sched_event *e)
{
	struct dstate *t = st(c, e->a), *w = st(c, e->pid);

	if (!t || !t->selected)
		return;
	if (t->state == DS_DEAD) {
		c->plan->anomalies++;
		return;
	}
	if (t->state == DS_BLOCKED && t->handoff)
		cancel_handoff(c, t);	/* runnable in fact: this wake-up finds it so */
	/* A replayed task in task context did it: an edge of the wake-up graph. */
	bool by_task = !e->irq && w && w->selected && w->state != DS_BLOCKED &&
		       w->state != DS_DEAD;

	if (by_task) {
		first_running(c, w);
		if (w->state != DS_RUNNING)
			by_task = false;	/* runnable, not running: not its doing */
	}
	if (t->state == DS_RUNNING || t->state == DS_RUNNABLE) {
		/* Not asleep (yet): keep it for a switch-out within the clock skew. */
		early_drop(c, t);
		t->early = true;
		t->early_at = e->ts_ns;
		t->early_rt = -1;
		if (by_task && t->state == DS_RUNNING && t->rt >= 0) {
			flush_run(c, w, e->ts_ns);
			t->early_op = emit(c, w, ROP_WAKE, t->rt, 0);
			if (t->early_op >= 0)
				t->early_rt = w->rt;
		}
		return;
	}
	if (t->state == DS_UNKNOWN) {
		struct rtask *rt = rt_of(c, t);

		if (!rt)
			return;
		rt->external_start = true;
		t->blocked_at = c->plan->start_ns;
		t->pending = emit(c, t, ROP_BLOCK, -1, 0);
	}
	if (t->pending < 0)
		return;
	c->plan->rec_wakeups++;
	if (by_task) {
		flush_run(c, w, e->ts_ns);
		emit(c, w, ROP_WAKE, t->rt, 0);
		c->plan->wakes_graph++;
		w->last_woke = e->a;
	} else {
		struct rop *o = &c->plan->task[t->rt].op[t->pending];

		o->kind = ROP_SLEEP;
		o->ns = e->ts_ns - t->blocked_at;
		c->plan->wakes_external++;
	}
	t->pending = -1;
	set_runnable(t, e->ts_ns, true);
}

static void on_fork(struct dctx *c, const struct sched_event *e)
{
	struct dstate *p = st(c, e->a), *ch = st(c, e->b);

	/* A task forking itself (a corrupt line) would start twice: left out. */
	if (p && p == ch) {
		c->plan->anomalies += ch->selected;
		return;
	}
	if (!ch || !ch->selected || ch->state != DS_UNKNOWN) {
		if (ch && ch->selected)
			c->plan->anomalies++;
		return;
	}
	struct rtask *t = rt_of(c, ch);

	if (!t)
		return;
	if (p && p->selected && p->state != DS_BLOCKED && p->state != DS_DEAD) {
		first_running(c, p);
		flush_run(c, p, e->ts_ns);
		emit(c, p, ROP_FORK, ch->rt, 0);
	} else {
		t = &c->plan->task[ch->rt];
		t->external_start = true;
		t->start_ns = e->ts_ns - c->plan->start_ns;
	}
	set_runnable(ch, e->ts_ns, false);
}

/*
 * The task an event names as current is running, whatever the trace said
 * before. When its switch-in is missing (a hole in a CPU's buffer, or a
 * kernel that does not trace switches out of idle on some CPUs, as this
 * project's KVM guest does on CPU 1), it is inferred: on a CPU idle since
 * t, at max(t, when it became runnable); else at this event. Its run
 * delay is unknown and not counted.
 */
static void seen_current(struct dctx *c, const struct sched_event *e)
{
	struct dstate *d = st(c, e->pid);

	if (!d || !d->selected || d->state == DS_RUNNING || d->state == DS_DEAD)
		return;
	if (d->state == DS_UNKNOWN) {
		first_running(c, d);
		return;
	}
	if (d->state == DS_BLOCKED && d->handoff)
		cancel_handoff(c, d);
	uint64_t t = e->ts_ns, from = d->state == DS_BLOCKED ? d->blocked_at : d->runnable_since;

	if (c->cpu_curr[e->cpu] == 0)
		t = c->cpu_since[e->cpu] > from ? c->cpu_since[e->cpu] : from;
	if (t > e->ts_ns)
		t = e->ts_ns;
	c->plan->inferred_switches++;
	c->plan->rec_switches++;
	if (d->state == DS_BLOCKED && d->pending >= 0) {
		/* Its wake-up is missing too: a timed sleep. */
		struct rop *o = &c->plan->task[d->rt].op[d->pending];

		o->kind = ROP_SLEEP;
		o->ns = t - d->blocked_at;
		c->plan->anomalies++;
	}
	d->inferred = true;
	d->lat_pending = d->has_rs;
	d->lat_from = d->runnable_since;
	d->inf_since = t;
	d->inf_op = c->plan->task[d->rt].nr_op;
	d->pending = -1;
	d->has_rs = false;
	d->state = DS_RUNNING;
	d->since = t;
	c->cpu_curr[e->cpu] = e->pid;
	c->cpu_since[e->cpu] = t;
}

/*
 * sched_stat_runtime of a task whose switch-in was inferred: update_curr()
 * reports the CPU time since exec_start, which the switch-in set, so the
 * first one after it dates the switch-in (now - runtime). The time counted
 * before that date comes off the burst, and the wake-up latency is known.
 */
static void on_runtime(struct dctx *c, const struct sched_event *e)
{
	struct dstate *d = st(c, e->a);

	if (!d || !d->selected || d->state != DS_RUNNING || !d->inferred)
		return;
	d->inferred = false;
	if (e->val > e->ts_ns || e->ts_ns - e->val <= d->inf_since)
		return;
	uint64_t in = e->ts_ns - e->val, shift = in - d->inf_since;
	struct rtask *t = &c->plan->task[d->rt];

	for (int i = d->inf_op; i < t->nr_op && shift; i++)
		if (t->op[i].kind == ROP_RUN) {
			uint64_t cut = t->op[i].ns < shift ? t->op[i].ns : shift;

			t->op[i].ns -= cut;
			c->plan->rec_cpu_ns -= cut;
			shift -= cut;
		}
	if (shift && d->since + shift <= e->ts_ns)
		d->since += shift;
	if (d->lat_pending && in >= d->lat_from)
		hist_add(&c->plan->rec_wake_lat, in - d->lat_from);
	d->lat_pending = false;
}

static void step(struct dctx *c, const struct sched_event *e)
{
	struct dstate *d;

	seen_current(c, e);
	switch (e->type) {
	case SEV_SWITCH:
		on_switch(c, e);
		break;
	case SEV_WAKING:
		on_wake(c, e);
		break;
	case SEV_WAKEUP:
		/* After sched_waking it is the enqueue of the same wake-up. */
		if (!c->tr->has_waking)
			on_wake(c, e);
		break;
	case SEV_FORK:
		on_fork(c, e);
		break;
	case SEV_STAT_RUNTIME:
		on_runtime(c, e);
		break;
	case SEV_MIGRATE:
		d = st(c, e->a);
		if (d && d->selected)
			c->plan->rec_migrations++;
		break;
	default:
		break;
	}
}

/* The trace ends: what ran is written, what slept stays asleep and exits. */
static void finish(struct dctx *c)
{
	struct replay_plan *p = c->plan;
	uint64_t last = p->start_ns;

	for (int i = 0; i < c->tr->nr_task; i++) {
		struct dstate *d = &c->ds[i];

		if (!d->selected || d->rt < 0)
			continue;
		early_drop(c, d);
		struct rtask *t = &p->task[d->rt];

		if (d->state == DS_BLOCKED && d->pending == t->nr_op - 1)
			t->nr_op--;
		if (d->state == DS_RUNNING || d->state == DS_RUNNABLE) {
			flush_run(c, d, p->end_ns);
			d->end = p->end_ns;
		}
		if (d->state != DS_DEAD)
			emit(c, d, ROP_EXIT, -1, 0);
		if (d->end > last)
			last = d->end;
	}
	p->rec_elapsed_ns = last - p->start_ns;
}

/*
 * Whatever the trace held, the replay must end. Run the programs with
 * tokens and no time (a BLOCK passes with a token, WAKE gives one, FORK
 * starts its child): a BLOCK that can never get its token (a corrupt
 * trace: the waker's WAKE follows its own exit, or waits on this task)
 * becomes a sleep of no time, and a task nothing starts is started by the
 * replay. Timing cannot change what can complete, so the replay then
 * completes. Returns -1 when out of memory.
 */
int replay_plan_complete(struct replay_plan *p)
{
	int n = p->nr_task;
	int *pc = calloc((size_t)n + 1, sizeof(*pc)), *tok = calloc((size_t)n + 1, sizeof(*tok));
	bool *on = calloc((size_t)n + 1, sizeof(*on));

	if (!pc || !tok || !on) {
		free(pc);
		free(tok);
		free(on);
		return -1;
	}
	for (int i = 0; i < n; i++)
		on[i] = p->task[i].external_start;
	for (;;) {
		bool moved = true;

		while (moved) {
			moved = false;
			for (int i = 0; i < n; i++) {
				const struct rtask *t = &p->task[i];

				while (on[i] && pc[i] < t->nr_op) {
					const struct rop *o = &t->op[pc[i]];

					if (o->kind == ROP_BLOCK) {
						if (!tok[i])
							break;
						tok[i]--;
					} else if (o->kind == ROP_WAKE && o->task >= 0) {
						tok[o->task]++;
					} else if (o->kind == ROP_FORK && !on[o->task]) {
						on[o->task] = true;
					} else if (o->kind == ROP_EXIT) {
						pc[i] = t->nr_op;
						break;
					}
					pc[i]++;
					moved = true;
				}
			}
		}
		/* The first task stuck or never started, in plan order, is freed. */
		int stuck = -1;

		for (int i = 0; i < n && stuck < 0; i++)
			if (pc[i] < p->task[i].nr_op)
				stuck = i;
		if (stuck < 0)
			break;
		p->anomalies++;
		if (!on[stuck]) {
			p->task[stuck].external_start = true;
			on[stuck] = true;
		} else {
			p->task[stuck].op[pc[stuck]].kind = ROP_SLEEP;
			p->task[stuck].op[pc[stuck]].ns = 0;
		}
	}
	free(pc);
	free(tok);
	free(on);
	return 0;
}

int replay_derive(const struct sched_trace *tr, const struct replay_select *sel,
		  struct replay_plan *plan, char *err, size_t errlen)
{
	struct dctx c = { .tr = tr, .plan = plan };
	int nsel = 0;

	memset(plan, 0, sizeof(*plan));
	c.ds = calloc((size_t)tr->nr_task + 1, sizeof(*c.ds));
	c.cpu_curr = malloc(((size_t)tr->nr_cpus + 1) * sizeof(*c.cpu_curr));
	c.cpu_since = calloc((size_t)tr->nr_cpus + 1, sizeof(*c.cpu_since));
	if (!c.ds || !c.cpu_curr || !c.cpu_since) {
		free(c.ds);
		free(c.cpu_curr);
		free(c.cpu_since);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i <= tr->nr_cpus; i++)
		c.cpu_curr[i] = -1;
	for (int i = 0; i < tr->nr_task; i++) {
		c.ds[i] = (struct dstate){ .rt = -1, .pending = -1, .handoff_waiter = -1 };
		c.ds[i].selected = selected(&tr->task[i], sel);
		nsel += c.ds[i].selected;
	}
	if (!nsel) {
		snprintf(err, errlen, "no task of the trace's %d matches the --comm/--pid selection",
			 tr->nr_task);
		free(c.ds);
		free(c.cpu_curr);
		free(c.cpu_since);
		return -1;
	}
	plan->start_ns = tr->nr ? tr->ev[0].ts_ns : 0;
	plan->end_ns = tr->nr ? tr->ev[tr->nr - 1].ts_ns : 0;
	plan->used_waking = tr->has_waking;
	for (size_t i = 0; i < tr->nr && !c.oom; i++)
		step(&c, &tr->ev[i]);
	if (!c.oom)
		finish(&c);
	if (!c.oom && replay_plan_complete(plan))
		c.oom = true;
	free(c.ds);
	free(c.cpu_curr);
	free(c.cpu_since);
	if (c.oom) {
		replay_plan_free(plan);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!plan->nr_task) {
		snprintf(err, errlen, "the %d selected tasks never run in the trace", nsel);
		replay_plan_free(plan);
		return -1;
	}
	return 0;
}

void replay_plan_free(struct replay_plan *plan)
{
	for (int i = 0; i < plan->nr_task; i++)
		free(plan->task[i].op);
	free(plan->task);
	memset(plan, 0, sizeof(*plan));
}

