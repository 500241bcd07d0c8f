#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --imix (docs/rate.md, "IMIX"): over a veth pair, IPv4 and IPv6, the sink's
# nftables counts the test port's datagrams by IP length: simple IMIX (64:7, 570:4, 1518:1) and
# a custom mix arrive in their proportions within 2 %, and the JSON's counts by size (sent from
# the pattern, received by length at the receiver) match the sink's. Then the mix as a search
# (its line rate from the mean frame) and bad input. Runs as root, about 15 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtimx_$nb_id
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "needs nft"
netns_add $P-gen || skip_all "cannot create network namespaces"
netns_add $P-sink || { notok "namespaces"; exit 1; }
veth_pair $P-gen nbim-g $P-sink nbim-s 198.18.31.1/24 198.18.31.2/24 2001:db8:31::1/64 \
	2001:db8:31::2/64 || skip_all "no veth support"
# One counter per frame size: IPv4 total length is the frame - 18 (Ethernet header and FCS),
# IPv6 payload length the frame - 58 (and the 40-byte IPv6 header).
ip netns exec $P-sink nft -f - <<'NFT' || skip_all "nftables cannot load the sink's counters"
table inet nbtimx {
	counter s64 { }
	counter s128 { }
	counter s570 { }
	counter s1518 { }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5391 ip length 46 counter name s64
		udp dport 5391 ip length 110 counter name s128
		udp dport 5391 ip length 552 counter name s570
		udp dport 5391 ip length 1500 counter name s1518
		udp dport 5391 ip6 length 70 counter name s128
		udp dport 5391 ip6 length 512 counter name s570
		udp dport 5391 ip6 length 1460 counter name s1518
	}
}
NFT
cnt() { ip netns exec $P-sink nft list counter inet nbtimx "s$1" | sed -n 's/.*packets \([0-9]*\).*/\1/p'; }
reset() { ip netns exec $P-sink nft reset counters table inet nbtimx >/dev/null; }
G="ip netns exec $P-gen"

# mixcase NAME ADDR MIX SIZES WEIGHTS: one 0.5 s trial at 20 kfps of the mix, 2 flows.
mixcase() {
	name=$1 addr=$2 mix=$3 sizes=$4 weights=$5
	reset
	$G "$NB" rate --local-rx $P-sink/$addr --data-port 5391 -m trial -r 20k -T 0.5 --flows 2 \
		--imix "$mix" -J >"$tmp/$name.json" 2>"$tmp/$name.err"
	st=$?
	counts=""
	for z in $sizes; do counts="$counts$(cnt $z),"; done
	json_check "$tmp/$name.json" "
sizes = [$(echo $sizes | tr ' ' ',')]; weights = [$(echo $weights | tr ' ' ',')]; sink = [$counts]
p = d['parameters']['imix']; t = d['sizes'][0]['trials'][0]; by = t['by_size']
assert [x['frame_bytes'] for x in p['sizes']] == sizes, p
assert [x['frame_bytes'] for x in by] == sizes, by
assert t['valid'] and t['lost_frames'] == 0, t
assert sum(x['tx_frames'] for x in by) == t['tx_frames'], by
assert all(x['rx_frames'] == x['tx_frames'] for x in by), by
total = sum(sink)
for z, w, c, x in zip(sizes, weights, sink, by):
    want = w / sum(weights)
    assert abs(c / total - want) <= 0.02, (z, c, total, want)
    # The sink also counted the learning frames (of the same mix), nothing else.
    assert x['rx_frames'] <= c <= x['rx_frames'] + d['learning'][0]['frames_received'], (z, c, x)
mean = sum(z * w for z, w in zip(sizes, weights)) / sum(weights)
assert abs(p['mean_frame_bytes'] - mean) < 0.001, p
s = d['sizes'][0]
assert abs(s['mbit_per_s'] - s['fps'] * mean * 8 / 1e6) < 0.01, s
" >"$tmp/$name.chk" 2>&1
	check "$name: the sink counted sizes $sizes as $counts in proportion $weights within 2 %, and the JSON's counts by size match (status $st)" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/$name.chk" | tail -3; sed 's/^/# /' "$tmp/$name.err" | tail -3; }
}
mixcase simple4 198.18.31.2 simple "64 570 1518" "7 4 1"
mixcase custom6 2001:db8:31::2 128:3,570:2,1518:5 "128 570 1518" "3 2 5"

# The mix in a search: line rate and % of line from the mean frame with 20 bytes of preamble and
# gap per frame; the text names the mix.
$G "$NB" rate --local-rx $P-sink/198.18.31.2 --data-port 5391 -T 0.3 --drain 50ms -r 20k \
	--line-rate 100M --resolution 5% --imix simple >"$tmp/search.out" 2>&1
st=$?
check "a throughput search of simple IMIX: the table's row is the mix, its mean frame 353.8 B (status $st)" \
	sh -c "grep -q 'imix simple: 64 B x 7, 570 B x 4, 1518 B x 1; the row is the mix' '$tmp/search.out' &&
		grep -q '^  354 B' '$tmp/search.out'" || sed 's/^/# /' "$tmp/search.out" | tail -5
$G "$NB" rate --local-rx $P-sink/198.18.31.2 --data-port 5391 -T 0.3 -m trial -r 20k \
	--line-rate 100M --imix simple -J >"$tmp/line.json" 2>/dev/null
json_check "$tmp/line.json" "
s = d['sizes'][0]; mean = (7 * 64 + 4 * 570 + 1518) / 12
want = 100 * s['fps'] * (mean + 20) * 8 / 100e6
assert abs(s['line_rate_pct'] - want) < 0.01, (s['line_rate_pct'], want)
" >/dev/null 2>&1
check "% of line of a mix: fps x (mean frame + 20 B) x 8 over the line rate" test $? -eq 0

# Bad input.
RI="$NB rate --local-rx 127.0.0.1 -m trial -r 1k -T 0.2"
check_refused "refused: --imix 32:1,128:1" 2 "64 to 9216" $RI --imix 32:1,128:1
check_refused "refused: --imix 64:0,128:1" 2 "weight" $RI --imix 64:0,128:1
check_refused "refused: --imix simple -s 64" 2 "exclude" $RI --imix simple -s 64
check_refused "refused: --imix simple -e packet" 2 "engine udp" $RI --imix simple -e packet
check_refused "refused: --imix 64:1" 2 "2 to 8 sizes" $RI --imix 64:1
ip netns exec $P-gen "$NB" rate --local-rx $P-sink/2001:db8:31::2 --data-port 5391 -m trial \
	-r 1k -T 0.2 --imix simple >"$tmp/v6.out" 2>&1
st=$?
check "simple IMIX over IPv6 refused: its 64-byte frames are below 84 (status $st)" \
	sh -c "[ $st -eq 2 ] && grep -q 'too small for IPv6' '$tmp/v6.out'"

check_schemas "$tmp"
echo "1..$n"
