/*
 * measure.h - microbenchmarks of this machine, run with real threads by
 * `wakesim calibrate` to fill a cost profile for `host`. The only code in
 * wakesim that reads the wall clock; it never runs inside a simulation.
 *
 * Every figure is the median over repetitions, in ns, or -1 when the
 * machine cannot measure it (too few CPUs, a failed syscall).
 */
#ifndef WS_MEASURE_H
#define WS_MEASURE_H

#include <stdbool.h>

struct calib_opts {
	bool quick;		/* fewer iterations: about a second in all */
};

/*
 * One-way cache-line transfer between CPUs a and b: two threads pinned
 * there hand a flag in one line back and forth; half the round trip.
 */
double calib_c2c_ns(int a, int b, const struct calib_opts *o);
/*
 * A load that misses the core's L2 and hits the LLC: a dependent chain
 * of loads through bytes bytes (64-byte lines in a shuffled cycle, so
 * no prefetcher follows it) on a thread pinned to cpu, ns per load.
 * Give bytes above the L2 and well inside the LLC.
 */
double calib_chase_ns(int cpu, unsigned long bytes, const struct calib_opts *o);
/* A trivial syscall (getppid), entry to exit. */
double calib_syscall_ns(const struct calib_opts *o);
/* FUTEX_WAKE on a private word nobody waits on: the syscall, the key and the hash bucket. */
double calib_futex_ns(const struct calib_opts *o);
/* write(2) of one byte to a pipe and read(2) of it back, by one thread. */
double calib_pipe_rw_ns(const struct calib_opts *o);
/* One byte written to an AF_UNIX stream socket pair and read back: the
 * unix_stream_sendmsg()/recvmsg() path send(2) and recv(2) take. */
double calib_unix_rw_ns(const struct calib_opts *o);
/*
 * How a small message's cost divides between writer and reader: one
 * thread writes 64 one-byte messages to a pipe (an AF_UNIX stream pair),
 * then reads them back, each phase timed on its own, as a writer that
 * runs ahead of its reader meets them. *write_ns and *read_ns: ns per
 * message, medians over repetitions. 0, or -1 if a call failed. The
 * split decides whether a writer and its reader sharing a CPU batch or
 * ping-pong under EEVDF (docs/costs.md, "Syscalls").
 */
int calib_pipe_split(const struct calib_opts *o, double *write_ns, double *read_ns);
int calib_unix_split(const struct calib_opts *o, double *send_ns, double *recv_ns);
/* sched_yield() between two threads pinned to cpu: one switch each. */
double calib_yield_switch_ns(int cpu, const struct calib_opts *o);
/*
 * A thread's creation and exit, one thread at a time on cpu (the child
 * inherits the pin): *create_ns, pthread_create() until it returns to
 * the creator (the clone and glibc's work), over the creations the child
 * did not run first; *exit_ns, the child's last user-space instant until
 * the creator's pthread_join() returns (glibc's teardown, the kernel's
 * exit, the wake-up of the joiner and the switch to it). Medians of single
 * threads. Returns 0, or -1 (pinning or pthread_create() failed).
 */
int calib_thread_ns(int cpu, const struct calib_opts *o, double *create_ns, double *exit_ns);
/* One-byte ping-pong over two pipes between threads: the round trip. */
double calib_pipe_rtt_ns(int cpu_a, int cpu_b, const struct calib_opts *o);
/*
 * The same ping-pong between two threads on cpu over one loopback TCP
 * connection (TCP_NODELAY, as netperf's TCP_RR) or connected UDP pair:
 * each half is a switch, a send whose softirq delivers to the receiver
 * (loopback_xmit()) and wakes it, and a receive; a request/response
 * flow's ACKs ride on the data, as they do in TCP_RR. -1 when the
 * loopback cannot be used.
 */
double calib_tcp_rtt_ns(int cpu, const struct calib_opts *o);
double calib_udp_rtt_ns(int cpu, const struct calib_opts *o);
/* The same between two processes on one CPU (address-space switches). */
double calib_pipe_rtt_proc_ns(int cpu, const struct calib_opts *o);
/*
 * A thread sleeping in read(2) on cpu_b, whose CPU has been idle for
 * idle_us, woken by a write from cpu_a: medians (ns) of the wake-up
 * latency (from just before the write to the wakee running again) and of
 * the write(2) call itself in the waker (its syscall, the wake-up and
 * whatever sending the IPI costs the sender: a VM exit in a guest).
 * Returns 0, or -1 if pinning, threads or pipes failed.
 */
int calib_idle_wake(int cpu_a, int cpu_b, int idle_us, const struct calib_opts *o,
		    double *latency_ns, double *write_ns);

/*
 * What interrupts a running thread on cpu: a thread pinned there reads
 * CLOCK_MONOTONIC in a loop (tens of ns a turn) for 100 ms (10 with
 * quick) and counts the gaps of IRQ_GAP_NS or more between two reads,
 * which are time the CPU spent elsewhere: interrupts, the tick, and on a
 * guest the host running something else on the vCPU's thread. A
 * repetition in which the thread was switched out (getrusage()'s
 * involuntary switches grew) measured another task, not an
 * interruption, and is dropped. *per_s: gaps a second, *mean_ns: their
 * mean length, from the repetition with the median stolen share.
 * The calling thread's affinity is restored. Returns 0, or -1 if pinning
 * failed or every repetition was disturbed.
 */
int calib_irq(int cpu, const struct calib_opts *o, double *per_s, double *mean_ns);

/*
 * A host that halt-polls (KVM's halt_poll_ns) resumes a vCPU that halted
 * briefly from its poll loop, sooner than one it had to schedule back in.
 * Found as calib_idle_wake()'s latency over idle lengths of 10, 20 and 50
 * us, then 100, ... 1000 us until two in a row are above the midpoint
 * between a short halt's (short_ns: the median of the 10, 20 and 50 us
 * ones) and long_ns (the latency after a long idle, e.g. 2 ms):
 * window_us is the longest length under it before those, 0 when short
 * halts are not a quarter cheaper than long ones (bare metal); wake_ns[]
 * the medians (ns; -1: not measured); short_write_ns the median of the
 * waker's write(2) in the same three (what its IPI costs it while the
 * host still polls the wakee's vCPU). Returns 0, or -1 if a measurement
 * failed.
 */
#define CALIB_HALT_POLL_STEPS 7
struct calib_halt_poll {
	int idle_us[CALIB_HALT_POLL_STEPS];
	double wake_ns[CALIB_HALT_POLL_STEPS];
	double short_ns;	/* a short halt's wake-up latency (10-50 us, median) */
	double short_write_ns;	/* the waker's write(2) in them (median) */
	int window_us;
};
int calib_halt_poll(int cpu_a, int cpu_b, double long_ns, const struct calib_opts *o,
		    struct calib_halt_poll *hp);
/*
 * Whether the host's window adapts (KVM's halt_poll_ns_grow): after a
 * 2-ms halt of cpu_b, sixteen wake-ups of it from cpu_a, each after
 * idle_us of cpu_a spinning; *late_ns is the median latency of the last
 * six (median over 5 repetitions). Short, as a halt in the window, where
 * the host grows its window past idle_us. Returns 0 or -1.
 */
int calib_halt_poll_adapt(int cpu_a, int cpu_b, int idle_us, double *late_ns);

#endif
