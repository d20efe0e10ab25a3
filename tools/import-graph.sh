#!/bin/bash
# tools/import-graph.sh - the folder-level import graph of src/ (issue 21).
#
# Each #include "..." of src/*/*.{c,h} is resolved as the compiler does
# (the file's own folder first, then -Isrc, -Isrc/machine, -Iinclude) and
# counted as an edge from the including file's folder to the included
# file's folder (include/ counts as "include", build/ is left out). Prints
# the edges with their counts, then the folders on import cycles (those
# that reach themselves through other folders) with the edges between
# them, or "no cycle between folders".
#
# Usage: tools/import-graph.sh [--dot]   (--dot: the edges as Graphviz)
set -euo pipefail
cd "$(dirname "$0")/.."
dot=0
case ${1-} in
--dot) dot=1 ;;
"") ;;
*) echo "usage: tools/import-graph.sh [--dot]" >&2; exit 2 ;;
esac

edges=$(for f in src/*/*.c src/*/*.h; do
	dir=$(dirname "$f")
	from=${dir#src/}
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		for base in "$dir" src src/machine include; do
			if [ -f "$base/$inc" ]; then
				to=$(dirname "$(realpath -m --relative-to=. "$base/$inc")")
				case $to in
				src/*) to=${to#src/} ;;
				include*) to=include ;;
				esac
				[ "$to" != "$from" ] && echo "$from $to"
				break
			fi
		done
	done
done | sort | uniq -c | awk '{ print $2, $3, $1 }')

if [ "$dot" = 1 ]; then
	echo "digraph imports {"
	echo "$edges" | awk 'NF == 3 { printf "  \"%s\" -> \"%s\" [label=%d];\n", $1, $2, $3 }'
	echo "}"
	exit 0
fi
echo "folder imports (from -> to: #include lines)"
echo "$edges" | awk 'NF == 3 { printf "  %-10s -> %-10s %4d\n", $1, $2, $3 }'
# A folder is on a cycle iff it reaches itself: the transitive closure
# (Warshall's, whose result does not depend on awk's order of keys).
cyc=$(echo "$edges" | awk 'NF == 3 { e[$1, $2] = 1; n[$1] = 1; n[$2] = 1 }
END {
	for (a in n) for (b in n) r[a, b] = ((a, b) in e)
	for (k in n) for (a in n) if (r[a, k]) for (b in n) if (r[k, b]) r[a, b] = 1
	for (a in n) if (r[a, a]) print a
}' | sort)
if [ -z "$cyc" ]; then
	echo "no cycle between folders"
else
	echo "folders on an import cycle: $(echo $cyc)"
	for a in $cyc; do
		echo "$edges" | awk -v a="$a" -v c=" $(echo $cyc) " 'NF == 3 && $1 == a && index(c, " " $2 " ") { printf "  %s -> %s (%d)\n", $1, $2, $3 }'
	done
fi
