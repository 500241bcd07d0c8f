#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare --fit --linear on real lab runs: rate through the lab's DUT at 0, 300 and 1000 linear
# nftables rules, each run saved with --tag rules=N; `compare --fit 'ns_per_frame ~ rules'
# --linear` must give the per-rule cost that `lab fit` computes from the same runs' frames/s
# (two implementations of one model: ns per frame = base + per-rule cost x rules), within the
# fit's uncertainty. The log-log fit refuses rules = 0 with the reason.
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtsf
for t in ip nft; do
	command -v $t >/dev/null || { skip_all "$t is not installed (tests/deps.sh)"; exit 0; }
done
"$NETBENCH" results list --db "$nb_tmp/probe.db" >"$nb_tmp/out" 2>&1
if grep -q "no SQLite" "$nb_tmp/out"; then
	skip_all "this build has no SQLite (libsqlite3-dev)"
fi
DB=$nb_tmp/r.db
lab_down() { "$NETBENCH" lab down --prefix $P >/dev/null 2>&1; }
trap 'lab_down; nb_cleanup' EXIT
if ! "$NETBENCH" lab up --prefix $P --no-agent >"$nb_tmp/out" 2>&1; then
	notok "lab up --prefix $P"
	sed 's/^/# /' "$nb_tmp/out"
	exit 1
fi
points=""
for nr in 0 300 1000; do
	"$NETBENCH" lab ruleset --prefix $P --kind linear --rules $nr >/dev/null 2>"$nb_tmp/err" ||
		sed 's/^/# /' "$nb_tmp/err"
	ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 128 --quick \
		--save "$DB" --tag rules=$nr -J >"$nb_tmp/r$nr.json" 2>"$nb_tmp/err"
	rc=$?
	check "rate through the DUT at $nr rules, saved with --tag rules=$nr" test $rc -eq 0 ||
		sed 's/^/# /' "$nb_tmp/err" | tail -5
	fps=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print([s["fps"] for s in d["sizes"] if s["valid"]][0])' "$nb_tmp/r$nr.json")
	points="$points $nr:${fps:-0}"
done
echo "# rules:fps$points"
"$NETBENCH" lab ruleset --prefix $P --kind linear --rules 0 >/dev/null 2>&1
"$NETBENCH" lab fit $points >"$nb_tmp/lab" 2>&1
lab=$(sed -n 's/.* + \(-\{0,1\}[0-9.]*\) ns x rules.*/\1/p' "$nb_tmp/lab")
"$NETBENCH" compare --db "$DB" --fit 'ns_per_frame ~ rules' --linear >"$nb_tmp/fit" 2>&1
check "compare --fit --linear: exit 0" test $? -eq 0 || sed 's/^/# /' "$nb_tmp/fit"
sed 's/^/# /' "$nb_tmp/lab" "$nb_tmp/fit"
b=$(sed -n 's/.*ns per frame = [0-9.e+-]* + (\(-\{0,1\}[0-9.]*\) +- \([0-9.]*\)) x rules; 3 runs$/\1 \2/p' \
	"$nb_tmp/fit" | head -1)
check "the linear fit gives a per-rule cost with its uncertainty from 3 runs (${b:-none})" \
	test -n "$b"
set -- $b
check "it agrees with lab fit's per-rule cost (${1:-?} +- ${2:-?} vs ${lab:-none} ns)" awk \
	-v b="${1:-0}" -v e="${2:-0}" -v l="${lab:-x}" \
	'BEGIN { d = b - l; if (d < 0) d = -d; exit !(l != "x" && d <= e + 0.01 && b > 0) }'
"$NETBENCH" compare --db "$DB" --fit 'ns_per_frame ~ rules' >"$nb_tmp/fit" 2>&1
check "the log-log fit refuses rules = 0, saying why" grep -q "rules is 0 (needs a value above 0)" \
	"$nb_tmp/fit"
"$NETBENCH" compare --db "$DB" --linear >"$nb_tmp/out" 2>&1
check "--linear without --fit: usage error (exit 2)" test $? -eq 2
check "it says to add --fit" grep -q "add --fit" "$nb_tmp/out"
lab_down
check "lab down leaves no namespace of the test" sh -c "! ip netns list | grep -q '^$P-'"
