/*
 * registry.c - policies by name, and loading one from a shared object.
 */
#include "registry.h"

#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name, *summary;
	const struct wakesim_policy *policy;
} builtin[] = {
	{ "mainline", "select_task_rq_fair() of the --kernel profile (the default)", NULL },
	{ "scx-default", NULL, &scx_default_policy },
};

#define NR_BUILTIN (sizeof(builtin) / sizeof(builtin[0]))

const char *policy_name(const struct wakesim_policy *p)
{
	return p ? p->name : "mainline";
}

void policy_list(FILE *out)
{
	for (size_t i = 0; i < NR_BUILTIN; i++)
		fprintf(out, "%-16s %s\n", builtin[i].name,
			builtin[i].summary ? builtin[i].summary : builtin[i].policy->summary);
	fprintf(out, "%-16s %s\n", "FILE.so", "a policy built against include/wakesim/policy.h "
		"(docs/writing-a-policy.md)");
}

/*
 * A policy object is user code in our process: if it crashes in a hook
 * (policy_sim is set while a hook runs), say so and whose, instead of
 * dying silently. A fault outside a hook goes to the handler that was
 * there before (a sanitizer's, or the default), by re-raising it.
 */
static const int fatal_sig[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define NR_FATAL (sizeof(fatal_sig) / sizeof(fatal_sig[0]))
static struct sigaction prev_sa[NR_FATAL];
static char crash_msg[NR_FATAL][600];
static size_t crash_len[NR_FATAL];

static void policy_fault(int sig)
{
	for (size_t i = 0; i < NR_FATAL; i++) {
		if (fatal_sig[i] != sig)
			continue;
		if (policy_sim) {
			ssize_t r = write(2, crash_msg[i], crash_len[i]);

			(void)r;
			_exit(1);
		}
		sigaction(sig, &prev_sa[i], NULL);
		return;	/* the faulting instruction faults again, into that handler */
	}
}

static void guard_crashes(const char *path)
{
	static const char *const names[NR_FATAL] = { "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL" };
	struct sigaction sa = { .sa_handler = policy_fault };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NR_FATAL; i++) {
		snprintf(crash_msg[i], sizeof(crash_msg[i]), "wakesim: --policy %.400s crashed in one "
			 "of its hooks (%s): the run is lost\n", path, names[i]);
		crash_len[i] = strlen(crash_msg[i]);
		sigaction(fatal_sig[i], &sa, &prev_sa[i]);
	}
}

static int load_object(const char *path, const struct wakesim_policy **out, char *err,
		       size_t errlen)
{
	char local[4096];

	/* dlopen() looks up a bare name in the library path: "my.so" is ./my.so. */
	if (!strchr(path, '/')) {
		snprintf(local, sizeof(local), "./%s", path);
		path = local;
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		const char *why = dlerror();

		snprintf(err, errlen, "--policy %s: cannot load it: %s", path, why ? why : "dlopen failed");
		return -1;
	}
	const struct wakesim_policy *p = dlsym(h, "wakesim_policy");

	if (!p) {
		snprintf(err, errlen, "--policy %s: no \"wakesim_policy\" symbol: define the policy "
			 "with WAKESIM_POLICY(...) of wakesim/policy.h", path);
		dlclose(h);
		return -1;
	}
	if (p->api != WAKESIM_POLICY_API) {
		snprintf(err, errlen, "--policy %s: built against policy API version %u, this wakesim "
			 "has version %u: rebuild it with this wakesim's include/wakesim/policy.h",
			 path, p->api, WAKESIM_POLICY_API);
		dlclose(h);
		return -1;
	}
	if (!p->select_task_rq || !p->name || !*p->name) {
		snprintf(err, errlen, "--policy %s: its wakesim_policy lacks %s", path,
			 !p->select_task_rq ? ".select_task_rq" : ".name");
		dlclose(h);
		return -1;
	}
	/* Kept loaded for the process's life: simulations hold its hooks. */
	*out = p;
	guard_crashes(path);
	return 0;
}

int policy_lookup(const char *spec, const struct wakesim_policy **out, char *err, size_t errlen)
{
	size_t n = strlen(spec);

	for (size_t i = 0; i < NR_BUILTIN; i++)
		if (!strcmp(spec, builtin[i].name)) {
			*out = builtin[i].policy;
			return 0;
		}
	if (strchr(spec, '/') || (n > 3 && !strcmp(spec + n - 3, ".so")))
		return load_object(spec, out, err, errlen);
	snprintf(err, errlen, "--policy \"%s\": not a built-in policy (mainline, scx-default) nor a "
		 "shared object (a path with '/' or ending in .so)", spec);
	return -1;
}
