/*
 * winmap.c - the win/loss heatmaps of winmap.h.
 */
#include "winmap.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"

/* A column's key: its share of the CPUs, or its label; "" past the end. */
static void col_key(const struct wl_cell *c, char *out, size_t len)
{
	if (!isnan(c->load_pct))
		snprintf(out, len, "%.3g%%", c->load_pct);
	else
		snprintf(out, len, "%s", c->load);
}

struct axes {
	int nrow, ncol;
	int *row, *col;		/* [n]: each cell's */
	int *row_first;		/* [nrow]: a cell of the row, for its name */
	char (*col_name)[96];	/* [ncol] */
};

/* Columns: shares ascending, then labels in order of first appearance. */
static int by_share(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int axes_make(const struct wl_cell *c, int n, struct axes *ax)
{
	double *share = calloc((size_t)n + 1, sizeof(*share));
	int nshare = 0;

	memset(ax, 0, sizeof(*ax));
	ax->row = calloc((size_t)n + 1, sizeof(int));
	ax->col = calloc((size_t)n + 1, sizeof(int));
	ax->row_first = calloc((size_t)n + 1, sizeof(int));
	ax->col_name = calloc((size_t)n + 1, sizeof(*ax->col_name));
	if (!share || !ax->row || !ax->col || !ax->row_first || !ax->col_name) {
		free(share);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int r = 0;

		while (r < ax->nrow && (strcmp(c[ax->row_first[r]].machine, c[i].machine) ||
					strcmp(c[ax->row_first[r]].workload, c[i].workload)))
			r++;
		if (r == ax->nrow)
			ax->row_first[ax->nrow++] = i;
		ax->row[i] = r;
		if (!isnan(c[i].load_pct)) {
			int k = 0;

			while (k < nshare && share[k] != c[i].load_pct)
				k++;
			if (k == nshare)
				share[nshare++] = c[i].load_pct;
		}
	}
	qsort(share, (size_t)nshare, sizeof(*share), by_share);
	for (int k = 0; k < nshare; k++)
		snprintf(ax->col_name[ax->ncol++], sizeof(ax->col_name[0]), "%.3g%%", share[k]);
	for (int i = 0; i < n; i++) {
		char key[96];
		int k = 0;

		col_key(&c[i], key, sizeof(key));
		while (k < ax->ncol && strcmp(ax->col_name[k], key))
			k++;
		if (k == ax->ncol)
			snprintf(ax->col_name[ax->ncol++], sizeof(ax->col_name[0]), "%s", key);
		ax->col[i] = k;
	}
	free(share);
	return 0;
}

static void axes_free(struct axes *ax)
{
	free(ax->row);
	free(ax->col);
	free(ax->row_first);
	free(ax->col_name);
}

/* A name as one gnuplot data column: blanks would split it. */
static void data_word(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

void winmap_data(const struct wl_cell *c, int n, FILE *f)
{
	struct axes ax;

	if (axes_make(c, n, &ax)) {
		axes_free(&ax);
		return;
	}
	fprintf(f, "# row col change_pct marker never_changed row_name col_name\n");
	for (int i = 0; i < n; i++) {
		char row[256];

		snprintf(row, sizeof(row), "%s / %s", c[i].machine, c[i].workload);
		fprintf(f, "%d %d %.4f %s %d ", ax.row[i], ax.col[i],
			isfinite(c[i].change_pct) ? c[i].change_pct : 0,
			c[i].never_changed ? "=" : c[i].significant ? "*" : "-", c[i].never_changed);
		data_word(f, row);
		fputc(' ', f);
		data_word(f, ax.col_name[ax.col[i]]);
		fputc('\n', f);
	}
	axes_free(&ax);
}

struct job {
	const struct wl_cell *cells;
	int n, np;
	const char *const *names;
	char (*file)[128];	/* [np]: each name as a file name's part */
};

static int write_files(const char *tmp, void *arg, char *err, size_t errlen)
{
	const struct job *j = arg;
	char path[4096];
	FILE *gp;

	snprintf(path, sizeof(path), "%s/plot.gp", tmp);
	gp = fopen(path, "w");
	if (!gp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(gp, "# wakesim sweep --plot: gnuplot plot.gp in this directory redraws\n"
		"set palette defined (-1 '#b2182b', 0 '#f7f7f7', 1 '#2166ac')\n"
		"set cblabel 'change, %% (+: better)'\n"
		"set xlabel 'load (%% of the CPUs where it counts tasks)'\n"
		"set style fill solid 1.0 noborder\nset tics nomirror\nunset key\n");
	for (int p = 0; p < j->np; p++) {
		const struct wl_cell *c = j->cells + (size_t)p * (size_t)j->n;
		struct axes ax;
		double most = 1;
		FILE *d;

		snprintf(path, sizeof(path), "%s/winloss-%s.dat", tmp, j->file[p]);
		d = fopen(path, "w");
		if (!d || axes_make(c, j->n, &ax)) {
			snprintf(err, errlen, "%s: %s", path, d ? "out of memory" : strerror(errno));
			if (d)
				fclose(d);
			axes_free(&ax);
			fclose(gp);
			return -1;
		}
		winmap_data(c, j->n, d);
		if (fclose(d)) {
			snprintf(err, errlen, "%s: cannot write", path);
			axes_free(&ax);
			fclose(gp);
			return -1;
		}
		for (int i = 0; i < j->n; i++)
			if (isfinite(c[i].change_pct) && fabs(c[i].change_pct) > most)
				most = fabs(c[i].change_pct);
		fprintf(gp, "set cbrange [%g:%g]\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n",
			-most, most, ax.ncol - 1, ax.nrow - 1);
		fprintf(gp, "set xtics (");
		for (int k = 0; k < ax.ncol; k++) {
			/* A tic label is a format: its % doubled. */
			char tic[200];
			size_t o = 0;

			for (const char *q = ax.col_name[k]; *q && o + 2 < sizeof(tic); q++) {
				if (*q == '%')
					tic[o++] = '%';
				tic[o++] = *q;
			}
			tic[o] = '\0';
			fprintf(gp, "%s", k ? ", " : "");
			gp_str(gp, tic);
			fprintf(gp, " %d", k);
		}
		fprintf(gp, ")\nset ytics (");
		for (int r = 0; r < ax.nrow; r++) {
			char row[256];

			snprintf(row, sizeof(row), "%s / %s", c[ax.row_first[r]].machine,
				 c[ax.row_first[r]].workload);
			fprintf(gp, "%s", r ? ", " : "");
			gp_str(gp, row);
			fprintf(gp, " %d", r);
		}
		fprintf(gp, ")\nset title ");
		char title[256];

		snprintf(title, sizeof(title), "%s: * significant, = never changed a decision",
			 j->names[p]);
		gp_str(gp, title);
		fprintf(gp, "\n");
		for (int fmt = 0; fmt < 2; fmt++) {
			fprintf(gp, "set terminal %s noenhanced size %d,%d\nset output 'winloss-%s.%s'\n",
				fmt ? "svg" : "pngcairo", 480 + 80 * ax.ncol, 200 + 40 * ax.nrow,
				j->file[p], fmt ? "svg" : "png");
			fprintf(gp, "plot 'winloss-%s.dat' using 2:1:(0.5):(0.5):($5 > 0 ? 1/0 : $3) "
				"with boxxyerror fc palette, '' using ($5 > 0 ? $2 : 1/0):1:(0.5):(0.5) "
				"with boxxyerror fc rgb '#bdbdbd', '' using 2:1:(strcol(4) eq '-' ? '' : "
				"strcol(4)) with labels\nunset output\n", j->file[p]);
		}
		axes_free(&ax);
	}
	if (fclose(gp)) {
		snprintf(err, errlen, "%s/plot.gp: cannot write", tmp);
		return -1;
	}
	return 0;
}

int winmap_plot(const struct wl_cell *cells, int n, const char *const *names, int np,
		const char *dir, char *err, size_t errlen)
{
	const char **outputs = calloc((size_t)np * 3 + 1, sizeof(*outputs));
	char (*buf)[300] = calloc((size_t)np * 3, sizeof(*buf));
	char (*file)[128] = calloc((size_t)np, sizeof(*file));
	struct job j = { cells, n, np, names, file };
	int ret = -1;

	if (!outputs || !buf || !file) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int p = 0; p < np; p++) {
		/* A policy's name in a file name: letters, digits, '.', '-', '_' kept. */
		snprintf(file[p], sizeof(file[0]), "%s", names[p]);
		for (char *q = file[p]; *q; q++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *q))
				*q = '_';
		snprintf(buf[3 * p], sizeof(buf[0]), "winloss-%s.png", file[p]);
		snprintf(buf[3 * p + 1], sizeof(buf[0]), "winloss-%s.svg", file[p]);
		snprintf(buf[3 * p + 2], sizeof(buf[0]), "winloss-%s.dat", file[p]);
		for (int k = 0; k < 3; k++)
			outputs[3 * p + k] = buf[3 * p + k];
	}
	outputs[3 * np] = "plot.gp";
	ret = gp_draw(dir, outputs, (size_t)np * 3 + 1, write_files, &j, err, errlen);
out:
	free(outputs);
	free(buf);
	free(file);
	return ret;
}
