/*
 * hooks.c - the state of hooks.h, set around each hook call, and the
 * lookup of a decision's layer.
 */
#include "hooks.h"

#include "sim.h"

#include <stdio.h>
#include <unistd.h>

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

void policy_cpu_check(const struct sim *sim, int li, const char *hook, int cpu, int allow_none)
{
	char msg[320];
	int n;

	if ((cpu >= 0 && cpu < sim->nr_cpus) || (allow_none && cpu == -1))
		return;
	n = snprintf(msg, sizeof(msg), "wakesim: policy %s: its hook %s returned CPU %d (the "
		     "machine's CPUs are 0..%d%s): the run is lost\n",
		     li >= 0 ? sim->layer[li]->name : "?", hook, cpu, sim->nr_cpus - 1,
		     allow_none ? ", or -1 for none" : "");
	if (n > 0 && write(2, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}
