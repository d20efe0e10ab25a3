/*
 * rng.h - the simulator's only source of randomness.
 *
 * xoshiro256** (Blackman and Vigna, 2018) seeded through splitmix64, written
 * here from the published algorithm. Integer-only so the same --seed gives
 * the same stream on every machine and libm; no wall clock is ever mixed in.
 */
#ifndef WS_RNG_H
#define WS_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed the generator; any 64-bit seed (including 0) is valid. */
void rng_seed(struct rng *r, uint64_t seed);
/* Next 64 uniformly distributed bits. */
uint64_t rng_next(struct rng *r);
/* Uniform integer in [0, bound), bound > 0; unbiased (Lemire's method). */
uint64_t rng_below(struct rng *r, uint64_t bound);
/*
 * Jitter a duration: returns ns scaled by a factor with mean 1 and relative
 * standard deviation pct_x10/1000 (pct_x10 = 50 means 5%), shaped as the sum
 * of four uniforms (close to normal, bounded at +-3.46 sigma so a duration
 * never goes negative for sigma < 29%). ns = 0 or pct_x10 = 0 returns ns.
 */
uint64_t rng_jitter_ns(struct rng *r, uint64_t ns, unsigned pct_x10);

#endif
