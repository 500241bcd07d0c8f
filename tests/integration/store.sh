#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The results store end to end: real runs over loopback saved with --save/--label/--tag and -o,
# results list/show/import/export/rm with filters, compare (text, baseline, CSV, JSON), two
# writers at once and a writer killed with SIGKILL mid-import, and the HTML report rendered by
# headless Chromium: one SVG chart per section with the expected series and axis labels, and a
# screenshot that is not blank.
. "$(dirname "$0")/../lib.sh"
need_store
P=5331
DB=$nb_tmp/r.db
export NETBENCH_DB=$DB
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
nbq() { "$NETBENCH" "$@"; }
count() { nbq results list "$@" 2>/dev/null | tail -n +2 | wc -l; }
# runs IN DIR N: N distinct runs (DIR/0.json ...) like IN, each a second later: the same
# document twice is one run, imported once.
runs() {
	mkdir -p "$2"
	python3 - "$@" <<'PY'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
t0 = datetime.datetime.strptime(d["time_utc"], "%Y-%m-%dT%H:%M:%SZ")
for i in range(int(sys.argv[3])):
    d["time_utc"] = (t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
    json.dump(d, open("%s/%d.json" % (sys.argv[2], i), "w"))
PY
}

# Usage errors first: nothing is created by them.
check_rc "--label without --save: usage error" 2 nbq mem --quick --label x
check "it says to add --save" has "add --save"
check_rc "--tag that is not KEY=VALUE: usage error" 2 nbq mem --quick --save --tag novalue
check "it names the tag and the form" has "'novalue' is not KEY=VALUE"
check "no database was created by usage errors" test ! -e "$DB"

# Real runs, saved. Table runs keep their table; -J runs print the document as before.
T="-c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k,4k"
check_rc "tput --save --label A --tag: exit 0" 0 nbq tput $T --save --label A --tag core_mhz=333
check "the table is still printed" has "Tx KByte/s"
check "it says where it was saved" has "saved as result 1 in $DB"
nbq tput $T --save "$DB" --label A --tag core_mhz=333 -J -o "$nb_tmp/tA2.json" >"$nb_tmp/tA2.out" 2>"$nb_tmp/err"
check "tput -J --save DB -o FILE: exit 0" test $? -eq 0
check "-o FILE holds the document printed on stdout" cmp -s "$nb_tmp/tA2.json" "$nb_tmp/tA2.out"
check "the document is JSON of test tput" json_check "$nb_tmp/tA2.json" 'assert d["test"] == "tput"'
check_rc "tput --save=DB --label B" 0 nbq tput $T --save="$DB" --label B --tag core_mhz=400
S="-c 127.0.0.1 --ctl-port $P -a 127.0.0.1 -t 0.4 --rates 4M,8M"
check_rc "stream --save --label A" 0 nbq stream $S --save --label A
check_rc "stream --save --label B -J" 0 nbq stream $S --save --label B -J
check_rc "mem --quick --save --label A -o" 0 nbq mem --quick --save --label A -o "$nb_tmp/mem.json"
check_rc "crypto --quick --save --label A -o" 0 nbq crypto --quick --algo aes-128-cbc,hmac-sha256 \
	--save --label A -o "$nb_tmp/crypto.json"
check_rc "rate --quick --save --label A" 0 nbq rate -c 127.0.0.1 -p $P --quick -s 64,512 \
	--save --label A -o "$nb_tmp/rate.json"
check "eight results stored" test "$(count)" -eq 8

# list and its filters.
check_rc "results list" 0 nbq results list
check "list shows IDs, tests and labels" sh -c "grep -Eq '^ +1 +tput .* A ' $nb_tmp/out && grep -Eq '^ +8 +rate ' $nb_tmp/out"
check "list shows tags" has "core_mhz=333"
nbq results list -J --label A >"$nb_tmp/list.json"
check "list -J: every field of docs/schema.md" json_check "$nb_tmp/list.json" '
assert d["store_schema_version"] == 1 and d["database"].endswith("r.db")
r = d["results"]
assert [x["id"] for x in r] == [1, 2, 4, 6, 7, 8], [x["id"] for x in r]
x = r[0]
assert set(x) == {"id", "test", "label", "time_utc", "saved_utc", "source", "host", "kernel", "arch", "cpu_model", "cpu_mhz", "driver", "tags"}, set(x)
assert x["test"] == "tput" and x["label"] == "A" and x["source"] == "save" and x["tags"] == {"core_mhz": "333"}
assert x["time_utc"].endswith("Z") and x["saved_utc"] >= x["time_utc"] and x["kernel"]
'

check "--test tput: 3" test "$(count --test tput)" -eq 3
check "--label A: 6" test "$(count --label A)" -eq 6
check "--label 'B%' (LIKE): 2" test "$(count --label 'B%')" -eq 2
check "--tag core_mhz=333: 2" test "$(count --tag core_mhz=333)" -eq 2
check "--host of this machine: 8" test "$(count --host "$(uname -n)")" -eq 8
check "--since the future: 0" test "$(count --since 2999-01-01)" -eq 0
check "IDs with a filter: 2 of 1,2,3,4 are stream" test "$(count --test stream 1 2 3 4)" -eq 1

# show: the tables compare makes from the stored document, for a table run as for a -J run.
check_rc "results show 1" 0 nbq results show 1
check "show 1 prints the document's tables" sh -c "grep -q 'throughput by block size (KByte/s)' $nb_tmp/out && grep -q 'label A' $nb_tmp/out"
check "show 1 says it rebuilds the table from the document" has "stored without its table"
check_rc "results show 2 (saved from a -J run)" 0 nbq results show 2
check "show 2 says it rebuilds the table from the document" has "stored without its table"
nbq results show -J 2 >"$nb_tmp/show2.json"
check "show -J 2 gives the document back" cmp -s "$nb_tmp/show2.json" "$nb_tmp/tA2.json"
check_rc "show of a missing ID: exit 1" 1 nbq results show 999
check_rc "show with no ID: usage error" 2 nbq results show

# import: all or nothing.
runs "$nb_tmp/tA2.json" "$nb_tmp/c" 2
cp "$nb_tmp/c/1.json" "$nb_tmp/c1.json"
runs "$nb_tmp/mem.json" "$nb_tmp/m" 2
check_rc "import two documents with --label C --tag" 0 nbq results import --label C --tag rules=100 "$nb_tmp/c1.json" "$nb_tmp/m/1.json"
check "they are results 9 and 10" sh -c "grep -q '^9	' $nb_tmp/out && grep -q '^10	' $nb_tmp/out"
check "--label C: 2" test "$(count --label C)" -eq 2
echo '{"schema":"netbench/1","test":"tput"' >"$nb_tmp/broken.json"
check_rc "import with one broken file: exit 1" 1 nbq results import "$nb_tmp/c1.json" "$nb_tmp/broken.json"
check "it names the file and imports nothing" sh -c "grep -q 'broken.json' $nb_tmp/out && grep -q 'nothing imported' $nb_tmp/out"
check "still 10 results" test "$(count)" -eq 10
echo '{"hello": 1}' >"$nb_tmp/other.json"
check_rc "import of a JSON that is no result: exit 1" 1 nbq results import "$nb_tmp/other.json"
check_rc "import of a missing file: exit 1" 1 nbq results import "$nb_tmp/nope.json"

# export --csv: one line per measured point, with the platform and tags.
check_rc "results export --csv --test tput" 0 nbq results export --csv --test tput
check "CSV parses: header, 4 results x 2 views x (2 sizes x Tx/Rx)" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$nb_tmp/out')))
assert len(rows) == 4 * 2 * 4, len(rows)
assert {r['id'] for r in rows} == {'1', '2', '3', '9'} and {r['view'] for r in rows} == {'tput.kbyte', 'tput.cpu'}
assert all(float(r['y']) > 0 for r in rows if r['view'] == 'tput.kbyte')
assert any(r['tags'] == 'core_mhz=333' for r in rows)
assert {r['x'] for r in rows} == {'1024', '4096'} and rows[0]['x_unit'] == 'bytes'
"
nbq results export --csv --test stream >"$nb_tmp/sx.csv"
check "export: each point keeps its CPU window's pollution mark" python3 -c "
import csv
rows = list(csv.DictReader(open('$nb_tmp/sx.csv')))
assert rows and {r['cpu_polluted'] for r in rows} <= {'yes', 'no'} and 'virtualization' in rows[0]
"
check_rc "export without --csv: usage error" 2 nbq results export

# compare.
check_rc "compare --test tput" 0 nbq compare --test tput
check "tput: rows are block sizes, a column per label and direction" sh -c "grep -q 'A: Tx' $nb_tmp/out && grep -q 'B: Rx' $nb_tmp/out && grep -Eq '^4k ' $nb_tmp/out"
check "A's two runs show their 95 % interval" sh -c "grep -q '±' $nb_tmp/out && grep -q 'A: 2 runs' $nb_tmp/out && grep -q '95 % interval of the mean' $nb_tmp/out"
check_rc "compare --test stream --baseline A" 0 nbq compare --test stream --baseline A
# A cell whose baseline is 0 (A's receiver idle at a low bitrate on a quiet host) has no ratio and
# shows its value; t_compare checks the ratios themselves.
check "stream: rows are results by bitrate, with ratios to A" sh -c "grep -Eq '^B \(.*\)~? +[0-9.]+' $nb_tmp/out && grep -q 'with the ratio to A' $nb_tmp/out"
check_rc "compare --baseline by ID" 0 nbq compare --test tput --baseline 3
check "the ID names its label" has "with the ratio to B"
check_rc "compare --baseline unknown: usage error" 2 nbq compare --baseline nobody
check_rc "compare --csv" 0 nbq compare --csv --baseline A
check "compare CSV: one line per cell with ratio and flag" python3 -c "
import csv
rows = list(csv.DictReader(open('$nb_tmp/out')))
views = {r['view'] for r in rows}
assert {'tput.kbyte', 'stream.cpu', 'mem.latency', 'crypto.mbyte', 'rate.fps'} <= views, views
a = [r for r in rows if r['column'] == 'A: Tx' and r['view'] == 'tput.kbyte']
assert a and all(r['runs'] == '2' and float(r['ratio']) == 1 and r['differs'] == '' and float(r['ci95']) >= 0 for r in a)
"
nbq compare -J --test tput --baseline A >"$nb_tmp/c.json"
check "compare -J: tables with rows, columns and cells" json_check "$nb_tmp/c.json" '
assert d["schema"] == "netbench-compare/1"
t = d["tables"]
assert [x["view"] for x in t] == ["tput.kbyte", "tput.cpu"]
k = t[0]
assert k["rows"] == ["1k", "4k"] and len(k["columns"]) == 6 and k["baseline"] == "A"
assert all(len(r) == 6 for r in k["cells"])
c = k["cells"][0][0]
assert c["runs"] == 2 and c["ci95"] >= 0 and c["mean"] > 0 and c["judged"] is False
assert k["lines"][0]["group"] == "A" and k["lines"][0]["series"] == "Tx"
'

# compare --fit on documents edited to carry a board's numbers measured elsewhere: the seed's
# MPC8313 at 250/333/416 MHz core with a 166 MHz bus and 400 MHz with a 200 MHz bus.
python3 - "$nb_tmp/rate.json" "$nb_tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for core, bus, fps in [(250, 166, 12500), (333, 166, 14500), (416, 166, 15500), (400, 200, 17500)]:
    d["sizes"] = [dict(d["sizes"][0], frame_bytes=128, fps=fps, valid=True)]
    json.dump(d, open("%s/seed-%d-%d.json" % (sys.argv[2], core, bus), "w"))
PY
FDB=$nb_tmp/fit.db
for cb in 250-166 333-166 416-166 400-200; do
	nbq results import --db "$FDB" --label "MPC8313 $cb" --tag core_mhz=${cb%-*} --tag bus_mhz=${cb#*-} "$nb_tmp/seed-$cb.json" >/dev/null 2>&1
done
check_rc "compare --fit 'fps ~ core_mhz + bus_mhz' on the seed's runs" 0 nbq compare --db "$FDB" --fit 'fps ~ core_mhz + bus_mhz'
check "the sentence: one residual dof, no ordering of bus and core, what to measure next" grep -q '^  fps at 128 bytes: frames/s: no ordering of bus_mhz and core_mhz (the difference of their exponents. magnitudes, 0.26, has a 95 % interval -2.87 to 2.87 that includes 0); .*; 4 runs, 1 residual dof, R^2 0.99. To decide: measure at two more bus_mhz values with core_mhz fixed$' "$nb_tmp/out"
check "the bus exponent rests on one run, and the run is named" sh -c "grep -q 'bus_mhz exponent 0.69 (95 % interval -1.26 to 2.64): not established, rests on run 4 alone' $nb_tmp/out && grep -q '^    run 4 is result [0-9]* (MPC8313 400-200)$' $nb_tmp/out"
# The reference probe: software crypto tagged alike, its MB/s made proportional to the core.
python3 - "$nb_tmp/crypto.json" "$nb_tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for core, bus in [(250, 166), (333, 166), (416, 166), (400, 200)]:
    e = json.loads(json.dumps(d))
    for r in e["results"]:
        for p in r.get("points") or []:
            if p.get("mbyte_per_s") is not None:
                p["mbyte_per_s"] = 0.2 * core
    json.dump(e, open("%s/cr-%d-%d.json" % (sys.argv[2], core, bus), "w"))
PY
for cb in 250-166 333-166 416-166 400-200; do
	nbq results import --db "$FDB" --label "MPC8313 $cb" --tag core_mhz=${cb%-*} --tag bus_mhz=${cb#*-} "$nb_tmp/cr-$cb.json" >/dev/null 2>&1
done
check_rc "the fit with CPU-bound probes tagged alike" 0 nbq compare --db "$FDB" --fit 'fps ~ core_mhz + bus_mhz'
check "the reference row: crypto follows the core with exponent 1.00" grep -q '^  reference, CPU-bound (software crypto MB/s): software crypto MB/s follows core_mhz more than bus_mhz (difference of exponents 1.00, 95 % interval 1.00 to 1.00); core_mhz exponent 1.00 (95 % interval 1.00 to 1.00); bus_mhz exponent 0.00 (95 % interval 0.00 to 0.00): not established (the interval rules out an exponent beyond +-0.10), rests on run 4 alone (its residual is 0 whatever it measured); 4 runs, 1 residual dof, R^2 1.00$' "$nb_tmp/out"  ||
	grep "^  reference" "$nb_tmp/out" | sed "s/^/# /"
check_rc "a factor that never varies: no fit, exit 1" 1 nbq compare --db "$FDB" --fit 'fps ~ cpu_mhz'
check "it says why in one line" has "cpu_mhz is .* in every run: it never varies"
TDB=$nb_tmp/tiny.db
for cb in 250-166 333-166 416-166; do
	nbq results import --db "$TDB" --tag core_mhz=${cb%-*} --tag bus_mhz=${cb#*-} "$nb_tmp/seed-$cb.json" >/dev/null 2>&1
done
nbq results import --db "$TDB" --tag core_mhz=1e-320 --tag bus_mhz=1e308 "$nb_tmp/seed-400-200.json" >/dev/null 2>&1
check_rc "tags 1e-320 and 1e308: no fit, exit 1" 1 nbq compare --db "$TDB" --fit 'fps ~ core_mhz + bus_mhz'
check "it names the run, the factor and the accepted range" has "run 4: core_mhz is .*e-32[01] (needs a value above 0: from 1e-100 to 1e+100)"
check "and no nan anywhere" sh -c "! grep -qi nan $nb_tmp/out"
# Engine names longer than a stored series name (60 characters; two that share 59), imported
# three times with different core_mhz tags: once stored cut and compared whole, they overflowed
# the fit's arrays. One run per result and step, the two engines apart.
python3 - "$nb_tmp/crypto.json" "$nb_tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["results"] if x.get("status") == "ok"][0]
a, b = copy.deepcopy(r), copy.deepcopy(r)
a["engine"], b["engine"] = "E" * 59 + "A", "E" * 59 + "B"
for core in (250, 333, 416):
    for e in (a, b):
        for p in e.get("points") or []:
            if p.get("mbyte_per_s") is not None:
                p["mbyte_per_s"] = 0.2 * core * p["size_bytes"] ** 0.1
    d["results"] = [a, b]
    json.dump(d, open("%s/long-%d.json" % (sys.argv[2], core), "w"))
PY
LDB=$nb_tmp/long.db
for m in 250 333 416; do
	nbq results import --db "$LDB" --tag core_mhz=$m "$nb_tmp/long-$m.json" >/dev/null 2>&1
done
check_rc "compare --fit 'mbyte_per_s ~ core_mhz' on 60-character engine names" 0 nbq compare --db "$LDB" --fit 'mbyte_per_s ~ core_mhz'
steps=$(grep -c '^  ' "$nb_tmp/out")
good=$(grep -c '^  E\{38\}~[0-9a-f]\{8\} at .*: MB/s scales as core_mhz^e (.*): e = 1.00 (95 % interval 1.00 to 1.00); 3 runs, 1 residual dof' "$nb_tmp/out")
check "every step ($steps): 3 runs, MB/s in proportion to the core" test "$steps" -ge 2 -a "$good" -eq "$steps"
check "the two engines stay apart" test "$(grep -o '^  E*~[0-9a-f]*' "$nb_tmp/out" | sort -u | wc -l)" -eq 2
check_rc "report --fit on them" 0 nbq report --db "$LDB" -o "$nb_tmp/long.html" --fit 'mbyte_per_s ~ core_mhz'
check_rc "--fit with a bad formula: usage error" 2 nbq compare --db "$FDB" --fit 'fps core'
check_rc "--fit with an unknown metric: usage error" 2 nbq compare --db "$FDB" --fit 'speed ~ core_mhz'

# rm.
check_rc "results rm 10" 0 nbq results rm 10
check "10 is gone" test "$(count)" -eq 9
check_rc "rm of a missing ID: exit 1, nothing removed" 1 nbq results rm 9 999
check "9 is still there" test "$(count)" -eq 9

# The same document imported again is the same run: skipped and said, never a second run.
before=$(count)
check_rc "import c1.json again" 0 nbq results import --label again "$nb_tmp/c1.json"
check "it says the document is result 9 already and skips it" \
	grep -q "c1.json is result 9 already (the same document, byte for byte): skipped, a run counts once" "$nb_tmp/out"
check "and counts it: imported 0 results (1 duplicate skipped)" grep -q "imported 0 results into .* (1 duplicate skipped)" "$nb_tmp/out"
check "no result added" test "$(count)" -eq "$before"
runs "$nb_tmp/c1.json" "$nb_tmp/dup" 3
check_rc "the same new document twice in one import" 0 nbq results import --label twice "$nb_tmp/dup/1.json" "$nb_tmp/dup/1.json"
check "one result added, the second named as the first" sh -c "
	test \"\$(grep -c '	.*dup/1.json' '$nb_tmp/out')\" -eq 1 && grep -q 'imported 1 result into .* (1 duplicate skipped)' '$nb_tmp/out'"
check "one result more" test "$(count)" -eq $((before + 1))
nbq results rm "$(sed -n 's/	.*dup.1.json$//p' "$nb_tmp/out")" >/dev/null 2>&1

# Two writers at once (a store of their own): every import lands.
WDB=$nb_tmp/writers.db
runs "$nb_tmp/c1.json" "$nb_tmp/w1" 15
runs "$nb_tmp/mem.json" "$nb_tmp/w2" 15
w() { i=0; while [ $i -lt 15 ]; do nbq results import --db "$WDB" --label "w$1" "$nb_tmp/w$1/$i.json" >/dev/null 2>&1 || echo fail >>"$nb_tmp/wfail"; i=$((i + 1)); done; }
w 1 & p1=$!
w 2 & p2=$!
wait $p1 $p2
check "two concurrent writers: 30 imports, none failed" test ! -e "$nb_tmp/wfail"
check "all 30 are there" test "$(count --db "$WDB")" -eq 30

# A writer killed mid-import leaves the store as it was, or with the whole import.
KDB=$nb_tmp/kill.db
nbq results import --db "$KDB" "$nb_tmp/c1.json" >/dev/null 2>&1
runs "$nb_tmp/crypto.json" "$nb_tmp/many" 150
hit=0
for delay in 0.02 0.05 0.1; do
	before=$(count --db "$KDB")
	"$NETBENCH" results import --db "$KDB" "$nb_tmp"/many/*.json >/dev/null 2>&1 &
	pid=$!
	sleep $delay # not a wait: the import is killed this far into its run
	kill -0 $pid 2>/dev/null && hit=$((hit + 1))
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	after=$(count --db "$KDB")
	if [ "$after" -ne "$before" ] && [ "$after" -ne $((before + 150)) ]; then
		notok "after SIGKILL at ${delay}s: $after results, neither $before nor $((before + 150))"
	fi
done
check "SIGKILL mid-import ($hit of 3 kills hit a running import): all or nothing" test "$hit" -gt 0
check "the store passes SQLite's integrity check" sh -c "sqlite3 '$KDB' 'PRAGMA integrity_check' | grep -qx ok"
check_rc "and takes new results" 0 nbq results import --db "$KDB" --label after-kill "$nb_tmp/dup/2.json"

# The report, looked at by a browser.
check_rc "report -o" 0 nbq report -o "$nb_tmp/r.html" --title "store test"
check_rc "report without -o: usage error" 2 nbq report
check_rc "report --linear without --fit: usage error" 2 nbq report -o "$nb_tmp/x.html" --linear
check "the page loads nothing from anywhere (no scripts, links or sources)" sh -c "! grep -Eiq '<script|<link|src=|href=|@import|url\\(' $nb_tmp/r.html"
if ! command -v chromium >/dev/null 2>&1; then
	skip "chromium not installed (tests/deps.sh installs it)"
else
	home=$nb_tmp/chromium
	mkdir -p "$home"
	HOME=$home timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$home" \
		--dump-dom "file://$nb_tmp/r.html" >"$nb_tmp/dom.html" 2>"$nb_tmp/chromium.err"
	check "chromium renders the page (DOM dumped)" test -s "$nb_tmp/dom.html"
	check "one SVG chart per section, series and axis labels as stored" python3 - "$nb_tmp/dom.html" "$nb_tmp/crypto.json" <<'PY'
import html.parser, json, sys
dom = open(sys.argv[1]).read()
crypto = json.load(open(sys.argv[2]))
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.sec = []; s.cur = None; s.label = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "section":
            s.cur = {"view": a.get("data-view"), "svgs": [], "labels": []}; s.sec.append(s.cur)
        elif tag == "svg" and s.cur is not None:
            s.cur["svgs"].append(int(a["data-series"]))
        elif tag == "text" and "axis-label" in a.get("class", ""):
            s.label = True
    def handle_data(s, d):
        if s.label: s.cur["labels"].append(d); s.label = None
p = P(); p.feed(dom)
views = {x["view"]: x for x in p.sec}
ok_algo = {}
for r in crypto["results"]:
    if r["status"] == "ok": ok_algo[r["algo"]] = ok_algo.get(r["algo"], 0) + 1
want = {"tput.kbyte": 6, "tput.cpu": 6, "stream.cpu": 2, "mem.latency": 1,
        "crypto.mbyte": max(ok_algo.values()), "rate.fps": 1}
assert set(views) == set(want), sorted(views)
for v, n in want.items():
    s = views[v]
    assert len(s["svgs"]) == 1, (v, s["svgs"])
    assert s["svgs"][0] >= n and s["svgs"][0] <= n + 2, (v, s["svgs"][0], n)
    assert len(s["labels"]) == 2, (v, s["labels"])
assert views["tput.kbyte"]["labels"] == ["block (bytes) (log)", "throughput (Mbit/s)"], views["tput.kbyte"]["labels"]
assert views["stream.cpu"]["labels"][0] == "bitrate (Mbit/s)"
assert views["mem.latency"]["labels"] == ["working set (bytes) (log)", "latency (ns) (log)"]
assert dom.count('class="facts"') == len(want)
PY
	# The fit's charts: the seed's runs with the crypto reference, one per factor.
	check_rc "report --fit 'fps ~ core_mhz + bus_mhz'" 0 nbq report --db "$FDB" -o "$nb_tmp/fit.html" \
		--fit 'fps ~ core_mhz + bus_mhz'
	HOME=$home timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$home" \
		--dump-dom "file://$nb_tmp/fit.html" >"$nb_tmp/fitdom.html" 2>>"$nb_tmp/chromium.err"
	check "fit charts: one per factor, log-log, runs + fit + reference, the sentence" python3 - "$nb_tmp/fitdom.html" <<'PY'
import html.parser, sys
dom = open(sys.argv[1]).read()
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.sec = []; s.cur = None; s.label = s.legend = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "section" and (a.get("data-view") or "").startswith("fit:"):
            s.cur = {"view": a["data-view"], "svgs": [], "labels": [], "legend": []}; s.sec.append(s.cur)
        elif tag == "section":
            s.cur = None
        elif tag == "svg" and s.cur is not None:
            s.cur["svgs"].append(int(a["data-series"]))
        elif tag == "text" and s.cur is not None and "axis-label" in a.get("class", ""):
            s.label = True
        elif tag == "text" and s.cur is not None and "legend-item" in a.get("class", ""):
            s.legend = True
    def handle_data(s, d):
        if s.label: s.cur["labels"].append(d); s.label = None
        if s.legend: s.cur["legend"].append(d); s.legend = None
p = P(); p.feed(dom)
assert [x["view"] for x in p.sec] == ["fit:core_mhz", "fit:bus_mhz"], p.sec
for x in p.sec:
    f = x["view"][4:]
    assert x["svgs"] == [3], x
    assert x["labels"] == [f + " (log)", "frames/s (log)"], x["labels"]
    assert x["legend"] == ["runs", "fit", "reference: software crypto MB/s"], x["legend"]
assert "frames/s: no ordering of bus_mhz and core_mhz" in dom
PY
	HOME=$home timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$home" \
		--hide-scrollbars --window-size=1200,1600 --screenshot="$nb_tmp/shot.png" \
		"file://$nb_tmp/r.html" >/dev/null 2>&1
	check "the screenshot is not blank (pixel variance from the PNG itself)" python3 - "$nb_tmp/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
grey = []
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 4 == 0:
        grey.extend(line[i] for i in range(0, stride, bpp * 4))
mean = sum(grey) / len(grey)
var = sum((g - mean) ** 2 for g in grey) / len(grey)
dark = sum(1 for g in grey if g < 128) / len(grey)
print("# %dx%d mean %.1f variance %.1f dark %.3f" % (w, h, mean, var, dark))
assert var > 100 and 0.005 < dark < 0.5, (var, dark)
PY
fi
echo "1..$n"
