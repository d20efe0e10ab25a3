#!/bin/sh
# Run every command the README and docs/*.md show, so no example goes stale.
#
# A command is a line of a ```sh block (a trailing backslash joins the next
# line; a line that is only a comment is not a command). Each runs with
# `sh -e` in one scratch directory that links to the project's files, so
# `./wakesim`, `tests/...` and `build/...` resolve and what the commands
# write stays out of the tree; `wakesim` alone is on the PATH too. It must
# exit 0 within $DOCS_TIMEOUT seconds (default 900).
#
# HTML comments right before a block, invisible on a rendered page, say
# what the block needs:
#   <!-- check-docs: setup COMMAND -->   run COMMAND first (a fixture for a
#                                        placeholder file such as my.txt)
#   <!-- check-docs: skip "PREFIX" REASON -->
#                                        commands starting with PREFIX are
#                                        not run; the report names them with
#                                        REASON (a placeholder program, a
#                                        cluster this machine is not)
#   <!-- check-docs: output -->          before a plain ``` block: it must be
#                                        what the last command printed, line
#                                        for line; a line "..." (indented or
#                                        not) skips any number of lines
# Usage: tools/check-docs.sh [-n] [FILE.md...]   (-n: list, run nothing)
# Ends with "check-docs: N run, N failed, N skipped" and exits 1 on a failure.
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
list=0
if [ "${1:-}" = "-n" ]; then
	list=1
	shift
fi
[ $# -gt 0 ] || set -- README.md docs/*.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wakesim-docs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/items" "$tmp/work" "$tmp/bin"

# One file per item, numbered in document order: N.kind holds
# "cmd|setup|skip|output FILE:LINE", N.text the command or expected text.
awk -v dir="$tmp/items" '
function emit(kind, where, text) {
	n++
	f = sprintf("%s/%05d", dir, n)
	printf "%s %s\n", kind, where > (f ".kind"); close(f ".kind")
	printf "%s", text > (f ".text"); close(f ".text")
}
FNR == 1 { inb = 0; pend_n = 0; out = 0 }
/^<!-- check-docs: / && !inb {
	a = $0
	sub(/^<!-- check-docs: /, "", a)
	sub(/ *-->$/, "", a)
	if (a == "output") {
		out = 1
	} else if (a ~ /^setup /) {
		emit("setup", FILENAME ":" FNR, substr(a, 7) "\n")
	} else if (a ~ /^skip "/) {
		p = substr(a, 7)
		i = index(p, "\"")
		skipn++
		skip_pre[skipn] = substr(p, 1, i - 1)
		skip_why[skipn] = substr(p, i + 2)
	} else {
		printf "%s:%d: unknown check-docs annotation \"%s\"\n", FILENAME, FNR, a > "/dev/stderr"
		bad = 1
	}
	next
}
/^```/ {
	if (!inb) {
		inb = 1
		lang = substr($0, 4)
		expect = ""
		cmd = ""
		next
	}
	inb = 0
	if (out) {
		emit("output", FILENAME ":" start, expect)
		out = 0
	}
	skipn = 0
	next
}
inb && out && lang == "" {
	if (expect == "")
		start = FNR
	expect = expect $0 "\n"
	next
}
inb && lang == "sh" {
	line = $0
	if (cmd == "") {
		if (line ~ /^[ \t]*(#|$)/)
			next
		cstart = FNR
	}
	if (line ~ /\\$/) {
		cmd = cmd substr(line, 1, length(line) - 1)
		next
	}
	cmd = cmd line
	kind = "cmd"
	why = ""
	for (i = 1; i <= skipn; i++)
		if (index(cmd, skip_pre[i]) == 1) {
			kind = "skip"
			why = skip_why[i]
		}
	emit(kind, FILENAME ":" cstart, kind == "skip" ? cmd "\n" why "\n" : cmd "\n")
	cmd = ""
}
END { exit bad }
' "$@" || exit 2

for f in "$repo"/* "$repo"/.ci; do
	ln -s "$f" "$tmp/work/$(basename "$f")"
done
ln -s "$repo/wakesim" "$tmp/bin/wakesim"
PATH="$tmp/bin:$PATH"
export PATH

# expect_output EXPECTED ACTUAL: the segments between "..." lines appear in
# ACTUAL in order, each as consecutive lines. Prints the first mismatch.
expect_output() {
	awk -v want="$1" '
	{ act[++na] = $0 }
	END {
		ne = 0
		while ((getline l < want) > 0)
			e[++ne] = l
		pos = 1
		i = 1
		while (i <= ne) {
			if (e[i] ~ /^[ \t]*\.\.\.$/) { i++; continue }
			j = i
			while (j <= ne && e[j] !~ /^[ \t]*\.\.\.$/)
				j++
			# e[i..j-1] must match act[k..] for some k >= pos
			found = 0
			for (k = pos; k + (j - i) - 1 <= na && !found; k++) {
				ok = 1
				for (m = 0; m < j - i && ok; m++)
					if (act[k + m] != e[i + m])
						ok = 0
				if (ok) {
					found = 1
					pos = k + (j - i)
				}
			}
			if (!found) {
				# Name the first line of the segment that is not there.
				for (m = i; m < j; m++) {
					seen = 0
					for (k = pos; k <= na; k++)
						if (act[k] == e[m])
							seen = 1
					if (!seen) {
						printf "    shown, not printed: %s\n", e[m]
						exit 1
					}
				}
				printf "    shown lines %d-%d are not printed together, in order\n", i, j - 1
				exit 1
			}
			i = j
		}
	}' "$2"
}

run=0
failed=0
skipped=0
last=""
for k in "$tmp"/items/*.kind; do
	[ -e "$k" ] || break
	item=${k%.kind}
	read -r kind where < "$k"
	text=$(cat "$item.text")
	case $kind in
	skip)
		skipped=$((skipped + 1))
		printf 'skip  %s: %s\n      (%s)\n' "$where" "$(echo "$text" | sed -n 1p)" "$(echo "$text" | sed -n 2p)"
		continue ;;
	output)
		if [ $list -eq 1 ]; then
			printf 'out   %s\n' "$where"
			continue
		fi
		run=$((run + 1))
		if [ -z "$last" ] || ! expect_output "$item.text" "$last" > "$tmp/why"; then
			failed=$((failed + 1))
			printf 'FAIL  %s: the output shown is not what the command before it prints\n' "$where"
			cat "$tmp/why"
		else
			printf 'ok    %s: output as shown\n' "$where"
		fi
		continue ;;
	esac
	if [ $list -eq 1 ]; then
		printf '%-5s %s: %s\n' "$kind" "$where" "$text"
		continue
	fi
	run=$((run + 1))
	t0=$(date +%s)
	(cd "$tmp/work" && timeout "${DOCS_TIMEOUT:-900}" sh -e -c "$text") > "$item.out" 2>&1
	st=$?
	t1=$(date +%s)
	if [ $st -ne 0 ]; then
		failed=$((failed + 1))
		printf 'FAIL  %s (%ss, status %d): %s\n' "$where" $((t1 - t0)) $st "$text"
		# Errors come first (wakesim) or last (scripts): show both ends.
		if [ "$(wc -l < "$item.out")" -le 15 ]; then
			sed 's/^/    /' "$item.out"
		else
			{ head -n 5 "$item.out"; echo "..."; tail -n 10 "$item.out"; } | sed 's/^/    /'
		fi
	else
		printf 'ok    %s (%ss): %s\n' "$where" $((t1 - t0)) "$text"
	fi
	last="$item.out"
done
echo "check-docs: $run run, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
