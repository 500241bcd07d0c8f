#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench stream -i (issue "UX round 3", item 6) and stream's exit status for what the system
# refuses, between two namespaces joined by a veth pair:
#
#   nbtsiv-s 198.18.72.1 eth0 --- eth0 198.18.72.2 nbtsiv-r
#
# Checks: with -i 1 and 3 s steps at known rates, each step gets 3 interval lines, all before
# the result table (under their own heading), whose datagrams and lost add up to the step's row,
# each near the step's rate; with -J the lines go to stderr and stdout stays the document;
# the same with -c AGENT --reverse (this host receives); -i's range and the modes that refuse it
# (exit 2). Exit status: a join on an interface that does not exist, one without a multicast
# route ("join: No such device"), a port in use and no route to the destination are failures
# (exit 1); a real usage error stays 2.
NB=${NETBENCH:?NETBENCH must name the netbench binary}
. "$(dirname "$0")/../lib.sh"
P=nbtsiv_$nb_id
tmp=$nb_tmp

inns() { _ns=$1; shift; ip netns exec "$P-$_ns" "$@"; }
bg() { # ns, stdout file, stderr file, command...: in the background (lib.sh's nb_bg), pid in $last
	_ns=$1 _out=$2 _err=$3; shift 3
	nb_bg "$_out" "$_err" ip netns exec "$P-$_ns" "$@"
	last=$nb_bg_pid
}
# bound PORT GROUP|- NS: something in NS has bound UDP PORT (and joined GROUP unless -).
bound() {
	inns "$3" ss -Hlnu "sport = :$1" | grep -q . || return 1
	[ "$2" = - ] || inns "$3" ip maddr show | awk -v g="$2" '$2 == g { f = 1 } END { exit !f }'
}
# intervals FILE: the interval lines (asked, datagrams, lost, Mbit/s), one per line.
intervals() {
	awk '/^Intervals of / {f = 1; next} f && / s .* datagrams .* lost / {
		for (i = 1; i <= NF; i++) if ($i == "datagrams") print $1, $(i - 1), $(i + 1), $(i + 5) }' "$1"
}
# rows FILE: the receiver table's rows after the line "received here" or the table head
# (asked, datagrams, lost).
rows() {
	awk '/^   asked  achieved/ {f = 1; next} f && $1 ~ /^[0-9.]+$/ && NF > 10 { print $1, $3, $4 }' "$1"
}
# sums_match INTERVALS ROWS: for each row, its intervals' datagrams and lost add up to it, and
# there are N (3) of them, each within 5 % of the asked rate.
sums_match() {
	awk -v want="$3" 'NR == FNR { n[$1]++; d[$1] += $2; l[$1] += $3
			if ($4 < $1 * 0.95 || $4 > $1 * 1.05) bad = bad " rate " $4 " for " $1; next }
		{ rows++; if (n[$1] != want || d[$1] != $2 || l[$1] != $3)
			bad = bad " step " $1 ": " n[$1] " intervals, " d[$1] "/" $2 " datagrams, " l[$1] "/" $3 " lost" }
		END { if (bad != "" || rows == 0) { print "#" bad; exit 1 } }' "$1" "$2"
}

need_root
netns_add "$P-s" 2>/dev/null || skip_all "cannot create network namespaces"
netns_add "$P-r" || { notok "namespace $P-r"; exit 1; }
netns_add "$P-e" || { notok "namespace $P-e"; exit 1; }
veth_pair "$P-s" eth0 "$P-r" eth0 198.18.72.1/24 198.18.72.2/24 || { notok "veth pair"; exit 1; }
for ns in s r; do inns "$ns" ip route add 224.0.0.0/4 dev eth0; done

# 1. --recv -i 1, a 2-step multicast sweep of 3 s steps at 4 and 8 Mbit/s.
bg r "$tmp/recv.txt" "$tmp/recv.err" "$NB" stream --recv -a 225.1.2.3 -p 12401 -i 1
rcv=$last
wait_until 5 "the receiver on 225.1.2.3" bound 12401 225.1.2.3 r
inns s "$NB" stream --send -a 225.1.2.3 -p 12401 --rates 4M,8M -t 3 -O 0.3 >"$tmp/send.txt" 2>&1
check "the sender ran (exit $?)" [ $? -eq 0 ]
wait "$rcv"
st=$?
check "--recv -i 1 ends on the end marker, exit 0 (exit $st)" \
	sh -c "[ $st -eq 0 ] && grep -q 'end: end marker' '$tmp/recv.txt'"
intervals "$tmp/recv.txt" >"$tmp/iv"
rows "$tmp/recv.txt" >"$tmp/rows"
sed 's/^/# interval /' "$tmp/iv"
sed 's/^/# row /' "$tmp/rows"
check "3 interval lines per 3 s step, whose datagrams and lost add up to the step's row" \
	sums_match "$tmp/iv" "$tmp/rows" 3
check "the interval lines all come before the table, none inside it" \
	awk '/^   asked  achieved/ {t = 1} t && / s .* datagrams .* lost / {bad = 1}
		/ s .* datagrams .* lost / {c++} END {exit (bad || c != 6)}' "$tmp/recv.txt"
