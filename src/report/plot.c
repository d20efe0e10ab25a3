/*
 * plot.c - the gnuplot figures of plot.h.
 */
#include "plot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const outputs[] = { "result.png", "result.svg", "diagnostics.png",
				       "diagnostics.svg", "result.dat", "diagnostics.dat",
				       "plot.gp" };

/* A string as a gnuplot single-quoted literal: a quote is doubled. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* The load level's value ("g=32" -> "32"), for the x axis. */
static const char *xlabel(const char *load)
{
	const char *eq = strchr(load, '=');

	return eq ? eq + 1 : load;
}

static void write_data(const struct cmp_table *t, FILE *res, FILE *dg, const int *rank, int nd)
{
	fprintf(res, "# x load");
	for (int s = 0; s < t->nsides; s++)
		fprintf(res, " %s_mean %s_stddev", t->side_name[s], t->side_name[s]);
	fprintf(res, "\n");
	fprintf(dg, "# x load");
	for (int k = 0; k < nd; k++) {
		char name[64];

		cmp_diag_name(t, rank[k], name, sizeof(name));
		for (int s = 0; s < t->nsides; s++)
			fprintf(dg, " %s:%s", name, t->side_name[s]);
	}
	fprintf(dg, "\n");
	for (int l = 0; l < t->nloads; l++) {
		fprintf(res, "%d %s", l, xlabel(t->load[l]));
		for (int s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);

			fprintf(res, " %.10g %.10g", c->s.mean, c->s.stddev);
		}
		fprintf(res, "\n");
		fprintf(dg, "%d %s", l, xlabel(t->load[l]));
		for (int k = 0; k < nd; k++)
			for (int s = 0; s < t->nsides; s++)
				fprintf(dg, " %.10g", cmp_diag_value(t, l, s, rank[k]));
		fprintf(dg, "\n");
	}
}

/* Sides drawn side by side around each load level, so equal ones stay visible. */
static double dodge(const struct cmp_table *t, int s)
{
	return (s - (t->nsides - 1) / 2.0) * 0.06;
}

static void write_script(const struct cmp_table *t, FILE *gp, const int *rank, int nd)
{
	char title[1024], name[64];

	fprintf(gp, "# wakesim compare --plot: gnuplot plot.gp in this directory redraws\n");
	fprintf(gp, "set encoding utf8\nset grid\nset key outside right top\n");
	fprintf(gp, "set xlabel 'load level'\nset offsets 0.3, 0.3, 0, 0\n");
	fprintf(gp, "set xtics (");
	for (int l = 0; l < t->nloads; l++) {
		fprintf(gp, "%s", l ? ", " : "");
		gp_str(gp, t->load[l]);
		fprintf(gp, " %d", l);
	}
	fprintf(gp, ")\n");
	snprintf(title, sizeof(title), "%s on %s (%s, %d runs): %s of %s, %s is better",
		 t->workload, t->machine, t->kernel, t->runs, t->higher_is_better ? "Hmean" : "Amean",
		 t->unit, t->higher_is_better ? "higher" : "lower");
	for (int out = 0; out < 2; out++) {
		fprintf(gp, "\n%s\nset output 'result.%s'\nset title ", out
			? "set terminal svg size 1000,600 dynamic noenhanced font 'sans,11'"
			: "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'",
			out ? "svg" : "png");
		gp_str(gp, title);
		fprintf(gp, "\nset ylabel ");
		gp_str(gp, t->unit);
		fprintf(gp, "\nplot ");
		for (int s = 0; s < t->nsides; s++) {
			fprintf(gp, "%s'result.dat' using ($1%+.3f):%d:%d with yerrorlines lw 2 "
				"pt %d title ", s ? ", \\\n     " : "", dodge(t, s), 3 + 2 * s,
				4 + 2 * s, 1 + s);
			gp_str(gp, t->side_name[s]);
		}
		fprintf(gp, "\nunset output\n");
	}
	for (int out = 0; out < 2; out++) {
		fprintf(gp, "\n%s\nset output 'diagnostics.%s'\nunset title\nunset ylabel\nunset xlabel\n", out
			? "set terminal svg size 1200,700 dynamic noenhanced font 'sans,10'"
			: "set terminal pngcairo size 1200,700 noenhanced font 'sans,9'",
			out ? "svg" : "png");
		fprintf(gp, "set key below horizontal font ',8'\nset multiplot layout 2,3 title ");
		snprintf(title, sizeof(title), "diagnostics that moved most against %s: %s on %s",
			 t->side_name[0], t->workload, t->machine);
		gp_str(gp, title);
		fprintf(gp, "\n");
		for (int k = 0; k < nd; k++) {
			cmp_diag_name(t, rank[k], name, sizeof(name));
			fprintf(gp, "set title ");
			gp_str(gp, name);
			fprintf(gp, "\nplot ");
			for (int s = 0; s < t->nsides; s++) {
				fprintf(gp, "%s'diagnostics.dat' using ($1%+.3f):%d with linespoints "
					"lw 2 pt %d title ", s ? ", " : "", dodge(t, s),
					3 + k * t->nsides + s, 1 + s);
				gp_str(gp, t->side_name[s]);
			}
			fprintf(gp, "\n");
		}
		fprintf(gp, "unset multiplot\nunset output\n");
	}
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

static void remove_tmp(const char *tmp)
{
	char path[4096];

	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/gnuplot.log", tmp);
	unlink(path);
	rmdir(tmp);
}

int cmp_plot(const struct cmp_table *t, const char *dir, char *err, size_t errlen)
{
	char tmp[4096], path[4096], dest[4096];
	int rank[PLOT_DIAGNOSTICS];
	int nd = cmp_rank_diagnostics(t, -1, rank, PLOT_DIAGNOSTICS);

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "--plot %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s/.wakesim-plot-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		snprintf(err, errlen, "--plot %s: %s", dir, strerror(errno));
		return -1;
	}
	FILE *f[3];
	const char *names[3] = { "result.dat", "diagnostics.dat", "plot.gp" };

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, names[i]);
		f[i] = fopen(path, "w");
		if (!f[i]) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			for (int j = 0; j < i; j++)
				fclose(f[j]);
			remove_tmp(tmp);
			return -1;
		}
	}
	write_data(t, f[0], f[1], rank, nd);
	write_script(t, f[2], rank, nd);
	bool ok = true;

	for (int i = 0; i < 3; i++)
		ok = (fclose(f[i]) == 0) && ok;
	if (!ok) {
		snprintf(err, errlen, "%s: cannot write", tmp);
		remove_tmp(tmp);
		return -1;
	}
	if (run_gnuplot(tmp, err, errlen)) {
		remove_tmp(tmp);
		return -1;
	}
	/* Every figure whole before any is moved in: DIR never gets a half set. */
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		if (!strstr(outputs[i], ".dat") && !strstr(outputs[i], ".gp") &&
		    output_complete(path, dir, outputs[i], err, errlen)) {
			remove_tmp(tmp);
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, outputs[i]);
		snprintf(dest, sizeof(dest), "%s/%s", dir, outputs[i]);
		if (rename(path, dest)) {
			snprintf(err, errlen, "%s: %s", dest, strerror(errno));
			remove_tmp(tmp);
			return -1;
		}
	}
	remove_tmp(tmp);
	return 0;
}
