#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate over IPv6 through `netbench lab up -6` (generator, forwarding DUT, sink): the
# packet engine's Ethernet/IPv6/UDP frames reach an ordinary UDP socket (so their checksums are
# right), the next hop's MAC comes from the IPv6 neighbour table, 84 bytes is the smallest frame;
# and round-trip latency through an agent reached over IPv6. Runs as root, about 10 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtrf6_$nb_id
G="ip netns exec $P-gen"
tmp=$nb_tmp

need_root
[ -e /proc/net/if_inet6 ] || skip_all "no IPv6 in this kernel"
# The lab with -6: gen 2001:2:0:1::1 -- DUT (forwarding) -- sink 2001:2:0:2::1, RFC 5180's
# benchmarking range, usable at once (no duplicate address detection); the test's own agent.
lab_up $P -6 --no-agent || { notok "netbench lab up -6 --prefix $P"; exit 1; }
RX="--local-rx $P-sink/2001:2:0:2::1 --data-port 5363"

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
	skip "the DUT forwarded IPv6/UDP from 2 source ports: no nftables"
fi

# 3. Bad input over IPv6.
$G "$NB" rate $RX -e packet -s 64 -T 0.2 --test trial -r 1k >"$tmp/bad1" 2>&1
st=$?
check "64-byte frame over IPv6 refused (status $st)" \
	sh -c "[ $st -eq 2 ] && grep -q '84' '$tmp/bad1'"
$G "$NB" rate --dst 2001:2:0:1::77 -e packet -s 84 -T 0.2 --test trial -r 1k >"$tmp/bad2" 2>&1
st=$?
check "no IPv6 neighbour: clear error (status $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'no neighbour entry for next hop 2001:2:0:1::77' '$tmp/bad2'"

# 4. Round trip through an agent reached over IPv6.
agent $P-sink -- -p 5364
$G "$NB" rate -c 2001:2:0:2::1 -p 5364 --data-port 5365 --latency rtt -e packet -s 84 -T 0.5 \
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
echo "1..$n"
