/*
 * rng.c - xoshiro256** and splitmix64, from Blackman and Vigna's paper
 * "Scrambled linear pseudorandom number generators" (2018).
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * bound;
	uint64_t low = (uint64_t)m;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * bound;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

uint64_t rng_jitter_ns(struct rng *r, uint64_t ns, unsigned pct_x10)
{
	if (!ns || !pct_x10)
		return ns;
	/*
	 * Four 16-bit uniforms: sum has mean 4*32767.5 and variance
	 * 4 * 65536^2/12, i.e. sigma = 37837.4 in these units.
	 */
	uint64_t v = rng_next(r);
	int64_t sum = (int64_t)(v & 0xffff) + (int64_t)((v >> 16) & 0xffff) +
		      (int64_t)((v >> 32) & 0xffff) + (int64_t)(v >> 48);
	int64_t dev = 2 * sum - 4 * 65535; /* mean 0, sigma 75675 (x2 units) */
	/* delta = ns * dev/75675 * pct_x10/1000; |dev| < 2^18. In 64 bits
	 * when the product fits (a 128-bit division is a library call), with
	 * the same truncation toward zero. */
	if (ns < (1ULL << 30) && pct_x10 <= 1000) {
		int64_t delta = (int64_t)ns * dev * (int64_t)pct_x10 / (75675 * 1000);
		int64_t out = (int64_t)ns + delta;

		return out < 1 ? 1 : (uint64_t)out;
	}
	__int128 delta = (__int128)ns * dev * pct_x10 / ((__int128)75675 * 1000);
	__int128 out = (__int128)ns + delta;

	return out < 1 ? 1 : (uint64_t)out;
}
