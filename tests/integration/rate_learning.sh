#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate's learning phase (docs/rate.md, "Learning"): on three fresh IPv6 veth pairs in
# new namespaces (nodad addresses, so neighbour discovery starts from nothing) the first trial
# loses nothing, and the sink's nftables counter sees exactly the trial's and the learning
# frames the JSON reports; a path that drops everything fails the run with "no learning frames
# arrived"; behind a queue the frames of one trial arrive during the next and are late there,
# never received; learning through an agent; bad --learning-timeout input. Runs as root, about
# 25 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtlrn_$nb_id
tmp=$nb_tmp

need_root
[ -e /proc/net/if_inet6 ] || skip_all "no IPv6 in this kernel"
command -v nft >/dev/null || skip_all "needs nft"

# pair I: namespaces $P-gI and $P-sI with a veth pair, 2001:db8:4I::1 and ::2, and a counter of
# the test port's UDP datagrams in the sink.
pair() {
	i=$1
	netns_add $P-g$i || return 1
	netns_add $P-s$i || return 1
	veth_pair $P-g$i nblr-g$i $P-s$i nblr-s$i 2001:db8:4$i::1/64 2001:db8:4$i::2/64 || return 1
	ip netns exec $P-s$i nft -f - <<'NFT'
table inet nbtlrn {
	counter frames { }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5371 counter name frames
	}
}
NFT
}
frames() { ip netns exec $P-s$1 nft list counter inet nbtlrn frames | sed -n 's/.*packets \([0-9]*\).*/\1/p'; }

# 1. The first trial on each of three fresh pairs: nothing lost, the learning phase recorded.
for i in 1 2 3; do
	pair $i || { notok "pair $i: namespaces, veth, nftables"; continue; }
	ip netns exec $P-g$i "$NB" rate --local-rx $P-s$i/2001:db8:4$i::2 --data-port 5371 \
		-m trial -r 20000 -T 0.5 -s 84 -J >"$tmp/p$i.json" 2>"$tmp/p$i.err"
	st=$?
	c=$(frames $i)
	json_check "$tmp/p$i.json" "
t = d['sizes'][0]['trials'][0]; L = d['learning']
assert len(L) == 1 and L[0]['when'] == 'start' and L[0]['confirmed'] and L[0]['counted'], L
assert L[0]['frames_received'] >= 1 and L[0]['frames_received'] <= L[0]['frames_sent'], L
assert d['parameters']['learning_timeout_s'] == 4, d['parameters']
# (A loaded host may send fewer than the 10000 asked: what counts is that none is lost.)
assert t['valid'] and t['tx_frames'] >= 5000, t
assert t['lost_frames'] == 0 and t['rx_frames'] == t['tx_frames'], t
# Every datagram the sink's kernel took in is in the JSON: the trial's, the learning frames,
# and the late ones (learning frames that arrived during the trial), nothing else.
assert $c == t['rx_frames'] + t['late_frames'] + L[0]['frames_received'], ($c, t, L[0]['frames_received'])
" >"$tmp/chk$i" 2>&1
	check "fresh IPv6 pair $i: the first trial loses nothing, after learning of $(jnum took_s "$tmp/p$i.json") s (status $st; sink counted $c)" test $? -eq 0 ||
		sed 's/^/# /' "$tmp/chk$i" | tail -3
done

# 2. A path that drops every test frame: the run fails at once with the reason, no trial runs.
ip netns exec $P-s1 nft add rule inet nbtlrn in udp dport 5371 drop
ip netns exec $P-g1 "$NB" rate --local-rx $P-s1/2001:db8:41::2 --data-port 5371 -m trial \
	-r 20000 -T 0.5 -s 84 --learning-timeout 0.5 >"$tmp/drop.out" 2>&1
st=$?
check "a path that drops everything: exit 1, 'no learning frames arrived in 0.5 s: check the path' (status $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'no learning frames arrived in 0.5 s: check the path' '$tmp/drop.out'" ||
	sed 's/^/# /' "$tmp/drop.out" | head -5
