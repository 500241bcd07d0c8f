#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The observer and the bottleneck verdict through the lab, as root. Each case makes one
# bottleneck on purpose and asserts the verdict, the counters it quotes, and that the lost frames
# are accounted for within 1 % (or the verdict says "unexplained"):
#   1,000 linear rules, the DUT steered to one CPU     -> DUT CPU bound (backlog drops)
#   a tbf shaper on the DUT's egress                   -> egress bound (qdisc drops)
#   a sink with a tiny receive buffer                  -> receiver bound (socket drops)
#   no rules and the generator held back (--rate)     -> the asked maximum, never "generator's"
# And the observer's limits: tuning refused by an agent without --allow-tuning, RPS restored
# after the run and after a controller that vanished, no cpufreq said in one line.
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtobs_$nb_id
need_tools ip nft tc python3
check "lab up with an observer in the DUT, its work steered to one CPU" lab_up $P --dut-cpus 1 || exit 1
rps=$(ip netns exec $P-dut cat /sys/class/net/dut0/queues/rx-0/rps_cpus)

# rate NAME ARGS...: rate from the generator (on CPU 0, lab_gen_rate) into $nb_tmp/NAME.json,
# its stderr in NAME.json.err
rate() {
	name=$1; shift
	lab_gen_rate $P "$nb_tmp/$name.json" "$@"
}
# verdict NAME: "kind lost accounted explained" of the first size, and the text in NAME.text
verdict() {
	python3 - "$nb_tmp/$1.json" "$nb_tmp/$1.text" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["sizes"][0]["bottleneck"]
open(sys.argv[2], "w").write(b["text"] + "\n")
print(b["kind"], b["lost"], b["accounted"], "yes" if b["explained"] else "no")
PY
}
# accounted NAME: every bottleneck either unexplained or within 1 % of its lost frames
accounted() {
	python3 - "$nb_tmp/$1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for s in d["sizes"]:
    b = s["bottleneck"]
    if b is None:
        continue
    if b["kind"] != "unexplained" and abs(b["accounted"] - b["lost"]) > b["lost"] / 100:
        bad += 1
    if b["kind"] == "unexplained" and b["explained"]:
        bad += 1
sys.exit(1 if bad else 0)
PY
}
show() { sed 's/^/# /' "$nb_tmp/$1.text" "$nb_tmp/$1.json.err" 2>/dev/null | tail -8; }

# --- DUT CPU bound: 1,000 linear rules on one DUT CPU, the generator flat out on the other.
# A slow trial first resolves the lab's neighbours: a DUT saturated from its first frame can
# lose its own ARP exchange in its full backlog, and every forwarded frame with it.
rate warm --test trial -T 0.2 --rate 2k
check "1,000 linear rules loaded" "$NETBENCH" lab ruleset --prefix $P --kind linear --rules 1000
rate cpu --test trial -T 1
set -- $(verdict cpu)
check "1,000 rules: rate exits 0 with a bottleneck" test -n "$1"
if [ "$1" = dut_cpu_bound ] && [ "$2" -gt 0 ] && [ "$4" = yes ]; then
	ok "1,000 rules: DUT CPU bound, $2 lost, $3 accounted"
else
	notok "1,000 rules: DUT CPU bound (got $*)"; show cpu
fi
check "1,000 rules: quotes the DUT CPU, time_squeeze, backlog drops and NIC misses" \
	grep -Eq '^DUT CPU bound: DUT cpu1 [0-9]+ % busy \([a-z]+ [0-9]+ %\), time_squeeze [0-9.kM]+/s, backlog drops [1-9][0-9.kM]*, NIC missed 0$' \
	"$nb_tmp/cpu.text"
check "1,000 rules: the lost frames are accounted for within 1 %" accounted cpu
check "1,000 rules: the window reports the DUT's CPU 1 as steered by RPS" python3 -c "
import json; o = json.load(open('$nb_tmp/cpu.json'))['sizes'][0]['trials'][0]['observers'][0]
assert o['dut_cpus'] == [1] and o['dut_cpus_rps'] and o['softnet']['dropped'] > 0, o['dut_cpus']
assert 0 <= o['observer_cpu_pct'] < 5 and o['window_s'] >= 1.0
"
check "rules flushed" "$NETBENCH" lab ruleset --prefix $P --flush

