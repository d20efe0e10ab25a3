/*
 * registry.c - policies by name, and loading one from a shared object.
 */
#include "registry.h"

#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "kern/sim.h"

#define STR_(x) #x
#define STR(x) STR_(x)

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
 * A policy object is user code in our process: if it crashes or aborts in
 * a hook (policy_sim is set while a hook runs), or a hook call runs past
 * the time limit, say so, whose and which hook, instead of dying silently
 * or hanging. A fault outside a hook goes to the handler that was there
 * before (a sanitizer's, or the default), by re-raising it.
 */
static const int fatal_sig[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const char *const fatal_name[] = { "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT" };
#define NR_FATAL (sizeof(fatal_sig) / sizeof(fatal_sig[0]))
static struct sigaction prev_sa[NR_FATAL];
static bool guarded;

/* The objects loaded, to name the one whose hook failed. */
#define MAX_LOADED 64
static struct {
	const struct wakesim_policy *p;
	char path[400];
} loaded[MAX_LOADED];
static int nr_loaded;


/* write(2) of a string: what a signal handler may call. */
static void say(const char *s)
{
	ssize_t r = write(2, s, strlen(s));

	(void)r;
}

/* "wakesim: --policy PATH: its hook HOOK " for the policy running now. */
static void say_who(const char *hook)
{
	/* The layer whose hook runs: the --policy, or a seed feature's built-in form. */
	const struct wakesim_policy *p =
		!policy_sim ? NULL
		: policy_layer >= 0 && policy_layer < policy_sim->nr_layers ? policy_sim->layer[policy_layer]
									    : policy_sim->cfg.policy;
	const char *path = p ? p->name : "?";

	for (int i = 0; i < nr_loaded; i++)
		if (loaded[i].p == p)
			path = loaded[i].path;
	say("wakesim: --policy ");
	say(path);
	say(": its hook ");
	say(hook ? hook : "?");
	say(" ");
}

void policy_misuse(const char *what)
{
	if (policy_sim) {
		say_who(policy_hook);
	} else {
		say("wakesim: a policy called a wakesim helper outside any hook (from a "
		    "constructor, or a thread of its own?): ");
	}
	say(what);
	say(": the run is lost\n");
	_exit(1);
}

static void policy_fault(int sig)
{
	for (size_t i = 0; i < NR_FATAL; i++) {
		if (fatal_sig[i] != sig)
			continue;
		if (policy_sim) {
			say_who(policy_hook);
			say("crashed (");
			say(fatal_name[i]);
			say("): the run is lost\n");
			_exit(1);
		}
		sigaction(sig, &prev_sa[i], NULL);
		/* A fault repeats into that handler; abort() re-raises after us. */
		if (sig != SIGABRT)
			return;
		raise(sig);
		return;
	}
}

/*
 * Every POLICY_HOOK_LIMIT_S of CPU time: a hook that was running at the
 * last tick and is still the same call (no call since) has run a whole
 * period.
 */
static void policy_watchdog(int sig)
{
	static unsigned long seen_calls;
	static bool seen_in_hook;

	(void)sig;
	if (policy_sim && seen_in_hook && policy_calls == seen_calls) {
		say_who(policy_top_hook);
		say("ran for over " STR(POLICY_HOOK_LIMIT_S) " s of CPU time in one call (the limit; "
		    "a loop that never ends?): the run is lost\n");
		_exit(1);
	}
	seen_in_hook = policy_sim != NULL;
	seen_calls = policy_calls;
}

static void guard_crashes(const struct wakesim_policy *p, const char *path)
{
	/*
	 * An alternate stack: a hook that recurses without end overflows the
	 * stack, and the handler that names it must still have one to run on.
	 */
	static char altstack[1 << 16];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_handler = policy_fault, .sa_flags = SA_ONSTACK };

	if (nr_loaded < MAX_LOADED) {
		loaded[nr_loaded].p = p;
		snprintf(loaded[nr_loaded].path, sizeof(loaded[nr_loaded].path), "%s", path);
		nr_loaded++;
	}
	if (guarded)
		return;
	guarded = true;
	sigaltstack(&ss, NULL);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NR_FATAL; i++)
		sigaction(fatal_sig[i], &sa, &prev_sa[i]);
	struct sigaction wd = { .sa_handler = policy_watchdog, .sa_flags = SA_RESTART };

	sigemptyset(&wd.sa_mask);
	sigaction(SIGPROF, &wd, NULL);
}

void policy_watchdog_arm(void)
{
	static pid_t armed;
	pid_t me = getpid();

	/* A fork()ed worker does not inherit the timer: arm it once per process. */
	if (!guarded || armed == me)
		return;
	armed = me;
	struct itimerval it = { { POLICY_HOOK_LIMIT_S, 0 }, { POLICY_HOOK_LIMIT_S, 0 } };

	setitimer(ITIMER_PROF, &it, NULL);
}

/* A policy that sets no hook is mainline under another name: refused, as a likely mistake. */
static bool has_a_hook(const struct wakesim_policy *p)
{
	return p->init || p->select_task_rq || p->idle_enter || p->idle_exit || p->task_tick ||
	       p->newidle || p->idle_cpu || p->wake_wide || p->wake_affine || p->wake_affine_idle ||
	       p->wake_affine_weight || p->select_idle_sibling || p->sis_candidate ||
	       p->select_idle_cpu || p->sis_scan_budget || p->sis_scan_first || p->sis_scan_cpu ||
	       p->select_idle_core || p->select_idle_smt || p->is_short_task || p->enqueue_task ||
	       p->dequeue_task || p->migrate_task;
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

		snprintf(err, errlen, "%s: cannot load it: %s", path, why ? why : "dlopen failed");
		return -1;
	}
	const struct wakesim_policy *p = dlsym(h, "wakesim_policy");

	if (!p) {
		snprintf(err, errlen, "%s: no \"wakesim_policy\" symbol: define the policy "
			 "with WAKESIM_POLICY(...) of wakesim/policy.h", path);
		dlclose(h);
		return -1;
	}
	if (p->api != WAKESIM_POLICY_API) {
		snprintf(err, errlen, "%s: built against policy API version %u, this wakesim "
			 "has version %u: rebuild it with this wakesim's include/wakesim/policy.h",
			 path, p->api, WAKESIM_POLICY_API);
		dlclose(h);
		return -1;
	}
	if (!p->name || !*p->name || !has_a_hook(p)) {
		snprintf(err, errlen, "%s: its wakesim_policy lacks %s", path,
			 !p->name || !*p->name ? ".name"
					       : "a hook (.select_task_rq, .wake_wide, ...): it would "
						 "be mainline");
		dlclose(h);
		return -1;
	}
	if (p->cpu_data_size > POLICY_DATA_MAX || p->task_data_size > POLICY_DATA_MAX) {
		snprintf(err, errlen, "%s: its %s of %u bytes is more than the %d allowed", path,
			 p->cpu_data_size > POLICY_DATA_MAX ? ".cpu_data_size" : ".task_data_size",
			 p->cpu_data_size > POLICY_DATA_MAX ? p->cpu_data_size : p->task_data_size,
			 POLICY_DATA_MAX);
		dlclose(h);
		return -1;
	}
	/* Kept loaded for the process's life: simulations hold its hooks. */
	*out = p;
	guard_crashes(p, path);
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
	snprintf(err, errlen, "\"%s\": not a built-in policy (mainline, scx-default) nor a "
		 "shared object (a path with '/' or ending in .so)", spec);
	return -1;
}
