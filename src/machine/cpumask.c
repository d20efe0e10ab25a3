/*
 * cpumask.c - CPU bitmap operations and the kernel's cpulist format.
 *
 * Loops stop at nr_cpu_ids' word so a 2-CPU machine pays for one word, not
 * sixteen. Bits above nr_cpu_ids are never set by these functions.
 */
#include "cpumask.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nr_cpu_ids;

void cpumask_clear(struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
}

void cpumask_setall(struct cpumask *m)
{
	cpumask_clear(m);
	for (int cpu = 0; cpu < nr_cpu_ids; cpu++)
		cpumask_set_cpu(cpu, m);
}

void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	*dst = *src;
}

bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	uint64_t any = 0;
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++) {
		dst->bits[i] = a->bits[i] & b->bits[i];
		any |= dst->bits[i];
	}
	return any != 0;
}

void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	uint64_t any = 0;
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++) {
		dst->bits[i] = a->bits[i] & ~b->bits[i];
		any |= dst->bits[i];
	}
	return any != 0;
}

bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		if (a->bits[i] != b->bits[i])
			return false;
	return true;
}

bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

bool cpumask_empty(const struct cpumask *m)
{
	int n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		if (m->bits[i])
			return false;
	return true;
}

int cpumask_weight(const struct cpumask *m)
{
	int w = 0, n = cpumask_nr_words();

	for (int i = 0; i < n; i++)
		w += __builtin_popcountll(m->bits[i]);
	return w;
}

int cpumask_next_from(int n, const struct cpumask *m)
{
	if (n < 0)
		n = 0;
	if (n >= nr_cpu_ids)
		return nr_cpu_ids;
	int w = n >> 6;
	uint64_t word = m->bits[w] & (~UINT64_C(0) << (n & 63));
	int nw = cpumask_nr_words();

	for (;;) {
		if (word) {
			int cpu = (w << 6) + __builtin_ctzll(word);
			return cpu < nr_cpu_ids ? cpu : nr_cpu_ids;
		}
		if (++w >= nw)
			return nr_cpu_ids;
		word = m->bits[w];
	}
}

int cpumask_nth(int k, const struct cpumask *m)
{
	int cpu;

	for_each_cpu(cpu, m)
		if (k-- == 0)
			return cpu;
	return nr_cpu_ids;
}

int cpumask_next_wrap_ws(int n, const struct cpumask *m, int start)
{
	int c;

	if (start < 0 || start >= nr_cpu_ids)
		start = 0;
	if (n < 0 || n >= start) {
		c = cpumask_next_from(n < 0 ? start : n + 1, m);
		if (c < nr_cpu_ids)
			return c;
		c = cpumask_next_from(0, m);
		return c < start ? c : nr_cpu_ids;
	}
	c = cpumask_next_from(n + 1, m);
	return c < start ? c : nr_cpu_ids;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int parse_uint(const char **pp, long *out)
{
	const char *p = *pp;
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > 1000000)
			return -1;
		p++;
	}
	*pp = p;
	*out = v;
	return 0;
}

int cpulist_parse(const char *s, struct cpumask *m, char *err, size_t errlen)
{
	const char *p = skip_blank(s);

	memset(m, 0, sizeof(*m));
	/* sysfs files end in "\n"; hwloc's dumps sometimes add a NUL. */
	if (*p == '\n' || *p == '\0')
		return 0;
	for (;;) {
		long a, b;

		if (parse_uint(&p, &a)) {
			snprintf(err, errlen, "expected a CPU number at \"%.20s\"", p);
			return -1;
		}
		b = a;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &b)) {
				snprintf(err, errlen, "CPU range %ld- has no end", a);
				return -1;
			}
			if (b < a) {
				snprintf(err, errlen, "CPU range %ld-%ld goes backwards", a, b);
				return -1;
			}
		}
		if (b >= WS_MAX_CPUS) {
			snprintf(err, errlen, "CPU %ld exceeds the limit of %d CPUs", b,
				 WS_MAX_CPUS);
			return -1;
		}
		for (long c = a; c <= b; c++)
			m->bits[c >> 6] |= UINT64_C(1) << (c & 63);
		p = skip_blank(p);
		if (*p == ',') {
			p = skip_blank(p + 1);
			continue;
		}
		while (*p == '\n' || *p == '\r' || *p == ' ')
			p++;
		if (*p != '\0') {
			snprintf(err, errlen, "unexpected character '%c' in CPU list",
				 isprint((unsigned char)*p) ? *p : '?');
			return -1;
		}
		return 0;
	}
}

char *cpumask_print_list(const struct cpumask *m, char *buf, size_t len)
{
	size_t off = 0;
	int cpu = cpumask_first(m);

	buf[0] = '\0';
	while (cpu < nr_cpu_ids) {
		int end = cpu;

		while (end + 1 < nr_cpu_ids && cpumask_test_cpu(end + 1, m))
			end++;
		int n = end > cpu ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", cpu, end)
				  : snprintf(buf + off, len - off, "%s%d", off ? "," : "", cpu);
		if (n < 0 || (size_t)n >= len - off) {
			buf[len - 1] = '\0';
			return buf;
		}
		off += (size_t)n;
		cpu = cpumask_next(end, m);
	}
	return buf;
}

char *cpumask_print_bitmap(const struct cpumask *m, int nbits, char *buf, size_t len)
{
	size_t off = 0;
	int chunk = nbits % 32 ? nbits % 32 : 32;

	buf[0] = '\0';
	for (int lo = (nbits + 31) / 32 * 32 - 32; lo >= 0; lo -= 32) {
		unsigned int v = 0;

		for (int b = 0; b < chunk; b++)
			if (lo + b < nbits && cpumask_test_cpu(lo + b, m))
				v |= 1u << b;
		int n = snprintf(buf + off, len - off, "%s%0*x", off ? "," : "", (chunk + 3) / 4, v);

		if (n < 0 || (size_t)n >= len - off) {
			buf[len - 1] = '\0';
			return buf;
		}
		off += (size_t)n;
		chunk = 32;
	}
	return buf;
}
