/*
 * test_ipc.c - pipes and AF_UNIX stream sockets: capacity, blocking and
 * who gets woken when, derived from fs/pipe.c and net/unix/af_unix.c
 * (v6.12; pipe_read's wake-up rule of v6.14 on mainline, v5.5-v6.13's on
 * the older profiles).
 */
#include "testutil.h"

#include "ipc/msgcache.h"
#include "ipc/pipe.h"
#include "ipc/unix.h"

static struct sim *sim;
static struct machine *m;

static int setup(void **state)
{
	(void)state;
	m = tu_machine("sysfs:tests/data/host-2cpu-sysfs");
	sim = tu_sim(m, "default");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_sim_free(sim);
	tu_machine_free(m);
	return 0;
}

static struct task_struct *running(int cpu)
{
	struct task_struct *p = tu_task(sim, cpu);

	p->__state = TASK_RUNNING;
	return p;
}

static bool sleeping(const struct task_struct *p)
{
	return p->__state == TASK_INTERRUPTIBLE;
}

/* 100-byte writes share pages 40 to a page; 16 pages: the 641st blocks. */
static void test_pipe_capacity(void **state)
{
	(void)state;
	struct pipe pp;
	struct task_struct *w = running(0);
	bool blocked;

	pipe_init(&pp);
	sim->this_cpu = 0;
	for (int i = 0; i < 640; i++) {
		assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
		assert_false(blocked);
		if (i == 39)
			assert_int_equal(pp.head - pp.tail, 1);
		if (i == 40)
			assert_int_equal(pp.head - pp.tail, 2);
	}
	assert_int_equal(pp.bytes, 64000);
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 0);
	assert_true(blocked);
	assert_true(sleeping(w));
	assert_ptr_equal(pp.wr_wait.head, w);
}

/* A reader sleeping on an empty pipe is woken by the first write only. */
static void test_pipe_reader_wakeup(void **state)
{
	(void)state;
	struct pipe pp;
	struct task_struct *w = running(0), *r = running(1);
	bool blocked;

	pipe_init(&pp);
	sim->this_cpu = 1;
	assert_int_equal(pipe_read(sim, &pp, r, 100, false, &blocked), 0);
	assert_true(blocked);
	assert_true(sleeping(r));
	u64 wakeups = sim->met.wakeups;

	sim->this_cpu = 0;
	pipe_write(sim, &pp, w, 100, false, &blocked);
	assert_false(sleeping(r));
	assert_null(pp.rd_wait.head);
	assert_int_equal(sim->met.wakeups, wakeups + 1);
	pipe_write(sim, &pp, w, 100, false, &blocked);
	assert_int_equal(sim->met.wakeups, wakeups + 1);
	/* One read takes what was asked for, across messages. */
	sim->this_cpu = 1;
	r->__state = TASK_RUNNING;
	assert_int_equal(pipe_read(sim, &pp, r, 150, true, &blocked), 150);
	assert_int_equal(pp.bytes, 50);
}

/* Fill a pipe with 640 100-byte writes (16 full pages); w1, then w2, block. */
static void two_writers_on_full_pipe(struct sim *s, struct pipe *pp, struct task_struct *w1,
				     struct task_struct *w2)
{
	bool blocked;

	pipe_init(pp);
	s->this_cpu = 0;
	for (int i = 0; i < 640; i++)
		pipe_write(s, pp, w1, 100, false, &blocked);
	pipe_write(s, pp, w1, 100, false, &blocked);
	pipe_write(s, pp, w2, 100, false, &blocked);
	assert_ptr_equal(pp->wr_wait.head, w1);
	assert_ptr_equal(pp->wr_wait.tail, w2);
}

/*
 * Writers wait for a free slot: reading 100 bytes of a full pipe frees
 * none (no wake-up since v6.14); the 40th read empties the first page and
 * wakes exactly one of the two waiting writers.
 */
