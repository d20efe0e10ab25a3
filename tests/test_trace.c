/*
 * test_trace.c - run --trace writes what the kernel's own tracepoint
 * formats print, checked with a real consumer: libtraceevent, loaded with
 * the sched format files of a Linux 6.18 machine (tests/data/tracefs-6.18).
 * Each event line is parsed back into a binary record laid out as its
 * format says (strings, pids, prio, target and migration CPUs, prev_state
 * bits, the dynamic comm of sched_migrate_task), libtraceevent prints the
 * record's fields with the format's print fmt, and that must be the line's
 * text. wakesim's own sched_select_rq is checked the same way, with the
 * format its header gives. Also: one sched_switch to a task per context
 * switch in the metrics, time never goes back, each sched_select_rq comes
 * right before the wake-up it explains, and --trace-window keeps only its
 * window.
 */
#include "testutil.h"

#include <event-parse.h>

static const char *const events[] = { "sched_switch", "sched_waking", "sched_wakeup",
				      "sched_wakeup_new", "sched_migrate_task", "sched_process_fork",
				      "sched_process_exit" };

static struct tep_handle *load_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	char path[256], *buf = malloc(1 << 16);

	assert_non_null(tep);
	assert_non_null(buf);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), "tests/data/tracefs-6.18/%s.format", events[i]);
		FILE *f = fopen(path, "r");

		assert_non_null(f);
		size_t n = fread(buf, 1, (1 << 16) - 1, f);

		fclose(f);
		assert_int_equal(tep_parse_event(tep, buf, n, "sched"), 0);
	}
	free(buf);
	return tep;
}

/*
 * wakesim's own sched_select_rq: its format from the trace file's header
 * ("# " before each line of what tracefs would show), parsed as a kernel
 * event's is. The header is the only place it is described.
 */
static void load_header_format(struct tep_handle *tep, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[1024], buf[8192];
	size_t n = 0;
	bool in = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && line[0] == '#') {
		const char *l = line[1] == ' ' ? line + 2 : line + 1;

		if (!strncmp(l, "name: sched_select_rq", 21))
			in = true;
		if (in && n + strlen(l) < sizeof(buf)) {
			memcpy(buf + n, l, strlen(l));
			n += strlen(l);
		}
		if (in && !strncmp(l, "print fmt:", 10))
			break;
	}
	fclose(f);
	assert_true(in);
	assert_int_equal(tep_parse_event(tep, buf, n, "wakesim"), 0);
}

/* prev_state's text back to the bits the print fmt renders it from. */
static long state_bits(const char *s)
{
	long v = 0;

	for (; *s; s++)
		switch (*s) {
		case 'S': v |= 0x1; break;
		case 'D': v |= 0x2; break;
		case 'X': v |= 0x10; break;
		case 'Z': v |= 0x20; break;
		case '+': v |= 0x100; break; /* TASK_REPORT_MAX: preempted */
		}
	return v;
}

static void put_int(unsigned char *rec, const struct tep_format_field *f, long v)
{
	if (f->size == 8) {
		int64_t x = v;

		memcpy(rec + f->offset, &x, 8);
	} else if (f->size == 4) {
		int32_t x = (int32_t)v;

		memcpy(rec + f->offset, &x, 4);
	} else if (f->size == 2) {
		int16_t x = (int16_t)v;

		memcpy(rec + f->offset, &x, 2);
	} else {
		rec[f->offset] = (unsigned char)v;
	}
}

/*
 * Build the record of one event from its "name=value" fields and have
 * libtraceevent print it; returns the printed text (caller frees).
 */
