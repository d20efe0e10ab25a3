/*
 * compare_out.c - statistics and renderings of compare_out.h.
 */
#include "compare_out.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cmp_table_stats(struct cmp_table *t)
{
	for (int l = 0; l < t->nloads; l++) {
		struct cmp_cell *base = cmp_cell_at(t, l, 0);

		for (int s = 0; s < t->nsides; s++) {
			struct cmp_cell *c = cmp_cell_at(t, l, s);

			summarize(c->values, c->n, t->higher_is_better, &c->s);
			c->coeffvar = c->s.amean != 0 ? 100 * c->s.stddev / fabs(c->s.amean) : 0;
		}
		for (int s = 0; s < t->nsides; s++) {
			struct cmp_cell *c = cmp_cell_at(t, l, s);

			c->change_pct = s ? change_pct(base->s.mean, c->s.mean, t->higher_is_better) : 0;
			c->p_value = s ? welch_p(base->values, base->n, c->values, c->n) : 1;
			c->significant = s && c->p_value < 1 - t->sig_level;
		}
	}
}

/* ---- text ---- */

/* A line built piece by piece, written without trailing blanks. */
struct line {
	char buf[2048];
	size_t len;
};

static void add(struct line *ln, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct line *ln, const char *fmt, ...)
{
	va_list ap;

	if (ln->len >= sizeof(ln->buf))
		return;
	va_start(ap, fmt);
	int n = vsnprintf(ln->buf + ln->len, sizeof(ln->buf) - ln->len, fmt, ap);

	va_end(ap);
	if (n > 0)
		ln->len += (size_t)n < sizeof(ln->buf) - ln->len ? (size_t)n : sizeof(ln->buf) - ln->len - 1;
}

static void put(struct line *ln, FILE *f)
{
	while (ln->len && ln->buf[ln->len - 1] == ' ')
		ln->len--;
	fprintf(f, "%.*s\n", (int)ln->len, ln->buf);
	ln->len = 0;
	ln->buf[0] = '\0';
}

/* Width of the load column: the longest label, at least 8. */
static int load_width(const struct cmp_table *t)
{
	int w = 8;

	for (int l = 0; l < t->nloads; l++)
		if ((int)strlen(t->load[l]) > w)
			w = (int)strlen(t->load[l]);
	return w;
}

/* mmtests' change field, 10 characters: "(  1.23%)" or "*  1.23%*". */
static void change_field(char *buf, size_t len, double pct, bool star)
{
	snprintf(buf, len, star ? "*%7.2f%%*" : "(%7.2f%%)", pct);
}

/* A column as wide as its figures need, or as the longest side name. */
static int side_width(const struct cmp_table *t, int min)
{
	int w = min;

	for (int s = 0; s < t->nsides; s++)
		if ((int)strlen(t->side_name[s]) > w)
			w = (int)strlen(t->side_name[s]);
	return w;
}

enum stat_row { ROW_MEAN, ROW_STDDEV, ROW_COEFFVAR, ROW_MIN, ROW_MAX };

static void print_block(const struct cmp_table *t, FILE *f, enum stat_row which, int lw)
{
	static const char *const names[] = { NULL, "Stddev", "CoeffVar", "Min", "Max" };
	const char *name = which == ROW_MEAN ? (t->higher_is_better ? "Hmean" : "Amean")
					    : names[which];

	for (int l = 0; l < t->nloads; l++) {
		const struct cmp_cell *b = cmp_cell_at(t, l, 0);
		struct line ln = { .len = 0 };

		add(&ln, "%-9s %-*s", name, lw, t->load[l]);
		for (int s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);
			char ch[32] = "";
			double v = 0;

			switch (which) {
			case ROW_MEAN:
				v = c->s.mean;
				change_field(ch, sizeof(ch), c->change_pct, c->significant);
				break;
			case ROW_STDDEV:
				v = c->s.stddev;
				break;
			case ROW_COEFFVAR:
				v = c->coeffvar;
				break;
			case ROW_MIN:
				v = c->s.min;
				change_field(ch, sizeof(ch), s ? change_pct(b->s.min, v, t->higher_is_better) : 0,
					     false);
				break;
			case ROW_MAX:
				v = c->s.max;
				change_field(ch, sizeof(ch), s ? change_pct(b->s.max, v, t->higher_is_better) : 0,
					     false);
				break;
			}
			add(&ln, " %*.4f %-10s", side_width(t, 13), v, ch);
		}
		put(&ln, f);
	}
}

