#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An emulated ARM board as the lab's DUT (`lab up --dut vm:armhf`, docs/lab.md "Boards"):
# Debian's armmp kernel under qemu-system-arm (TCG), forwarding between two virtio NICs whose
# host ends are taps in the generator's and the sink's namespaces. Checks: bad input and a
# missing image or emulator are refused with nothing created; a board that cannot boot is
# reported with its console's last lines and nothing left, as is a boot cut short by Ctrl-C;
# up/status show the board; a rate trial through it
# reconciles (generator, sink agent and the board's own NIC counters); the board's observer
# parses the ARM kernel's counters; 1000 linear rules saturate the board's CPU and the verdict
# names it, or the tap's drops name the emulator (never NIC, DMA or bus); rulesets load through the control
# port and read back; the board's agent refuses tuning it was not allowed; down leaves no qemu,
# tap or namespace.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbd$$
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "nft is not installed (tests/deps.sh)"
board_image armhf
nb_labs="$P"


# --- refused before anything exists
check_rc "--dut vm:mips is a usage error" 2 "$NETBENCH" lab up --prefix "$P" --dut vm:mips
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... naming what is accepted, nothing created" sh -c \
	"grep -q 'vm:armhf, vm:x86_64 or vm:ppc' '$tmp/last' && [ \$(ip netns list | grep -c '^$P-') -eq 0 ]"
check_rc "--sink given twice: usage error" 2 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --sink vm:armhf --sink vm:armhf
cp "$nb_tmp/out" "$tmp/last"
check_rc "--vpn wireguard with a board: usage error (not built)" 2 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --vpn wireguard
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... saying why, nothing created" sh -c \
	"grep -q 'vpn wireguard with an emulated board (--dut vm:armhf) is not built' '$tmp/last' && [ \$(ip netns list | grep -c '^$P-') -eq 0 ]"
check_rc "a missing image: exit 1" 1 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --board-dir "$tmp/none"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... naming tests/board/build.sh, nothing created" sh -c \
	"grep -q 'tests/board/build.sh armhf' '$tmp/last' && [ \$(ip netns list | grep -c '^$P-') -eq 0 ]"

# --- no emulator in PATH: the package is named, nothing created
mkdir -p "$tmp/noqemu"
check_rc "no emulator: exit 1" 1 env PATH="$tmp/noqemu" "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --board-dir "$board_dir"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... naming the emulator and its Debian package, nothing created" sh -c \
	"grep -q 'qemu-system-arm is not installed (Debian package qemu-system-arm)' '$tmp/last' && [ \$(ip netns list | grep -c '^$P-') -eq 0 ]"

# --- a board that cannot boot: the real kernel with an initramfs that is not one panics
mkdir -p "$tmp/bad"
cp "$board_dir/kernel" "$tmp/bad/"
head -c 4096 /dev/urandom >"$tmp/bad/initrd.gz"
t0=$(date +%s)
check_rc "a board that does not boot: exit 1" 1 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --board-dir "$tmp/bad"
cp "$nb_tmp/out" "$tmp/last"
echo "# failed boot reported after $(($(date +%s) - t0)) s:"; sed "s/^/#   /" "$tmp/last" | tail -8
check_quiet "... with the last lines of its console (the kernel's panic)" sh -c \
	"grep -q 'last lines of its console' '$tmp/last' && grep -qi 'panic\|VFS\|init' '$tmp/last'"
qemu_running() { # a pattern of its command line
	for p in $(pgrep -x qemu-system-arm); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "$1" && return 0
	done
	return 1
}
nothing_left() {
	[ "$(ip netns list | grep -c "^$P-")" -eq 0 ] && [ ! -e "/run/netbench-lab/$P" ]
}
check "... and nothing left: no namespace, no qemu, no state" \
	eval 'nothing_left && ! qemu_running "$tmp/bad/initrd.gz"'