static char *reprint(struct tep_handle *tep, const char *name, int pid, int cpu, char *fields)
{
	struct tep_event *ev = tep_find_event_by_name(tep, strcmp(name, "sched_select_rq") ? "sched"
											: "wakesim", name);
	unsigned char rec[256] = { 0 };
	int dyn = 128; /* where a __data_loc string goes */

	assert_non_null(ev);
	put_int(rec, tep_find_common_field(ev, "common_type"), ev->id);
	put_int(rec, tep_find_common_field(ev, "common_pid"), pid);
	for (char *tok = strtok(fields, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok)
			continue; /* "==>" */
		*eq = '\0';
		const char *val = eq + 1;
		/* sched_process_fork prints its parent_* fields as comm= and pid=. */
		const char *key = tok;

		if (!strcmp(name, "sched_process_fork") && (!strcmp(tok, "comm") || !strcmp(tok, "pid")))
			key = !strcmp(tok, "comm") ? "parent_comm" : "parent_pid";
		struct tep_format_field *f = tep_find_field(ev, key);

		if (!f) {
			print_error("%s has no field %s\n", name, tok);
			fail();
		}
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			size_t len = strlen(val) + 1;

			memcpy(rec + dyn, val, len);
			put_int(rec, f, (long)((len << 16) | (size_t)dyn));
			dyn += (int)len;
		} else if (f->flags & TEP_FIELD_IS_STRING) {
			snprintf((char *)rec + f->offset, (size_t)f->size, "%s", val);
		} else if (!strcmp(tok, "prev_state")) {
			put_int(rec, f, state_bits(val));
		} else if (!strcmp(tok, "group_dead")) {
			put_int(rec, f, !strcmp(val, "true"));
		} else {
			put_int(rec, f, strtol(val, NULL, 10));
		}
	}
	struct tep_record r = { .data = rec, .size = (int)sizeof(rec), .cpu = cpu };
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	char *out = strdup(s.buffer);

	trace_seq_destroy(&s);
	return out;
}

/* Check every event line of file; count switches to a task. */
static void check_file(struct tep_handle *tep, const char *file, int nr_cpus, double from, double to,
		       long *switches, long *lines)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	double last = -1;

	assert_non_null(f);
	*switches = *lines = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		char who[64], flags[8], name[32];
		int cpu, off;
		double ts;

		if (sscanf(line, " %63s [%d] %7s %lf: %31[^:]: %n", who, &cpu, flags, &ts, name, &off) != 5) {
			print_error("%s: unparsed line: %s\n", file, line);
			fail();
		}
		const char *dash = strrchr(who, '-');

		assert_non_null(dash);
		assert_true(cpu >= 0 && cpu < nr_cpus);
		assert_true(ts >= last && ts >= from - 1e-6 && ts < to);
		last = ts;
		char text[1024], copy[1024];

		snprintf(text, sizeof(text), "%s", line + off);
		snprintf(copy, sizeof(copy), "%s", text);
		char *printed = reprint(tep, name, atoi(dash + 1), cpu, copy);

		if (strcmp(printed, text)) {
			print_error("%s: libtraceevent prints\n  %s\nfor\n  %s\n", file, printed, text);
			fail();
		}
		free(printed);
		if (!strcmp(name, "sched_switch") && !strstr(text, "next_pid=0 "))
			(*switches)++;
		(*lines)++;
	}
	fclose(f);
}

