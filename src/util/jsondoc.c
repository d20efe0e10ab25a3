/*
 * jsondoc.c - json_doc_parse() of jsondoc.h.
 */
#include "jsondoc.h"

#include <stdbool.h>
#include <stdio.h>

#include "jsonpos.h"

/* Either flavour: strict and with unique keys, or as rt-app takes it. */
static int parse(const char *text, size_t len, const char *file, bool strict, json_object **out,
		 char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *root;

	if (!tok) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	if (strict)
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);

	if (!root && jerr == json_tokener_success) {
		/* A lone "null" parses fine and yields no object. */
		snprintf(err, errlen, "%s:1: expected a JSON object, found null", file);
		json_tokener_free(tok);
		return -1;
	}
	if (!root || jerr != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		size_t off = json_tokener_get_parse_end(tok);
		int line = 1;

		for (size_t i = 0; i < off && i < len; i++)
			line += text[i] == '\n';
		if (root && jerr == json_tokener_success) {
			/* Only whitespace may follow the document. */
			bool junk = false;

			for (size_t i = off; i < len; i++)
				if (text[i] != ' ' && text[i] != '\n' && text[i] != '\t' &&
				    text[i] != '\r')
					junk = true;
			if (!junk) {
				json_tokener_free(tok);
				*out = root;
				return 0;
			}
			snprintf(err, errlen, "%s:%d: unexpected text after the JSON document",
				 file, line);
			json_object_put(root);
		} else {
			snprintf(err, errlen, "%s:%d: JSON syntax error: %s", file, line,
				 jerr == json_tokener_continue ? "unexpected end of file"
							       : json_tokener_error_desc(jerr));
			if (root)
				json_object_put(root);
		}
		json_tokener_free(tok);
		return -1;
	}
	json_tokener_free(tok);
	if (!strict) {
		*out = root;
		return 0;
	}
	char path[512];
	int kline = json_repeated_key(text, len, path, sizeof(path));

	if (kline) {
		/* json-c keeps the last of repeated keys: an earlier typo would vanish. */
		snprintf(err, errlen, "%s:%d: field \"%s\": given twice in one object", file, kline,
			 path);
		json_object_put(root);
		return -1;
	}
	*out = root;
	return 0;
}

int json_doc_parse(const char *text, size_t len, const char *file, json_object **out,
		   char *err, size_t errlen)
{
	return parse(text, len, file, true, out, err, errlen);
}

int json_doc_parse_lenient(const char *text, size_t len, const char *file, json_object **out,
			   char *err, size_t errlen)
{
	return parse(text, len, file, false, out, err, errlen);
}
