#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Rulesets without nft (lab_nftnl.c, what the ppc board uses: its image has no nft): each
# generated kind and family, loaded through nf_tables' netlink API by `lab ruleset --netlink`,
# is the ruleset nft makes of the same script (nft's own listing of both, compared line by line;
# a set's elements sorted, as a hash set lists them in any order), with the rule and element
# counts read back through netlink; traffic passes the final accept; a script that is not a
# generated one is refused and leaves the loaded ruleset as it was; bad input exits 2.
. "$(dirname "$0")/../lib.sh"
P=nbtnl_$nb_id
tmp=$nb_tmp

cleanup() {
	"$NETBENCH" lab down --prefix "$P" >/dev/null 2>&1
	for r in gen dut sink; do ip netns del "$P-$r" 2>/dev/null; done
	nb_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_root
need_tools ip nft ping

check_refused "--netlink with a user's file exits 2" 2 "needs nft" \
	"$NETBENCH" lab ruleset --netlink --kind file:/etc/hostname --prefix "$P"
check_refused "--netlink is an option of ruleset" 2 "options of .lab ruleset." \
	"$NETBENCH" lab status --netlink --prefix "$P"
check_refused "nft-load without a file exits 2" 2 "needs the FILE" "$NETBENCH" lab nft-load
check_refused "nft-load of a missing file exits 1" 1 "cannot read" \
	"$NETBENCH" lab nft-load "$tmp/none.nft"

check_quiet "lab up" "$NETBENCH" lab up --no-agent --prefix "$P" || exit 1
listing() { # the DUT's ruleset as nft lists it, set elements one a line, sorted
	ip netns exec "$P-dut" nft list ruleset | tr -d ',' | sed 's/^[[:space:]]*//' | sort
}
for spec in "linear 3" "linear 3 -6" "set 300" "set 300 -6" "set 0" "conntrack 2" \
	"conntrack 2 -6" "linear 1000"; do
	set -- $spec
	kind=$1 rules=$2 fam=${3:-}
	"$NETBENCH" lab ruleset --kind "$kind" --rules "$rules" $fam -J --prefix "$P" \
		>"$tmp/nft.json" 2>"$tmp/err" || { notok "$spec: nft loads it"; sed 's/^/# /' "$tmp/err"; continue; }
	listing >"$tmp/nft.txt"
	"$NETBENCH" lab ruleset --netlink --flush --prefix "$P" >/dev/null 2>"$tmp/err"
	check "$spec: --netlink --flush leaves no ruleset" \
		test -z "$(ip netns exec "$P-dut" nft list ruleset)"
	if "$NETBENCH" lab ruleset --netlink --kind "$kind" --rules "$rules" $fam -J \
		--prefix "$P" >"$tmp/nl.json" 2>"$tmp/err"; then
		listing >"$tmp/nl.txt"
		if cmp -s "$tmp/nft.txt" "$tmp/nl.txt" && [ -s "$tmp/nl.txt" ]; then
			ok "$spec: netlink loads what nft loads ($(wc -l <"$tmp/nl.txt") lines)"
		else
			notok "$spec: netlink loads what nft loads"
			diff "$tmp/nft.txt" "$tmp/nl.txt" | head -10 | sed 's/^/# /'
		fi
		check "$spec: the same rule and element counts read back" \
			test "$(jnum rules "$tmp/nl.json"),$(jnum set_elements "$tmp/nl.json")" = \
			"$(jnum rules "$tmp/nft.json"),$(jnum set_elements "$tmp/nft.json")"
	else
		notok "$spec: netlink loads it"
		sed 's/^/# /' "$tmp/err"
	fi
done
check_quiet "traffic passes the final accept of a netlink-loaded ruleset" \
	ip netns exec "$P-gen" ping -c 1 -W 2 198.19.0.1

# A script that is not a generated one: refused, the ruleset in place stays.
before=$(ip netns exec "$P-dut" nft list ruleset | wc -l)
printf '# netbench lab ruleset: kind linear, 1 non-matching rules, IPv4\nflush ruleset\n' \
	>"$tmp/edited.nft"
check_refused "nft-load refuses a script that is not a generated one" 1 "not a ruleset" \
	ip netns exec "$P-dut" "$NETBENCH" lab nft-load "$tmp/edited.nft"
check "the refused script changed nothing" \
	test "$(ip netns exec "$P-dut" nft list ruleset | wc -l)" -eq "$before"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
echo "1..$n"
