#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput --observe through the lab, as root: the DUT's observer runs over each step's window (Tx and
# Rx each), and the frames the DUT forwarded in that window reconcile with what the step's
# receiver counted in its own. The observer's window follows each of the step's edges by one
# control round trip, so the two windows are the same length shifted by milliseconds; the
# tolerance is what that allows: the packets of the difference in window length at the step's
# rate, 2 % for the shift at a paced rate (the observer reads its counters a control round trip
# and its own reading time after each edge: up to ~10 ms each on a loaded two-core host, which
# burst pacing and scheduling make uneven: 30 ms of a 1.5 s window), and 16 packets of the
# control connection, which also crosses the DUT. A window opened at the warm-up's start instead (0.3 s at 2.4k datagrams/s,
# some 700 datagrams) or closed after the stop would fail it. ~22 s (lab up and down ~8 s).
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtot
for t in ip python3; do
	command -v $t >/dev/null || { skip "$t is not installed (tests/deps.sh)"; exit 0; }
done
lab_down() { "$NETBENCH" lab down --prefix $P >/dev/null 2>&1; }
trap 'lab_down; rm -rf "$nb_tmp"' EXIT
if ! "$NETBENCH" lab up --prefix $P >"$nb_tmp/out" 2>&1; then
	notok "lab up --prefix $P"
	sed 's/^/# /' "$nb_tmp/out"
	exit 1
fi
ok "lab up with an observer in the DUT"
gen() { ip netns exec $P-gen "$NETBENCH" "$@"; }

check_rc "--observe with a bad port is a usage error" 2 \
	gen tput -c 198.19.0.1 --observe 198.18.0.254:0
check "it names the option" grep -q -- "--observe" "$nb_tmp/out"
check_rc "--observe-clocks is rate's: a usage error for tput" 2 \
	gen tput -c 198.19.0.1 --observe 198.18.0.254 --observe-clocks 800,1600

# reconcile FILE KIND: every step's DUT egress count against the step's own count (see above)
reconcile() {
	python3 - "$nb_tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kind = sys.argv[2]
bad = 0
for s in d["steps"]:
    o = s["observers"][0]
    ifs = {i["name"]: i for i in o["interfaces"]}
    # Tx: generator -> dut0 -> DUT -> dut1 -> sink; Rx the other way round
    out = ifs["dut1" if s["direction"] == "tx" else "dut0"]
    dw = abs(o["window_s"] - s["window_s"])
    if kind == "udp":
        got, want = out["tx_packets"], s["window_datagrams"]
        tol = want / 50 + want / s["window_s"] * dw + 16
    else:  # TCP: bytes, each segment's headers on top of the payload (at most 10 %)
        got, want = out["tx_bytes"], s["window_bytes"]
        lo = want * 0.99 - want / s["window_s"] * dw - 16 * 1500
        hi = want * 1.10 + want / s["window_s"] * dw + 16 * 1500
        tol = None
    ok = abs(got - want) <= tol if tol is not None else lo <= got <= hi
    print("# %s %s: DUT sent %d, step counted %d, windows %.4f / %.4f s%s" % (
        kind, s["direction"], got, want, o["window_s"], s["window_s"], "" if ok else "  MISMATCH"))
    bad += not ok
    if dw > 0.1 or o["window_s"] <= 0:
        print("# window lengths differ by %.3f s" % dw); bad += 1
    if not isinstance(o["cycles_per_byte"], (int, float, type(None))):
        bad += 1
sys.exit(1 if bad or not d["steps"] else 0)
PY
}

gen tput -c 198.19.0.1 -u -b 20M -l 1k -t 1.5 -O 0.3 --observe 198.18.0.254 -J \
	>"$nb_tmp/udp.json" 2>"$nb_tmp/udp.err"
check "UDP Tx and Rx at 20 Mbit/s: exits 0" test -s "$nb_tmp/udp.json"
if reconcile udp udp >"$nb_tmp/rec" 2>&1; then
	ok "UDP: the DUT's forwarded datagrams in each window reconcile with the step's"
else
	nok "UDP: the DUT's forwarded datagrams in each window reconcile with the step's"
fi
cat "$nb_tmp/rec"
check "UDP: one observer window per direction, each with the DUT's CPUs and softnet" python3 -c "
import json; d = json.load(open('$nb_tmp/udp.json'))
assert [s['direction'] for s in d['steps']] == ['tx', 'rx']
for s in d['steps']:
    o = s['observers']
    assert len(o) == 1 and o[0]['observer'] == '198.18.0.254' and o[0]['cpus'] and 'softnet' in o[0]
    assert o[0]['samples'] > 0 and 0 <= o[0]['observer_cpu_pct'] < 5
"

gen tput -c 198.19.0.1 -l 8k -t 1 -O 0.3 --tx-only --observe 198.18.0.254 -J \
	>"$nb_tmp/tcp.json" 2>"$nb_tmp/tcp.err"
if reconcile tcp tcp >"$nb_tmp/rec" 2>&1; then
	ok "TCP: the DUT's forwarded bytes in the window reconcile with the step's payload"
else
	nok "TCP: the DUT's forwarded bytes in the window reconcile with the step's payload"
fi
cat "$nb_tmp/rec"

gen tput -c 198.19.0.1 -u -b 10M -l 1k -t 0.5 -O 0.1 --observe 198.18.0.254 \
	>"$nb_tmp/text.out" 2>&1
check "text: the DUT's rows under the CPU table, Tx and Rx" sh -c "
	grep -q '^DUT 198.18.0.254 (.*) over each window, DUT CPUs ' '$nb_tmp/text.out' &&
	grep -Eq '^ +1k +Tx \| cpu[0-9]+ ' '$nb_tmp/text.out' &&
	grep -Eq '^ +1k +Rx \| cpu[0-9]+ ' '$nb_tmp/text.out'"
gen tput -c 198.19.0.1 -u -b 10M -l 1k -t 0.5 -O 0.1 --tx-only -J >"$nb_tmp/noobs.json" 2>&1
check "without --observe: no observers in the JSON" python3 -c "
import json; d = json.load(open('$nb_tmp/noobs.json'))
assert d['steps'] and all('observers' not in s for s in d['steps'])"
check_schemas "$nb_tmp"
check "lab down" "$NETBENCH" lab down --prefix $P
echo "1..$n"