static void test_trace_formats(void **state)
{
	(void)state;
	char out[1 << 14];
	const char *w = tu_wakesim();
	struct tep_handle *tep = load_formats();
	long sw, n, sw2, n2;

	/* Kunpeng's 24-CPU node: wake-ups across CPUs, migrations, exits. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --node 0 --json "
			       "--trace /tmp/wakesim-trace.txt -- hackbench -g 2 -f 4 -l 30 -p | "
			       "jq '.metrics.context_switches'; grep -c sched_migrate_task "
			       "/tmp/wakesim-trace.txt; grep -c sched_process_exit /tmp/wakesim-trace.txt; "
			       "grep '#P:' /tmp/wakesim-trace.txt", w), 0);
	long cs, migr, exits;

	assert_int_equal(sscanf(out, "%ld %ld %ld", &cs, &migr, &exits), 3);
	assert_true(migr > 0);
	assert_int_equal(exits, 17); /* 16 children and the main task */
	assert_non_null(strstr(out, "   #P:96\n"));
	load_header_format(tep, "/tmp/wakesim-trace.txt");
	check_file(tep, "/tmp/wakesim-trace.txt", 96, 0, 1e9, &sw, &n);
	/*
	 * Each placement's event comes right before what it explains: the
	 * sched_waking of its task (whose sched_wakeup, later if the wake-up
	 * is remote, names the chosen CPU), or its sched_wakeup_new there.
	 */
	assert_int_equal(tu_sh(out, sizeof(out), "grep -v '^#' /tmp/wakesim-trace.txt | awk '"
			       "{ p = $0; sub(/.* pid=/, \"\", p); sub(/ .*/, \"\", p); t = $0; "
			       "sub(/.*(target|dest)_cpu=/, \"\", t); sub(/ .*/, \"\", t); t += 0 } "
			       "want { want = 0; if (/sched_waking:/ && p == pid) { pend[p] = d; ok++ } "
			       "else if (/sched_wakeup_new:/ && p == pid && t == d) ok++; else bad++ } "
			       "/sched_select_rq:/ { sel++; pid = p; d = t; want = 1 } "
			       "/sched_wakeup:/ && (p in pend) { if (t != pend[p]) bad++; else done++; "
			       "delete pend[p] } END { print sel, ok, bad + 0, done + 0 }'"), 0);
	long sel, ok, bad, done;

	assert_int_equal(sscanf(out, "%ld %ld %ld %ld", &sel, &ok, &bad, &done), 4);
	assert_true(sel > 0 && done > 0);
	assert_int_equal(ok, sel);
	assert_int_equal(bad, 0);
	assert_int_equal(sw, cs);
	/* A window keeps its part, and the header counts what it kept. */
	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine kunpeng920-48 --node 0 --trace "
			       "/tmp/wakesim-trace2.txt --trace-window 0.0005:0.001 -- hackbench -g 2 -f 4 "
			       "-l 30 -p >/dev/null && grep -c -v '^#' /tmp/wakesim-trace2.txt && grep '#P:' "
			       "/tmp/wakesim-trace2.txt", w), 0);
	long kept;
	char header[128];

	assert_int_equal(sscanf(out, "%ld", &kept), 1);
	snprintf(header, sizeof(header), "entries-in-buffer/entries-written: %ld/%ld   #P:96", kept, kept);
	assert_non_null(strstr(out, header));
	load_header_format(tep, "/tmp/wakesim-trace2.txt");
	check_file(tep, "/tmp/wakesim-trace2.txt", 96, 0.0005, 0.001, &sw2, &n2);
	assert_true(n2 > 0 && n2 < n);
	tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-trace.txt /tmp/wakesim-trace2.txt");
	tep_free(tep);
}

static void test_trace_bad_options(void **state)
{
	(void)state;
	char out[4096];
	const char *w = tu_wakesim();
	const char *bad[][2] = {
		{ "--trace /tmp/t.txt --trace-window 0.2", "expected FROM:TO" },
		{ "--trace /tmp/t.txt --trace-window 0.2:0.1", "FROM must be before TO" },
		{ "--trace /tmp/t.txt --trace-window x:1", "--trace-window FROM" },
		{ "--trace-window 0:1", "--trace-window without --trace FILE" },
		{ "--trace-max-size 1M", "--trace-max-size without --trace FILE" },
		{ "--trace /tmp/t.txt --trace-max-size 12Q", "--trace-max-size \"12Q\": expected a size" },
		{ "--trace /tmp/t.txt --trace-max-size -1", "--trace-max-size \"-1\"" },
		{ "--trace /nonexistent/dir/t.txt", "directory /nonexistent/dir does not exist" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int st = tu_sh(out, sizeof(out), "%s run --machine sysfs:tests/data/host-2cpu-sysfs %s "
			       "-- hackbench -l 5", w, bad[i][0]);

		if (st != 2 || !strstr(out, bad[i][1])) {
			print_error("%s: status %d, %s\n", bad[i][0], st, out);
			fail();
		}
	}
	/* A window after the run's end: an empty trace, and a warning saying why. */
	assert_int_equal(tu_sh(out, sizeof(out), "{ %s run --machine sysfs:tests/data/host-2cpu-sysfs "
			       "--trace /dev/null --trace-window 100:101 -- hackbench -l 5 >/dev/null; }", w), 0);
	assert_non_null(strstr(out, "warning: --trace-window starts at 100.000000 s, after the run"));
}

/*
 * Found by a bad-input trial: --trace replaced a device with a regular
 * file, ignored a failed write of its events (exit 0, an empty trace), and
 * stayed behind when -o failed.
 */
static void test_trace_outputs(void **state)
{
	(void)state;
	char out[4096];
	const char *w = tu_wakesim();

	assert_int_equal(tu_sh(out, sizeof(out), "%s run --machine sysfs:tests/data/host-2cpu-sysfs "
			       "--trace /dev/null -- hackbench -l 5 >/dev/null && test -c /dev/null", w), 0);
	assert_int_equal(tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-big.txt; (trap '' XFSZ; "
			       "ulimit -f 8; %s run --machine sysfs:tests/data/host-2cpu-sysfs --trace "
			       "/tmp/wakesim-big.txt -- hackbench -g 1 -l 50 >/dev/null)", w), 1);
	assert_non_null(strstr(out, "--trace /tmp/wakesim-big.txt: buffering the events failed"));
	assert_int_equal(tu_sh(out, sizeof(out), "test -e /tmp/wakesim-big.txt"), 1);
	assert_int_equal(tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-y.txt; %s run --machine "
			       "sysfs:tests/data/host-2cpu-sysfs -o /proc/version --trace /tmp/wakesim-y.txt "
			       "--schedstat /tmp/wakesim-s.txt -- hackbench -l 5", w), 1);
	assert_int_equal(tu_sh(out, sizeof(out), "test -e /tmp/wakesim-y.txt || test -e "
			       "/tmp/wakesim-s.txt"), 1);
}

