#!/bin/sh
# Real benchmarks on this machine next to wakesim's simulation of them on
# `host`.
# Usage: [COSTS=PROFILE] tools/validate-host.sh [EXTRA HACKBENCH FLAGS...]
#        [COSTS=PROFILE] tools/validate-host.sh --pinning [RUNS]
#        [COSTS=PROFILE] tools/validate-host.sh --groups [RUNS]
#        [COSTS=PROFILE] tools/validate-host.sh --pairs [SAMPLES]
#        COSTS=calibrate tools/validate-host.sh ...   (any form)
# The first form: rt-tests hackbench -g 1..4, median of 5 real runs next
# to the mean of 5 simulated seeds. --pinning: perf bench sched pipe,
# hackbench -p -T and hackbench (sockets, processes), each free on every
# CPU and pinned to CPU 0 (taskset -c 0; --cpus 0 in the model), median of
# RUNS real runs (default 5) next to the mean of 5 simulated seeds, with
# the pinned/free ratios of both (docs/validation.md).
# --groups: perf bench sched messaging (hackbench over sockets, processes)
# pinned to CPU 0 at 1, 2, 5, 10 and 20 groups, the same 400,000 messages
# each time (-l 1000 / groups): the CPU time a message costs, real (perf
# stat's task-clock, median of RUNS runs) and simulated (seed 1, its CPU
# busy time), and the context switches; then "net", less the same groups'
# run at -l 1 (creating and reaping the tasks, which perf stat counts
# too), and that as a multiple of the one-group figure: what more tasks
# and more messages in flight cost a message.
# --pairs: will-it-scale's context_switch1 (tools/real/context_switch1.c,
# built here with cc) pinned to CPU 0 with 1, 2, 5, 10, 20 and 40 tasks,
# each a pair ping-ponging a byte, as processes and as threads (-T),
# SAMPLES measured seconds (default 2) after 6 s of warm-up each, next to
# the model's context_switch1 -n and context_switch1_threads -n on --cpus
# 0: the time of a round trip (two switches) as the pairs sharing one CPU
# grow, and as a multiple of one pair's.
# COSTS: a cost profile for the simulation (wakesim calibrate -o FILE), or
# "calibrate": run wakesim calibrate first and use what it writes (with
# KEEP_PROFILE=FILE, also kept there). A guest's
# costs move within the hour (docs/validation.md), so a profile measured
# right before the real runs is the one to compare them with.
set -eu
cd "$(dirname "$0")/.."
command -v hackbench >/dev/null || { echo "needs rt-tests' hackbench (apt-get install rt-tests)" >&2; exit 2; }
if [ "${COSTS:-}" = calibrate ]; then
	prof=$(mktemp "${TMPDIR:-/tmp}/wakesim-host.XXXXXX.json") || exit 2
	trap 'rm -f "$prof"' EXIT INT TERM
	./wakesim calibrate -o "$prof" >&2 || { echo "wakesim calibrate failed" >&2; exit 2; }
	COSTS=$prof
	costs_name="what wakesim calibrate measured just now"
	# KEEP_PROFILE=FILE: keep that profile, to rerun or trace the model
	# with it later (the guest's costs move within the hour).
	if [ -n "${KEEP_PROFILE:-}" ]; then
		# Written whole or not at all: a copy beside it, then renamed.
		{ cp "$prof" "$KEEP_PROFILE.tmp.$$" && mv -f "$KEEP_PROFILE.tmp.$$" "$KEEP_PROFILE"; } 2>/dev/null || {
			rm -f "$KEEP_PROFILE.tmp.$$"
			echo "validate-host.sh: KEEP_PROFILE=$KEEP_PROFILE: cannot write it" >&2
			exit 2
		}
		costs_name="$costs_name (kept as $KEEP_PROFILE)"
	fi
fi
if [ -n "${COSTS:-}" ] && [ ! -r "$COSTS" ]; then
	echo "validate-host.sh: COSTS=$COSTS: no such readable cost profile (wakesim calibrate -o FILE writes one)" >&2
	exit 2
fi

