#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --flow-fields src-ip (docs/rate.md, "Flows"): the packet engine's flows come from
# the upper half of the generator's network, over IPv4 and IPv6: the sink's dynamic nftables set
# sees N distinct source addresses, and its per-address counters match --per-flow's counts (the
# trial's and the learning frames of each flow). --flow-fields dst-ip: flows go to a range the
# sink owns through a local route (AnyIP), routed to it by the generator, from both engines, to a
# local receiver and to an agent; the sink's set of destination addresses matches likewise; a
# range the receiver does not own is refused. --flow-fields dport likewise with the sink's set of
# destination ports. 65,536 flows by source address and 65,535 by source port (local receiver,
# and the latter to an agent). Through the lab's DUT to its sink's ranges. Bad input refused.
# Runs as root, about 70 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtflw_$nb_id
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "needs nft"
netns_add $P-gen || skip_all "cannot create network namespaces"
netns_add $P-sink || { notok "namespaces"; exit 1; }
veth_pair $P-gen nbfl-g $P-sink nbfl-s 198.18.33.1/24 198.18.33.2/24 2001:db8:33::1/64 \
	2001:db8:33::2/64 || skip_all "no veth support"
# The sink's destination ranges: its own through a local route, reached through it.
ip -n $P-sink route add local 198.18.34.0/24 dev lo
ip -n $P-gen route add 198.18.34.0/24 via 198.18.33.2
ip -n $P-sink -6 route add local 2001:db8:34::/64 dev lo
ip -n $P-gen -6 route add 2001:db8:34::/64 via 2001:db8:33::2
# Every source address of the test port's datagrams, with a counter each.
ip netns exec $P-sink nft -f - <<'NFT' || skip_all "nftables cannot load the sink's dynamic sets"
table inet nbtflw {
	set src4 { type ipv4_addr; size 65535; flags dynamic; counter; }
	set src6 { type ipv6_addr; size 65535; flags dynamic; counter; }
	set dst4 { type ipv4_addr; size 65535; flags dynamic; counter; }
	set dst6 { type ipv6_addr; size 65535; flags dynamic; counter; }
	set dports { type inet_service; size 65535; flags dynamic; counter; }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5393 add @src4 { ip saddr }
		udp dport 5393 add @src6 { ip6 saddr }
		udp dport 5394-6999 add @dst4 { ip daddr }
		udp dport 5394-6999 add @dst6 { ip6 daddr }
		udp dport 5400-6999 add @dports { udp dport }
	}
}
NFT
G="ip netns exec $P-gen"

# spread NAME SET ADDR FLOWS: one trial of FLOWS flows by source address and port, per flow.
spread() {
	name=$1 set=$2 addr=$3 flows=$4
	$G "$NB" rate --local-rx $P-sink/$addr --data-port 5393 -e packet -m trial -r 20k -T 0.5 \
		-s 128 --flows "$flows" --flow-fields src-ip,sport --per-flow -J >"$tmp/$name.json" \
		2>"$tmp/$name.err"
	st=$?
	ip netns exec $P-sink nft -j list set inet nbtflw "$set" >"$tmp/$name.set" 2>&1
	json_check "$tmp/$name.json" "
import ipaddress
s = json.load(open('$tmp/$name.set'))
elems = [x for x in s['nftables'] if 'set' in x][0]['set'].get('elem', [])
sink = {}
for e in elems:
    e = e['elem']
    sink[ipaddress.ip_address(e['val'])] = e['counter']['packets']
p = d['parameters']; t = d['sizes'][0]['trials'][0]; L = d['learning'][0]['received_per_flow']
first = ipaddress.ip_address(p['flow_src_first'])
assert p['flow_fields'] == 'src-ip,sport' and p['per_flow'], p
assert len(sink) == $flows, (len(sink), sorted(sink)[:3])
assert sorted(sink) == [first + f for f in range($flows)], (first, sorted(sink)[:3])
assert t['valid'] and t['lost_frames'] == 0, t
pf = t['per_flow']
assert len(pf['tx_frames']) == $flows and pf['tx_frames'] == pf['rx_frames'], pf
assert sum(pf['tx_frames']) == t['tx_frames'], pf
# Each source's counter: that flow's trial frames and its learning frames (any learning frame
# still in flight at the trial's start is late there).
for f in range($flows):
    c = sink[first + f]
    assert pf['rx_frames'][f] + L[f] <= c <= pf['rx_frames'][f] + L[f] + t['late_frames'], (f, c, pf['rx_frames'][f], L[f])
" >"$tmp/$name.chk" 2>&1
	check "$name: the sink saw $flows distinct sources from $(sed -n 's/.*\"flow_src_first\": \"\([^\"]*\)\".*/\1/p' "$tmp/$name.json") and each one's count matches --per-flow (status $st)" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/$name.chk" | tail -3; sed 's/^/# /' "$tmp/$name.err" | tail -3; }
}
spread ipv4 src4 198.18.33.2 100
spread ipv6 src6 2001:db8:33::2 300

