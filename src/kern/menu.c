/*
 * menu.c - the menu cpuidle governor (drivers/cpuidle/governors/menu.c),
 * the default governor on x86 servers in every kernel profile (rating 20
 * against teo's 19, v6.4 and v6.12): which idle state a CPU enters, and
 * whether the tick stays on while it idles.
 *
 * The prediction is the smaller of two estimates:
 * - the time to the CPU's next timer, scaled by a correction factor that
 *   learns, per order of magnitude of that time, how much of it the CPU
 *   really slept (12 buckets; the 6 of pending I/O are never used here);
 * - the typical interval of the last 8 idle periods, when they agree
 *   (standard deviation under 20 us or a sixth of their mean), dropping
 *   the largest ones while at least 6 of 8 remain (get_typical_interval()).
 * v6.12 queries the timer only when the typical interval is above 15 us
 * (RESIDENCY_THRESHOLD_NS); v6.4 and the older profiles always do.
 *
 * The tick is kept (stop_tick false) when the chosen state polls or the
 * prediction is under a tick, unless it is already stopped; a tick that
 * then wakes the CPU is taken as a misprediction (menu_update(): the
 * period counts as 45 ms when the next timer was beyond the tick).
 * The global CPU latency QoS limit (cpu_latency_qos_limit(), what
 * /dev/cpu_dma_latency sets: tunable cpu_latency_qos_ns, --cpu-dma-latency)
 * bounds the exit latency of the state chosen, as cpuidle_governor_
 * latency_req() does; a limit under state 1's exit latency leaves state 0.
 * Not modelled: per-device resume-latency QoS, iowait buckets, the polling
 * state's time limit (poll_time_limit), states disabled one by one.
 */
#include <limits.h>
#include <string.h>

#include "kernel.h"
#include "timer.h"

#define MENU_RESOLUTION 1024
#define MENU_DECAY 8
#define MENU_UNITY (MENU_RESOLUTION * MENU_DECAY)
#define MAX_INTERESTING_NS (50000 * NSEC_PER_USEC)
#define RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
/* KTIME_MAX: no timer known (v6.12 does not ask below 15 us). */
#define NO_TIMER_NS ((u64)INT64_MAX)
/*
 * The model has no timer-wheel timers (a real CPU always has some: TCP's
 * delayed-ACK and retransmit timers, vmstat, writeback): a CPU with no
 * hrtimer armed is taken to have its next timer MAX_INTERESTING (50 ms)
 * away, menu's own horizon beyond which it counts every sleep as perfect.
 * Any finite horizon lets the correction factor learn what the CPU
 * sleeps; an infinite one would make every prediction without a clear
 * pattern "forever", and choose the deepest state.
 */
#define NO_HRTIMER_NS MAX_INTERESTING_NS

static int which_bucket(u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;

	return us < 10 ? 0 : us < 100 ? 1 : us < 1000 ? 2 : us < 10000 ? 3 : us < 100000 ? 4 : 5;
}

void menu_init(struct menu_device *d)
{
	memset(d, 0, sizeof(*d));
	for (int i = 0; i < MENU_BUCKETS; i++)
		d->correction_factor[i] = MENU_UNITY;
	/* A machine idle a while: its last periods were long (45 ms, as measured). */
	for (int i = 0; i < MENU_INTERVALS; i++)
		d->intervals[i] = 9 * MAX_INTERESTING_NS / 10 / NSEC_PER_USEC;
	d->next_timer_ns = NO_TIMER_NS;
}

/* get_typical_interval() (v6.12): the repeating-pattern detector, us; UINT_MAX: none. */
static unsigned int typical_interval_us(const struct menu_device *d)
{
	unsigned int thresh = INT_MAX; /* outliers above it are dropped */

	for (;;) {
		unsigned int min = UINT_MAX, max = 0, avg;
		u64 sum = 0, variance = 0;
		int divisor = 0;

		for (int i = 0; i < MENU_INTERVALS; i++) {
			unsigned int v = d->intervals[i];

			if (v > thresh)
				continue;
			sum += v;
			divisor++;
			if (v > max)
				max = v;
			if (v < min)
				min = v;
		}
		if (!max)
			return UINT_MAX;
		avg = (unsigned int)(sum / (u64)divisor);
		for (int i = 0; i < MENU_INTERVALS; i++) {
			unsigned int v = d->intervals[i];

			if (v <= thresh) {
				int64_t diff = (int64_t)v - avg;

				variance += (u64)(diff * diff);
			}
		}
		variance /= (u64)divisor;
		if (variance <= UINT64_MAX / 36 &&
		    (((u64)avg * avg > variance * 36 && divisor * 4 >= MENU_INTERVALS * 3) ||
		     variance <= 400))
			return avg;
		if (divisor * 4 <= MENU_INTERVALS * 3)
			return UINT_MAX;
		thresh = max - 1;
	}
}

int menu_deepest_state(const struct machine *m, u64 latency_req)
{
	int idx = 0;

	while (idx + 1 < m->nr_idle_states && m->idle[idx + 1].exit_latency_ns <= latency_req)
		idx++;
	return idx;
}

