# wake-wide.awk - what wake_wide() would have said on each wake-up of a
# real recording: the recorded wakers and wakees run through
# record_wakee() and wake_wide() (kernel/sched/fair.c, v5.12 to v6.12:
# the flips decay by half once per HZ jiffies of the waker's own calls;
# "wide" when the smaller count reaches the LLC size F and the larger
# reaches F times the smaller). The waker is the task the event was
# recorded in, as `current` is in the kernel, whatever woke from its
# context (its own syscall, or a softirq or timer it was interrupted by).
# A wake-up of a task bound to one CPU skips select_task_rq_fair(), so
# neither: per-CPU kernel threads are known by name (ksoftirqd/N,
# migration/N, cpuhp/N, rcuc/N, watchdog/N, idle_inject/N, kworker/N:M;
# kworker/uN:M are unbound), a user task's affinity is not in the trace.
#
#   perf sched record -- CMD
#   perf script -F comm,pid,cpu,time,event,trace | \
#       awk -v HZ=250 -v F=8 -f tools/real/wake-wide.awk
#
# HZ: the recording kernel's CONFIG_HZ. F: the LLC size (sd_llc_size) to
# judge against, e.g. 8 for Zen2's CCX, 24 for a Kunpeng 920-4826 die.
# Prints the wake-ups, how many wake_wide() calls wide, the largest flip
# count, and the wakers that woke more than one task, by flips per second.
BEGIN {
	if (HZ <= 0 || F <= 0) {
		print "wake-wide.awk: set HZ and F, e.g. -v HZ=250 -v F=8" > "/dev/stderr"
		bad = 1
		exit 2
	}
}
/ sched:sched_waking: / {
	# "COMM PID [CPU] SECONDS: sched:sched_waking: comm=X pid=N ..."; COMM may hold spaces.
	if (!match($0, / [0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]+:/)) {
		skipped++
		next
	}
	split(substr($0, RSTART + 1, RLENGTH - 2), f, / +/)
	waker = f[1]
	t = f[3] + 0
	if (!match($0, / pid=[0-9]+/)) {
		skipped++
		next
	}
	wakee = substr($0, RSTART + 5, RLENGTH - 5)
	if (match($0, / comm=(ksoftirqd|migration|cpuhp|rcuc|watchdog|idle_inject)\/[0-9]+ pid=/) ||
	    match($0, / comm=kworker\/[0-9]+:/)) {
		bound++
		next
	}
	if (first == "")
		first = t
	last_t = t
	j = int(t * HZ)
	# record_wakee(): decay at most once per second of jiffies.
	if (!(waker in decay_ts) || j > decay_ts[waker] + HZ) {
		flips[waker] = int(flips[waker] / 2)
		decay_ts[waker] = j
	}
	if (last_wakee[waker] != wakee) {
		last_wakee[waker] = wakee
		flips[waker]++
		changes[waker]++
	}
	if (flips[waker] > maxflips)
		maxflips = flips[waker]
	# wake_wide(): master is the larger count, slave the smaller.
	m = flips[waker] + 0
	s = flips[wakee] + 0
	if (m < s) {
		x = m
		m = s
		s = x
	}
	n++
	if (s >= F && m >= s * F)
		wide++
}
END {
	if (bad)
		exit 2
	if (n == 0) {
		print "wake-wide.awk: no sched_waking lines (perf script -F comm,pid,cpu,time,event,trace)" > "/dev/stderr"
		exit 1
	}
	span = last_t - first
	printf "wake-ups %d over %.3f s, wake_wide() wide %d (F=%d, HZ=%d), largest wakee_flips %d", n, span, wide, F, HZ, maxflips
	if (skipped)
		printf ", %d lines not read", skipped
	if (bound)
		printf ", %d wake-ups of per-CPU kernel threads left out", bound
	printf "\n"
	for (w in changes)
		if (changes[w] > 1 && span > 0)
			printf "waker %s: %.1f wakee changes per second\n", w, changes[w] / span | "sort -t: -k2 -rn | head -20"
}
