#!/bin/sh
# Real tbench, a TCP_RR pair, pgbench and rt-app on this machine next to their simulation
# on `host` (docs/validation.md, section d). Each real tool is used only
# if present: dbench's tbench/tbench_srv, rt-app, and pgbench with a
# PostgreSQL server reachable as PGHOST/PGUSER/PGPASSWORD (database
# "pgbench", initialised with `pgbench -i -s 10 pgbench`).
# Usage: [COSTS=PROFILE] tools/validate-workloads.sh [SECONDS]   (per real run; default 5)
# COSTS: a cost profile for the simulation (wakesim calibrate -o FILE).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-5}
W=./wakesim
[ -x "$W" ] || { echo "build wakesim first (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; pkill -x tbench_srv 2>/dev/null || true' EXIT

sim() { "$W" run --machine host ${COSTS:+--cost-profile "$COSTS"} -- "$@" | sed -n "s/^  result *//p" | awk '{print $1}'; }

if command -v tbench >/dev/null && command -v tbench_srv >/dev/null; then
	echo "tbench (MB/sec), simulated with costs: ${COSTS:-the default profile}: clients real simulated sim/real"
	tbench_srv >/dev/null 2>&1 &
	sleep 1
	for n in 1 2 4 8; do
		real=$(cd "$tmp" && tbench -t "$secs" "$n" 127.0.0.1 2>&1 | sed -n 's/^Throughput \([0-9.]*\).*/\1/p')
		s=$(sim tbench -t 2 "$n")
		echo "$n $real $s" | awk '{printf "  %3d %10.1f %10.1f %6.2f\n", $1, $2, $3, $3 / $2}'
	done
	pkill -x tbench_srv || true
fi

# One netperf TCP_RR pair, its ends bound to two CPUs and to one: a
# transaction's wall time, the CPU time both ends spent on it, and their
# ratio, the CPUs the pair keeps busy (tools/real/tcp_rr.c; two CPUs needed).
if [ "$(nproc)" -ge 2 ] && command -v cc >/dev/null && cc -O2 -o "$tmp/tcp_rr" tools/real/tcp_rr.c 2>/dev/null; then
	echo "netperf TCP_RR, one pair, ends on CPUs C,S: us a transaction, CPU us a transaction, CPUs busy: real; simulated"
	for cs in "0 1" "0 0"; do
		set -- $cs
		# Not in pipes: a failing run stops the script instead of printing zeros.
		real=$("$tmp/tcp_rr" $((20000 * secs)) "$1" "$2")
		real=$(printf "%s\n" "$real" | awk '{print $2, $4, $6}')
		s=$("$W" run --json --machine host ${COSTS:+--cost-profile "$COSTS"} -- \
			netperf -t TCP_RR -l 0.2 --warmup 0.05 -T "$1,$2")
		s=$(printf "%s\n" "$s" | jq -r '(1e6 / .result.value) as $t | (.metrics.cpu_util_pct / 100 * .nr_cpus) as $b |
				"\($t) \($b * $t) \($b)"')
		echo "$1 $2 $real $s" | awk '{printf "  %d,%d %8.1f %8.1f %5.2f ; %8.1f %8.1f %5.2f\n", $1, $2, $3, $4, $5, $6, $7, $8}'
	done
fi

pgb=/usr/lib/postgresql/15/bin/pgbench
if [ -x "$pgb" ] && "$pgb" -n -S -c 1 -T 1 pgbench >/dev/null 2>&1; then
	echo "pgbench -S over TCP (tps): clients threads mode real simulated sim/real"
	for spec in "1 1 simple" "2 2 simple" "8 2 simple" "8 2 prepared"; do
		set -- $spec
		real=$("$pgb" -h 127.0.0.1 -n -S -c "$1" -j "$2" -M "$3" -T "$secs" pgbench 2>/dev/null |
			sed -n 's/^tps = \([0-9.]*\).*/\1/p')
		s=$(sim pgbench -h 127.0.0.1 -n -S -c "$1" -j "$2" -M "$3" -T 1)
		echo "$1 $2 $3 $real $s" | awk '{printf "  %3d %3d %-9s %10.0f %10.0f %6.2f\n", $1, $2, $3, $4, $5, $5 / $4}'
	done
fi

if command -v rt-app >/dev/null; then
	echo "rt-app examples/rt-app/periodic-10pct.json: mean timer wake-up latency (us) real simulated"
	sed 's/"duration" : 2/"duration" : '"$secs"'/' examples/rt-app/periodic-10pct.json > "$tmp/p.json"
	(cd "$tmp" && rt-app p.json >/dev/null 2>&1) || true
	real=$(awk '$1 !~ /#/ && NF >= 11 { n++; w += $11 } END { if (n) printf "%.1f", w / n }' "$tmp"/rt-app-thread0-0.log 2>/dev/null || true)
	echo "  ${real:-?} $(sim rt-app examples/rt-app/periodic-10pct.json)"
fi
