/*
 * cmd_calibrate.c - `wakesim calibrate`: measure this machine with real
 * threads (calib/measure.c) and write a cost profile for `host`
 * (docs/costs.md, "Calibrated profiles"; use it with --cost-profile).
 *
 * What is measured and what it sets:
 *   cache-line ping-pong, one CPU pair per relation found  -> c2c_ns
 *   getppid(): a way in and a way out                     -> syscall_entry_ns
 *                                        (half), and the baseline below
 *   a dependent load chain through 4 x L2 (at most half
 *   the LLC), pinned to CPU 0; only with both sizes known -> llc_hit_ns
 *   one thread's pipe write + read                        -> pipe_write_ns,
 *                                        pipe_read_ns, divided as 64 writes
 *                                        then 64 reads, timed apart, divide
 *                                        theirs
 *   sched_yield() between two threads on one CPU, minus
 *   the syscall                                           -> context_switch_ns
 *   pipe ping-pong on one CPU: 2 x (switch + write + read
 *   + wake-up)                                            -> ttwu_ns
 *   the same between two processes: + 2 address spaces   -> mm_switch_ns
 *   one thread's AF_UNIX send + recv                      -> unix_send_ns,
 *                                        unix_recv_ns (split the same way)
 *   the pipe ping-pong on one CPU again over loopback TCP
 *   (TCP_NODELAY): half the difference is what a send +
 *   recv costs beyond a pipe write + read                 -> tcp_send_ns,
 *                                        tcp_recv_ns (split 2600:1900),
 *                                        tcp_rx_softirq_ns (1330 of 2600),
 *                                        tcp_send_tail_ns (0.25 of the
 *                                        send but its two edges)
 *   the same over UDP                                     -> udp_send_ns,
 *                                        udp_recv_ns (split 2000:1500),
 *                                        udp_rx_softirq_ns (740 of 2000),
 *                                        udp_send_tail_ns (0.27 of it)
 *   pipe ping-pong across CPUs (the wakee polls briefly)  -> poll_wake_ns
 *   the waker's write() in the wake-up below, minus the
 *   write, ttwu_ns and select_ns                          -> ipi_send_ns
 *   the same after 10, 20, 50 ... 1000 us of idle, until
 *   two in a row cost over halfway to the 2-ms one (a
 *   host that halt-polls)                                 -> halt_poll_us,
 *                                        halt_poll_exit_latency_us,
 *                                        halt_poll_ipi_send_ns (the
 *                                        10-, 20- and 50-us ones' median
 *                                        latency and write, as above)
 *   a pipe wake-up of a CPU idle for 2 ms                 -> the exit latency
 *                                        of the machine's non-polling idle
 *                                        states (what is left after the other
 *                                        costs of that path and the IPI; for
 *                                        an MWAIT state, poll_wake_ns instead
 *                                        of the IPI)
 * Each cross-CPU residual then loses what the model's own line transfers
 * add to the probe's path (calib_net.h): the real probe already paid them.
 * Other costs keep costs/default.json's values.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "args.h"
#include "calib_net.h"
#include "calib/measure.h"
#include "commands.h"
#include "cost_keys.h"

static const char calibrate_usage[] =
	"Usage: wakesim calibrate [--quick] [-o FILE]\n"
	"Measures this machine (cache-line transfers between CPU pairs, syscalls,\n"
	"pipes, loopback sockets, context switches, a thread's creation and exit,\n"
	"wake-ups of busy and idle CPUs)\n"
	"with real threads and writes a cost profile for `host` (JSON; stdout\n"
	"without -o). Use it as\n"
	"  wakesim run --machine host --cost-profile FILE -- WORKLOAD\n"
	"Takes about a minute (--quick: a tenth of the iterations, about 6 s; noisier).\n"
	"Only what is measured is written; the rest comes from costs/default.json,\n"
	"and the profile's \"sources\" name it (not_measured, idle_states).\n";

static const char *const c2c_names[C2C_NR] = { "local", "smt", "cluster", "llc", "node",
					       "package", "remote" };

/*
 * What this profile does not set, named, so a reader knows those figures
 * are costs/default.json's and not this machine's: every ns cost and c2c
 * class missing from costs, and the percentages calibrate never measures.
 */
