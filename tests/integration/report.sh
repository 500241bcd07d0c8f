#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The HTML report end to end, on real runs over loopback (tput repeated three times under one
# label, once under another; mem twice; rate at one frame size) and on documents edited from them
# (a rule sweep at three frame sizes, a platform that ran under qemu-user with a polluted CPU
# window). Headless Chromium renders it: error bars where runs repeat, one chart per frame size
# for the sweep, tput in Mbit/s, a lone point drawn as a point, captions written from the
# report's own content, the emulated platform and the polluted window marked, and no two labels
# of a chart overlapping (measured by the browser). Screenshots go to the test log directory.
# The kernel profile (two boards' rate results edited to carry known DUT profiles): compare gives
# each category's ns per frame and its ratio to the baseline, the report a stacked bar per frame
# size whose parts' rendered heights are in proportion to the data on one scale.
# Then the crafted inputs: rule counts or frames/s one ulp apart must give a report at once
# (they used to hang), values no axis takes are refused with a clear error, and memory stays
# bounded with 60 MB documents (they are read one at a time).
. "$(dirname "$0")/../lib.sh"
need_store
P=5349
DB=$nb_tmp/r.db
export NETBENCH_DB=$DB
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
nbq() { "$NETBENCH" "$@"; }

T="-c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k,8k,64k"
for i in 1 2 3; do
	check_rc "tput run $i of label A" 0 nbq tput $T --save --label "loopback A" -J -o "$nb_tmp/tA$i.json"
done
check_rc "tput run of label B" 0 nbq tput $T --save --label "loopback B" -J -o "$nb_tmp/tB.json"
check_rc "mem --quick, twice" 0 sh -c "'$NETBENCH' mem --quick --save --label 'loopback A' -J >/dev/null &&
	'$NETBENCH' mem --quick --save --label 'loopback A' -J >/dev/null"
check_rc "rate at one frame size" 0 nbq rate -c 127.0.0.1 -p $P -q -s 64 --save \
	--label "loopback A" -J -o "$nb_tmp/rate.json"

# Edited documents: the same tput run as a ppc agent under qemu-user with one polluted CPU
# window, and a rule sweep (two kinds, three frame sizes, four rule counts) imported twice.
python3 - "$nb_tmp" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(d + "/tB.json"))
t["env"].setdefault("remote", {})["virtualization"] = "qemu-user ppc on x86_64"
t["env"]["remote"]["arch"] = "ppc"
t["steps"][0]["cpu_polluted"] = True
json.dump(t, open(d + "/emul.json", "w"))
r = json.load(open(d + "/rate.json"))
for run, noise in enumerate((0.97, 1.03)):
    sweep, fits = [], []
    for kind, per in (("linear", 30.0), ("set", 0.5)):
        for size in (64, 512, 1518):
            base = 5000 + size * 2
            fits.append({"kind": kind, "frame_bytes": size, "base_ns": base, "per_rule_ns": per})
        for rules in (0, 100, 300, 1000):
            sweep.append({"kind": kind, "rules": rules, "sizes": [
                {"frame_bytes": s, "valid": True,
                 "fps": 1e9 / (5000 + s * 2 + per * rules) * (noise if rules else 1.0)}
                for s in (64, 512, 1518)]})
    r2 = dict(r, sweep=sweep, fits=fits)
    r2.pop("sizes", None)
    json.dump(r2, open("%s/sweep%d.json" % (d, run), "w"))
PY
check_rc "import the emulated platform" 0 nbq results import --label "ppc under qemu-user" "$nb_tmp/emul.json"
check_rc "import the rule sweep twice" 0 nbq results import --label "firewall" "$nb_tmp/sweep0.json" "$nb_tmp/sweep1.json"

