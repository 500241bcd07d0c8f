#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench stream across network namespaces: a sender and two receivers on one bridge
# (veth to a bridge namespace), and a second sender for the source-specific test.
#
#   nbtstr-s  198.18.50.1 --+
#   nbtstr-s2 198.18.50.4 --+-- bridge in nbtstr-br
#   nbtstr-r1 198.18.50.2 --+
#   nbtstr-r2 198.18.50.3 --+
#
# Checks: multicast reaches both receivers with the same count (mcsend/mcrecv's command lines as
# written); a 4/8/12 Mbit/s sweep with a warm-up before each step is within 1 % with zero loss
# and counts only the window; softirq is non-zero under load;
# interop with iperf2 both ways; SSM join (and a non-matching source is not received); bad input.
# The namespaces are built here, not with `netbench lab up`: the lab is a routed line (gen, DUT,
# sink), and a multicast group with several receivers needs them on one bridge.
NB=${NETBENCH:?NETBENCH must name the netbench binary}
. "$(dirname "$0")/../lib.sh"
P=nbtstr_$nb_id
tmp=$nb_tmp

inns() { _ns=$1; shift; ip netns exec "$P-$_ns" "$@"; }
bg() { # ns, output file, command...: runs in the background (lib.sh's nb_bg), pid in $last
	_ns=$1 _out=$2; shift 2
	nb_bg "$_out" - ip netns exec "$P-$_ns" "$@"
	last=$nb_bg_pid
}
# bound PROTO PORT GROUP|- NS...: in each namespace something has bound PORT (udp, or tcp:
# listening) and joined GROUP (unless -): a receiver or an agent started in the background is
# waited for (wait_until) before anything is sent to it.
bound() {
	_pr=$1 _po=$2 _g=$3; shift 3
	for _ns; do
		inns "$_ns" ss -Hln --"$_pr" "sport = :$_po" | grep -q . || return 1
		[ "$_g" = - ] || inns "$_ns" ip maddr show | awk -v g="$_g" '$2 == g { f = 1 } END { exit !f }' ||
			return 1
	done
}
# Values of a numeric JSON key, one per line, in document order.
jvals() { grep "\"$1\":" "$2" | sed 's/.*: *//; s/,$//'; }
# Is every value within pct % of the expected one?
within() { # values-file expected pct
	awk -v e="$2" -v p="$3" 'BEGIN{bad=0; c=0} {c++; d=($1-e)/e*100; if (d<0) d=-d; if (d>p) bad=1}
		END{exit (bad || c==0)}' "$1"
}

need_root
netns_add "$P-br" 2>/dev/null || skip_all "cannot create network namespaces"
for ns in s s2 r1 r2; do netns_add "$P-$ns" || { notok "namespace $P-$ns"; exit 1; }; done
inns br ip link add br0 type bridge
inns br ip link set br0 up
i=1
for ns in s r1 r2 s2; do
	veth_pair "$P-br" "b-$ns" "$P-$ns" eth0 - "198.18.50.$i/24" || { notok "veth to $ns"; exit 1; }
	inns br ip link set "b-$ns" master br0
	# Multicast without --iface follows the routing table: mcsend/mcrecv's have none.
	inns "$ns" ip route add 224.0.0.0/4 dev eth0
	i=$((i + 1))
done
# Until duplicate address detection (the link-local sources of 5b) and the bridge ports settle.
settled() {
	for ns in s r1 r2 s2; do inns "$ns" ip -6 addr show tentative | grep -q . && return 1; done
	! inns br bridge link show | grep -v "state forwarding" | grep -q .
}
wait_until 10 "link-local addresses past DAD and bridge ports forwarding" settled