if [ "${1:-}" = "--pinning" ]; then
	command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 2; }
	runs=${2:-5}
	case $runs in ''|*[!0-9]*|0) echo "validate-host.sh: --pinning \"$runs\": expected a number of runs, 1 or more" >&2; exit 2 ;; esac
	median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
	real() { # PIN CMD...: the median of $runs real figures
		pin=$1
		shift
		i=0
		while [ "$i" -lt "$runs" ]; do
			if [ "$pin" = pinned ]; then taskset -c 0 "$@"; else "$@"; fi
			i=$((i + 1))
		done | awk '/^Time:/ {print $2} /usecs\/op/ {print $1}' | median
	}
	sim() { # PIN CMD...: the mean of 5 simulated seeds
		pin=$1
		shift
		for s in 1 2 3 4 5; do
			./wakesim run --machine host ${COSTS:+--cost-profile "$COSTS"} --seed "$s" \
				$([ "$pin" = pinned ] && echo "--cpus 0") --json -- "$@" |
				awk -F: '/"value"/ {gsub(/[ ,]/, "", $2); print $2; exit}'
		done | awk '{s += $1} END {printf "%.6f", s / NR}'
	}
	echo "simulated on host with costs: ${costs_name:-${COSTS:-the default profile (no COSTS=; see wakesim calibrate)}}"
	printf '%-36s %10s %10s %8s %10s %10s %8s %10s\n' benchmark "real free" "pinned" ratio \
		"sim free" "pinned" ratio "sim/real"
	for b in "perf bench sched pipe -l 100000" "hackbench -g 1 -p -T -l 1000" "hackbench -g 1 -l 1000"; do
		# shellcheck disable=SC2086
		rf=$(real free $b)
		# shellcheck disable=SC2086
		rp=$(real pinned $b)
		# shellcheck disable=SC2086
		sf=$(sim free $b)
		# shellcheck disable=SC2086
		sp=$(sim pinned $b)
		awk -v b="$b" -v rf="$rf" -v rp="$rp" -v sf="$sf" -v sp="$sp" 'BEGIN {
			printf "%-36s %10.3f %10.3f %8.2f %10.3f %10.3f %8.2f %10.2f\n",
			       b, rf, rp, rp / rf, sf, sp, sp / sf, (sp / sf) / (rp / rf) }'
	done
	echo "(perf: usecs/op; hackbench: s; ratio: pinned/free; sim/real: of the ratios)"
	exit 0
fi

if [ "${1:-}" = "--groups" ]; then
	command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 2; }
	command -v jq >/dev/null || { echo "needs jq (apt-get install jq)" >&2; exit 2; }
	runs=${2:-3}
	case $runs in ''|*[!0-9]*|0) echo "validate-host.sh: --groups \"$runs\": expected a number of runs, 1 or more" >&2; exit 2 ;; esac
	msgs=400000
	echo "simulated on host with costs: ${costs_name:-${COSTS:-the default profile (no COSTS=; see wakesim calibrate)}}"
	printf '%-7s %6s %12s %9s %12s %9s %10s %10s %9s %9s\n' groups loops "real us/msg" switches "sim us/msg" \
		switches "real net" "sim net" "real x1" "sim x1"
	# real_ms G L: perf stat's task-clock (ms, children included) and
	# context switches, median of $runs pinned runs.
	real_ms() {
		i=0
		while [ "$i" -lt "$runs" ]; do
			taskset -c 0 perf stat -x, -e task-clock,context-switches \
				perf bench -f simple sched messaging -g "$1" -l "$2" 2>&1 >/dev/null |
				awk -F, '/task-clock/ {t = $1} /context-switches/ {c = $1} END {print t, c}'
			i=$((i + 1))
		done | sort -n | awk '{t[NR] = $1; c[NR] = $2} END {m = int((NR + 1) / 2); print t[m], c[m]}'
	}
	# sim_ms G L: the simulated CPU busy time (ms) and context switches.
	sim_ms() {
		./wakesim run --machine host --cpus 0 ${COSTS:+--cost-profile "$COSTS"} --json -- \
			hackbench -g "$1" -l "$2" |
			jq -r '"\(.metrics.measured_seconds * .metrics.cpu_util_pct / 100 * 1000) \(.metrics.context_switches)"'
	}
	for g in 1 2 5 10 20; do
		l=$((1000 / g))
		# The same groups at -l 1: forking, faulting in and reaping the
		# tasks, which perf stat counts with the messages (0.5 s of task
		# clock for 800 processes on this guest), subtracted for "net".
		echo "$g $l $(real_ms "$g" "$l") $(sim_ms "$g" "$l") $(real_ms "$g" 1 | cut -d' ' -f1) $(sim_ms "$g" 1 | cut -d' ' -f1)"
	done | awk -v m="$msgs" '{ n = m - $1 * 400; rn = ($3 - $7) * 1000 / n; sn = ($5 - $8) * 1000 / n }
		NR == 1 { r1 = rn; s1 = sn }
		{ printf "%-7s %6s %12.2f %9d %12.2f %9d %10.2f %10.2f %9.2f %9.2f\n", $1, $2, $3 * 1000 / m, $4,
			$5 * 1000 / m, $6, rn, sn, rn / r1, sn / s1 }'
	echo "(pinned to CPU 0; us/msg: task-clock or simulated busy time over the 400,000 messages;"
	echo " net: less the same groups' run at -l 1, over the messages in between; x1: net, as a multiple of one group's)"
	exit 0