static void test_pipe_writer_wakeup(void **state)
{
	(void)state;
	struct pipe pp;
	struct task_struct *w1 = running(0), *w2 = running(0), *r = running(1);
	bool blocked;

	two_writers_on_full_pipe(sim, &pp, w1, w2);
	assert_true(sleeping(w1) && sleeping(w2));
	sim->this_cpu = 1;
	for (int i = 0; i < 39; i++) {
		pipe_read(sim, &pp, r, 100, false, &blocked);
		assert_true(sleeping(w1) && sleeping(w2));
	}
	pipe_read(sim, &pp, r, 100, false, &blocked);
	assert_false(sleeping(w1));
	assert_true(sleeping(w2));
	assert_ptr_equal(pp.wr_wait.head, w2);
	/* The woken writer fills the free slot and, the pipe full again, does
	 * not pass the wake-up on. */
	sim->this_cpu = 0;
	w1->__state = TASK_RUNNING;
	assert_int_equal(pipe_write(sim, &pp, w1, 100, true, &blocked), 100);
	assert_true(sleeping(w2));
}

/*
 * pipe_write() merges into the last page only before its slot loop; a
 * writer woken for a slot is in the loop and starts a new page (fs/pipe.c,
 * v6.12). w1 and w2 wait on a pipe of 16 full pages; 40 reads free the
 * first and wake w1, which puts its 100 bytes in a new page: 16 slots
 * again. 40 more free the second and wake w2: the last page (w1's) has
 * 3996 bytes free, yet w2's 100 bytes go to a new page: the pipe is full
 * with 14 pages of 4000 bytes and two of 100.
 */
static void test_pipe_woken_writer_new_page(void **state)
{
	(void)state;
	struct pipe pp;
	struct task_struct *w1 = running(0), *w2 = running(0), *r = running(1);
	bool blocked;

	two_writers_on_full_pipe(sim, &pp, w1, w2);
	for (int k = 0; k < 2; k++) {
		struct task_struct *w = k ? w2 : w1;

		sim->this_cpu = 1;
		for (int i = 0; i < 40; i++)
			pipe_read(sim, &pp, r, 100, false, &blocked);
		assert_false(sleeping(w));
		sim->this_cpu = 0;
		w->__state = TASK_RUNNING;
		assert_int_equal(pipe_write(sim, &pp, w, 100, true, &blocked), 100);
		assert_false(blocked);
		assert_int_equal(pp.head - pp.tail, 16);
	}
	assert_int_equal(pp.end[(pp.head - 1) % PIPE_DEF_BUFFERS], 100);
	assert_int_equal(pp.end[(pp.head - 2) % PIPE_DEF_BUFFERS], 100);
	assert_int_equal(pp.bytes, 14 * 4000 + 200);
}

/*
 * v5.5-v6.13 (the v6.4 profile): pipe_read() wakes a writer whenever the
 * pipe was full as the read began (fs/pipe.c, v6.12's was_full). With w1
 * then w2 waiting on a full pipe, the first read frees no slot (100 of the
 * first page's 4000 bytes) yet wakes w1, the head of wr_wait; w1 finds the
 * pipe still full and queues again behind w2 (an exclusive waiter is
 * removed when woken and re-added at the tail by prepare_to_wait_event()).
 * The second read wakes w2, which queues behind w1. Reads 3 to 39 wake and
 * requeue them in turn: 39 rewaits, and after the 39th read w1 (woken by
 * reads 1, 3, .., 39) is at the tail again. The 40th read frees the first
 * page and wakes the head, w2; w2 writes.
 */
static void test_pipe_writer_wakeup_before_v6_14(void **state)
{
	(void)state;
	struct sim *old = tu_sim_kernel(m, "default", KV_6_4);
	struct task_struct *w1 = tu_task(old, 0), *w2 = tu_task(old, 0), *r = tu_task(old, 1);
	struct pipe pp;
	bool blocked;

	w1->__state = w2->__state = r->__state = TASK_RUNNING;
	two_writers_on_full_pipe(old, &pp, w1, w2);
	for (int i = 0; i < 39; i++) {
		struct task_struct *woken = i % 2 ? w2 : w1, *other = i % 2 ? w1 : w2;

		old->this_cpu = 1;
		assert_int_equal(pipe_read(old, &pp, r, 100, false, &blocked), 100);
		assert_false(sleeping(woken));
		assert_true(sleeping(other));
		assert_ptr_equal(pp.wr_wait.head, other);
		old->this_cpu = 0;
		woken->__state = TASK_RUNNING;
		assert_int_equal(pipe_write(old, &pp, woken, 100, true, &blocked), 0);
		assert_true(blocked);
		assert_true(sleeping(woken));
		assert_ptr_equal(pp.wr_wait.tail, woken);
	}
	assert_int_equal(old->met.pipe_writer_rewaits, 39);
	old->this_cpu = 1;
	assert_int_equal(pipe_read(old, &pp, r, 100, false, &blocked), 100);
	assert_int_equal(pp.head - pp.tail, 15);
	assert_false(sleeping(w2));
	assert_ptr_equal(pp.wr_wait.head, w1);
	old->this_cpu = 0;
	w2->__state = TASK_RUNNING;
	assert_int_equal(pipe_write(old, &pp, w2, 100, true, &blocked), 100);
	assert_int_equal(old->met.pipe_writer_rewaits, 39);
	tu_sim_free(old);
}

