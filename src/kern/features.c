/*
 * features.c - parsing and printing of the feature switches in features.h.
 */
#include "features.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
#define WS_FEAT_NAME(name, def) #name,
	WS_SCHED_FEATURES(WS_FEAT_NAME)
#undef WS_FEAT_NAME
};

static const bool defaults[] = {
#define WS_FEAT_DEF(name, def) def,
	WS_SCHED_FEATURES(WS_FEAT_DEF)
#undef WS_FEAT_DEF
};

void sched_features_default(struct sched_features *f)
{
	for (int i = 0; i < __SCHED_FEAT_NR; i++)
		f->on[i] = defaults[i];
}

const char *sched_feature_name(int i)
{
	return i >= 0 && i < __SCHED_FEAT_NR ? names[i] : NULL;
}

bool sched_feature_default(int i)
{
	return defaults[i];
}

int sched_features_parse(struct sched_features *f, const char *list, char *err,
			 size_t errlen)
{
	char buf[1024];
	char *save = NULL;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "feature list too long");
		return -1;
	}
	signed char given[__SCHED_FEAT_NR];
	bool any = false;

	memset(given, -1, sizeof(given));
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool value = true;
		const char *typed;
		int i;

		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		any = true;
		if (!strcmp(tok, "default"))
			continue;
		typed = tok;
		if (!strncmp(tok, "NO_", 3)) {
			value = false;
			tok += 3;
		}
		for (i = 0; i < __SCHED_FEAT_NR; i++)
			if (!strcmp(names[i], tok))
				break;
		if (i == __SCHED_FEAT_NR) {
			int off = snprintf(err, errlen, "unknown feature \"%s\" (known:", typed);

			for (int j = 0; j < __SCHED_FEAT_NR && off > 0 && (size_t)off < errlen; j++)
				off += snprintf(err + off, errlen - (size_t)off, " %s", names[j]);
			if (off > 0 && (size_t)off < errlen)
				snprintf(err + off, errlen - (size_t)off, ")");
			return -1;
		}
		if (given[i] >= 0 && given[i] != value) {
			snprintf(err, errlen, "feature %s given both on and off", names[i]);
			return -1;
		}
		given[i] = value;
		f->on[i] = value;
	}
	if (!any) {
		snprintf(err, errlen, "empty feature list (\"default\" keeps mainline's)");
		return -1;
	}
	return 0;
}

void sched_features_describe(const struct sched_features *f, enum kernel_version v, char *buf,
			     size_t len)
{
	struct sched_features def;
	size_t off = 0;

	sched_features_default_for(&def, v);
	buf[0] = '\0';
	for (int i = 0; i < __SCHED_FEAT_NR; i++) {
		if (f->on[i] == def.on[i])
			continue;
		int n = snprintf(buf + off, len - off, "%s%s%s", off ? "," : "",
				 f->on[i] ? "" : "NO_", names[i]);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
	if (!off)
		snprintf(buf, len, "default");
}
