#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: stream's kernel pacing through the fq qdisc, which this host's kernel
# lacks. The sender's veth has fq as its root qdisc; `stream --pacing txtime --burst 8` hands
# groups of 8 datagrams to the kernel at once, each with its own transmit time: the mode must be
# txtime (not fallen back to burst), the achieved rate within 3 % of the asked, and the
# receiver's median gap near the 10 ms interval (within 20 %): it is fq that spaces them, a
# group left without it arrives back to back (a median gap of microseconds). Emulation is slow:
# 1 Mbit/s in 1250-byte datagrams, 100 per second, for 2 s.
#
#   nbvfq-s 198.18.38.1 (stream, sends; fq) --veth-- 198.18.38.2 nbvfq-r (agent, receives)
. "$TOP/tests/lib.sh"
# Busybox's shell runs its own ip and tc applets before any PATH lookup: use iproute2's.
ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }
NB=$NETBENCH
P=nbvfq
for x in s r; do netns_add $P-$x || { notok "namespace $P-$x"; exit 1; }; done
ip link add $P-vs netns $P-s type veth peer name $P-vr netns $P-r
ip -n $P-s addr add 198.18.38.1/24 dev $P-vs
ip -n $P-r addr add 198.18.38.2/24 dev $P-vr
ip -n $P-s link set $P-vs up
ip -n $P-r link set $P-vr up
check "fq qdisc on the sender's veth" ip netns exec $P-s tc qdisc replace dev $P-vs root fq
agent $P-r -- -p 5373 || notok "agent in the receiver's namespace"
ip netns exec $P-s "$NB" stream -c 198.18.38.2 --ctl-port 5373 -r 1M -b 1250 -t 2 -O 0.5 \
	--pacing txtime --burst 8 -J >"$nb_tmp/fq.json" 2>"$nb_tmp/fq.err" ||
	sed "s/^/# /" "$nb_tmp/fq.err" | head -5
check "stream --pacing txtime through fq completes" test -s "$nb_tmp/fq.json"
sed 's/^/NBVMJ stream_fq_txtime /' "$nb_tmp/fq.json" # to the host, which validates it
# The receiver's figures: the first of each after "receivers".
rx() { sed -n '/"receivers"/,$s/.*"'"$1"'": \([0-9.]*\).*/\1/p' "$nb_tmp/fq.json" | head -1; }
rate=$(rx rate_bps)
p50=$(rx gap_p50_us)
modes=$(grep -c '"mode": "txtime"' "$nb_tmp/fq.json")
echo "# txtime through fq: rate ${rate:-none} bit/s, receiver gap p50 ${p50:-none} us"
check "mode txtime, in the run and its step ($modes), on fq" \
	sh -c "[ '$modes' -ge 2 ] && grep -q '\"qdisc\": \"fq\"' '$nb_tmp/fq.json'"
check "achieved rate ${rate:-none} bit/s within 3 % of 1 Mbit/s" \
	awk -v r="$rate" 'BEGIN{exit !(r ~ /^[0-9.]+$/ && r > 970000 && r < 1030000)}'
check "receiver gap p50 ${p50:-none} us within 20 % of the 10000 us interval" \
	awk -v g="$p50" 'BEGIN{exit !(g ~ /^[0-9.]+$/ && g > 8000 && g < 12000)}'
echo "1..$n"
