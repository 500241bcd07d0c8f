#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate through netbench lab (generator, forwarding DUT with nftables, sink): throughput
# search, a policer of known rate, both engines, the sendmmsg fallback, the other procedures, an
# agent receiver, a rule sweep, and bad input. Runs as root; every trial is short.
NB=${NETBENCH:?}
# Paced trials run with --realtime: on a host shared with other work the ordinary scheduler
# holds the generator up for milliseconds (it reports those frames as slipped), which blurs a
# policer's edge. Flat-out trials run without it, so as not to starve the kernel's softirq.
RT=--realtime
. "$(dirname "$0")/../lib.sh"
P=nbtrate_$nb_id
G="ip netns exec $P-gen"
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "needs nft"
# The lab: gen 198.18.0.1 -- 198.18.0.254 DUT 198.19.0.254 -- sink 198.19.0.1; the test's own
# agent (section 7), so no lab agent.
lab_up $P --no-agent || { notok "netbench lab up --prefix $P"; exit 1; }
# Port 5331: a policer of 20000 frames/s (burst 5 ms). Port 5332: everything dropped.
# Port 5333: passed, source ports collected.
ip netns exec $P-dut nft -f - <<'NFT' || skip_all "nftables cannot load the DUT ruleset"
table inet nbtrate {
	set sports { type inet_service; }
	chain forward_test {
		type filter hook forward priority 0; policy accept;
		udp dport 5331 limit rate 20000/second burst 100 packets accept
		udp dport 5331 drop
		udp dport 5332 drop
		udp dport 5333 add @sports { udp sport } accept
	}
}
NFT
RX="--local-rx $P-sink/198.19.0.1"

# 1. Flooded: what the DUT delivers at the generator's maximum; then the search.
$G "$NB" rate $RX --data-port 5333 -s 64 -T 0.5 --test trial -J >"$tmp/flood.json" 2>"$tmp/flood.err"
check "flood trial through the DUT completes" test -s "$tmp/flood.json"
rxf=$(jnum rx_frames "$tmp/flood.json")
win=$(jnum window_s "$tmp/flood.json")
delivered=$(awk -v r="${rxf:-0}" -v w="${win:-1}" 'BEGIN { printf "%.0f", r / w }')
$G "$NB" rate $RX --data-port 5333 -s 64 -T 0.5 --drain 100ms -J >"$tmp/tput.json" 2>"$tmp/tput.err"
st=$?
fps=$(sed -n 's/^      "fps": \([0-9.]*\).*/\1/p' "$tmp/tput.json" | head -1)
check "throughput search through the DUT ends with a verified result (status $st, $fps fps)" \
	grep -q '"verified": true' "$tmp/tput.json"
# The search's own first trial is flat out too: the DUT's delivery is the better of the two
# floods (this shared host's speed varies from run to run).
rxf=$(jnum rx_frames "$tmp/tput.json")
win=$(jnum window_s "$tmp/tput.json")
delivered=$(awk -v r="${rxf:-0}" -v w="${win:-1}" -v d="$delivered" \
	'BEGIN { x = r / w; printf "%.0f", (x > d ? x : d) }')
check "search result $fps fps is at or below what the DUT delivered flooded ($delivered fps)" \
	awk -v f="${fps:-0}" -v d="$delivered" 'BEGIN { exit !(f > 0 && f <= d * 1.02) }'
check "JSON carries every trial and the verdict" \
	sh -c "grep -c '\"purpose\"' '$tmp/tput.json' | grep -qv '^0$' && grep -q '\"verdict\"' '$tmp/tput.json'"

# 2. A policer of known rate is found within 5 %.
$G "$NB" rate $RX $RT --data-port 5331 -s 64 -T 0.5 --drain 100ms -r 40k --resolution 1% -J \
	>"$tmp/pol.json" 2>"$tmp/pol.err"
fps=$(sed -n 's/^      "fps": \([0-9.]*\).*/\1/p' "$tmp/pol.json" | head -1)
check "policer of 20000 fps found within 5 % ($fps fps)" \
	awk -v f="${fps:-0}" 'BEGIN { exit !(f >= 19000 && f <= 21000) }' ||
	sed 's/^/# /' "$tmp/pol.err" | tail -12

