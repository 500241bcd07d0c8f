#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The README's first command end to end: the demo brings the lab up, runs every capability,
# writes JSON and a summary, and tears everything down within its 5-minute budget.
. "$(dirname "$0")/../lib.sh"
need_root
TOP=${TOP:-.}
if ip netns list | grep -Eq '^nb(gen|dut|sink)( |$)'; then
	skip "a lab is already up on this machine (netbench lab down to free it)"
	exit 0
fi
t0=$(date +%s)
NB_DEMO_OUT="$nb_tmp/results" sh "$TOP/tests/demo.sh" "${BUILD:-build}" >"$nb_tmp/demo.log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))
check "demo exits 0" test $rc -eq 0 || tail -30 "$nb_tmp/demo.log" | sed 's/^/# /'
check "demo finishes within 5 minutes (took ${secs} s)" test $secs -le 300
check "demo prints where the results are" grep -q "results: $nb_tmp/results" "$nb_tmp/demo.log"
check "summary written" test -s "$nb_tmp/results/summary.txt"
check "tput through the DUT ran and its JSON carries both platforms" json_check "$nb_tmp/results/tput.json" '
assert d["schema"] == "netbench/1" and d["env"]["remote"]["hostname"]
assert d["steps"] and all(x["valid"] for x in d["steps"])
'
check "rate through the DUT at 64, 128, 512 and 1518 bytes" json_check "$nb_tmp/results/rate.json" '
assert [x["frame_bytes"] for x in d["sizes"]] == [64, 128, 512, 1518]
'
check "rate observed the lab's DUT: every trial has its window, every size a bottleneck" \
	json_check "$nb_tmp/results/rate.json" '
assert d["parameters"]["observe"] == ["198.18.0.254"]
assert all(t["observers"][0]["window_s"] > 0 for x in d["sizes"] for t in x["trials"])
assert all(x["bottleneck"]["kind"] for x in d["sizes"])
'
check "the summary shows the DUT's view: a bottleneck line per size" \
	sh -c "[ \$(grep -c '^  bottleneck [0-9]* B: ' '$nb_tmp/results/summary.txt') -eq 4 ]"
for i in 1 2 3; do
	check "rule sweep $i by rate: linear and set at 0, 100, 1000 rules, a fit for each" \
		json_check "$nb_tmp/results/rule-sweep-$i.json" '
assert sorted((p["kind"], p["rules"]) for p in d["sweep"]) == \
	sorted((k, n) for k in ("linear", "set") for n in (0, 100, 1000))
assert sorted(f["kind"] for f in d["fits"]) == ["linear", "set"]
'
done
check "summary shows the scaling table and both fits, each slope with its 95 % interval over the sweeps' points" sh -c "
	grep -q '^ *rules *linear fps *set fps' '$nb_tmp/results/summary.txt' &&
	grep -q '^ *1000 *[0-9][0-9]* *[0-9][0-9]*\$' '$nb_tmp/results/summary.txt' &&
	grep -Eq 'fit linear *per-frame cost = .* ns \+ .* ns x rules \(slope 95 % interval -?[0-9.]+ to -?[0-9.]+ ns(: not established)?; [0-9]+ points, [0-9]+ residual dof, residual' '$nb_tmp/results/summary.txt' &&
	grep -Eq 'fit set *per-frame cost = .* ns \+ .* ns x rules \(slope 95 % interval -?[0-9.]+ to -?[0-9.]+ ns(: not established)?; [0-9]+ points, [0-9]+ residual dof, residual' '$nb_tmp/results/summary.txt' &&
	grep -Eq \"each sweep's fit: -?[0-9.]+ \\((-?[0-9.]+ to -?[0-9.]+(, not established)?|no interval)\\)\" '$nb_tmp/results/summary.txt'" ||
	grep -A3 '^ *fit ' "$nb_tmp/results/summary.txt" | sed 's/^/# /'
check "summary prints one kernel profile line of the DUT under the rule sweep" \
	grep -Eq '^    (cpu[0-9]+ [0-9]+ %|[0-9]+ CPUs [0-9]+ % busy on average): [a-z]+ [0-9]+ %' \
	"$nb_tmp/results/summary.txt" || grep -A1 'kernel profile' "$nb_tmp/results/summary.txt" | sed 's/^/# /'
bad=0
for f in "$nb_tmp"/results/*.json; do
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null || { bad=1; echo "# unparsable: $f"; }
done
check "every JSON result parses" test $bad -eq 0
if ! "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q 'no SQLite'; then
	check "the demo stored its results and wrote the report" sh -c "
		test -s '$nb_tmp/results/report.html' && grep -q 'open it with: xdg-open $nb_tmp/results/report.html' '$nb_tmp/demo.log' &&
		'$NETBENCH' results list --db '$nb_tmp/netbench.db' --test rate | grep -q 'rate'"
else
	skip "this build has no results store"
fi
check_schemas "$nb_tmp/results"
check "no lab namespace left behind" sh -c "! ip netns list | grep -Eq '^nb(gen|dut|sink)( |\$)'"
# The default lab's agents only (their pid files lie directly in /run/netbench-lab): labs under
# a prefix are other runs' on a shared host.
check "no lab agent left behind" sh -c "! pgrep -f '[s]erve -D --pid-file /run/netbench-lab/[a-z]+\.pid' >/dev/null"
