/*
 * gnuplot.c - running gnuplot for wakesim's figures (gnuplot.h).
 */
#include "gnuplot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A string as a gnuplot single-quoted literal: a quote is doubled. */
void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Run gnuplot on plot.gp in dir; 0, or -1 with err. */
static int run_gnuplot(const char *dir, char *err, size_t errlen)
{
	char log[4096];

	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	fflush(NULL);
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		FILE *l = freopen(log, "w", stderr);

		(void)l;
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(127);
	}
	int st;

	if (waitpid(pid, &st, 0) < 0) {
		snprintf(err, errlen, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		snprintf(err, errlen, "gnuplot not found (apt-get install gnuplot-nox)");
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char first[512] = "";
		FILE *l = fopen(log, "r");

		if (l) {
			if (!fgets(first, sizeof(first), l))
				first[0] = '\0';
			fclose(l);
		}
		first[strcspn(first, "\n")] = '\0';
		snprintf(err, errlen, "gnuplot failed%s%s", first[0] ? ": " : "", first);
		return -1;
	}
	return 0;
}

/*
 * Whether gnuplot wrote path whole. It exits 0 when a write fails (a full
 * disk, a file size limit) and leaves a cut file: a PNG must end with its
 * IEND chunk, an SVG with its closing tag. 0, or -1 with err.
 */
static int output_complete(const char *path, const char *dir, const char *name, char *err,
			   size_t errlen)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	bool png = strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".png");
	FILE *f = fopen(path, "rb");
	long size;
	size_t n = 0;

	if (!f) {
		snprintf(err, errlen, "--plot %s: gnuplot wrote no %s", dir, name);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, size > (long)sizeof(tail) ? size - (long)sizeof(tail) : 0, SEEK_SET) == 0)
		n = fread(tail, 1, sizeof(tail), f);
	fclose(f);
	bool ok;

	if (png) {
		ok = n >= sizeof(iend) && !memcmp(tail + n - sizeof(iend), iend, sizeof(iend));
	} else {
		while (n && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
			n--;
		ok = n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
	}
	if (!ok) {
		snprintf(err, errlen, "--plot %s: gnuplot's %s is incomplete (%s; a full disk or a "
			 "file size limit?); nothing written", dir, name,
			 png ? "no IEND chunk at its end" : "no closing </svg>");
		return -1;
	}
	return 0;
}

static void remove_tmp(const char *tmp, const char *const *outputs, size_t n)
{
	char path[4096];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/gnuplot.log", tmp);
	unlink(path);
	rmdir(tmp);
}

int gp_draw(const char *dir, const char *const *outputs, size_t n,
	    int (*write_files)(const char *tmp, void *arg, char *err, size_t errlen), void *arg,
	    char *err, size_t errlen)
{
	char tmp[4096], path[4096], dest[4096];

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "--plot %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.wakesim-plot-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		snprintf(err, errlen, "--plot %s: %s", dir, strerror(errno));
		return -1;
	}
	if (write_files(tmp, arg, err, errlen) || run_gnuplot(tmp, err, errlen)) {
		remove_tmp(tmp, outputs, n);
		return -1;
	}
	/* Every figure whole before any is moved in: DIR never gets a half set. */
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		if (!strstr(outputs[i], ".dat") && !strstr(outputs[i], ".gp") &&
		    output_complete(path, dir, outputs[i], err, errlen)) {
			remove_tmp(tmp, outputs, n);
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		snprintf(dest, sizeof(dest), "%s/%s", dir, outputs[i]);
		if (rename(path, dest)) {
			snprintf(err, errlen, "%s: %s", dest, strerror(errno));
			remove_tmp(tmp, outputs, n);
			return -1;
		}
	}
	remove_tmp(tmp, outputs, n);
	return 0;
}
