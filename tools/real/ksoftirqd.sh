#!/bin/sh
# ksoftirqd.sh CMD [ARGS...] - run CMD (a loopback benchmark) while perf
# records every ksoftirqd/N wake-up and switch and counts all the
# machine's wake-ups; print what tools/real/ksoftirqd.awk makes of them.
# Root and perf needed. Example, four free TCP_RR pairs:
#   cc -O2 -o /tmp/tcp_rr tools/real/tcp_rr.c
#   tools/real/ksoftirqd.sh sh -c 'for i in 1 2 3 4; do /tmp/tcp_rr 100000 any any & done; wait'
set -eu
[ $# -ge 1 ] || { echo "usage: tools/real/ksoftirqd.sh CMD [ARGS...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf record -q -a -m 1024 -o "$tmp/k.data" \
	-e sched:sched_wakeup --filter 'comm ~ "ksoftirqd*"' \
	-e sched:sched_switch --filter 'prev_comm ~ "ksoftirqd*" || next_comm ~ "ksoftirqd*"' \
	-- perf stat -a -x, -e sched:sched_wakeup -o "$tmp/stat" -- "$@"
all=$(awk -F, '/sched_wakeup/ { print $1 }' "$tmp/stat")
perf script -i "$tmp/k.data" -F comm,cpu,time,event,trace 2>/dev/null |
	awk -v all="$all" -f "$here/ksoftirqd.awk"