/*
 * AF_UNIX: each 100-byte send costs 896 bytes of the 212992-byte sndbuf
 * (wmem starts at 1): 238 sends fit, the 239th blocks. Senders are woken
 * together when wmem falls to a quarter: 59 skbs left, i.e. after the
 * 179th receive.
 */
static void test_unix_wmem(void **state)
{
	(void)state;
	struct unix_stream us;
	struct task_struct *s1 = running(0), *s2 = running(0), *r = running(1);
	bool blocked;

	assert_int_equal(unix_skb_truesize(100), 896);
	unix_stream_init(&us);
	sim->this_cpu = 0;
	for (int i = 0; i < 238; i++) {
		assert_int_equal(unix_send(sim, &us, s1, 100, &blocked), 100);
		assert_false(blocked);
	}
	assert_int_equal(unix_send(sim, &us, s1, 100, &blocked), 0);
	assert_true(blocked);
	unix_send(sim, &us, s2, 100, &blocked);
	assert_true(sleeping(s1) && sleeping(s2));
	sim->this_cpu = 1;
	for (int i = 0; i < 178; i++)
		assert_int_equal(unix_recv(sim, &us, r, 100, &blocked), 100);
	assert_true(sleeping(s1) && sleeping(s2));
	unix_recv(sim, &us, r, 100, &blocked);
	assert_false(sleeping(s1));
	assert_false(sleeping(s2));
	/* A receive copies across skbs, and an empty queue blocks. */
	assert_int_equal(unix_recv(sim, &us, r, 250, &blocked), 250);
	assert_int_equal(unix_recv(sim, &us, r, 100000, &blocked), 56 * 100 + 50);
	assert_int_equal(unix_recv(sim, &us, r, 100, &blocked), 0);
	assert_true(blocked);
	unix_stream_free(&us);
}

/* Message totals start from zero, as in a new simulation. */
static void msg_totals_reset(void)
{
	memset(sim->core_bytes_in, 0, sizeof(u64) * (size_t)m->topo.nr_cores);
	memset(sim->llc_bytes_in, 0, sizeof(u64) * (size_t)m->topo.nr_llcs);
}

/*
 * The fixture: CPUs 0 and 1 are two cores of one LLC; L2 1 MiB, LLC 32
 * MiB; the defaults' c2c: local 1 ns, same LLC 40, farthest 150, an
 * LLC hit 20 ns, and cold_mlp 4. A 100-byte skb is 4 + 1 + 2 = 7 lines found in 2 steps:
 * 2 + 5 / 4 = 13/4 latencies. With S bytes written behind it by its core
 * and T by its LLC, a line is in L2 with fl fw, in the LLC with fl (1 -
 * fw), in memory with 1 - fl, fw = L2 / (L2 + S), fl = LLC / (LLC + T)
 * (kern/linecache.h). A line in the writer's L2 costs the c2c latency
 * to it, one in the LLC an LLC hit, one in memory the farthest c2c.
 */