/*
 * The diagnostics: the metrics marked so in metric_defs[] (index d below
 * CMP_MAX_METRICS), then the exits of each idle state (d =
 * CMP_MAX_METRICS + state).
 */
double cmp_diag_value(const struct cmp_table *t, int l, int s, int d)
{
	const struct cmp_cell *c = cmp_cell_at(t, l, s);

	if (d >= CMP_POLICY0)
		return c->policy[d - CMP_POLICY0];
	return d < CMP_MAX_METRICS ? c->metric[d] : c->idle_exits[d - CMP_MAX_METRICS];
}

void cmp_diag_name(const struct cmp_table *t, int d, char *buf, size_t len)
{
	if (d >= CMP_POLICY0)
		snprintf(buf, len, "policy.%s", t->policy_counter[d - CMP_POLICY0]);
	else if (d < CMP_MAX_METRICS)
		snprintf(buf, len, "%s", metric_defs[d].name);
	else
		snprintf(buf, len, "idle_exits_%s", t->idle_state[d - CMP_MAX_METRICS]);
}

/* How far a diagnostic moved: the largest relative change of any side. */
static double moved(const struct cmp_table *t, int l, int d)
{
	double b = cmp_diag_value(t, l, 0, d), most = 0;

	for (int s = 1; s < t->nsides; s++) {
		double v = cmp_diag_value(t, l, s, d);
		double r = b != 0 ? fabs(v - b) / fabs(b) : (v != 0 ? INFINITY : 0);

		if (r > most)
			most = r;
	}
	return most;
}

struct ranked {
	int d;
	double key;
};

static int by_key(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->d - y->d; /* the table's order among equals: stable on any libc */
}

/* moved() at one level, or the most at any level (load -1). */
static double moved_at(const struct cmp_table *t, int load, int d)
{
	double most = 0;

	for (int l = load < 0 ? 0 : load; l < (load < 0 ? t->nloads : load + 1); l++) {
		double m = moved(t, l, d);

		if (m > most)
			most = m;
	}
	return most;
}

int cmp_rank_diagnostics(const struct cmp_table *t, int load, int *out, int max)
{
	struct ranked r[CMP_MAX_METRICS + WS_MAX_IDLE_STATES + POLICY_MAX_COUNTERS];
	int n = 0;

	for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++) {
		const struct metric_def *md = &metric_defs[d];
		bool any = false;

		for (int l = load < 0 ? 0 : load; l < (load < 0 ? t->nloads : load + 1); l++)
			for (int s = 0; s < t->nsides; s++)
				any |= cmp_cell_at(t, l, s)->metric[d] != 0;
		if (!md->diagnostic || (md->only_if_nonzero && !any))
			continue;
		r[n++] = (struct ranked){ d, moved_at(t, load, d) };
	}
	for (int i = 0; i < t->nr_idle_states && i < WS_MAX_IDLE_STATES; i++)
		r[n++] = (struct ranked){ CMP_MAX_METRICS + i, moved_at(t, load, CMP_MAX_METRICS + i) };
	for (int k = 0; k < t->nr_policy_counters && k < POLICY_MAX_COUNTERS; k++)
		r[n++] = (struct ranked){ CMP_POLICY0 + k, moved_at(t, load, CMP_POLICY0 + k) };
	qsort(r, (size_t)n, sizeof(r[0]), by_key);
	for (int i = 0; i < n && i < max; i++)
		out[i] = r[i].d;
	return n < max ? n : max;
}

/* A cell's share of placements in key k's group, %. */
static double place_share(const struct cmp_cell *c, int k)
{
	int g = k < PLACE_AFFINE0 ? 0 : k < PLACE_DIST0 ? 1 : 2, from, to;
	double total = 0;

	place_group_range(g, &from, &to);
	for (int i = from; i < to; i++)
		total += place_key_shown(i) ? c->place[i] : 0;
	return total > 0 ? 100 * c->place[k] / total : 0;
}