# dst NAME FIELDS PORT FLOWS SET:FIRST[,SET:FIRST] RX...: one trial of FLOWS flows by FIELDS
# (destination address, port or both) to data port PORT, per flow, received by RX (--local-rx or
# -c); each SET of the sink (emptied first) must hold FIRST + f for every flow f, each with
# that flow's count.
dst() {
	name=$1 fields=$2 port=$3 flows=$4 sets=$5; shift 5
	for x in $(echo "$sets" | tr , ' '); do
		ip netns exec $P-sink nft flush set inet nbtflw "${x%%:*}"
	done
	$G "$NB" rate "$@" --data-port "$port" -m trial -r 20k -T 0.5 -s 128 --flows "$flows" \
		--flow-fields "$fields" --per-flow -J >"$tmp/$name.json" 2>"$tmp/$name.err"
	st=$?
	for x in $(echo "$sets" | tr , ' '); do
		ip netns exec $P-sink nft -j list set inet nbtflw "${x%%:*}" >"$tmp/$name.${x%%:*}" 2>&1
	done
	json_check "$tmp/$name.json" "
import ipaddress
p = d['parameters']; t = d['sizes'][0]['trials'][0]; L = d['learning'][0]['received_per_flow']
assert p['flow_fields'] == '$fields' and p['per_flow'], p
assert t['valid'] and t['lost_frames'] == 0, t
pf = t['per_flow']
assert len(pf['tx_frames']) == $flows and pf['tx_frames'] == pf['rx_frames'], pf
assert sum(pf['tx_frames']) == t['tx_frames'], pf
for x in '$sets'.split(','):
    name, first = x.split(':', 1)
    key = int if name == 'dports' else ipaddress.ip_address
    first = key(first)
    if name != 'dports':
        assert ipaddress.ip_address(p['flow_dst_first']) == first, p
    s = json.load(open('$tmp/$name.' + name))
    elems = [x for x in s['nftables'] if 'set' in x][0]['set'].get('elem', [])
    sink = {key(e['elem']['val']): e['elem']['counter']['packets'] for e in elems}
    assert sorted(sink) == [first + f for f in range($flows)], (name, len(sink), sorted(sink)[:3])
    for f in range($flows):
        c = sink[first + f]
        assert pf['rx_frames'][f] + L[f] <= c <= pf['rx_frames'][f] + L[f] + t['late_frames'], (name, f, c, pf['rx_frames'][f], L[f])
" >"$tmp/$name.chk" 2>&1
	check "$name: the sink saw $flows distinct destinations from $(echo "$sets" | sed 's/[a-z0-9]*://g') and each one's count matches --per-flow (status $st)" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/$name.chk" | tail -3; sed 's/^/# /' "$tmp/$name.err" | tail -3; }
}
dst dst4-udp dst-ip 5394 200 dst4:198.18.34.1 --local-rx $P-sink/198.18.34.1
dst dst4-packet dst-ip 5394 100 dst4:198.18.34.10 -e packet --local-rx $P-sink/198.18.34.10
dst dst6-udp dst-ip 5394 300 dst6:2001:db8:34::1 --local-rx $P-sink/2001:db8:34::1
dst dport-udp dport 5400 1000 dports:5400 --local-rx $P-sink/198.18.33.2 --threads 2
dst dport6-packet dst-ip,sport,dport 5400 300 dst6:2001:db8:34::1,dports:5400 -e packet \
	--local-rx $P-sink/2001:db8:34::1
