#!/bin/sh
# Copy the parts of a machine's /sys that wakesim reads into DIR, keeping
# the layout (DIR/devices/system/...), so `--machine sysfs:DIR` reads it.
# Usage: tests/data/gather-sysfs.sh DIR [SYSROOT]   (SYSROOT defaults to /sys)
set -eu
dst=$(mkdir -p "$1" && cd "$1" && pwd)
src=${2:-/sys}
copy() { [ -r "$src/$1" ] || return 0; mkdir -p "$dst/$(dirname "$1")"; cat "$src/$1" > "$dst/$1"; }
cd "$src"
copy devices/system/cpu/online
for c in devices/system/cpu/cpu[0-9]*; do
	for f in core_cpus_list thread_siblings_list cluster_cpus_list physical_package_id \
		die_cpus_list package_cpus_list core_id cluster_id; do
		copy "$c/topology/$f"
	done
	copy "$c/cpu_capacity"
	for i in "$c"/cache/index*; do
		for f in level type shared_cpu_list size; do copy "$i/$f"; done
	done
done
for s in devices/system/cpu/cpu0/cpuidle/state*; do
	for f in name latency residency; do copy "$s/$f"; done
done
for n in devices/system/node/node[0-9]*; do
	copy "$n/cpulist"
	copy "$n/distance"
done