/*
 * Found by a trial: `run --trace t.txt -- hackbench -g 8 -l 20000` wrote
 * 1.94 GB without a word. --trace-max-size 8M: the events stop at the
 * first one that reaches 8388608 bytes (so up to one line more),
 * then a marker line; an early warning gives the run's estimated size,
 * a final one the cut; the trace still replays (its '#' lines are
 * comments, as ftrace's are). The bound is well past the first estimate,
 * made once 1% of the run is done (about 0.003 s of this one's 0.3 s;
 * the cut comes at about 0.02 s).
 */
static void test_trace_max_size(void **state)
{
	(void)state;
	char out[8192];
	const char *w = tu_wakesim();
	long ev;

	assert_int_equal(tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-max.txt; { %s run --machine "
			       "kunpeng920-48 --trace /tmp/wakesim-max.txt --trace-max-size 8M -- "
			       "hackbench -g 4 -l 5000 >/dev/null; }", w), 0);
	assert_non_null(strstr(out, "warning: --trace: at this run's pace its trace would be about "));
	assert_non_null(strstr(out, "warning: --trace /tmp/wakesim-max.txt stopped at "
				    "--trace-max-size (8388608 bytes) at "));
	assert_int_equal(tu_sh(out, sizeof(out), "tail -n 1 /tmp/wakesim-max.txt | cut -c1-60; "
			       "grep -v '^#' /tmp/wakesim-max.txt | wc -c"), 0);
	assert_non_null(strstr(out, "# wakesim: --trace-max-size 8388608 bytes reached at 0."));
	ev = atol(strchr(out, '\n') + 1);
	assert_true(ev >= 8388608 && ev < 8388608 + 300);
	assert_int_equal(tu_sh(out, sizeof(out), "%s replay /tmp/wakesim-max.txt --machine "
			       "kunpeng920-48 >/dev/null", w), 0);
	/* 0: no bound; the whole run's trace, and no warning. */
	assert_int_equal(tu_sh(out, sizeof(out), "{ %s run --machine kunpeng920-48 --trace "
			       "/tmp/wakesim-max.txt --trace-max-size 0 -- hackbench -g 4 -l 500 "
			       ">/dev/null; } && grep -c 'trace-max-size' /tmp/wakesim-max.txt", w), 1);
	assert_string_equal(out, "0\n");
	tu_sh(out, sizeof(out), "rm -f /tmp/wakesim-max.txt");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_formats),
		cmocka_unit_test(test_trace_bad_options),
		cmocka_unit_test(test_trace_outputs),
		cmocka_unit_test(test_trace_max_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