check_rc "report -o (within 60 s)" 0 timeout 60 "$NETBENCH" report -o "$nb_tmp/r.html" --title "report test"
check "no temporary file is left" sh -c "! ls $nb_tmp | grep -q tmp"
check "the page loads nothing from anywhere (no scripts, links or sources)" sh -c "! grep -Eiq '<script|<link|src=|href=|@import|url\\(' $nb_tmp/r.html"

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
	# A copy of the page with a script that measures, in the browser, every text's box and
	# writes what overlaps into the DOM; the report itself has no script.
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
  const r = svg.getBoundingClientRect();\
  t.forEach((e, i) => { if (b[i].left < r.left - 1 \|\| b[i].right > r.right + 1) out.push([si, e.textContent, "outside the chart"]); });\
});\
const p = document.createElement("pre"); p.id = "nbcheck"; p.textContent = JSON.stringify(out);\
document.body.appendChild(p);\
</script></body>|' "$nb_tmp/r.html" >"$nb_tmp/measure.html"
	chrome --window-size=1300,1000 --dump-dom "file://$nb_tmp/measure.html" >"$nb_tmp/dom.html"
	check "chromium renders the page (DOM dumped)" grep -q 'id="nbcheck"' "$nb_tmp/dom.html"
	check_quiet "no two labels of a chart overlap, none leaves its chart (measured in the browser)" \
		python3 - "$nb_tmp/dom.html" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<pre id="nbcheck">(.*?)</pre>', dom, re.S)
bad = json.loads(html.unescape(m.group(1)))
assert not bad, bad[:10]
PY
	check_quiet "the page shows what is there (error bars, facets, Mbit/s, a lone point, marks, captions)" \
		python3 - "$nb_tmp/dom.html" <<'PY'
import html.parser, re, sys
dom = open(sys.argv[1]).read()
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.sec = {}; s.cur = None; s.fig = None; s.text = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "section":
            s.cur = {"figs": [], "facts": ""}; s.sec[a.get("data-view")] = s.cur
        elif tag == "figure" and s.cur is not None:
            s.fig = {"facet": a.get("data-facet"), "errbar": 0, "poly": 0, "circles": [],
                     "polluted": 0, "legend": [], "labels": [], "colours": [], "caption": ""}
            s.cur["figs"].append(s.fig)
        elif s.fig is not None:
            c = a.get("class", "")
            if tag == "path" and c == "errbar": s.fig["errbar"] += 1
            if tag == "polyline": s.fig["poly"] += 1
            if tag == "circle": s.fig["circles"].append(a.get("r"))
            if tag == "circle" and c == "polluted": s.fig["polluted"] += 1
            if tag == "line" and a.get("stroke", "").startswith("#") and a.get("stroke-width") == "2" \
               and "stroke-dasharray" not in a:
                s.fig["colours"].append(a["stroke"])
            if tag == "text" and "legend-item" in c: s.text = "legend"
            if tag == "text" and "axis-label" in c: s.text = "labels"
            if tag == "figcaption": s.text = "caption"
        if tag == "td" and a.get("class") == "emulated" and s.cur is not None:
            s.cur["facts"] += "EMULATED "
    def handle_endtag(s, tag):
        if tag == "figure": s.fig = None
        if tag in ("text", "figcaption"): s.text = None
    def handle_data(s, d):
        if s.text == "caption": s.fig["caption"] += d
        elif s.text: s.fig[s.text].append(d); s.text = None
