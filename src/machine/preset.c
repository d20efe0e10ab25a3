/*
 * preset.c - loading any machine spec: a preset's name (machines/NAME.json,
 * built into the binary; machine_json.c reads it), "host", "sysfs:DIR",
 * "lscpu:FILE", "hwloc:FILE" or a machine file; the SMT lists every
 * machine gets (machine_finish()); the presets' list.
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costs_json.h"
#include "presets_data.h"
#include "util/textfile.h"

void machine_free(struct machine *m)
{
	free(m->smt);
	free(m->smt_cpus);
	free(m->smt_nr);
	m->smt = NULL;
	m->smt_cpus = m->smt_nr = NULL;
}

int machine_finish(struct machine *m, char *err, size_t errlen)
{
	struct topology *t = &m->topo;
	int n = t->nr_cpus;

	if (topology_finalize(t, err, errlen))
		return -1;
	nr_cpu_ids = n;
	machine_free(m);
	m->smt = malloc(sizeof(*m->smt) * (size_t)n);
	m->smt_cpus = malloc(sizeof(int) * (size_t)n * (size_t)t->smt_width);
	m->smt_nr = calloc((size_t)n, sizeof(int));
	if (!m->smt || !m->smt_cpus || !m->smt_nr) {
		machine_free(m);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/*
	 * Siblings share a (dense) core id: list each core's CPUs in one
	 * pass, ascending, then give every CPU its core's list and mask.
	 */
	int nr_cores = 0, w = t->smt_width;

	for (int c = 0; c < n; c++)
		if (t->cpu[c].core >= nr_cores)
			nr_cores = t->cpu[c].core + 1;
	int *core_cpus = malloc(sizeof(int) * (size_t)nr_cores * (size_t)w);
	int *core_nr = calloc((size_t)nr_cores, sizeof(int));

	if (!core_cpus || !core_nr) {
		free(core_cpus);
		free(core_nr);
		machine_free(m);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int c = 0; c < n; c++) {
		int k = t->cpu[c].core;

		core_cpus[k * w + core_nr[k]++] = c;
	}
	for (int c = 0; c < n; c++) {
		int k = t->cpu[c].core;

		cpumask_clear(&m->smt[c]);
		m->smt_nr[c] = core_nr[k];
		for (int i = 0; i < core_nr[k]; i++) {
			m->smt_cpus[c * w + i] = core_cpus[k * w + i];
			cpumask_set_cpu(core_cpus[k * w + i], &m->smt[c]);
		}
	}
	free(core_cpus);
	free(core_nr);
	return 0;
}

static int load_file(const char *path, struct machine *m, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	if (text_file_read(path, "machine file", &buf, &len, err, errlen))
		return -1;
	ret = machine_parse_json(buf, len, path, m, err, errlen);
	free(buf);
	return ret;
}

/*
 * lscpu and hwloc files list no idle states: the machine keeps
 * costs/default.json's, which the same machine's sysfs tree may not have.
 */
static void idle_states_from_default(struct machine *m, const char *file)
{
	char names[120] = "";
	size_t off = 0;

	for (int i = 0; i < m->nr_idle_states && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					m->idle[i].name);
	snprintf(m->assumed[ASSUMED_IDLE], sizeof(m->assumed[ASSUMED_IDLE]),
		 "idle states %s of profile default (costs/default.json): %.80s lists none", names,
		 file);
}

const char *machine_host_sysfs(void)
{
	const char *e = getenv("WAKESIM_SYSFS");

	return e && e[0] ? e : "/sys";
}

void machine_print_assumed(FILE *f, const struct machine *m, const char *prefix)
{
	for (int i = 0; i < MACHINE_ASSUMED_NR; i++)
		if (m->assumed[i][0])
			fprintf(f, "%sassumed: %s\n", prefix, m->assumed[i]);
}

void machine_assumed_text(const struct machine *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < MACHINE_ASSUMED_NR; i++)
		if (m->assumed[i][0] && off < len) {
			int r = snprintf(buf + off, len - off, "%s%s", off ? "\n" : "", m->assumed[i]);

			off += r > 0 ? (size_t)r : 0;
		}
}

