/*
 * jsonpos.c - walk JSON text with a stack of open containers.
 */
#include "jsonpos.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct frame {
	bool array;
	int index;
	char key[128];
};

/* Whether the open containers spell path ("a.b[2].c"). */
static bool frames_are(const struct frame *st, int depth, const char *path)
{
	char buf[1024];
	size_t off = 0;

	for (int d = 0; d < depth && off < sizeof(buf); d++)
		off += (size_t)(st[d].array
					? snprintf(buf + off, sizeof(buf) - off, "[%d]", st[d].index)
					: snprintf(buf + off, sizeof(buf) - off, "%s%s", off ? "." : "",
						   st[d].key));
	return off < sizeof(buf) && !strcmp(buf, path);
}

/* Skip a comment starting at text[i] ('/'); returns the index of its end. */
static size_t skip_comment(const char *text, size_t len, size_t i, int *line)
{
	if (i + 1 < len && text[i + 1] == '/') {
		while (i < len && text[i] != '\n')
			i++;
		return i - 1; /* the newline is counted by the caller */
	}
	if (i + 1 < len && text[i + 1] == '*') {
		for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
			if (text[i] == '\n')
				(*line)++;
		return i + 1;
	}
	return i;
}

/* Skip a string starting at text[i] ('"'); returns the index of its closing quote. */
static size_t skip_string(const char *text, size_t len, size_t i, int *line)
{
	for (i++; i < len && text[i] != '"'; i++) {
		if (text[i] == '\\')
			i++;
		else if (text[i] == '\n')
			(*line)++;
	}
	return i;
}

int json_path_line(const char *text, size_t len, const char *path)
{
	struct frame st[MAX_DEPTH];
	int depth = 0, line = 1;
	bool expect_key = false;

	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		if (ch == '\n') {
			line++;
		} else if (ch == '/') {
			i = skip_comment(text, len, i, &line);
		} else if (ch == '"') {
			size_t start = i + 1;

			if (depth && st[depth - 1].array && frames_are(st, depth, path))
				return line; /* a string element */
			i = skip_string(text, len, i, &line);
			if (depth && !st[depth - 1].array && expect_key) {
				snprintf(st[depth - 1].key, sizeof(st[depth - 1].key), "%.*s",
					 (int)(i - start), text + start);
				expect_key = false;
				if (frames_are(st, depth, path))
					return line;
			}
		} else if (ch == '{' || ch == '[') {
			if (depth && st[depth - 1].array && frames_are(st, depth, path))
				return line;
			if (depth == MAX_DEPTH)
				return 0;
			st[depth].array = ch == '[';
			st[depth].index = 0;
			st[depth].key[0] = '\0';
			depth++;
			expect_key = ch == '{';
		} else if (ch == '}' || ch == ']') {
			if (depth)
				depth--;
		} else if (ch == ',' && depth) {
			if (st[depth - 1].array)
				st[depth - 1].index++;
			else
				expect_key = true;
		} else if (depth && st[depth - 1].array && ch != ' ' && ch != '\t' && ch != '\r' &&
			   frames_are(st, depth, path)) {
			return line; /* a scalar element */
		}
	}
	return 0;
}

int json_path_line_or_parent(const char *text, size_t len, const char *path)
{
	char p[1024];
	int line;

	snprintf(p, sizeof(p), "%s", path);
	while (!(line = json_path_line(text, len, p))) {
		char *cut = strrchr(p, '.'), *br = strrchr(p, '[');

		if (br && (!cut || br > cut))
			cut = br;
		if (!cut)
			break;
		*cut = '\0';
	}
	return line;
}

struct keyset {
	char **key;	/* the object's keys so far, the last one holding the value being read */
	int n, cap;
	int curid;	/* workgen's per-object counter */
	bool array;	/* an array's frame: no keys, an element index */
	int index;
};

static bool keyset_has(const struct keyset *k, const char *s)
{
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->key[i], s))
			return true;
	return false;
}

static int keyset_add(struct keyset *k, const char *s, size_t n)
{
	if (k->n == k->cap) {
		int cap = k->cap ? 2 * k->cap : 16;
		char **nk = realloc(k->key, sizeof(*nk) * (size_t)cap);

		if (!nk)
			return -1;
		k->key = nk;
		k->cap = cap;
	}
	k->key[k->n] = strndup(s, n);
	return k->key[k->n] ? (k->n++, 0) : -1;
}

static void keyset_clear(struct keyset *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->key[i]);
	k->n = 0;
	k->curid = 1;
	k->index = 0;
}

/*
 * The path (jsonpos.h's form, "a.b[2].c") of key name in the object at
 * frame depth - 1 of st, into out (outlen bytes, cut if longer).
 */
static void frames_path(const struct keyset *st, int depth, const char *name, char *out,
			size_t outlen)
{
	size_t o = 0;

	out[0] = '\0';
	for (int d = 0; d + 1 < depth && o < outlen; d++) {
		if (st[d].array)
			o += (size_t)snprintf(out + o, outlen - o, "[%d]", st[d].index);
		else if (st[d].n)
			o += (size_t)snprintf(out + o, outlen - o, "%s%s", o ? "." : "",
					      st[d].key[st[d].n - 1]);
	}
	if (o < outlen)
		snprintf(out + o, outlen - o, "%s%s", o ? "." : "", name);
}