p = P(); p.feed(dom)
v = p.sec
assert set(v) >= {"tput.kbyte", "tput.cpu", "rate.fps", "rate.rules", "mem.latency"}, sorted(v)
kb = v["tput.kbyte"]["figs"][0]
assert kb["labels"] == ["block (bytes) (log)", "throughput (Mbit/s)"], kb["labels"]
assert kb["errbar"] >= 6, ("label A ran three times: a bar per block size and direction", kb)
assert "loopback A: 3 runs" in kb["caption"] and "95 % intervals (Student's t)" in kb["caption"], kb["caption"]
assert "Mbit/s" in kb["caption"]
sec = dom[dom.index('data-view="tput.kbyte"'):dom.index('data-view="tput.cpu"')]
ya = sec[sec.index('<g class="axis y"'):]
yt = re.findall(r'<text class="tick" x="[0-9.]+" y="[0-9.]+">([^<]*)</text>', ya[:ya.index("</g>")])
assert len(yt) >= 3 and all(re.fullmatch(r"[0-9.]+", t) for t in yt), ("plain Mbit/s ticks", yt)
assert any("not a board" in x for x in kb["legend"]), kb["legend"]
assert "EMULATED" in v["tput.kbyte"]["facts"], "the facts table marks the emulated platform"
cpu = v["tput.cpu"]["figs"][0]
assert cpu["polluted"] >= 1 and "polluted" in cpu["caption"], cpu
# The sweep: one chart per frame size, each with its own readable legend.
rules = v["rate.rules"]["figs"]
assert [f["facet"] for f in rules] == ["64", "512", "1518"], [f["facet"] for f in rules]
for f in rules:
    assert f["errbar"] >= 6, ("two imports of the sweep: bars at the rule counts > 0", f["errbar"])
    assert len(f["legend"]) == 4 and len(set(f["colours"][:2])) == 2, (f["legend"], f["colours"])
    assert not any(" B" in x for x in f["legend"]), f["legend"]
# One frame size measured once: a point, no line, no interval.
fps = v["rate.fps"]["figs"][0]
assert "4.5" in fps["circles"] and fps["errbar"] == 0, fps
assert "Each point is one run" in fps["caption"] or "loopback A: 1 run" in fps["caption"], fps["caption"]
m = re.search(r'<p class="meta caption">(.*?)</p>', dom, re.S).group(1)
for want in ("results (tput 5, rate 3, mem 2)", "repeated runs", "not a board", "polluted"):
    assert want in m, (want, m)
PY
	chrome --hide-scrollbars --window-size=1300,5200 --screenshot="$logdir/report-page.png" \
		"file://$nb_tmp/r.html" >/dev/null
	check "a screenshot of the page is in the test log ($logdir/report-page.png)" test -s "$logdir/report-page.png"
fi

# The kernel profile: a category's ns per frame is a metric (compare) and a stacked bar per step
# (report). The real rate run edited to three frame sizes whose judged trials carry a DUT profile
# of known ns per frame (one category not established, which the bars leave out), and a second
# board whose netfilter costs a fifth, in a store of their own.
python3 - "$nb_tmp/rate.json" "$nb_tmp/prof.json" <<'PY'
import json, sys, copy
r = json.load(open(sys.argv[1]))
s0 = r["sizes"][0]
t0 = [t for t in s0["trials"] if t["id"] == s0["bottleneck_trial"]][0]
known = {64: [("netfilter", 300.0), ("driver", 100.0), ("ip", 50.0)],
         512: [("netfilter", 300.0), ("driver", 150.0), ("ip", 50.0), ("copy", 25.0)],
         1518: [("netfilter", 300.0), ("driver", 250.0), ("ip", 50.0), ("copy", 100.0)]}
sizes = []
for fb, cs in known.items():
    s, t = copy.deepcopy(s0), copy.deepcopy(t0)
    s["frame_bytes"] = fb
    cl = [{"name": n, "samples": 100, "share": 0.2, "share_interval": [0.15, 0.25],
           "established": True, "ns_per_frame": v, "ns_per_frame_interval": [v * 0.9, v * 1.1]}
          for n, v in cs]
    cl.append({"name": "sched", "samples": 3, "share": 0.01, "share_interval": [0.001, 0.05],
               "established": False, "ns_per_frame": 9.0, "ns_per_frame_interval": [1.0, 40.0]})
    t["observers"] = [{"profile": {"available": True, "categories": cl}}]
    s["trials"] = [t]
    sizes.append(s)
r["sizes"] = sizes
json.dump(r, open(sys.argv[2], "w"))
json.dump({str(k): dict(v) for k, v in known.items()}, open(sys.argv[2] + ".known", "w"))
for s in sizes:
    for c in s["trials"][0]["observers"][0]["profile"]["categories"]:
        c["ns_per_frame"] = c["ns_per_frame"] / 5 if c["name"] == "netfilter" else c["ns_per_frame"]
