/*
 * winmap.h - a sweep's win/loss map (`sweep --plot DIR`, `merge --plot
 * DIR`, issue 23): per policy against the base, a heatmap with a row per
 * machine and workload and a column per load level, coloured by the
 * change on a diverging scale centred on 0 (blue better, red worse, each
 * in the workload's own sense), significant cells marked "*", cells where
 * the policy never changed a decision grey with "=". A load that counts
 * tasks is a column by its share of the machine's CPUs ("50%"), so
 * machines of different sizes line up; other loads keep their label.
 *
 * DIR/winloss-POLICY.png and .svg, beside winloss-POLICY.dat (row,
 * column, change, marker, never-changed flag, then the row's and the
 * column's names) and plot.gp; written through gnuplot.h, all or none.
 * POLICY is the policy's name, each character but letters, digits, '.',
 * '-' and '_' made '_'.
 */
#ifndef WS_WINMAP_H
#define WS_WINMAP_H

#include <stddef.h>
#include <stdio.h>

#include "winloss.h"

/*
 * The data file of one policy's cells (winloss.h's order): rows numbered
 * in order of first appearance of (machine, workload), columns as said
 * above, to f.
 */
void winmap_data(const struct wl_cell *cells, int n, FILE *f);

/*
 * Draw the maps of np policies (names[np]; cells[p * n + i], n cells
 * each) into dir. Returns 0, or -1 with err.
 */
int winmap_plot(const struct wl_cell *cells, int n, const char *const *names, int np,
		const char *dir, char *err, size_t errlen);

#endif
