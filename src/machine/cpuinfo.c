/*
 * cpuinfo.c - the CPU vendor and family of a /proc/cpuinfo text: the
 * identity the kernel's arch code reads at boot (arch/x86/kernel/cpu/
 * common.c fills x86_vendor and x86 from CPUID, which /proc/cpuinfo prints
 * as vendor_id and cpu family) and some scheduler rules depend on.
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "key<spaces/tabs>: value" with key matching: the value, else NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

int machine_parse_cpuinfo(const char *text, const char *file, struct machine *m, char *err,
			  size_t errlen)
{
	bool vendor = false, family = false;
	int lineno = 0;

	for (const char *p = text; *p && !(vendor && family); lineno++) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[256];
		const char *v;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		p += len + (eol != NULL);
		/* A copy made on another system may end its lines in \r\n, or pad them. */
		for (size_t n = strlen(line); n && (line[n - 1] == '\r' || line[n - 1] == ' ' ||
						    line[n - 1] == '\t'); n--)
			line[n - 1] = '\0';
		/* The first processor's block ends at its blank line. */
		if (!line[0] && (vendor || family))
			break;
		if (!vendor && (v = value_of(line, "vendor_id"))) {
			if (strlen(v) >= sizeof(m->cpu_vendor) || !v[0]) {
				snprintf(err, errlen, "%s:%d: vendor_id: \"%.32s\" is not a CPUID vendor (1 to %zu "
					 "characters)", file, lineno + 1, v, sizeof(m->cpu_vendor) - 1);
				return -1;
			}
			snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "%s", v);
			vendor = true;
		} else if (!family && (v = value_of(line, "cpu family"))) {
			char *end;
			long f = strtol(v, &end, 10);

			if (end == v || *end || f < 1 || f > 255) {
				snprintf(err, errlen, "%s:%d: cpu family: \"%.32s\" is not a number in 1..255",
					 file, lineno + 1, v);
				return -1;
			}
			m->cpu_family = (int)f;
			family = true;
		}
	}
	if (!(vendor && family)) {
		/* Half an identity names no part. */
		m->cpu_vendor[0] = '\0';
		m->cpu_family = 0;
	}
	return 0;
}
