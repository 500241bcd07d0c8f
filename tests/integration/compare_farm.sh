#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare and report at a farm's scale: a store of 1,008 results (24 boards x 7 kernels x 3 runs
# of rate and of mem), built here from one real rate and one real mem document over loopback
# whose figures are then set per board and kernel (boards 0, 4, 8, ... lose 15 % from 6.6 on).
# compare lays them out on chosen axes (--rows/--columns by label, tag or size), filters with
# --where, and shows a kernel trend per board with ratios to a baseline kernel; its text is
# compared with a snapshot (tests/snap/compare_farm_trend.txt). The report's trend is rendered in
# headless Chromium: nine charts of at most eight lines, no two labels overlapping, a
# screenshot in the test log directory for a person to read. Bad axes, filters and baselines are
# usage errors that print nothing else.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
need_store
P=5421
DB=$nb_tmp/farm.db
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }

check_rc "a real rate document (loopback, three frame sizes)" 0 "$NETBENCH" rate -c 127.0.0.1 \
	-p $P -q -s 64,512,1518 -J -o "$nb_tmp/rate.json"
check_rc "a real mem document" 0 sh -c "'$NETBENCH' mem --quick -J >'$nb_tmp/mem.json'"
mkdir -p "$nb_tmp/docs1000"
python3 - "$nb_tmp/docs1000" "$nb_tmp/rate.json" "$nb_tmp/mem.json" <<'PY'
import copy, json, random, sys
d, rate, mem = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
kernels = ["5.10", "5.15", "6.1", "6.6", "6.9", "6.10", "6.12"]
base_fps = {64: 200000.0, 512: 100000.0, 1518: 60000.0}
rnd = random.Random(36)
groups = {}
for b in range(24):
    board = "board%02d" % b
    for ki, k in enumerate(kernels):
        f = (0.5 + 0.05 * b) * (1 + 0.02 * ki) * (0.85 if b % 4 == 0 and ki >= 3 else 1)
        for run in range(3):
            for test, doc in (("rate", rate), ("mem", mem)):
                x = copy.deepcopy(doc)
                x["time_utc"] = "2026-11-%02dT%02d:%02d:%02dZ" % (1 + ki, b, run, 30 * (test == "mem"))
                for end in ("local", "remote"):
                    if x["env"].get(end):
                        x["env"][end].update(hostname=board, kernel=k + ".0", virtualization="none")
                if test == "rate":
                    for s in x["sizes"]:
                        s["fps"] = round(base_fps[s["frame_bytes"]] * f * rnd.gauss(1, 0.01), 1)
                        s["mbit_per_s"] = round(s["fps"] * s["frame_bytes"] * 8 / 1e6, 3)
                else:
                    for p in x["latency"]["points"]:
                        p["ns_per_load"] = round(p["ns_per_load"] / f * rnd.gauss(1, 0.01), 3)
                name = "%s/%s-%s-%s-%d.json" % (d, test, board, k, run)
                json.dump(x, open(name, "w"))
                groups.setdefault((board, k), []).append(name)
with open(d + "/imports", "w") as out:
    for (board, k), names in groups.items():
        out.write("%s %s %s\n" % (board, k, " ".join(names)))
PY
fails=0
while read -r b k files; do
	# shellcheck disable=SC2086 # the file names have no spaces
	"$NETBENCH" results import --db "$DB" --label "$b" --tag "kernel=$k" $files >/dev/null 2>&1 ||
		fails=$((fails + 1))
done <"$nb_tmp/docs1000/imports"
count=$("$NETBENCH" results list --db "$DB" -J | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["results"]))')
check "the store holds 1008 results (every import went in)" test "$fails.$count" = "0.1008"

nbc() { "$NETBENCH" compare --db "$DB" "$@"; }
# The snapshot: board00 loses 15 % from 6.6 on, board01 gains 2 % a kernel.
check_rc "compare --trend kernel at 64 bytes with the ratio to 6.1 (within 10 s)" 0 timeout 10 \
	"$NETBENCH" compare --db "$DB" --test rate --trend kernel --where size=64 \
	--where label=board00,board01,board02,board03,board04 --baseline 6.1