# --- Ctrl-C while the board boots: up stops qemu and removes what it made
"$NETBENCH" lab up --prefix "$P" --dut vm:armhf --board-dir "$board_dir" >/dev/null 2>"$tmp/int.err" &
upid=$!
wait_until 10 "up to start qemu" qemu_running "$board_dir/initrd.gz"
sleep 1 # not a wait: the interrupt lands a second into the board's boot, not at its start
kill -INT $upid
if wait $upid; then rc=0; else rc=$?; fi
check "SIGINT while the board boots: exit 1, no qemu, no namespace, no state" eval \
	'[ "$rc" -eq 1 ] && grep -q interrupted "$tmp/int.err" && nothing_left && ! qemu_running "$board_dir/initrd.gz"' ||
	sed 's/^/# /' "$tmp/int.err"

# --- up
t0=$(date +%s)
if ! lab_up "$P" --dut vm:armhf --board-dir "$board_dir"; then
	notok "lab up --dut vm:armhf"
	echo "1..$n"
	exit 1
fi
ok "lab up --dut vm:armhf ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json"
check_quiet "status: healthy, the board's arch, kernel, qemu pid and console log" json_check "$tmp/status.json" "
assert d['healthy'] and d['board_alive'] and d['board_control_port'], d
b = d['board']
assert b['role'] == 'dut' and b['arch'] == 'armhf' and 'armmp' in b['kernel'], b
assert b['virtualization'] == 'vm tcg', b
import os
assert os.path.isfile(b['console_log']) and b['qemu_pid'] > 0, b
assert all(l['up'] for l in d['links']), d['links']
assert d['forwarding_ipv4'], d
"
qpid=$(jnum qemu_pid "$tmp/status.json")
check_quiet "the taps are the lab's gen0 and sink0" sh -c \
	"ip netns exec $P-gen test -e /sys/class/net/gen0/tun_flags && ip netns exec $P-sink test -e /sys/class/net/sink0/tun_flags"

# --- a trial through the board, observed by the board's own agent
ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 2000 -t 2 -J \
	>"$tmp/trial.json" 2>"$tmp/trial.err"
check_quiet "rate trial at 2000 fps gen -> board -> sink: frames counted at the sink reconcile" json_check "$tmp/trial.json" "
t = d['sizes'][0]['trials'][0]
assert t['valid'] and t['tx_frames'] == 4000, t
assert t['rx_frames'] + t['lost_frames'] == t['tx_frames'], t
o = t['observers'][0]
ifs = {i['name']: i for i in o['interfaces']}
fwd = max(i['tx_packets'] for i in ifs.values())
rx = max(i['rx_packets'] for i in ifs.values())
# The board received what the generator sent and forwarded what the sink got (a few frames
# of neighbour discovery and the agent's control traffic on top).
assert t['tx_frames'] - t['lost_frames'] <= fwd <= t['tx_frames'] + 50, (fwd, t)
assert rx >= t['rx_frames'], (rx, t)
"
check_quiet "the observer is the board's agent, parsed from an ARM kernel" json_check "$tmp/trial.json" "
o = d['sizes'][0]['trials'][0]['observers'][0]
assert o['observer'] == '198.18.0.254' and o['hostname'] == 'netbench-board-armhf', o['hostname']
# At 2000 fps the board's softirq share is near 1 % and a tick-sampling kernel may not see it
# at all: here only its presence; the saturating trial below checks that it is counted.
assert len(o['cpus']) == 2 and all('softirq_pct' in c for c in o['cpus']), o['cpus']
assert all(0 <= c['softirq_pct'] <= 100 for c in o['cpus']), o['cpus']
assert o['softnet']['processed'] >= 3900, o['softnet']
names = [i['name'] for i in o['interrupts']]
assert any('virtio' in x for x in names) and any('arch_timer' in x for x in names), names
assert sorted(i['name'] for i in o['interfaces']) == ['eth0', 'eth1'], o['interfaces']
assert all('rx_queue_0_drops' in i['driver'] for i in o['interfaces']), o['interfaces']
assert o['clock_mhz'] is None and o['cycles_per_frame'] is None, o
"
check_quiet "the result's platform is the board's (env.dut), the generator's and the sink's beside it" json_check "$tmp/trial.json" "
e = d['env']
assert e['dut']['hostname'] == 'netbench-board-armhf' and 'armmp' in e['dut']['kernel'], e['dut']
assert e['dut']['arch'] != e['local']['arch'], (e['dut']['arch'], e['local']['arch'])
assert e['remote'] is not None and e['remote']['hostname'] != e['dut']['hostname'], e['remote']
"
if "$NETBENCH" results list --db "$tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
	skip "this build has no SQLite: the stored platform is not checked"
