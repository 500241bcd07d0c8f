#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The report under crafted values and signals (docs/security.md): a rate sweep whose frames/s
# are the subnormals 5e-324 and 1e-323 (before: report spun at 100 % CPU until killed, in the
# rules chart's tick loop, and left FILE.tmp-XXXX behind); compare and export read it too. A
# report stopped by SIGTERM or SIGHUP while it writes leaves no temporary file and no target.
. "$(dirname "$0")/../lib.sh"
need_store
DB=$nb_tmp/r.db
cd "$nb_tmp" || exit 1

printf '%s' '{"schema":"netbench/1","test":"rate","sweep":[{"kind":"linear","rules":0,"sizes":[{"frame_bytes":64,"valid":true,"fps":5e-324}]},{"kind":"linear","rules":100,"sizes":[{"frame_bytes":64,"valid":true,"fps":1e-323}]}]}' >sub.json
check_rc "import the subnormal sweep" 0 "$NETBENCH" results import --db "$DB" sub.json
check_rc "report -o x.html: done within 20 s, exit 0" 0 timeout 20 "$NETBENCH" report --db "$DB" -o x.html
check "... x.html written, no temporary file beside it" sh -c \
	"grep -q '</html>' x.html && [ -z \"\$(ls | grep 'x.html.tmp')\" ]"
check_rc "compare reads it within 20 s" 0 timeout 20 "$NETBENCH" compare --db "$DB"
check_rc "results export reads it within 20 s" 0 timeout 20 "$NETBENCH" results export --db "$DB" --csv

# A report long enough to be stopped while it writes: 2000 results of 64 points (its writing takes seconds).
"$NETBENCH" mem --quick -o mem.json >/dev/null 2>&1 || notok "mem --quick"
/usr/bin/python3 - <<'PY'
import json
d = json.load(open("mem.json"))
p0 = d["latency"]["points"][0]
d["caches"] = []
for k in range(2000):
    pts = []
    for i in range(1, 65):
        p = dict(p0)
        p["set_bytes"] = 1024 * i
        p["ns_per_load"] = p["ns_per_load_median"] = 10 + k * 0.01 + i * 0.1
        p["cycles_per_load"] = None
        pts.append(p)
    d["latency"]["points"] = pts
    json.dump(d, open("m%d.json" % k, "w"))
PY
check_rc "import 2000 results" 0 "$NETBENCH" results import --db "$DB" --label many m*.json
for sig in TERM HUP; do
	"$NETBENCH" report --db "$DB" --label many -o "big-$sig.html" 2>/dev/null &
	pid=$!
	wait_until 30 "the report's temporary file" sh -c "ls | grep -q 'big-$sig.html.tmp' || ! kill -0 $pid"
	tmpname=$(ls | grep "big-$sig.html.tmp")
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	rc=$?
	check "SIG$sig while the report writes $tmpname: it ends by the signal, no temporary file, no target" sh -c \
		"[ -n '$tmpname' ] && [ $rc -gt 128 ] && [ -z \"\$(ls | grep 'big-$sig.html')\" ]" ||
		echo "# rc $rc, left: $(ls | grep "big-$sig")"
done
echo "1..$n"