r["time_utc"] = "2026-01-02T00:00:00Z"
json.dump(r, open(sys.argv[2] + ".b", "w"))
PY
check_rc "import two boards' rate results with the DUT's profile at three frame sizes" 0 \
	sh -c "'$NETBENCH' results import --db '$nb_tmp/prof.db' --label 'board A' '$nb_tmp/prof.json' &&
	       '$NETBENCH' results import --db '$nb_tmp/prof.db' --label 'board B' '$nb_tmp/prof.json.b'"
check_rc "compare --baseline of the two" 0 "$NETBENCH" compare --db "$nb_tmp/prof.db" --test rate \
	--baseline "board A"
sed -n '/kernel CPU per frame/,/^board A: 1 run/p' "$nb_tmp/out" >"$nb_tmp/prof.cmp"
check "compare: each board's categories in ns per frame, board B's netfilter 0.20x board A's at every size" \
	sh -c "grep -q 'board A: netfilter.*board A: driver.*board B: netfilter' '$nb_tmp/prof.cmp' &&
	       [ \$(grep -Ec '^(64|512|1518) +300\\.0 .* 60\\.00 0\\.20x +[0-9.]+ 1\\.00x' '$nb_tmp/prof.cmp') -eq 3 ]"
sed 's/^/# /' "$nb_tmp/prof.cmp"
check_rc "report of them" 0 "$NETBENCH" report --db "$nb_tmp/prof.db" -o "$nb_tmp/prof.html"
if command -v chromium >/dev/null 2>&1; then
	# The browser measures each bar part's rendered height and the chart's labels.
	sed 's|</body>|<script>\
const charts = [...document.querySelectorAll("svg.bars")];\
const segs = [...document.querySelectorAll("svg.bars rect.seg")].map(e => [charts.indexOf(e.closest("svg")), e.dataset.bar, e.dataset.part, +e.dataset.value, e.getBoundingClientRect().height, e.getBoundingClientRect().bottom, e.getAttribute("fill")]);\
const legend = [...document.querySelectorAll("svg.bars text.legend-item")].map(e => e.textContent);\
const ticks = [...document.querySelectorAll("svg.bars g.axis.x text.tick")].map(e => e.textContent);\
const over = [];\
document.querySelectorAll("svg.chart").forEach((svg, si) => {\
  const t = [...svg.querySelectorAll("text")].filter(e => e.textContent.trim() !== "");\
  const b = t.map(e => e.getBoundingClientRect());\
  for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) {\
    const w = Math.min(b[i].right, b[j].right) - Math.max(b[i].left, b[j].left);\
    const h = Math.min(b[i].bottom, b[j].bottom) - Math.max(b[i].top, b[j].top);\
    if (w > 1 \&\& h > 1) over.push([si, t[i].textContent, t[j].textContent]);\
  }\
});\
const p = document.createElement("pre"); p.id = "nbbars"; p.textContent = JSON.stringify({segs, legend, ticks, over});\
document.body.appendChild(p);\
</script></body>|' "$nb_tmp/prof.html" >"$nb_tmp/prof-measure.html"
	chrome --window-size=1300,1200 --dump-dom "file://$nb_tmp/prof-measure.html" >"$nb_tmp/prof-dom.html"
	check_quiet "the profile's stacked bars: a chart per board, a bar per frame size, the established categories in the legend, a category's colour the same in both, heights proportional to ns per frame on one scale (measured in the browser)" \
		python3 - "$nb_tmp/prof-dom.html" "$nb_tmp/prof.json.known" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1]).read()