# 1. mcsend/mcrecv's command lines, as written: both receivers count the same datagrams.
bg r1 "$tmp/r1.txt" "$NB" stream --recv -a 225.1.2.3 -p 12345
r1=$last
bg r2 "$tmp/r2.txt" "$NB" stream --recv -a 225.1.2.3 -p 12345
r2=$last
wait_until 5 "the receivers on 225.1.2.3" bound udp 12345 225.1.2.3 r1 r2
inns s "$NB" stream --send -a 225.1.2.3 -p 12345 -b 8192 -t 3 >"$tmp/s.txt" 2>&1
check "mcsend-style sender command line runs" [ $? -eq 0 ]
wait "$r1"; st1=$?
wait "$r2"; st2=$?
check "both receivers end on the sender's end marker" \
	sh -c "[ $st1 -eq 0 ] && [ $st2 -eq 0 ] && grep -q 'end: end marker' $tmp/r1.txt && grep -q 'end: end marker' $tmp/r2.txt"
c1=$(awk '$1 ~ /^[0-9.]+$/ && NF > 10 {print $3}' "$tmp/r1.txt")
c2=$(awk '$1 ~ /^[0-9.]+$/ && NF > 10 {print $3}' "$tmp/r2.txt")
sent=$(awk '$1 ~ /^[0-9.]+$/ && NF >= 8 {print $3}' "$tmp/s.txt")
check "both receivers got the same datagram count as sent ($c1, $c2 of $sent)" \
	sh -c "[ -n '$sent' ] && [ '$c1' = '$sent' ] && [ '$c2' = '$sent' ]"

# 2. A sweep at 4/8/12 Mbit/s: achieved within 1 %, zero loss, on both receivers (JSON).
bg r1 "$tmp/r1.json" "$NB" stream --recv -a 225.1.2.3 -p 12346 --iface eth0 -J
r1=$last
bg r2 "$tmp/r2.json" "$NB" stream --recv -a 225.1.2.3 -p 12346 -J
r2=$last
wait_until 5 "the receivers on 225.1.2.3" bound udp 12346 225.1.2.3 r1 r2
inns s "$NB" stream --send -a 225.1.2.3 -p 12346 --iface eth0 --ttl 1 --rates 4M,8M,12M -t 2 \
	-O 0.5 -J >"$tmp/s.json" 2>&1
wait "$r1"
wait "$r2"
check "sender's JSON names the warm-up (omit_s 0.5)" grep -q '"omit_s": 0.5' "$tmp/s.json"
# 4/8/12 Mbit/s of 8192-byte datagrams: 0.5 s of warm-up is 31, 61, 92 datagrams.
check "sender planned 31/61/92 warm-up datagrams before each window" \
	[ "$(jvals omit_datagrams "$tmp/s.json" | tr '\n' ' ')" = "31 61 92 " ]
jvals datagrams "$tmp/s.json" >"$tmp/s.counts"
for r in r1 r2; do
	jvals rate_bps "$tmp/$r.json" >"$tmp/$r.rates"
	check "$r: 3 steps reported" [ "$(wc -l <"$tmp/$r.rates")" -eq 3 ]
	sed -n 1p "$tmp/$r.rates" >"$tmp/a" && sed -n 2p "$tmp/$r.rates" >"$tmp/b" &&
		sed -n 3p "$tmp/$r.rates" >"$tmp/c"
	if within "$tmp/a" 4000000 1 && within "$tmp/b" 8000000 1 && within "$tmp/c" 12000000 1; then
		ok "$r: achieved rates within 1 % of 4/8/12 Mbit/s ($(tr '\n' ' ' <"$tmp/$r.rates"))"
	else
		notok "$r: achieved rates within 1 % of 4/8/12 Mbit/s ($(tr '\n' ' ' <"$tmp/$r.rates"))"
	fi
	check "$r: zero loss in each of the 3 steps" \
		[ "$(grep -c '"lost": 0,' "$tmp/$r.json")" -eq 3 ]
	jvals datagrams "$tmp/$r.json" >"$tmp/$r.counts"
	check "$r: counts only the window, the sender's window counts ($(tr '\n' ' ' <"$tmp/$r.counts"))" \
		cmp -s "$tmp/s.counts" "$tmp/$r.counts"
	check "$r: the warm-up's datagrams arrived and were set aside (31/61/92)" \
		[ "$(jvals warmup_datagrams_received "$tmp/$r.json" | tr '\n' ' ')" = "31 61 92 " ]
	# The step's own window_s (6 spaces deep), not its CPU object's.
	grep '^      "window_s":' "$tmp/$r.json" | sed 's/.*: *//; s/,$//' >"$tmp/$r.win"
	check "$r: each step's window is 2 s, warm-up excluded ($(tr '\n' ' ' <"$tmp/$r.win"))" \
		awk '{c++; if ($1 < 1.95 || $1 > 2.0) bad=1} END {exit (bad || c != 3)}' "$tmp/$r.win"
	check "$r: every step valid, with a valid CPU window" \
		sh -c "! grep -q '\"valid\": false' $tmp/$r.json && [ \$(grep -c '\"valid\": true' $tmp/$r.json) -eq 6 ]"
