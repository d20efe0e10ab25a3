#!/bin/sh
# Seed the fuzzer's corpus with the real inputs of tests/data: the first
# byte picks the parser (0 machine JSON, 1 lscpu, 2 hwloc XML, 3 cost
# profile, 4 rt-app JSON, 5 scheduler trace), as fuzz/fuzz_inputs.c reads it.
set -eu
dir=$1
mkdir -p "$dir"
seed() { # KIND FILE
	[ -f "$2" ] || return 0
	{ printf "\\$(printf '%03o' "$1")"; cat "$2"; } > "$dir/seed-$1-$(basename "$2")"
}
for f in machines/*.json tests/data/*.json; do seed 0 "$f"; done
for f in tests/data/*lscpu* tests/data/lscpu-*.txt; do seed 1 "$f"; done
for f in tests/data/hwloc/*.xml; do seed 2 "$f"; done
for f in costs/*.json; do seed 3 "$f"; done
for f in examples/rt-app/*.json tests/data/rtapp/*.json; do seed 4 "$f"; done
# (the xz-compressed recording is a test's, 12 MB unpacked: not a seed)
for f in tests/data/traces/*; do case $f in *.xz) ;; *) seed 5 "$f" ;; esac; done