/*
 * Walk the object keys of JSON text with, for each open object, the set of
 * its keys seen so far (finding a repeat and workgen's renaming both need
 * it). on_key gets the key's name (at most 250 bytes), the indices of its
 * opening and closing quotes, and its line; a non-zero return stops the
 * walk and is returned. Nesting past MAX_DEPTH returns -1; an unterminated
 * string ends the walk.
 */
typedef int (*key_fn)(void *ctx, struct keyset *st, int depth, const char *name, size_t open,
		      size_t close, int line);

static int walk_keys(const char *text, size_t len, key_fn on_key, void *ctx)
{
	struct keyset st[MAX_DEPTH] = { { 0 } };
	int depth = 0, line = 1, ret = 0;
	bool expect_key = false;

	for (size_t i = 0; i < len && !ret; i++) {
		char ch = text[i];

		if (ch == '\n') {
			line++;
		} else if (ch == '/') {
			i = skip_comment(text, len, i, &line);
		} else if (ch == '"') {
			size_t open = i;

			i = skip_string(text, len, i, &line);
			if (i >= len)
				break;
			if (depth && !st[depth - 1].array && expect_key) {
				size_t n = i - open - 1;
				char name[300];

				expect_key = false;
				snprintf(name, sizeof(name), "%.*s", (int)(n < 250 ? n : 250), text + open + 1);
				ret = on_key(ctx, st, depth, name, open, i, line);
			}
		} else if (ch == '{' || ch == '[') {
			if (depth == MAX_DEPTH) {
				ret = -1;
				break;
			}
			keyset_clear(&st[depth]);
			st[depth].array = ch == '[';
			depth++;
			expect_key = ch == '{';
		} else if (ch == '}' || ch == ']') {
			if (depth)
				depth--;
		} else if (ch == ',' && depth) {
			if (st[depth - 1].array)
				st[depth - 1].index++;
			else
				expect_key = true;
		}
	}
	for (int d = 0; d < MAX_DEPTH; d++) {
		keyset_clear(&st[d]);
		free(st[d].key);
	}
	return ret;
}

struct repeat {
	char *key;
	size_t keylen;
};

/* A repeat stops the walk with its line. */
static int repeat_key(void *ctx, struct keyset *st, int depth, const char *name, size_t open,
		      size_t close, int line)
{
	struct repeat *r = ctx;
	struct keyset *k = &st[depth - 1];

	(void)open;
	(void)close;
	if (keyset_has(k, name)) {
		frames_path(st, depth, name, r->key, r->keylen);
		return line;
	}
	return keyset_add(k, name, strlen(name)) ? -1 : 0;
}

int json_repeated_key(const char *text, size_t len, char *key, size_t keylen)
{
	struct repeat r = { key, keylen };
	int line = walk_keys(text, len, repeat_key, &r);

	return line > 0 ? line : 0;
}

struct unique {
	const char *text;
	char *out;
	size_t olen, cap;
	size_t copied;		/* text before this index is in out */
	int renamed;
};

static int out_put(struct unique *u, const char *s, size_t n)
{
	if (u->olen + n > u->cap) {
		size_t cap = 2 * (u->olen + n);
		char *o = realloc(u->out, cap + 1);

		if (!o)
			return -1;
		u->out = o;
		u->cap = cap;
	}
	memcpy(u->out + u->olen, s, n);
	u->olen += n;
	return 0;
}

/* A repeated key K becomes K<curid>, the first such name not taken yet. */
static int unique_key(void *ctx, struct keyset *st, int depth, const char *name, size_t open,
		      size_t close, int line)
{
	struct unique *u = ctx;
	struct keyset *k = &st[depth - 1];
	char nk[300];

	(void)line;
	if (!keyset_has(k, name))
		return keyset_add(k, name, strlen(name)) ? -1 : 0;
	snprintf(nk, sizeof(nk), "%s%d", name, k->curid);
	while (keyset_has(k, nk)) {
		k->curid++;
		snprintf(nk, sizeof(nk), "%s%d", name, k->curid);
	}
	if (keyset_add(k, nk, strlen(nk)) || out_put(u, u->text + u->copied, open + 1 - u->copied) ||
	    out_put(u, nk, strlen(nk)))
		return -1;
	u->copied = close;	/* the closing quote goes out with what follows */
	u->renamed++;
	return 0;
}

char *json_unique_keys(const char *text, size_t len, int *renamed)
{
	struct unique u = { .text = text, .cap = len + 64 };

	*renamed = 0;
	u.out = malloc(u.cap + 1);
	if (!u.out)
		return NULL;
	if (walk_keys(text, len, unique_key, &u) || out_put(&u, text + u.copied, len - u.copied)) {
		free(u.out);
		return NULL;
	}
	u.out[u.olen] = '\0';
	*renamed = u.renamed;
	return u.out;
}
