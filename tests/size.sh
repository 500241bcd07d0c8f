# SPDX-License-Identifier: BSD-2-Clause
# Sourced by tests: size_check LABEL BINARY STRIP checks that BINARY, stripped with STRIP, fits the
# budget tests/size-budget gives LABEL (one TAP line, with both numbers).
size_check() {
	label=$1 bin=$2 strip_prog=$3
	budget=$(awk -v l="$label" '$1 == l { print $2 }' "$TOP/tests/size-budget")
	if [ -z "$budget" ]; then
		notok "$label: no budget in tests/size-budget"
		return
	fi
	"$strip_prog" -o "$nb_tmp/$label.stripped" "$bin" || {
		notok "$label: $strip_prog $bin failed"
		return
	}
	bytes=$(wc -c <"$nb_tmp/$label.stripped" | tr -d ' ')
	check "$label: stripped static binary is $bytes bytes, budget $budget (tests/size-budget)" \
		test "$bytes" -le "$budget"
}