# 3. Packet engine: the kernel's UDP socket accepts its frames (checksums), flows are distinct.
$G "$NB" rate $RX $RT --data-port 5333 -e packet -s 64,1518 -T 0.5 -r 10k --flows 4 --test trial -J \
	>"$tmp/pkt.json" 2>"$tmp/pkt.err"
check "packet engine: every frame received by a UDP socket at 10 kfps" \
	sh -c "grep -q '\"engine\": \"packet\"' '$tmp/pkt.json' && \
		grep '\"lost_frames\"' '$tmp/pkt.json' | grep -qv ': 0,' && exit 1; \
		grep -q '\"rx_frames\": [1-9]' '$tmp/pkt.json'"
nsp=$(ip netns exec $P-dut nft list set inet nbtrate sports | tr ',' '\n' | grep -c '4000[0-3]')
check "--flows 4 gives 4 distinct source ports at the DUT ($nsp)" test "$nsp" -eq 4
$G "$NB" rate $RX $RT --data-port 5333 -e udp -s 128 -T 0.5 -r 10k --test trial -J >"$tmp/udp.json" 2>&1
check "udp engine trial at 10 kfps: nothing lost" \
	grep -q '"lost_frames": 0,' "$tmp/udp.json"
off=$(jnum offered_fps "$tmp/udp.json")
check "udp engine offered 10 kfps within 1 % ($off fps)" \
	awk -v f="${off:-0}" 'BEGIN { exit !(f >= 9900 && f <= 10100) }'
off=$(jnum offered_fps "$tmp/pkt.json")
check "packet engine offered 10 kfps within 1 % ($off fps)" \
	awk -v f="${off:-0}" 'BEGIN { exit !(f >= 9900 && f <= 10100) }'

# 4. sendmmsg missing (seccomp answers ENOSYS): the fallback runs and says so.
NETBENCH_SIMULATE_ENOSYS=sendmmsg,recvmmsg $G "$NB" rate $RX $RT --data-port 5333 -s 64 -T 0.5 -r 5k \
	--test trial -J >"$tmp/enosys.json" 2>"$tmp/enosys.err"
check "without sendmmsg/recvmmsg: sendmsg fallback named in the result" \
	grep -q 'sendmmsg: ENOSYS, fallback' "$tmp/enosys.json"
check "without sendmmsg/recvmmsg: frames still counted" \
	grep -q '"rx_frames": [1-9]' "$tmp/enosys.json"

# 5. The other procedures run to the end.
$G "$NB" rate $RX $RT --data-port 5331 -s 64 -T 0.3 --drain 50ms -r 30k --test loss >"$tmp/loss.out" 2>&1
check "loss curve (26.3) through the policer ends after two clean trials" \
	sh -c "grep -q 'loss at maximum rate' '$tmp/loss.out' && \
		[ \$(grep -c 'loss curve' '$tmp/loss.out') -ge 4 ]"
$G "$NB" rate $RX $RT --data-port 5333 -s 64 -T 0.2 --drain 50ms -r 20k --test b2b --repeat 1 \
	>"$tmp/b2b.out" 2>&1
check "back-to-back (26.4) completes" grep -q 'burst avg' "$tmp/b2b.out"
$G "$NB" rate $RX $RT --data-port 5331 -s 64 -T 0.5 --drain 50ms -r 30k --resolution 5% --test latency -J \
	>"$tmp/lat.json" 2>&1
check "latency (26.2) at the throughput rate reports percentiles" \
	grep -q '"p99_9":' "$tmp/lat.json"

# 6. A DUT that drops everything: the learning phase fails the run ("check the path"); without
# it, "0 fps at every rate"; non-zero exit, no hang.
$G "$NB" rate $RX --data-port 5332 -s 64 -T 0.2 --drain 50ms -r 20k >"$tmp/nolearn.out" 2>&1
st=$?
check "DUT dropping everything: 'no learning frames arrived in 2 s', status $st" \
	sh -c "[ $st -eq 1 ] && grep -q 'no learning frames arrived in 2 s: check the path' '$tmp/nolearn.out'"
start=$(date +%s)
$G "$NB" rate $RX --data-port 5332 -s 64 -T 0.2 --drain 50ms -r 20k --learning-timeout 0 \
	>"$tmp/zero.out" 2>&1
st=$?
check "DUT dropping everything: '0 fps at every rate', status $st, $(($(date +%s) - start)) s" \
	sh -c "[ $st -ne 0 ] && grep -q '0 fps at every rate' '$tmp/zero.out'"