done

# 3. Softirq under load: receive work runs in softirq, outside any process.
bg r1 "$tmp/hi.json" "$NB" stream --recv -a 225.1.2.3 -p 12347 -J
r1=$last
wait_until 5 "the receiver on 225.1.2.3" bound udp 12347 225.1.2.3 r1
inns s "$NB" stream --send -a 225.1.2.3 -p 12347 -r 800M -t 2 >/dev/null 2>&1
wait "$r1"
sirq=$(jvals sys_softirq_pct "$tmp/hi.json" | head -1)
check "receiver's softirq share is non-zero under load (${sirq} %)" \
	awk -v v="$sirq" 'BEGIN{exit !(v > 0)}'

# 4. Interop with iperf2, both ways.
if command -v iperf >/dev/null 2>&1; then
	bg r1 "$tmp/iperf-s.txt" iperf -s -u -B 225.1.2.3 -p 12348
	ip1=$last
	wait_until 5 "iperf -s on 225.1.2.3" bound udp 12348 225.1.2.3 r1
	# iperf2 counts every datagram it receives: no warm-up, so its total is ours.
	inns s "$NB" stream --send -a 225.1.2.3 -p 12348 -b 1470 -r 4M -t 2 -O 0 >"$tmp/s2.txt" 2>&1
	wait_until 5 "iperf's report of the stream" grep -Eq '[0-9]+/ *[0-9]+ *\(' "$tmp/iperf-s.txt"
	kill "$ip1" 2>/dev/null
	wait "$ip1" 2>/dev/null
	sent=$(awk '$1 ~ /^[0-9.]+$/ && NF >= 8 {print $3}' "$tmp/s2.txt")
	# iperf2 reports "Lost/Total Datagrams" as "0/NNN (0%)" at our end marker.
	check "iperf2 receives netbench's multicast stream, 0 lost of $sent" \
		grep -Eq " 0/ *$sent *\(0%\)" "$tmp/iperf-s.txt"

	bg r1 "$tmp/fr.txt" "$NB" stream --recv -a 225.1.2.3 -p 12349 --idle 1
	r1=$last
	wait_until 5 "the receiver on 225.1.2.3" bound udp 12349 225.1.2.3 r1
	inns s iperf -c 225.1.2.3 -u -T 1 -b 4M -t 2 -p 12349 >"$tmp/iperf-c.txt" 2>&1
	wait "$r1"
	check "netbench counts iperf2's stream as foreign and says loss cannot be known" \
		grep -q "loss, reordering and jitter cannot be known" "$tmp/fr.txt"
	fr=$(awk 'f && $1 ~ /^[0-9.]+$/ {print $1; exit} /Mbit\/s/ && prev ~ /achieved/ {f=1} {prev=$0}' "$tmp/fr.txt")
	# iperf2 paces itself a little fast; compare with the rate it reports for itself.
	ir=$(grep -o '[0-9.]* Mbits/sec' "$tmp/iperf-c.txt" | tail -1 | cut -d' ' -f1)
	check "foreign stream's rate $fr Mbit/s agrees with iperf2's own $ir Mbit/s (2 %)" \
		awk -v v="$fr" -v w="$ir" 'BEGIN{exit !(w > 0 && v > w * 0.98 && v < w * 1.02)}'
