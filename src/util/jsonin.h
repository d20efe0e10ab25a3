/*
 * jsonin.h - reading the fields of a JSON input (a machine file, a cost
 * profile, a sweep plan, an rt-app file) with one style of message:
 * "FILE:LINE: field "PATH": what", LINE being where the field, or its
 * nearest enclosing key, starts (jsonpos.h; 1 for a field missing from the
 * root object), PATH the dotted path from the
 * document's root ("topology.sockets", "tasks.t1.run"). Every reader
 * refuses unknown fields, numbers out of range or beyond 64 bits, and
 * values of the wrong type, by these.
 */
#ifndef WS_JSONIN_H
#define WS_JSONIN_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_in {
	const char *file;	/* as the message names it */
	const char *text;	/* the document's text, for lines */
	size_t len;
	char *err;		/* where a message goes */
	size_t errlen;
	/*
	 * Optional: appends to what (len bytes in all) a hint about path, e.g.
	 * that a key was renamed before parsing.
	 */
	void (*hint)(const struct json_in *in, const char *path, char *what, size_t len);
	const void *hint_arg;
};

/* The message for the field at path; returns -1. */
int json_in_fail(const struct json_in *in, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A prefix is the path of the object the field is in, with its dot
 * ("topology.", "tasks.t1."), or "" for the root.
 *
 * Refuse a field of object o (at prefix) whose name
 * is not in known (NULL-terminated): "unknown field (known here: ...)". A
 * typo must not be ignored. Returns 0 or -1.
 */
int json_in_known(const struct json_in *in, json_object *o, const char *prefix,
		  const char *const *known);

/*
 * Field key of object o (at prefix): an integer in min..max into *out; a
 * missing field is an error if required, else *out is left as it is.
 * Returns 0 or -1.
 */
int json_in_u64(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, uint64_t min, uint64_t max, uint64_t *out);
int json_in_int(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, int min, int max, int *out);
/* Field key of o (at prefix): true or false into *out; missing leaves *out. */
int json_in_bool(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		 bool *out);
/* The same for a value v already looked up at path, signed. */
int json_in_llong(const struct json_in *in, json_object *v, const char *path, long long min,
		  long long max, long long *out);
/*
 * Field key of o (at prefix), of JSON type t, into *v (borrowed); a missing
 * field is an error if required, else *v is NULL. Returns 0 or -1.
 */
int json_in_get(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		json_type t, bool required, json_object **v);
/*
 * A figure v at path: a finite number of magnitude at most 1e18, or null
 * where null_ok (a figure that is not a number). Returns 0 or -1.
 */
int json_in_figure(const struct json_in *in, json_object *v, const char *path, bool null_ok);
/* Field key of o: a string without NUL characters, copied into out
 * (outlen bytes); if required, not empty either. */
int json_in_str(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, char *out, size_t outlen);

#endif
