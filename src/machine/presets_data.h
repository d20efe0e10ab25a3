/*
 * presets_data.h - the machine files of machines/ ("NAME") and the cost
 * profiles of costs/ ("costs/NAME"), built into the binary by
 * tools/embed.sh so ./wakesim runs from anywhere.
 */
#ifndef WS_PRESETS_DATA_H
#define WS_PRESETS_DATA_H

#include <stddef.h>

struct preset_blob {
	const char *name;	/* file name without .json */
	const char *text;	/* NUL-terminated contents */
	size_t len;		/* bytes, without the NUL */
};

extern const struct preset_blob preset_blobs[];
extern const int preset_blob_count;

/* The blob named name, or NULL. */
const struct preset_blob *preset_blob_find(const char *name);

#endif