static json_object *not_measured(json_object *costs)
{
	char buf[1024] = "";
	size_t off = 0;
	json_object *c2c = json_object_object_get(costs, "c2c_ns");

#define ADD(...)                                                                        \
	do {                                                                            \
		if (off < sizeof(buf))                                                  \
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, __VA_ARGS__); \
	} while (0)
	ADD("taken from profile default (costs/default.json), not measured here:");
	for (int cls = 0; cls < C2C_NR; cls++)
		if (!json_object_object_get(c2c, c2c_names[cls]))
			ADD(" c2c_ns.%s", c2c_names[cls]);
	for (int i = 0; i < nr_cost_ns_fields; i++)
		if (!json_object_object_get(costs, cost_ns_fields[i].name))
			ADD(" %s", cost_ns_fields[i].name);
	ADD(" smt_speed_pct cold_mlp jitter_pct_x10");
#undef ADD
	return json_object_new_string(buf);
}

static u64 clamp_ns(double v, u64 lo)
{
	return v < (double)lo ? lo : (u64)(v + 0.5);
}

static json_object *num(double v)
{
	return json_object_new_int64((int64_t)(v + 0.5));
}

/*
 * The writer's part of a message's write + read: w / (w + r) from the
 * batched measurement (calib_pipe_split()), or the profile's own split,
 * dw / (dw + dr), when either figure is missing.
 */
static double writer_share(double w, double r, u64 dw, u64 dr)
{
	if (w > 0 && r > 0)
		return w / (w + r);
	return (double)dw / (double)(dw + dr);
}

/*
 * A loopback send's part after its wake-up, ns, as share of its work
 * between its way in and its way out: tools/real/syscall-split.sh on
 * this project's guest gave 0.25 (TCP) and 0.27 (UDP) (docs/costs.md).
 */
static u64 send_tail_ns(const struct costs *k, u64 send, double share)
{
	double work = (double)send - 2.0 * (double)costs_syscall_edge(k, send);

	return clamp_ns(work > 0 ? work * share : 0, 0);
}

/* The cross-CPU probes' figures, ns (-1 or 0: not measured). */
struct xcpu {
	double wake, wake_write;	/* a 2 ms-idle CPU woken: latency, the waker's write */
	double rtt2;			/* pipe round trip across two CPUs */
	struct calib_halt_poll hp;	/* short halts (hp.window_us 0: no polling host) */
	u64 poll_max_us;		/* the host's adaptive window's maximum, or 0 */
	double base;			/* the switch, the write but its way out, the read
					 * but its way in: the path's one-CPU costs */
};

/*
 * The cross-CPU costs from the probes, into *k (ipi_send_ns, poll_wake_ns)
 * and m's idle states (exits raised from what the machine gave, the
 * host's halt polling): each is what its probe's latency leaves after the
 * costs already known on its path, less net ns, the model's own line
 * transfers on half a round trip (calib_net.h), taken off the wakee's
 * side first (the exit) and the rest off the waker's (the send).
 */
