/*
 * sched.h - the kernel model's state: tasks, per-CPU runqueues, sched
 * domains, and the simulation that owns them.
 *
 * Field names follow the kernel (kernel/sched/sched.h, include/linux/sched.h,
 * include/linux/sched/topology.h) so a reader of fair.c finds their way.
 * Only the fair class exists; there are no cgroups, so task_h_load() is the
 * task's own load_avg and every cfs_rq is a root cfs_rq.
 */
#ifndef WS_KERN_SCHED_H
#define WS_KERN_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "../machine/coherence.h"
#include "../machine/machine.h"
#include "../sim/event.h"
#include "../sim/rng.h"
#include "features.h"
#include "placement.h"
#include "spinlock.h"

typedef int64_t s64;
typedef uint32_t u32;

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* include/linux/sched.h task states (the subset a workload can reach). */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_DEAD 0x0080
#define TASK_WAKING 0x0200
#define TASK_NEW 0x0800

#include "wakesim/sched_flags.h"

/* Flags meaningless with a single group (SDF_NEEDS_GROUPS): all but WAKE_AFFINE. */
#define SD_DEGENERATE_GROUPS_MASK (0x7fff & ~SD_WAKE_AFFINE)

struct sim;
struct task_struct;
struct wait_queue_head;

/* ---- PELT (kernel/sched/pelt.c) ---- */

struct sched_avg {
	u64 last_update_time;	/* ns of the PELT clock at the last update */
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib;	/* 1024-ns units into the current period */
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;	/* 0..1024 */
	unsigned int util_est;	/* v6.9+ single util_est value of a task */
};

/* ---- tasks ---- */

struct sched_entity {
	unsigned long weight;	/* scale_load_down()ed weight, 1024 for nice 0 */
	int on_rq;
	u64 exec_start;		/* ns when it last started (or was accounted) running */
	u64 sum_exec_runtime;	/* ns of CPU time */
	u64 prev_sum_exec_runtime;
	u64 vruntime;		/* virtual ns */
	u64 deadline;		/* virtual deadline (EEVDF) */
	u64 slice;		/* requested slice, ns */
	s64 vlag;		/* V - vruntime saved at dequeue; RUN_TO_PARITY mark while curr */
	u64 vprot;		/* vruntime until which curr is protected (RUN_TO_PARITY) */
	struct sched_avg avg;
	int rq_idx;		/* index in cfs_rq.queue, -1 if not queued there */
	u64 enqueue_seq;	/* orders equal deadlines like the rbtree does */
	bool rel_deadline;	/* deadline saved relative to vruntime (migration) */
	bool sched_delayed;	/* DELAY_DEQUEUE: asleep, still queued (v6.12) */
};

/* An hrtimer (kern/timer.h): a callback at an absolute time on a CPU. */
struct sim_timer;
typedef void (*sim_timer_fn)(struct sim *sim, struct sim_timer *t);

struct sim_timer {
	struct event ev;
	sim_timer_fn fn;
	void *data;
	int cpu;		/* CPU whose interrupt runs it; -1 for none */
	struct sim_timer *next;	/* the CPU's armed (or expired) timers, by expiry */
};

/* A workload's step: what the task does next (see kern/exec.c). */
enum step_kind {
	STEP_RUN,	/* consume work_ns of CPU time, then ask again */
	STEP_BLOCK,	/* sleep; the program queued itself on a wait queue */
	STEP_EXIT,	/* do_exit() */
};

struct step {
	enum step_kind kind;
	u64 work_ns;	/* nominal ns at full speed on a warm cache */
	bool kernel;	/* syscall work: not preemptible until it ends */
};

/*
 * A task's program: called when its previous step finished, or after a
 * wake-up from STEP_BLOCK. Side effects (writing a pipe, waking a reader)
 * happen at sim->now on sim->this_cpu; their kernel costs accumulate in
 * sim->kcost_ns and are charged to the task before its next step.
 */
typedef void (*task_step_fn)(struct sim *sim, struct task_struct *p, struct step *out);

/* A program's next step: ns of work, kernel (a syscall's body) or user. */
static inline void step_run(struct step *out, u64 ns, bool kernel)
{
	out->kind = STEP_RUN;
	out->work_ns = ns;
	out->kernel = kernel;
}

