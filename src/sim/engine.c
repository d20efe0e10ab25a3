/*
 * engine.c - the event loop of engine.h.
 */
#include "engine.h"

#include <stdio.h>
#include <string.h>

int engine_init(struct engine *e)
{
	memset(e, 0, sizeof(*e));
	return evq_init(&e->evq);
}

void engine_free(struct engine *e)
{
	evq_free(&e->evq);
}

int engine_run(struct engine *e, const struct engine_ops *ops, void *ctx, u64 max_ns,
	       char *err, size_t errlen)
{
	struct event *ev;
	u64 same_time = 0;

	while (!ops->done(ctx) && (ev = evq_pop(&e->evq))) {
		/* Ten million events at one instant: a zero-cost loop between
		 * CPUs, which would otherwise never end. */
		same_time = ev->time == e->now ? same_time + 1 : 0;
		if (same_time > 10000000) {
			snprintf(err, errlen, "%.3f s: ten million events without simulated time "
				 "passing: the costs make the workload's work free (give syscalls and "
				 "switches a cost)", (double)e->now / 1e9);
			return -2;
		}
		if (ev->time < e->now) {
			snprintf(err, errlen, "internal error: time went back from %llu to %llu",
				 (unsigned long long)e->now, (unsigned long long)ev->time);
			return -1;
		}
		e->now = ev->time;
		e->events++;
		if (ops->progress && !(e->events % ENGINE_PROGRESS_EVENTS))
			ops->progress(ctx);
		if (max_ns && e->now > max_ns) {
			snprintf(err, errlen, "the workload did not finish within %.3f simulated seconds",
				 (double)max_ns / 1e9);
			return -1;
		}
		if (!ops->handle(ctx, ev))
			break;
	}
	return 0;
}