# --- egress bound: a 2 Mbit/s shaper on the DUT's way out, 20k frames/s offered (10 Mbit/s)
check "tbf shaper on the DUT's egress" ip netns exec $P-dut tc qdisc add dev dut1 root tbf \
	rate 2mbit burst 8kb latency 20ms
rate egress --test trial -T 1 --rate 20k
set -- $(verdict egress)
if [ "$1" = egress_bound ] && [ "$2" -gt 0 ] && [ "$4" = yes ]; then
	ok "tbf: egress bound, $2 lost, $3 accounted"
else
	notok "tbf: egress bound (got $*)"; show egress
fi
check "tbf: quotes the qdisc drops and the interface" \
	grep -Eq '^egress bound: qdisc drops [1-9][0-9.kM]* \(overlimits [0-9.kM]+\), tx_dropped [0-9.kM]+ on dut1(; DUT cpu1 [0-9]+ % busy \([a-z]+ [0-9]+ %\))?$' \
	"$nb_tmp/egress.text"
check "tbf: the lost frames are accounted for within 1 %" accounted egress
check "shaper removed" ip netns exec $P-dut tc qdisc del dev dut1 root

# --- receiver bound: the sink's socket buffer at the kernel's floor
rate recv --test trial -T 1 --rate 30k --rcvbuf 1
set -- $(verdict recv)
if [ "$1" = receiver_bound ] && [ "$2" -gt 0 ] && [ "$4" = yes ]; then
	ok "tiny receive buffer: receiver bound, $2 lost, $3 accounted"
else
	notok "tiny receive buffer: receiver bound (got $*)"; show recv
fi
check "tiny receive buffer: quotes the socket's drops" \
	grep -Eq "^receiver bound: the sink's socket dropped [1-9][0-9.kM]* of [1-9][0-9.kM]* lost frames" \
	"$nb_tmp/recv.text"
check "tiny receive buffer: receiver_dropped_frames in the trial, receiver_limited" python3 -c "
import json; z = json.load(open('$nb_tmp/recv.json'))['sizes'][0]; t = z['trials'][0]
assert t['receiver_dropped_frames'] > 0 and t['lost_frames'] > 0 and z['receiver_limited'] is True
"
check "tiny receive buffer: the lost frames are accounted for within 1 %" accounted recv

# --- the asked maximum: no rules, the generator held back to 5k frames/s by --rate: the user's
# cap, not the generator's maximum, and nothing known above it. It needs a DUT CPU with room:
# where other work on this host keeps CPU 1 busy, the verdict names it at its limit.
busy=$(cpu_busy_pct 1)
rate gen --quick --rate 5k
set -- $(verdict gen)
if [ "$busy" -ge 50 ]; then
	skip "held-back generator: the asked maximum: CPU 1 was $busy % busy with no test traffic (other work on this host)"
	check "held-back generator, DUT CPU busy: nothing lost, the CPU named at its limit" sh -c "
		[ '$2' -eq 0 ] && grep -Eq \"^(no loss at .*, the asked maximum .*|asked maximum reached .*; DUT cpu1 [0-9]+ % busy .*: the DUT is at its limit near this rate)$\" '$nb_tmp/gen.text'"
elif [ "$1" = none ] && [ "$2" -eq 0 ]; then
	ok "held-back generator: nothing lost, nothing to name"
	check "held-back generator: the asked maximum, not the generator's" \
		grep -Eq "^no loss at [0-9.]+k? fps offered, the asked maximum \(--rate\): the DUT's limit, if any, lies above it" \
		"$nb_tmp/gen.text"
	check "held-back generator: the verdict across sizes says the asked maximum" python3 -c "
import json; v = json.load(open('$nb_tmp/gen.json'))['verdict']
assert v.startswith('not established: the DUT passed the asked maximum (--rate) at every size'), v"
else
	notok "held-back generator: the asked maximum (got $*)"; show gen
fi

# --- text output: the DUT's view and the bottleneck
ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 64 --test trial -T 0.3 \
	--rate 5k >"$nb_tmp/text.out" 2>"$nb_tmp/text.err"