ip netns exec $P-s1 nft flush chain inet nbtlrn in

# 3. Without learning (--learning-timeout 0): no learning frames, an empty record.
ip netns exec $P-g2 "$NB" rate --local-rx $P-s2/2001:db8:42::2 --data-port 5371 -m trial \
	-r 5000 -T 0.2 -s 84 --learning-timeout 0 -J >"$tmp/off.json" 2>"$tmp/off.err"
json_check "$tmp/off.json" "
assert d['learning'] == [] and d['parameters']['learning_timeout_s'] == 0, d['learning']
" >/dev/null 2>&1
check "--learning-timeout 0: no learning phase, recorded as none" test $? -eq 0

# 4. Trial ids: a token bucket at about 3000 frames/s with a deep queue in front of the sink
# holds back part of the first size's trial (5000 frames/s) until the second size's trial runs;
# there those frames are late, never counted as its own.
if ip netns exec $P-g3 tc qdisc add dev nblr-g3 root tbf rate 2mbit burst 1600 limit 1000000 2>/dev/null; then
	ip netns exec $P-g3 "$NB" rate --local-rx $P-s3/2001:db8:43::2 --data-port 5371 -m trial \
		-r 5000 -T 0.3 --drain 50ms -s 84,128 -J >"$tmp/late.json" 2>"$tmp/late.err"
	st=$?
	json_check "$tmp/late.json" "
a = d['sizes'][0]['trials'][0]; b = d['sizes'][1]['trials'][0]
assert d['learning'][0]['confirmed'], d['learning']
assert a['lost_frames'] >= 100, a
assert b['id'] != a['id'] and b['valid'], b
assert b['late_frames'] >= 100, b
assert b['rx_frames'] + b['lost_frames'] == b['tx_frames'], b
" >"$tmp/chkl" 2>&1
	check "a queue in the path: the first trial's frames are late in the second, not received by it ($(grep -o '"late_frames": [0-9]*' "$tmp/late.json" | tail -1); status $st)" test $? -eq 0 ||
		sed 's/^/# /' "$tmp/chkl" | tail -3
else
	skip "trial ids behind a queue: no tbf qdisc in this kernel"
fi

# 5. Through an agent (netbench serve in a fourth fresh pair's sink): each learning round is an
# agent test counting the learning frames' id; the first trial loses nothing.
if pair 4 && agent $P-s4 -- -p 5372 -B 2001:db8:44::2; then
	ip netns exec $P-g4 "$NB" rate -c "[2001:db8:44::2]:5372" --data-port 5371 -m trial \
		-r 20000 -T 0.5 -s 84 -J >"$tmp/agent.json" 2>"$tmp/agent.err"
	st=$?
	json_check "$tmp/agent.json" "
t = d['sizes'][0]['trials'][0]; L = d['learning'][0]
assert d['parameters']['receiver'] == 'agent', d['parameters']
assert L['confirmed'] and L['counted'] and L['frames_received'] >= 1, L
assert t['valid'] and t['tx_frames'] >= 5000 and t['lost_frames'] == 0, t
" >"$tmp/chka" 2>&1
	check "through an agent: learning confirmed by the agent's counts, the first trial loses nothing (status $st)" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/chka" | tail -3; sed 's/^/# /' "$tmp/agent.err" | tail -3; }
else
	notok "pair 4 with an agent in its sink"
fi

# 6. Bad input.
check_rc "--learning-timeout 50ms is refused (100ms to 1m)" 2 \
	"$NB" rate --local-rx 127.0.0.1 -m trial -r 1k -T 0.2 --learning-timeout 50ms
has "learning-timeout" || notok "the refusal names --learning-timeout"
check_rc "--learning-timeout abc is refused" 2 \
	"$NB" rate --local-rx 127.0.0.1 -m trial -r 1k -T 0.2 --learning-timeout abc

check_schemas "$tmp"
echo "1..$n"
