/*
 * jsonpos.h - positions in JSON text, for error messages that name the
 * file and line of a bad key. json-c keeps no positions, so readers of
 * machine files and rt-app files find lines by walking the text again.
 * The walk understands strings, and the C comments json-c also accepts.
 */
#ifndef WS_JSONPOS_H
#define WS_JSONPOS_H

#include <stddef.h>

/*
 * The line (1-based) where the value at path starts: "a.b[2].c" names
 * key c of the third element of array b of key a. 0 if it is absent.
 */
int json_path_line(const char *text, size_t len, const char *path);

/*
 * The line of path, or of its nearest enclosing key that occurs (a
 * missing key is reported where its parent is); 0 if none does.
 */
int json_path_line_or_parent(const char *text, size_t len, const char *path);

/*
 * The line of the first key that repeats a key of its object (its path,
 * as json_path_line() takes it, in key), or 0 if every object's keys are
 * unique.
 */
int json_repeated_key(const char *text, size_t len, char *key, size_t keylen);

/*
 * Make the keys of every object unique the way rt-app's workgen does
 * before rt-app parses a file: a repeated key K becomes K<n>, n counting
 * from 1 per object, skipping names already used. Returns a new string
 * (malloc) of the same lines, or NULL when out of memory; *renamed counts
 * the keys changed.
 */
char *json_unique_keys(const char *text, size_t len, int *renamed);

#endif
