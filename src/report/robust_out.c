/*
 * robust_out.c - the robustness block of `compare --robust` (robust_out.h).
 */
#include "robust_out.h"

#include "compare_out.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int robust_changes(const struct cmp_table *t, int ndraws, const double *vals, double *change)
{
	int nc = t->nloads * t->nsides;
	struct cmp_cell *cells = calloc((size_t)nc, sizeof(*cells));
	struct cmp_table dt = *t;

	if (!cells)
		return -1;
	dt.cell = cells;
	for (int d = 0; d < ndraws; d++) {
		memset(cells, 0, sizeof(*cells) * (size_t)nc);
		for (int c = 0; c < nc; c++) {
			cells[c].values = vals + ((size_t)d * (size_t)nc + (size_t)c) * (size_t)t->runs;
			cells[c].n = t->runs;
		}
		cmp_table_stats(&dt);
		for (int c = 0; c < nc; c++)
			change[(size_t)c * (size_t)ndraws + (size_t)d] = cells[c].change_pct;
	}
	free(cells);
	return 0;
}

static int sgn(double x)
{
	return x > 0 ? 1 : x < 0 ? -1 : 0;
}

static void analyse_row(const struct robust_report *r, struct robust_row *w, double *x,
			double *work)
{
	w->min = w->max = r->ndraws ? w->change[0] : w->nominal;
	w->same_sign = 0;
	for (int i = 0; i < r->ndraws; i++) {
		w->min = fmin(w->min, w->change[i]);
		w->max = fmax(w->max, w->change[i]);
		w->same_sign += sgn(w->change[i]) == sgn(w->nominal);
	}
	w->ntop = 0;
	for (int c = 0; c < r->ncosts && r->ndraws > 2; c++) {
		for (int i = 0; i < r->ndraws; i++)
			x[i] = r->value[i * r->ncosts + c];
		double rho = gsl_stats_spearman(x, 1, w->change, 1, (size_t)r->ndraws, work);

		if (!isfinite(rho))
			continue;
		/* Insert by |rho|, after any equal one: the costs' order breaks ties. */
		int at = w->ntop;

		while (at > 0 && fabs(rho) > fabs(w->rho[at - 1]))
			at--;
		if (at >= ROBUST_TOP)
			continue;
		for (int k = (w->ntop < ROBUST_TOP ? w->ntop : ROBUST_TOP - 1); k > at; k--) {
			w->top[k] = w->top[k - 1];
			w->rho[k] = w->rho[k - 1];
		}
		w->top[at] = c;
		w->rho[at] = rho;
		if (w->ntop < ROBUST_TOP)
			w->ntop++;
	}
}

void robust_analyse(struct robust_report *r)
{
	double *x = calloc((size_t)r->ndraws + 1, sizeof(*x));
	double *work = calloc(2 * (size_t)r->ndraws + 1, sizeof(*work));

	for (int l = 0; l < r->nloads; l++)
		for (int s = 1; s < r->nsides; s++) {
			struct robust_row *w = robust_row_at(r, l, s);

			if (x && work)
				analyse_row(r, w, x, work);
			else
				w->ntop = 0;
		}
	free(x);
	free(work);
}

static void top_text(const struct robust_report *r, const struct robust_row *w, char *buf,
		     size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (r->ndraws < 3) {
		snprintf(buf, len, "not ranked: 3 draws or more are needed");
		return;
	}
	if (!w->ntop) {
		snprintf(buf, len, "none: the change did not move with the costs");
		return;
	}
	for (int k = 0; k < w->ntop && off < len; k++) {
		int n = snprintf(buf + off, len - off, "%s%s %+.2f", k ? ", " : "",
				 r->cost[w->top[k]], w->rho[k]);

		off += n > 0 ? (size_t)n : 0;
	}
}

void robust_print_text(const struct robust_report *r, const char *const *load,
		       const char *const *side, FILE *f)
{
	int lw = 4, sw = 4;
	char top[512];

	for (int l = 0; l < r->nloads; l++)
		lw = (int)fmax(lw, (double)strlen(load[l]));
	for (int s = 1; s < r->nsides; s++)
		sw = (int)fmax(sw, (double)strlen(side[s]));
	fprintf(f, "\nrobustness: the change under %d cost profiles drawn across the costs' "
		"ranges\n(Latin hypercube, seed %llu, over %d cost%s: `wakesim costs` lists them)",
		r->ndraws, r->seed, r->ncosts, r->ncosts == 1 ? "" : "s");
	/* A rho of independent draws has a standard deviation near 1 / sqrt(N - 1). */
	if (r->ndraws >= 3)
		fprintf(f, ";\n|rho| below %.2f (2 / sqrt(draws)) is within what noise alone gives",
			2 / sqrt(r->ndraws));
	fputc('\n', f);
	fprintf(f, "%-*s %-*s %9s %9s %9s %12s  %s\n", lw, "load", sw, "side", "nominal", "min",
		"max", "same sign", "follows most (Spearman's rho)");
	for (int l = 0; l < r->nloads; l++)
		for (int s = 1; s < r->nsides; s++) {
			const struct robust_row *w = robust_row_at(r, l, s);
			char share[32];

			snprintf(share, sizeof(share), "%d/%d %3.0f%%", w->same_sign, r->ndraws,
				 r->ndraws ? 100.0 * w->same_sign / r->ndraws : 0);
			top_text(r, w, top, sizeof(top));
			fprintf(f, "%-*s %-*s %+8.2f%% %+8.2f%% %+8.2f%% %12s  %s\n", lw, load[l], sw,
				side[s], w->nominal, w->min, w->max, share, top);
		}
}

