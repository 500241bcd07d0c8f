#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The option letters of docs/cli.md against every subcommand's --help: a letter in a help that
# means another long option than the table says, or a letter the table gives a subcommand that
# its help lacks, fails; so do a peer-habit letter whose help does not name the peer, a hidden
# alias that stopped working or shows in the help, and -V/--version or -k that do not work. The
# man page documents every long option of every help.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH
TABLE=$(dirname "$0")/../../docs/cli.md
SUBS="serve tput rate stream crypto mem lab results compare report"
[ -r "$TABLE" ] || skip_all "docs/cli.md not found at $TABLE"

# help lines "  -l, -s, --sizes LIST" -> "SUB -l --sizes"; "  -4, -6  ..." -> "SUB -4 -"
for s in $SUBS; do
	"$NB" $s --help >"$nb_tmp/help.$s" 2>&1
	echo "$s $?" >>"$nb_tmp/help.rc"
	sed -n 's/^  \(-[A-Za-z0-9]\(, -[A-Za-z0-9]\)*\)\(, \(--[a-z0-9-]*\)\)\{0,1\}\([ ,].*\)\{0,1\}$/\1 \4/p' \
		"$nb_tmp/help.$s" | awk -v s="$s" '{
			long = "-"; n = 0
			for (i = 1; i <= NF; i++) { f = $i; sub(/,$/, "", f)
				if (f ~ /^--/) long = f; else l[++n] = f }
			for (i = 1; i <= n; i++) print s, l[i], long }'
done | sort >"$nb_tmp/help.pairs"
check "every subcommand's --help exits 0" sh -c "! grep -v ' 0\$' '$nb_tmp/help.rc'"

