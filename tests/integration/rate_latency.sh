#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate's latency through an agent: netbench lab, its DUT's egress towards the sink
# delaying every frame by 5 ms (netem). Round trip from reflected probes (forced with --latency
# rtt, as the agent shares this host's clock) must see the 5 ms once; one-way must see it too;
# probes count as test frames once and their reflections nowhere. Runs as root, about 10 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtrf_$nb_id
G="ip netns exec $P-gen"
tmp=$nb_tmp

# jobj OBJ KEY FILE: KEY's number inside the first object named OBJ
jobj() { sed -n "/\"$1\": {/,/}/s/.*\"$2\": \([0-9.]*\).*/\1/p" "$3" | head -1; }

need_root
# The lab: gen 198.18.0.1 -- DUT -- sink 198.19.0.1; the test's own agent. The delay is this
# test's: a qdisc on the DUT's link towards the sink (dut1), with room for a 5 ms queue.
lab_up $P --no-agent || { notok "netbench lab up --prefix $P"; exit 1; }
ip -n $P-dut link set dut1 txqueuelen 10000
# netem delays every frame by 5 ms. Where the kernel has no netem, a token bucket that the
# trial keeps full delays every frame it passes by its depth instead: 4 ms of queue + a 1.6 ms
# bucket at 8 Mbit/s (about 5.6 ms), dropping the excess; only loss-free checks differ.
delay=netem
if ! ip netns exec $P-dut tc qdisc add dev dut1 root netem delay 5ms limit 100000 \
	2>/dev/null; then
	delay=tbf
	ip netns exec $P-dut tc qdisc add dev dut1 root tbf rate 8mbit burst 1600 latency 4ms \
		2>/dev/null || skip_all "neither netem nor tbf qdisc in this kernel"
fi

agent $P-sink -- -p 5361
A="-c 198.19.0.1 -p 5361 --data-port 5362"

# 1. Forced round trip: 5 ms once (only the way to the sink is delayed), plus little.
$G "$NB" rate $A --realtime --latency rtt --test trial -r 25k -s 64 -T 1 --drain 100ms -J \
	>"$tmp/rtt.json" 2>"$tmp/rtt.err"
check "rtt trial through the agent completes (status $?)" test -s "$tmp/rtt.json"
p50=$(jobj rtt_ns p50 "$tmp/rtt.json")
# netem delays by exactly 5 ms; the token bucket by its fill, which a trial keeps near its depth
# but not at it: half a millisecond of slack below, only there.
lo_ns=5000000
[ "$delay" = tbf ] && lo_ns=4500000
check "round trip p50 ${p50:-none} ns lies in [$((lo_ns / 1000)) us, 8 ms) ($delay)" \
	sh -c "[ -n '$p50' ] && [ '${p50%.*}' -ge $lo_ns ] && [ '${p50%.*}' -lt 8000000 ]"
check "JSON labels it round-trip (parameters and the latency object), no one-way figure" \
	sh -c "grep -q '\"latency\": \"round-trip\"' '$tmp/rtt.json' &&
		grep -q '\"kind\": \"round-trip\"' '$tmp/rtt.json' &&
		grep -q '\"one_way_latency\": false' '$tmp/rtt.json' &&
		! grep -q '\"latency_ns\"' '$tmp/rtt.json'"
# Below the shaper's rate nothing is lost: every frame and every probe is accounted for.
$G "$NB" rate $A --latency rtt --test trial -r 5k -s 64 -T 1 --drain 100ms -J \
	>"$tmp/cnt.json" 2>"$tmp/cnt.err"
tx=$(jnum tx_frames "$tmp/cnt.json")
rx=$(jnum rx_frames "$tmp/cnt.json")
sent=$(jnum probes_sent "$tmp/cnt.json")
got=$(jnum probes_received "$tmp/cnt.json")
refl=$(jnum probes_reflected "$tmp/cnt.json")
ret=$(jnum probes_returned "$tmp/cnt.json")
check "probes are test frames counted once: rx $rx = tx $tx" \
	sh -c "[ -n '$tx' ] && [ '$tx' -gt 0 ] && [ '$rx' = '$tx' ]"
check "probes at about 1000/s: $sent sent, $got received, $refl reflected, $ret returned" \
	sh -c "[ '$sent' -ge 900 ] && [ '$sent' -le 1100 ] && [ '$got' = '$sent' ] &&
		[ '$refl' = '$got' ] && [ '$ret' = '$refl' ]"
d=$(jnum duplicated_frames "$tmp/cnt.json")
l=$(jnum late_frames "$tmp/cnt.json")
check "reflections are not counted as test frames: no duplicates ($d), nothing late ($l)" \
	sh -c "[ '$d' = 0 ] && [ '$l' = 0 ]"

# 2. The table says round trip.
$G "$NB" rate $A --latency rtt --test trial -r 20k -s 64 -T 0.5 --drain 100ms \
	>"$tmp/rtt.out" 2>&1
check "table: rtt columns and a round-trip note" \
	sh -c "grep -q 'rtt p50 us' '$tmp/rtt.out' && grep -q '^latency: round trip' '$tmp/rtt.out'"

# 3. One-way (forced; auto gives the same on one host): the 5 ms delay.
$G "$NB" rate $A --realtime --latency oneway --test trial -r 25k -s 64 -T 1 --drain 100ms -J \
	>"$tmp/ow.json" 2>"$tmp/ow.err"
ow=$(jobj latency_ns p50 "$tmp/ow.json")
check "one-way p50 ${ow:-none} ns lies in [$((lo_ns / 1000)) us, 6.5 ms) ($delay)" \
	sh -c "[ -n '$ow' ] && [ '${ow%.*}' -ge $lo_ns ] && [ '${ow%.*}' -lt 6500000 ]"
# Two trials, each read from a histogram whose buckets are ~2.5 % wide here: one bucket of
# slack with netem; with the token bucket, whose fill differs between the two trials, two.
slack=20
[ "$delay" = tbf ] && slack=10
check "one-way p50 is at most the round trip's, within the histogram's resolution ($ow <= $p50)" \
	sh -c "[ -n '$ow' ] && [ -n '$p50' ] && [ '${ow%.*}' -le \$(( ${p50%.*} + ${p50%.*} / $slack )) ]"
$G "$NB" rate $A --test trial -r 20k -s 64 -T 0.3 --drain 100ms -J >"$tmp/auto.json" 2>&1
check "auto on one host (same boot id) is one-way" \
	grep -q '"latency": "one-way"' "$tmp/auto.json"

# 4. Bad input.
$G "$NB" rate --local-rx 198.19.0.1 --latency rtt --test trial -r 1k -T 0.1 >"$tmp/bad1" 2>&1
st=$?
check "--latency rtt without an agent: usage error (status $st)" \
	sh -c "[ $st -eq 2 ] && grep -q 'needs an agent' '$tmp/bad1'"
$G "$NB" rate $A --latency sometimes --test trial -r 1k -T 0.1 >"$tmp/bad2" 2>&1
st=$?
check "--latency sometimes: usage error naming the modes (status $st)" \
	sh -c "[ $st -eq 2 ] && grep -q 'auto, oneway, rtt' '$tmp/bad2'"
check_schemas "$tmp"
echo "1..$n"