json_object *robust_json(const struct robust_report *r, const char *const *load,
			 const char *const *side)
{
	json_object *o = json_object_new_object(), *costs = json_object_new_array();
	json_object *draws = json_object_new_array(), *rows = json_object_new_array();

	json_object_object_add(o, "draws", json_object_new_int(r->ndraws));
	json_object_object_add(o, "design", json_object_new_string(
		"latin hypercube, each stratum's midpoint"));
	json_object_object_add(o, "seed", json_object_new_int64((int64_t)r->seed));
	for (int c = 0; c < r->ncosts; c++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "cost", json_object_new_string(r->cost[c]));
		json_object_object_add(k, "unit", json_object_new_string(r->unit[c]));
		json_object_object_add(k, "nominal", json_object_new_double(r->nominal[c]));
		json_object_object_add(k, "min", json_object_new_double(r->cmin[c]));
		json_object_object_add(k, "max", json_object_new_double(r->cmax[c]));
		json_object_array_add(costs, k);
	}
	json_object_object_add(o, "costs", costs);
	for (int i = 0; i < r->ndraws; i++) {
		json_object *d = json_object_new_array();

		for (int c = 0; c < r->ncosts; c++)
			json_object_array_add(d, json_object_new_double(r->value[i * r->ncosts + c]));
		json_object_array_add(draws, d);
	}
	json_object_object_add(o, "draw_costs", draws);
	for (int l = 0; l < r->nloads; l++)
		for (int s = 1; s < r->nsides; s++) {
			const struct robust_row *w = robust_row_at(r, l, s);
			json_object *row = json_object_new_object(), *ch = json_object_new_array();
			json_object *tops = json_object_new_array();

			json_object_object_add(row, "load", json_object_new_string(load[l]));
			json_object_object_add(row, "side", json_object_new_string(side[s]));
			json_object_object_add(row, "nominal_change_pct", json_object_new_double(w->nominal));
			json_object_object_add(row, "min_change_pct", json_object_new_double(w->min));
			json_object_object_add(row, "max_change_pct", json_object_new_double(w->max));
			json_object_object_add(row, "same_sign", json_object_new_int(w->same_sign));
			json_object_object_add(row, "same_sign_pct", json_object_new_double(
				r->ndraws ? 100.0 * w->same_sign / r->ndraws : 0));
			for (int k = 0; k < w->ntop; k++) {
				json_object *t = json_object_new_object();

				json_object_object_add(t, "cost", json_object_new_string(r->cost[w->top[k]]));
				json_object_object_add(t, "spearman_rho", json_object_new_double(w->rho[k]));
				json_object_array_add(tops, t);
			}
			json_object_object_add(row, "follows", tops);
			for (int i = 0; i < r->ndraws; i++)
				json_object_array_add(ch, json_object_new_double(w->change[i]));
			json_object_object_add(row, "change_pct", ch);
			json_object_array_add(rows, row);
		}
	json_object_object_add(o, "rows", rows);
	return o;
}

void robust_csv_header(FILE *f)
{
	fputs(",robust_draws,robust_min_change_pct,robust_max_change_pct,robust_same_sign_pct", f);
	for (int k = 0; k < ROBUST_TOP; k++)
		fprintf(f, ",robust_cost%d,robust_rho%d", k + 1, k + 1);
}

void robust_csv_row(const struct robust_report *r, int load, int side, FILE *f)
{
	const struct robust_row *w = robust_row_at(r, load, side);

	if (!side) {
		fprintf(f, ",,,,");
		for (int k = 0; k < ROBUST_TOP; k++)
			fputs(",,", f);
		return;
	}
	fprintf(f, ",%d,%.10g,%.10g,%.10g", r->ndraws, w->min, w->max,
		r->ndraws ? 100.0 * w->same_sign / r->ndraws : 0);
	for (int k = 0; k < ROBUST_TOP; k++)
		if (k < w->ntop)
			fprintf(f, ",%s,%.10g", r->cost[w->top[k]], w->rho[k]);
		else
			fputs(",,", f);
}