/* ns of kernel work: not preemptible until it ends. */
static inline void step_kernel(struct step *out, u64 ns)
{
	step_run(out, ns, true);
}

/* ns of user work: preemptible at once. */
static inline void step_user(struct step *out, u64 ns)
{
	step_run(out, ns, false);
}

/*
 * Lines a CPU touched and the bytes its core and LLC had been through
 * then (kern/linecache.h): a task's working set, a message.
 */
struct line_stamp {
	int cpu;		/* the CPU that touched them, -1: none (free of cost) */
	u64 core_at, llc_at;	/* bytes, sim->core_bytes_in / llc_bytes_in */
};

struct task_struct {
	int pid;
	char comm[16];
	unsigned int __state;	/* TASK_* */
	int on_cpu;		/* currently running on its CPU */
	int cpu;		/* task_cpu(): the CPU whose rq holds it / last held it */
	int wake_cpu;		/* prev_cpu for the next wake-up */
	int recent_used_cpu;
	/* Its working set where it last left a CPU (cpu -1: never ran). */
	struct line_stamp left;
	int nr_cpus_allowed;
	int mm_id;		/* address space: threads of one process share it */

	/* record_wakee()/wake_wide() */
	unsigned int wakee_flips;
	u64 wakee_flip_decay_ts;	/* ns */
	struct task_struct *last_wakee;

	/* SIS_SHORT (S4): average CPU time between two voluntary sleeps */
	u64 dur_avg;
	u64 prev_sleep_sum_runtime;
	/* Sleep lengths, update_avg() weight 1/8, for policies (ns) */
	u64 avg_sleep_ns;
	u64 sleep_start_ns;
	bool sleep_stamped;	/* sleep_start_ns is a sleep's start, not yet ended by a wake-up */
	void *policy_data;	/* the policy's task_data_size bytes, made at first use */

	struct sched_entity se;

	/* execution state of the simulated program */
	task_step_fn step_fn;
	void *prog;		/* the workload's per-task state */
	u64 kwork_left;		/* non-preemptible kernel work still to do, ns */
	u64 work_left;		/* work of the current step still to do, ns */
	bool step_kernel;	/* current step is syscall work */
	/* The last step's work as asked and as drawn with the jitter, ns. */
	u64 step_nominal_ns, step_drawn_ns;
	bool blocking;		/* STEP_BLOCK issued while kernel work remained */
	u64 cold_ns;		/* cache refill still owed, ns */
	unsigned int wss_bytes;	/* bytes it touches in a run: refilled as evicted */

	/* wait queues */
	struct wait_queue_head *wq_head;
	struct task_struct *wq_next, *wq_prev;
	bool wq_exclusive;

	/* a wake-up in flight: selected, not yet enqueued (kern/core.c) */
	struct task_struct *wake_entry;	/* next on the target's wake list */
	bool wake_via_list;		/* TTWU_QUEUE path, else direct enqueue */
	u64 wake_ipi_lag;		/* ns from its claim to the waker's IPI send: the llist add and the send */
	int wake_flags;
	int wake_from_cpu;
	int wake_rechecks;		/* re-reads that found its CPU taken (wake_needs_check()) */
	struct placement wake_plc;	/* its placement while ev_wake is that re-read */
	bool wake_checking;		/* ev_wake is the re-read of wake_plc.dest, not the enqueue */
	bool attach_pending;		/* PELT joins the cfs_rq at the next enqueue */
	struct event ev_wake;
	/* the wait queue's lock its waker holds until ev_wake's path ends (ipc/wait.c) */
	struct lock_section *wake_lock;

	struct sim_timer sleep_timer;	/* nanosleep()'s hrtimer */
	bool killed;			/* SIGKILL pending: exit at the next step */
	bool migrate_pending;		/* blocked only to leave a CPU it may not use */

	/* accounting */
	u64 runnable_since;	/* ns it became runnable, for run delay */
	u64 nr_switches;
	/* sched_info as /proc/PID/schedstat shows it: time waiting on a rq
	 * (ns) and times it was switched in */
	u64 run_delay;
	u64 pcount;
	u64 last_switch_in;	/* ns it was last switched in */
	struct task_struct *parent;

