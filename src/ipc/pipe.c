/*
 * pipe.c - pipe_write() and pipe_read() of fs/pipe.c (v6.12), in our code.
 * Capacity is per slot, as in the kernel: there is no "free bytes" test.
 */
#include "pipe.h"

void pipe_init(struct pipe *pp)
{
	*pp = (struct pipe){ 0 };
	init_waitqueue_head(&pp->rd_wait);
	init_waitqueue_head(&pp->wr_wait);
	cacheline_init(&pp->line);
	lock_section_init(&pp->mutex);
	/* rd_wait sits in pipe->mutex's line (struct pipe_inode_info, v5.5-v6.12);
	 * wr_wait straddles it and the next, priced as that one line too. */
	pp->rd_wait.line = pp->wr_wait.line = &pp->line;
	for (int i = 0; i < PIPE_DEF_BUFFERS; i++)
		pp->at[i].cpu = pp->buf_at[i].cpu = -1;
}

static inline bool pipe_empty(const struct pipe *pp)
{
	return pp->head == pp->tail;
}

static inline bool pipe_full(const struct pipe *pp)
{
	return pp->head - pp->tail >= PIPE_DEF_BUFFERS;
}

/*
 * mutex_lock(&pipe->mutex): its owner never sleeps while it holds it in
 * these paths, so a contender spins on it (mutex_optimistic_spin()) until
 * the owner's section ends; then the mutex and the ring indices' line.
 */
static void pipe_lock(struct sim *sim, struct pipe *pp)
{
	sim->met.pipe_mutex_wait_ns += lock_section_acquire(sim, &pp->mutex, &pp->line);
}

static void pipe_unlock(struct sim *sim, struct pipe *pp)
{
	lock_section_release(sim, &pp->mutex, 0);
}

/*
 * head++ or tail++ under rd_wait.lock, inside the mutex, for watch
 * queues' notifications: spin_lock_irq() in pipe_write() and pipe_read()
 * from v5.5 to v6.6; today's pipe_update_tail() takes it only for a pipe
 * with a watch queue, and pipe_write() not at all. A wake-up of the
 * reader in flight on another CPU holds that lock, and the mutex waits
 * with it.
 */
static void ring_index_lock(struct sim *sim, struct pipe *pp)
{
	if (kernel_profile(sim->tun->kver)->pipe_ring_under_rd_wait_lock)
		wq_lock_pass(sim, &pp->rd_wait);
}

/*
 * The slot's struct pipe_buffer (fs/pipe.c, v5.5-v6.12): pipe_write()
 * reads the last slot's page, offset and len to merge, copies, then
 * stores len; for a new slot it stores page, ops, offset, len and flags
 * before the copy and len after it; pipe_read() reads it, copies, then
 * stores offset and len. A load waits for the line; a store's fetch for
 * ownership waits at the mutex's release, which drains the store buffer
 * (a locked instruction on x86). Either way one step from where the
 * line's last writer left it, and the store makes it this CPU's.
 */
static void buf_fetch(struct sim *sim, struct pipe *pp, unsigned int slot)
{
	msg_read(sim, &pp->buf_at[slot], 1, 1);
}

static void buf_store(struct sim *sim, struct pipe *pp, unsigned int slot)
{
	msg_written(sim, &pp->buf_at[slot], 0);
}

/* copy_{from,to}_user of n bytes beyond the first cache line. */
static void charge_copy(struct sim *sim, u64 n)
{
	if (n > 64)
		charge(sim, (n - 64) * sim->m->costs.copy_ns_per_kib / 1024);
}