# The agent in the sink checks the range itself and says so in its acknowledgement.
agent $P-sink -- -p 5395 || notok "agent in the sink"
dst dst4-agent dst-ip 5394 50 dst4:198.18.34.1 -c 198.18.33.2 -p 5395 --dst 198.18.34.1
dst dport-agent dst-ip,dport 5400 250 dst4:198.18.34.1,dports:5400 -c 198.18.33.2 -p 5395 \
	--dst 198.18.34.1

# A range the receiver does not own: refused before any frame is sent, naming the address.
$G "$NB" rate --local-rx $P-sink/198.18.34.250 --data-port 5394 -m trial -r 1k -T 0.2 \
	--flows 10 --flow-fields dst-ip >"$tmp/out" 2>&1
st=$?
check "local receiver: a range past its own (198.18.34.250 + 9) is refused (status $st)" test $st -eq 1
has "198.18.35.0 (flow 6) is not an address of the receiving host" ||
	{ notok "the refusal names the first address the sink does not own"; sed 's/^/# /' "$tmp/out"; }
$G "$NB" rate -c 198.18.33.2 -p 5395 --dst 198.18.33.2 --data-port 5394 -m trial -r 1k -T 0.2 \
	--flows 10 --flow-fields dst-ip >"$tmp/out" 2>&1
st=$?
check "agent: a range from its address past its own is refused (status $st)" test $st -eq 1
has "198.18.33.3 (flow 1) is not an address of the receiving host" ||
	{ notok "the agent's refusal names the first address it does not own"; sed 's/^/# /' "$tmp/out"; }

# The most flows a receiver counts: 65,536 by source address (IPv6: the upper half of the
# lowest 32 bits of the generator's /64), and 65,535 by source port (from --sport 1: every port
# but 0). Each case has a table of its own at the sink with one dynamic set (a second set updated
# by the same frames lost elements at this rate on a loaded host).
big() {
	name=$1 key=$2 flows=$3; shift 3
	ip netns exec $P-sink nft -f - <<NFT
table inet nbtbig {
	set k { type $key; size 131072; flags dynamic; counter; }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5396 add @k { $( [ "$key" = inet_service ] && echo "udp sport" || echo "ip6 saddr") }
	}
}
NFT
	$G "$NB" rate --data-port 5396 -e packet -m trial -r 30k -T 1 --flows "$flows" --per-flow \
		-J "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	st=$?
	ip netns exec $P-sink nft -j list set inet nbtbig k >"$tmp/$name.set" 2>&1
	ip netns exec $P-sink nft delete table inet nbtbig
	json_check "$tmp/$name.json" "
import ipaddress
key = int if '$key' == 'inet_service' else ipaddress.ip_address
s = json.load(open('$tmp/$name.set'))
elems = [x for x in s['nftables'] if 'set' in x][0]['set'].get('elem', [])
sink = {key(e['elem']['val']): e['elem']['counter']['packets'] for e in elems}
p = d['parameters']; t = d['sizes'][0]['trials'][0]; L = d['learning'][0]['received_per_flow']
first = key(p['flow_src_first']) if key is not int else 1
assert t['valid'], t['why'] if 'why' in t else t['valid']
pf = t['per_flow']
assert len(pf['tx_frames']) == $flows == len(L) and pf['tx_frames'] == pf['rx_frames'], 'per flow'
assert sorted(sink) == [first + f for f in range($flows)], (len(sink), sorted(sink)[:3])
for f in range($flows):
    c = sink[first + f]
    assert pf['rx_frames'][f] + L[f] <= c <= pf['rx_frames'][f] + L[f] + t['late_frames'], (f, c, pf['rx_frames'][f], L[f])
" >"$tmp/$name.chk" 2>&1
	check "$name: the sink saw $flows distinct ${key%%_*} values and each one's count matches --per-flow (status $st)" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/$name.chk" | tail -3; sed 's/^/# /' "$tmp/$name.err" | tail -3; }
}
big src65536 ipv6_addr 65536 --flow-fields src-ip --local-rx $P-sink/2001:db8:33::2 -s 84
big sport65535 inet_service 65535 --flow-fields sport --sport 1 \
	--local-rx $P-sink/2001:db8:33::2 -s 84