/*
 * Per load level, the share of each placement reason, affine step and
 * distance per side, and each side's change in percentage points: "18% of
 * wake-ups moved from scan_idle_cpu to prev_idle" reads off two rows.
 */
static void print_placements(const struct cmp_table *t, FILE *f, int l)
{
	struct line ln = { .len = 0 };
	bool known = false;

	/* Placements are not known (a table built from values alone): no block. */
	for (int s = 0; s < t->nsides; s++)
		for (int k = 0; k < PLACE_ALL; k++)
			known |= cmp_cell_at(t, l, s)->place[k] != 0;
	if (!known)
		return;

	for (int g = 0; g < 3; g++) {
		int from, to;

		place_group_range(g, &from, &to);
		add(&ln, "  %-26s", g == 0 ? "placements, % of group" : "");
		if (g == 0)
			for (int s = 0; s < t->nsides; s++)
				add(&ln, " %*s%s", side_width(t, 15), t->side_name[s],
				    s ? "           " : "");
		put(&ln, f);
		fprintf(f, "  %s\n", place_group_title[g]);
		for (int k = from; k < to; k++) {
			bool any = false;

			for (int s = 0; s < t->nsides; s++)
				any |= cmp_cell_at(t, l, s)->place[k] != 0;
			if (!any || !place_key_shown(k))
				continue;
			double b = place_share(cmp_cell_at(t, l, 0), k);

			add(&ln, "    %-24s", place_key_name(k));
			for (int s = 0; s < t->nsides; s++) {
				double v = place_share(cmp_cell_at(t, l, s), k);

				add(&ln, " %*.2f", side_width(t, 15), v);
				/* Below the printed precision: no "-0.00". */
				if (s)
					add(&ln, " (%+7.2f) ", fabs(v - b) < 0.005 ? 0.0 : v - b);
			}
			put(&ln, f);
		}
	}
}

/* The features whose branches count hits (metrics_out.c), by hit metric. */
static const struct {
	const char *feature, *hits[2];
} hit_features[] = {
	{ "IDLE_DELAY", { "hits_IDLE_DELAY", NULL } },
	{ "AFFINE_SAME_LLC", { "hits_AFFINE_SAME_LLC", NULL } },
	{ "SIS_SHORT", { "hits_SIS_SHORT_affine", "hits_SIS_SHORT_scan" } },
	{ "IDLE_CORES_NO_SMT", { "hits_IDLE_CORES_NO_SMT", NULL } },
};

/* Whether the feature list names feature switched on ("X", not "NO_X"). */
static bool names_feature(const char *list, const char *feature)
{
	size_t n = strlen(feature);

	for (const char *p = list; (p = strstr(p, feature)); p += n)
		if ((p == list || p[-1] == ',' || p[-1] == ' ') && (!p[n] || p[n] == ',' || p[n] == ' '))
			return true;
	return false;
}

static double metric_by_name(const struct cmp_cell *c, const char *name)
{
	for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
		if (!strcmp(metric_defs[d].name, name))
			return c->metric[d];
	return 0;
}

/*
 * Under the table: a side that cannot differ from the base at a load
 * level, because its runs placed every task as the base's did, or because
 * its feature or policy never changed a decision there.
 */
static void print_notes(const struct cmp_table *t, FILE *f)
{
	bool first = true;

	for (int l = 0; l < t->nloads; l++)
		for (int s = 1; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);
			const char *feats = t->side_features[s];
			char why[512] = "";
			size_t n = 0;

			for (size_t i = 0; i < sizeof(hit_features) / sizeof(hit_features[0]); i++) {
				double hits = 0;

				if (!names_feature(feats, hit_features[i].feature) ||
				    names_feature(t->side_features[0], hit_features[i].feature))
					continue;
				for (int h = 0; h < 2 && hit_features[i].hits[h]; h++)
					hits += metric_by_name(c, hit_features[i].hits[h]);
				if (hits == 0 && n < sizeof(why))
					n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s never fired",
							      n ? "; " : "", hit_features[i].feature);
			}
			const char *pol = strstr(feats, "policy ");

			if (pol && t->side_whole_policy && t->side_whole_policy[s] &&
			    c->place[PR_POLICY] == 0 && n < sizeof(why))
				n += (size_t)snprintf(why + n, sizeof(why) - n,
						      "%s%s never chose other than mainline", n ? "; " : "",
						      pol);
			if (c->same_placements != 1 && !n)
				continue;
			if (first)
				fputc('\n', f);
			first = false;
			if (c->same_placements == 1)
				fprintf(f, "note: at %s, %s placed every task where %s did, in every run: "
					"it cannot differ but by what its checks cost%s%s%s\n",
					t->load[l], t->side_name[s], t->side_name[0], n ? " (" : "", why,
					n ? ")" : "");
			else
				fprintf(f, "note: at %s, %s: %s\n", t->load[l], t->side_name[s], why);
		}
}

