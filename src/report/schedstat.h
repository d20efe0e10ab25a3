/*
 * schedstat.h - a simulated run's scheduler counters as /proc/schedstat
 * prints them (show_schedstat(), kernel/sched/stats.c), so tools that read
 * or diff schedstat snapshots read simulated runs like real ones.
 *
 * The counters start at zero with the run, so the file is the difference
 * a tool would take between snapshots before and after it. Version by
 * kernel profile: 15 for v5.12, v6.4 and v6.6 (load-balance counters by
 * idle type in the order idle, busy, newly idle), 16 for mainline (busy,
 * idle, newly idle: the order enum cpu_idle_type took in v6.9, which
 * bumped the version). Per CPU: yld_count (0: no sched_yield() is
 * modelled), sched_count, sched_goidle, ttwu_count, ttwu_local,
 * rq_cpu_time (ns), run_delay (ns), pcount. Per domain: its span as a
 * hex bitmap, then per idle type lb_count, lb_balanced, lb_failed,
 * lb_imbalance, lb_gained, lb_hot_gained, lb_nobusyq, lb_nobusyg, then
 * the active-balance, exec-balance and fork-balance counters (0: not
 * modelled, and the last two are 0 in the kernel too), ttwu_wake_remote,
 * ttwu_move_affine and ttwu_move_balance (0, as in the kernel).
 */
#ifndef WS_SCHEDSTAT_H
#define WS_SCHEDSTAT_H

#include <stdio.h>

#include "kern/sim.h"

/* Write sim's counters, at the end of its run, as /proc/schedstat. */
void schedstat_write(struct sim *sim, FILE *f);

#endif
