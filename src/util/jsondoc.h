/*
 * jsondoc.h - parse a JSON input file strictly, with errors that name the
 * file and line: machine files, cost profiles and result files are plain
 * JSON (no comments, trailing commas or single quotes; rt-app files, read
 * elsewhere, allow them), and a repeated key is an error, since json-c
 * would keep the last one and an earlier typo would vanish.
 */
#ifndef WS_JSONDOC_H
#define WS_JSONDOC_H

#include <json-c/json.h>
#include <stddef.h>

/*
 * Parse text (len bytes, read from file) into *out (a new reference).
 * Returns 0, or -1 with err "FILE:LINE: why" (syntax error, end of file,
 * text after the document, a lone null, a repeated key).
 */
int json_doc_parse(const char *text, size_t len, const char *file, json_object **out,
		   char *err, size_t errlen);

/*
 * The same as rt-app reads its files (json-c's default: C comments,
 * trailing commas and single quotes allowed; repeated keys made unique
 * before, json_unique_keys()), with the same messages.
 */
int json_doc_parse_lenient(const char *text, size_t len, const char *file, json_object **out,
			   char *err, size_t errlen);

#endif
