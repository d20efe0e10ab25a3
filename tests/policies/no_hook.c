/*
 * no_hook.c - a policy with a name and no hook: mainline under another
 * name, refused as a likely mistake (tests/test_policy.c).
 */
#include "wakesim/policy.h"

WAKESIM_POLICY(.name = "no-hook");
