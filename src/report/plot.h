/*
 * plot.h - compare's figures drawn by gnuplot (`compare --plot DIR`).
 *
 * DIR/result.png and .svg: the benchmark's figure against load level, a
 * line per side, mean with a +-stddev bar. DIR/diagnostics.png and .svg:
 * the six diagnostics that moved most at any load level, a panel each.
 * Beside them the data (result.dat, diagnostics.dat) and the script
 * (plot.gp); with compare --robust, DIR/robust.png and .svg: per load
 * level and side, the change under each drawn cost profile against the
 * cost it follows most, the nominal change marked (robust.dat), so a
 * figure can be restyled and redrawn with `gnuplot
 * plot.gp` in DIR. Everything is made in a temporary directory inside DIR
 * and renamed into place, so DIR never holds half a set.
 */
#ifndef WS_PLOT_H
#define WS_PLOT_H

#include <stddef.h>

#include "compare_out.h"

/* Number of diagnostics drawn. */
#define PLOT_DIAGNOSTICS 6

/*
 * Draw t into dir (created if missing; its parent must exist). Returns 0,
 * or -1 with err ("gnuplot not found", a file error, gnuplot's failure).
 */
int cmp_plot(const struct cmp_table *t, const char *dir, char *err, size_t errlen);

#endif
