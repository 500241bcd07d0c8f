#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --threads: two generator threads over a veth pair into a two-socket receiver,
# udp and packet engines, IPv4 and IPv6. The sink's nftables counts every source port, so each
# thread's frames are checked against what arrived from its own flows (exact per-flow
# reconciliation seen from outside netbench), and each thread's offered rate against its
# share of the asked rate. Then bad --threads/--cpus input. Runs as root; trials are short.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtthr_$nb_id
G="ip netns exec $P-gen"
RATE=20000
need_root
command -v nft >/dev/null || skip_all "needs nft"
netns_add $P-gen || skip_all "cannot create network namespaces"
netns_add $P-sink || { notok "namespaces"; exit 1; }
veth_pair $P-gen nbth-g0 $P-sink nbth-s0 198.18.20.1/24 198.18.20.2/24 2001:db8:20::1/64 \
	2001:db8:20::2/64 || skip_all "no veth support"
# One counter per source port of the four flows (40000-40003).
ip netns exec $P-sink nft -f - <<'NFT' || skip_all "nftables cannot load the sink's counters"
table inet nbtthr {
	counter p0 { }
	counter p1 { }
	counter p2 { }
	counter p3 { }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5341 udp sport 40000 counter name p0
		udp dport 5341 udp sport 40001 counter name p1
		udp dport 5341 udp sport 40002 counter name p2
		udp dport 5341 udp sport 40003 counter name p3
	}
}
NFT
cnt() { ip netns exec $P-sink nft list counter inet nbtthr "p$1" | sed -n 's/.*packets \([0-9]*\).*/\1/p'; }
reset() { ip netns exec $P-sink nft reset counters table inet nbtthr >/dev/null; }

# run NAME ENGINE ADDR SIZE: one trial of 2 threads and 4 flows at $RATE fps.
run() {
	name=$1 eng=$2 addr=$3 size=$4
	reset
	$G "$NB" rate --local-rx $P-sink/$addr --data-port 5341 --realtime -e "$eng" -s "$size" -T 0.5 \
		-r $RATE --threads 2 --flows 4 --test trial -J >"$nb_tmp/$name.json" 2>"$nb_tmp/$name.err"
	st=$?
	check "$name: trial completes (status $st$(head -c 200 "$nb_tmp/$name.err" | tr '\n' ' '))" \
		test -s "$nb_tmp/$name.json"
	c0=$(cnt 0) c1=$(cnt 1) c2=$(cnt 2) c3=$(cnt 3)
	json_check "$nb_tmp/$name.json" "
p = d['parameters']; t = d['sizes'][0]['trials'][0]; th = t['threads']
assert p['threads'] == 2 and p['receiver_threads'] == 2 and p['cpus'] == [], p
assert t['valid'], t.get('invalid_reason')
assert t['tx_frames'] == t['rx_frames'] + t['lost_frames'], t
assert t['lost_frames'] == 0 and t['duplicated_frames'] == 0, t
assert t['receiver_dropped_frames'] == 0 and d['sizes'][0]['receiver_limited'] is False, t
assert len(th) == 2 and sum(x['tx_frames'] for x in th) == t['tx_frames'], th
assert sum(x['slipped_frames'] for x in th) == t['slipped_frames'], th
assert all(0 < x['window_s'] <= t['window_s'] + 1e-6 for x in th), th
# Flows 0-1 (source ports 40000-40001) are thread 0's, 2-3 thread 1's: what the sink counted
# from each thread's ports is exactly what that thread sent, and the learning frames of those
# flows that arrived before the trial (docs/rate.md, Learning).
L = d['learning'][0]['received_per_flow']
assert d['learning'][0]['confirmed'] and t['late_frames'] == 0, (d['learning'], t)
assert th[0]['tx_frames'] + L[0] + L[1] == $c0 + $c1, (th[0], L, $c0, $c1)
assert th[1]['tx_frames'] + L[2] + L[3] == $c2 + $c3, (th[1], L, $c2, $c3)
# The pacing split: each thread asked for exactly half, and the sum is the rate asked
# (within 2 %: this test shares its host with other work; bench/ measures closer).
assert [x['asked_fps'] for x in th] == [$RATE // 2, $RATE // 2], th
assert abs(t['offered_fps'] - $RATE) <= 0.02 * $RATE, t['offered_fps']
for x in th:
    assert abs(x['offered_fps'] - $RATE / 2) <= 0.02 * $RATE / 2, x
" && ok "$name: per-thread and per-flow counts reconcile (sink counted $c0+$c1, $c2+$c3), each thread paced at $((RATE / 2)) fps" ||
		notok "$name: per-thread and per-flow counts, pacing split ($(jnum offered_fps "$nb_tmp/$name.json") fps offered)"
}
run udp4 udp 198.18.20.2 64
run udp6 udp 2001:db8:20::2 84
run packet4 packet 198.18.20.2 64
run packet6 packet 2001:db8:20::2 84

# Pinned: --cpus alone sets one thread per CPU named.
$G "$NB" rate --local-rx $P-sink/198.18.20.2 --data-port 5341 --cpus 0 -s 64 -T 0.3 -r 5k \
	--test trial -J >"$nb_tmp/pin.json" 2>"$nb_tmp/pin.err"
json_check "$nb_tmp/pin.json" "
p = d['parameters']; t = d['sizes'][0]['trials'][0]
assert p['threads'] == 1 and p['cpus'] == [0], p
assert 'pinned to CPUs 0' in p['engine_detail'], p['engine_detail']
assert t['valid'] and t['tx_frames'] == t['rx_frames'] + t['lost_frames'], t
" && ok "--cpus 0: one thread pinned to CPU 0, counts reconcile" || notok "--cpus 0 ($(head -1 "$nb_tmp/pin.err"))"

RX="--local-rx $P-sink/198.18.20.2 --data-port 5341 -s 64 -T 0.2 --test trial"
check_refused "--threads 0 rejected" 2 "--threads is too small" $G "$NB" rate $RX --threads 0
check_refused "--threads 65 rejected" 2 "--threads is too large" $G "$NB" rate $RX --threads 65
check_refused "fewer flows than threads rejected" 2 "--flows 1 is fewer than --threads 2" \
	$G "$NB" rate $RX --threads 2 --flows 1
check_refused "--cpus with letters rejected" 2 "is not a CPU list" $G "$NB" rate $RX --cpus x
check_refused "--cpus naming a CPU twice rejected" 2 "names a CPU twice" \
	$G "$NB" rate $RX --cpus 0,0-1
check_refused "--cpus above the limit rejected" 2 "names a CPU above 1023" \
	$G "$NB" rate $RX --cpus 0,5000
check_refused "--cpus outside this process's set fails" 1 "CPU 1023 is not one this process may run on" \
	$G "$NB" rate $RX --cpus 1023
check_schemas "$nb_tmp"
echo "1..$n"
