#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput --observe and stream --observe through the lab, as root: the DUT's observer runs over each
# step's window (tput: Tx and Rx each), and the frames the DUT forwarded in that window reconcile
# with what the step counted in its own (tput: the receiver; stream: the sender).
# tput: the observer's window follows each of the step's edges by one control round trip, so the
# two windows are the same length shifted by milliseconds; the tolerance is what that allows: the
# packets of the difference in window length at the step's rate, 2 % for the shift at a paced
# rate (the observer reads its counters a control round trip and its own reading time after each
# edge: up to ~10 ms each on a loaded two-core host, which burst pacing and scheduling make
# uneven: 20 ms of a 1 s window), and 16 packets of the control connection, which also crosses
# the DUT. A window opened at the warm-up's start instead (0.3 s at 2.4k datagrams/s, some 700
# datagrams) or closed after the stop would fail it.
# stream: the steps change rate at each edge, so the shift does not cancel: the observer's answer
# to each edge came open_lag_ms / close_lag_ms after it (in the JSON) and its counters were read
# within that; the tolerance is the step's rate over the open lag and the next step's (its
# warm-up) over the close lag, 1 %, and the 16 control packets. ~25 s (lab up/down ~8 s).
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtop_$nb_id
need_tools ip python3
check "lab up with an observer in the DUT" lab_up $P || exit 1
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
    else:  # TCP paced (a flat-out TCP is too bursty for a shifted window): bytes, each
        # segment's headers on top of the payload (at most 10 %)
        got, want = out["tx_bytes"], s["window_bytes"]
        lo = want * 0.98 - want / s["window_s"] * dw - 16 * 1500
        hi = want * 1.10 + want / s["window_s"] * dw + 16 * 1500
        tol = None
    ok = abs(got - want) <= tol if tol is not None else lo <= got <= hi
    print("# %s %s: DUT sent %d, step counted %d, windows %.4f / %.4f s%s" % (
        kind, s["direction"], got, want, o["window_s"], s["window_s"], "" if ok else "  MISMATCH"))
    bad += not ok
    # under 0.2 s: a loaded host delayed one edge by 0.1 s; a window opened with the 0.3 s
    # warm-up would exceed it
    if dw > 0.2 or o["window_s"] <= 0:
        print("# window lengths differ by %.3f s" % dw); bad += 1
    if not isinstance(o["cycles_per_byte"], (int, float, type(None))):
        bad += 1
sys.exit(1 if bad or not d["steps"] else 0)
PY
}

gen tput -c 198.19.0.1 -u -r 20M -l 1k -t 1 -O 0.3 --observe 198.18.0.254 -J \
	>"$nb_tmp/udp.json" 2>"$nb_tmp/udp.err"
check "UDP Tx and Rx at 20 Mbit/s: exits 0" test -s "$nb_tmp/udp.json"
if reconcile udp udp >"$nb_tmp/rec" 2>&1; then
	ok "UDP: the DUT's forwarded datagrams in each window reconcile with the step's"
else
	notok "UDP: the DUT's forwarded datagrams in each window reconcile with the step's"
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

gen tput -c 198.19.0.1 -l 8k -r 100M -t 1 -O 0.3 --tx-only --observe 198.18.0.254 -J \
	>"$nb_tmp/tcp.json" 2>"$nb_tmp/tcp.err"
if reconcile tcp tcp >"$nb_tmp/rec" 2>&1; then
	ok "TCP: the DUT's forwarded bytes in the window reconcile with the step's payload"
else
	notok "TCP: the DUT's forwarded bytes in the window reconcile with the step's payload"
fi
cat "$nb_tmp/rec"

# The observer answers a STOP at once, whatever its sampling period: at one sample a second a
# window closing 1.5 s after the previous sample's tick must not wait for the next tick (at
# 2 s), which would stretch the observer's window by 0.5 s.
gen tput -c 198.19.0.1 -u -r 10M -l 1k -t 1.5 -O 0.2 --tx-only --observe 198.18.0.254 \
	--observe-rate 1 -J >"$nb_tmp/slow.json" 2>"$nb_tmp/slow.err"
check "--observe-rate 1: the observer's window closes at the step's STOP, not its next sample" \
	python3 -c "
