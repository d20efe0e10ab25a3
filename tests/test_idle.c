/*
 * test_idle.c - the idle side, derived by hand from the kernel's rules:
 * - the menu governor (drivers/cpuidle/governors/menu.c, v6.12 and v6.4):
 *   state choice from the typical interval and the next timer, when the
 *   tick may stop, what an idle period teaches it;
 * - the tick in idle (kernel/sched/idle.c, kernel/time/tick-sched.c): a
 *   CPU whose governor keeps the tick stays out of the nohz mask and in
 *   nr_busy_cpus, wakes every tick and balances itself at the idle
 *   interval (sched_tick() -> sched_balance_trigger(), fair.c v6.12);
 * - current in an interrupt: the idle task when nothing runs;
 * - the new-idle balance's window: busy, wake-ups and timers held.
 *
 * probe-2s's states: POLL 0/0 (polls), C1 2/4, C1E 10/20, C6 100/400 us
 * (exit latency / target residency). two-llc has costs/default.json's:
 * POLL, C1 1/1, C1E 4/4, C6 170/600 us. HZ 250: a tick is 4 ms.
 */
#include "testutil.h"
#include "kern/lb.h"
#include "kern/timer.h"

#define NOW (100 * NSEC_PER_MSEC) /* on the tick grid: 25 ticks */

static void set_intervals(struct rq *rq, unsigned int us)
{
	for (int i = 0; i < MENU_INTERVALS; i++)
		rq->menu.intervals[i] = us;
}

/* cpu idles in idle state `state`, entered at since_ns, its idle task current. */
static void idle_in(struct sim *sim, int cpu, int state, u64 since_ns)
{
	struct rq *rq = &sim->rq[cpu];

	rq->mode = CPU_MODE_IDLE;
	rq->curr = NULL;
	rq->idle_state = state;
	rq->idle_enter_ns = since_ns;
}

static int select_on(struct sim *sim, int cpu, bool *stop)
{
	sim->this_cpu = cpu;
	return menu_select(sim, &sim->rq[cpu], stop);
}

/*
 * A CPU idle a while (8 periods of 45 ms) predicts 45 ms: the deepest
 * state, C6, and the tick stops. Periods of 50 us: C1E (C6's 400 us do
 * not fit), the tick kept (50 us < 4 ms). Periods of 10 us: C1, the only
 * state whose exit (2 us) fits 10 us besides POLL, tick kept. With the
 * tick already stopped, a short prediction gives way to the time to the
 * next timer (none): C6. One long outlier among seven 50-us periods is
 * dropped: C1E again.
 */
