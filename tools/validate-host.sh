#!/bin/sh
# Real rt-tests hackbench on this machine next to wakesim's simulation of it
# on `host`: median of 5 real runs and mean of 5 simulated seeds per -g.
# Usage: [COSTS=PROFILE] tools/validate-host.sh [EXTRA HACKBENCH FLAGS...]
# COSTS: a cost profile for the simulation (wakesim calibrate -o FILE).
set -eu
cd "$(dirname "$0")/.."
command -v hackbench >/dev/null || { echo "needs rt-tests' hackbench (apt-get install rt-tests)" >&2; exit 2; }
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