	/*
	 * Its allowed CPUs: a mask the simulation keeps once for every task
	 * with the same (sim_cpumask()), since a mask of 8192 CPUs is 1 KiB
	 * and most tasks share one. The kernel's cpus_ptr, read-only.
	 */
	const struct cpumask *cpus_ptr;
	/* Last: the line of wakee_flips, read by wake_wide(). */
	struct cacheline flips_line;
};

static inline int task_cpu(const struct task_struct *p)
{
	return p->cpu;
}

/* ---- runqueues ---- */

/* rq->speed of a speed-1024 CPU running alone on its core. */
#define FULL_SPEED (1024u * 100u)

/*
 * ns of nominal work (a CPU of speed 1024 with its sibling idle) as the
 * time it takes at speed (FULL_SPEED = 100% of 1024), rounded up: what
 * sched_clock() would measure of it.
 */
static inline u64 cpu_wall_ns(u64 nominal, unsigned int speed)
{
	return (nominal * FULL_SPEED + speed - 1) / speed;
}

struct cfs_rq {
	unsigned int nr_queued;	/* entities on this cfs_rq, curr included */
	unsigned long load;	/* sum of their weights */
	u64 zero_vruntime;	/* reference point of avg_vruntime, moved to V */
	__int128 sum_wv;	/* sum over the queue (not curr) of w * (v - zero_vruntime) */
	long long sum_w;	/* sum over the queue of w */
	struct sched_entity *curr;
	/* Queued entities other than curr. Small per-CPU arrays: at the
	 * simulated loads a linear EEVDF pick beats a tree. */
	struct sched_entity **queue;
	int nr_queue, cap_queue;
	struct sched_avg avg;	/* PELT of the root cfs_rq */
	unsigned int util_est;	/* sum of enqueued tasks' util_est */
	/* --cgroup (kern/tg.c): what this CPU last added to tg->load_avg, when (ns),
	 * and load removed by a wake-up migration away, not yet accounted. */
	unsigned long tg_load_avg_contrib;
	u64 last_update_tg_load_avg;
	bool tg_removed;
	/* Wake-up migrations away whose load waits in removed (kern/migrate.c). */
	int removed_nr;
	/* CFS profiles (kern/cfs.c): */
	u64 min_vruntime;	/* monotonic floor of the queue's vruntimes, virtual ns */
	struct sched_entity *next, *last;	/* buddies: the wakee that preempted, and its victim */
};

/* The menu cpuidle governor's state of one CPU (kern/menu.c). */
#define MENU_INTERVALS 8
#define MENU_BUCKETS 6
struct menu_device {
	unsigned int intervals[MENU_INTERVALS];	/* last idle periods measured, us */
	int interval_ptr;
	unsigned int correction_factor[MENU_BUCKETS];	/* measured / timer, x 1024 x 8 */
	int bucket;			/* of the last selection */
	u64 next_timer_ns;		/* to the next timer, at the last selection */
};

/* Domain levels whose end a new-idle balance records (deeper ones: not). */
#define NEWIDLE_MAX_LEVELS 16

enum cpu_mode {
	CPU_MODE_IDLE,	/* in idle state rq->idle_state */
	CPU_MODE_EXITING,	/* leaving an idle state; runs schedule() at ev_run */
	CPU_MODE_RUNNING,	/* running rq->curr */
	/*
	 * In __schedule() on the way to idle, doing the new-idle balance
	 * (and the rest of the kernel work charged there) that found nothing:
	 * busy, and not idle to idle_cpu(), whose rq->curr is still the task
	 * that blocked; the idle task runs at ev_run.
	 */
	CPU_MODE_NEWIDLE,
};

