/*
 * affine_same_llc.c - the built-in --features AFFINE_SAME_LLC: the plug-in
 * examples/policies/affine_same_llc.c compiled in as a layer of the run's
 * policy (kern/hooks.h), so the switch and the plug-in are one source.
 */
/* The descriptor's name in wakesim (features.h), and feature_hit() live. */
#define WAKESIM_BUILTIN feature_affine_same_llc
#include "../../examples/policies/affine_same_llc.c"
