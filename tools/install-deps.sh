#!/bin/sh
# Install what wakesim builds and tests with, from Debian 12's packages.
# Uses sudo when not root. Safe to run again.
# --slurm: also Slurm and munge, for a local cluster (tools/slurm-local.sh)
# on which the sweep test submits its job array (CI does).
set -eu
# dbench: tbench's load file, /usr/share/dbench/client.txt. jq: bench/ and the
# tests of result files; time: bench/; gnuplot-nox: compare --plot;
# libtraceevent-dev: the test that reads --trace back; libhwloc-dev:
# --machine hwloc:FILE; libtracecmd-dev (and libtracefs-dev, which its
# pkg-config file needs): replay of trace-cmd's trace.dat; python3: a test
# that corrupts a trace.dat; parallel: the test of sweep --emit parallel;
# bc: bench/policy; xz-utils: a test's compressed recording. hwloc-nox
# (lstopo), rt-tests (hackbench), linux-perf and util-linux (lscpu): the
# README's and docs' commands, which tools/check-docs.sh runs.
# (Slurm is optional: with slurmctld and slurmd running, the sweep test
# also submits its job array; docs/sweeps.md.)
case "${1:-}" in
"") slurm="" ;;
--slurm) slurm="slurm-wlm munge" ;;
*) echo "install-deps.sh: unknown option \"$1\" (usage: tools/install-deps.sh [--slurm])" >&2; exit 2 ;;
esac
pkgs="$slurm gcc make pkg-config libjson-c-dev libgsl-dev libcmocka-dev bzip2 xz-utils tar dbench jq time gnuplot-nox libtraceevent-dev libhwloc-dev libtracecmd-dev libtracefs-dev python3 parallel bc hwloc-nox rt-tests linux-perf util-linux"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
