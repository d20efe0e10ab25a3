/*
 * winloss.h - where a policy wins and where it loses, said as a kernel
 * developer would say it (issue 23): from a sweep's cells (machine x
 * workload x load level, each a policy's change against the base), the
 * significant wins and losses grouped into runs of adjacent load levels
 * per machine and workload, and the cells where the policy never changed
 * a decision:
 *
 *   wins on kunpeng920-48 with netperf at 25-100% load, +4.0..+12.0%;
 *   loses on zen2-7742-2s with tbench at 100-200% load, -11.0..-20.0%
 *
 * Built from values alone, so a summary can be checked against cells
 * written by hand.
 */
#ifndef WS_WINLOSS_H
#define WS_WINLOSS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

/* One policy's result at one (machine, workload, load level). */
struct wl_cell {
	const char *machine, *workload;
	const char *load;	/* the level's label: "g=8", "clients=64", "default" */
	double load_pct;	/* the level as % of the machine's CPUs; NaN: not a task count */
	double change_pct;	/* against the base, positive = better in the workload's sense */
	bool significant;	/* Welch's t-test at the sweep's level */
	bool never_changed;	/* every run placed every task as the base's did */
};

/*
 * The summary of cells[0..n) for policy (cells in plan order: machine,
 * workload, then load level ascending), as one paragraph into out (len
 * bytes): "POLICY: wins on ...; loses on ...; never changed a decision on
 * ...", or "POLICY: no significant change" when nothing qualifies. With
 * js non-NULL, also {"wins": [...], "losses": [...], "never_changed":
 * [...]} each a group {"machine", "workload", "loads": [first, last],
 * "change_pct": [min, max]} added to js (an object), and "text".
 */
void winloss_summary(const struct wl_cell *cells, int n, const char *policy, char *out,
		     size_t len, json_object *js);

/*
 * A load level's size as % of nr_cpus CPUs when the load names a task
 * count (clients, instances, tasks, threads, processes, nprocs, workers):
 * value x 100 / nr_cpus; else NaN (hackbench's groups, loops, rates).
 */
double winloss_load_pct(const char *load_name, const char *value, int nr_cpus);

#endif