# table rows "| `-t`, `-T` | `--trial` | meaning | rate | |" -> "rate -t --trial" ...
awk -F'|' -v all="$SUBS" '
	/^## Hidden aliases/ { exit }
	/^\| `-/ {
		letters = $2; long = $3; subs = $5
		gsub(/[` ]/, "", letters); gsub(/[` ]/, "", long); gsub(/ /, "", subs)
		if (subs == "all") { subs = all; gsub(/ /, ",", subs) }
		nl = split(letters, L, ","); ns = split(subs, S, ",")
		for (i = 1; i <= nl; i++) for (j = 1; j <= ns; j++) print S[j], L[i], long
	}' "$TABLE" | sort >"$nb_tmp/table.pairs"
check "the table has rows" test -s "$nb_tmp/table.pairs"

comm -23 "$nb_tmp/help.pairs" "$nb_tmp/table.pairs" >"$nb_tmp/extra"
comm -13 "$nb_tmp/help.pairs" "$nb_tmp/table.pairs" >"$nb_tmp/missing"
check "every letter in a help means what docs/cli.md says" test ! -s "$nb_tmp/extra" ||
	sed 's/^/# help has, table does not: /' "$nb_tmp/extra"
check "every letter docs/cli.md gives a subcommand is in its help" test ! -s "$nb_tmp/missing" ||
	sed 's/^/# table has, help does not: /' "$nb_tmp/missing"

# The man page documents every long option a help lists (roff writes a - as \-).
MAN=$(dirname "$0")/../../docs/man
for s in $SUBS; do
	grep '^  \{1,\}-' "$nb_tmp/help.$s" | grep -o -- '--[a-z0-9][a-z0-9-]*[a-z0-9]' | sort -u |
		while read -r o; do
			r=$(echo "$o" | sed 's/-/\\\\-/g')
			cat "$MAN"/*.1 | grep -q -- "$r\([^a-z0-9\\]\|\\[^-]\|$\)" || echo "$s $o"
		done
done >"$nb_tmp/unmanned"
check "the man page (docs/man) documents every long option of every help" \
	test ! -s "$nb_tmp/unmanned" || sed 's/^/# not in the man page: /' "$nb_tmp/unmanned"

# one meaning per letter: the same letter never stands for two long options
awk '$3 != "-" { print $2, $3 }' "$nb_tmp/table.pairs" | sort -u | awk '{ c[$1]++ } END {
	for (l in c) if (c[l] > 1) print l }' >"$nb_tmp/twice"
# -p is --port in both rows (control port; stream: its UDP port, the peer habit), so it is one
check "no letter stands for two long options in the table" test ! -s "$nb_tmp/twice" ||
	sed 's/^/# two long options: /' "$nb_tmp/twice"

# a peer habit: the option's help line or its continuation names the peer
awk -F'|' '/^## Hidden aliases/ { exit } /^\| `-/ {
	says = $6; gsub(/^ +| +$/, "", says); if (says == "") next
	letters = $2; subs = $5; gsub(/[` ]/, "", letters); gsub(/ /, "", subs)
	split(letters, L, ","); ns = split(subs, S, ",")
	for (j = 1; j <= ns; j++) print S[j], L[1], says }' "$TABLE" >"$nb_tmp/habits"
check "the table names peer habits" test -s "$nb_tmp/habits"
while read -r s l says; do
	awk -v l="$l" '
		index($0, "  " l ",") == 1 || index($0, "  " l " ") == 1 { on = 1; print; next }
		on && /^  +-/ { exit }
		on && /^   / { print; next }
		on { exit }' "$nb_tmp/help.$s" >"$nb_tmp/opt"
	check "$s $l: its help says '$says' (a peer's habit)" grep -q -- "$says" "$nb_tmp/opt"
done <"$nb_tmp/habits"

# hidden aliases: accepted (then -h exits 0), not in the help
awk -F'|' '/^## Hidden aliases/ { on = 1; next } on && /^\| `-/ {
	l = $2; s = $3; gsub(/[` ]/, "", l); gsub(/ /, "", s); print s, l }' "$TABLE" >"$nb_tmp/hidden"
check "the table lists the hidden aliases" test -s "$nb_tmp/hidden"
while read -r s l; do
	case "$s $l" in
	"tput -b") v=10M ;;
	"crypto -a") v=aes-128-cbc ;;
	*) v=x ;;
	esac
	check_rc "$s $l (hidden alias) still accepted" 0 "$NB" $s $l $v -h
	check "$s $l is not in the help" sh -c "! grep -q -- '^  $l[, ]' '$nb_tmp/help.$s'"
done <"$nb_tmp/hidden"
check_rc "lab -P (removed: tput's parallel streams) is refused" 2 "$NB" lab -P x status
check "... naming it" has "unknown option '-P'"
check_rc "lab -k (removed: -k is --psk) is refused" 2 "$NB" lab ruleset -k linear --rules 1

# -V and --version in every subcommand
for s in $SUBS; do
	for v in -V --version; do
		"$NB" $s $v >"$nb_tmp/out" 2>&1
		check "$s $v prints the version, exit 0" sh -c "[ $? -eq 0 ] && grep -q '^netbench [0-9]' '$nb_tmp/out'"
	done
done

# -k is --psk wherever --psk exists: a missing key file is named as --psk's
for s in serve tput rate stream crypto mem; do
	grep -q -- '--psk' "$nb_tmp/help.$s" || continue
	case $s in
	serve) set -- serve -p 1 ;;
	rate) set -- rate -c 127.0.0.1:1 -l 64 ;;
	stream) set -- stream -c 127.0.0.1:1 -a 127.0.0.1 ;;
	*) set -- $s -c 127.0.0.1:1 ;;
	esac
	check_rc "$s -k reads the key file" 1 "$NB" "$@" -k "$nb_tmp/no-such-key"
	check "... as --psk's" has "psk.*no-such-key"
done

# a value in the wrong unit names the right option
check_rc "stream -b 8M (a bitrate) exits 2" 2 "$NB" stream --send -a 127.0.0.1 -b 8M
check "... pointing at -r 8M" has "datagram size in bytes.*for a bitrate use -r 8M"
check_rc "stream -b 100000 (beyond a datagram) exits 2" 2 "$NB" stream --send -a 127.0.0.1 -b 100000
check "... pointing at -r" has "use -r 100000"
check_rc "stream -b 8k (a size) is no rate" 2 "$NB" stream --send -a 127.0.0.1 -b 8k --recv
check "... and gets no bitrate hint" sh -c "! grep -q 'use -r' '$nb_tmp/out'"

echo "1..$n"