import json; s = json.load(open('$nb_tmp/slow.json'))['steps'][0]
o = s['observers'][0]
print('# observer window %.3f s, step window %.3f s' % (o['window_s'], s['window_s']))
assert abs(o['window_s'] - s['window_s']) < 0.15"

gen tput -c 198.19.0.1 -u -r 10M -l 1k -t 0.3 -O 0.1 --observe 198.18.0.254 \
	>"$nb_tmp/text.out" 2>&1
check "text: the DUT's rows under the CPU table, Tx and Rx" sh -c "
	grep -q '^DUT 198.18.0.254 (.*) over each window, DUT CPUs ' '$nb_tmp/text.out' &&
	grep -Eq '^ +1k +Tx \| cpu[0-9]+ ' '$nb_tmp/text.out' &&
	grep -Eq '^ +1k +Rx \| cpu[0-9]+ ' '$nb_tmp/text.out'"
gen tput -c 198.19.0.1 -u -r 10M -l 1k -t 0.3 -O 0.1 --tx-only -J >"$nb_tmp/noobs.json" 2>&1
check "without --observe: no observers in the JSON" python3 -c "
import json; d = json.load(open('$nb_tmp/noobs.json'))
assert d['steps'] and all('observers' not in s for s in d['steps'])"
# --- stream: this host sends 1000-byte datagrams (one frame each) at 5, 10 then 2 Mbit/s
check_rc "stream --observe with --reverse is a usage error" 2 \
	gen stream -c 198.19.0.1 --reverse --observe 198.18.0.254
check "it says why" grep -q -- "--observe needs -c HOST without --reverse" "$nb_tmp/out"
gen stream -c 198.19.0.1 -b 1000 --rates 5M,10M,2M -t 1 -O 0.2 --observe 198.18.0.254 -J \
	>"$nb_tmp/stream.json" 2>"$nb_tmp/stream.err"
if python3 - "$nb_tmp/stream.json" >"$nb_tmp/rec" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sent, obs = d["sent"], d["observed_steps"]
bad = len(obs) != 3 or [o["step"] for o in obs] != [0, 1, 2]
for o in obs:
    i = o["step"]
    ob = o["observers"][0]
    out = {f["name"]: f for f in ob["interfaces"]}["dut1"]
    pps = sent[i]["datagrams"] / 1.0
    nxt = sent[i + 1]["rate_bps"] / 8000.0 if i + 1 < len(sent) else 0
    tol = pps * o["open_lag_ms"] / 1e3 + nxt * o["close_lag_ms"] / 1e3 + pps / 100 + 16
    got, want = out["tx_packets"], sent[i]["datagrams"]
    ok = abs(got - want) <= tol
    # The observer's window is the step's 1 s moved by its edges' lags (reported, and allowed
    # for in the tolerance above); beyond them it may differ by 0.1 s.
    lag_s = (o["open_lag_ms"] + o["close_lag_ms"]) / 1e3
    win_ok = abs(ob["window_s"] - 1.0) <= lag_s + 0.1
    print("# stream %d: DUT sent %d, step sent %d, lags %.1f / %.1f ms, tolerance %.0f, "
          "observer window %.3f s%s" % (i, got, want, o["open_lag_ms"], o["close_lag_ms"], tol,
          ob["window_s"], "" if ok and win_ok else "  MISMATCH"))
    bad |= not ok or not win_ok
sys.exit(1 if bad else 0)
PY
then
	ok "stream: the DUT's forwarded datagrams in each step's window reconcile with the step's"
else
	notok "stream: the DUT's forwarded datagrams in each step's window reconcile with the step's"
fi
cat "$nb_tmp/rec"
gen stream -c 198.19.0.1 -b 1000 --rates 5M -t 0.3 -O 0.1 --observe 198.18.0.254 \
	>"$nb_tmp/stext.out" 2>&1
check "stream text: the DUT's row per step" sh -c "
	grep -q '^DUT 198.18.0.254 (.*) over each window' '$nb_tmp/stext.out' &&
	grep -Eq '^ +5.000 \| cpu[0-9]+ ' '$nb_tmp/stext.out'"
check_schemas "$nb_tmp"
check "lab down" "$NETBENCH" lab down --prefix $P
echo "1..$n"