else
	skip "iperf2 not installed"
	skip "iperf2 not installed"
	skip "iperf2 not installed"
fi

# 5. Source-specific join: the named source is received, another is not.
bg r1 "$tmp/ssm1.txt" "$NB" stream --recv -a 232.1.2.3 -p 12350 --source 198.18.50.1 --iface eth0 -t 4
r1=$last
bg r2 "$tmp/ssm2.txt" "$NB" stream --recv -a 232.1.2.3 -p 12350 --source 198.18.50.1 --iface eth0 -t 4
r2=$last
wait_until 5 "the receivers on 232.1.2.3" bound udp 12350 232.1.2.3 r1 r2
nb_bg "$tmp/ssm-s.txt" - inns s "$NB" stream --send -a 232.1.2.3 -p 12350 -r 2M -t 1
ssms=$nb_bg_pid
inns s2 "$NB" stream --send -a 232.1.2.3 -p 12350 -r 2M -t 1 >"$tmp/ssm-s2.txt" 2>&1
wait "$ssms"
wait "$r1"
wait "$r2"
sent=$(awk '$1 ~ /^[0-9.]+$/ && NF >= 8 {print $3}' "$tmp/ssm-s.txt")
c1=$(awk '$1 ~ /^[0-9.]+$/ && NF > 10 {print $3}' "$tmp/ssm1.txt")
check "SSM join receives the named source ($c1 of $sent)" sh -c "[ -n '$sent' ] && [ '$c1' = '$sent' ]"
check "... and not the other sender on the same group (no second stream)" \
	sh -c "! grep -q 'another netbench stream' $tmp/ssm1.txt"
bg r2 "$tmp/ssm3.txt" "$NB" stream --recv -a 232.1.2.3 -p 12351 --source 198.18.50.9 -t 2
r2=$last
wait_until 5 "the receiver on 232.1.2.3" bound udp 12351 232.1.2.3 r2
inns s "$NB" stream --send -a 232.1.2.3 -p 12351 -r 2M -t 1 >/dev/null 2>&1
wait "$r2"
check "a non-matching source is not received" grep -q "no datagrams received" "$tmp/ssm3.txt"

# 5b. IPv6: an any-source join on ff15::/16 and a source-specific one, over link-local sources.
if inns r1 sh -c 'ip -6 addr show dev eth0 | grep -q inet6'; then
	bg r1 "$tmp/v6a.txt" "$NB" stream --recv -a ff15::1:2 -p 12354 --iface eth0 -t 4
	r1=$last
	s6=$(inns s ip -6 addr show dev eth0 scope link | awk '/inet6/ {sub(/\/.*/, "", $2); print $2; exit}')
	bg r2 "$tmp/v6b.txt" "$NB" stream --recv -a ff3e::4321 -p 12355 --iface eth0 --source "$s6" -t 4
	r2=$last
	wait_until 5 "the receivers on ff15::1:2 and ff3e::4321" bound udp 12354 ff15::1:2 r1 &&
		wait_until 5 "the receivers on ff15::1:2 and ff3e::4321" bound udp 12355 ff3e::4321 r2
	nb_bg "$tmp/v6s.txt" - inns s "$NB" stream --send -a ff15::1:2 -p 12354 --iface eth0 --ttl 2 -r 2M -t 1
	v6s=$nb_bg_pid
	inns s "$NB" stream --send -a ff3e::4321 -p 12355 --iface eth0 -r 2M -t 1 >"$tmp/v6s2.txt" 2>&1
	wait "$v6s"
	wait "$r1"
	wait "$r2"
	sent=$(awk '$1 ~ /^[0-9.]+$/ && NF >= 8 {print $3}' "$tmp/v6s.txt")
	c1=$(awk '$1 ~ /^[0-9.]+$/ && NF > 10 {print $3}' "$tmp/v6a.txt")
	check "IPv6 group ff15::1:2: all $sent datagrams received ($c1)" \
		sh -c "[ -n '$sent' ] && [ '$c1' = '$sent' ]"
	sent=$(awk '$1 ~ /^[0-9.]+$/ && NF >= 8 {print $3}' "$tmp/v6s2.txt")
	c2=$(awk '$1 ~ /^[0-9.]+$/ && NF > 10 {print $3}' "$tmp/v6b.txt")
	check "IPv6 source-specific join (MCAST_JOIN_SOURCE_GROUP) from $s6: $c2 of $sent" \
		sh -c "[ -n '$sent' ] && [ '$c2' = '$sent' ]"
