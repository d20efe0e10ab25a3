/*
 * calib_net.h - what `wakesim calibrate` takes off its cross-CPU residuals:
 * the model's own line transfers on the probes' path.
 *
 * calibrate prices the cross-CPU parts of a wake-up (the IPI's send, an
 * idle state's exit, a polled wake-up) as what a real probe's latency
 * leaves after the one-CPU costs of its write, read, switch and wake-up.
 * That residual holds the real transfers of the lines the path moves
 * between the two CPUs (the pipe's, the wakee's task and runqueue); the
 * model moves the same lines and charges them through its coherence model
 * (machine/coherence.c), so left in the residual they count twice
 * (docs/validation.md, (c8)).
 */
#ifndef WS_CALIB_NET_H
#define WS_CALIB_NET_H

#include "machine/machine.h"

/*
 * The time, in ns, that the model's line transfers add to half a round
 * trip of `perf bench sched pipe -T -l loops` with its two threads
 * allowed on cpu_a and cpu_b of m (m's costs and idle states as given,
 * the mainline profile, seed 1): the round trip less the same run's with
 * every c2c latency at 1 ns, halved; 0 if that comes out below 0. -1 if
 * a run failed (err says why). The two CPUs must differ and exist.
 */
double calib_model_line_ns(const struct machine *m, int cpu_a, int cpu_b, long loops, char *err,
			   size_t errlen);

/*
 * Take net_ns (>= 0) off one probe's path: off *exit_ns first (the
 * wakee's side, at least 0), what that cannot take off *send_ns (the
 * waker's, at least send_floor_ns; send_ns may be NULL for a path with no
 * send, an MWAIT state's). Returns what could not be taken, ns (0 unless
 * both reached their floors).
 */
double calib_net_path(double net_ns, double *exit_ns, double *send_ns, double send_floor_ns);

#endif
