/*
 * jsonin.c - the field readers of jsonin.h.
 */
#include "jsonin.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonpos.h"

int json_in_fail(const struct json_in *in, const char *path, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	int line = json_path_line_or_parent(in->text, in->len, path);

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (in->hint)
		in->hint(in, path, what, sizeof(what));
	/* A field missing from the root object: where the document starts. */
	snprintf(in->err, in->errlen, "%s:%d: field \"%s\": %s", in->file, line ? line : 1, path,
		 what);
	return -1;
}

int json_in_known(const struct json_in *in, json_object *o, const char *prefix,
		  const char *const *known)
{
	json_object_object_foreach(o, key, val) {
		bool ok = false;

		(void)val;
		for (int i = 0; known[i]; i++)
			ok |= !strcmp(known[i], key);
		if (!ok) {
			char path[256], list[512] = "";

			snprintf(path, sizeof(path), "%s%s", prefix, key);
			for (int i = 0; known[i]; i++) {
				size_t n = strlen(list);

				snprintf(list + n, sizeof(list) - n, " %s", known[i]);
			}
			return json_in_fail(in, path, "unknown field (known here:%s)", list);
		}
	}
	return 0;
}

/*
 * json-c gives INT64_MAX for every integer from 2^63 - 1 up and INT64_MIN
 * from -2^63 down (both ranges here are far inside), so say only that.
 */
static const char *saturated(int64_t x)
{
	return x == INT64_MAX ? "a number of 2^63 - 1 or more" : "a number of -2^63 or less";
}

static void join(char *path, size_t len, const char *prefix, const char *key)
{
	snprintf(path, len, "%s%s", prefix, key);
}

int json_in_u64(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, uint64_t min, uint64_t max, uint64_t *out)
{
	json_object *v;
	char path[256];

	join(path, sizeof(path), prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return required ? json_in_fail(in, path, "missing") : 0;
	if (!json_object_is_type(v, json_type_int))
		return json_in_fail(in, path, "expected an integer in %llu..%llu",
				    (unsigned long long)min, (unsigned long long)max);
	int64_t x = json_object_get_int64(v);

	if (x == INT64_MAX || x == INT64_MIN) /* json-c saturates: the text is lost */
		return json_in_fail(in, path, "%s is outside %llu..%llu", saturated(x),
				    (unsigned long long)min, (unsigned long long)max);
	if (x < 0 || (uint64_t)x < min || (uint64_t)x > max)
		return json_in_fail(in, path, "%lld is outside %llu..%llu", (long long)x,
				    (unsigned long long)min, (unsigned long long)max);
	*out = (uint64_t)x;
	return 0;
}

int json_in_bool(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		 bool *out)
{
	json_object *v;
	char path[256];

	join(path, sizeof(path), prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return json_in_fail(in, path, "expected true or false");
	*out = json_object_get_boolean(v);
	return 0;
}

int json_in_int(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, int min, int max, int *out)
{
	uint64_t v = (uint64_t)*out;

	if (json_in_u64(in, o, prefix, key, required, (uint64_t)min, (uint64_t)max, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int json_in_llong(const struct json_in *in, json_object *v, const char *path, long long min,
		  long long max, long long *out)
{
	if (!json_object_is_type(v, json_type_int))
		return json_in_fail(in, path, "expected an integer in %lld..%lld", min, max);
	int64_t x = json_object_get_int64(v);

	if (x == INT64_MAX || x == INT64_MIN)
		return json_in_fail(in, path, "%s is outside %lld..%lld", saturated(x), min, max);
	if (x < min || x > max)
		return json_in_fail(in, path, "%lld is outside %lld..%lld", (long long)x, min, max);
	*out = x;
	return 0;
}

int json_in_str(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		bool required, char *out, size_t outlen)
{
	json_object *v;
	char path[256];

	join(path, sizeof(path), prefix, key);
	if (!json_object_object_get_ex(o, key, &v))
		return required ? json_in_fail(in, path, "missing") : 0;
	if (!json_object_is_type(v, json_type_string))
		return json_in_fail(in, path, "expected a string");
	const char *str = json_object_get_string(v);

	/* "\u0000" would cut the name short without a word. */
	if (strlen(str) != (size_t)json_object_get_string_len(v))
		return json_in_fail(in, path, "a string with a NUL character (\\u0000)");
	if (required && !*str)
		return json_in_fail(in, path, "empty");
	snprintf(out, outlen, "%s", str);
	return 0;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	case json_type_boolean: return "true or false";
	case json_type_int: return "an integer";
	case json_type_double: return "a number";
	default: return "null";
	}
}

int json_in_get(const struct json_in *in, json_object *o, const char *prefix, const char *key,
		json_type t, bool required, json_object **v)
{
	char path[256];

	join(path, sizeof(path), prefix, key);
	*v = NULL;
	if (!json_object_object_get_ex(o, key, v)) {
		*v = NULL;
		return required ? json_in_fail(in, path, "missing") : 0;
	}
	if (!json_object_is_type(*v, t) &&
	    !(t == json_type_double && json_object_is_type(*v, json_type_int))) {
		*v = NULL;
		return json_in_fail(in, path, "expected %s", type_name(t));
	}
	return 0;
}

int json_in_figure(const struct json_in *in, json_object *v, const char *path, bool null_ok)
{
	if (!v && null_ok)
		return 0;
	if (!v || (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)))
		return json_in_fail(in, path, "expected a number%s", null_ok ? " or null" : "");
	double x = json_object_get_double(v);

	if (!isfinite(x) || fabs(x) > 1e18)
		return json_in_fail(in, path, "%g is not a finite number of at most 1e18", x);
	return 0;
}