static void cross_cpu_costs(struct machine *m, struct costs *k, const struct xcpu *x, double net)
{
	double base = x->base;

	/*
	 * The waker's write() that wakes a reader on an idle CPU costs the
	 * write, the wake-up and the selection, and sending the IPI: what
	 * remains is the send (a VM exit in a guest, tens of ns on bare metal)
	 * and the transfers of the lines the write moves.
	 */
	double send = -1;

	if (x->wake_write > 0) {
		send = x->wake_write - (double)(k->pipe_write_ns + k->ttwu_ns + k->select_ns);
		k->ipi_send_ns = clamp_ns(send, 10);
	}
	/* Across CPUs the wakee polls a while before halting: a poll wake-up. */
	if (x->rtt2 > 0) {
		double poll = x->rtt2 / 2 - base - (double)(k->ttwu_ns + k->select_ns + k->ipi_send_ns);

		calib_net_path(net, &poll, NULL, 0);
		k->poll_wake_ns = clamp_ns(poll, 50);
	}
	/*
	 * A vCPU the host still polls costs its waker less to send to: its
	 * VM exit need not wake the vCPU's thread. Measured the same way in
	 * the 10-us idle; unset (the IPI as above) without a polling host.
	 */
	double poll_send = (double)k->ipi_send_ns;
	bool poll_send_set = x->hp.window_us && x->hp.short_write_ns > 0;

	if (poll_send_set)
		poll_send = (double)clamp_ns(x->hp.short_write_ns -
					     (double)(k->pipe_write_ns + k->ttwu_ns + k->select_ns), 10);
	/* Noise may invert the two: never dearer than the send it undercuts. */
	if (poll_send > (double)k->ipi_send_ns)
		poll_send = (double)k->ipi_send_ns;
	if (!(x->wake > 0))
		return;
	/* What a 2 ms-idle CPU adds beyond the IPI is its idle state's exit. */
	double path = base + (double)(k->ttwu_ns + k->select_ns + k->ipi_latency_ns);
	double exit = x->wake - path - (double)k->ipi_send_ns;
	double poll_exit = x->hp.short_ns - path - poll_send;
	/*
	 * An MWAIT state's wake-up is a flag write, no IPI (set_nr_if_polling()):
	 * its path has poll_wake_ns where a halt's has the IPI's latency and send.
	 */
	double mwait_exit = x->wake - (base + (double)(k->ttwu_ns + k->select_ns + k->poll_wake_ns));

	if (send > 0) {
		calib_net_path(net, &exit, &send, 10);
		k->ipi_send_ns = clamp_ns(send, 10);
	} else {
		calib_net_path(net, &exit, NULL, 0);
	}
	calib_net_path(net, &mwait_exit, NULL, 0);
	calib_net_path(net, &poll_exit, &poll_send, 10);
	/* The long path's send may have lost more: never dearer than it. */
	if (poll_send > (double)k->ipi_send_ns)
		poll_send = (double)k->ipi_send_ns;
	for (int s = 0; s < m->nr_idle_states; s++) {
		struct idle_state *st = &m->idle[s];
		double e = st->mwait ? mwait_exit : exit;

		if (st->polling)
			continue;
		if (e > (double)st->exit_latency_ns)
			st->exit_latency_ns = clamp_ns(e, 0);
		if (st->target_residency_ns < st->exit_latency_ns)
			st->target_residency_ns = st->exit_latency_ns;
		/* A halt the host polls through: what a short one costs. */
		if (x->hp.window_us && !st->mwait) {
			st->halt_poll_ns = (u64)x->hp.window_us * 1000;
			st->halt_poll_max_ns = x->poll_max_us * 1000;
			if (st->halt_poll_max_ns && st->halt_poll_max_ns < st->halt_poll_ns)
				st->halt_poll_max_ns = st->halt_poll_ns;
			st->halt_poll_ipi_send_ns = clamp_ns(poll_send, 10);
			st->halt_poll_send_set = poll_send_set;
			st->halt_poll_exit_ns = clamp_ns(poll_exit, 0);
			if (st->halt_poll_exit_ns > st->exit_latency_ns)
				st->halt_poll_exit_ns = st->exit_latency_ns;
		}
	}
	/*
	 * An MWAIT state's figure can come out above a deeper halt's
	 * (its path is shorter by the IPI): cpuidle lists states by
	 * depth, so a deeper one is raised to the shallower one's.
	 */
	for (int s = 1; s < m->nr_idle_states; s++) {
		struct idle_state *st = &m->idle[s], *up = &m->idle[s - 1];

		if (st->exit_latency_ns < up->exit_latency_ns)
			st->exit_latency_ns = up->exit_latency_ns;
		if (st->target_residency_ns < up->target_residency_ns)
			st->target_residency_ns = up->target_residency_ns;
	}
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quick", no_argument, NULL, 'q' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },  { NULL, 0, NULL, 0 },
	};
	struct calib_opts co = { 0 };
	const char *output = NULL;
	struct machine m;
	char err[512];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			co.quick = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(calibrate_usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "wakesim calibrate: option %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "wakesim calibrate: unknown option \"%s\"\n%s", argv[optind - 1],
				calibrate_usage);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "wakesim calibrate: unexpected argument \"%s\"\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (check_output_path("calibrate", "-o", output))
		return EXIT_USAGE;
	if (machine_load("host", &m, err, sizeof(err))) {
		fprintf(stderr, "wakesim calibrate: %s\n", err);
		return EXIT_USAGE;
	}

	struct costs k = m.costs;
	bool measured_c2c[C2C_NR] = { false };
	json_object *raw = json_object_new_object();
	int n = m.topo.nr_cpus, other = n > 1 ? 1 : -1;

	/* One partner of CPU 0 per relation: the nearest first. */
	for (int cls = C2C_SMT; cls < C2C_NR; cls++)
		for (int b = 1; b < n; b++)
			if ((int)machine_c2c_class(&m, 0, b) == cls) {
				double ns = calib_c2c_ns(0, b, &co);
				char key[48];

				snprintf(key, sizeof(key), "c2c_%s_cpu0_cpu%d_ns", c2c_names[cls], b);
				json_object_object_add(raw, key, num(ns));
				if (ns > 0) {
					k.c2c_ns[cls] = clamp_ns(ns, 1);
					measured_c2c[cls] = true;
				}
				break;
			}
	/*
	 * Four L2s of lines in a cycle leave most loads missing the L2; half
	 * an LLC or less keeps them hitting it, with the cycle's pages inside
	 * a second-level TLB (1 MiB L2: 4 MiB, 1,024 pages).
	 */
	double chase = -1;
	unsigned long chase_bytes = (unsigned long)(4 * m.l2_bytes);

	if (chase_bytes > m.llc_bytes / 2)
		chase_bytes = (unsigned long)(m.llc_bytes / 2);
	if (m.l2_bytes && chase_bytes > 2 * m.l2_bytes)
		chase = calib_chase_ns(0, chase_bytes, &co);
	if (chase > 0) {
		json_object_object_add(raw, "chase_bytes", json_object_new_int64((int64_t)chase_bytes));
		json_object_object_add(raw, "chase_ns", num(chase));
		k.llc_hit_ns = clamp_ns(chase, 1);
	}
	double sys = calib_syscall_ns(&co), prw = calib_pipe_rw_ns(&co);
	double yield = calib_yield_switch_ns(0, &co), rtt1 = calib_pipe_rtt_ns(0, 0, &co);
	double rtt2 = other > 0 ? calib_pipe_rtt_ns(0, other, &co) : -1;
	double urw = calib_unix_rw_ns(&co), rttp = calib_pipe_rtt_proc_ns(0, &co);
	double pw = -1, pr = -1, uw = -1, ur = -1;

	if (calib_pipe_split(&co, &pw, &pr))
		pw = pr = -1;
	if (calib_unix_split(&co, &uw, &ur))
		uw = ur = -1;
	double rttt = calib_tcp_rtt_ns(0, &co), rttu = calib_udp_rtt_ns(0, &co);
	double thr_create = -1, thr_exit = -1, futex = calib_futex_ns(&co);

	if (calib_thread_ns(0, &co, &thr_create, &thr_exit))
		thr_create = thr_exit = -1;
	double wake = -1, wake_write = -1;

	struct calib_halt_poll hp = { .window_us = 0 };

	if (other > 0 && calib_idle_wake(0, other, 2000, &co, &wake, &wake_write))
		wake = wake_write = -1;
	if (wake > 0 && calib_halt_poll(0, other, wake, &co, &hp))
		hp.window_us = 0;
	/*
	 * A polling host that adapts its window (KVM's kvm_vcpu_halt()) grows
	 * it past 100-us halts and never past 250-us ones when its maximum is
	 * KVM's x86 default, 200 us (KVM_HALT_POLL_NS_DEFAULT): the halt it
	 * weighs includes the slow wake-up that ends it, so a 250-us halt
	 * outlasts 200. One that grows past 250 too gets 250, a floor.
	 */
	double adapt100 = -1, adapt250 = -1;
	u64 poll_max_us = 0;

	if (hp.window_us && !calib_halt_poll_adapt(0, other, 100, &adapt100) &&
	    !calib_halt_poll_adapt(0, other, 250, &adapt250)) {
		double mid = (hp.short_ns + wake) / 2;

		json_object_object_add(raw, "halt_adapt_100us_wake_ns", num(adapt100));
		json_object_object_add(raw, "halt_adapt_250us_wake_ns", num(adapt250));
		if (adapt100 < mid)
			poll_max_us = adapt250 < mid ? 250 : 200;
	}
	if (hp.window_us) {
		json_object_object_add(raw, "idle_short_wake_ns", num(hp.short_ns));
		json_object_object_add(raw, "idle_short_wake_write_ns", num(hp.short_write_ns));
	}
	for (int i = 0; i < CALIB_HALT_POLL_STEPS; i++)
		if (hp.wake_ns[i] > 0) {
			char key[40];

			snprintf(key, sizeof(key), "idle_%dus_wake_ns", hp.idle_us[i]);
			json_object_object_add(raw, key, num(hp.wake_ns[i]));
		}

	double irq_per_s = 0, irq_mean = 0;

	if (calib_irq(0, &co, &irq_per_s, &irq_mean))
		irq_per_s = irq_mean = -1;
	json_object_object_add(raw, "irq_per_s", num(irq_per_s));
	json_object_object_add(raw, "irq_mean_ns", num(irq_mean));
	json_object_object_add(raw, "syscall_ns", num(sys));
	json_object_object_add(raw, "pipe_write_read_ns", num(prw));
	json_object_object_add(raw, "yield_switch_ns", num(yield));
	json_object_object_add(raw, "pipe_rtt_one_cpu_ns", num(rtt1));
	json_object_object_add(raw, "pipe_rtt_two_cpus_ns", num(rtt2));
	json_object_object_add(raw, "unix_send_recv_ns", num(urw));
	json_object_object_add(raw, "pipe_batch_write_ns", num(pw));
	json_object_object_add(raw, "pipe_batch_read_ns", num(pr));
	json_object_object_add(raw, "unix_batch_send_ns", num(uw));
	json_object_object_add(raw, "unix_batch_recv_ns", num(ur));
	json_object_object_add(raw, "tcp_rtt_one_cpu_ns", num(rttt));
	json_object_object_add(raw, "udp_rtt_one_cpu_ns", num(rttu));
	json_object_object_add(raw, "pipe_rtt_one_cpu_processes_ns", num(rttp));
	json_object_object_add(raw, "futex_wake_ns", num(futex));
	json_object_object_add(raw, "thread_create_ns", num(thr_create));
	json_object_object_add(raw, "thread_exit_to_join_ns", num(thr_exit));
	json_object_object_add(raw, "idle_2ms_wake_ns", num(wake));
	json_object_object_add(raw, "idle_2ms_wake_write_ns", num(wake_write));
	if (sys < 0 || prw < 0 || yield < 0 || rtt1 < 0) {
		fprintf(stderr, "wakesim calibrate: a measurement failed (pinning or pipes "
				"unavailable)\n");
		json_object_put(raw);
		machine_free(&m);
		return 1;
	}
	/*
	 * Each loop above ran a mean over many calls on one running CPU, so
	 * its figure holds the interruptions' share of that CPU's time; the
	 * model adds that share back as interruptions (kern/irqtime.c), so
	 * the calls' own costs are the means without it. The wake-up
	 * latencies are medians of single wake-ups, which one rarely meets.
	 */
	if (irq_per_s > 0 && irq_mean > 0) {
		k.irq_ns = clamp_ns(irq_mean, 1);
		k.irq_interval_ns = clamp_ns(1e9 / irq_per_s, 2 * k.irq_ns + 1);
		/* One gap in a 100-ms repetition: at most what a cost file may give. */
		costs_fit_irq(&k);
		double keep = 1 - (double)k.irq_ns / (double)k.irq_interval_ns;
		double *loops[] = { &sys, &prw, &yield, &rtt1, &urw, &rttp, &rttt, &rttu, &futex };

		for (size_t i = 0; i < sizeof(loops) / sizeof(loops[0]); i++)
			if (*loops[i] > 0)
				*loops[i] *= keep;
	}
	/*
	 * The round trip's total, divided as the batched writes and reads
	 * divide theirs; the defaults' split if those failed.
	 */
	k.pipe_write_ns = clamp_ns(prw * writer_share(pw, pr, k.pipe_write_ns, k.pipe_read_ns), 20);
	k.pipe_read_ns = clamp_ns(prw - (double)k.pipe_write_ns, 20);
	k.context_switch_ns = clamp_ns(yield - sys, 100);
	/* getppid() is a way in and a way out and next to no work: half each [R]. */
	k.syscall_entry_ns = clamp_ns(sys / 2, 0);
	double base = (double)(k.context_switch_ns + k.pipe_write_ns + k.pipe_read_ns);

	k.ttwu_ns = clamp_ns(rtt1 / 2 - base, 50);
	if (urw > 0) {
		k.unix_send_ns = clamp_ns(urw * writer_share(uw, ur, k.unix_send_ns, k.unix_recv_ns), 20);
		k.unix_recv_ns = clamp_ns(urw - (double)k.unix_send_ns, 20);
	}
	/*
	 * Loopback sockets: the send runs the receive side too, in its
	 * softirq, as the model's tcp_send_ns/udp_send_ns do. Measured as a
	 * ping-pong, not one thread's send then receive, because there a
	 * TCP receive that empties the queue sends a window update, an ACK
	 * segment a request/response flow does not pay (its ACKs ride on
	 * the next data). Split as costs/default.json splits them.
	 */
	double trw = rttt > 0 ? (double)(k.pipe_write_ns + k.pipe_read_ns) + (rttt - rtt1) / 2 : -1;
	double udrw = rttu > 0 ? (double)(k.pipe_write_ns + k.pipe_read_ns) + (rttu - rtt1) / 2 : -1;

	if (trw > 0) {
		k.tcp_send_ns = clamp_ns(trw * 2600 / 4500, 20);
		k.tcp_recv_ns = clamp_ns(trw - (double)k.tcp_send_ns, 20);
		/* The send's NET_RX softirq part keeps its share (docs/costs.md). */
		k.tcp_rx_softirq_ns = clamp_ns((double)k.tcp_send_ns * 1330 / 2600, 0);
		k.tcp_send_tail_ns = send_tail_ns(&k, k.tcp_send_ns, 0.25);
	}
	if (udrw > 0) {
		k.udp_send_ns = clamp_ns(udrw * 2000 / 3500, 20);
		k.udp_recv_ns = clamp_ns(udrw - (double)k.udp_send_ns, 20);
		k.udp_rx_softirq_ns = clamp_ns((double)k.udp_send_ns * 740 / 2000, 0);
		k.udp_send_tail_ns = send_tail_ns(&k, k.udp_send_ns, 0.27);
	}
	if (rttp > 0)
		k.mm_switch_ns = clamp_ns((rttp - rtt1) / 2, 0);
	/* A FUTEX_WAIT or FUTEX_WAKE's own work, its wake-ups aside. */
	if (futex > 0)
		k.futex_ns = clamp_ns(futex, 20);
	/*
	 * pthread_create() is the creator's clone_ns. From the child's last
	 * instant to the join's return the child exits (thread_exit_ns), its
	 * exit wakes the joiner on the same CPU and switches to it.
	 */
	if (thr_create > 0)
		k.clone_ns = clamp_ns(thr_create, 100);
	if (thr_exit > 0)
		k.thread_exit_ns = clamp_ns(thr_exit - (double)(k.context_switch_ns + k.ttwu_ns), 100);
	/*
	 * The cross-CPU residuals, then again with the model's own line
	 * transfers on the probes' path taken off them (calib_net.h), found by
	 * simulating the ping-pong with the first pass's profile. Across CPUs
	 * a latency holds the write but its way out, the switch and the read
	 * but its way in: the reader was asleep inside its read (chan.h).
	 */
	struct xcpu x = { .wake = wake, .wake_write = wake_write, .rtt2 = rtt2, .hp = hp,
			  .poll_max_us = poll_max_us,
			  .base = (double)(k.context_switch_ns + k.pipe_write_ns + k.pipe_read_ns) -
				  (double)(costs_syscall_edge(&k, k.pipe_write_ns) +
					   costs_syscall_edge(&k, k.pipe_read_ns)) };
	struct idle_state given[WS_MAX_IDLE_STATES];
	double net = 0;

	memcpy(given, m.idle, sizeof(given));
	cross_cpu_costs(&m, &k, &x, 0);
	if (rtt2 > 0) {
		struct machine sim_m = m;
		char why[300];

		sim_m.costs = k;
		net = calib_model_line_ns(&sim_m, 0, other, co.quick ? 2000 : 20000, why, sizeof(why));
		if (net < 0) {
			fprintf(stderr, "wakesim calibrate: %s\n", why);
			net = 0;
		}
		memcpy(m.idle, given, sizeof(given));
		cross_cpu_costs(&m, &k, &x, net);
	}

	/* Where the states came from: a reader's assumption stays visible. */
	char idle_src[1024];

	snprintf(idle_src, sizeof(idle_src), "%s; exit latencies of non-polling states: %s%s%s",
		 m.assumed[ASSUMED_IDLE][0] ? m.assumed[ASSUMED_IDLE]
					    : "names, exit latencies and target residencies from /sys",
		 wake > 0 ? "raised to what a 2 ms-idle CPU's wake-up measured beyond the other "
			    "costs (idle_2ms_wake_ns), if higher"
			  : "not measured (one CPU)",
		 hp.window_us ? "; halts shorter than halt_poll_us cost what short ones measured "
				"(idle_short_wake_ns, the median of the 10, 20 and 50 us ones): a host "
				"that halt-polls, and an IPI to one costs its sender "
				"halt_poll_ipi_send_ns (idle_short_wake_write_ns less the "
				"write, ttwu_ns and select_ns)"
			      : "",
		 poll_max_us ? "; the host grows a vCPU's window past 100-us halts "
			       "(halt_adapt_100us_wake_ns, short) and not past 250-us ones "
			       "(halt_adapt_250us_wake_ns): KVM's adaptive halt polling, "
			       "halt_poll_max_us its maximum (x86's default 200 us, or 250 "
			       "as a floor when 250-us halts are polled too)"
			     : "");

	struct utsname u;
	char desc[300];
	json_object *root = json_object_new_object(), *states = json_object_new_array();
	json_object *costs = json_object_new_object(), *c2c = json_object_new_object();
	json_object *src = json_object_new_object();

	uname(&u);
	snprintf(desc, sizeof(desc), "measured by wakesim calibrate%s on this machine: %d CPUs, %s %s",
		 co.quick ? " --quick" : "", n, u.sysname, u.release);
	json_object_object_add(root, "name", json_object_new_string("host-calibrated"));
	json_object_object_add(root, "description", json_object_new_string(desc));
	for (int s = 0; s < m.nr_idle_states; s++) {
		json_object *st = json_object_new_object();

		json_object_object_add(st, "name", json_object_new_string(m.idle[s].name));
		json_object_object_add(st, "exit_latency_us",
				       json_object_new_int64((int64_t)((m.idle[s].exit_latency_ns + 500) / 1000)));
		json_object_object_add(st, "target_residency_us",
				       json_object_new_int64((int64_t)((m.idle[s].target_residency_ns + 500) / 1000)));
		if (m.idle[s].polling)
			json_object_object_add(st, "polling", json_object_new_boolean(1));
		if (m.idle[s].mwait)
			json_object_object_add(st, "mwait", json_object_new_boolean(1));
		if (m.idle[s].halt_poll_ns) {
			json_object_object_add(st, "halt_poll_us",
					       json_object_new_int64((int64_t)(m.idle[s].halt_poll_ns / 1000)));
			u64 poll_exit_us = (m.idle[s].halt_poll_exit_ns + 500) / 1000;

			json_object_object_add(st, "halt_poll_exit_latency_us",
					       json_object_new_int64((int64_t)poll_exit_us));
			if (m.idle[s].halt_poll_send_set)
				json_object_object_add(st, "halt_poll_ipi_send_ns",
						       json_object_new_int64((int64_t)m.idle[s].halt_poll_ipi_send_ns));
			if (m.idle[s].halt_poll_max_ns)
				json_object_object_add(st, "halt_poll_max_us",
						       json_object_new_int64((int64_t)(m.idle[s].halt_poll_max_ns / 1000)));
		}
		json_object_array_add(states, st);
	}
	json_object_object_add(root, "idle_states", states);
	/* Only what was measured: the rest stays costs/default.json's. */
	for (int cls = 0; cls < C2C_NR; cls++)
		if (measured_c2c[cls])
			json_object_object_add(c2c, c2c_names[cls],
					       json_object_new_int64((int64_t)k.c2c_ns[cls]));
	json_object_object_add(costs, "c2c_ns", c2c);