# 7. The receiver on an agent (in the sink namespace), its policy applied to every trial.
agent $P-sink -- -p 5391 --max-rate 100M
$G "$NB" rate -c 198.19.0.1 -p 5391 $RT --data-port 5331 -s 64 -T 0.5 --drain 100ms -r 40k \
	--resolution 1% -J >"$tmp/agent.json" 2>"$tmp/agent.err"
fps=$(sed -n 's/^      "fps": \([0-9.]*\).*/\1/p' "$tmp/agent.json" | head -1)
check "via the agent: policer of 20000 fps found within 5 % ($fps fps)" \
	awk -v f="${fps:-0}" 'BEGIN { exit !(f >= 19000 && f <= 21000) }' ||
	sed 's/^/# /' "$tmp/agent.err" | tail -12
check "via the agent: JSON names the agent receiver, its platform and its CPU load per trial" \
	sh -c "grep -q '\"receiver\": \"agent\"' '$tmp/agent.json' && \
		grep -q '\"remote\": {' '$tmp/agent.json' && \
		grep -A1 '\"cpu_remote\"' '$tmp/agent.json' | grep -q '\"valid\": true'"
$G "$NB" rate -c 198.19.0.1 -p 5391 -s 1518 -r 100k -T 0.2 --test trial \
	>"$tmp/cap.out" 2>&1
st=$?
check "via the agent: a trial above the agent's --max-rate is refused (status $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'refused by rule max-rate' '$tmp/cap.out'"

# 8. A rule sweep through the lab's DUT (replacing the ruleset above): frames/s falls with
# linear rules, and a fit.
$G "$NB" rate --local-rx $P-sink/198.19.0.1 -s 64 -T 0.3 --drain 50ms $RT -r 200k \
	--resolution 2% --sweep-rules 0,2000 --kind linear --lab-prefix $P -J \
	>"$tmp/sweep.json" 2>"$tmp/sweep.err"
f0=$(sed -n 's/^          "fps": \([0-9.]*\).*/\1/p' "$tmp/sweep.json" | sed -n 1p)
f1=$(sed -n 's/^          "fps": \([0-9.]*\).*/\1/p' "$tmp/sweep.json" | sed -n 2p)
check "rule sweep: 2000 linear rules cost frames/s ($f0 -> $f1 fps)" \
	awk -v a="${f0:-0}" -v b="${f1:-0}" 'BEGIN { exit !(b > 0 && b < a * 0.9) }'
check "rule sweep: rules read back and a per-rule cost fitted" \
	sh -c "grep -q '\"rules_read_back\": 2001' '$tmp/sweep.json' && \
		grep -q '\"per_rule_ns\"' '$tmp/sweep.json'"
json_check "$tmp/sweep.json" "
L = d['learning']
assert [x['when'] for x in L] == ['ruleset linear 0', 'ruleset linear 2000'], L
assert all(x['confirmed'] for x in L), L
" >/dev/null 2>&1
check "rule sweep: a learning phase after each ruleset was loaded, each confirmed" test $? -eq 0

# 9. Bad input: a clear message and a non-zero status.
check_refused "frame size 63 rejected" 2 "too small: 63" $G "$NB" rate $RX -s 63
check_refused "frame size above MTU+18 rejected" 2 "at most 1518" $G "$NB" rate $RX -s 1519
check_refused "rate below 1k fps rejected" 2 "at least 1k" $G "$NB" rate $RX -r 500
check_refused "no route" 1 "no route to 203.0.113.1" \
	$G "$NB" rate --dst 203.0.113.1 --test trial -s 64 -T 0.2
check_refused "no neighbour (packet engine)" 1 "no neighbour entry for next hop 198.18.0.77" \
	$G "$NB" rate --dst 198.18.0.77 -e packet --test trial -s 64 -T 0.2
check_refused "agent not answering" 1 "cannot connect to the agent at 127.0.0.1 port 5391" \
	$G "$NB" rate -c 127.0.0.1 -p 5391 -s 64 -T 0.2
check_refused "unknown engine" 2 "unknown engine" $G "$NB" rate $RX -e dpdk
check_refused "receiver address not ours" 1 "cannot bind" \
	$G "$NB" rate --local-rx $P-sink/198.18.0.1 -s 64
check_schemas "$tmp"
echo "1..$n"
