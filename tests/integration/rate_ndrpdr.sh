#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --test ndrpdr (docs/rate.md, "NDR and PDR in one search") over a veth pair into a
# sink whose nftables polices the test port at 20000 frames/s: both ratios from one search per
# repetition, each search's rate recorded, NDR not above PDR, final trials of the --final-trial
# length, the spread's sentence (and "not established" from one search); bad input refused.
# No rate is asserted (the host is shared): the search's own logic is pinned by
# tests/unit/t_mlr.c against simulated DUTs. Runs as root, about 30 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtndr_$nb_id
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "needs nft"
netns_add $P-gen || skip_all "cannot create network namespaces"
netns_add $P-sink || { notok "namespaces"; exit 1; }
veth_pair $P-gen nbnd-g $P-sink nbnd-s 198.18.30.1/24 198.18.30.2/24 || skip_all "no veth support"
ip netns exec $P-sink nft -f - <<'NFT' || skip_all "nftables cannot load the sink's policer"
table inet nbtndr {
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5381 limit rate over 20000/second burst 2000 packets drop
	}
}
NFT
G="ip netns exec $P-gen"
RX="--local-rx $P-sink/198.18.30.2 --data-port 5381"

# 1. Two searches of NDR and PDR (the default ratios), final trials of 0.6 s.
$G "$NB" rate $RX -s 64 -T 0.3 --drain 50ms -r 40k --resolution 5% -m ndrpdr --repeat 2 \
	--final-trial 0.6 -J >"$tmp/two.json" 2>"$tmp/two.err"
st=$?
json_check "$tmp/two.json" "
p = d['parameters']; s = d['sizes'][0]; r = s['loss_ratios']
assert p['procedure'] == 'ndrpdr' and p['loss_ratios_pct'] == [0, 0.5], p
assert p['final_trial_ns'] == 600000000 and p['repeat'] == 2, p
assert [x['loss_ratio_pct'] for x in r] == [0, 0.5], r
for x in r:
    assert x['searches'] == 2 and len(x['fps_per_search']) == 2, x
    assert all(0 <= f <= 40000 for f in x['fps_per_search']), x
    assert x['degrees_of_freedom'] == 1 and x['fps_ci95'] is not None, x
    assert 'mean of 2 searches' in x['text'] and '95 % interval' in x['text'], x['text']
# A laxer ratio is never below a stricter one, search by search.
for a, b in zip(r[0]['fps_per_search'], r[1]['fps_per_search']):
    assert a <= b, (a, b)
assert s['fps'] == r[0]['fps_mean'], (s['fps'], r[0])
fin = [t for t in s['trials'] if t['purpose'] == 'final']
sea = [t for t in s['trials'] if t['purpose'] == 'search']
assert fin and sea, [t['purpose'] for t in s['trials']]
# A trial's schedule holds rate x length frames (a held-up sender sends fewer, never more):
# search trials at most 0.3 s worth, final ones more (0.6 s unless the host held them up); a
# final trial's window is at least its length.
assert all(t['window_s'] >= 0.6 for t in fin), [t['window_s'] for t in fin]
assert all(t['tx_frames'] <= t['asked_fps'] * 0.3 + 1 for t in sea), sea
assert max(t['tx_frames'] / t['asked_fps'] for t in fin) > 0.45, fin
" >"$tmp/chk1" 2>&1
check "ndrpdr, 2 searches: both ratios per search, NDR <= PDR, final trials 0.6 s, the 95 % interval's sentence (status $st)" test $? -eq 0 ||
	{ sed 's/^/# /' "$tmp/chk1" | tail -3; sed 's/^/# /' "$tmp/two.err" | tail -3; }

# 2. One search, text output: the sentence says the spread is not established.
$G "$NB" rate $RX -s 64 -T 0.3 --drain 50ms -r 40k --resolution 5% --loss-ratios 0,1 \
	>"$tmp/one.out" 2>&1
st=$?
check "--loss-ratios 0,1 alone runs ndrpdr; one search: 'not established' for each ratio (status $st)" \
	sh -c "grep -q '64 B NDR (0 % loss): .* not established' '$tmp/one.out' &&
		grep -q '64 B loss <= 1 %: .* not established' '$tmp/one.out'" ||
	sed 's/^/# /' "$tmp/one.out" | tail -5

# 3. Bad input: exit 2, the option named.
RN="$NB rate --local-rx 127.0.0.1 -s 64 -T 0.2"
check_refused "refused: --loss-ratios 0.5,0" 2 "increase" $RN --loss-ratios 0.5,0
check_refused "refused: --loss-ratios 50" 2 "loss-ratios" $RN --loss-ratios 50
check_refused "refused: --loss-ratios 0,0.1,0.2,0.3,0.4" 2 "at most 4" \
	$RN --loss-ratios 0,0.1,0.2,0.3,0.4
check_refused "refused: --loss-ratios 0,0.5 -m b2b" 2 "loss-ratios" $RN --loss-ratios 0,0.5 -m b2b
check_refused "refused: --final-trial 2 -m throughput" 2 "final-trial" \
	$RN --final-trial 2 -m throughput
check_refused "refused: -m ndrpdr --loss-tolerance 1" 2 "loss-tolerance" \
	$RN -m ndrpdr --loss-tolerance 1
check_refused "refused: -m ndrpdr --repeat 33" 2 "at most 32" $RN -m ndrpdr --repeat 33

check_schemas "$tmp"
echo "1..$n"
