/*
 * idle_cores_no_smt.c - the built-in --features IDLE_CORES_NO_SMT: the plug-in
 * examples/policies/idle_cores_no_smt.c compiled in as a layer of the run's
 * policy (kern/hooks.h), so the switch and the plug-in are one source.
 */
/* The descriptor's name in wakesim (features.h), and feature_hit() live. */
#define WAKESIM_BUILTIN feature_idle_cores_no_smt
#include "../../examples/policies/idle_cores_no_smt.c"