int menu_select(struct sim *sim, struct rq *rq, bool *stop_tick)
{
	const struct machine *m = sim->m;
	struct menu_device *d = &rq->menu;
	u64 tick = sim->tun->tick_ns, next = cpu_next_timer(sim, rq->cpu);
	u64 next_timer = next == UINT64_MAX ? NO_HRTIMER_NS : next > sim->now ? next - sim->now : 0;
	/* tick_nohz_get_sleep_length()'s delta_next: to the next tick, or timer if sooner. */
	u64 delta_tick = tick - sim->now % tick;
	unsigned int typ = typical_interval_us(d);
	u64 predicted = typ == UINT_MAX ? NO_TIMER_NS : (u64)typ * NSEC_PER_USEC;
	/* cpuidle_governor_latency_req(): the PM QoS limit (/dev/cpu_dma_latency). */
	u64 latency_req = sim->tun->cpu_latency_qos_ns;
	int idx = -1;

	if (rq->tick_stopped || next_timer < delta_tick)
		delta_tick = next_timer;
	*stop_tick = true;
	if (sim->tun->kver != KV_MAINLINE || predicted > RESIDENCY_THRESHOLD_NS) {
		d->next_timer_ns = next_timer;
		d->bucket = which_bucket(next_timer);
		/* next_timer x factor, rounded: in 128 bits, a far timer overflows 64. */
		unsigned __int128 t = (unsigned __int128)next_timer * d->correction_factor[d->bucket] +
				      MENU_UNITY / 2;
		u64 timer_ns = (u64)(t / MENU_UNITY);

		if (timer_ns < predicted)
			predicted = timer_ns;
	} else {
		/* v6.12: no timer query under 15 us; the tick assumed half a tick away. */
		d->next_timer_ns = NO_TIMER_NS;
		d->bucket = which_bucket(NO_TIMER_NS);
		delta_tick = tick / 2;
	}
	if (m->nr_idle_states <= 1 || latency_req == 0 ||
	    d->next_timer_ns < m->idle[1].target_residency_ns ||
	    latency_req < m->idle[1].exit_latency_ns) {
		/* State 0 whatever the rest says; the tick stays if it polls. */
		*stop_tick = !m->idle[0].polling;
		return 0;
	}
	if (rq->tick_stopped) {
		/* A stopped tick makes a short misprediction costly: trust the timer. */
		if (predicted < tick)
			predicted = d->next_timer_ns;
	} else if (latency_req > predicted) {
		latency_req = predicted; /* performance_multiplier() is 1 without I/O waiters */
	}
	for (int i = 0; i < m->nr_idle_states; i++) {
		const struct idle_state *s = &m->idle[i];

		if (idx == -1)
			idx = i;
		if (s->target_residency_ns > predicted) {
			if (m->idle[idx].polling && s->exit_latency_ns <= latency_req &&
			    s->target_residency_ns <= d->next_timer_ns) {
				predicted = s->target_residency_ns;
				idx = i;
				break;
			}
			if (predicted < tick)
				break;
			if (!rq->tick_stopped) {
				/* A shallow state: retain the tick and choose again after it. */
				predicted = m->idle[idx].target_residency_ns;
				break;
			}
			if (m->idle[idx].target_residency_ns < tick &&
			    s->target_residency_ns <= delta_tick)
				idx = i;
			return idx;
		}
		if (s->exit_latency_ns > latency_req)
			break;
		idx = i;
	}
	if (idx < 0)
		idx = 0;
	if ((m->idle[idx].polling || predicted < tick) && !rq->tick_stopped) {
		*stop_tick = false;
		/* The tick will wake it: a state that pays off before the tick. */
		while (idx > 0 && m->idle[idx].target_residency_ns > delta_tick)
			idx--;
	}
	return idx;
}

void menu_reflect(struct sim *sim, struct rq *rq, u64 residency_ns, bool tick_wakeup)
{
	struct menu_device *d = &rq->menu;
	const struct idle_state *target = &sim->m->idle[rq->idle_state];
	u64 measured;

	if (tick_wakeup && d->next_timer_ns > sim->tun->tick_ns) {
		/* Woken by a tick it predicted it would not need: say it was long. */
		measured = 9 * MAX_INTERESTING_NS / 10;
	} else {
		measured = residency_ns;
		measured = measured > 2 * target->exit_latency_ns ? measured - target->exit_latency_ns
								 : measured / 2;
	}
	if (measured > d->next_timer_ns)
		measured = d->next_timer_ns;
	unsigned int f = d->correction_factor[d->bucket];

	f -= f / MENU_DECAY;
	if (d->next_timer_ns > 0 && measured < MAX_INTERESTING_NS)
		f += (unsigned int)((unsigned __int128)MENU_RESOLUTION * measured / d->next_timer_ns);
	else
		f += MENU_RESOLUTION;
	d->correction_factor[d->bucket] = f;
	d->intervals[d->interval_ptr] = (unsigned int)(measured / NSEC_PER_USEC);
	d->interval_ptr = (d->interval_ptr + 1) % MENU_INTERVALS;
}