#define PUT(f) json_object_object_add(costs, #f, json_object_new_int64((int64_t)k.f))
	PUT(context_switch_ns);
	PUT(syscall_entry_ns);
	PUT(pipe_write_ns);
	PUT(pipe_read_ns);
	PUT(ttwu_ns);
	if (rttp > 0)
		PUT(mm_switch_ns);
	if (futex > 0)
		PUT(futex_ns);
	if (thr_create > 0)
		PUT(clone_ns);
	if (thr_exit > 0)
		PUT(thread_exit_ns);
	if (urw > 0) {
		PUT(unix_send_ns);
		PUT(unix_recv_ns);
	}
	if (trw > 0) {
		PUT(tcp_send_ns);
		PUT(tcp_recv_ns);
		PUT(tcp_rx_softirq_ns);
		PUT(tcp_send_tail_ns);
	}
	if (udrw > 0) {
		PUT(udp_send_ns);
		PUT(udp_recv_ns);
		PUT(udp_rx_softirq_ns);
		PUT(udp_send_tail_ns);
	}
	if (chase > 0)
		PUT(llc_hit_ns);
	if (rtt2 > 0)
		PUT(poll_wake_ns);
	if (wake_write > 0)
		PUT(ipi_send_ns);
	if (k.irq_interval_ns) {
		PUT(irq_ns);
		PUT(irq_interval_ns);
	}
