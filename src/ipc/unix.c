/*
 * unix.c - AF_UNIX stream send/receive and their wake-ups.
 */
#include "unix.h"

#include <stdlib.h>

/* sizeof(struct sk_buff) and sizeof(struct skb_shared_info), 64-aligned. */
#define SKB_STRUCT_SIZE 256
#define SKB_SHINFO_SIZE 320
#define SKB_SMALL_HEAD 640	/* skb_small_head_cache object size */
/* Largest send that goes in one skb: (sndbuf >> 1) - 64. */
#define UNIX_MAX_SKB_LEN(sndbuf) (((sndbuf) >> 1) - 64)

void unix_stream_init(struct unix_stream *us)
{
	*us = (struct unix_stream){ 0 };
	us->wmem_alloc = 1;
	us->sndbuf = UNIX_SNDBUF_DEFAULT;
	init_waitqueue_head(&us->rx_wait);
	init_waitqueue_head(&us->tx_wait);
	cacheline_init(&us->line);
	us->free_at.cpu = -1;
}

void unix_stream_free(struct unix_stream *us)
{
	free(us->q);
	us->q = NULL;
}

/*
 * A head of align64(len) + shared info comes from the 640-byte small-head
 * cache when it fits, else from the power-of-two kmalloc cache above it.
 * For 100 bytes: 640 + 256 = 896 (about 238 messages per sndbuf).
 */
u64 unix_skb_truesize(u64 len)
{
	u64 head = ((len + 63) & ~(u64)63) + SKB_SHINFO_SIZE;
	u64 alloc = SKB_SMALL_HEAD;

	if (head > SKB_SMALL_HEAD) {
		alloc = 1024;
		while (alloc < head)
			alloc <<= 1;
	}
	return alloc + SKB_STRUCT_SIZE;
}

/*
 * The receive (unix_stream_read_generic(), v6.12) reads the skb's length,
 * its control block (UNIXCB: consumed, pid, fds), unlinks it (next, prev),
 * and consume_skb() reads users, destructor, sk, truesize, head and data:
 * the whole 256-byte struct, four lines. skb_release_data() reads the
 * shared info's nr_frags, frag_list and dataref, its first line. The data
 * starts the head (no headroom is reserved for AF_UNIX).
 */
u64 unix_skb_lines(u64 len)
{
	return SKB_STRUCT_SIZE / 64 + 1 + (len + 63) / 64;
}

static void lock_queue(struct sim *sim, struct unix_stream *us)
{
	line_write(sim, &us->line);
}

static void queue_skb(struct unix_stream *us, struct unix_skb skb)
{
	if (us->qcount == us->qcap) {
		int ncap = us->qcap ? 2 * us->qcap : 64;
		struct unix_skb *nq = malloc(sizeof(*nq) * (size_t)ncap);

		if (!nq)
			abort(); /* the engine cannot continue without memory */
		for (int i = 0; i < us->qcount; i++)
			nq[i] = us->q[(us->qhead + i) % us->qcap];
		free(us->q);
		us->q = nq;
		us->qcap = ncap;
		us->qhead = 0;
	}
	us->q[(us->qhead + us->qcount) % us->qcap] = skb;
	us->qcount++;
}

u64 unix_send(struct sim *sim, struct unix_stream *us, struct task_struct *p, u64 len,
	      bool *blocked)
{
	u64 sent = 0, softirq = 0;

	*blocked = false;
	while (sent < len) {
		u64 size = len - sent;

		if (size > UNIX_MAX_SKB_LEN(us->sndbuf))
			size = UNIX_MAX_SKB_LEN(us->sndbuf);
		/* sock_alloc_send_pskb(): room is checked before allocating. */
		if (us->wmem_alloc >= us->sndbuf) {
			prepare_to_wait(sim, &us->tx_wait, p, false);
			*blocked = true;
			break;
		}
		struct unix_skb skb = { size, 0, unix_skb_truesize(size), { -1, 0, 0 } };

		us->wmem_alloc += skb.truesize;
		/*
		 * __alloc_skb() zeroes the struct sk_buff up to its tail and
		 * sets up the shared info, and the copy fills the head (net/
		 * core/skbuff.c, v6.12): the lines a receive reads. The slab
		 * hands the sender objects its receivers freed (consume_skb()
		 * on their CPU, the free pointer written into the object), so
		 * the stores take the lines from where the last free left
		 * them; they wait in the store buffer, which the queue lock's
		 * atomic drains: one step. Lines the receiver only read cost
		 * their invalidation, priced as a transfer.
		 */
		if (!us->sender_frees)
			msg_rfo(sim, &us->free_at, 1, unix_skb_lines(size));
		msg_written(sim, &skb.at, unix_skb_lines(size) * 64);
		lock_queue(sim, us);
		queue_skb(us, skb);
		if (size > 64)
			charge(sim, (size - 64) * sim->m->costs.copy_ns_per_kib / 1024);
		sent += size;
		/* sock_def_readable(): wake readers if any sleep. */
		if (waitqueue_active(&us->rx_wait)) {
			u64 k0 = sim->kcost_ns;

			wake_up(sim, &us->rx_wait, 1, WF_SYNC);
			softirq += sim->kcost_ns - k0;
		}
	}
	/* Loopback: the receive side and its wake-ups ran in the NET_RX softirq. */
	if (sent && us->rx_softirq_ns)
		account_softirq(sim, sim->this_cpu, us->rx_softirq_ns + softirq);
	return sent;
}

u64 unix_recv(struct sim *sim, struct unix_stream *us, struct task_struct *p, u64 want,
	      bool *blocked)
{
	u64 done = 0;

	*blocked = false;
	lock_queue(sim, us);
	if (!us->qcount) {
		if (us->closed)
			return 0; /* EOF */
		prepare_to_wait(sim, &us->rx_wait, p, false);
		*blocked = true;
		return 0;
	}
	while (done < want && us->qcount) {
		struct unix_skb *skb = &us->q[us->qhead];
		u64 chunk = want - done < skb->len - skb->consumed ? want - done
								  : skb->len - skb->consumed;

		/* The skb, then through skb->head its shared info and data. */
		msg_read(sim, &skb->at, 2, unix_skb_lines(chunk));
		skb->consumed += chunk;
		done += chunk;
		if (us->datagram)
			skb->consumed = skb->len;
		else if (skb->consumed < skb->len)
			break;
		/* consume_skb() -> sock_wfree() -> unix_write_space(). */
		if (!us->sender_frees)
			msg_written(sim, &us->free_at, 0);
		us->wmem_alloc -= skb->truesize;
		us->qhead = (us->qhead + 1) % us->qcap;
		us->qcount--;
		if ((us->wmem_alloc << 2) <= us->sndbuf && waitqueue_active(&us->tx_wait))
			wake_up(sim, &us->tx_wait, 1, WF_SYNC);
		if (us->datagram)
			break;
	}
	if (done > 64)
		charge(sim, (done - 64) * sim->m->costs.copy_ns_per_kib / 1024);
	return done;
}
