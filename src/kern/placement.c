/*
 * placement.c - the names of placement reasons (kern/placement.h), as the
 * trace, the tables and JSON print them: the kernel's function or branch,
 * and a feature's name where the branch is a seed's.
 */
#include "placement.h"

static const char *const reason_names[PR_NR] = {
	[PR_SINGLE_CPU] = "single_cpu",
	[PR_FORK_BALANCE] = "fork_balance",
	[PR_WAKE_BALANCE] = "wake_balance",
	[PR_TARGET_IDLE] = "target_idle",
	[PR_PREV_IDLE] = "prev_idle",
	[PR_RECENT_IDLE] = "recent_used_cpu_idle",
	[PR_SMT_SIBLING] = "idle_smt_sibling",
	[PR_SCAN_IDLE_CORE] = "scan_idle_core",
	[PR_SCAN_IDLE_CPU] = "scan_idle_cpu",
	[PR_SCAN_NO_BUDGET] = "scan_no_budget",
	[PR_SCAN_BUDGET_SPENT] = "scan_budget_spent",
	[PR_SCAN_EXHAUSTED] = "scan_exhausted",
	[PR_PREV_OTHER_CLUSTER] = "prev_other_cluster",
	[PR_RECENT_OTHER_CLUSTER] = "recent_other_cluster",
	[PR_CAPACITY] = "capacity_search",
	[PR_NO_LLC] = "no_sd_llc",
	[PR_SIS_SHORT_SCAN] = "SIS_SHORT_scan",
	[PR_POLICY] = "policy",
	[PR_ON_CPU] = "on_cpu_wakelist",
};

static const char *const affine_names[PA_NR] = {
	[PA_NONE] = "none",
	[PA_NO_WAKER] = "no_waker",
	[PA_WIDE] = "wide",
	[PA_WAKER_IS_PREV] = "waker_is_prev",
	[PA_NO_DOMAIN] = "no_affine_domain",
	[PA_IDLE] = "affine_idle",
	[PA_IDLE_PREV] = "affine_idle_prev",
	[PA_SYNC] = "affine_sync",
	[PA_PREV_IDLE] = "prev_idle",
	[PA_WEIGHT] = "affine_weight",
	[PA_WEIGHT_PREV] = "weight_prev",
	[PA_SIS_SHORT] = "SIS_SHORT_affine",
	[PA_ON_CPU] = "on_cpu",
};

static const char *const dist_names[PLACE_DIST_NR] = {
	"none", "smt", "cluster", "llc", "node", "package", "remote",
};

const char *place_reason_name(enum place_reason r)
{
	return r >= 0 && r < PR_NR ? reason_names[r] : "?";
}

const char *place_affine_name(enum place_affine a)
{
	return a >= 0 && a < PA_NR ? affine_names[a] : "?";
}

const char *place_dist_name(int d)
{
	return d >= 0 && d < PLACE_DIST_NR ? dist_names[d] : "?";
}