struct rq {
	int cpu;
	unsigned int nr_running;	/* fair tasks here, curr included */
	struct cfs_rq cfs;
	struct task_struct *curr;	/* NULL while the idle task runs */
	struct task_struct *newidle_prev; /* CPU_MODE_NEWIDLE: the task that blocked */
	/*
	 * When each domain level of the last new-idle balance ended: the
	 * kernel work charged by then (newidle_balance()) as time at the
	 * CPU's speed, made absolute (ns) once the CPU enters CPU_MODE_NEWIDLE.
	 */
	u64 newidle_level_end[NEWIDLE_MAX_LEVELS];
	int newidle_levels;
	struct task_struct *idle;	/* the idle task: current while curr is NULL */
	bool need_resched;
	int ttwu_pending;		/* wakes queued on the wake list, not yet enqueued */
	/*
	 * The CPU whose wake-up chose this one and has yet to claim it (its
	 * wake-list entry or locked enqueue lands at the end of its path), -1
	 * none: that CPU's own later reads see this one taken (kern/idle.c).
	 */
	int claim_from;
	/*
	 * A remote waker's locked enqueue onto this idle CPU (ttwu_queue()
	 * without the wake list): other CPUs read nr_running's increment
	 * only at enq_visible_at (ns), the end of enqueue_task()'s work under
	 * the lock; enq_by is that waker's CPU, -1 none (kern/idle.c).
	 */
	u64 enq_visible_at;
	int enq_by;
	struct task_struct *wake_list;	/* queued wakes, delivered by IPI */
	bool ipi_pending;
	u64 clock;			/* last update_rq_clock(), ns (kern/irqtime.c) */
	/* CONFIG_IRQ_TIME_ACCOUNTING (kern/irqtime.c), ns: */
	u64 clock_task;			/* rq->clock less the irq time taken out of it */
	u64 irq_time;			/* softirq time accounted here (irqtime->total) */
	u64 prev_irq_time;		/* the part of it taken out of clock_task so far */

	enum cpu_mode mode;
	int idle_state;			/* index into machine.idle while idle */
	u64 idle_enter_ns;		/* when the CPU entered idle */
	u64 halt_poll_ns;		/* a vCPU's adaptive halt-poll window (idle_state.halt_poll_max_ns) */
	u64 idle_stamp;			/* set on new-idle balance, kernel name */
	u64 avg_idle;			/* ns, update_avg() of idle durations */
	u64 max_idle_balance_cost;	/* ns */
	u64 wake_stamp;			/* SIS_PROP of v5.13+: jiffy of the last wake from idle */
	u64 wake_avg_idle;		/* ns of idle it still expects, halved per jiffy since */
	bool nohz_idle;			/* in nohz.idle_cpus_mask, out of nr_busy_cpus */
	bool tick_stopped;		/* tick_nohz_tick_stopped(): no tick while idle */
	bool idle_reflected;		/* this idle period's end already told the governor */
	struct menu_device menu;

	/* execution of curr */
	u64 seg_start;			/* ns the current run segment started */
	u64 piece_end;			/* ns the armed piece completes */
	unsigned int speed;		/* work done per ns, in FULL_SPEED units: the core's
					 * speed (/1024) x percent while its SMT sibling runs */
	int last_mm_id;			/* address space loaded on this CPU */

	unsigned long cpu_capacity;	/* 0..1024 */
	u64 next_balance;		/* ns */
	unsigned long nr_switches;
	/* schedstats: __schedule() calls, of which picked idle; wake-ups done
	 * from this CPU, of which onto it; tasks' waits here (ns). pcount is
	 * nr_switches. */
	unsigned int sched_count, sched_goidle, ttwu_count, ttwu_local;
	u64 rq_run_delay;
	/*
	 * select_idle_sibling() run on this CPU: calls, LLC scans, CPUs they
	 * examined, scans that found none idle (Mel Gorman's SIS schedstats).
	 */
	unsigned int sis_search, sis_domain_search, sis_scanned, sis_failed;

	struct lock_section lock;	/* rq->__lock (kern/rqlock.c) */

	struct sim_timer *timers;	/* armed hrtimers of this CPU, by expiry */
	struct sim_timer *expired;	/* fired while idle, run after the exit */

	struct event ev_run;		/* run segment end, or idle exit done */
	struct event ev_tick;
	struct event ev_ipi;
	struct event ev_irq;		/* the next interruption, armed while running */

	/* per-CPU accounting */
	u64 busy_ns;

