/*
 * testutil.h - helpers shared by the cmocka tests: load a machine, build a
 * simulation without running it, and put CPUs into hand-chosen states.
 */
#ifndef WS_TESTUTIL_H
#define WS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>

#include "kern/kernel.h"
#include "kern/topology.h"
#include "machine/machine.h"
#include "kern/sim.h"

/*
 * The fixture that stands for "this machine" wherever a test needs a real
 * host's tree: tests never read the /sys of the machine they run on.
 */
#define TU_HOST "sysfs:tests/data/host-2cpu-sysfs"

static inline struct machine *tu_machine(const char *spec)
{
	struct machine *m = calloc(1, sizeof(*m));
	char err[512];

	assert_non_null(m);
	if (machine_load(spec, m, err, sizeof(err))) {
		print_error("machine_load(%s): %s\n", spec, err);
		fail();
	}
	return m;
}

static inline void tu_machine_free(struct machine *m)
{
	machine_free(m);
	free(m);
}

/* A simulation of m with the given features ("default" or a list). */
static inline struct sim *tu_sim(const struct machine *m, const char *features)
{
	struct sim *sim = calloc(1, sizeof(*sim));
	struct sim_config cfg = { .seed = 1 };
	char err[512];

	assert_non_null(sim);
	sched_features_default(&cfg.features);
	assert_int_equal(sched_features_parse(&cfg.features, features, err, sizeof(err)), 0);
	sched_tunables_default(&cfg.tunables, m->topo.nr_cpus);
	cpumask_setall(&cfg.allowed);
	if (sim_init(sim, m, &cfg, err, sizeof(err))) {
		print_error("sim_init: %s\n", err);
		fail();
	}
	return sim;
}

/*
 * The same on a kernel profile (enum kernel_version): its features and
 * tunables. m becomes the machine cpumasks are sized for (nr_cpu_ids, set
 * by the last machine_load()), so tests may hold several machines.
 */
static inline struct sim *tu_sim_kernel(const struct machine *m, const char *features, int kver)
{
	struct sim *sim = calloc(1, sizeof(*sim));
	struct sim_config cfg = { .seed = 1 };
	char err[512];

	nr_cpu_ids = m->topo.nr_cpus;
	assert_non_null(sim);
	sched_features_default_for(&cfg.features, (enum kernel_version)kver);
	assert_int_equal(sched_features_parse(&cfg.features, features, err, sizeof(err)), 0);
	sched_tunables_default(&cfg.tunables, m->topo.nr_cpus);
	sched_tunables_kernel(&cfg.tunables, kver, m->topo.nr_cpus);
	cpumask_setall(&cfg.allowed);
	if (sim_init(sim, m, &cfg, err, sizeof(err))) {
		print_error("sim_init: %s\n", err);
		fail();
	}
	return sim;
}

static inline void tu_sim_free(struct sim *sim)
{
	sim_free(sim);
	free(sim);
}

static void tu_nop_step(struct sim *sim, struct task_struct *p, struct step *out)
{
	(void)sim;
	(void)p;
	out->kind = STEP_RUN;
	out->work_ns = 1000;
}

/* A sleeping task whose last CPU was cpu. */
static inline struct task_struct *tu_task(struct sim *sim, int cpu)
{
	sim->this_cpu = cpu;
	struct task_struct *p = task_create(sim, "test", tu_nop_step, NULL, 1, NULL);

	assert_non_null(p);
	p->__state = TASK_INTERRUPTIBLE;
	p->cpu = p->wake_cpu = p->recent_used_cpu = cpu;
	sim->this_cpu = -1;
	return p;
}

/* Make cpu run a task of its own (busy), returned. */
static inline struct task_struct *tu_busy(struct sim *sim, int cpu)
{
	struct rq *rq = cpu_rq(sim, cpu);
	struct task_struct *p = tu_task(sim, cpu);

	p->__state = TASK_RUNNING;
	sim->this_cpu = cpu;
	activate_task(sim, rq, p, ENQUEUE_WAKEUP);
	set_next_entity(sim, rq, &p->se);
	rq->curr = p;
	p->on_cpu = 1;
	rq->mode = CPU_MODE_RUNNING;
	sim->this_cpu = -1;
	sim->kcost_ns = 0;
	return p;
}

/*
 * A remote wake-up that took its CPU for being idle reads it again when
 * its path gets there (try_to_wake_up(), kern/core.c): run that read now,
 * at its time, so the CPU is claimed (task_cpu(p) is it) or the path goes
 * on. The caller's waking CPU stays sim->this_cpu.
 */
static inline void tu_wake_read(struct sim *sim, struct task_struct *p)
{
	int this_cpu = sim->this_cpu;

	if (!p->wake_checking)
		return;
	evq_cancel(&sim->eng.evq, &p->ev_wake);
	sim->now = p->ev_wake.time;
	ttwu_queue_event(sim, p);
	sim->this_cpu = this_cpu;
	sim->kcost_ns = 0;
}

/* Path of the wakesim binary under test (make passes WAKESIM). */
static inline const char *tu_wakesim(void)
{
	const char *w = getenv("WAKESIM");

	return w ? w : "./wakesim";
}

/* A sleeping task on cpu that may run only there (select_task_rq() is skipped). */
static inline struct task_struct *tu_pinned_task(struct sim *sim, int cpu, struct cpumask *only)
{
	struct task_struct *p = tu_task(sim, cpu);

	cpumask_clear(only);
	cpumask_set_cpu(cpu, only);
	p->cpus_ptr = only;
	p->nr_cpus_allowed = 1;
	return p;
}

/*
 * ideal-4cpu-scan on kernel kver without wake-up preemption (no IPI to
 * price), every transfer xfer_ns (a hit 0): the lock tests' machine, in *m.
 */
static inline struct sim *tu_lock_sim(struct machine **m, u64 xfer_ns, int kver)
{
	*m = tu_machine("tests/data/ideal-4cpu-scan.json");
	for (int cls = 0; cls < C2C_NR; cls++)
		(*m)->costs.c2c_ns[cls] = cls == C2C_LOCAL ? 0 : xfer_ns;
	return tu_sim_kernel(*m, "NO_WAKEUP_PREEMPTION", kver);
}

/* The end of p's wake-up path (its event): its wake-list entry or locked enqueue. */
static inline void tu_wake_end(struct sim *sim, struct task_struct *p)
{
	evq_cancel(&sim->eng.evq, &p->ev_wake);
	sim->now = p->ev_wake.time;
	ttwu_queue_event(sim, p);
}

/*
 * Run a shell command line; returns its exit status and stores its
 * combined stdout+stderr (truncated to len) in out.
 */
static inline int tu_sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	FILE *f = popen(cmd, "r");

	assert_non_null(f);
	size_t n = fread(out, 1, len - 1, f);

	out[n] = '\0';
	/* Drain the rest so the child is not killed by SIGPIPE. */
	char sink[4096];

	while (fread(sink, 1, sizeof(sink), f) > 0)
		;
	int st = pclose(f);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#endif