/* Under the table: cells where the steady-state rule did not engage in every run. */
static void print_steady_notes(const struct cmp_table *t, FILE *f)
{
	bool first = true;

	for (int l = 0; l < t->nloads; l++)
		for (int s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);

			if (!c->not_steady)
				continue;
			if (first)
				fputc('\n', f);
			first = false;
			fprintf(f, "note: at %s, %s: not steady in %d of %d runs, which measured their "
				"whole length\n", t->load[l], t->side_name[s], c->not_steady,
				c->steady_runs);
		}
}

static void print_diagnostics(const struct cmp_table *t, FILE *f)
{
	int rank[CMP_MAX_METRICS + WS_MAX_IDLE_STATES];

	for (int l = 0; l < t->nloads; l++) {
		int n = cmp_rank_diagnostics(t, l, rank, CMP_MAX_METRICS + WS_MAX_IDLE_STATES);

		fprintf(f, "\ndiagnostics at %s, means over runs, ranked by the largest change "
			"against %s\n", t->load[l], t->side_name[0]);
		struct line ln = { .len = 0 };

		add(&ln, "  %-26s", "metric");
		for (int s = 0; s < t->nsides; s++)
			add(&ln, " %*s%s", side_width(t, 15), t->side_name[s], s ? "           " : "");
		put(&ln, f);
		for (int i = 0; i < n; i++) {
			int d = rank[i];
			double b = cmp_diag_value(t, l, 0, d);
			char name[64];

			cmp_diag_name(t, d, name, sizeof(name));
			add(&ln, "  %-26s", name);
			for (int s = 0; s < t->nsides; s++) {
				double v = cmp_diag_value(t, l, s, d);

				add(&ln, " %*.2f", side_width(t, 15), v);
				if (!s)
					continue;
				if (b != 0)
					add(&ln, " (%+7.1f%%)", (v - b) / fabs(b) * 100);
				else
					add(&ln, " %-10s", v != 0 ? "(    new)" : "");
			}
			put(&ln, f);
		}
		print_placements(t, f, l);
	}
}

void cmp_print_text(const struct cmp_table *t, FILE *f)
{
	int lw = load_width(t);

	fprintf(f, "wakesim compare: %s\n", t->workload);
	fprintf(f, "machine %s (%d CPUs), kernel %s, costs %s, workload on %s%s, sysctls %s\n",
		t->machine, t->nr_cpus, t->kernel, t->cost_profile, strcmp(t->cpus, "all") ? "CPUs " : "",
		strcmp(t->cpus, "all") ? t->cpus : "all CPUs", t->sysctls);
	for (const char *a = t->assumed; a && *a;) {
		int n = (int)strcspn(a, "\n");

		fprintf(f, "assumed: %.*s\n", n, a);
		a += n + (a[n] == '\n');
	}
	if (t->runs > 1)
		fprintf(f, "%d runs per side (seeds %llu-%llu)", t->runs, t->first_seed,
			t->first_seed + (unsigned long long)t->runs - 1);
	else
		fprintf(f, "1 run per side (seed %llu; no spread, no significance)", t->first_seed);
	fprintf(f, "; %s of %s, %s is better; *x%%* = significant at %g%% (Welch's t-test)\n",
		t->higher_is_better ? "Hmean" : "Amean", t->unit, t->higher_is_better ? "higher" : "lower",
		t->sig_level * 100);
	for (int s = 0; s < t->nsides; s++)
		fprintf(f, "%s: %s\n", t->side_name[s], t->side_features[s]);
	struct line ln = { .len = 0 };

	fputc('\n', f);
	add(&ln, "%-9s %-*s", "", lw, "");
	for (int s = 0; s < t->nsides; s++)
		add(&ln, " %*s %-10s", side_width(t, 13), t->side_name[s], "");
	put(&ln, f);
	for (enum stat_row w = ROW_MEAN; w <= ROW_MAX; w++)
		print_block(t, f, w, lw);
	print_notes(t, f);
	print_steady_notes(t, f);
	if (t->robust)
		robust_print_text(t->robust, t->load, t->side_name, f);
	print_diagnostics(t, f);
}

