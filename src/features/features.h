/*
 * features.h - the seed proposals' built-in switches (--features
 * IDLE_DELAY, AFFINE_SAME_LLC, SIS_SHORT, IDLE_CORES_NO_SMT): each the
 * plug-in of examples/policies/ compiled in (the files of this folder), a layer of the
 * run's policy after the --policy (kern/hooks.h), on when its feature is.
 */
#ifndef WS_SEED_FEATURES_H
#define WS_SEED_FEATURES_H

#include "wakesim/policy_abi.h"

extern const struct wakesim_policy feature_idle_delay;
extern const struct wakesim_policy feature_affine_same_llc;
extern const struct wakesim_policy feature_sis_short;
extern const struct wakesim_policy feature_idle_cores_no_smt;

#endif