	/*
	 * struct rq's lines that idle checks and a wake-up's migration read
	 * (kernel/sched/sched.h, v6.12 layout): line holds __lock and
	 * nr_running; pend_line the next one, ttwu_pending beside
	 * nr_switches and nohz_csd; curr_line
	 * curr and idle (rq->clock, a few fields on, may share their line:
	 * it is priced as clock_line, a line of its own); cfs_line the
	 * cfs_rq's counts
	 * (nr_running, h_nr_running, idle_h_nr_running, and on CFS
	 * min_vruntime); avg_line the tasks' cfs_rq's struct sched_avg
	 * (____cacheline_aligned: last_update_time and the averages) and
	 * removed_line its removed load (its lock ____cacheline_aligned):
	 * kern/migrate.c. clock_line holds rq->clock (with
	 * clock_update_flags) and clock_task_line the ____cacheline_aligned
	 * clock_task and clock_pelt, both written by the update_rq_clock()
	 * that follows each rq_lock() of the model's paths (kern/rqlock.c);
	 * tasks_line the cfs_tasks list head, written by each enqueue and
	 * dequeue (account_entity_enqueue()'s list_add(), _dequeue()'s
	 * list_del_init()) and each pick (pick_next_task_fair()'s list_move()
	 * to its front). Last in wakesim's struct: each holds a mask of up
	 * to 8192 CPUs.
	 */
	struct cacheline line;
	struct cacheline pend_line;
	struct cacheline curr_line;
	struct cacheline cfs_line;
	struct cacheline avg_line;
	struct cacheline removed_line;
	struct cacheline clock_line;
	struct cacheline clock_task_line;
	struct cacheline tasks_line;
};

/* ---- sched domains (kern/topology.c) ---- */

/* The most a policy may ask for per CPU and per task (cpu_data_size, task_data_size). */
#define POLICY_DATA_MAX 4096

struct sched_group {
	struct sched_group *next;	/* circular list, starting at the local group */
	int weight;
	int nr_cores;			/* cores it spans (sibling_imbalance()) */
	unsigned long capacity;		/* sum of CPU capacities */
	unsigned int flags;		/* the child domain's flags (SD_CLUSTER, ...) */
	struct sched_group *pool_next;	/* allocation list, for freeing */
	/*
	 * The span's CPUs, ascending [weight]: a group of SMT siblings or of
	 * an LLC's two thread halves is a sparse mask, and walking it word by
	 * word costs more than the balancing it serves on big machines.
	 */
	int *cpus;
	struct cpumask span;		/* last: up to 1 KiB */
};

/* for_each_cpu(i, &sg->span), in the same order; k is the index. */
#define for_each_group_cpu(i, k, sg) \
	for ((k) = 0; (k) < (sg)->weight && ((i) = (sg)->cpus[k], 1); (k)++)

struct sched_domain_shared {
	int nr_busy_cpus;
	int has_idle_cores;
	int nr_idle_scan;
	u64 next_scan_update;		/* ns; when SIS_UTIL stats are next refreshed */
	u64 scan_budget_since;		/* ns; nr_idle_scan's last write (sis_budget_set()) */
	u64 scan_budget_area;		/* CPUs x ns of nr_idle_scan until then */
	int llc_id;
	struct cacheline line;		/* all three fields share one line (S1) */
};

struct sched_domain {
	struct sched_domain *parent, *child;
	struct sched_group *groups;	/* local group first */
	char name[8];			/* SMT, CLS, MC, PKG, NODE, NUMA */
	int level;
	unsigned int flags;
	int span_weight;
	unsigned int imbalance_pct;
	unsigned int cache_nice_tries;
	unsigned int busy_factor;
	unsigned long min_interval, max_interval, balance_interval; /* ms */
	u64 last_balance;		/* ns */
	u64 max_newidle_lb_cost;	/* ns */
	u64 avg_scan_cost;		/* SIS_PROP: ns an LLC scan took, update_avg()ed */
	u64 last_decay_max_lb_cost;	/* ns */
	unsigned int nr_balance_failed;
	/* schedstats (show_schedstat(), kernel/sched/stats.c), by cpu_idle_type */
	unsigned int lb_count[3], lb_balanced[3], lb_failed[3], lb_gained[3], lb_hot_gained[3];
	unsigned int lb_nobusyq[3], lb_nobusyg[3];
	unsigned long lb_imbalance[3];
	unsigned int ttwu_wake_remote, ttwu_move_affine;
	struct sched_domain_shared *shared;
	int numa_distance;		/* distance of a NUMA level, 0 otherwise */
	int imb_numa_nr;		/* tolerated NUMA imbalance, in tasks */
	struct cpumask span;		/* last: up to 1 KiB */
};

