/*
 * textfile.c - reading a whole input file (machine, cost profile, rt-app
 * JSON) with the checks every input gets: a regular file (a FIFO would
 * block), a size limit, no NUL byte.
 */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int text_file_read(const char *path, const char *what, char **text, size_t *lenp,
			  char *err, size_t errlen)
{
	const size_t limit = 1 << 24;
	struct stat st;
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Directories, FIFOs and devices are no JSON files (and may block). */
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* Read to the end: /proc files report a size of 0. */
	for (;;) {
		if (len == cap) {
			char *nb = cap < limit + 1 ? realloc(buf, cap ? 2 * cap : 65536) : NULL;

			if (!nb) {
				snprintf(err, errlen, cap >= limit + 1 ? "%s: larger than a %s may be (16 MiB)"
								      : "%s: out of memory", path, what);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		size_t r = fread(buf + len, 1, cap - len, f);

		len += r;
		if (!r)
			break;
	}
	if (ferror(f) || len > limit) {
		snprintf(err, errlen, ferror(f) ? "%s: cannot read" : "%s: larger than a %s may be (16 MiB)",
			 path, what);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	if (len == cap) {
		char *nb = realloc(buf, len + 1);

		if (!nb) {
			snprintf(err, errlen, "%s: out of memory", path);
			free(buf);
			return -1;
		}
		buf = nb;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: contains a NUL byte: not a text file (%s expected)", path, what);
		free(buf);
		return -1;
	}
	*text = buf;
	*lenp = len;
	return 0;
}

