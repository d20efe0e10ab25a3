/*
 * sweep.h - the pieces of `wakesim sweep` and `wakesim merge`
 * (cmd_sweep.c): running a plan's jobs into a shard document
 * (sweep_run.c), the report from a set of shard documents
 * (sweep_report.c), and scripts that run the shards (sweep_emit.c).
 *
 * Every route to the report goes through the same document: a run (or a
 * shard of one) writes its results as a shard document (JSON: the plan's
 * text, its hash, the machines' descriptions, each job's result and
 * metrics); the report is rendered from a set of such documents. An
 * unsharded sweep renders its own document after a round trip through
 * its text, so `sweep` and `merge` of its shards print the same bytes.
 */
#ifndef WS_SWEEP_H
#define WS_SWEEP_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "sweep_plan.h"

/* The shard document's format, checked by merge. */
#define SHARD_FORMAT 1

/*
 * Run shard si of sn (1-based; 1 of 1: every job) of plan p (read from
 * file) on jobs worker processes, into *doc (a new reference). Returns 0;
 * 1 when a job failed or the plan cannot run (printed), 2 on bad input.
 */
int sweep_run_shard(const char *file, const struct sweep_plan *p, int si, int sn, int jobs,
		    bool quiet, json_object **doc);

/* A shard document, with its name and text for messages' lines. */
struct sweep_doc {
	json_object *doc;
	const char *name;
	const char *text;
	size_t len;
};

/*
 * The report (compare tables per machine and workload, text or JSON) of
 * n shard documents to f; with plot_dir, each policy's win/loss map
 * drawn there too (report/winmap.h). Returns 0, or -1 with err naming the document,
 * and the line and field where one is wrong, or what is missing.
 */
int sweep_render(const struct sweep_doc *docs, int n, bool json, const char *plot_dir, FILE *f,
		 char *err, size_t errlen);

/*
 * A script (kind "parallel" or "slurm") that runs plan's shards shards,
 * each writing DIR/shard-I.json, then merges them; to f. Returns 0 or -1.
 */
int sweep_emit(const char *kind, const char *plan, int shards, const char *dir,
	       const char *sshlogin, int jobs, FILE *f);

#endif
