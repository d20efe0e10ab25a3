/*
 * gnuplot.h - drawing wakesim's figures with gnuplot: the data and the
 * script are written into a temporary directory inside the output
 * directory, gnuplot runs there, every PNG and SVG must be whole (gnuplot
 * exits 0 when a write fails), and only then do all the files move into
 * place, so the directory never holds half a set.
 */
#ifndef WS_GNUPLOT_H
#define WS_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

/* s as a gnuplot single-quoted literal (a quote doubled), to f. */
void gp_str(FILE *f, const char *s);

/*
 * Draw into dir (created if missing; its parent must exist): write_files
 * writes plot.gp and its data into tmp (0, or -1 with err); gnuplot runs
 * plot.gp there; the n files of outputs (PNG, SVG, .dat, .gp) move into
 * dir. Returns 0, or -1 with err ("gnuplot not found", a file error,
 * gnuplot's failure, an incomplete figure), dir unchanged.
 */
int gp_draw(const char *dir, const char *const *outputs, size_t n,
	    int (*write_files)(const char *tmp, void *arg, char *err, size_t errlen), void *arg,
	    char *err, size_t errlen);

#endif
