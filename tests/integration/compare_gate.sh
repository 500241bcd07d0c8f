#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The regression gate end to end: three real `mem --quick` runs saved as the baseline, and the
# same documents imported again as equal runs, scaled to a 50 % regression (latency doubled,
# bandwidth halved), and scaled by 1.15/1.01/0.90 per run (a difference within the runs'
# spread). `compare --baseline --fail-if-worse` passes the equal runs, fails the regression with
# JUnit XML naming the metric (checked with python's XML parser), does not fail the noisy runs,
# and cannot judge a single run unless --gate-point is given. Also: usage errors, --only, and a
# JUnit file that is written whole (no temporary file left beside it).
. "$(dirname "$0")/../lib.sh"
trap nb_cleanup EXIT
need_store
DB=$nb_tmp/g.db
nbq() { "$NETBENCH" "$@"; }
for i in 1 2 3; do
	check_rc "mem --quick --save --label base (run $i)" 0 \
		nbq mem --quick --save "$DB" --label base -o "$nb_tmp/base$i.json"
done

# scale IN OUT LATENCY_FACTOR BANDWIDTH_FACTOR: the document with its figures scaled.
scale() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lf, bf = float(sys.argv[3]), float(sys.argv[4])
for p in d["latency"]["points"]:
    if isinstance(p.get("ns_per_load"), (int, float)):
        p["ns_per_load"] *= lf
for r in d["bandwidth"]["results"]:
    for k in ("read_mbyte_per_s", "write_mbyte_per_s", "copy_mbyte_per_s"):
        if isinstance(r.get(k), (int, float)):
            r[k] *= bf
json.dump(d, open(sys.argv[2], "w"))
PY
}
for i in 1 2 3; do
	scale "$nb_tmp/base$i.json" "$nb_tmp/same$i.json" 1 1
	scale "$nb_tmp/base$i.json" "$nb_tmp/slow$i.json" 2 0.5
done
scale "$nb_tmp/base1.json" "$nb_tmp/lone.json" 2.01 0.5 # a regressed run of its own
scale "$nb_tmp/base1.json" "$nb_tmp/noisy1.json" 1.15 0.85
scale "$nb_tmp/base2.json" "$nb_tmp/noisy2.json" 1.01 0.99 # not same2: one run is stored once
scale "$nb_tmp/base3.json" "$nb_tmp/noisy3.json" 0.9 1.1
check_rc "import equal, regressed and noisy runs" 0 sh -c "
	'$NETBENCH' results import --db '$DB' --label same '$nb_tmp'/same?.json &&
	'$NETBENCH' results import --db '$DB' --label slow '$nb_tmp'/slow?.json &&
	'$NETBENCH' results import --db '$DB' --label noisy '$nb_tmp'/noisy?.json &&
	'$NETBENCH' results import --db '$DB' --label slow1 '$nb_tmp'/lone.json"

G="compare --db $DB --baseline base --fail-if-worse 10"
check_rc "usage: --fail-if-worse without --baseline" 2 nbq compare --db "$DB" --fail-if-worse 10
check "it says what is missing" has "needs --baseline"
check_rc "usage: --fail-if-worse 0" 2 nbq $G --fail-if-worse 0
check "it names the accepted range" has "above 0 and at most 1000"
check_rc "usage: --junit without the gate" 2 nbq compare --db "$DB" --junit "$nb_tmp/x.xml"
check_rc "usage: --only with no such label" 2 nbq $G --only nobody
check "no JUnit file from usage errors" test ! -e "$nb_tmp/x.xml"

check_rc "equal runs pass (exit 0)" 0 nbq $G --only same --junit "$nb_tmp/same.xml"
check "it says it passes" has "passes: no metric is established worse"
check "the JUnit file has no failure" python3 -c "
import xml.etree.ElementTree as ET
r = ET.parse('$nb_tmp/same.xml').getroot()
cases = r.findall('.//testcase')
assert cases and not r.findall('.//failure'), len(cases)
assert r.get('failures') == '0'
"

check_rc "a 50 % regression fails (exit 1)" 1 nbq $G --only slow --junit "$nb_tmp/slow.xml"
check "the deciding rows are printed" sh -c "grep -q '^  fail: mem.latency ns per load' $nb_tmp/out && grep -q 'fail: mem.bandwidth read' $nb_tmp/out"
check "a row says by how much, with its interval and runs" \
	grep -Eq 'worse by (49|50|51)\.[0-9] % \(95 % interval .* 3 runs against 3\): beyond the 10 % threshold' "$nb_tmp/out"
check "JUnit XML parses and names the failing metrics" python3 -c "
import xml.etree.ElementTree as ET
r = ET.parse('$nb_tmp/slow.xml').getroot()
fails = [c for c in r.iter('testcase') if c.find('failure') is not None]
names = [c.get('name') for c in fails]
assert any(n.startswith('mem.latency ns per load, working set ') and n.endswith(': slow') for n in names), names
assert any(c.get('classname') == 'netbench.mem.bandwidth' for c in fails), names
f = fails[0].find('failure')
assert 'worse by' in f.get('message') and 'baseline' in f.text and 'runs' in f.text, f.text
assert int(r.get('failures')) == len(fails) and int(r.get('tests')) >= len(fails)
"
if command -v xmllint >/dev/null 2>&1; then
	check "xmllint: well-formed" xmllint --noout "$nb_tmp/slow.xml"
else
	skip "xmllint not installed (python's parser checked it above)"
fi
check "no temporary file beside the JUnit file" sh -c "[ \$(ls $nb_tmp | grep -c 'xml\.') -eq 0 ]"

check_rc "a difference within the runs' spread does not fail (exit 0)" 0 nbq compare --db "$DB" \
	--baseline base --fail-if-worse 5 --only noisy
check "it says what is not established" has "is not established (the interval includes the threshold)"

check_rc "one regressed run: significance not judged, exit 0" 0 nbq $G --only slow1
check "it says it cannot judge and how to gate" sh -c "grep -q 'one run on a side, so significance cannot be judged' $nb_tmp/out && grep -q -- '--gate-point' $nb_tmp/out"
check_rc "the same with --gate-point: exit 1" 1 nbq $G --only slow1 --gate-point
check "the point value decides" has "fail (point value): mem.latency"

nbq $G --only slow -J >"$nb_tmp/g.json"
check "-J: the verdicts in the document" json_check "$nb_tmp/g.json" '
g = d["gate"]
assert g["worse_pct"] == 10 and g["failed"] >= 2 and g["metrics"] >= g["failed"]
v = [x for x in g["verdicts"] if x["verdict"] == "fail"]
assert v and all(x["ratio_lo"] is not None and x["runs"] == 3 and x["baseline_runs"] == 3 for x in v)
'
check_rc "compare --only slow without the gate: the table shows value and ratio" 0 nbq compare --db "$DB" --baseline base --only slow --test mem
check "values beside their ratios, with the interval" sh -c "grep -q 'with the ratio to base' $nb_tmp/out && grep -Eq '[0-9] 2\.[0-9][0-9]x\*' $nb_tmp/out && grep -q '±' $nb_tmp/out"
check "mem.bandwidth is a table" has "mem: memory bandwidth by thread count (MB/s)"
echo "1..$n"
