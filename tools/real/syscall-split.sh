#!/bin/sh
# Record a real loopback ping-pong (tools/real/tcp_rr.c) with perf and print
# the medians of where each send's and blocking recv's time falls around
# its wake-up or sleep (tools/real/syscall-split.awk), in us.
# Usage: tools/real/syscall-split.sh CLIENT_CPU SERVER_CPU [udp|unix|pipe]   (root)
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscall-split.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -O2 -o "$tmp/rr" tools/real/tcp_rr.c
# System-wide (-a): a switch from the idle task to ours is the idle task's event.
perf record -q -a -o "$tmp/p.data" -e sched:sched_waking,sched:sched_switch \
	-e raw_syscalls:sys_enter,raw_syscalls:sys_exit -- "$tmp/rr" 20000 "$@"
perf script -i "$tmp/p.data" --ns -F tid,time,event,trace 2>/dev/null |
	awk -v comm=rr -f tools/real/syscall-split.awk > "$tmp/split"
# x86-64: 44 sendto (send()), 45 recvfrom (recv()); pipes: 1 write, 0 read.
wr=44 rd=45
[ "${3:-}" = pipe ] && wr=1 rd=0
for what in "woke $wr" "slept $rd"; do
	for col in 3 4; do
		grep "^$what " "$tmp/split" | cut -d' ' -f$col | sort -n |
			awk -v w="$what" -v c="$col" '{ v[NR] = $1 }
				END { if (NR) printf "%s %s: median %.2f us over %d\n", w,
					c == 3 ? "before" : "after", v[int((NR + 1) / 2)] / 1000, NR }'
	done
done
