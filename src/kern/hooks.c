/*
 * hooks.c - the state of hooks.h, set around each hook call, and the
 * lookup of a decision's layer.
 */
#include "hooks.h"

#include "sim.h"

struct sim *policy_sim;
const char *volatile policy_hook;
const char *volatile policy_top_hook;
int policy_layer = -1;
volatile unsigned long policy_calls;

int policy_layer_of(const struct sim *sim, int from, size_t off)
{
	for (int i = from < 0 ? 0 : from; i < sim->nr_layers; i++) {
		void (*const *fn)(void) = (void (*const *)(void))((const char *)sim->layer[i] + off);

		if (*fn)
			return i;
	}
	return -1;
}