u64 pipe_write(struct sim *sim, struct pipe *pp, struct task_struct *p, u64 len, bool slept,
	       bool *blocked)
{
	u64 done = 0;
	bool was_empty, wake_next_writer = slept;

	*blocked = false;
	if (slept && pipe_full(pp)) {
		/*
		 * wait_event_interruptible_exclusive()'s recheck, pipe_writable():
		 * a read of head and tail without the mutex; still full, the woken
		 * writer queues again at the tail of wr_wait and sleeps.
		 */
		line_read(sim, &pp->line);
		prepare_to_wait(sim, &pp->wr_wait, p, true);
		*blocked = true;
		sim->met.pipe_writer_rewaits++;
		return 0;
	}
	pipe_lock(sim, pp);
	was_empty = pipe_empty(pp);
	/*
	 * Merge into the last page when the whole chunk fits (len % PAGE != 0).
	 * pipe_write() tries it once, before its slot loop; a writer that slept
	 * for a slot is back in that loop, which always starts a new page.
	 */
	if (!slept && !was_empty && len % PIPE_PAGE_SIZE) {
		unsigned int last = (pp->head - 1) % PIPE_DEF_BUFFERS;
		u64 chunk = len < PIPE_PAGE_SIZE ? len : len % PIPE_PAGE_SIZE;

		/* pipe_write() reads buf->offset + buf->len before it tests the room. */
		buf_fetch(sim, pp, last);
		if (pp->end[last] + chunk <= PIPE_PAGE_SIZE) {
			/*
			 * copy_page_from_iter() at buf->offset + buf->len: a chunk
			 * that starts inside a line writes into the line the
			 * slot's last writer left. Its stores wait in the store
			 * buffer, which the mutex's release (a locked instruction)
			 * drains: one more step. The rest of the lines are fresh.
			 */
			if (pp->end[last] % 64)
				msg_rfo(sim, &pp->at[last], 1, 1);
			pp->end[last] += (unsigned int)chunk;
			msg_written(sim, &pp->at[last], chunk);
			buf_store(sim, pp, last);
			done += chunk;
		}
	}
	while (done < len) {
		if (pipe_full(pp)) {
			*blocked = true;
			break;
		}
		unsigned int slot = pp->head % PIPE_DEF_BUFFERS;
		u64 chunk = len - done < PIPE_PAGE_SIZE ? len - done : PIPE_PAGE_SIZE;

		ring_index_lock(sim, pp);
		buf_fetch(sim, pp, slot);
		pp->off[slot] = 0;
		pp->end[slot] = (unsigned int)chunk;
		msg_written(sim, &pp->at[slot], chunk);
		buf_store(sim, pp, slot);
		pp->head++;
		done += chunk;
	}
	pp->bytes += done;
	if (done)
		charge_copy(sim, done);
	pipe_unlock(sim, pp);
	if (*blocked) {
		/* Wake readers before sleeping, then wait for a free slot. */
		if (was_empty)
			wake_up(sim, &pp->rd_wait, 1, WF_SYNC);
		prepare_to_wait(sim, &pp->wr_wait, p, true);
		return done;
	}
	if (pipe_full(pp))
		wake_next_writer = false;
	if (was_empty || pp->poll_usage)
		wake_up(sim, &pp->rd_wait, 1, WF_SYNC);
	if (wake_next_writer)
		wake_up(sim, &pp->wr_wait, 1, WF_SYNC);
	return done;
}

u64 pipe_read(struct sim *sim, struct pipe *pp, struct task_struct *p, u64 want, bool slept,
	      bool *blocked)
{
	u64 done = 0;
	bool wake_writer = false, wake_next_reader = slept;
	bool was_full;

	*blocked = false;
	pipe_lock(sim, pp);
	was_full = pipe_full(pp);
	while (done < want && !pipe_empty(pp)) {
		unsigned int slot = pp->tail % PIPE_DEF_BUFFERS;
		u64 avail = pp->end[slot] - pp->off[slot];
		u64 chunk = want - done < avail ? want - done : avail;
		u64 off = pp->off[slot];

		/* The slot's struct pipe_buffer, then through it the data lines read. */
		buf_fetch(sim, pp, slot);
		msg_read(sim, &pp->at[slot], 1, (off + chunk + 63) / 64 - off / 64);
		buf_store(sim, pp, slot);
		pp->off[slot] += (unsigned int)chunk;
		done += chunk;
		if (pp->off[slot] == pp->end[slot]) {
			/* Releasing a slot of a full pipe is what writers wait for
			 * (v6.14's pipe_read(); the older rule is below). */
			wake_writer |= pipe_full(pp);
			ring_index_lock(sim, pp);
			pp->tail++;
		}
	}
	if (!done) {
		pipe_unlock(sim, pp);
		if (pp->closed)
			return 0; /* EOF */
		prepare_to_wait(sim, &pp->rd_wait, p, true);
		*blocked = true;
		return 0;
	}
	pp->bytes -= done;
	charge_copy(sim, done);
	pipe_unlock(sim, pp);
	if (pipe_empty(pp))
		wake_next_reader = false;
	/* pipe_read() v5.5-v6.13 (v6.12's was_full): a read that began on a
	 * full pipe wakes a writer whether or not it freed a slot. */
	if (kernel_profile(sim->tun->kver)->pipe_read_wakes_if_was_full)
		wake_writer = was_full;
	if (wake_writer)
		wake_up(sim, &pp->wr_wait, 1, WF_SYNC);
	if (wake_next_reader)
		wake_up(sim, &pp->rd_wait, 1, WF_SYNC);
	return done;
}
