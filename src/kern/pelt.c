/*
 * pelt.c - PELT sums and averages (kernel/sched/pelt.c, v6.12), in our code.
 *
 * The decay table holds floor((2^32 - 1) * y^n) for n < 32, y = 2^(-1/32),
 * computed once with 60-digit arithmetic (and equal to the double-precision
 * result for every entry), the same definition the kernel's generator uses.
 */
#include "pelt.h"

static const uint32_t y_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

u64 pelt_decay_load(u64 val, u64 n)
{
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	/* y^n = (1/2)^(n/32) * y^(n%32) */
	val >>= n / LOAD_AVG_PERIOD;
	return (u64)(((unsigned __int128)val * y_inv[n % LOAD_AVG_PERIOD]) >> 32);
}

u64 pelt_load_avg_max(void)
{
	u64 s = 0, prev;

	do {
		prev = s;
		s = pelt_decay_load(s, 1) + 1024;
	} while (s != prev);
	return s;
}

/* Contribution of d1 (end of the old period), p-1 full periods and d3. */
static u32 segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1 = (u32)pelt_decay_load(d1, periods);
	u32 c2 = (u32)(LOAD_AVG_MAX - pelt_decay_load(LOAD_AVG_MAX, periods) - 1024);

	return c1 + c2 + d3;
}

static u64 accumulate(u64 delta, struct sched_avg *sa, unsigned long load,
		      unsigned long runnable, unsigned long running)
{
	u32 contrib = (u32)delta;
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->load_sum = pelt_decay_load(sa->load_sum, periods);
		sa->runnable_sum = pelt_decay_load(sa->runnable_sum, periods);
		sa->util_sum = (u32)pelt_decay_load(sa->util_sum, periods);
		delta %= 1024;
		if (load)
			contrib = segments(periods, 1024 - sa->period_contrib, (u32)delta);
	}
	sa->period_contrib = (u32)delta;
	if (load)
		sa->load_sum += (u64)load * contrib;
	if (runnable)
		sa->runnable_sum += (u64)runnable * contrib << SCHED_CAPACITY_SHIFT;
	/* contrib << SCHED_CAPACITY_SHIFT on a full-capacity CPU. */
	if (running)
		sa->util_sum += contrib * (u32)running;
	return periods;
}

int pelt_update(struct sched_avg *sa, u64 now, unsigned long load, unsigned long runnable,
		unsigned long running, unsigned long avg_weight)
{
	u64 delta;

	if (now < sa->last_update_time) {
		sa->last_update_time = now;
		return 0;
	}
	delta = (now - sa->last_update_time) >> 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;
	/* Only something runnable can run (the kernel's !load rule). */
	if (!load)
		runnable = running = 0;
	if (!accumulate(delta, sa, load, runnable, running))
		return 0;

	u32 divider = PELT_MIN_DIVIDER + sa->period_contrib;

	sa->load_avg = (unsigned long)(avg_weight * sa->load_sum / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
	/* cfs_se_util_change(): util moved, so util_est may learn again. */
	sa->util_est &= ~UTIL_AVG_UNCHANGED;
	return 1;
}

static inline u64 sub_positive(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

void pelt_attach(struct sched_avg *cfs, const struct sched_avg *se)
{
	cfs->load_avg += se->load_avg;
	cfs->load_sum += se->load_sum;
	cfs->runnable_avg += se->runnable_avg;
	cfs->runnable_sum += se->runnable_sum;
	cfs->util_avg += se->util_avg;
	cfs->util_sum += se->util_sum;
}

void pelt_detach(struct sched_avg *cfs, const struct sched_avg *se)
{
	cfs->load_avg = (unsigned long)sub_positive(cfs->load_avg, se->load_avg);
	cfs->load_sum = sub_positive(cfs->load_sum, se->load_sum);
	cfs->runnable_avg = (unsigned long)sub_positive(cfs->runnable_avg, se->runnable_avg);
	cfs->runnable_sum = sub_positive(cfs->runnable_sum, se->runnable_sum);
	cfs->util_avg = (unsigned long)sub_positive(cfs->util_avg, se->util_avg);
	cfs->util_sum = (u32)sub_positive(cfs->util_sum, se->util_sum);
}

void pelt_init_task(struct sched_avg *se, const struct sched_avg *cfs,
		    unsigned long cfs_load, unsigned long weight, unsigned long capacity, u64 now)
{
	/* post_init_entity_util_avg(): half the spare capacity at most. */
	long cap = (long)(capacity - cfs->util_avg) / 2;
	u32 divider = PELT_MIN_DIVIDER;

	*se = (struct sched_avg){ 0 };
	se->last_update_time = now;
	se->load_avg = weight;
	se->load_sum = (u64)divider; /* load_avg = weight * load_sum / divider */
	if (cap > 0) {
		if (cfs->util_avg) {
			se->util_avg = cfs->util_avg * weight / (cfs_load + 1);
			if ((long)se->util_avg > cap)
				se->util_avg = (unsigned long)cap;
		} else {
			se->util_avg = (unsigned long)cap;
		}
	}
	se->runnable_avg = se->util_avg;
	se->util_sum = (u32)(se->util_avg * divider);
	se->runnable_sum = (u64)se->runnable_avg * divider;
}

void util_est_update(struct sched_avg *se, unsigned long capacity)
{
	unsigned int ewma = se->util_est, dequeued, diff;

	if (ewma & UTIL_AVG_UNCHANGED)
		return;
	dequeued = (unsigned int)se->util_avg;
	if (ewma <= dequeued) {
		ewma = dequeued;
		goto done;
	}
	diff = ewma - dequeued;
	if (diff < UTIL_EST_MARGIN)
		goto done;
	if (dequeued > capacity)
		return;
	/* Did not get all the CPU it wanted: keep the old estimate. */
	if (dequeued + UTIL_EST_MARGIN < se->runnable_avg)
		goto done;
	ewma = ((ewma << UTIL_EST_WEIGHT_SHIFT) - diff) >> UTIL_EST_WEIGHT_SHIFT;
done:
	se->util_est = ewma | UTIL_AVG_UNCHANGED;
}
