#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate over IPv6 across namespaces (generator, forwarding DUT, sink): the packet
# engine's Ethernet/IPv6/UDP frames reach an ordinary UDP socket (so their checksums are right),
# the next hop's MAC comes from the IPv6 neighbour table, 84 bytes is the smallest frame; and
# round-trip latency through an agent reached over IPv6. Runs as root, about 10 s.
NB=${NETBENCH:?}
P=nbtrf6
G="ip netns exec $P-gen"
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/nbtrf6.XXXXXX)

del_ns() { for x in gen dut sink; do ip netns del "$P-$x" 2>/dev/null; done; }
cleanup() {
	[ -s "$tmp/agent.pid" ] && kill "$(cat "$tmp/agent.pid")" 2>/dev/null
	del_ns
	rm -rf "$tmp"
	nb_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
[ -e /proc/net/if_inet6 ] || skip_all "no IPv6 in this kernel"
del_ns
ip netns add $P-gen 2>/dev/null || skip_all "cannot create network namespaces"
ip netns add $P-dut && ip netns add $P-sink || { nok "namespaces"; exit 1; }
for x in gen dut sink; do ip -n $P-$x link set lo up; done
ip link add nbtrf6-g0 netns $P-gen type veth peer name nbtrf6-d0 netns $P-dut &&
	ip link add nbtrf6-d1 netns $P-dut type veth peer name nbtrf6-s0 netns $P-sink ||
	skip_all "no veth support"
# RFC 5180's benchmarking range; nodad: usable at once.
ip -n $P-gen addr add 2001:2:0:36::1/64 dev nbtrf6-g0 nodad
ip -n $P-dut addr add 2001:2:0:36::fe/64 dev nbtrf6-d0 nodad
ip -n $P-dut addr add 2001:2:0:37::fe/64 dev nbtrf6-d1 nodad
ip -n $P-sink addr add 2001:2:0:37::1/64 dev nbtrf6-s0 nodad
for l in "gen nbtrf6-g0" "dut nbtrf6-d0" "dut nbtrf6-d1" "sink nbtrf6-s0"; do
	set -- $l
	ip -n $P-$1 link set "$2" up
done
ip -n $P-gen -6 route add 2001:2:0:37::/64 via 2001:2:0:36::fe
ip -n $P-sink -6 route add 2001:2:0:36::/64 via 2001:2:0:37::fe
ip netns exec $P-dut sysctl -qw net.ipv6.conf.all.forwarding=1
# Until duplicate address detection of the link-local addresses ends (about 2 s), a fresh veth
# does not answer neighbour solicitations: wait for it, as any host's network is up by then.
i=0
while [ $i -lt 50 ] && for x in gen dut sink; do ip -n $P-$x -6 addr; done | grep -q tentative; do
	sleep 0.1
	i=$((i + 1))
done
RX="--local-rx $P-sink/2001:2:0:37::1 --data-port 5363"
echo "1..9"

# 1. Packet engine over IPv6 through the DUT into a UDP socket: nothing lost at 10 kfps.
$G "$NB" rate $RX --realtime -e packet -s 84,1518 -T 0.5 -r 10k --flows 2 --test trial -J \
	>"$tmp/pkt.json" 2>"$tmp/pkt.err"
st=$?
tx=$(jnum tx_frames "$tmp/pkt.json")
[ $st -eq 0 ] || sed "s/^/# /" "$tmp/pkt.err"
check "packet engine over IPv6: trial runs (status $st, $tx frames)" \
	sh -c "[ $st -eq 0 ] && [ -n '$tx' ] && [ '$tx' -ge 4900 ]"
check "every IPv6 frame accepted by the sink's UDP socket (checksums right), both sizes" \
	sh -c "[ \$(grep -c '\"lost_frames\": 0,' '$tmp/pkt.json') -eq 2 ] &&
		[ \$(grep -c '\"rx_frames\": [1-9]' '$tmp/pkt.json') -eq 2 ]"
check "84-byte IPv6 frame carries the 18-byte payload" \
	sh -c "grep -A1 '\"frame_bytes\": 84' '$tmp/pkt.json' | grep -q '\"payload_bytes\": 18'"
check "result names the packet engine" grep -q '"engine": "packet"' "$tmp/pkt.json"

# 2. The DUT saw IPv6 UDP from both flows' source ports (the frames were really IPv6).
ip netns exec $P-dut nft -f - <<'NFT' && have_nft=1 || have_nft=""
table ip6 nbtrf6 {
	set sports { type inet_service; }
	chain forward_test {
		type filter hook forward priority 0; policy accept;
		udp dport 5363 add @sports { udp sport } accept
	}
}
NFT
if [ -n "$have_nft" ]; then
	$G "$NB" rate $RX -e packet -s 128 -T 0.3 -r 5k --flows 2 --test trial -J >/dev/null 2>&1
	nsp=$(ip netns exec $P-dut nft list set ip6 nbtrf6 sports | tr ',' '\n' | grep -c '4000[01]')
	check "the DUT forwarded IPv6/UDP from 2 source ports ($nsp)" test "$nsp" -eq 2
else
	ok "the DUT forwarded IPv6/UDP from 2 source ports # SKIP no nftables"
fi

# 3. Bad input over IPv6.
$G "$NB" rate $RX -e packet -s 64 -T 0.2 --test trial -r 1k >"$tmp/bad1" 2>&1
st=$?
check "64-byte frame over IPv6 refused (status $st)" \
	sh -c "[ $st -eq 2 ] && grep -q '84' '$tmp/bad1'"
$G "$NB" rate --dst 2001:2:0:36::77 -e packet -s 84 -T 0.2 --test trial -r 1k >"$tmp/bad2" 2>&1
st=$?
check "no IPv6 neighbour: clear error (status $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'no neighbour entry for next hop 2001:2:0:36::77' '$tmp/bad2'"

# 4. Round trip through an agent reached over IPv6.
ip netns exec $P-sink "$NB" serve -D -p 5364 --pid-file "$tmp/agent.pid" --log "$tmp/agent.log"
i=0
while [ ! -s "$tmp/agent.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
$G "$NB" rate -c 2001:2:0:37::1 -p 5364 --data-port 5365 --latency rtt -e packet -s 84 -T 0.5 \
	-r 5k --test trial -J >"$tmp/rtt.json" 2>"$tmp/rtt.err"
ret=$(jnum probes_returned "$tmp/rtt.json")
refl=$(jnum probes_reflected "$tmp/rtt.json")
got=$(jnum probes_received "$tmp/rtt.json")
check "IPv6 agent: every probe reflected and back (${ret:-none} of ${refl:-none} of ${got:-none})" \
	sh -c "[ -n '$ret' ] && [ '$ret' -gt 0 ] && [ '$ret' = '$refl' ] && [ '$refl' = '$got' ]"
check "IPv6 agent: round trip reported" \
	sh -c "grep -q '\"kind\": \"round-trip\"' '$tmp/rtt.json' &&
		grep -q '\"latency\": \"round-trip\"' '$tmp/rtt.json'"
check_schemas "$tmp"
