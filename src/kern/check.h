/*
 * check.h - the kernel model's invariants (check.c), verified after every
 * event when built with -DWS_DEBUG (the sanitizer build).
 */
#ifndef WS_CHECK_H
#define WS_CHECK_H

#include "kern/sim.h"

/* Abort with a message if an invariant is broken; last_now: the previous event's time. */
void sim_check_invariants(struct sim *sim, u64 last_now);

#endif
