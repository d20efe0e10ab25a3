# ksoftirqd.awk - how often ksoftirqd/N is woken, how long it then waits
# to run and how long it runs, from a recording of its sched_wakeup and
# sched_switch events (docs/fidelity.md, "ksoftirqd under loopback
# ping-pongs"). tools/real/ksoftirqd.sh records them and counts all the
# machine's wake-ups beside them (-v all=N).
#
# From v4.9 to v6.4 a softirq raised while ksoftirqd is runnable on its
# CPU waits for it (ksoftirqd_running()), so its waits and runs bound the
# time a loopback delivery could have been deferred to it. A wake-up that
# finds it running starts nothing and is not timed.
function stamp(   t, a, n) { t = $0; sub(/: sched:.*/, "", t); n = split(t, a, " "); return a[n] + 0 }
function num(key,   s) { s = $0; sub(".*" key "ksoftirqd/", "", s); sub(/ .*/, "", s); return s }
/sched_wakeup:/ && / comm=ksoftirqd\// { woken++; c = num(" comm="); if (!(c in on)) since[c] = stamp() }
/sched_switch:/ && /next_comm=ksoftirqd\// {
	c = num("next_comm="); t = stamp()
	if (c in since) { waits[++nw] = (t - since[c]) * 1e6; delete since[c] }
	on[c] = t
}
/sched_switch:/ && /prev_comm=ksoftirqd\// { c = num("prev_comm="); if (c in on) { run += stamp() - on[c]; runs++; delete on[c] } }
{ t = stamp(); if (!t0) t0 = t; t1 = t }
END {
	# Insertion sort: a few hundred waits at most.
	for (i = 2; i <= nw; i++) { v = waits[i]; for (j = i - 1; j >= 1 && waits[j] > v; j--) waits[j + 1] = waits[j]; waits[j + 1] = v }
	printf "ksoftirqd woken %d times in %.2f s", woken, t1 - t0
	if (all) printf " (%.3f%% of %d wake-ups)", 100 * woken / all, all
	printf "; waited median %.0f us, max %.0f us (%d waits); ran %.0f us in all (%d runs)\n",
	       nw ? waits[int((nw + 1) / 2)] : 0, nw ? waits[nw] : 0, nw, run * 1e6, runs
}
