/*
 * winloss.c - a policy's wins and losses in one paragraph (winloss.h).
 */
#include "winloss.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double winloss_load_pct(const char *load_name, const char *value, int nr_cpus)
{
	static const char *const counts[] = { "clients", "instances", "tasks", "threads",
					      "processes", "nprocs", "workers" };
	char *end;
	double v;

	if (!load_name || !value || nr_cpus < 1)
		return NAN;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!strcmp(load_name, counts[i])) {
			v = strtod(value, &end);
			return end != value && !*end && v >= 0 ? 100 * v / nr_cpus : NAN;
		}
	return NAN;
}

/* A group's kind: what the paragraph calls it, and its JSON key. */
enum kind { WIN, LOSS, NEVER, NKINDS };
static const char *const kind_word[NKINDS] = { "wins on", "loses on",
					       "never changed a decision on" };
static const char *const kind_key[NKINDS] = { "wins", "losses", "never_changed" };

static int kind_of(const struct wl_cell *c)
{
	if (c->never_changed)
		return NEVER;
	if (!c->significant || c->change_pct == 0)
		return -1;
	return c->change_pct > 0 ? WIN : LOSS;
}

static bool same_table(const struct wl_cell *a, const struct wl_cell *b)
{
	return !strcmp(a->machine, b->machine) && !strcmp(a->workload, b->workload);
}

/* "at 25-100% load" or "at g=2..g=8" (one level: "at 50% load", "at g=2"). */
static void loads_text(const struct wl_cell *a, const struct wl_cell *b, char *out, size_t len)
{
	if (!isnan(a->load_pct) && !isnan(b->load_pct)) {
		if (a == b)
			snprintf(out, len, "at %.0f%% load", a->load_pct);
		else
			snprintf(out, len, "at %.0f-%.0f%% load", a->load_pct, b->load_pct);
	} else if (a == b) {
		snprintf(out, len, "at %s", a->load);
	} else {
		snprintf(out, len, "at %s..%s", a->load, b->load);
	}
}

__attribute__((format(printf, 4, 5)))
static void append(char *out, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	*off += (size_t)vsnprintf(out + *off, len - *off, fmt, ap);
	va_end(ap);
}

void winloss_summary(const struct wl_cell *cells, int n, const char *policy, char *out,
		     size_t len, json_object *js)
{
	size_t off = 0;
	bool said = false;

	out[0] = '\0';
	append(out, len, &off, "%s:", policy);
	for (int k = 0; k < NKINDS; k++) {
		json_object *groups = js ? json_object_new_array() : NULL;
		bool first = true;

		for (int i = 0; i < n;) {
			if (kind_of(&cells[i]) != k) {
				i++;
				continue;
			}
			/* A run: adjacent levels of one table, of one kind. */
			int j = i;
			double lo = cells[i].change_pct, hi = lo;

			while (j + 1 < n && same_table(&cells[j + 1], &cells[i]) &&
			       kind_of(&cells[j + 1]) == k) {
				j++;
				lo = fmin(lo, cells[j].change_pct);
				hi = fmax(hi, cells[j].change_pct);
			}
			char at[160];

			loads_text(&cells[i], &cells[j], at, sizeof(at));
			append(out, len, &off, "%s %s %s with %s %s", said ? ";" : "",
			       first ? kind_word[k] : "on", cells[i].machine, cells[i].workload, at);
			/* The change from the smallest to the largest in its direction. */
			if (k != NEVER && i == j)
				append(out, len, &off, ", %+.1f%%", lo);
			else if (k == WIN)
				append(out, len, &off, ", %+.1f..%+.1f%%", lo, hi);
			else if (k == LOSS)
				append(out, len, &off, ", %+.1f..%+.1f%%", hi, lo);
			said = true;
			first = false;
			if (groups) {
				json_object *g = json_object_new_object(), *ld = json_object_new_array();

				json_object_object_add(g, "machine", json_object_new_string(cells[i].machine));
				json_object_object_add(g, "workload",
						       json_object_new_string(cells[i].workload));
				json_object_array_add(ld, json_object_new_string(cells[i].load));
				json_object_array_add(ld, json_object_new_string(cells[j].load));
				json_object_object_add(g, "loads", ld);
				if (k != NEVER) {
					json_object *ch = json_object_new_array();

					json_object_array_add(ch, json_object_new_double(lo));
					json_object_array_add(ch, json_object_new_double(hi));
					json_object_object_add(g, "change_pct", ch);
				}
				json_object_array_add(groups, g);
			}
			i = j + 1;
		}
		if (js)
			json_object_object_add(js, kind_key[k], groups);
	}
	if (!said)
		append(out, len, &off, " no significant change");
	if (js)
		json_object_object_add(js, "text", json_object_new_string(out));
}
