# syscall-split.awk - where a syscall's time falls around the wake-up it
# makes, or the sleep it takes, from a system-wide perf recording of
# raw_syscalls and sched_waking/sched_switch (tools/real/syscall-split.sh
# records one).
#
# perf script --ns -F tid,time,event,trace | awk -v comm=rr -f tools/real/syscall-split.awk
#
# Only the tasks named comm count (they are known from their switches).
# For each syscall of theirs that woke another of them from its own
# context: "woke NR BEFORE AFTER", the task's running time (ns) from its
# entry to its first such sched_waking and from there to its exit, time
# switched out left out. For each that slept (switched out in state S):
# "slept NR BEFORE AFTER", from its entry to that switch and from its last
# switch in to its exit. NR is the syscall number.
function ns(t) { sub(/:$/, "", t); split(t, p, "."); return p[1] * 1e9 + p[2] }
{
	tid = $1; t = ns($2); ev = $3
}
ev == "raw_syscalls:sys_enter:" {
	if (!(tid in ours))
		next
	nr[tid] = $5; t0[tid] = t; off[tid] = 0; wk[tid] = -1; out1[tid] = -1; in1[tid] = -1
	since[tid] = 0; insc[tid] = 1
	next
}
ev == "raw_syscalls:sys_exit:" {
	if (!insc[tid] || nr[tid] != $5)
		next
	insc[tid] = 0
	if (wk[tid] >= 0)
		printf "woke %s %d %d\n", nr[tid], wk[tid] - t0[tid] - wkoff[tid], t - wk[tid] - (off[tid] - wkoff[tid])
	else if (out1[tid] >= 0 && in1[tid] >= 0)
		printf "slept %s %d %d\n", nr[tid], out1[tid] - t0[tid], t - in1[tid]
	next
}
ev == "sched:sched_waking:" {
	if (insc[tid] && wk[tid] < 0 && $4 == "comm=" comm) {
		wk[tid] = t; wkoff[tid] = off[tid]
	}
	next
}
ev == "sched:sched_switch:" {
	pp = np = ""; state = ""
	for (i = 4; i <= NF; i++) {
		if ($i ~ /^prev_pid=/) { pp = substr($i, 10) }
		if ($i ~ /^next_pid=/) { np = substr($i, 10) }
		if ($i ~ /^prev_state=/) { state = substr($i, 12) }
		if ($i == "prev_comm=" comm) { pc = 1 } else if ($i ~ /^prev_comm=/) { pc = 0 }
		if ($i == "next_comm=" comm) { nc = 1 } else if ($i ~ /^next_comm=/) { nc = 0 }
	}
	if (pc)
		ours[pp] = 1
	if (nc)
		ours[np] = 1
	if (insc[pp]) {
		since[pp] = t
		if (out1[pp] < 0 && wk[pp] < 0 && state == "S")
			out1[pp] = t
	}
	if (insc[np] && since[np] > 0) {
		off[np] += t - since[np]; since[np] = 0; in1[np] = t
	}
}
