/*
 * costs_json.h - cost profiles and the idle states and costs a machine
 * file or a profile gives (costs_json.c), for the machine file reader
 * (machine_json.c) and the loader (preset.c).
 */
#ifndef WS_COSTS_JSON_H
#define WS_COSTS_JSON_H

#include <json-c/json.h>

#include "machine.h"
#include "util/jsonin.h"

/* A message for the field at path (util/jsonin.h's style): returns -1. */
static inline int jfail(const struct json_in *c, const char *path, const char *what)
{
	return json_in_fail(c, path, "%s", what);
}

/*
 * "idle_states" (replacing the machine's) and "costs" (over what is
 * already set) of a document's root. Returns 0 or -1 (c's message).
 */
int costs_json_idle_and_costs(const struct json_in *c, json_object *root, struct machine *m);

/*
 * "sources" of a document's root, if there: an object of strings (and,
 * with figures_ok, as calibrate writes them, of objects of strings and
 * numbers). Returns 0 or -1 (c's message).
 */
int costs_json_sources(const struct json_in *c, json_object *root, bool figures_ok);

/*
 * A cost profile's text (len bytes, from file) applied to m. Returns 0, or
 * -1 with "FILE:LINE: field ...: why" in err.
 */
int costs_json_profile(const char *text, size_t len, const char *file, struct machine *m,
		       char *err, size_t errlen);

/* costs/default.json, the costs every machine starts from. Returns 0 or -1. */
int costs_json_defaults(struct machine *m, char *err, size_t errlen);

#endif
