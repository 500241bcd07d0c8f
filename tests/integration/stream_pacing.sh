#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Pacing of netbench stream through a veth pair between two namespaces: the agent sends
# (--reverse) at 200 Mbit/s in 1316-byte datagrams (19 k datagrams/s, where the pacer used to
# spin) and its own report of its process CPU must stay well below a core, with the achieved
# rate within 0.5 % of asked; --pacing spin, run beside it, is the comparison. Mode selection:
# without an fq qdisc the default falls back to burst and says why, --pacing txtime is
# refused (standalone and on the agent); with fq (where the kernel has it) the default is
# txtime. --burst reaches the agent; bad --pacing/--burst values are usage errors.
#
#   nbtpc-a 198.18.61.1 (agent, sends) --veth-- 198.18.61.2 nbtpc-c (controller, receives)
. "${TOP:-.}/tests/lib.sh"
need_root
P=nbtpc N=nbtpc_$nb_id # interfaces $P-v*, namespaces this run's $N-*
netns_add $N-a || skip_all "cannot create network namespaces"
netns_add $N-c
veth_pair $N-a $P-va $N-c $P-vc 198.18.61.1/24 198.18.61.2/24 || skip_all "no veth"
agent $N-a -- -p 5302 || skip_all "agent did not start"
ctl() { ip netns exec $N-c "$NETBENCH" stream -c 198.18.61.1 --ctl-port 5302 "$@"; }

# Figures of one --reverse run's JSON: sender proc %, pacing %, mode, receiver rate, max late.
figures() {
	json_check "$1" '
s = d["sent"][0]; r = d["receivers"][0]["steps"][0]
print(s["cpu"]["proc_cpu_pct"], s["pacing"]["cpu_pct"], s["pacing"]["mode"],
      r["rate_bps"], s["max_late_ms"], r["gap_p50_us"], r["gap_p99_us"], s["pacing"]["burst"])'
}