static void test_msg_cache_levels(void **state)
{
	(void)state;
	struct line_stamp a, b, c;
	const u64 mib = 1 << 20;

	assert_int_equal(m->l2_bytes, mib);
	assert_int_equal(m->llc_bytes, 32 * mib);
	assert_int_equal(m->costs.c2c_ns[C2C_LOCAL], 1);
	assert_int_equal(m->costs.c2c_ns[C2C_LLC], 40);
	assert_int_equal(m->costs.c2c_ns[C2C_REMOTE], 150);
	assert_int_equal(m->costs.llc_hit_ns, 20);
	assert_int_equal(m->costs.cold_mlp, 4);
	assert_int_equal(unix_skb_lines(100), 7);
	msg_totals_reset();
	sim->this_cpu = 0;
	msg_written(sim, &a, 7 * 64);
	/* Nothing behind it: its writer's L1, 13/4 ns; the other core's 40 ns a line. */
	assert_int_equal(msg_read_ns(sim, &a, 2, 7), 3);
	sim->this_cpu = 1;
	assert_int_equal(msg_read_ns(sim, &a, 2, 7), 130);
	/* Lines all in one dependent chain: 7 full latencies. */
	assert_int_equal(msg_read_ns(sim, &a, 7, 7), 280);
	/*
	 * 1 MiB written behind it on its core: fw = 1/2, fl = 32/33. A line,
	 * on its writer: (32 (1 + 20) / 2 + 150) / 33 = 486 / 33 ns, x 13/4
	 * = 47.86; on the other core: (32 (40 + 20) / 2 + 150) / 33 = 1110 /
	 * 33, x 13/4 = 109.32.
	 */
	sim->this_cpu = 0;
	msg_written(sim, &b, mib);
	assert_int_equal(msg_read_ns(sim, &a, 2, 7), 47);
	sim->this_cpu = 1;
	assert_int_equal(msg_read_ns(sim, &a, 2, 7), 109);
	/*
	 * 32 MiB more from the other core: b has S = 0 but T = 32 MiB, so
	 * fl = 1/2 (leaving the LLC takes a line out of the L2 above it):
	 * (1 + 150) / 2 = 75.5 a line on its writer, x 13/4 = 245.38.
	 */
	msg_written(sim, &c, 32 * mib);
	sim->this_cpu = 0;
	assert_int_equal(msg_read_ns(sim, &b, 2, 7), 245);
	/* Reading from another core brings the lines into the reader's L2. */
	assert_int_equal(sim->core_bytes_in[1], 32 * mib);
	sim->this_cpu = 1;
	assert_int_equal(msg_read(sim, &a, 2, 7), msg_read_ns(sim, &a, 2, 7));
	assert_int_equal(sim->core_bytes_in[1], 32 * mib + 7 * 64);
	/* Not written by any CPU: free. */
	c.cpu = -1;
	assert_int_equal(msg_read_ns(sim, &c, 2, 7), 0);
}

/* Run the next operation on cpu, 1 ms later: no transfer is in flight. */
static void on_cpu(int cpu)
{
	sim->this_cpu = cpu;
	sim->now += 1000000;
	sim->kcost_ns = 0;
}

/*
 * The receives' lines, end to end: a 100-byte skb sent on CPU 0 and
 * received on CPU 1 moves its 7 lines in 2 steps (40 x 13/4 = 130 ns)
 * and the queue's lock line (40); a pipe read moves the slot's
 * pipe_buffer line (40 ns), then through it the data lines the read
 * spans: bytes 0-99 two lines (40 x (1 + 1/4) = 50 ns), bytes 100-199
 * the three lines of bytes 64-255 (40 x (1 + 2/4) = 60 ns), by then with
 * the pipe_buffer line the reader's own since its first read (1 ns).
 */
static void test_msg_receive_lines(void **state)
{
	(void)state;
	struct unix_stream us;
	struct pipe pp;
	struct task_struct *w = running(0), *r = running(1);
	bool blocked;
	u64 c0;

	msg_totals_reset();
	unix_stream_init(&us);
	on_cpu(0);
	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	on_cpu(1);
	c0 = sim->met.coherence_ns;
	assert_int_equal(unix_recv(sim, &us, r, 100, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 130 + 40);
	unix_stream_free(&us);

	msg_totals_reset();
	pipe_init(&pp);
	on_cpu(0);
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
	on_cpu(1);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_read(sim, &pp, r, 100, false, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 40 + 50 + 40);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_read(sim, &pp, r, 100, false, &blocked), 100);
	/* The lock line is the reader's now: an L1 hit, 1 ns. */
	assert_int_equal(sim->met.coherence_ns - c0, 1 + 60 + 1);
}

/*
 * A send's skb comes from the slab with the lines the receiver's free
 * left in its cache (net/core/skbuff.c, mm/slub.c): CPU 0 sends 100
 * bytes into a socket no receive has freed from (its 7 lines free, the
 * queue's lock line from memory, 150); CPU 1 receives it, freeing the
 * skb; CPU 0's next send then takes 7 lines from CPU 1 in one step,
 * 40 x (1 + 6/4) = 100 ns, and the lock line the receive wrote (40).
 * Received and sent again on one CPU, the lines are local (1 ns a step,
 * 1 x (1 + 6/4) rounds to 2) and so is the lock (1). The sender's core
 * counts the skb's 448 bytes once, fetched and written. A loopback TCP
 * send takes no lines from the receiver (the skb goes back to its
 * allocating CPU, the data is in page frags): the lock line only.
 */