/* ---- CSV ---- */

/* RFC 4180: quote a field holding a comma, quote or line break. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void cmp_print_csv(const struct cmp_table *t, FILE *f)
{
	fputs("load,side,features,runs,stat,mean,stddev,coeffvar,min,max,change_pct,p_value,"
	      "significant", f);
	for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
		if (metric_defs[d].diagnostic)
			fprintf(f, ",%s", metric_defs[d].name);
	for (int i = 0; i < t->nr_idle_states && i < WS_MAX_IDLE_STATES; i++)
		fprintf(f, ",idle_exits_%s", t->idle_state[i]);
	for (int k = 0; k < PLACE_ALL; k++)
		fprintf(f, ",%s_%s", place_key_group(k), place_key_name(k));
	fputs(",same_placements", f);
	for (int k = 0; k < t->nr_policy_counters && k < POLICY_MAX_COUNTERS; k++)
		fprintf(f, ",policy.%s", t->policy_counter[k]);
	if (t->robust)
		robust_csv_header(f);
	fputc('\n', f);
	for (int l = 0; l < t->nloads; l++)
		for (int s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);

			csv_field(f, t->load[l]);
			fputc(',', f);
			csv_field(f, t->side_name[s]);
			fputc(',', f);
			csv_field(f, t->side_features[s]);
			/* One run has no spread and no test: empty, not a made-up 0 or 1. */
			if (c->n > 1)
				fprintf(f, ",%d,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%s", c->n,
					t->higher_is_better ? "Hmean" : "Amean", c->s.mean, c->s.stddev,
					c->coeffvar, c->s.min, c->s.max, c->change_pct, c->p_value,
					c->significant ? "true" : "false");
			else
				fprintf(f, ",%d,%s,%.10g,,,%.10g,%.10g,%.10g,,", c->n,
					t->higher_is_better ? "Hmean" : "Amean", c->s.mean, c->s.min,
					c->s.max, c->change_pct);
			for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
				if (metric_defs[d].diagnostic)
					fprintf(f, ",%.10g", c->metric[d]);
			for (int i = 0; i < t->nr_idle_states && i < WS_MAX_IDLE_STATES; i++)
				fprintf(f, ",%.10g", c->idle_exits[i]);
			for (int k = 0; k < PLACE_ALL; k++)
				fprintf(f, ",%.10g", c->place[k]);
			fprintf(f, ",%s", c->same_placements < 0 ? "" : c->same_placements ? "true" : "false");
			for (int k = 0; k < t->nr_policy_counters && k < POLICY_MAX_COUNTERS; k++)
				fprintf(f, ",%.10g", c->policy[k]);
			if (t->robust)
				robust_csv_row(t->robust, l, s, f);
			fputc('\n', f);
		}
}

/* ---- JSON ---- */