else
	"$NETBENCH" results import --db "$tmp/plat.db" "$tmp/trial.json" >/dev/null 2>&1
	"$NETBENCH" results list --db "$tmp/plat.db" -J >"$tmp/plat.json" 2>&1
	check_quiet "stored and listed with the board's platform, not the sink host's" json_check "$tmp/plat.json" "
r = d['results'][0]
assert r['host'] == 'netbench-board-armhf' and 'armmp' in r['kernel'], r
"
fi
# The observer's cost as the board states it (docs/lab.md, "The observer's cost on a slow
# board"): what one sample costs, times the samples, over the window, is the samples' share;
# that share is part of the observing process's CPU over the window, and the budget flag follows
# that figure. No bound on the cost itself: an emulated board's times depend on the host's load.
check_quiet "the board's observer states its cost per sample, consistent with its share of a CPU" json_check "$tmp/trial.json" "
o = d['sizes'][0]['trials'][0]['observers'][0]
us, n, ws = o['observer_sample_us'], o['samples'], o['window_s']
assert n > 0 and us > 0 and ws > 0 and o['observer_edges_ms'] > 0, o
pct = us * n / ws / 1e4
assert abs(pct - o['observer_sampling_cpu_pct']) <= 0.002 + 1e-3 * pct, (pct, o['observer_sampling_cpu_pct'])
assert o['observer_sampling_cpu_pct'] <= o['observer_cpu_pct'] + 0.01, o['observer_cpu_pct']
assert o['observer_over_budget'] == (o['observer_cpu_pct'] > 1.0), o['observer_cpu_pct']
# The default rate: 10 a second, or fewer where a sample is dear; never beyond 1 s apart.
assert 100 <= o['observer_sample_period_ms'] <= 1000, o['observer_sample_period_ms']
print('observer: %.0f us a sample, %d samples in %.2f s: %.3f %% (process %.3f %%), edges %.1f ms, period up to %.0f ms'
      % (us, n, ws, pct, o['observer_cpu_pct'], o['observer_edges_ms'], o['observer_sample_period_ms']))
"
sed 's/^/# /' "$nb_tmp/out" | head -5

# --- rulesets through the control port
check_quiet "ruleset linear 100 loads into the board: 101 rules read back" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 100 | grep -q '101 rules, 0 set elements (as expected)'"
check_quiet "ruleset set 1000: 2 rules, 1000 elements read back" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind set --rules 1000 | grep -q '2 rules, 1000 set elements'"
printf 'table inet netbench {\n  chain forward {\n    ip daddr 198.19.0.1 bogus drop\n  }\n}\n' >"$tmp/bad.nft"
check_rc "a bad nft file is rejected by the board's nft: exit 1" 1 "$NETBENCH" lab ruleset --prefix "$P" --kind "file:$tmp/bad.nft"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... with nft's message, the previous ruleset kept" sh -c \
	"grep -q 'syntax error' '$tmp/last' && '$NETBENCH' lab status --prefix $P | grep -q '2 rules in the DUT, 1000 set elements'"
check_quiet "ruleset linear 1000: 1001 rules" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 1000 | grep -q '1001 rules'"

# 1000 linear rules, offered far more than the board forwards: the loss is the board's; its
# CPU saturates (or its NIC ring, the tap, overflows first): never unexplained, never the host.
ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 100000 -t 1 -J \
	>"$tmp/sat.json" 2>"$tmp/sat.err"
check_quiet "1000 rules at 100k fps: the verdict names the board's CPU or the emulator, never NIC, DMA or bus" json_check "$tmp/sat.json" "
s = d['sizes'][0]
b = s['bottleneck']
t = s['trials'][0]
print(b['text'])
assert t['lost_frames'] > 0 and b['explained'], b
assert b['kind'] in ('dut_cpu_bound', 'emulator_not_scheduled'), b
assert 'NIC, DMA or bus' not in b['text'] or 'no counter of the board' in b['text'], b
assert b['by']['dut_nic_ring'] > 0.9 * b['lost'], b
# The host that runs the board's qemu was measured: its other work, and the mark above 5 %.
assert b['host_other_pct'] >= 0 and b['board_polluted'] == (b['host_other_pct'] > 5), b
assert b['board_polluted'] == ('figures are polluted' in b['text']), b
if b['kind'] == 'emulator_not_scheduled':
    assert b['text'].startswith('emulator bound' if not b['board_polluted'] else 'emulator not scheduled (host busy)'), b