else
	skip "no IPv6 on the veth"
	skip "no IPv6 on the veth"
fi

# 5c. Via agents: two agents join one group and each reports; --reverse makes the agent send.
# 225.1.2.3 is outside the administrative scope: these agents are widened to allow it.
bg r1 "$tmp/serve1.log" "$NB" serve -p 5391 --allow-mcast-any
a1=$last
bg r2 "$tmp/serve2.log" "$NB" serve -p 5391
a2=$last
wait_until 5 "the agents listening" bound tcp 5391 - r1 r2
inns s "$NB" stream -c 198.18.50.2,198.18.50.3 --ctl-port 5391 -a 225.1.2.3 -p 12356 \
	--rates 4M,8M -t 1 -J >"$tmp/ag.json" 2>"$tmp/ag.err"
check "controller with two agents on one group exits 0 $(head -c 200 "$tmp/ag.err")" [ $? -eq 0 ]
check "both agents report 2 steps each with zero loss" \
	[ "$(grep -c '"lost": 0,' "$tmp/ag.json")" -eq 4 ]
check "both agents' counts match what was sent, step by step" \
	[ "$(grep '"datagrams":' "$tmp/ag.json" | sed 's/[^0-9]//g' | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')" = "3 3 " ]
check "every agent step is valid" sh -c "! grep -q '\"valid\": false' $tmp/ag.json"
inns s "$NB" stream -c 198.18.50.2,198.18.50.3 --ctl-port 5391 -a 232.1.2.4 -p 12360 \
	--source 198.18.50.1 --iface eth0 -r 2M -t 1 >"$tmp/agssm.txt" 2>&1
check "agents join source-specifically on their --iface: both count every datagram" \
	sh -c "[ $? -eq 0 ] && [ \$(awk '\$1 == \"2.00\" && NF > 10 && \$4 == 0 && \$3 > 0' $tmp/agssm.txt | wc -l) -eq 2 ]"
# One of two agents receives nothing (its namespace drops the stream): exit 1, the agent named.
inns r2 nft add table inet nbtstr_drop &&
	inns r2 nft add chain inet nbtstr_drop in '{ type filter hook input priority 0; }' &&
	inns r2 nft add rule inet nbtstr_drop in udp dport 12361 drop
inns s "$NB" stream -c 198.18.50.2,198.18.50.3 --ctl-port 5391 -a 225.1.2.3 -p 12361 -r 2M -t 1 \
	>"$tmp/none.txt" 2>"$tmp/none.err"
st=$?
check "an agent that received nothing: exit 1 (got $st), the agent named" sh -c "
	[ $st -eq 1 ] && grep -q 'agent 198.18.50.3 received no datagram of the 1 step sent to 225.1.2.3 port 12361' '$tmp/none.err' &&
	! grep -q 'agent 198.18.50.2 received no' '$tmp/none.err'"
