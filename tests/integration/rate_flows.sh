#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --flow-fields src-ip (docs/rate.md, "Flows"): the packet engine's flows come from
# the upper half of the generator's network, over IPv4 and IPv6: the sink's dynamic nftables set
# sees N distinct source addresses, and its per-address counters match --per-flow's counts (the
# trial's and the learning frames of each flow); bad input refused. Runs as root, about 10 s.
NB=${NETBENCH:?}
P=nbtflw
. "$(dirname "$0")/../lib.sh"
tmp=$nb_tmp

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
command -v nft >/dev/null || skip_all "needs nft"
netns_add $P-gen || skip_all "cannot create network namespaces"
netns_add $P-sink || { nok "namespaces"; exit 1; }
ip link add nbfl-g netns $P-gen type veth peer name nbfl-s netns $P-sink || skip_all "no veth support"
ip -n $P-gen addr add 198.18.33.1/24 dev nbfl-g
ip -n $P-sink addr add 198.18.33.2/24 dev nbfl-s
ip -n $P-gen addr add 2001:db8:33::1/64 dev nbfl-g nodad
ip -n $P-sink addr add 2001:db8:33::2/64 dev nbfl-s nodad
ip -n $P-gen link set nbfl-g up
ip -n $P-sink link set nbfl-s up
# Every source address of the test port's datagrams, with a counter each.
ip netns exec $P-sink nft -f - <<'NFT' || skip_all "nftables cannot load the sink's dynamic sets"
table inet nbtflw {
	set src4 { type ipv4_addr; size 65535; flags dynamic; counter; }
	set src6 { type ipv6_addr; size 65535; flags dynamic; counter; }
	chain in {
		type filter hook input priority 0; policy accept;
		udp dport 5393 add @src4 { ip saddr }
		udp dport 5393 add @src6 { ip6 saddr }
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

# Bad input: exit 2 and the reason.
bad() {
	need=$1; shift
	check_rc "refused: $*" 2 $G "$NB" rate --local-rx $P-sink/198.18.33.2 --data-port 5393 \
		-m trial -r 1k -T 0.2 "$@"
	has "$need" || nok "the refusal of '$*' names '$need'"
}
bad "upper half holds 127" -e packet --flows 128 --flow-fields src-ip
bad "needs --engine packet" --flows 4 --flow-fields src-ip
bad "not supported" -e packet --flows 4 --flow-fields dst-ip
bad "unknown field" --flow-fields src-mac
check_rc "refused: --per-flow without a receiver" 2 "$NB" rate --dst 198.18.33.2 -m trial -r 1k \
	-T 0.2 --per-flow

check_schemas "$tmp"
echo "1..$n"