fi

if [ "${1:-}" = "--pairs" ]; then
	command -v cc >/dev/null || { echo "needs a C compiler (apt-get install gcc)" >&2; exit 2; }
	samples=${2:-2}
	case $samples in ''|*[!0-9]*|0) echo "validate-host.sh: --pairs \"$samples\": expected a number of samples, 1 or more" >&2; exit 2 ;; esac
	bin=$(mktemp "${TMPDIR:-/tmp}/wakesim-cs1.XXXXXX") || exit 2
	trap 'rm -f "$bin" ${prof:+"$prof"}' EXIT INT TERM
	cc -O2 -pthread -o "$bin" tools/real/context_switch1.c || { echo "validate-host.sh: cannot build tools/real/context_switch1.c" >&2; exit 2; }
	echo "simulated on host with costs: ${costs_name:-${COSTS:-the default profile (no COSTS=; see wakesim calibrate)}}"
	printf '%-10s %-6s %14s %14s %9s %9s\n' variant tasks "real ns/trip" "sim ns/trip" "real x1" "sim x1"
	for v in processes threads; do
		rows=$(for t in 1 2 5 10 20 40; do
			# shellcheck disable=SC2046
			r=$(taskset -c 0 "$bin" -t "$t" -s "$samples" -n $([ $v = threads ] && echo -T) |
				awk -F: '/^average:/ {print $2}')
			s=$(./wakesim run --machine host --cpus 0 ${COSTS:+--cost-profile "$COSTS"} --json -- \
				"context_switch1_$v" -t "$t" -n -s "$samples" --sample-ms 50 |
				awk -F: '/"value"/ {gsub(/[ ,]/, "", $2); print $2; exit}')
			if [ -z "$r" ] || [ -z "$s" ]; then
				what=real
				[ -z "$r" ] || what=simulated
				echo "validate-host.sh: --pairs: no rate from the $what $v run at $t tasks" >&2
				exit 2
			fi
			echo "$v $t $r $s"
		done) || exit 2
		echo "$rows" | awk '{ r = 2e9 / $3; s = 2e9 / $4 } NR == 1 { r1 = r; s1 = s }
			{ printf "%-10s %-6s %14.0f %14.0f %9.2f %9.2f\n", $1, $2, r, s, r / r1, s / s1 }'
	done
	echo "(pinned to CPU 0; ns/trip: a round trip of one byte, two switches, from the ops per second;"
	echo " x1: as a multiple of one task's)"
	exit 0
fi

printf '%-6s %-24s %12s %12s %8s\n' groups flags "real median" "sim mean" "sim/real"
for g in 1 2 3 4; do
	real=$(for i in 1 2 3 4 5; do hackbench -g "$g" "$@" | awk '/^Time:/ {print $2}'; done |
		sort -n | sed -n 3p)
	sim=$(for s in 1 2 3 4 5; do ./wakesim run --machine host ${COSTS:+--cost-profile "$COSTS"} --seed "$s" --json -- \
		hackbench -g "$g" "$@" | awk -F: '/"value"/ {gsub(/[ ,]/, "", $2); print $2}'; done |
		awk '{s += $1} END {printf "%.3f", s / NR}')
	ratio=$(awk -v a="$sim" -v b="$real" 'BEGIN {printf "%.2f", a / b}')
	printf '%-6s %-24s %12s %12s %8s\n' "$g" "${*:-(default)}" "$real" "$sim" "$ratio"
done
