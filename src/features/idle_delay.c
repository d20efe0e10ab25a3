/*
 * idle_delay.c - the built-in --features IDLE_DELAY: the plug-in
 * examples/policies/idle_delay.c compiled in as a layer of the run's
 * policy (kern/hooks.h), so the switch and the plug-in are one source.
 */
/* The descriptor's name in wakesim (features.h), and feature_hit() live. */
#define WAKESIM_BUILTIN feature_idle_delay
#include "../../examples/policies/idle_delay.c"
