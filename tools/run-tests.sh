#!/bin/sh
# Run every cmocka test program given, all of them even when one fails, then
# print one summary line, cmocka's own totals summed:
#     LABEL: N passed, M failed, S skipped (P programs)
# and name each failing program with why (its failed tests, its exit status,
# or a death before cmocka's summary). Exits 1 if any test or program failed.
# Usage: tools/run-tests.sh [-l LABEL] [-s FILE] PROGRAM...
#   -s FILE  also write the summary and the failing programs to FILE
# The environment (WAKESIM, ASAN_OPTIONS, ...) passes through to each one.
set -u
# The totals are read from cmocka's standard output format, whatever the caller set.
CMOCKA_MESSAGE_OUTPUT=STDOUT
export CMOCKA_MESSAGE_OUTPUT
label=tests
summary=""
while [ $# -gt 0 ]; do
	case $1 in
	-l) label=$2; shift 2 ;;
	-s) summary=$2; shift 2 ;;
	*) break ;;
	esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wakesim-tests.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0
skipped=0
programs=0
bad=""
for t in "$@"; do
	programs=$((programs + 1))
	echo "== $t"
	# The program's output streams as it runs; its status comes back in a file.
	{ "$t" 2>&1; echo $? > "$tmp/rc"; } | tee "$tmp/log"
	rc=$(cat "$tmp/rc" 2>/dev/null || echo 255)
	# cmocka: "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s), listed below:"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$tmp/log" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below.*/\1/p' "$tmp/log" | tail -n 1)
	sk=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below.*/\1/p' "$tmp/log" | tail -n 1)
	ran=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run.*/\1/p' "$tmp/log" | tail -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	skipped=$((skipped + ${sk:-0}))
	why=""
	if [ -z "$ran" ]; then
		# Died before cmocka's summary (a crash, a sanitizer abort, a bad
		# exec): whatever it did not report counts as one failure.
		failed=$((failed + 1))
		if [ "$rc" -gt 128 ] 2>/dev/null; then
			why="died (signal $((rc - 128))) before its summary"
		else
			why="exited $rc before its summary"
		fi
	elif [ "${f:-0}" -gt 0 ]; then
		names=$(awk '/^\[  FAILED  \] [0-9]+ test\(s\), listed below/ { l = 1; next }
			l && /^\[  FAILED  \] / { printf "%s%s", n++ ? " " : "", $NF }' "$tmp/log")
		why="$f failed: $names"
	elif [ "$rc" -ne 0 ]; then
		# Every test passed, yet the program failed (a leak found at exit).
		failed=$((failed + 1))
		why="all its tests passed, but it exited $rc"
	fi
	[ -n "$why" ] && bad="$bad
  $t: $why"
done
{
	[ "$programs" -eq 1 ] && progs=program || progs=programs
	echo "$label: $passed passed, $failed failed, $skipped skipped ($programs $progs)"
	[ -z "$bad" ] || echo "failing programs:$bad"
} > "$tmp/summary"
cat "$tmp/summary"
[ -z "$summary" ] || cp "$tmp/summary" "$summary"
[ -z "$bad" ]
