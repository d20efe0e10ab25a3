/*
 * profile.c - the --kernel profiles as data (features.h's struct
 * kernel_profile): docs/kernel-model.md's table of profiles, sourced there.
 */
#include "features.h"

#include <string.h>

#define F(x) __SCHED_FEAT_##x

const struct kernel_profile kernel_profiles[KV_NR] = {
	[KV_5_12] = {
		.name = "v5.12", .cfs = true, .base_slice_floor = false, .cls_level = false,
		.base_slice_ns = 0, .schedstat_version = 15, .rd_flags_on_change = false,
		.pipe_read_wakes_if_was_full = true, .pipe_ring_under_rd_wait_lock = true,
		.migrate_pelt_lag = false,
		/* v5.12's features.h: SIS_PROP on, no SIS_UTIL (v6.0); before S1
		 * was merged (v5.13), has_idle_cores was read without SMT too;
		 * DELAY_DEQUEUE and DELAY_ZERO came with v6.12. */
		.feat_on = { F(SIS_PROP), F(IDLE_CORES_NO_SMT), -1 },
		.feat_off = { F(SIS_UTIL), F(DELAY_DEQUEUE), F(DELAY_ZERO), F(TG_LOAD_RATELIMIT), -1 },
	},
	[KV_6_4] = {
		.name = "v6.4", .cfs = true, .base_slice_floor = true, .cls_level = true,
		.base_slice_ns = 0, .schedstat_version = 15, .rd_flags_on_change = false,
		.pipe_read_wakes_if_was_full = true, .pipe_ring_under_rd_wait_lock = true,
		.migrate_pelt_lag = true,
		.feat_on = { -1 },
		.feat_off = { F(DELAY_DEQUEUE), F(DELAY_ZERO), F(TG_LOAD_RATELIMIT), -1 },
	},
	[KV_6_6] = {
		.name = "v6.6", .cfs = false, .base_slice_floor = false, .cls_level = true,
		.base_slice_ns = 750000, .schedstat_version = 15, .rd_flags_on_change = false,
		.pipe_read_wakes_if_was_full = true, .pipe_ring_under_rd_wait_lock = true,
		.migrate_pelt_lag = true,
		.feat_on = { -1 },
		.feat_off = { F(DELAY_DEQUEUE), F(DELAY_ZERO), F(TG_LOAD_RATELIMIT), -1 },
	},
	[KV_MAINLINE] = {
		.name = "mainline", .cfs = false, .base_slice_floor = false, .cls_level = true,
		.base_slice_ns = 700000, .schedstat_version = 16, .rd_flags_on_change = true,
		.pipe_read_wakes_if_was_full = false,
		.migrate_pelt_lag = true, .amd_zen5_known = true,
		.feat_on = { -1 },
		.feat_off = { -1 },
	},
};

#undef F

int kernel_version_parse(const char *s)
{
	for (int i = 0; i < KV_NR; i++)
		if (!strcmp(s, kernel_profiles[i].name))
			return i;
	return -1;
}

const char *kernel_version_name(enum kernel_version v)
{
	return v < KV_NR ? kernel_profiles[v].name : "?";
}

void sched_features_default_for(struct sched_features *f, enum kernel_version v)
{
	const struct kernel_profile *p = kernel_profile(v);

	sched_features_default(f);
	for (int i = 0; p->feat_on[i] >= 0; i++)
		f->on[p->feat_on[i]] = true;
	for (int i = 0; p->feat_off[i] >= 0; i++)
		f->on[p->feat_off[i]] = false;
}
