#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Function lengths in src: none longer than MAX_LINES, at most MAX_OVER_80 longer than 80. A
# function's length is the lines between the "{" that opens its body at column 0 and the "}"
# that closes it at column 0 (the house style, clang-format's Linux braces). Each function over
# MAX_LINES is named with its file and line, and so is each over 80 when there are too many.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
MAX_LINES=150
MAX_OVER_80=20

# lengths DIR: "LINES file:line name" for every function in DIR/src, longest first.
lengths() {
	(cd "$1" && find src -name '*.c' | sort | xargs awk '
		FNR == 1 { inb = 0 }
		/^[A-Za-z_].*\(/ && !inb { sig = $0 }
		/^\{/ && !inb {
			inb = 1; start = FNR; name = sig; sub(/\(.*/, "", name)
			n = split(name, a, /[ *]+/); name = a[n]; next
		}
		/^\}/ && inb { inb = 0; print FNR - start - 1, FILENAME ":" start, name }') | sort -rn
}

# judge FILE: prints one line per function over MAX_LINES, and the functions over
# 80 when there are more than MAX_OVER_80.
judge() {
	awk -v max="$MAX_LINES" '$1 > max { print $2 ": " $3 " has " $1 " lines (at most " max ")" }' "$1"
	over=$(awk '$1 > 80' "$1" | wc -l)
	if [ "$over" -gt "$MAX_OVER_80" ]; then
		echo "$over functions over 80 lines (at most $MAX_OVER_80):"
		awk '$1 > 80 { print "  " $2 ": " $3 " " $1 }' "$1"
	fi
}

lengths "$TOP" >"$nb_tmp/len"
check "src has functions to measure" test -s "$nb_tmp/len"
judge "$nb_tmp/len" >"$nb_tmp/bad"
if [ ! -s "$nb_tmp/bad" ]; then
	ok "src: no function over $MAX_LINES lines, at most $MAX_OVER_80 over 80 ($(awk '$1 > 80' "$nb_tmp/len" | wc -l) now)"
else
	notok "src: no function over $MAX_LINES lines, at most $MAX_OVER_80 over 80"
	sed 's/^/# /' "$nb_tmp/bad"
fi

# The check can fail: a tree with a function of 151 lines, one of 150, and 21 of 81.
T=$nb_tmp/tree
mkdir -p "$T/src/a"
body() { # name lines -> a K&R function of that many lines
	printf 'static int %s(void)\n{\n' "$1"
	k=0
	while [ "$k" -lt "$2" ]; do
		echo '	x++;'
		k=$((k + 1))
	done
	printf '}\n\n'
}
{
	body too_long 151
	body fits 150
} >"$T/src/a/one.c"
i=0
while [ "$i" -lt 21 ]; do
	body "long$i" 81
	i=$((i + 1))
done >"$T/src/a/two.c"
lengths "$T" >"$nb_tmp/tlen"
judge "$nb_tmp/tlen" >"$nb_tmp/tbad"
check "a tree with a 151-line function: it is named with its file and line" \
	grep -q '^src/a/one.c:2: too_long has 151 lines' "$nb_tmp/tbad"
check "... and not the one of 150" sh -c "! grep -q 'fits has' '$nb_tmp/tbad'"
check "... and 23 over 80 are more than $MAX_OVER_80: said, each named" \
	sh -c "grep -q '^23 functions over 80 lines' '$nb_tmp/tbad' && grep -q 'src/a/two.c:.*long20 81' '$nb_tmp/tbad'"
echo "1..$n"
