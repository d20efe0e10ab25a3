# Hand-offs in perf script text: a task switched out runnable (prev_state=R...)
# in favour of the task it woke last since it was switched in.
/sched:sched_waking:/ { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { split($i, a, "="); last[$2] = a[2] } }
/sched:sched_switch:/ {
	pp = ""; st = ""; np = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^prev_pid=/) { split($i, a, "="); pp = a[2] }
		if ($i ~ /^prev_state=/) { split($i, a, "="); st = a[2] }
		if ($i ~ /^next_pid=/) { split($i, a, "="); np = a[2] }
	}
	if (st ~ /^R/ && last[pp] == np && np != "") n++
	last[pp] = ""; last[np] = ""
}
END { print n + 0 }
