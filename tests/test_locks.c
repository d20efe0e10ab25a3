/*
 * test_locks.c - lock sections (kern/spinlock.h): pipe->mutex held over a
 * write's work, a wait queue's lock held over the wake-ups it runs
 * (__wake_up_common_lock(), kernel/sched/wait.c) but not a futex's, and
 * v5.5-v6.6's rd_wait.lock taken inside the mutex to open a pipe slot
 * (fs/pipe.c).
 * Machine: tests/data/ideal-4cpu-scan.json on v6.4 without wake-up
 * preemption (no IPI to price), every transfer 10 ns and a hit 0, ttwu_ns
 * 100: the rq lock tests' machine of test_wakeup.c, whose
 * test_remote_enqueue_under_lock works out the locked enqueue used here.
 */
#include "testutil.h"

#include "ipc/pipe.h"

/* The running context: cpu at now (ns), no kernel work charged yet. */
static void at(struct sim *sim, int cpu, u64 now)
{
	sim->now = now;
	sim->this_cpu = cpu;
	sim->kcost_ns = 0;
}

/*
 * A section [1000, 1070): CPU 0 takes the lock at 1000, works 50 ns and
 * releases it with 20 ns of work still to come under it. CPU 1 at 1030
 * waits 40 and that wait is its CPU time; at 1070 the lock is free; the
 * holder's own CPU, a context before the section, and the workload's
 * clock (no CPU) never wait. Only the holder's release moves the end.
 */