static void test_menu_choice(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct rq *rq = &sim->rq[0];
	bool stop;

	sim->now = NOW;
	rq->tick_stopped = false;
	assert_int_equal(select_on(sim, 0, &stop), 3);
	assert_true(stop);
	set_intervals(rq, 50);
	assert_int_equal(select_on(sim, 0, &stop), 2);
	assert_false(stop);
	set_intervals(rq, 10);
	assert_int_equal(select_on(sim, 0, &stop), 1);
	assert_false(stop);
	set_intervals(rq, 50);
	rq->tick_stopped = true;
	assert_int_equal(select_on(sim, 0, &stop), 3);
	assert_true(stop);
	rq->tick_stopped = false;
	rq->menu.intervals[3] = 45000;
	assert_int_equal(select_on(sim, 0, &stop), 2);
	assert_false(stop);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * A PM QoS limit (/dev/cpu_dma_latency; cpuidle_governor_latency_req())
 * on probe-2s, a CPU idle a while (the 45 ms of test_menu_choice, C6
 * with no limit): 10 us admits C1E's exit (10 us) and not C6's (100 us):
 * C1E, the tick stopped (45 ms is over a tick). 2 us admits C1's 2 us
 * exactly: C1. 1 us is under C1's exit: state 0 at once, and as POLL
 * polls the tick stays (menu_select()'s first test). A machine booted
 * under 10 us starts in C1E, not C6, tick stopped; under 1 us in POLL
 * with its tick running, out of nohz and counted in nr_busy_cpus.
 */
static void test_menu_latency_qos(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	const u64 limit[3] = { 10000, 2000, 1000 };
	const int want[3] = { 2, 1, 0 };
	const bool want_stop[3] = { true, true, false };

	for (int k = 0; k < 3; k++) {
		struct sim *sim = calloc(1, sizeof(*sim));
		struct sim_config cfg = { .seed = 1 };
		char err[512], set[64];
		bool stop;

		assert_non_null(sim);
		sched_features_default_for(&cfg.features, KV_MAINLINE);
		sched_tunables_default(&cfg.tunables, m->topo.nr_cpus);
		snprintf(set, sizeof(set), "cpu_latency_qos_ns=%llu", (unsigned long long)limit[k]);
		assert_int_equal(sched_tunables_set(&cfg.tunables, KV_MAINLINE, set, err, sizeof(err)), 0);
		cpumask_setall(&cfg.allowed);
		assert_int_equal(sim_init(sim, m, &cfg, err, sizeof(err)), 0);
		assert_int_equal(sim->rq[0].idle_state, want[k]);
		/* Booted in POLL, a CPU keeps its tick and counts as busy. */
		bool polls = want[k] == 0;

		assert_int_equal(sim->rq[0].tick_stopped, !polls);
		assert_int_equal(sim->rq[0].nohz_idle, !polls);
		assert_int_equal(event_queued(&sim->rq[0].ev_tick), polls);
		assert_int_equal(sim->doms.cpu[0].sd_llc_shared->nr_busy_cpus,
				 polls ? sim->doms.cpu[0].sd_llc_size : 0);
		sim->now = NOW;
		sim->rq[0].tick_stopped = false;
		assert_int_equal(select_on(sim, 0, &stop), want[k]);
		assert_int_equal(stop, want_stop[k]);
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * The 15-us threshold of v6.12: with 10-us periods and a timer 3 us away,
 * mainline does not look at the timer (C1, as above); v6.4 does, and a
 * timer before C1's 4-us residency leaves only state 0, POLL, which keeps
 * the tick.
 */
static void test_menu_timer_query_by_version(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	const int kv[2] = { KV_MAINLINE, KV_6_4 }, want[2] = { 1, 0 };

	for (int k = 0; k < 2; k++) {
		struct sim *sim = tu_sim_kernel(m, "default", kv[k]);
		struct sim_timer t;
		bool stop;

		sim->now = NOW;
		sim->rq[0].tick_stopped = false;
		set_intervals(&sim->rq[0], 10);
		timer_init(&t, NULL, NULL);
		timer_arm(sim, &t, 0, NOW + 3000);
		assert_int_equal(select_on(sim, 0, &stop), want[k]);
		assert_false(stop);
		timer_cancel(sim, &t);
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * What an idle period teaches (menu_update()): 100 us in C1E (exit 10 us)
 * counts 90 us; 15 us, under twice the exit, counts half: 7 us; a tick
 * wake-up while no timer was due within the tick counts 45 ms. With no
 * hrtimer the next timer is taken 50 ms away: 90 us of it moves the
 * bucket's correction factor 1/8 of the way to 90/50000 of unity:
 * 8192 - 1024 + floor(1024 x 90 / 50000) = 7169.
 */
static void test_menu_update(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct rq *rq = &sim->rq[0];
	bool stop;

	sim->now = NOW;
	rq->tick_stopped = false;
	set_intervals(rq, 50);
	rq->idle_state = select_on(sim, 0, &stop);
	assert_int_equal(rq->idle_state, 2);
	int b = rq->menu.bucket, p = rq->menu.interval_ptr;

	menu_reflect(sim, rq, 100000, false);
	assert_int_equal(rq->menu.intervals[p], 90);
	assert_int_equal(rq->menu.correction_factor[b], 7169);
	menu_reflect(sim, rq, 15000, false);
	assert_int_equal(rq->menu.intervals[(p + 1) % MENU_INTERVALS], 7);
	menu_reflect(sim, rq, 4000000, true);
	assert_int_equal(rq->menu.intervals[(p + 2) % MENU_INTERVALS], 45000);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * idle_enter() on two-llc: short periods keep the tick (armed for the
 * next jiffy, 104 ms) and leave the CPU out of nohz and in its LLC's
 * nr_busy_cpus; long ones stop it: no tick, nohz, nr_busy_cpus - 1.
 */
static void test_tick_kept_or_stopped(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct sched_domain_shared *sds = sim->doms.cpu[1].sd_llc_shared;

	sim->now = NOW;
	for (int c = 0; c < 2; c++) {
		struct rq *rq = &sim->rq[c];

		/* Both running: in nr_busy_cpus, the tick on. */
		rq->mode = CPU_MODE_RUNNING;
		rq->nohz_idle = rq->tick_stopped = false;
	}
	sds->nr_busy_cpus = 2;
	set_intervals(&sim->rq[1], 50);
	sim->this_cpu = 1;
	idle_enter(sim, &sim->rq[1], NULL);
	assert_int_equal(sim->rq[1].idle_state, 2);
	assert_true(event_queued(&sim->rq[1].ev_tick));
	assert_int_equal(sim->rq[1].ev_tick.time, NOW + 4 * NSEC_PER_MSEC);
	assert_false(sim->rq[1].nohz_idle);
	assert_int_equal(sds->nr_busy_cpus, 2);
	set_intervals(&sim->rq[0], 45000);
	sim->this_cpu = 0;
	idle_enter(sim, &sim->rq[0], NULL);
	assert_int_equal(sim->rq[0].idle_state, 3);
	assert_false(event_queued(&sim->rq[0].ev_tick));
	assert_true(sim->rq[0].tick_stopped);
	assert_true(sim->rq[0].nohz_idle);
	assert_int_equal(sds->nr_busy_cpus, 1);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The tick on idle CPU 1 of two-llc while CPU 0 runs a and has b queued
 * (b last ran 10 ms ago: cold), both CPUs' signals at their steady state:
 * the tick wakes CPU 1 (an exit from C1E, one idle tick), its periodic
 * balance as CPU_IDLE pulls b, and the CPU leaves idle once out of C1E
 * (4 us). With nothing to pull the CPU stays idle, chooses again (the
 * tick taught menu a 45-ms period, an outlier: C1E) and keeps its tick.
 */
static void test_idle_tick_balances(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/two-llc.json");

	for (int pull = 1; pull >= 0; pull--) {
		struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
		struct rq *rq1 = &sim->rq[1];
		struct task_struct *b = NULL;

		tu_busy(sim, 0);

		sim->now = NOW;
		if (pull) {
			b = tu_task(sim, 0);
			b->__state = TASK_RUNNING;
			sim->this_cpu = 0;
			activate_task(sim, &sim->rq[0], b, ENQUEUE_WAKEUP);
			b->se.exec_start = NOW - 10 * NSEC_PER_MSEC;
		}
		sim->rq[0].cfs.avg = (struct sched_avg){ .util_avg = 1024,
							 .runnable_avg = 1024 * sim->rq[0].nr_running,
							 .load_avg = 1024 * sim->rq[0].nr_running };
		rq1->mode = CPU_MODE_RUNNING;
		rq1->nohz_idle = rq1->tick_stopped = false;
		rq1->next_balance = 0;
		set_intervals(rq1, 50);
		sim->this_cpu = 1;
		idle_enter(sim, rq1, NULL);
		assert_int_equal(rq1->idle_state, 2);
		exec_handle_tick(sim, 1);
		assert_int_equal(sim->met.idle_ticks, 1);
		assert_int_equal(sim->met.idle_exits[2], 1);
		if (pull) {
			assert_int_equal(task_cpu(b), 1);
			assert_int_equal(rq1->nr_running, 1);
			assert_int_equal(rq1->mode, CPU_MODE_EXITING);
			assert_true(event_queued(&rq1->ev_run));
			assert_int_equal(rq1->ev_run.time, NOW + 4000);
		} else {
			assert_int_equal(rq1->mode, CPU_MODE_IDLE);
			assert_int_equal(rq1->idle_state, 2);
			assert_int_equal(rq1->ev_tick.time, NOW + 4 * NSEC_PER_MSEC);
			/*
			 * The idle interval of MC (2 CPUs: 2 ms, one jiffy as
			 * msecs_to_jiffies() rounds it: 4 ms), not x16.
			 */
			assert_int_equal(rq1->next_balance, NOW + 4 * NSEC_PER_MSEC);
		}
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * A CPU that goes idle after running balances at the idle pace:
 * sched_balance_newidle() (fair.c, v6.12) moves rq->next_balance forward
 * to the lowest domain's last balance plus its idle interval, even when
 * the root domain is not overloaded and nothing is tried. On two-llc,
 * CPU 1's MC (2 CPUs: 2 ms, one 4-ms jiffy) last balanced 1 ms ago while
 * the busy pace had set next_balance 60 ms ahead: NOW + 3 ms. A sooner
 * next_balance (NOW + 1 ms) is kept.
 */
static void test_newidle_moves_next_balance(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct rq *rq1 = &sim->rq[1];
	struct sched_domain *mc = sim->doms.cpu[1].sd;

	sim->now = NOW;
	sim->this_cpu = 1;
	assert_int_equal(mc->span_weight, 2);
	mc->last_balance = NOW - NSEC_PER_MSEC;
	rq1->next_balance = NOW + 60 * NSEC_PER_MSEC;
	assert_int_equal(newidle_balance(sim, rq1), 0);
	assert_int_equal(rq1->next_balance, NOW + 3 * NSEC_PER_MSEC);
	rq1->next_balance = NOW + NSEC_PER_MSEC;
	assert_int_equal(newidle_balance(sim, rq1), 0);
	assert_int_equal(rq1->next_balance, NOW + NSEC_PER_MSEC);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * current while a CPU runs nothing is its idle task: a wake-up done from
 * an idle CPU (a timer's callback) charges record_wakee() to swapper/N.
 */
static void test_idle_task_is_current(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/two-llc.json");
	struct sim *sim = tu_sim_kernel(m, "default", KV_MAINLINE);
	struct task_struct *p = tu_task(sim, 2);

	sim->this_cpu = 2;
	assert_ptr_equal(current_task(sim), sim->rq[2].idle);
	assert_string_equal(sim->rq[2].idle->comm, "swapper/2");
	sim->plc = (struct placement){ .prev = 2, .target = 2, .dest = -1 };
	select_task_rq_fair(sim, p, 2, WF_TTWU);
	assert_ptr_equal(sim->rq[2].idle->last_wakee, p);
	assert_int_equal(sim->rq[2].idle->wakee_flips, 1);
	assert_int_equal(sim->plc.affine, PA_WAKER_IS_PREV);
	sim->this_cpu = -1;
	assert_null(current_task(sim));
	tu_sim_free(sim);
	tu_machine_free(m);
}

/* p may run on CPU 0 only. */
static void bind_to_cpu0(struct sim *sim, struct task_struct *p)
{
	struct cpumask only0;

	cpumask_clear(&only0);
	cpumask_set_cpu(0, &only0);
	p->cpus_ptr = sim_cpumask(sim, &only0);
	p->nr_cpus_allowed = 1;
}

/* CPU 0's task a blocks at 1 ms with work_ns of kernel work already charged. */
static void block_at_1ms(struct sim *sim, struct task_struct *a, u64 work_ns)
{
	struct rq *rq = cpu_rq(sim, 0);

	sim->now = NSEC_PER_MSEC;
	rq->seg_start = sim->now;
	sim->this_cpu = 0;
	a->__state = TASK_INTERRUPTIBLE;
	deactivate_task(sim, rq, a, DEQUEUE_SLEEP);
	sim->kcost_ns = work_ns;
	schedule(sim, rq);
}

/*
 * CPU 0's only task a blocks at 1 ms with 5 us of kernel work charged on
 * the way to idle: CPU 0 enters the new-idle window.
 */
static void block_with_work(struct sim *sim, struct task_struct *a)
{
	block_at_1ms(sim, a, 5000);
	assert_int_equal(cpu_rq(sim, 0)->mode, CPU_MODE_NEWIDLE);
}

/*
 * The kernel work of __schedule() on the way to idle takes its time
 * before the idle task runs (pick_next_task_fair() -> the new-idle
 * balance, with rq->curr still the task that blocked and interrupts
 * off). On ideal-2cpu, where no transfer or balance step costs, CPU 0's
 * only task blocks at 1 ms with 5 us of such work charged. Until 1.005 ms
 * CPU 0 is busy and idle_cpu() says no; a wake-up queued on it at 1.002
 * ms waits in the wake list (its IPI is held) and runs at 1.005 ms,
 * having left no idle state; the 5 us count as busy time. Without a
 * wake-up the idle task runs at 1.005 ms. A balance whose levels end at
 * 1.0015, 1.003 and 1.005 ms stops at 1.003 ms, the end of the level in
 * progress when the wake-up came (newidle_balance() checks after each
 * level), and the wakee runs then, 3 us of busy time in all.
 */
static void test_newidle_window(void **state)
{
	(void)state;
	/* wake 2: the balance was three levels, ending at 1.0015, 1.003 and
	 * 1.005 ms; the wake-up at 1.002 ms stops it at the level's end. */
	for (int wake = 0; wake <= 2; wake++) {
		struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *a = tu_busy(sim, 0), *b = tu_task(sim, 0);
		bind_to_cpu0(sim, b);
		u64 busy0 = rq->busy_ns;

		block_with_work(sim, a);
		assert_false(idle_cpu(sim, 0));
		assert_true(event_queued(&rq->ev_run));
		assert_int_equal(rq->ev_run.time, NSEC_PER_MSEC + 5000);
		u64 end = NSEC_PER_MSEC + 5000;

		if (wake == 2) {
			rq->newidle_level_end[0] = NSEC_PER_MSEC + 1500;
			rq->newidle_level_end[1] = NSEC_PER_MSEC + 3000;
			rq->newidle_level_end[2] = NSEC_PER_MSEC + 5000;
			rq->newidle_levels = 3;
			end = NSEC_PER_MSEC + 3000;
		}
		if (wake) {
			sim->now = NSEC_PER_MSEC + 2000;
			sim->this_cpu = 1;
			assert_int_equal(try_to_wake_up(sim, b, 0), 1);
			ttwu_queue_event(sim, b); /* the waker's enqueue step */
			assert_ptr_equal(rq->wake_list, b);
			assert_true(event_queued(&rq->ev_ipi));
			evq_cancel(&sim->eng.evq, &rq->ev_ipi);
			exec_handle_ipi(sim, 0);
			assert_int_equal(rq->nr_running, 0); /* held until the balance returns */
			assert_int_equal(rq->mode, CPU_MODE_NEWIDLE);
			assert_int_equal(rq->ev_run.time, end);
		}
		sim->now = end;
		evq_cancel(&sim->eng.evq, &rq->ev_run);
		exec_handle_run(sim, 0);
		assert_int_equal(rq->busy_ns - busy0, end - NSEC_PER_MSEC);
		if (wake) {
			assert_ptr_equal(rq->curr, b);
			assert_int_equal(rq->mode, CPU_MODE_RUNNING);
			for (int st = 0; st < m->nr_idle_states; st++)
				assert_int_equal(sim->met.idle_exits[st], 0);
		} else {
			assert_int_equal(rq->mode, CPU_MODE_IDLE);
			assert_true(idle_cpu(sim, 0));
		}
		sim->this_cpu = -1;
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * A timer that expires while its CPU balances on the way to idle waits
 * for __schedule() to end: interrupts are off there, and the timer
 * interrupt is taken once the switch is done. On ideal-2cpu, B (bound
 * to CPU 0) sleeps with its hrtimer on CPU 0 due at 1.002 ms; A blocks
 * at 1 ms with 5 us of balance to do. At 1.002 ms the timer is only
 * held: B still sleeps, and no IPI is sent (the CPU is not idle). At
 * 1.005 ms the balance ends, the held interrupt wakes B on CPU 0 and B
 * runs there at once (no run delay: it was not queued at 1.002 ms), with
 * no idle state entered.
 */
static void test_newidle_holds_timers(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
	struct sim *sim = tu_sim(m, "default");
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_busy(sim, 0), *b = tu_task(sim, 0);

	bind_to_cpu0(sim, b);
	sim->this_cpu = 0;
	task_sleep_exact(sim, b, NSEC_PER_MSEC + 2000);
	block_with_work(sim, a);
	sim->now = NSEC_PER_MSEC + 2000;
	evq_cancel(&sim->eng.evq, &b->sleep_timer.ev);
	timer_handle(sim, &b->sleep_timer);
	assert_int_equal(b->__state, TASK_INTERRUPTIBLE);
	assert_ptr_equal(rq->expired, &b->sleep_timer);
	assert_false(event_queued(&rq->ev_ipi));
	assert_int_equal(rq->mode, CPU_MODE_NEWIDLE);
	sim->now = NSEC_PER_MSEC + 5000;
	evq_cancel(&sim->eng.evq, &rq->ev_run);
	exec_handle_run(sim, 0);
	assert_ptr_equal(rq->curr, b);
	assert_int_equal(b->__state, TASK_RUNNING);
	assert_int_equal(b->run_delay, 0); /* woken at 1.005 ms, not queued since 1.002 */
	assert_null(rq->expired);
	for (int st = 0; st < m->nr_idle_states; st++)
		assert_int_equal(sim->met.idle_exits[st], 0);
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The task that blocked is woken while its CPU still balances on its way
 * to idle: in the kernel it is still on_cpu there, and try_to_wake_up()
 * queues it on that CPU's wake list with no select_task_rq() (v5.8+;
 * ttwu_queue_cond(): the CPU runs at most one task). On ideal-2cpu, A
 * blocks on CPU 0 at 1 ms with 5 us of work on the way; at 1.002 ms
 * code on idle CPU 1 wakes it. select_task_rq() would take CPU 1 (the
 * waker's, idle, sharing the LLC with prev 0, which is busy balancing);
 * A stays on CPU 0's wake list instead and runs there at 1.005 ms.
 */
static void test_newidle_wakes_its_prev(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/ideal-2cpu.json");
	struct sim *sim = tu_sim(m, "default");
	struct rq *rq = cpu_rq(sim, 0);
	struct task_struct *a = tu_busy(sim, 0);

	block_with_work(sim, a);
	sim->now = NSEC_PER_MSEC + 2000;
	sim->this_cpu = 1;
	sim->kcost_ns = 0;
	assert_int_equal(select_task_rq_fair(sim, a, 0, WF_TTWU), 1);
	assert_int_equal(try_to_wake_up(sim, a, 0), 1);
	ttwu_queue_event(sim, a);
	assert_ptr_equal(rq->wake_list, a);
	assert_int_equal(task_cpu(a), 0);
	sim->now = NSEC_PER_MSEC + 5000;
	evq_cancel(&sim->eng.evq, &rq->ev_run);
	evq_cancel(&sim->eng.evq, &rq->ev_ipi);
	exec_handle_run(sim, 0);
	assert_ptr_equal(rq->curr, a);
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The balance on the way to idle takes what sched_clock() measures of it
 * (sched_balance_newidle()'s domain_cost, fair.c v6.12), so it stretches
 * while the SMT sibling runs, as a task's own work does (smt_speed_pct
 * 60 on ideal-2c2t: x 100/60, rounded up to the ns). CPU 0's sibling is
 * CPU 1; CPU 2 runs one task with a second queued (the root domain is
 * overloaded), so CPU 0 balances when its task blocks at 1 ms. With
 * scan_cpu_ns 100 and free transfers, the SMT level visits 2 runqueues
 * (200 ns of work) and finds nothing; the MC level visits 4 (400 ns).
 * Measured: 200 and 400 ns with the sibling idle, 334 and 667 with it
 * busy. (With the sibling idle the MC level pulls the queued task, the
 * local group having two idle CPUs to the busiest's one, and it runs;
 * with it busy each group has one idle CPU and the task counts, 1 and 2,
 * differ by less than two, so nothing moves and CPU 0 enters the
 * window: calculate_imbalance().) And a window of 5 us of
 * work on the way to idle ends at 1.005 ms, or at 1.008334 ms while the
 * sibling runs.
 */
static void test_newidle_cost_is_time(void **state)
{
	(void)state;
	for (int busy = 0; busy <= 1; busy++) {
		struct machine *m = tu_machine("tests/data/ideal-2c2t.json");

		m->costs.scan_cpu_ns = 100;
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *a = tu_busy(sim, 0), *q = tu_task(sim, 2);

		tu_busy(sim, 2);
		q->__state = TASK_RUNNING;
		sim->this_cpu = 2;
		activate_task(sim, cpu_rq(sim, 2), q, ENQUEUE_WAKEUP);
		sim->this_cpu = -1;
		if (busy)
			tu_busy(sim, 1);
		smt_update(sim, 0);
		assert_true(sim->doms.rd.overloaded);
		block_at_1ms(sim, a, 0);
		struct sched_domain *smt = sim->doms.cpu[0].sd;

		assert_int_equal(smt->max_newidle_lb_cost, busy ? 334 : 200);
		assert_int_equal(smt->parent->max_newidle_lb_cost, busy ? 667 : 400);
		assert_ptr_equal(rq->curr, busy ? NULL : q);
		sim->this_cpu = -1;
		tu_sim_free(sim);
		tu_machine_free(m);
	}
	for (int busy = 0; busy <= 1; busy++) {
		struct machine *m = tu_machine("tests/data/ideal-2c2t.json");
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = cpu_rq(sim, 0);
		struct task_struct *a = tu_busy(sim, 0);

		if (busy)
			tu_busy(sim, 1);
		smt_update(sim, 0);
		block_with_work(sim, a);
		assert_int_equal(rq->ev_run.time, NSEC_PER_MSEC + (busy ? 8334 : 5000));
		sim->this_cpu = -1;
		tu_sim_free(sim);
		tu_machine_free(m);
	}
}

/*
 * A vCPU whose host halt-polls (KVM's halt_poll_ns): probe-2s's C1E given
 * a 100-us poll window ending a halt in 3 us instead of 10. Woken 50 us
 * into the halt, the CPU is out of its state 3 us later (53 us); woken
 * 200 us into one, after the full 10 us (210 us). The window is the time
 * since the state was entered, not since the CPU went idle.
 */
static void test_halt_poll_exit(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	struct idle_state *c1e = &m->idle[2];

	assert_string_equal(c1e->name, "C1E");
	c1e->halt_poll_ns = 100 * NSEC_PER_USEC;
	c1e->halt_poll_exit_ns = 3 * NSEC_PER_USEC;
	static const u64 halted_us[] = { 50, 200 }, out_us[] = { 53, 210 };

	for (int i = 0; i < 2; i++) {
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = &sim->rq[1];

		idle_in(sim, 1, 2, NOW);
		sim->now = NOW + halted_us[i] * NSEC_PER_USEC;
		exec_handle_ipi(sim, 1);
		assert_int_equal(rq->mode, CPU_MODE_EXITING);
		assert_int_equal(rq->ev_run.time, NOW + out_us[i] * NSEC_PER_USEC);
		assert_int_equal(sim->met.idle_exit_ns, (out_us[i] - halted_us[i]) * NSEC_PER_USEC);
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * A host that adapts the window (KVM's kvm_vcpu_halt()): probe-2s's C1E
 * (exit 10 us) with a window starting at 20 us, polled halts ending in 3
 * us, and a 200-us maximum. CPU 1 halts and is woken (an IPI) these many
 * us into each halt; the halt KVM weighs runs to the vCPU's return, the
 * exit included:
 *   50 (window 20: exit 10; 60 > 20, under 200: doubles to 40),
 *   50 (40: exit 10; 60 > 40: doubles to 80),
 *   50 (80: polled, exit 3; 53 within it: stays 80),
 *   250 (80: exit 10; 260 > 200: reset to 0),
 *   5 (0: exit 10; 15 > 0, under 200: grows to the 10-us start),
 *   5 (10: polled, exit 3; 8 within it: stays 10).
 * A window of 160 and a halt woken at 180 us (exit 10, 190 under 200)
 * doubles to 320, held at the 200 maximum. A tick that ends a halt
 * counts as a wake-up does: at 30 us into a 20-us window, exit 10, 40
 * doubles it to 40.
 */
static void test_halt_poll_adapts(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	struct idle_state *c1e = &m->idle[2];
	static const u64 woken_us[] = { 50, 50, 50, 250, 5, 5 };
	static const u64 exit_us[] = { 10, 10, 3, 10, 10, 3 };
	static const u64 window_us[] = { 40, 80, 80, 0, 10, 10 };

	c1e->halt_poll_ns = 20 * NSEC_PER_USEC;
	c1e->halt_poll_exit_ns = 3 * NSEC_PER_USEC;
	c1e->halt_poll_max_ns = 200 * NSEC_PER_USEC;
	struct sim *sim = tu_sim(m, "default");
	struct rq *rq = &sim->rq[1];
	u64 t = NOW;

	assert_int_equal(rq->halt_poll_ns, 20 * NSEC_PER_USEC);
	for (int i = 0; i < 6; i++) {
		idle_in(sim, 1, 2, t);
		sim->now = t + woken_us[i] * NSEC_PER_USEC;
		exec_handle_ipi(sim, 1);
		assert_int_equal(rq->ev_run.time, sim->now + exit_us[i] * NSEC_PER_USEC);
		assert_int_equal(rq->halt_poll_ns, window_us[i] * NSEC_PER_USEC);
		evq_cancel(&sim->eng.evq, &rq->ev_run);
		t += NSEC_PER_MSEC;
	}
	rq->halt_poll_ns = 160 * NSEC_PER_USEC;
	idle_in(sim, 1, 2, t);
	sim->now = t + 180 * NSEC_PER_USEC;
	exec_handle_ipi(sim, 1);
	assert_int_equal(rq->halt_poll_ns, 200 * NSEC_PER_USEC);
	tu_sim_free(sim);

	/* The tick's end of a halt. */
	sim = tu_sim(m, "default");
	rq = &sim->rq[1];
	idle_in(sim, 1, 2, NOW);
	sim->now = NOW + 30 * NSEC_PER_USEC;
	sim->this_cpu = 1;
	idle_tick(sim, rq);
	assert_int_equal(rq->halt_poll_ns, 40 * NSEC_PER_USEC);
	sim->this_cpu = -1;
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * The waker's side of the same window: an IPI sent to a vCPU its host is
 * still polling costs the sender the state's halt_poll_ipi_send_ns (the
 * guest's VM exit, no host wake-up of the vCPU thread), one to a vCPU
 * halted longer, or on a state without that figure, the profile's
 * ipi_send_ns. probe-2s's C1E with a 100-us window, sends of 3 us inside
 * it and 12 us otherwise: CPU 0 reschedules CPU 1 halted 50 us -> 3000
 * ns charged to CPU 0; halted 200 us -> 12000; with no
 * halt_poll_ipi_send_ns given, 50 us -> 12000. A running target is no
 * halt: 12000.
 */
static void test_halt_poll_ipi_send(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	struct idle_state *c1e = &m->idle[2];
	static const struct {
		u64 halted_us;
		bool set, running;
		u64 sent;
	} cases[] = {
		{ 50, true, false, 3000 },
		{ 200, true, false, 12000 },
		{ 50, false, false, 12000 },
		{ 0, true, true, 12000 },
	};

	m->costs.ipi_send_ns = 12000;
	c1e->halt_poll_ns = 100 * NSEC_PER_USEC;
	c1e->halt_poll_exit_ns = 3 * NSEC_PER_USEC;
	c1e->halt_poll_ipi_send_ns = 3000;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = &sim->rq[1];

		c1e->halt_poll_send_set = cases[i].set;
		if (cases[i].running) {
			tu_busy(sim, 1);
		} else {
			idle_in(sim, 1, 2, NOW);
		}
		sim->now = NOW + cases[i].halted_us * NSEC_PER_USEC;
		sim->this_cpu = 0;
		sim->kcost_ns = 0;
		resched_curr(sim, rq);
		assert_int_equal(sim->met.ipi_send_ns, cases[i].sent);
		assert_int_equal(sim->kcost_ns, cases[i].sent);
		assert_int_equal(sim->met.ipis, 1);
		sim->this_cpu = -1;
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

/*
 * An MWAIT state keeps TIF_POLLING_NRFLAG (mwait_idle_with_hints()), so
 * waking the CPU out of it is set_nr_and_not_polling()'s flag write, no
 * IPI (resched_curr(), core.c v6.4/v6.12), and the CPU then leaves the
 * state. probe-2s's C1E (exit 10 us), poll_wake_ns 300, ipi_latency_ns
 * 2000, ipi_send_ns 500: CPU 0 reschedules CPU 1 idle in C1E at NOW.
 * MWAIT: no IPI counted, nothing charged to CPU 0, the flag seen at NOW +
 * 300 ns and the CPU out of C1E at NOW + 10.3 us. Not MWAIT (a halt): one
 * IPI, 500 ns charged to CPU 0, seen at NOW + 2 us, out at NOW + 12 us.
 * A busy CPU gets an IPI whatever its idle states are.
 */
static void test_mwait_wakes_without_ipi(void **state)
{
	(void)state;
	struct machine *m = tu_machine("tests/data/probe-2s.json");
	static const struct {
		bool mwait, running;
		u64 ipis, charged, seen_ns;
	} cases[] = {
		{ true, false, 0, 0, 300 },
		{ false, false, 1, 500, 2000 },
		{ true, true, 1, 500, 2000 },
	};

	m->costs.poll_wake_ns = 300;
	m->costs.ipi_latency_ns = 2000;
	m->costs.ipi_send_ns = 500;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim *sim = tu_sim(m, "default");
		struct rq *rq = &sim->rq[1];

		m->idle[2].mwait = cases[i].mwait;
		if (cases[i].running) {
			tu_busy(sim, 1);
		} else {
			idle_in(sim, 1, 2, NOW - 50 * NSEC_PER_USEC);
		}
		sim->now = NOW;
		sim->this_cpu = 0;
		sim->kcost_ns = 0;
		resched_curr(sim, rq);
		assert_int_equal(sim->met.ipis, cases[i].ipis);
		assert_int_equal(sim->kcost_ns, cases[i].charged);
		assert_true(rq->need_resched);
		assert_true(event_queued(&rq->ev_ipi));
		assert_int_equal(rq->ev_ipi.time, NOW + cases[i].charged + cases[i].seen_ns);
		if (!cases[i].running) {
			sim->now = rq->ev_ipi.time;
			exec_handle_ipi(sim, 1);
			assert_int_equal(rq->mode, CPU_MODE_EXITING);
			assert_int_equal(rq->ev_run.time,
					 NOW + cases[i].charged + cases[i].seen_ns + 10 * NSEC_PER_USEC);
		}
		sim->this_cpu = -1;
		tu_sim_free(sim);
	}
	tu_machine_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_menu_choice),
		cmocka_unit_test(test_menu_latency_qos),
		cmocka_unit_test(test_menu_timer_query_by_version),
		cmocka_unit_test(test_menu_update),
		cmocka_unit_test(test_tick_kept_or_stopped),
		cmocka_unit_test(test_idle_tick_balances),
		cmocka_unit_test(test_newidle_moves_next_balance),
		cmocka_unit_test(test_idle_task_is_current),
		cmocka_unit_test(test_newidle_window),
		cmocka_unit_test(test_newidle_wakes_its_prev),
		cmocka_unit_test(test_newidle_holds_timers),
		cmocka_unit_test(test_newidle_cost_is_time),
		cmocka_unit_test(test_halt_poll_exit),
		cmocka_unit_test(test_halt_poll_adapts),
		cmocka_unit_test(test_halt_poll_ipi_send),
		cmocka_unit_test(test_mwait_wakes_without_ipi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
