#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs every test and counts TAP lines: unit programs (plain and under ASan+UBSan), then the
# integration scripts (root and namespaces; they print "# SKIP reason" where they cannot run).
# Usage: tests/run.sh [--unit-only] BUILD_DIR [PATTERN]. Ends with "N passed, N failed".
unit_only=0
if [ "$1" = "--unit-only" ]; then unit_only=1; shift; fi
build=${1:-build}
pattern=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
log=$build/test-logs
mkdir -p "$log"
passed=0 failed=0 skipped=0
failed_names=""

run_one() { # name, command...
	name=$1; shift
	case "$name" in *"$pattern"*) ;; *) return ;; esac
	out="$log/$(echo "$name" | tr '/ ' '__').log"
	start=$(date +%s)
	"$@" >"$out" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$out" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$out" | tr -d ' ')
	# A script that skips as a whole ("1..0 # SKIP reason") counts as one skip.
	grep -q '^1\.\.0 # SKIP' "$out" && s=$((s + 1))
	f=$(grep -c '^not ok' "$out" | tr -d ' ')
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$out"
	fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	status=PASS
	[ "$f" -gt 0 ] && status=FAIL && failed_names="$failed_names $name"
	[ "$f" -eq 0 ] && [ "$p" -eq 0 ] && [ "$s" -gt 0 ] && status=SKIP
	printf '%-44s %s  %3d ok %3d failed %3d skipped  %3ss\n' "$name" "$status" "$p" "$f" "$s" \
		"$(($(date +%s) - start))"
	if [ "$f" -gt 0 ]; then
		grep -E '^not ok|^#' "$out" | head -20 | sed 's/^/    /'
		echo "    (full log: $out)"
	fi
	grep '# SKIP' "$out" | head -3 | sed 's/^/    /'
}

for t in "$build"/tests/t_*; do
	[ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"
done
if [ -d "$build/asan/tests" ]; then
	for t in "$build"/asan/tests/t_*; do
		[ -x "$t" ] && ASAN_OPTIONS=detect_leaks=1 run_one "asan/$(basename "$t")" "$t"
	done
fi
if [ "$unit_only" -eq 0 ]; then
	for t in "$top"/tests/integration/*.sh; do
		[ -f "$t" ] || continue
		NETBENCH="$build/netbench" BUILD="$build" TOP="$top" \
			run_one "integration/$(basename "$t" .sh)" timeout -k 10 600 sh "$t"
	done
fi
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
