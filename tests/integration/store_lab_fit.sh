#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare --fit --linear on real lab runs: rate through the lab's DUT at 0, 300 and 1000 linear
# nftables rules, each run saved with --tag rules=N; `compare --fit 'ns_per_frame ~ rules'
# --linear` must give the per-rule cost and its 95 % interval that `lab fit` computes from the
# same runs' frames/s (one model: ns per frame = base + per-rule cost x rules). Then one
# `rate --sweep-rules` run, saved: compare fits it directly, each swept point a run with its rule
# count, and gives the slope and interval the sweep's own fit holds. The log-log fit refuses
# rules = 0 with the reason.
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtsf_$nb_id
need_tools ip nft
need_store
DB=$nb_tmp/r.db
lab_down() { "$NETBENCH" lab down --prefix $P >/dev/null 2>&1; }
lab_up $P --no-agent || { notok "lab up --prefix $P"; exit 1; }
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
lab=$(sed -n 's/.* + \(-\{0,1\}[0-9.]*\) ns x rules (slope 95 % interval \(-\{0,1\}[0-9.]*\) to \(-\{0,1\}[0-9.]*\) ns.*/\1 \2 \3/p' "$nb_tmp/lab")
"$NETBENCH" compare --db "$DB" --fit 'ns_per_frame ~ rules' --linear >"$nb_tmp/fit" 2>&1
check "compare --fit --linear: exit 0" test $? -eq 0 || sed 's/^/# /' "$nb_tmp/fit"
sed 's/^/# /' "$nb_tmp/lab" "$nb_tmp/fit"
b=$(sed -n 's/.*: rules slope \(-\{0,1\}[0-9.]*\) (95 % interval \(-\{0,1\}[0-9.]*\) to \(-\{0,1\}[0-9.]*\)).*; 3 runs, 1 residual dof.*/\1 \2 \3/p' \
	"$nb_tmp/fit" | head -1)
check "the linear fit gives a per-rule cost with its 95 % interval from 3 runs, 1 residual dof (${b:-none})" \
	test -n "$b"
# Both print 4 significant digits or 3 decimals: they agree to the printed precision.
check "it agrees with lab fit's per-rule cost and interval (${b:-?} vs ${lab:-none} ns)" awk \
	-v b="${b:-x}" -v l="${lab:-x}" 'BEGIN { nb = split(b, x, " "); nl = split(l, y, " ")
		if (nb != 3 || nl != 3) exit 1
		for (i = 1; i <= 3; i++) { d = x[i] - y[i]; if (d < 0) d = -d
			if (d > 0.0005 * (y[i] < 0 ? -y[i] : y[i]) + 0.002) exit 1 }
		exit 0 }'
"$NETBENCH" compare --db "$DB" --fit 'ns_per_frame ~ rules' >"$nb_tmp/fit" 2>&1
check "the log-log fit refuses rules = 0, saying why" grep -q "rules is 0 (needs a value above 0" \
	"$nb_tmp/fit"
"$NETBENCH" compare --db "$DB" --linear >"$nb_tmp/out" 2>&1
check "--linear without --fit: usage error (exit 2)" test $? -eq 2
check "it says to add --fit" grep -q "add --fit" "$nb_tmp/out"

# One rule sweep, saved untagged: compare fits it directly (each swept point a run).
SDB=$nb_tmp/sweep.db
ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 128 --quick \
	--sweep-rules 0,300,1000 --kind linear --lab-prefix $P --save "$SDB" -J \
	>"$nb_tmp/sweep.json" 2>"$nb_tmp/err"
check "rate --sweep-rules 0,300,1000 --save: exit 0" test $? -eq 0 ||
	sed 's/^/# /' "$nb_tmp/err" | tail -5
"$NETBENCH" compare --db "$SDB" --fit 'ns_per_frame ~ rules' --linear >"$nb_tmp/sfit" 2>&1
check "compare --fit 'ns_per_frame ~ rules' --linear on the sweep: exit 0" test $? -eq 0
sed 's/^/# /' "$nb_tmp/sfit"
want=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(1 for p in d["sweep"] for s in p["sizes"] if s["valid"])
f = [x for x in d["fits"] if x["kind"] == "linear"][0]
print(n, n - 2, f["per_rule_ns"], f["per_rule_lo_ns"], f["per_rule_hi_ns"])' "$nb_tmp/sweep.json" 2>/dev/null)
got=$(sed -n 's/^  linear, 128 B: .*: rules slope \(-\{0,1\}[0-9.]*\) (95 % interval \(-\{0,1\}[0-9.]*\) to \(-\{0,1\}[0-9.]*\)).*; \([0-9]*\) runs, \([0-9]*\) residual dof.*/\4 \5 \1 \2 \3/p' \
	"$nb_tmp/sfit")
check "each swept point is a run; the slope and its 95 % interval are the sweep's own (${got:-none} vs ${want:-none})" \
	awk -v g="${got:-x}" -v w="${want:-x}" 'BEGIN { ng = split(g, x, " "); nw = split(w, y, " ")
		if (ng != 5 || nw != 5 || x[1] != y[1] || x[2] != y[2] || x[1] < 3) exit 1
		for (i = 3; i <= 5; i++) { d = x[i] - y[i]; if (d < 0) d = -d
			if (d > 0.0005 * (y[i] < 0 ? -y[i] : y[i]) + 0.002) exit 1 }
		exit 0 }'
"$NETBENCH" compare --db "$SDB" --fit 'ns_per_frame ~ rules' >"$nb_tmp/sfit" 2>&1
check "the log-log fit of the sweep refuses rules = 0 too" grep -q "rules is 0 (needs a value above 0" \
	"$nb_tmp/sfit"
lab_down
check "lab down leaves no namespace of the test" sh -c "! ip netns list | grep -q '^$P-'"
echo "1..$n"
