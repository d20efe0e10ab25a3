/*
 * count_events.c - the event hooks, per-CPU and per-task data and
 * counters: each event counted as the kernel's rules say it happens
 * (tests/test_policy.c compares them with the run's own metrics).
 */
#include "wakesim/policy.h"

struct task_seen {
	bool woken;
};

struct cpu_seen {
	uint64_t idle_entries;
};

static int c_wake_enqueues, c_sleep_dequeues, c_migrations, c_tasks_woken, c_idle_from_task,
	c_bad, c_idle_entries;

static int count_init(void)
{
	c_wake_enqueues = policy_counter("wake_enqueues");
	c_sleep_dequeues = policy_counter("sleep_dequeues");
	c_migrations = policy_counter("migrations");
	c_tasks_woken = policy_counter("tasks_woken");
	c_idle_from_task = policy_counter("idle_from_task");
	c_idle_entries = policy_counter("idle_entries");
	c_bad = policy_counter("bad");
	/* The same name, the same counter; a malformed one refused. */
	if (policy_counter("wake_enqueues") != c_wake_enqueues || policy_counter("no spaces") != -1)
		return -1;
	return 0;
}

static void count_enqueue(int cpu, struct task_struct *p, int flags)
{
	struct task_seen *t = task_data(p);

	if (task_cpu(p) != cpu)
		policy_counter_add(c_bad, 1);
	if (!(flags & ENQUEUE_WAKEUP))
		return;
	policy_counter_add(c_wake_enqueues, 1);
	if (!t->woken) {
		t->woken = true;
		policy_counter_add(c_tasks_woken, 1);
	}
}

static void count_dequeue(int cpu, struct task_struct *p, int flags)
{
	(void)cpu;
	(void)p;
	if (flags & DEQUEUE_SLEEP)
		policy_counter_add(c_sleep_dequeues, 1);
}

static void count_migrate(struct task_struct *p, int from_cpu, int to_cpu)
{
	policy_counter_add(from_cpu != to_cpu && task_cpu(p) == to_cpu ? c_migrations : c_bad, 1);
}

static void count_idle_enter(int cpu, struct task_struct *prev)
{
	struct cpu_seen *c = cpu_data(cpu);

	c->idle_entries++;
	policy_counter_add(c_idle_entries, 1);
	if (prev)
		policy_counter_add(c_idle_from_task, 1);
}

WAKESIM_POLICY(.name = "count-events", .init = count_init, .enqueue_task = count_enqueue,
	       .dequeue_task = count_dequeue, .migrate_task = count_migrate,
	       .idle_enter = count_idle_enter, .cpu_data_size = sizeof(struct cpu_seen),
	       .task_data_size = sizeof(struct task_seen));