cp "$nb_tmp/out" "$logdir/compare_farm_trend.txt"
check "its text is the snapshot (tests/snap/compare_farm_trend.txt)" \
	diff -u "$TOP/tests/snap/compare_farm_trend.txt" "$nb_tmp/out"
check "board00's loss at 6.6 is established (0.87x*), board01's 6.6 is not judged different" sh -c "
	grep '^board00' '$nb_tmp/out' | awk '{print \$12}' | grep -qx '0\.8[6-8]x\*' &&
	grep '^board01' '$nb_tmp/out' | awk '{print \$12}' | grep -qx '1\.0[0-9]x'"

check_rc "compare --trend kernel -J over every board and size" 0 sh -c \
	"'$NETBENCH' compare --db '$DB' --test rate --trend kernel -J >'$nb_tmp/trend.json'"
check "three tables (one per frame size), 24 boards by 7 kernels in version order, 3 runs a cell" \
	json_check "$nb_tmp/trend.json" '
t = d["tables"]
assert len(t) == 3 and [x["title"][-8:] for x in t] == ["64 bytes", "12 bytes", "18 bytes"], [x["title"] for x in t]
for x in t:
    assert x["layout"] == "rows_by_columns" and x["axes"] == "label \\ kernel", x["axes"]
    assert x["columns"] == ["5.10", "5.15", "6.1", "6.6", "6.9", "6.10", "6.12"], x["columns"]
    assert x["rows"] == ["board%02d" % i for i in range(24)], x["rows"]
    assert all(c["runs"] == 3 for r in x["cells"] for c in r), "a cell without 3 runs"
'
check_rc "compare --rows kernel --columns size for one board" 0 sh -c \
	"'$NETBENCH' compare --db '$DB' --test rate --rows kernel --columns size --where label=board04 -J >'$nb_tmp/k.json'"
check "one table: 7 kernels by 3 frame sizes, 6.6 below 6.1 at each size" json_check "$nb_tmp/k.json" '
t = d["tables"]
assert len(t) == 1 and t[0]["rows"][2:4] == ["6.1", "6.6"] and t[0]["columns"] == ["64", "512", "1518"], t
c = t[0]["cells"]
assert all(c[3][i]["mean"] < 0.9 * c[2][i]["mean"] for i in range(3)), c
'
check_rc "--where kernel=6.1,6.6 lists only those kernels" 0 sh -c \
	"'$NETBENCH' results list --db '$DB' --where kernel=6.1,6.6 -J >'$nb_tmp/w.json'"
check "288 results, each of kernel 6.1 or 6.6" json_check "$nb_tmp/w.json" '
r = d["results"]
assert len(r) == 288 and {x["tags"]["kernel"] for x in r} == {"6.1", "6.6"}, len(r)
'
check_rc "the farm's default compare still runs (within 10 s)" 0 timeout 10 "$NETBENCH" compare \
	--db "$DB" --test rate

# Refusals: exit 2, a sentence naming what was typed, nothing on standard output.
refuse() { # description, expected words, arguments...
	_d=$1 _w=$2; shift 2
	"$NETBENCH" "$@" >"$nb_tmp/r.out" 2>"$nb_tmp/r.err"
	_rc=$?
	check "$_d: exit 2, names $_w, prints nothing else" sh -c \
		'[ "$1" -eq 2 ] && grep -qF -- "$2" "$3" && [ ! -s "$4" ]' sh "$_rc" "$_w" \
		"$nb_tmp/r.err" "$nb_tmp/r.out"
}
refuse "a baseline no result has" "kernel '7.0'" compare --db "$DB" --trend kernel --baseline 7.0
refuse "the same axis twice" "both 'size'" compare --db "$DB" --rows size --columns size
refuse "a malformed --where" "'kern el=1'" compare --db "$DB" --where 'kern el=1'
refuse "--where size= with results list" "size=64" results list --db "$DB" --where size=64
refuse "a trend across sizes" "'size' is not a tag" compare --db "$DB" --trend size
refuse "--rows with the gate" "--fail-if-worse" compare --db "$DB" --rows kernel --baseline x \
	--fail-if-worse 5

