/*
 * engine.h - the discrete-event engine: a clock, the event queue and the
 * loop that pops events in (time, seq) order and hands each to its owner.
 *
 * It knows nothing of what events mean: the kernel model (kern/sim.c)
 * owns the event types and handles them. Nothing but the loop moves the
 * clock, so a run is a pure function of its inputs and --seed.
 */
#ifndef WS_ENGINE_H
#define WS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"

struct engine {
	struct evq evq;
	u64 now;		/* ns: the time of the event being handled */
	u64 events;		/* events popped so far */
};

/* Every this many events the loop calls ops->progress (when set). */
#define ENGINE_PROGRESS_EVENTS (1u << 20)

/* What the owner of a run gives the loop. */
struct engine_ops {
	/* The run is over (checked before each event). */
	bool (*done)(void *ctx);
	/* Handle ev, due at e->now; false ends the loop after it. */
	bool (*handle)(void *ctx, struct event *ev);
	/* Optional: called every ENGINE_PROGRESS_EVENTS events, before handling. */
	void (*progress)(void *ctx);
};

/* An empty engine at time 0. Returns 0, or -1 when out of memory. */
int engine_init(struct engine *e);
void engine_free(struct engine *e);

/*
 * Pop and handle events until ops->done(), an empty queue or a handler's
 * false. Returns 0; -1 with err when time would go back (a bug) or when an
 * event lies past max_ns (0: no limit), a run that did not finish; -2 with
 * err after ten million events at one instant (costs of zero make a loop
 * between tasks that takes no time).
 */
int engine_run(struct engine *e, const struct engine_ops *ops, void *ctx, u64 max_ns,
	       char *err, size_t errlen);

#endif