known = json.load(open(sys.argv[2]))
m = json.loads(html.unescape(re.search(r'<pre id="nbbars">(.*?)</pre>', dom, re.S).group(1)))
assert 'data-view="rate.profile"' in dom and 'class="chart bars"' in dom, "no bar chart"
assert m["ticks"] == ["64", "512", "1518"] * 2, m["ticks"]
assert sorted(m["legend"]) == ["copy", "driver", "ip", "netfilter"] * 2 or \
    sorted(m["legend"]) == sorted(["copy", "driver", "ip", "netfilter"] * 2), m["legend"]
assert not m["over"], m["over"][:5]
sizes = ["64", "512", "1518"]
got, fill = [{}, {}], {}
for chart, bar, part, value, h, bottom, colour in m["segs"]:
    got[chart].setdefault(sizes[int(bar)], {})[part] = (value, h, bottom)
    assert fill.setdefault(part, colour) == colour, ("one colour per category", part)
b_known = {k: {p: v / 5 if p == "netfilter" else v for p, v in d.items()} for k, d in known.items()}
vals = [{k: {p: v[0] for p, v in d.items()} for k, d in g.items()} for g in got]
assert vals == [known, b_known], vals
px = [h / v for g in got for d in g.values() for v, h, _ in d.values()]
assert max(px) / min(px) < 1.02, ("heights not proportional to the values on one scale", px)
for g in got:
    for d in g.values():  # stacked: the parts touch, from the same base
        spans = sorted((b - h, b) for _, h, b in d.values())
        assert all(abs(spans[i][1] - spans[i + 1][0]) < 0.6 for i in range(len(spans) - 1)), spans
    bases = {round(max(b for _, _, b in d.values()), 1) for d in g.values()}
    assert len(bases) == 1, ("bars stand on one axis", bases)
PY
	chrome --hide-scrollbars --window-size=1300,1200 --screenshot="$logdir/report-profile.png" \
		"file://$nb_tmp/prof.html" >/dev/null
	check "a screenshot of the profile's bars is in the test log ($logdir/report-profile.png)" test -s "$logdir/report-profile.png"
fi

# Crafted inputs. Rule counts one ulp apart (and frames/s): the tick step was below the values'
# precision and the report never finished.
python3 - "$nb_tmp" <<'PY'
import json, sys
d = sys.argv[1]
def sweep(rules, fps):
    return {"schema": "netbench/1", "test": "rate", "time_utc": "2026-01-01T00:00:00Z",
            "env": {"local": {"hostname": "x"}},
            "sweep": [{"kind": "linear", "rules": r, "sizes": [{"frame_bytes": 64, "valid": True, "fps": f}]}
                      for r, f in zip(rules, fps)]}
json.dump(sweep([1e17, 100000000000000016], [1000, 900]), open(d + "/ulp_rules.json", "w"))
json.dump(sweep([0, 100], [-1e17, -99999999999999984]), open(d + "/ulp_fps.json", "w"))
json.dump(sweep([0, 1e308], [1000, 900]), open(d + "/huge.json", "w"))
PY
for c in ulp_rules ulp_fps; do
	rm -f "$nb_tmp/$c.db"
	nbq results import --db "$nb_tmp/$c.db" "$nb_tmp/$c.json" >/dev/null 2>&1
	check_rc "$c: report finishes within 20 s" 0 timeout 20 "$NETBENCH" report --db "$nb_tmp/$c.db" -o "$nb_tmp/$c.html"
	if command -v chromium >/dev/null 2>&1; then
		chrome --hide-scrollbars --window-size=1300,900 --screenshot="$logdir/report-$c.png" \
			"file://$nb_tmp/$c.html" >/dev/null
	fi
	check "$c: the values one ulp apart are drawn at one position" python3 -c "
import re, sys
c = re.findall(r'<circle cx=\"([0-9.]+)\" cy=\"([0-9.]+)\"', open(sys.argv[1]).read())
assert len(c) == 2 and (c[0][0] == c[1][0] or c[0][1] == c[1][1]), c
" "$nb_tmp/$c.html"
done
nbq results import --db "$nb_tmp/huge.db" "$nb_tmp/huge.json" >/dev/null 2>&1
check_rc "rules 1e308: refused (exit 1) within 20 s" 1 timeout 20 "$NETBENCH" report --db "$nb_tmp/huge.db" -o "$nb_tmp/huge.html"
check "it names the view, the result, the value and the range" has "view rate.rules (result 1): the x axis cannot take 1e+308: an axis takes magnitudes from 1e-300 to 1e+300"
check "nothing is left behind" sh -c "! ls $nb_tmp | grep -q '^huge.html'"