inns r2 nft delete table inet nbtstr_drop
inns s "$NB" stream -c 198.18.50.2 --ctl-port 5391 --reverse -a 225.1.2.3 -p 12357 -r 4M -t 1 \
	>"$tmp/rev.txt" 2>&1
check "--reverse over multicast: the agent sends, this host counts it all" \
	sh -c "[ $? -eq 0 ] && awk '/received here/ {f=1} f && \$1 == \"4.00\" {n++; ok = (\$4 == 0 && \$3 > 0)} END {exit !(n == 1 && ok)}' $tmp/rev.txt"
inns s "$NB" stream -c 198.18.50.2 --ctl-port 5391 --reverse -a 198.18.50.1 -p 12358 -r 2M -t 1 \
	>"$tmp/rev2.txt" 2>&1
check "--reverse unicast to the controller itself is allowed" [ $? -eq 0 ]
inns s "$NB" stream -c 198.18.50.2 --ctl-port 5391 --reverse -a 198.18.50.3 -p 12358 -r 2M -t 1 \
	>"$tmp/rev3.txt" 2>&1
st=$?
check "--reverse unicast to another host's address: a failure naming it (exit $st)" \
	sh -c "[ $st -eq 1 ] && grep -q '198.18.50.3 is not an address of this host' $tmp/rev3.txt"
inns s "$NB" stream -c 198.18.50.2 --ctl-port 5391 -r 2M -t 1 >"$tmp/uni.txt" 2>&1
check "without -a, a unicast stream to the agent: every datagram counted" \
	sh -c "[ $? -eq 0 ] && awk '\$1 == \"2.00\" && NF > 10 {n++; ok = (\$4 == 0 && \$3 > 0)} END {exit !(n == 1 && ok)}' $tmp/uni.txt"
inns s "$NB" stream -c 198.18.50.2 --ctl-port 5391 --reverse -r 2M -t 1 >"$tmp/uni2.txt" 2>&1
check "--reverse without -a: the agent streams to this host" \
	sh -c "[ $? -eq 0 ] && awk '/received here/ {f=1} f && \$1 == \"2.00\" {n++; ok = (\$4 == 0 && \$3 > 0)} END {exit !(n == 1 && ok)}' $tmp/uni2.txt"
kill "$a2" 2>/dev/null
wait "$a2" 2>/dev/null
bg r2 "$tmp/serve3.log" "$NB" serve -p 5391 --max-rate 1M --allow-mcast-any
a2=$last
wait_until 5 "the agent listening" bound tcp 5391 - r2
inns s "$NB" stream -c 198.18.50.3 --ctl-port 5391 --reverse -a 225.1.2.3 -p 12359 -r 2M -t 1 \
	>"$tmp/rev4.txt" 2>&1
st=$?
check "--reverse above the agent's --max-rate is refused by its rule (exit $st)" \
	sh -c "[ $st -eq 1 ] && grep -q 'refused by rule max-rate' $tmp/rev4.txt"
kill "$a1" "$a2" 2>/dev/null
wait "$a1" 2>/dev/null
wait "$a2" 2>/dev/null

# 6. Bad input: one clear line naming the input, exit 2 (what this host lacks: exit 1).
check_refused "unicast address with --ttl" 2 "--ttl applies to multicast only" \
	inns s "$NB" stream --send -a 198.18.50.2 --ttl 4 -t 1
check_refused "unicast address with --source" 2 "--source applies to multicast only" \
	inns r1 "$NB" stream --recv -a 198.18.50.2 --source 198.18.50.1
check_refused "group outside 224.0.0.0/4" 2 "224.0.0.0/4" inns s "$NB" stream --send -a 240.1.2.3 -t 1
check_refused "IPv6 unicast with --loop names ff00::/8" 2 "ff00::/8" \
	inns s "$NB" stream --send -a ::1 --loop -t 1
