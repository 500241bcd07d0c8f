#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput reports the sender's TCP segments and retransmissions over each window (TCP_INFO at the
# window's edges; the agent's through its counters): over a veth pair whose both ends drop every
# 50th data segment they receive (nftables, numgen inc), both directions retransmit, and each
# direction's figures lie within what the sending namespace's own kernel counted over the whole
# run (/proc/net/snmp Tcp OutSegs and RetransSegs; the window is part of the run). UDP has none.
# Every 50th, not 2 % at random: a random drop may drop a retransmission again and again, and the
# sender's timer, doubling each time, then stalls the connection past the whole 1 s window (seen
# once: the Rx step sent one segment, a retransmission). After a counted drop the next 49 pass.
. "${TOP:-.}/tests/lib.sh"
need_root
command -v nft >/dev/null || skip_all "needs nft"
C=nbtrt_$nb_id-c S=nbtrt_$nb_id-s
netns_add $C && netns_add $S || skip_all "cannot create network namespaces"
veth_pair $C nbtrt-vc $S nbtrt-vs 198.18.46.1/24 198.18.46.2/24 || skip_all "cannot build the veth pair"
for x in "$C nbtrt-vc" "$S nbtrt-vs"; do
	set -- $x
	ip netns exec "$1" nft -f - <<NFT || skip_all "nftables ingress hook not available"
table netdev nbtrt {
	chain in {
		type filter hook ingress device "$2" priority 0;
		meta l4proto tcp meta length > 1000 numgen inc mod 50 == 0 counter drop
	}
}
NFT
done
agent $S -- -p 5304 -B 198.18.46.2 || skip_all "agent did not start"

snmp() { # namespace field: the Tcp line's field of /proc/net/snmp as that namespace sees it
	ip netns exec "$1" awk -v f="$2" '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) k[i] = $i; h = 1 }
		else for (i = 2; i <= NF; i++) if (k[i] == f) print $i }' /proc/net/snmp
}
c_out0=$(snmp $C OutSegs) c_re0=$(snmp $C RetransSegs) s_out0=$(snmp $S OutSegs) s_re0=$(snmp $S RetransSegs)
ip netns exec $C "$NETBENCH" tput -c 198.18.46.2 -p 5304 -l 64k -t 1 -O 0.3 -J >"$nb_tmp/t.json" 2>"$nb_tmp/t.err"
c_out=$(($(snmp $C OutSegs) - c_out0)) c_re=$(($(snmp $C RetransSegs) - c_re0))
s_out=$(($(snmp $S OutSegs) - s_out0)) s_re=$(($(snmp $S RetransSegs) - s_re0))
drops=$(ip netns exec $S nft list table netdev nbtrt | sed -n 's/.*packets \([0-9]*\).*/\1/p')
check "the run's data crossed the dropping ends ($drops segments dropped at the agent's)" [ "${drops:-0}" -gt 0 ]
for dir in tx rx; do
	if [ $dir = tx ]; then out=$c_out re=$c_re who="this host"; else out=$s_out re=$s_re who="the agent"; fi
	set -- $(json_check "$nb_tmp/t.json" '
s = [x for x in d["steps"] if x["direction"] == "'$dir'"][0]
t = s["tcp"]
print(s["valid"], t["segs_out"], t["retrans_segs"], t["retrans_pct"])') x x x x
	check "$dir: a valid step with the sender's TCP segments ($1 $2 sent, $3 retransmitted)" \
		sh -c '[ "$1" = True ] && [ "$2" -gt 0 ]' _ "$1" "$2" ||
		json_check "$nb_tmp/t.json" 'print("# " + json.dumps([x for x in d["steps"] if x["direction"] == "'$dir'"][0]))'
	check "$dir: $who retransmitted within the window ($3 of $2, $4 %)" [ "$3" -gt 0 ]
	check "$dir: within what $who's kernel counted over the run ($2 <= $out sent, $3 <= $re retransmitted)" \
		sh -c '[ "$1" -le "$2" ] && [ "$3" -le "$4" ]' _ "$2" "$out" "$3" "$re"
	check "$dir: retrans_pct is retransmitted over sent ($4)" \
		awk -v p="$4" -v r="$3" -v o="$2" 'BEGIN { exit !(o > 0 && (p - 100 * r / o) ^ 2 < 1e-6) }'
done
ip netns exec $C "$NETBENCH" tput -c 198.18.46.2 -p 5304 -l 64k -t 1 -O 0.3 >"$nb_tmp/t.txt" 2>&1
if grep -q 'TCP segments of the sender over each window' "$nb_tmp/t.txt" &&
	grep -Eq '^ +64k +Tx +[0-9]+ +[0-9]+ +[0-9.]+ +[a-z0-9_-]+$' "$nb_tmp/t.txt" &&
	grep -Eq '^ +64k +Rx +[0-9]+ +[0-9]+ +[0-9.]+ +[a-z0-9_-]+$' "$nb_tmp/t.txt"; then
	ok "the table has the sender's segments and congestion control per step and direction"
else
	notok "the table has the sender's segments and congestion control per step and direction"
	sed 's/^/# /' "$nb_tmp/t.txt" | head -40
fi
ip netns exec $C "$NETBENCH" tput -c 198.18.46.2 -p 5304 -u -b 10M -l 1k -t 0.5 -O 0.2 -J >"$nb_tmp/u.json" 2>&1
check "UDP: no TCP segments in the document" json_check "$nb_tmp/u.json" '
assert all("tcp" not in s and "congestion" not in s for s in d["steps"]), d["steps"]'
check_schemas "$nb_tmp/t.json" "$nb_tmp/u.json"
echo "1..$n"
