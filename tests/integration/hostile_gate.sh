#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The regression gate under a crafted sweep (docs/security.md): a view holds at most 64 points a
# series (and 16 series), which is for drawing; the gate must judge every point or refuse. mem
# documents of 100 working-set sizes, three runs as the baseline and three whose sizes 65 to 100
# load 10 times slower: `compare --fail-if-worse 5` exits 1 saying what it could not judge, and
# its JUnit file counts those as errors beside the judged metrics (before: "70 metrics, 0 fail",
# "passes", exit 0, JUnit tests="70" failures="0").
. "$(dirname "$0")/../lib.sh"
need_store
DB=$nb_tmp/g.db
"$NETBENCH" mem --quick -o "$nb_tmp/mem.json" >/dev/null 2>&1 || { notok "mem --quick"; echo "1..$n"; exit 1; }

# sweep IN OUT NS_EARLY NS_LATE [SIZES]: the document with SIZES (100) sizes of 1, 2, ... KByte,
# sizes 1-64 at NS_EARLY ns a load and 65 up at NS_LATE.
sweep() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
early, late = float(sys.argv[3]), float(sys.argv[4])
sizes = int(sys.argv[5]) if len(sys.argv) > 5 else 100
p0 = d["latency"]["points"][0]
pts = []
for i in range(1, sizes + 1):
    p = dict(p0)
    p["set_bytes"] = 1024 * i
    p["ns_per_load"] = p["ns_per_load_median"] = early if i <= 64 else late
    p["cycles_per_load"] = None
    pts.append(p)
d["latency"]["points"] = pts
d["caches"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
}
sweep "$nb_tmp/mem.json" "$nb_tmp/b1.json" 10 10
sweep "$nb_tmp/mem.json" "$nb_tmp/b2.json" 10.1 10.1
sweep "$nb_tmp/mem.json" "$nb_tmp/b3.json" 9.9 9.9
sweep "$nb_tmp/mem.json" "$nb_tmp/n1.json" 10 100
sweep "$nb_tmp/mem.json" "$nb_tmp/n2.json" 10.1 101
sweep "$nb_tmp/mem.json" "$nb_tmp/n3.json" 9.9 99
check_rc "import 3 baseline runs and 3 runs regressed at sizes 65-100" 0 sh -c "
	'$NETBENCH' results import --db '$DB' --label base '$nb_tmp'/b?.json &&
	'$NETBENCH' results import --db '$DB' --label new '$nb_tmp'/n?.json"

check_rc "the gate at 5 %: exit 1" 1 "$NETBENCH" compare --db "$DB" --baseline base --only new \
	--fail-if-worse 5 --junit "$nb_tmp/gate.xml"
cp "$nb_tmp/out" "$nb_tmp/gate.out"
sed 's/^/# /' "$nb_tmp/gate.out" | grep -A8 '^# gate:'
check_quiet "... it says it refused, naming the points it could not judge and why" sh -c "
	grep -q '^gate: .*, and points it could not see: refused' '$nb_tmp/gate.out' &&
	grep -q 'refused: mem.latency, 36 points not judged, new: 36 measured points of a result of new were not judged: a view holds at most 16 series of 64 points' '$nb_tmp/gate.out' &&
	! grep -q 'passes' '$nb_tmp/gate.out'"
check_quiet "... the JUnit file is well-formed and counts true: a testcase per judged metric and per refusal" \
	/usr/bin/python3 - "$nb_tmp/gate.xml" "$nb_tmp/gate.out" <<'PY'
import re, sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
s = r.find("testsuite")
cases = s.findall("testcase")
errors = [c for c in cases if c.find("error") is not None]
m = re.search(r"(\d+) metrics?, (\d+) fails?", open(sys.argv[2]).read())
assert m, "no summary line"
metrics = int(m.group(1))
assert int(s.get("tests")) == len(cases) == metrics + len(errors), (s.attrib, len(cases), metrics)
# one per run on either side: the baseline's 36 unseen points are not judged either
assert int(s.get("errors")) == len(errors) == 6, s.attrib
assert int(r.get("errors")) == 6 and int(r.get("tests")) == len(cases), r.attrib
assert all("36 points not judged" in c.get("name") for c in errors), [c.get("name") for c in errors]
PY
check_rc "the gate with -J: exit 1" 1 "$NETBENCH" compare --db "$DB" --baseline base --only new \
	--fail-if-worse 5 -J
cp "$nb_tmp/out" "$nb_tmp/gate.json"
check_quiet "... its document counts the refusals" json_check "$nb_tmp/gate.json" "
g = d['gate']
assert g['refused'] == 6, g
assert sum(v['verdict'] == 'refused' for v in g['verdicts']) == 6, g
assert g['metrics'] == len(g['verdicts']) - 6, g
"
# Within what a view holds (64 sizes) every point is judged: equal runs pass.
i=1
for ns in 10 10.1 9.9; do
	sweep "$nb_tmp/mem.json" "$nb_tmp/c$i.json" "$ns" "$ns" 64
	sweep "$nb_tmp/mem.json" "$nb_tmp/d$i.json" "$ns"1 "$ns"1 64
	i=$((i + 1))
done
check_rc "import 64-size runs: a baseline and equal runs" 0 sh -c "
	'$NETBENCH' results import --db '$DB' --label base64 '$nb_tmp'/c?.json &&
	'$NETBENCH' results import --db '$DB' --label same64 '$nb_tmp'/d?.json"
check_rc "64 sizes, equal runs: the gate passes (exit 0)" 0 \
	"$NETBENCH" compare --db "$DB" --baseline base64 --only same64 --fail-if-worse 5
check "... nothing refused" sh -c "! grep -q refused '$nb_tmp/out'"
# A label holding U+FFFE and U+FFFF (valid UTF-8, forbidden in XML 1.0): the JUnit file stays
# well-formed (before: "Char 0xFFFE out of allowed range").
odd=$(printf 'odd\357\277\276\357\277\277')
i=1
for ns in 10.02 10.12 9.92; do
	sweep "$nb_tmp/mem.json" "$nb_tmp/e$i.json" "$ns" "$ns" 64
	i=$((i + 1))
done
check_rc "import 64-size runs labelled odd U+FFFE U+FFFF" 0 \
	"$NETBENCH" results import --db "$DB" --label "$odd" "$nb_tmp"/e?.json
check_rc "the gate with --junit on them: exit 0" 0 "$NETBENCH" compare --db "$DB" --baseline base64 \
	--only "$odd" --fail-if-worse 5 --junit "$nb_tmp/odd.xml"
check_quiet "... the JUnit file is well-formed XML 1.0, the label's characters replaced by U+FFFD" \
	/usr/bin/python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
names = [c.get('name') for c in r.iter('testcase')]
assert names and all(n.endswith('odd\ufffd\ufffd') for n in names), names[:2]
" "$nb_tmp/odd.xml"
echo "1..$n"