/* Per-CPU shortcuts, update_top_cache_domain() (kernel/sched/topology.c). */
struct cpu_domains {
	struct sched_domain *sd;		/* lowest domain */
	struct sched_domain *sd_llc;
	int sd_llc_size;
	int sd_llc_id;
	int sd_share_id;
	/* The L2 a CPU shares (the RFC behind TTWU_QUEUE_L2C): the first
	 * CPU of topology_cluster_cpumask(). */
	int sd_l2c_id;
	struct sched_domain_shared *sd_llc_shared;
	struct sched_domain *sd_numa;
	struct sched_domain *sd_asym_cpucapacity;
};

/*
 * The root domain's two flags that fair.c keeps (struct root_domain,
 * kernel/sched/sched.h): adjacent ints of one cache line that every CPU
 * reads and that root-level balancing rewrites.
 */
struct root_domain {
	/* rd->overload (rd->overloaded from v6.10): set when a runqueue reaches
	 * 2 tasks, recomputed only by balancing at the top level: it stays set
	 * after the queues drain, and new-idle balancing runs while it is. */
	bool overloaded;
	/* rd->overutilized: a CPU's utilisation past 80% of its capacity. */
	bool overutilized;
	struct cacheline line;
};

struct sched_domains {
	int nr_cpus;
	struct root_domain rd;		/* one: no cpusets or isolated CPUs */
	struct cpu_domains *cpu;	/* [nr_cpus] */
	struct sched_domain *all;	/* [nr_cpus * nr_levels]: the full table */
	int nr_levels;
	struct sched_group *group_pool;	/* every group, for freeing */
	int nr_groups;
	struct sched_domain_shared *shared; /* one per LLC instance */
	int nr_shared;
	bool smt_present;		/* sched_smt_present static key */
	bool cluster_active;		/* sched_cluster_active */
	bool asym_cpucap_active;	/* sched_asym_cpucapacity: CPUs of unequal capacity */
	int node_reclaim_distance;	/* the NUMA distance past which sd_init() drops
					 * wake-affine and fork/exec balancing */
};

#define for_each_domain(__sim, __cpu, __sd)                                    \
	for (__sd = (__sim)->doms.cpu[__cpu].sd; __sd; __sd = __sd->parent)

/* ---- tunables (sysctl / debugfs), kern/sysctl.c ---- */

/* No PM QoS limit: PM_QOS_CPU_LATENCY_DEFAULT_VALUE, 2000 s (include/linux/pm_qos.h). */
#define CPU_LATENCY_QOS_NONE_NS (2000ULL * NSEC_PER_SEC)

/* The deepest --cgroup path: task groups below the root (kern/tg.c). */
#define TG_MAX_DEPTH 8

struct sched_tunables {
	u64 base_slice_ns;		/* sysctl_sched_base_slice */
	u64 migration_cost_ns;		/* sysctl_sched_migration_cost */
	u64 idle_delay_ns;		/* S2: IDLE_CPU_DELAY_NS */
	u64 sis_short_ns;		/* S4: short-task threshold, base_slice/8 */
	bool sis_short_set;		/* given by --sysctl: no longer follows the slice */
	u64 timer_slack_ns;		/* hrtimer slack of SCHED_OTHER sleeps */
	u64 wc_threshold_ns;		/* work-conservation checker (wakesim, not the kernel) */
	u64 cgroup_depth;		/* task groups from the root to the workload's (--cgroup) */
	u64 cpu_latency_qos_ns;		/* PM QoS CPU latency limit (/dev/cpu_dma_latency) */
	u64 irq_time_accounting;	/* CONFIG_IRQ_TIME_ACCOUNTING: 1 = y (kern/irqtime.c) */
	/* CFS (v5.12, v6.4 profiles), each 1 + ilog2(min(CPUs, 8)) times: */
	u64 sched_latency_ns;		/* sysctl_sched_latency, 6 ms */
	u64 min_granularity_ns;		/* sysctl_sched_min_granularity, 0.75 ms */
	u64 wakeup_granularity_ns;	/* sysctl_sched_wakeup_granularity, 1 ms */
	int kver;			/* enum kernel_version: the profile simulated */
	unsigned int hz;		/* CONFIG_HZ */
	u64 tick_ns;			/* TICK_NSEC */
};

#endif
