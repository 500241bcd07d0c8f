#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Ctrl-C in the middle of `rate --sweep-rules` through a lab: the points measured whole are kept
# (table, or a complete JSON document with "interrupted": true), the one cut short is dropped,
# the DUT's ruleset is flushed, the session with the lab's agent is closed (it serves the next
# run), exit 130, and no controller process is left. The SIGINT is sent once the DUT holds the
# second point's rules (so one point is measured on a slow host) of a sweep of eight points
# (~14 s whole, so it is still running on a fast one). Then the same for the clock experiment
# (--observe-clocks): the clock cut short is dropped. As root, ~25 s.
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtsg_$nb_id
NB=$NETBENCH
need_tools ip nft
lab_down() { "$NB" lab down --prefix $P >/dev/null 2>&1; }
trap 'lab_down; nb_cleanup' EXIT
if ! "$NB" lab up --prefix $P >"$nb_tmp/out" 2>&1; then
	notok "lab up --prefix $P"
	sed 's/^/# /' "$nb_tmp/out"
	exit 1
fi
RULES=0,10,20,30,40,50,60,70

# sweep_sigint OUT ERR rate-options...: the sweep in the generator's namespace, SIGINT once the
# DUT holds 10 rules or more (the second point); sets $rc
sweep_sigint() {
	out=$1 errf=$2; shift 2
	ip netns exec $P-gen "$NB" rate "$@" -s 128 --quick --sweep-rules $RULES --kind linear \
		--lab-prefix $P >"$out" 2>"$errf" &
	pid=$!
	wait_until 15 "the DUT to hold 10 rules" sh -c \
		"[ \$(ip netns exec $P-dut nft list ruleset 2>/dev/null | grep -c saddr) -ge 10 ]"
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
}

sweep_sigint "$nb_tmp/sw.json" "$nb_tmp/sw.err" --local-rx $P-sink/198.19.0.1 -J
check "rate --sweep-rules -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130 ||
	sed 's/^/# /' "$nb_tmp/sw.err" | tail -5
check "rate --sweep-rules -J: interrupted true, the whole points kept" json_check "$nb_tmp/sw.json" "
assert d['interrupted'] is True
pts = d['sweep']; assert 1 <= len(pts) < 8, pts
assert [p['rules'] for p in pts] == [0, 10, 20, 30, 40, 50, 60][:len(pts)], pts
assert all(len(p['sizes']) == 1 for p in pts), pts"
check "rate --sweep-rules: says how many points were measured" \
	grep -q 'interrupted: [1-7] of 8 rule sweep points measured' "$nb_tmp/sw.err"

sweep_sigint "$nb_tmp/sw.txt" "$nb_tmp/sw2.err" -c 198.19.0.1
check "rate --sweep-rules -c AGENT: SIGINT mid-sweep exits 130 (got $rc), prints the points kept" \
	sh -c "[ $rc -eq 130 ] && grep -q '^== DUT ruleset: linear, 0 rules ==' '$nb_tmp/sw.txt' &&
		grep -q 'interrupted: [1-7] of 8 rule sweep points' '$nb_tmp/sw2.err'"
check "the DUT's ruleset is flushed" sh -c "! ip netns exec $P-dut nft list ruleset | grep -q saddr"
check "no controller process is left" sh -c "! pgrep -f '^$NB rate ' >/dev/null"
check_rc "the lab's agent serves the next run" 0 \
	ip netns exec $P-gen "$NB" rate -c 198.19.0.1 -m trial -t 0.3 -l 128 -J

# rate --observe-clocks: SIGINT while the first clock's second size runs. The clock cut short is
# dropped (with or without cpufreq on this host), the document says interrupted, exit 130.
ip netns exec $P-gen "$NB" rate --local-rx $P-sink/198.19.0.1 -s 64,128,256 --test trial -T 0.5 \
	--rate 5k --observe-clocks 800,1600 -o "$nb_tmp/clk.json" >"$nb_tmp/clk.txt" 2>"$nb_tmp/clk.err" &
pid=$!
wait_until 30 "the second size's trial" grep -q "128-byte frames to" "$nb_tmp/clk.err"
kill -INT "$pid"
wait "$pid"
rc=$?
check "rate --observe-clocks: SIGINT in the first clock exits 130 (got $rc)" test "$rc" -eq 130
check "rate --observe-clocks: the clock cut short is dropped, no fit, interrupted true" \
	json_check "$nb_tmp/clk.json" "
assert d['interrupted'] is True
assert d['clocks'] == [] and d['clock_fit'] == [], (d['clocks'], d['clock_fit'])"
check "rate --observe-clocks: it says how many clocks were measured" \
	grep -q 'interrupted: 0 of 2 DUT clocks measured' "$nb_tmp/clk.err"
check_schemas "$nb_tmp/sw.json" "$nb_tmp/clk.json"
lab_down
check "lab down leaves no namespace" sh -c "! ip netns list | grep -q '^$P-'"
echo "1..$n"