check_rc "report --trend kernel (within 20 s)" 0 timeout 20 "$NETBENCH" report --db "$DB" \
	--test rate --trend kernel -o "$nb_tmp/trend.html" --title "24 boards, 7 kernels"
check_rc "report of the whole farm (within 20 s)" 0 timeout 20 "$NETBENCH" report --db "$DB" \
	-o "$nb_tmp/all.html"
check "its crowded charts say so and name --where and --trend" sh -c \
	"grep -q 'class=\"crowded\">168 lines in one chart' '$nb_tmp/all.html' && grep -q -- '--trend KEY' '$nb_tmp/all.html'"
if ! command -v chromium >/dev/null 2>&1; then
	skip "chromium not installed (tests/deps.sh installs it): the rendered page is not checked"
else
	home=$nb_tmp/chromium
	mkdir -p "$home"
	chrome() {
		HOME=$home timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic \
			--no-first-run --disable-background-networking --disable-component-update \
			--disable-sync --user-data-dir="$home" "$@" 2>>"$nb_tmp/chromium.err"
	}
	# A copy with a script that measures every text's box in the browser (the report has none).
	sed 's|</body>|<script>\
const out = [];\
document.querySelectorAll("svg.chart").forEach((svg, si) => {\
  const t = [...svg.querySelectorAll("text")].filter(e => e.textContent.trim() !== "");\
  const b = t.map(e => e.getBoundingClientRect());\
  for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) {\
    const w = Math.min(b[i].right, b[j].right) - Math.max(b[i].left, b[j].left);\
    const h = Math.min(b[i].bottom, b[j].bottom) - Math.max(b[i].top, b[j].top);\
    if (w > 1 \&\& h > 1) out.push([si, t[i].textContent, t[j].textContent]);\
  }\
});\
const p = document.createElement("pre"); p.id = "nbcheck";\
p.textContent = JSON.stringify({overlaps: out, charts: [...document.querySelectorAll("svg.chart")].map(s =>\
  ({legend: [...s.querySelectorAll(".legend-item")].map(e => e.firstChild.textContent),\
    ticks: [...s.querySelectorAll(".axis.x .tick")].map(e => e.textContent),\
    width: s.getBoundingClientRect().width}))});\
document.body.appendChild(p);\
</script></body>|' "$nb_tmp/trend.html" >"$nb_tmp/measure.html"
	chrome --window-size=1300,1000 --dump-dom "file://$nb_tmp/measure.html" >"$nb_tmp/dom.html"
	check "chromium renders the trend page (DOM dumped)" grep -q 'id="nbcheck"' "$nb_tmp/dom.html"
	check_quiet "nine charts of 8 boards each, kernels in order on x, no two labels overlapping" \
		python3 - "$nb_tmp/dom.html" <<'PY'
import html, json, re, sys
m = re.search(r'<pre id="nbcheck">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
d = json.loads(html.unescape(m.group(1)))
assert not d["overlaps"], d["overlaps"][:10]
c = d["charts"]
assert len(c) == 9, len(c)
for i, x in enumerate(c):
    assert x["ticks"] == ["5.10", "5.15", "6.1", "6.6", "6.9", "6.10", "6.12"], x["ticks"]
    assert x["legend"] == ["board%02d" % b for b in range(8 * (i % 3), 8 * (i % 3) + 8)], x["legend"]
PY
	chrome --hide-scrollbars --window-size=1300,2400 --screenshot="$logdir/compare-farm-trend.png" \
		"file://$nb_tmp/trend.html" >/dev/null
	check "a screenshot of the trend is in the test log ($logdir/compare-farm-trend.png)" \
		test -s "$logdir/compare-farm-trend.png"
fi
echo "1..$n"