check "an interval line names its Mbit/s, jitter and the receiver's CPU" \
	grep -q '^      4.00   0.00-  1.00 s .* Mbit/s  jitter .* ms  proc .* %  softirq .* %$' "$tmp/recv.txt"

# 2. The same with -J: the lines on stderr, the document alone on stdout.
bg r "$tmp/recv.json" "$tmp/recvj.err" "$NB" stream --recv -a 225.1.2.3 -p 12402 -i 1 -J
rcv=$last
wait_until 5 "the receiver on 225.1.2.3" bound 12402 225.1.2.3 r
inns s "$NB" stream --send -a 225.1.2.3 -p 12402 -r 4M -t 3 -O 0.3 >/dev/null 2>&1
wait "$rcv"
check "-J -i: stdout is the JSON document alone" sh -c "python3 -m json.tool '$tmp/recv.json' >/dev/null"
check "-J -i: the interval lines on stderr (3)" \
	[ "$(grep -c ' s .* datagrams .* lost ' "$tmp/recvj.err")" -eq 3 ]

# 3. -c AGENT --reverse -i 1: the agent sends, this host receives and reports intervals.
bg s "$tmp/serve.log" /dev/null "$NB" serve -p 5401
listening() { inns s ss -Hltn "sport = :$1" | grep -q .; }
wait_until 5 "the agent listening" listening 5401
inns r "$NB" stream -c 198.18.72.1 --ctl-port 5401 --reverse -a 239.1.2.3 -p 12403 \
	--rates 4M,8M -t 3 -O 0.3 -i 1 >"$tmp/rev.txt" 2>&1
st=$?
check "--reverse -i 1 runs (exit $st)" [ $st -eq 0 ] || sed 's/^/# /' "$tmp/rev.txt" | head
intervals "$tmp/rev.txt" >"$tmp/iv"
awk '/received here/ {f = 1} f' "$tmp/rev.txt" >"$tmp/rev.rx"
rows "$tmp/rev.rx" >"$tmp/rows"
check "--reverse: 3 intervals per step, adding up to the rows received here" \
	sums_match "$tmp/iv" "$tmp/rows" 3
check "--reverse: the interval lines come before the tables" \
	awk '/^sent:/ {t = 1} t && / s .* datagrams .* lost / {bad = 1} END {exit bad}' "$tmp/rev.txt"

# 4. -i's range and where it applies: usage errors naming the input.
check_refused "-i below 0.1 s" 2 "interval is too small: 0.01 (at least 100ms)" \
	inns r "$NB" stream --recv -a 225.1.2.3 -i 0.01
check_refused "-i that is not a duration" 2 "-i/--interval: 'soon' is not" \
	inns r "$NB" stream --recv -a 225.1.2.3 -i soon
check_refused "-i longer than -t" 2 "--interval is longer than --time" \
	inns r "$NB" stream -c 198.18.72.1 --ctl-port 5401 --reverse -t 1 -i 2
check_refused "-i with --send: the receiver's counters" 2 "give it to the --recv end" \
	inns s "$NB" stream --send -a 225.1.2.3 -t 1 -i 1
check_refused "-i with agents receiving" 2 "the agents receive" \
	inns r "$NB" stream -c 198.18.72.1 --ctl-port 5401 -a 225.1.2.3 -t 1 -i 1

# 5. Exit status: what the system refuses is a failure (1), a wrong command line a usage error (2).
check_refused "--recv --iface that does not exist: exit 1" 1 "--iface nbtsiv-nope: no such network interface" \
	inns r "$NB" stream --recv -a 225.1.2.3 --iface nbtsiv-nope -t 1
# An empty namespace (loopback only, no multicast route): the join finds no interface.
check_refused "a join without a multicast route ('No such device'): exit 1" 1 "join (IP_ADD_MEMBERSHIP): No such device" \
	inns e "$NB" stream --recv -a 225.1.2.3 -t 1
check_refused "--send without a route to the address: exit 1" 1 "no route to 198.18.99.1" \
	inns e "$NB" stream --send -a 198.18.99.1 -t 1
check_refused "--recv on an address of another host: exit 1" 1 "198.18.72.1 is not an address of this host" \
	inns r "$NB" stream --recv -a 198.18.72.1 -t 1
bg r /dev/null /dev/null "$NB" stream --recv -a 225.1.2.3 -p 12404 -t 10
hold=$last
wait_until 5 "the receiver on port 12404" bound 12404 225.1.2.3 r
check_refused "a port in use: exit 1" 1 "-p 12404: port in use" \
	inns r "$NB" stream --recv -a 225.1.2.3 -p 12404 -t 1
kill "$hold" 2>/dev/null
wait "$hold" 2>/dev/null
check_refused "with an agent, no route to the stream's address: exit 1" 1 "no route to 198.18.99.1" \
	inns r "$NB" stream -c 198.18.72.1 --ctl-port 5401 -a 198.18.99.1 -t 1
check_refused "a real usage error stays 2 (--ttl with a unicast address)" 2 "--ttl applies to multicast only" \
	inns r "$NB" stream --recv -a 198.18.72.2 --ttl 2 -t 1
echo "1..$n"
