/*
 * sis_short.c - the built-in --features SIS_SHORT: the plug-in
 * examples/policies/sis_short.c compiled in as a layer of the run's
 * policy (kern/hooks.h), so the switch and the plug-in are one source.
 */
/* The descriptor's name in wakesim (features.h), and feature_hit() live. */
#define WAKESIM_BUILTIN feature_sis_short
#include "../../examples/policies/sis_short.c"