static void test_lock_section(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct lock_section l;

	lock_section_init(&l);
	at(sim, 1, 5);
	assert_int_equal(lock_section_spin(sim, &l), 0);

	at(sim, 0, 1000);
	lock_section_take(sim, &l);
	charge(sim, 50);
	lock_section_release(sim, &l, 20);
	assert_int_equal(l.owner, 0);
	assert_int_equal(l.from, 1000);
	assert_int_equal(l.until, 1070);

	at(sim, 1, 1030);
	assert_int_equal(lock_section_spin(sim, &l), 40);
	assert_int_equal(sim->kcost_ns, 40);
	lock_section_release(sim, &l, 500); /* not its lock */
	assert_int_equal(l.until, 1070);
	at(sim, 1, 1070);
	assert_int_equal(lock_section_spin(sim, &l), 0);
	at(sim, 1, 999);
	assert_int_equal(lock_section_spin(sim, &l), 0);
	at(sim, 0, 1030);
	assert_int_equal(lock_section_spin(sim, &l), 0);
	at(sim, -1, 1030);
	assert_int_equal(lock_section_spin(sim, &l), 0);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * pipe->mutex is held over the write's work. With a copy at 256 ns a KiB,
 * A writes a page into an empty pipe on CPU 0 at 1 ms, no reader asleep:
 * the mutex's line from memory, 10 ns, then the copy of the 4032 bytes
 * beyond the first line, 1008 ns (the slot's lines were never written:
 * 0). The wake-up after the unlock finds no waiter and takes rd_wait.lock
 * on the mutex's line, which A holds: 0. So A is charged 1018 and the
 * section is [1 ms + 10, 1 ms + 1018). B, on CPU 1 at 1 ms + 11, waits
 * 1007 for the mutex, and its section starts after the line's transfer
 * from CPU 0, at 1 ms + 1028. C, on CPU 2 at 1 ms + 2018, well after
 * B's 100 bytes, waits nothing.
 */
static void test_pipe_mutex_held_over_write(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct task_struct *a = tu_busy(sim, 0), *b = tu_busy(sim, 1), *c = tu_busy(sim, 2);
	struct pipe pp;
	bool blocked;

	m->costs.copy_ns_per_kib = 256;
	pipe_init(&pp);
	at(sim, 0, NSEC_PER_MSEC);
	assert_int_equal(pipe_write(sim, &pp, a, PIPE_PAGE_SIZE, false, &blocked), PIPE_PAGE_SIZE);
	assert_int_equal(sim->kcost_ns, 1018);
	assert_int_equal(pp.mutex.from, NSEC_PER_MSEC + 10);
	assert_int_equal(pp.mutex.until, NSEC_PER_MSEC + 1018);
	assert_int_equal(sim->met.pipe_mutex_wait_ns, 0);

	at(sim, 1, NSEC_PER_MSEC + 11);
	pipe_write(sim, &pp, b, 100, false, &blocked);
	assert_int_equal(sim->met.pipe_mutex_wait_ns, 1007);
	assert_int_equal(pp.mutex.owner, 1);
	assert_int_equal(pp.mutex.from, NSEC_PER_MSEC + 1028);

	at(sim, 2, NSEC_PER_MSEC + 2018);
	pipe_write(sim, &pp, c, 100, false, &blocked);
	assert_int_equal(sim->met.pipe_mutex_wait_ns, 1007);
	assert_int_equal(pp.bytes, PIPE_PAGE_SIZE + 200);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * A wake-up holds the wait queue's lock until the woken task's path ends.
 * CPUs 0-2 run a task each; R and S sleep on wq and may run only on CPU
 * 2, so a wake-up from CPU 0 enqueues under CPU 2's rq lock.
 *  - CPU 0 wakes R at 1 ms: the lock is taken at 1 ms (wq prices no line)
 *    and the path charges ttwu 100 and ttwu_queue_cond()'s read of CPU
 *    2's nr_running, its runqueue line from CPU 2, 10, so the section is
 *    [1 ms, 1 ms + 110) and R's enqueue comes at 1 ms + 110. There CPU 0
 *    takes CPU 2's lock and enqueues, 80 ns of lines
 *    (test_remote_enqueue_under_lock's first waker, the same state): the
 *    wait queue's section now ends at 1 ms + 190. CPU 1 at 1 ms + 150
 *    waits 40; CPU 3 at 1 ms + 190, 0.
 *  - CPU 0 wakes S at 2 ms: CPU 2's runqueue line is CPU 0's own since
 *    R's enqueue, so the read is a hit and the section is [2 ms, 2 ms +
 *    100). CPU 1, at
 *    2 ms + 30, before S's enqueue runs, can only see that section: it
 *    waits 70 and takes the lock at 2 ms + 100, so S's enqueue no longer
 *    extends a section that is CPU 1's (the model's limit: a waiter
 *    handled before the holder's enqueue waits for the path's end only).
 */
static void test_wake_up_holds_wq_lock(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *r = tu_pinned_task(sim, 2, &only), *s = tu_pinned_task(sim, 2, &only);
	struct wait_queue_head wq;

	tu_busy(sim, 0);
	tu_busy(sim, 1);
	tu_busy(sim, 2);
	init_waitqueue_head(&wq);
	at(sim, 2, 0);
	prepare_to_wait(sim, &wq, r, true);
	prepare_to_wait(sim, &wq, s, true);

	at(sim, 0, NSEC_PER_MSEC);
	assert_int_equal(wake_up(sim, &wq, 1, 0), 1);
	assert_int_equal(wq.lock.owner, 0);
	assert_int_equal(wq.lock.from, NSEC_PER_MSEC);
	assert_int_equal(wq.lock.until, NSEC_PER_MSEC + 110);
	assert_ptr_equal(r->wake_lock, &wq.lock);
	assert_int_equal(r->ev_wake.time, NSEC_PER_MSEC + 110);
	tu_wake_end(sim, r);
	assert_int_equal(sim->rq[2].nr_running, 2);
	assert_int_equal(wq.lock.until, NSEC_PER_MSEC + 190);
	assert_null(r->wake_lock);
	at(sim, 1, NSEC_PER_MSEC + 150);
	assert_int_equal(wq_lock_pass(sim, &wq), 40);
	assert_int_equal(sim->met.wq_lock_wait_ns, 40);
	at(sim, 3, NSEC_PER_MSEC + 190);
	assert_int_equal(wq_lock_pass(sim, &wq), 0);

	at(sim, 0, 2 * NSEC_PER_MSEC);
	assert_int_equal(wake_up(sim, &wq, 1, 0), 1);
	assert_int_equal(wq.lock.until, 2 * NSEC_PER_MSEC + 100);
	at(sim, 1, 2 * NSEC_PER_MSEC + 30);
	assert_int_equal(wq_lock_pass(sim, &wq), 70);
	assert_int_equal(wq.lock.owner, 1);
	tu_wake_end(sim, s);
	assert_int_equal(wq.lock.owner, 1);
	assert_int_equal(wq.lock.until, 2 * NSEC_PER_MSEC + 100);
	assert_null(s->wake_lock);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * A futex wake marks its waiters under the hash bucket's lock and wakes
 * them after dropping it (futex_wake(), wake_up_q()): CPU 0 wakes R
 * (CPU 2's only) at 1 ms, and the lock's section opens and closes at
 * 1 ms, before R's path (ttwu 100, and ttwu_queue_cond()'s read of CPU
 * 2's runqueue line, 10) and its enqueue at 1 ms + 110. CPU 1
 * at 1 ms + 30 takes the lock without waiting.
 */
static void test_wake_up_q_drops_lock_first(void **state)
{
	(void)state;
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, KV_6_4);
	struct cpumask only;
	struct task_struct *r = tu_pinned_task(sim, 2, &only);
	struct wait_queue_head wq;

	tu_busy(sim, 0);
	tu_busy(sim, 2);
	init_waitqueue_head(&wq);
	at(sim, 2, 0);
	prepare_to_wait(sim, &wq, r, true);
	at(sim, 0, NSEC_PER_MSEC);
	assert_int_equal(wake_up_q(sim, &wq, 1, 0), 1);
	assert_int_equal(wq.lock.from, NSEC_PER_MSEC);
	assert_int_equal(wq.lock.until, NSEC_PER_MSEC);
	assert_int_equal(r->ev_wake.time, NSEC_PER_MSEC + 110);
	assert_null(r->wake_lock);
	at(sim, 1, NSEC_PER_MSEC + 30);
	assert_int_equal(wq_lock_pass(sim, &wq), 0);
	tu_wake_end(sim, r);
	assert_int_equal(wq.lock.owner, 1);
	assert_int_equal(wq.lock.until, NSEC_PER_MSEC + 30);
	tu_sim_free(sim);
	tu_machine_free(m);
}

/*
 * v5.5 to v6.6, a write that opens a pipe slot moves head under
 * rd_wait.lock, inside the mutex; today's does not. R sleeps on an empty
 * pipe and may run only on CPU 2 (busy). A, on CPU 0 at 1 ms, writes a
 * whole page and wakes R after its unlock; R's enqueue comes at the end
 * of A's charge, 1 ms + K, and holds rd_wait.lock until the enqueue's
 * lines are done: where CPU 2's rq lock section ends less the
 * activation's hold (ttwu_ns, 100) that follows them. B, on CPU 1 at the
 * enqueue's time + 5, writes 100 bytes: the last page is full, so B
 * opens a slot. On v6.4 and v5.12 it waits for rd_wait.lock, at most
 * what is left of that section; on mainline it does not take that lock.
 * A's mutex is free by then.
 */
static u64 slot_opener_wait(int kver)
{
	struct machine *m;
	struct sim *sim = tu_lock_sim(&m, 10, kver);
	struct cpumask only;
	struct task_struct *r = tu_pinned_task(sim, 2, &only);
	struct task_struct *a = tu_busy(sim, 0), *b = tu_busy(sim, 1);
	struct pipe pp;
	bool blocked;
	u64 end, wait;

	tu_busy(sim, 2);
	pipe_init(&pp);
	at(sim, 2, 0);
	assert_int_equal(pipe_read(sim, &pp, r, 100, false, &blocked), 0);
	assert_true(blocked);

	at(sim, 0, NSEC_PER_MSEC);
	assert_int_equal(pipe_write(sim, &pp, a, PIPE_PAGE_SIZE, false, &blocked), PIPE_PAGE_SIZE);
	assert_int_equal(r->ev_wake.time, NSEC_PER_MSEC + sim->kcost_ns);
	assert_int_equal(pp.rd_wait.lock.until, r->ev_wake.time);
	tu_wake_end(sim, r);
	end = sim->rq[2].lock.until - 100;
	assert_true(end > r->ev_wake.time + 5);
	assert_int_equal(pp.rd_wait.lock.until, end);

	at(sim, 1, r->ev_wake.time + 5);
	assert_int_equal(pipe_write(sim, &pp, b, 100, false, &blocked), 100);
	assert_int_equal(pp.head - pp.tail, 2);
	assert_int_equal(sim->met.pipe_mutex_wait_ns, 0);
	wait = sim->met.wq_lock_wait_ns;
	assert_true(wait <= end - (r->ev_wake.time + 5));
	if (wait)
		assert_int_equal(pp.rd_wait.lock.owner, 1);
	tu_sim_free(sim);
	tu_machine_free(m);
	return wait;
}

static void test_pipe_slot_under_rd_wait_lock(void **state)
{
	(void)state;
	assert_true(slot_opener_wait(KV_6_4) > 0);
	assert_true(slot_opener_wait(KV_5_12) > 0);
	assert_int_equal(slot_opener_wait(KV_MAINLINE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_section),
		cmocka_unit_test(test_pipe_mutex_held_over_write),
		cmocka_unit_test(test_wake_up_holds_wq_lock),
		cmocka_unit_test(test_wake_up_q_drops_lock_first),
		cmocka_unit_test(test_pipe_slot_under_rd_wait_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