# Memory: three documents of 60 MB (a tput run with a long string added) are read one at a time.
# One document of S bytes is held at most three times while it is read (SQLite's copy while the
# row is fetched, ours, and the parser's decoded strings) plus its parsed values (a few here), so
# the peak is the base (a report of the small document) + 3 S + 16 MiB of slack for the
# allocator, whatever the number of documents; holding the three at once would need 6 S more.
python3 - "$nb_tmp" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(d + "/tA1.json"))
json.dump(t, open(d + "/small.json", "w"))
t["padding"] = "x" * (60 * 1000 * 1000)
for i in range(3):  # three runs: the same document three times would be one
    t["time_utc"] = "2026-01-01T00:00:0%dZ" % i
    json.dump(t, open(d + "/big%d.json" % i, "w"))
t.pop("padding")
t["padding"] = [0] * (1100 * 1000)
json.dump(t, open(d + "/values.json", "w"))
PY
nbq results import --db "$nb_tmp/small.db" "$nb_tmp/small.json" >/dev/null 2>&1
check_rc "import three 60 MB documents" 0 nbq results import --db "$nb_tmp/big.db" "$nb_tmp/big0.json" "$nb_tmp/big1.json" "$nb_tmp/big2.json"
hwm() { # peak RSS in KiB of a report of the given store and IDs
	/usr/bin/time -f '%M' -o "$nb_tmp/time" "$NETBENCH" report --db "$@" -o "$nb_tmp/m.html" >/dev/null 2>&1 &&
		cat "$nb_tmp/time"
}
if [ ! -x /usr/bin/time ]; then
	skip "/usr/bin/time not installed (tests/deps.sh installs it): memory not measured"
else
	base=$(hwm "$nb_tmp/small.db")
	one=$(hwm "$nb_tmp/big.db" 1)
	three=$(hwm "$nb_tmp/big.db")
	S=$(stat -c %s "$nb_tmp/big0.json")
	bound=$((base + 3 * S / 1024 + 16384))
	echo "# peak RSS: small document ${base} KiB, one 60 MB document ${one} KiB, three ${three} KiB; bound ${bound} KiB"
	check "three 60 MB documents: peak RSS ${three} KiB <= ${bound} KiB (base + 3 x document + 16 MiB)" \
		test -n "$three" -a "${three:-0}" -le "$bound"
	check "three documents take no more than one (+ 8 MiB): ${three} KiB against ${one} KiB" \
		test -n "$one" -a "${three:-0}" -le $((one + 8192))
fi
# import refuses such a document; one written by other means (here the sqlite3 shell) is refused
# by the report.
check_rc "import refuses a document of 1.1 million JSON values" 1 nbq results import --db "$nb_tmp/values.db" "$nb_tmp/values.json"
nbq results import --db "$nb_tmp/values.db" "$nb_tmp/small.json" >/dev/null 2>&1
if ! command -v sqlite3 >/dev/null 2>&1; then
	skip "sqlite3 not installed (tests/deps.sh installs it): no oversized document can be stored"
else
	sqlite3 "$nb_tmp/values.db" "UPDATE results SET doc = readfile('$nb_tmp/values.json')"
	check_rc "a document of 1.1 million JSON values: refused (exit 1)" 1 "$NETBENCH" report --db "$nb_tmp/values.db" -o "$nb_tmp/v.html"
	check "it names the result and the limit" has "result 1: its document is beyond what is read: more than 1048576 JSON values"
	check "nothing is left behind" sh -c "! ls $nb_tmp | grep -q '^v.html'"
fi
echo "1..$n"