check "text: the lab's DUT is observed by default and says so" \
	grep -q "observing the lab's DUT at 198.18.0.254" "$nb_tmp/text.err"
check "text: the bottleneck line and the DUT's CPUs" sh -c "
	grep -q '^bottleneck 64 B: no loss at [0-9]* fps offered' '$nb_tmp/text.out' &&
	grep -q 'DUT CPUs: 1 (RPS)' '$nb_tmp/text.out' && grep -q 'softnet: processed' '$nb_tmp/text.out'"
ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 64 --test trial -T 0.3 \
	--rate 5k --no-observe >"$nb_tmp/noobs.out" 2>&1
check "--no-observe: no DUT view" sh -c "! grep -q 'DUT CPUs' '$nb_tmp/noobs.out'"

# --- what an observer must not do, and what it must undo
check_rc "tuning asked of an agent without --allow-tuning: refused, exit 1" 1 \
	ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 64 --test trial \
	-T 0.3 --rate 5k --no-observe --observe 198.19.0.1 --dut-cpus 0
check "the refusal names the rule" grep -q "refused by rule tuning" "$nb_tmp/out"
rate steer --test trial -T 0.3 --rate 5k --dut-cpus 0
check "--dut-cpus 0: the window's DUT CPU is 0" python3 -c "
import json; o = json.load(open('$nb_tmp/steer.json'))['sizes'][0]['trials'][0]['observers'][0]
assert o['dut_cpus'] == [0] and o['dut_cpus_rps'], o
"
check "--dut-cpus: RPS restored after the run" test \
	"$(ip netns exec $P-dut cat /sys/class/net/dut0/queues/rx-0/rps_cpus)" = "$rps"
ip netns exec $P-gen "$NETBENCH" rate --local-rx $P-sink/198.19.0.1 -s 64 --test trial -T 20 \
	--rate 1k --dut-cpus 0 >/dev/null 2>&1 &
rpid=$!
rps_was() { [ "$(ip netns exec $P-dut cat /sys/class/net/dut0/queues/rx-0/rps_cpus)" = "$rps" ]; }
check "--dut-cpus: RPS set while the trial runs" wait_until 5 "RPS set on the DUT" eval '! rps_was'
kill -9 $rpid 2>/dev/null
wait $rpid 2>/dev/null
check "a controller killed mid-trial: the observer restores RPS" \
	wait_until 3 "the observer to restore RPS" rps_was
rate clocks --test trial -T 0.3 --rate 5k --observe-clocks 800,1600
if [ -d /sys/devices/system/cpu/cpufreq ] && ls /sys/devices/system/cpu/cpufreq | grep -q policy; then
	skip "this kernel has cpufreq: the one-line note is for kernels without"
else
	check "no cpufreq: one line says so, one measurement" sh -c "
		[ \$(grep -c 'exposes no CPU clock control' '$nb_tmp/clocks.json.err') -eq 1 ] &&
		python3 -c \"import json; d = json.load(open('$nb_tmp/clocks.json'));
assert len(d['clocks']) == 1 and d['clock_fit'] == [] and 'cpufreq' in d['clock_note']\""
fi
# The clock experiment's document is the one -J prints, -o writes and --save stores.
if "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
	skip "this build has no SQLite: --observe-clocks --save not run"
else
	rate clocks2 --test trial -T 0.3 --rate 5k --observe-clocks 800,1600 \
		--save "$nb_tmp/clk.db" -o "$nb_tmp/clk.o"
	"$NETBENCH" results show -J --db "$nb_tmp/clk.db" 1 >"$nb_tmp/clk.db1" 2>&1
	check "--observe-clocks -J --save -o: the three documents are the same bytes" sh -c "
		cmp '$nb_tmp/clocks2.json' '$nb_tmp/clk.o' && cmp '$nb_tmp/clocks2.json' '$nb_tmp/clk.db1' &&
		grep -q '\"clocks\"' '$nb_tmp/clk.o'"
fi
check_schemas "$nb_tmp"
check "lab down" "$NETBENCH" lab down --prefix $P
echo "1..$n"
