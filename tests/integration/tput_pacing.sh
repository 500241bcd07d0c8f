#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput -b paces with the shared pacer: over loopback at 100 Mbit/s in 1 KByte datagrams (12 k per
# second), the default (burst) and --pacing spin, both directions (the agent's sender too):
# the pacing mode and the pacers' own CPU are in the JSON, burst's pacing CPU is below spin's,
# and the rate holds (within 10 %: this host's sender shares its process with the receiver).
# Bad --pacing/--burst values are usage errors.
. "${TOP:-.}/tests/lib.sh"
need_root
netns_add nbtpp || skip_all "cannot create network namespaces"
agent nbtpp -- -p 5303 || skip_all "agent did not start"
tp() { ip netns exec nbtpp "$NETBENCH" tput -c 127.0.0.1 -p 5303 -u -r 100M -l 1k -t 1 -O 0.3 "$@"; }

tp --bidir -J >"$nb_tmp/burst.json" 2>&1
tp --bidir -J --pacing spin >"$nb_tmp/spin.json" 2>&1
fig() { # file direction: mode pacing-cpu-% mbit/s
	json_check "$1" '
s = [x for x in d["steps"] if x["direction"] == "'$2'"][0]
print(s["pacing"]["mode"], s["pacing"]["cpu_pct"], s["mbit_per_s"], s["pacing"]["wakeups"])'
}
for dir in tx rx; do
	set -- $(fig "$nb_tmp/burst.json" $dir)
	b_mode=$1 b_cpu=$2 b_rate=$3 b_wake=$4
	set -- $(fig "$nb_tmp/spin.json" $dir)
	s_mode=$1 s_cpu=$2 s_wake=$4
	who=$([ $dir = tx ] && echo "this host's" || echo "the agent's")
	check "$dir: default pacing is burst, spin is spin ($b_mode, $s_mode)" \
		sh -c '[ "$1" = burst ] && [ "$2" = spin ]' _ "$b_mode" "$s_mode"
	check "$dir: $who pacers wake once per group ($b_wake) where spin waits per datagram ($s_wake)" \
		awk -v b="$b_wake" -v s="$s_wake" 'BEGIN{exit !(b ~ /^[0-9]+$/ && b > 0 && b * 4 < s)}'
	check "$dir: $who pacing CPU $b_cpu % (< 5 %, below spin's $s_cpu %)" \
		awk -v b="$b_cpu" -v s="$s_cpu" 'BEGIN{exit !(b ~ /^[0-9.]+$/ && b < 5 && b < s)}'
	# A sanity bound (a broken schedule is off by far more); the rate's precision is stream's
	# test, on a path that does not share the CPU with a receiver in the same process.
	check "$dir: rate with burst pacing $b_rate Mbit/s (within 10 % of 100)" \
		awk -v r="$b_rate" 'BEGIN{exit !(r > 90 && r < 110)}'
done
check_rc "--pacing txtime: usage error (stream only)" 2 "$NETBENCH" tput -c 127.0.0.1 --pacing txtime
check_rc "--burst with --pacing spin: usage error" 2 \
	"$NETBENCH" tput -c 127.0.0.1 -u --pacing spin --burst 8
check_rc "--burst 0: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -u --burst 0
check_schemas "$nb_tmp"
echo "1..$n"
