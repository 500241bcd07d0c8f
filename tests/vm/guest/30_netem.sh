#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: rate's latency through a DUT namespace whose egress to the sink delays
# every frame by 5 ms on netem itself (this host's kernel lacks netem, so
# tests/integration/rate_latency.sh falls back to tbf there). Emulation sends a few hundred
# frames/s: the trial asks for 1000/s (rate's least), the bound allows for the emulated
# machine's own delay, and every frame is accounted for by rate and by netem's own counter.
. "$TOP/tests/lib.sh"
# Busybox's shell runs its own ip and tc applets before any PATH lookup: use iproute2's.
ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }
NB=$NETBENCH
P=nbvne
G="ip netns exec $P-gen"
for x in gen dut sink; do netns_add $P-$x || { notok "namespace $P-$x"; exit 1; }; done
ip link add nbvne-g0 netns $P-gen type veth peer name nbvne-d0 netns $P-dut
ip link add nbvne-d1 netns $P-dut type veth peer name nbvne-s0 netns $P-sink
ip -n $P-gen addr add 198.18.37.1/24 dev nbvne-g0
ip -n $P-dut addr add 198.18.37.254/24 dev nbvne-d0
ip -n $P-dut addr add 198.19.37.254/24 dev nbvne-d1
ip -n $P-sink addr add 198.19.37.1/24 dev nbvne-s0
for l in "gen nbvne-g0" "dut nbvne-d0" "dut nbvne-d1" "sink nbvne-s0"; do
	set -- $l
	ip -n $P-$1 link set "$2" up
done
ip -n $P-gen route add 198.19.37.0/24 via 198.18.37.254
ip -n $P-sink route add 198.18.37.0/24 via 198.19.37.254
ip netns exec $P-dut sysctl -qw net.ipv4.ip_forward=1
check "netem qdisc with 5 ms delay on the DUT's egress to the sink" \
	ip netns exec $P-dut tc qdisc add dev nbvne-d1 root netem delay 5ms limit 100000
agent $P-sink -- -p 5371 || notok "agent in the sink"
A="-c 198.19.37.1 -p 5371 --data-port 5372"
q0=$(ip netns exec $P-dut tc -s qdisc show dev nbvne-d1 | sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -1)
$G "$NB" rate $A --latency oneway --test trial -r 1k -s 64 -T 1 --drain 200ms -J \
	>"$nb_tmp/ow.json" 2>"$nb_tmp/ow.err" || sed "s/^/# /" "$nb_tmp/ow.err" | head -5
check "one-way trial through netem completes" test -s "$nb_tmp/ow.json"
q1=$(ip netns exec $P-dut tc -s qdisc show dev nbvne-d1 | sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -1)
ow=$(sed -n '/"latency_ns": {/,/}/s/.*"p50": \([0-9.]*\).*/\1/p' "$nb_tmp/ow.json" | head -1)
tx=$(jnum tx_frames "$nb_tmp/ow.json")
rx=$(jnum rx_frames "$nb_tmp/ow.json")
echo "# one-way p50 ${ow:-none} ns; tx $tx rx $rx; netem sent $((${q1:-0} - ${q0:-0})) packets"
check "one-way p50 ${ow:-none} ns is at least netem's 5 ms and below 5 ms + 20 ms of emulation" \
	sh -c "[ -n '$ow' ] && [ '${ow%.*}' -ge 5000000 ] && [ '${ow%.*}' -lt 25000000 ]"
check "every frame arrived: rx $rx = tx $tx" sh -c "[ -n '$tx' ] && [ '$tx' -gt 0 ] && [ '$rx' = '$tx' ]"
check "netem's own counter saw every test frame ($((${q1:-0} - ${q0:-0})) >= $tx)" \
	sh -c "[ -n '$tx' ] && [ $((${q1:-0} - ${q0:-0})) -ge '$tx' ]"