# And an agent's: its counts of 65,535 flows come back as runs of equal counts in one reply.
big sport65535-agent inet_service 65535 --flow-fields sport --sport 1 -c 198.18.33.2 -p 5395 \
	-s 64

# The packet engine writes one next hop's MAC into every frame: a range on the generator's own
# link (two addresses of the sink there) is refused, naming it.
ip -n $P-sink addr add 198.18.33.10/32 dev nbfl-s
ip -n $P-sink addr add 198.18.33.11/32 dev nbfl-s
$G "$NB" rate --local-rx $P-sink/198.18.33.10 --data-port 5394 -e packet -m trial -r 1k -T 0.2 \
	--flows 2 --flow-fields dst-ip >"$tmp/out" 2>&1
st=$?
check "packet engine: destinations on the link refused (status $st)" test $st -eq 1
has "198.18.33.10 to 198.18.33.11 are not routed through one gateway" ||
	{ notok "the refusal names the range"; sed 's/^/# /' "$tmp/out"; }

# Through the lab's DUT to its sink's ranges (docs/lab.md: 198.19.128.0/17, 2001:2:0:3::/64),
# flows by destination address and source port, counted by the lab's agent (on 198.19.0.1).
if lab_up ${P}l --ipv6; then
	LG="ip netns exec ${P}l-gen"
	for a in 198.19.128.0 2001:2:0:3::1; do
		$LG "$NB" rate -c 198.19.0.1 --dst $a -m trial -r 20k -T 0.5 -s 128 --flows 1000 \
			--flow-fields dst-ip,sport --per-flow -J >"$tmp/lab.json" 2>"$tmp/lab.err" ||
			true
		json_check "$tmp/lab.json" "
t = d['sizes'][0]['trials'][0]; pf = t['per_flow']
assert d['parameters']['flow_dst_first'] == '$a', d['parameters']
assert t['valid'] and t['lost_frames'] == 0 and pf['tx_frames'] == pf['rx_frames'], t
L = d['learning'][0]['received_per_flow']
assert len(pf['rx_frames']) == 1000 and len(L) == 1000 and min(L) > 0, (len(L), min(L))
" >"$tmp/lab.chk" 2>&1
		check "lab: 1000 flows to $a and up through the DUT, each flow's learning and trial frames counted by the sink's agent" \
			test $? -eq 0 || { tail -3 "$tmp/lab.chk"; tail -3 "$tmp/lab.err"; } | sed 's/^/# /'
	done
else
	notok "lab up --prefix ${P}l --ipv6"
fi

# Bad input: exit 2 and the reason.
RF="$G $NB rate --local-rx $P-sink/198.18.33.2 --data-port 5393 -m trial -r 1k -T 0.2"
check_refused "refused: -e packet --flows 128 --flow-fields src-ip" 2 "upper half holds 127" \
	$RF -e packet --flows 128 --flow-fields src-ip
check_refused "refused: --flows 4 --flow-fields src-ip" 2 "needs --engine packet" \
	$RF --flows 4 --flow-fields src-ip
check_refused "refused: --data-port 65000 --flows 600 --flow-fields dport" 2 "runs past port 65535" \
	$RF --data-port 65000 --flows 600 --flow-fields dport
check_refused "refused: --flows 1025 --flow-fields dport" 2 "at most 1024 (one receiving socket a port)" \
	$RF --flows 1025 --flow-fields dport
check_refused "refused: --flows 65537" 2 "at most 65536" $RF --flows 65537
check_rc "refused: 1025 flows by destination address to an agent" 2 "$NB" rate -c 127.0.0.1 \
	-m trial -r 1k -T 0.2 --flows 1025 --flow-fields dst-ip
has "at most 1024 with an agent" || notok "the refusal of 1025 destinations to an agent says why"
check_rc "refused: 32769 flows with round-trip probes" 2 "$NB" rate -c 127.0.0.1 --latency rtt \
	--sport 1 -m trial -r 1k -T 0.2 --flows 32769
has "top bit" || notok "the refusal of 32769 flows with probes says why"
check_refused "refused: --flow-fields src-mac" 2 "unknown field" $RF --flow-fields src-mac
check_rc "refused: --per-flow without a receiver" 2 "$NB" rate --dst 198.18.33.2 -m trial -r 1k \
	-T 0.2 --per-flow

check_schemas "$tmp"
echo "1..$n"