static bool spec_is_xml(const char *spec)
{
	size_t n = strlen(spec);

	return n > 4 && !strcmp(spec + n - 4, ".xml");
}

bool machine_spec_is_file(const char *spec)
{
	return strchr(spec, '/') || strstr(spec, ".json") || spec_is_xml(spec);
}

int machine_load(const char *spec, struct machine *m, char *err, size_t errlen)
{
	const struct preset_blob *b;
	int ret;

	memset(m, 0, sizeof(*m));
	if (costs_json_defaults(m, err, errlen))
		return -1;
	if (!strcmp(spec, "host") || !strncmp(spec, "sysfs:", 6)) {
		ret = machine_read_sysfs(spec[0] == 'h' ? machine_host_sysfs() : spec + 6, m, err,
					 errlen);
		snprintf(m->name, sizeof(m->name), "%.63s", spec);
		snprintf(m->cost_profile, sizeof(m->cost_profile), "%s",
			 m->assumed[ASSUMED_IDLE][0] ? "default" : "default, sysfs idle states");
	} else if (!strncmp(spec, "lscpu:", 6) || !strncmp(spec, "hwloc:", 6) ||
		   spec_is_xml(spec)) {
		/* A bare FILE.xml is what lstopo writes: no one means it as JSON. */
		bool lscpu = !strncmp(spec, "lscpu:", 6);
		const char *file = lscpu || !strncmp(spec, "hwloc:", 6) ? spec + 6 : spec;

		ret = lscpu ? machine_read_lscpu(file, m, err, errlen)
			    : machine_read_hwloc(file, m, err, errlen);
		snprintf(m->name, sizeof(m->name), "%.63s", spec);
		snprintf(m->cost_profile, sizeof(m->cost_profile), "default");
		idle_states_from_default(m, file);
	} else if (machine_spec_is_file(spec)) {
		ret = load_file(spec, m, err, errlen);
	} else if (strncmp(spec, "costs/", 6) && (b = preset_blob_find(spec))) {
		char file[128];

		snprintf(file, sizeof(file), "machines/%s.json", spec);
		ret = machine_parse_json(b->text, b->len, file, m, err, errlen);
	} else {
		char names[512] = "";

		for (int i = 0; i < machine_preset_count(); i++) {
			strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
			strncat(names, machine_preset_name(i), sizeof(names) - strlen(names) - 1);
		}
		snprintf(err, errlen,
			 "unknown machine \"%s\" (presets: %s; or host, sysfs:DIR, hwloc:FILE.xml, "
			 "lscpu:FILE, FILE.json, FILE.xml)",
			 spec, names);
		return -1;
	}
	if (ret)
		return -1;
	if (machine_finish(m, err, errlen)) {
		char inner[256];
		bool sysfs = !strcmp(spec, "host") || !strncmp(spec, "sysfs:", 6);

		snprintf(inner, sizeof(inner), "%s", err);
		snprintf(err, errlen, "machine %s: %s%s", spec, inner,
			 sysfs ? " (see the tree's cpu*/topology/*_list, cpu*/cache/index*/shared_cpu_list "
				 "and physical_package_id files)"
			       : "");
		return -1;
	}
	return 0;
}

int machine_preset_count(void)
{
	int n = 0;

	for (int i = 0; i < preset_blob_count; i++)
		n += strncmp(preset_blobs[i].name, "costs/", 6) != 0;
	return n;
}

const char *machine_preset_name(int i)
{
	for (int j = 0; j < preset_blob_count; j++) {
		if (!strncmp(preset_blobs[j].name, "costs/", 6))
			continue;
		if (i-- == 0)
			return preset_blobs[j].name;
	}
	return NULL;
}

int machine_preset_describe(int i, char *buf, size_t len)
{
	struct machine m;
	char err[256];

	if (machine_load(machine_preset_name(i), &m, err, sizeof(err))) {
		snprintf(buf, len, "(broken preset: %s)", err);
		return -1;
	}
	snprintf(buf, len, "%d CPUs: %s", m.topo.nr_cpus, m.description);
	machine_free(&m);
	return 0;
}