check_refused "missing interface (this host's, not the command line's: exit 1)" 1 "--iface nbtstr-nope: no such network interface" \
	inns r1 "$NB" stream --recv -a 225.1.2.3 --iface nbtstr-nope
veth_pair "$P-r1" nbtstr-d0 "$P-r1" nbtstr-d1
check_refused "interface without an address (exit 1)" 1 "--iface nbtstr-d0 has no IPv4 address" \
	inns r1 "$NB" stream --recv -a 225.1.2.3 --iface nbtstr-d0
bg r1 /dev/null "$NB" stream --recv -a 225.1.2.3 -p 12352 -t 5
hold=$last
wait_until 5 "the receiver on port 12352" bound udp 12352 225.1.2.3 r1
check_refused "port in use (exit 1)" 1 "-p 12352: port in use" inns r1 "$NB" stream --recv -a 225.1.2.3 -p 12352 -t 1
kill "$hold" 2>/dev/null
wait "$hold" 2>/dev/null
check_refused "block larger than a UDP datagram" 2 "--block is too large: 65508 (at most 65507" \
	inns s "$NB" stream --send -a 225.1.2.3 -b 65508
check_refused "block smaller than the header" 2 "--block is too small" \
	inns s "$NB" stream --send -a 225.1.2.3 -b 20
check_refused "rate list syntax" 2 "--rates" inns s "$NB" stream --send -a 225.1.2.3 --rates 1M:2M:y3
check_refused "--recv with --omit: the warm-up is the sender's" 2 "--recv takes the warm-up from the sender" \
	inns r1 "$NB" stream --recv -a 225.1.2.3 -O 1
check_refused "--omit beyond an hour" 2 "--omit is too large" inns s "$NB" stream --send -a 225.1.2.3 -O 7200
# A bitrate the link cannot carry is a result (achieved vs asked, loss), not an error.
if inns s tc qdisc add dev eth0 root tbf rate 4mbit burst 32kb latency 20ms 2>/dev/null; then
	# 1400-byte datagrams, unfragmented: the window sees the link's rate once the bucket's
	# initial burst has passed in the warm-up.
	bg r1 "$tmp/lim.txt" "$NB" stream --recv -a 198.18.50.2 -p 12353 -t 3
	r1=$last
	wait_until 5 "the receiver on port 12353" bound udp 12353 - r1
	inns s "$NB" stream --send -a 198.18.50.2 -p 12353 -r 20M -b 1400 -t 1 >/dev/null 2>&1
	st=$?
	wait "$r1"
	lim=$(awk '$1 == "20.00" {print $2, $4; exit}' "$tmp/lim.txt")
	check "a rate beyond the link is reported as achieved (the link's 4 Mbit/s) vs asked, with loss, exit 0 ($lim)" \
		sh -c "[ $st -eq 0 ] && echo '$lim' | awk '{exit !(\$1 > 3 && \$1 < 4.5 && \$2 > 0)}'"
	# 8192-byte datagrams are 6 fragments each: past the burst, hardly one arrives whole.
	bg r1 "$tmp/lim2.txt" "$NB" stream --recv -a 198.18.50.2 -p 12353 -t 3
	r1=$last
	wait_until 5 "the receiver on port 12353" bound udp 12353 - r1
	inns s "$NB" stream --send -a 198.18.50.2 -p 12353 -r 20M -t 1 >/dev/null 2>&1
	wait "$r1"
	lim=$(awk '$1 == "20.00" {print $2, $3, $4; exit}' "$tmp/lim2.txt")
	check "a window with (nearly) nothing received is counted as loss, not invalid ($lim)" \
		sh -c "! grep -q invalid $tmp/lim2.txt && echo '$lim' | awk '{exit !(\$3 > 250 && (\$1 == \"-\" || \$1 < 1))}'"
	inns s tc qdisc del dev eth0 root
else
	skip "tc tbf not available"
	skip "tc tbf not available"
fi

check_schemas "$tmp"
echo "1..$n"
