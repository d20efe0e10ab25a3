/*
 * plot.c - the gnuplot figures of plot.h.
 */
#include "plot.h"

#include "gnuplot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const outputs[] = { "result.png", "result.svg", "diagnostics.png",
				       "diagnostics.svg", "result.dat", "diagnostics.dat",
				       "plot.gp", "robust.png", "robust.svg", "robust.dat" };
/* Without --robust, the first 7. */
#define NR_PLAIN 7
/* Panels of robust.png at most: the first (load, side) pairs. */
#define ROBUST_PANELS 12

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

/*
 * robust.dat: per (load, side) two blocks, the draws (the value of the
 * cost the change follows most, or the draw's number if none, and the
 * change) and the nominal point; gnuplot's index 2k and 2k + 1.
 */
static int robust_panels(const struct cmp_table *t)
{
	int n = t->nloads * (t->nsides - 1);

	return n < ROBUST_PANELS ? n : ROBUST_PANELS;
}

static void write_robust(const struct cmp_table *t, FILE *dat, FILE *gp)
{
	const struct robust_report *r = t->robust;
	int np = robust_panels(t), cols = np < 3 ? np : 3, k = 0;

	fprintf(dat, "# per load level and side: the draws (x = the cost the change follows "
		"most, y = change %%), then the nominal point\n");
	for (int l = 0; l < t->nloads; l++)
		for (int s = 1; s < t->nsides && k < np; s++, k++) {
			const struct robust_row *w = robust_row_at(r, l, s);
			int c = w->ntop ? w->top[0] : -1;

			fprintf(dat, "# %s %s\n", t->load[l], t->side_name[s]);
			for (int i = 0; i < r->ndraws; i++)
				fprintf(dat, "%.10g %.10g\n", c < 0 ? i + 1 : r->value[i * r->ncosts + c],
					w->change[i]);
			fprintf(dat, "\n\n%.10g %.10g\n\n\n", c < 0 ? 0 : r->nominal[c], w->nominal);
		}
	for (int out = 0; out < 2; out++) {
		char title[512];

		fprintf(gp, "\n%s\nset output 'robust.%s'\nunset title\nset key off\n", out
			? "set terminal svg size 1200,800 dynamic noenhanced font 'sans,10'"
			: "set terminal pngcairo size 1200,800 noenhanced font 'sans,9'",
			out ? "svg" : "png");
		snprintf(title, sizeof(title), "change against %s under %d drawn cost profiles: %s on %s",
			 t->side_name[0], r->ndraws, t->workload, t->machine);
		fprintf(gp, "set multiplot layout %d,%d title ", (np + cols - 1) / cols, cols);
		gp_str(gp, title);
		/* result.png's tics name load levels: here x is a cost again. */
		fprintf(gp, "\nset ylabel 'change, %%'\nset xtics auto\n"
			"set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n");
		k = 0;
		for (int l = 0; l < t->nloads; l++)
			for (int s = 1; s < t->nsides && k < np; s++, k++) {
				const struct robust_row *w = robust_row_at(r, l, s);

				snprintf(title, sizeof(title), "%s, %s: follows %s", t->load[l],
					 t->side_name[s], w->ntop ? r->cost[w->top[0]] : "no cost");
				fprintf(gp, "set title ");
				gp_str(gp, title);
				fprintf(gp, "\nset xlabel ");
				if (w->ntop) {
					char xl[128];

					snprintf(xl, sizeof(xl), "%s, %s", r->cost[w->top[0]],
						 r->unit[w->top[0]]);
					gp_str(gp, xl);
				} else {
					gp_str(gp, "draw");
				}
				fprintf(gp, "\nplot 0 with lines lc 'gray', 'robust.dat' index %d using 1:2 "
					"with points pt 7, 'robust.dat' index %d using 1:2 with points "
					"pt 5 ps 2\n", 2 * k, 2 * k + 1);
			}
		fprintf(gp, "unset multiplot\nunset output\n");
	}
}

/* gp_draw()'s writer: the data and the script of t. */
static int write_files(const char *tmp, void *arg, char *err, size_t errlen)
{
	const struct cmp_table *t = arg;
	int rank[PLOT_DIAGNOSTICS];
	int nd = cmp_rank_diagnostics(t, -1, rank, PLOT_DIAGNOSTICS);
	FILE *f[4];
	const char *names[4] = { "result.dat", "diagnostics.dat", "plot.gp", "robust.dat" };
	int nf = t->robust ? 4 : 3;
	char path[4096];

	for (int i = 0; i < nf; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, names[i]);
		f[i] = fopen(path, "w");
		if (!f[i]) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			for (int j = 0; j < i; j++)
				fclose(f[j]);
			return -1;
		}
	}
	write_data(t, f[0], f[1], rank, nd);
	write_script(t, f[2], rank, nd);
	if (t->robust)
		write_robust(t, f[3], f[2]);
	bool ok = true;

	for (int i = 0; i < nf; i++)
		ok = (fclose(f[i]) == 0) && ok;
	if (!ok) {
		snprintf(err, errlen, "%s: cannot write", tmp);
		return -1;
	}
	return 0;
}

int cmp_plot(const struct cmp_table *t, const char *dir, char *err, size_t errlen)
{
	return gp_draw(dir, outputs, t->robust ? sizeof(outputs) / sizeof(outputs[0]) : NR_PLAIN,
		       write_files, (void *)t, err, errlen);
}