# 1-6. Default against spin, interleaved, up to three rounds. CPU figures are compared within a
# round (a busy host lowers both); the rate and the gaps need a round where the host did not
# hold the sender up by 100 ms or more: the first such round decides, and the rate's bound
# (0.5 %) grows by what the sender's longest hold-up could cost the window.
quiet=0
for round in 1 2 3; do
	ctl --reverse -a 198.18.61.2 -r 200M -b 1316 -t 2 -O 0.3 -J >"$nb_tmp/def.json" 2>"$nb_tmp/def.err" &&
	ctl --reverse -a 198.18.61.2 -r 200M -b 1316 -t 2 -O 0.3 --pacing spin -J \
		>"$nb_tmp/spin.json" 2>"$nb_tmp/spin.err" || { cat "$nb_tmp"/*.err | sed 's/^/# /'; break; }
	set -- $(figures "$nb_tmp/def.json")
	d_proc=$1 d_pace=$2 d_mode=$3 d_rate=$4 d_late=$5 d_p50=$6 d_p99=$7 d_burst=$8
	set -- $(figures "$nb_tmp/spin.json")
	s_proc=$1 s_pace=$2 s_mode=$3 s_late=$5
	echo "# round $round: default $d_mode $d_burst: proc $d_proc %, pacing $d_pace %," \
		"rate $d_rate bit/s, max late $d_late ms, gaps p50 $d_p50 us p99 $d_p99 us;" \
		"spin: proc $s_proc %, pacing $s_pace %, max late $s_late ms"
	if awk -v a="$d_late" 'BEGIN{exit !(a ~ /^[0-9.]+$/ && a < 100)}'; then
		quiet=1
		break
	fi
done
check "default mode without fq is burst, 18 per wake-up ($d_mode $d_burst)" \
	sh -c '[ "$1" = burst ] && [ "$2" = 18 ]' _ "$d_mode" "$d_burst"
check "spin mode is reported as spin ($s_mode)" [ "$s_mode" = spin ]
check "agent's sender process CPU at 200 Mbit/s, 1316 B: $d_proc % (< 50 %, spin: $s_proc %)" \
	awk -v p="$d_proc" 'BEGIN{exit !(p ~ /^[0-9.]+$/ && p < 50)}'
check "of which pacing: $d_pace % (< 5 % and under half of spin's $s_pace %)" \
	awk -v p="$d_pace" -v s="$s_pace" 'BEGIN{exit !(p ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && p < 5 && p < s / 2)}'
if [ "$quiet" = 1 ]; then
	# 0.5 %, plus what the sender's longest hold-up by the host could cost the 2 s window.
	check "achieved rate within 0.5 % of 200 Mbit/s ($d_rate bit/s, max late $d_late ms)" \
		awk -v r="$d_rate" -v l="$d_late" 'BEGIN{d=(r-200e6)/200e6*100; if (d<0) d=-d;
			exit !(r > 0 && d < 0.5 + l / 2000 * 100)}'
	check "the receiver's gaps show the bursts: p50 $d_p50 us < 52 us < p99 $d_p99 us" \
		awk -v a="$d_p50" -v b="$d_p99" 'BEGIN{exit !(a ~ /^[0-9.]+$/ && a < 52 && b > 52)}'
else
	skip "achieved rate: the host held the sender up by 100 ms or more in every round"
	skip "gaps: the host held the sender up by 100 ms or more in every round"
fi
check "JSON says why the kernel does not pace" json_check "$nb_tmp/def.json" '
p = d["pacing"]
assert p["asked"] == "auto" and p["mode"] == "burst", p
assert p["iface"] == "'$P-va'" and p["qdisc"] == "noqueue", p
assert "not fq" in p["kernel_pacing_unavailable"], p
s = d["sent"][0]["pacing"]
assert s["wakeups"] > 0 and s["cpu_s"] >= 0 and s["cpu_pct"] is not None, s
r = d["receivers"][0]["steps"][0]
assert r["gaps"] == r["datagrams"] - 1, r'

# 5. The table shows the mode and the pacing column.
ctl --reverse -a 198.18.61.2 -r 8M -b 1316 -t 0.5 -O 0 --burst 4 >"$nb_tmp/out" 2>&1
check "--burst 4 reaches the agent: 'burst:4' in its table" has " burst:4 "
check "the table says why there is no kernel pacing" has "no kernel pacing: $P-va has qdisc noqueue, not fq"

# 6-8. --pacing txtime without fq: refused, by the standalone sender and by the agent.
check_rc "--send --pacing txtime without fq fails (exit 1)" 1 \
	ip netns exec $N-a "$NETBENCH" stream --send -a 198.18.61.2 -r 1M -t 0.2 --pacing txtime
check "... saying what is missing and how to add it" has "tc qdisc replace dev $P-va root fq"
check_rc "--reverse --pacing txtime: the agent refuses (exit 1)" 1 \
	ctl --reverse -a 198.18.61.2 -r 1M -t 0.2 --pacing txtime
check "... with the agent's reason" has "has qdisc noqueue, not fq"

# 9. With fq on the sending interface the default is txtime, where the kernel has sch_fq.
if ip -n $N-a link set $P-va up && tc -n $N-a qdisc replace dev $P-va root fq 2>/dev/null; then
	ctl --reverse -a 198.18.61.2 -r 20M -b 1316 -t 1 -O 0.2 -J >"$nb_tmp/fq.json" 2>&1
	check "with fq the default is txtime and the gaps are the interval" json_check "$nb_tmp/fq.json" '
p = d["pacing"]; s = d["sent"][0]; r = d["receivers"][0]["steps"][0]
assert p["mode"] == "txtime" and p["qdisc"] == "fq" and s["pacing"]["mode"] == "txtime", p
assert abs(r["rate_bps"] - 20e6) / 20e6 < 0.005, r["rate_bps"]
assert 400 < r["gap_p50_us"] < 650, r["gap_p50_us"]'
	tc -n $N-a qdisc del dev $P-va root
else
	skip "this kernel has no fq qdisc (sch_fq): kernel pacing cannot be tried here"
fi

# 10-14. Bad input: usage errors naming the option.
check_rc "--pacing fast: usage error" 2 "$NETBENCH" stream --send -a 127.0.0.1 --pacing fast
check "... naming the accepted modes" has "auto, burst, txtime or spin"
check_rc "--burst 0: usage error" 2 "$NETBENCH" stream --send -a 127.0.0.1 --burst 0
check_rc "--burst 5000: usage error" 2 "$NETBENCH" stream --send -a 127.0.0.1 --burst 5000
check_rc "--burst with --pacing spin: usage error" 2 \
	"$NETBENCH" stream --send -a 127.0.0.1 --pacing spin --burst 4
check_rc "--pacing with --recv: usage error" 2 "$NETBENCH" stream --recv -a 127.0.0.1 --pacing spin
check_schemas "$nb_tmp"
echo "1..$n"