json_object *cmp_json(const struct cmp_table *t)
{
	json_object *root = json_object_new_object(), *sides = json_object_new_array();
	json_object *rows = json_object_new_array();

	json_object_object_add(root, "wakesim_version", json_object_new_string(t->version));
	if (t->commit)
		json_object_object_add(root, "wakesim_commit", json_object_new_string(t->commit));
	json_object_object_add(root, "machine", json_object_new_string(t->machine));
	json_object_object_add(root, "workload", json_object_new_string(t->workload));
	if (t->command)
		json_object_object_add(root, "command", json_object_get(t->command));
	json_object_object_add(root, "kernel", json_object_new_string(t->kernel));
	json_object_object_add(root, "cost_profile", json_object_new_string(t->cost_profile));
	if (t->assumed && *t->assumed) {
		json_object *as = json_object_new_array();

		for (const char *a = t->assumed; *a;) {
			int n = (int)strcspn(a, "\n");

			json_object_array_add(as, json_object_new_string_len(a, n));
			a += n + (a[n] == '\n');
		}
		json_object_object_add(root, "assumed", as);
	}
	json_object_object_add(root, "cpus", json_object_new_string(t->cpus));
	json_object_object_add(root, "sysctls", json_object_new_string(t->sysctls));
	json_object_object_add(root, "runs", json_object_new_int(t->runs));
	json_object_object_add(root, "first_seed", json_object_new_int64((int64_t)t->first_seed));
	json_object_object_add(root, "unit", json_object_new_string(t->unit));
	json_object_object_add(root, "higher_is_better", json_object_new_boolean(t->higher_is_better));
	json_object_object_add(root, "mean", json_object_new_string(t->higher_is_better ? "hmean"
										       : "amean"));
	json_object_object_add(root, "significance_level", json_object_new_double(t->sig_level));
	for (int s = 0; s < t->nsides; s++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(t->side_name[s]));
		json_object_object_add(o, "features", json_object_new_string(t->side_features[s]));
		json_object_array_add(sides, o);
	}
	json_object_object_add(root, "sides", sides);
	for (int l = 0; l < t->nloads; l++) {
		json_object *row = json_object_new_object(), *cells = json_object_new_array();

		json_object_object_add(row, "load", json_object_new_string(t->load[l]));
		for (int s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = cmp_cell_at(t, l, s);
			json_object *o = json_object_new_object(), *vals = json_object_new_array();
			json_object *dg = json_object_new_object();

			json_object_object_add(o, "name", json_object_new_string(t->side_name[s]));
			json_object_object_add(o, "mean", json_object_new_double(c->s.mean));
			bool spread = c->n > 1; /* one run: no spread, no test (null) */

			json_object_object_add(o, "stddev", spread ? json_object_new_double(c->s.stddev) : NULL);
			json_object_object_add(o, "coeffvar", spread ? json_object_new_double(c->coeffvar) : NULL);
			json_object_object_add(o, "min", json_object_new_double(c->s.min));
			json_object_object_add(o, "max", json_object_new_double(c->s.max));
			for (int r = 0; r < c->n; r++)
				json_object_array_add(vals, json_object_new_double(c->values[r]));
			json_object_object_add(o, "values", vals);
			/* Every metric, not only the diagnostics the text ranks:
			 * scripts derive rates (bench/fidelity's B1 counters). */
			for (int d = 0; d < nr_metric_defs && d < CMP_MAX_METRICS; d++)
				json_object_object_add(dg, metric_defs[d].name,
						       json_object_new_double(c->metric[d]));
			json_object *ie = json_object_new_object();

			for (int i = 0; i < t->nr_idle_states && i < WS_MAX_IDLE_STATES; i++)
				json_object_object_add(ie, t->idle_state[i],
						       json_object_new_double(c->idle_exits[i]));
			json_object_object_add(dg, "idle_exits", ie);
			json_object_object_add(dg, "placements", placements_json(c->place, false));
			if (t->nr_policy_counters) {
				json_object *pc = json_object_new_object();

				for (int k = 0; k < t->nr_policy_counters && k < POLICY_MAX_COUNTERS; k++)
					json_object_object_add(pc, t->policy_counter[k],
							       json_object_new_double(c->policy[k]));
				json_object_object_add(dg, "policy", pc);
			}
			json_object_object_add(o, "metrics", dg);
			json_object_object_add(o, "same_placements",
					       c->same_placements < 0 ? NULL
								      : json_object_new_boolean(c->same_placements));
			if (c->steady_runs)
				json_object_object_add(o, "not_steady",
						       json_object_new_int(c->not_steady));
			json_object_object_add(o, "change_pct", json_object_new_double(c->change_pct));
			json_object_object_add(o, "p_value", spread ? json_object_new_double(c->p_value) : NULL);
			json_object_object_add(o, "significant", json_object_new_boolean(c->significant));
			json_object_array_add(cells, o);
		}
		json_object_object_add(row, "sides", cells);
		json_object_array_add(rows, row);
	}
	json_object_object_add(root, "rows", rows);
	if (t->robust)
		json_object_object_add(root, "robust", robust_json(t->robust, t->load, t->side_name));
	return root;
}
