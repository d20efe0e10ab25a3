/*
 * hooks.c - the state of hooks.h: set around each hook call.
 */
#include "hooks.h"

struct sim *policy_sim;
const char *volatile policy_hook;
volatile unsigned long policy_calls;