#undef PUT
	json_object_object_add(root, "costs", costs);
	json_object_object_add(src, "method",
			       json_object_new_string("src/cli/cmd_calibrate.c: medians of 5 repetitions; "
						      "pipe write/read and AF_UNIX send/recv split as their batches "
						      "(pipe_batch_*, unix_batch_*) split, loopback "
						      "TCP 2600:1900 and UDP 2000:1500 as in costs/default.json"));
	json_object_object_add(src, "measured", raw);
	json_object_object_add(src, "idle_states", json_object_new_string(idle_src));
	if (rtt2 > 0) {
		char why[400];

		json_object *mlt = json_object_new_object();

		snprintf(why, sizeof(why), "ns_per_half_trip taken off each cross-CPU probe's "
			 "residual, its exit's first, then its send's: what the model's line "
			 "transfers add to half a round trip of perf bench sched pipe -T on CPUs 0 "
			 "and %d with this profile, which the probes' latencies already hold "
			 "(src/cli/calib_net.h)", other);
		json_object_object_add(mlt, "ns_per_half_trip", num(net));
		json_object_object_add(mlt, "what", json_object_new_string(why));
		json_object_object_add(src, "model_line_transfers", mlt);
	}
	json_object_object_add(src, "not_measured", not_measured(costs));
	json_object_object_add(root, "sources", src);

	struct out_buf ob;
	int ret = 1;

	if (out_open(&ob) == 0) {
		fprintf(ob.f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
									JSON_C_TO_STRING_SPACED |
									JSON_C_TO_STRING_NOSLASHESCAPE));
		ret = out_commit(&ob, output) ? 1 : 0;
	} else {
		fprintf(stderr, "wakesim: out of memory\n");
	}
	if (output && !ret)
		fprintf(stderr, "wakesim calibrate: wrote %s (c2c %llu ns, switch %llu ns, pipe %llu+%llu "
				"ns, ttwu %llu ns, idle wake-up %.0f ns)\n", output,
			(unsigned long long)k.c2c_ns[other > 0 ? machine_c2c_class(&m, 0, 1) : 0],
			(unsigned long long)k.context_switch_ns, (unsigned long long)k.pipe_write_ns,
			(unsigned long long)k.pipe_read_ns, (unsigned long long)k.ttwu_ns, wake);
	json_object_put(root);
	machine_free(&m);
	return ret;
}