# The board's own kernel counts its forwarding as softirq on its own CPUs.
assert sum(c['softirq_pct'] for c in t['observers'][0]['cpus']) > 10, t['observers'][0]['cpus']
if b['kind'] == 'dut_cpu_bound':
    assert 'DUT cpu' in b['text'] and t['observers'][0]['busiest_cpu_pct'] >= 90, b
"
sed 's/^/# /' "$nb_tmp/out" | head -2

# --- a rule sweep leaves the board with the ruleset it found: the lab's generated one (its
# record) generated again; a ruleset the lab did not generate cannot be read back from a board
# (its control port lists counts): refused before anything changes. 1000 fps trials, 2 points.
bstatus() {
	"$NETBENCH" lab status --prefix $P -J 2>/dev/null | python3 -c "
import json, sys
r = json.load(sys.stdin)['ruleset']
print(r.get('kind', '-'), r.get('rules_requested', '-'), r.get('rules', '-'), r.get('set_elements', '-'))"
}
bsweep() {
	ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 1000 -t 0.3 \
		--lab-prefix $P --kind linear --sweep-rules 0,10 "$@"
}
"$NETBENCH" lab ruleset --prefix $P --kind linear --rules 20 --ipv6 >/dev/null 2>&1
before=$(bstatus)
bsweep >"$tmp/sw1.out" 2>"$tmp/sw1.err"
rc=$?
check "a sweep through the board DUT runs (exit $rc) and says the ruleset is loaded back" sh -c \
	"[ $rc -le 1 ] && grep -q 'ruleset from before the sweep is loaded back (21 rules)' '$tmp/sw1.err'" ||
	tail -5 "$tmp/sw1.err" | sed 's/^/# /'
after=$(bstatus)
check "... the board holds the lab's 20 IPv6 rules again ($before, after: $after)" \
	test "$before" = "linear 20 21 0" -a "$after" = "$before"
check_quiet "... generated again as they were: IPv6 source addresses, no sweep rule left" sh -c \
	"grep -q '^ruleset linear 20 ipv6' /run/netbench-lab/$P/state"
printf 'table inet mine {\n  chain forward_mine {\n    type filter hook forward priority 0; policy accept;\n    udp dport 9 drop\n  }\n}\n' >"$tmp/mine.nft"
check_quiet "a file ruleset of the user's loads into the board" \
	"$NETBENCH" lab ruleset --prefix $P --kind "file:$tmp/mine.nft"
before=$(bstatus)
check_refused "a sweep over a board ruleset the lab did not generate: refused" 1 \
	'read back as counts only' bsweep
check "... before anything changed ($before, after: $(bstatus))" test "$(bstatus)" = "$before"
"$NETBENCH" lab ruleset --prefix $P --flush >/dev/null 2>&1
bsweep >"$tmp/sw2.out" 2>"$tmp/sw2.err"
rc=$?
check "a sweep over an empty board DUT leaves it empty (exit $rc, $(bstatus))" sh -c \
	"[ $rc -le 1 ] && grep -q 'loaded back (0 rules)' '$tmp/sw2.err'" ||
	tail -5 "$tmp/sw2.err" | sed 's/^/# /'

# --- the board's agent was started without --allow-tuning: a controller asking to set the
# board's clock is refused
ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 1000 -t 1 \
	--observe-clocks 100,200 >"$tmp/clk.out" 2>&1
check_quiet "the board's agent refuses to set its clock (not started with --allow-tuning)" \
	grep -q 'refused by rule tuning' "$tmp/clk.out"

# --- down
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check_quiet "nothing left: no qemu, no namespace, no tap, no state" sh -c \
	"! kill -0 $qpid 2>/dev/null && [ \$(ip netns list | grep -c '^$P-') -eq 0 ] && ! ip link show gen0 >/dev/null 2>&1 && ! ip link show nbb0 >/dev/null 2>&1 && [ ! -e /run/netbench-lab/$P ]"

check_schemas "$tmp"
echo "1..$n"