static void test_unix_send_lines(void **state)
{
	(void)state;
	struct unix_stream us;
	struct task_struct *w = running(0), *r = running(1);
	bool blocked;
	u64 c0;

	msg_totals_reset();
	unix_stream_init(&us);
	on_cpu(0);
	c0 = sim->met.coherence_ns;
	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 150);
	on_cpu(1);
	assert_int_equal(unix_recv(sim, &us, r, 100, &blocked), 100);
	on_cpu(0);
	c0 = sim->met.coherence_ns;
	u64 b0 = sim->core_bytes_in[0];

	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 100 + 40);
	assert_int_equal(sim->core_bytes_in[0] - b0, 7 * 64);
	assert_int_equal(unix_recv(sim, &us, w, 100, &blocked), 100);
	c0 = sim->met.coherence_ns;
	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 2 + 1);
	unix_stream_free(&us);

	unix_stream_init(&us);
	us.sender_frees = true;
	on_cpu(0);
	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	on_cpu(1);
	assert_int_equal(unix_recv(sim, &us, r, 100, &blocked), 100);
	on_cpu(0);
	c0 = sim->met.coherence_ns;
	assert_int_equal(unix_send(sim, &us, w, 100, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 40);
	unix_stream_free(&us);
}

/*
 * A write pays for the lines it writes that another CPU wrote last
 * (fs/pipe.c, v5.5-v6.12). CPU 0 writes 100 bytes into an empty pipe: a
 * new slot whose pipe_buffer line no CPU has written (free), and the
 * lock line, never touched, from memory (150); it found the pipe empty,
 * so after the unlock it wakes rd_wait under rd_wait.lock, on the lock's
 * line it holds (a hit, 1). CPU 1's 100 bytes then
 * merge into that page: the lock line (40 ns), the pipe_buffer line it
 * loads (40) and the line holding bytes 64-127, which CPU 0's copy wrote
 * up to byte 99 (40): 120 ns. A third write on CPU 1 starts at byte 200,
 * inside a line its own last write left: 1 ns each for the three
 * lines. With 16 pages filled
 * by 4096-byte writes on CPU 0 and the first one read on CPU 1, the next
 * page-sized write on CPU 0 takes the slot CPU 1's read released: its
 * pipe_buffer line comes back from CPU 1 (40) with the lock line (40),
 * and its page's lines are not charged (none held by another CPU in the
 * model: a page starts a slot's data afresh).
 */
static void test_pipe_write_lines(void **state)
{
	(void)state;
	struct pipe pp;
	struct task_struct *w = running(0), *r = running(1);
	bool blocked;
	u64 c0;

	msg_totals_reset();
	pipe_init(&pp);
	on_cpu(0);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 150 + 1);
	on_cpu(1);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
	assert_int_equal(pp.head - pp.tail, 1);
	assert_int_equal(sim->met.coherence_ns - c0, 40 + 40 + 40);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_write(sim, &pp, w, 100, false, &blocked), 100);
	assert_int_equal(sim->met.coherence_ns - c0, 1 + 1 + 1);

	msg_totals_reset();
	pipe_init(&pp);
	on_cpu(0);
	for (int i = 0; i < PIPE_DEF_BUFFERS; i++)
		assert_int_equal(pipe_write(sim, &pp, w, 4096, false, &blocked), 4096);
	on_cpu(1);
	assert_int_equal(pipe_read(sim, &pp, r, 4096, false, &blocked), 4096);
	on_cpu(0);
	c0 = sim->met.coherence_ns;
	assert_int_equal(pipe_write(sim, &pp, w, 4096, false, &blocked), 4096);
	assert_false(blocked);
	assert_int_equal(sim->met.coherence_ns - c0, 40 + 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_capacity),
		cmocka_unit_test(test_pipe_reader_wakeup),
		cmocka_unit_test(test_pipe_writer_wakeup),
		cmocka_unit_test(test_pipe_writer_wakeup_before_v6_14),
		cmocka_unit_test(test_pipe_woken_writer_new_page),
		cmocka_unit_test(test_unix_wmem),
		cmocka_unit_test(test_msg_cache_levels),
		cmocka_unit_test(test_msg_receive_lines),
		cmocka_unit_test(test_pipe_write_lines),
		cmocka_unit_test(test_unix_send_lines),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
