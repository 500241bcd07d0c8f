#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An emulated x86-64 board in the lab (docs/lab.md "Boards"), as DUT and as sink: Debian's amd64
# kernel under qemu-system-x86_64 (TCG, no KVM), the same image layout as the ARM board's.
# As DUT: status shows it, a rate trial through it reconciles, its observer parses an x86
# kernel's counters, a ruleset loads through the control port and reads back. As sink: tput and
# stream receive measure it, with its platform (x86_64, its kernel, virtio_net, "vm tcg") in the
# JSON. With nic=e1000e (qemu's Intel 82574L): a trial through it reconciles with its counters and
# its observer names the driver e1000e. Down leaves no qemu, tap or namespace each time.
# board_dut.sh and board_sink.sh hold the checks every board shares (refusals, failed boots,
# Ctrl-C, saturation verdict) on the ARM one.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbx$$
tmp=$nb_tmp

need_root
command -v nft >/dev/null || skip_all "nft is not installed (tests/deps.sh)"
board_image x86_64
nb_labs="$P"

nothing_left() { # qemu pid
	! kill -0 "$1" 2>/dev/null && [ "$(ip netns list | grep -c "^$P-")" -eq 0 ] &&
		[ ! -e "/run/netbench-lab/$P" ]
}

# --- the board as DUT
t0=$(date +%s)
if ! lab_up "$P" --dut vm:x86_64 --board-dir "$board_dir"; then
	notok "lab up --dut vm:x86_64"
	echo "1..$n"
	exit 1
fi
ok "lab up --dut vm:x86_64 ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json"
check_quiet "status: healthy, an x86_64 board with Debian's amd64 kernel, emulated" json_check "$tmp/status.json" "
assert d['healthy'] and d['board_alive'] and d['board_control_port'], d
b = d['board']
assert b['role'] == 'dut' and b['arch'] == 'x86_64' and b['kernel'].endswith('-amd64'), b
assert b['virtualization'] == 'vm tcg', b
"
qpid=$(jnum qemu_pid "$tmp/status.json")
check_quiet "qemu runs sandboxed: seccomp filter, user nobody, no capabilities, no new privileges" sh -c "
	grep -E '^(Uid|Seccomp|CapEff|CapPrm|NoNewPrivs):' /proc/$qpid/status
	[ \$(stat -c %U /proc/$qpid) = nobody ] && grep -q '^Seccomp:[[:space:]]*2' /proc/$qpid/status &&
	grep -q '^CapEff:[[:space:]]*0*\$' /proc/$qpid/status && grep -q '^CapPrm:[[:space:]]*0*\$' /proc/$qpid/status &&
	grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$qpid/status"

ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 2000 -t 2 -J \
	>"$tmp/trial.json" 2>"$tmp/trial.err"
check_quiet "rate trial at 2000 fps gen -> x86 board -> sink: the sink's count reconciles" json_check "$tmp/trial.json" "
t = d['sizes'][0]['trials'][0]
assert t['valid'] and t['tx_frames'] == 4000, t
assert t['rx_frames'] + t['lost_frames'] == t['tx_frames'], t
o = t['observers'][0]
fwd = max(i['tx_packets'] for i in o['interfaces'])
assert t['tx_frames'] - t['lost_frames'] <= fwd <= t['tx_frames'] + 50, (fwd, t)
" || sed 's/^/# /' "$tmp/trial.err"
check_quiet "the observer is the board's agent, parsed from an x86 kernel" json_check "$tmp/trial.json" "
o = d['sizes'][0]['trials'][0]['observers'][0]
assert o['observer'] == '198.18.0.254' and o['hostname'] == 'netbench-board-x86_64', o['hostname']
assert len(o['cpus']) == 2 and all(0 <= c['softirq_pct'] <= 100 for c in o['cpus']), o['cpus']
assert o['softnet']['processed'] >= 3900, o['softnet']
names = [i['name'] for i in o['interrupts']]
assert any('virtio' in x for x in names) and 'LOC' in names, names
assert sorted(i['name'] for i in o['interfaces']) == ['eth0', 'eth1'], o['interfaces']
assert all('rx_queue_0_drops' in i['driver'] for i in o['interfaces']), o['interfaces']
"
check_quiet "ruleset linear 100 loads into the x86 board: 101 rules read back" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 100 | grep -q '101 rules, 0 set elements (as expected)'"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check "nothing left: no qemu, no namespace, no state" nothing_left "$qpid"

# --- the board as sink
t0=$(date +%s)
if ! lab_up "$P" --sink vm:x86_64 --board-dir "$board_dir"; then
	notok "lab up --sink vm:x86_64"
	echo "1..$n"
	exit 1
fi
ok "lab up --sink vm:x86_64 ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status2.json"
check_quiet "status: healthy, the agent is the board's" json_check "$tmp/status2.json" "
assert d['healthy'], d
assert d['board']['role'] == 'sink' and d['board']['arch'] == 'x86_64', d['board']
assert d['agent']['answers'] and d['agent']['pid'] == d['board']['qemu_pid'], d['agent']
"
qpid=$(jnum qemu_pid "$tmp/status2.json")
board_env="
r = d['env']['remote']
assert r['arch'] == 'x86_64' and r['kernel'].endswith('-amd64'), r
assert r['driver'] == 'virtio_net' and r['cpu_count'] == 2, r
assert r['virtualization'] == 'vm tcg', r.get('virtualization')
"
ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.0.1 -l 8k -t 2 -J >"$tmp/tput.json" 2>"$tmp/tput.err"
check_quiet "tput to the x86 board: steps measured, the board's platform in the JSON" json_check "$tmp/tput.json" "
$board_env
s = [x for x in d['steps'] if x['valid']]
assert s and all(x['mbit_per_s'] > 0 for x in s), d['steps']
" || sed 's/^/# /' "$tmp/tput.err"
ip netns exec "$P-gen" "$NETBENCH" stream -c 198.19.0.1 -a 198.19.0.1 --rates 4M,8M,12M -b 8192 \
	-t 2 -J >"$tmp/stream.json" 2>"$tmp/stream.err"
check_quiet "stream received by the x86 board at 4, 8, 12 Mbit/s, 8192-byte datagrams" json_check "$tmp/stream.json" "
$board_env
rx = d['receivers'][0]
assert len(rx['steps']) == 3 and all(st['valid'] and st['datagrams'] > 0 for st in rx['steps']), rx['steps']
assert rx['env']['arch'] == 'x86_64', rx['env']
" || sed 's/^/# /' "$tmp/stream.err"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check "nothing left: no qemu, no namespace, no state" nothing_left "$qpid"

# --- the DUT with qemu's e1000e (Intel 82574L) NICs: the e1000e driver, named by ethtool
t0=$(date +%s)
if lab_up "$P" --dut vm:x86_64,nic=e1000e --board-dir "$board_dir"; then
	ok "lab up --dut vm:x86_64,nic=e1000e ($(($(date +%s) - t0)) s)"
	"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status3.json"
	qpid=$(jnum qemu_pid "$tmp/status3.json")
	ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 1000 -t 2 -J \
		>"$tmp/trial3.json" 2>"$tmp/trial3.err"
	check_quiet "rate trial through the e1000e board: reconciles; the driver is e1000e (ethtool -i in the board)" json_check "$tmp/trial3.json" "
t = d['sizes'][0]['trials'][0]
assert t['valid'] and t['tx_frames'] == 2000, t
assert t['rx_frames'] + t['lost_frames'] == t['tx_frames'], t
o = t['observers'][0]
assert o['env']['driver'] == 'e1000e', o['env']
ifs = {i['name']: i for i in o['interfaces']}
assert sorted(ifs) == ['eth0', 'eth1'], ifs
rx, fwd = ifs['eth0']['rx_packets'], ifs['eth1']['tx_packets']
assert t['tx_frames'] - t['lost_frames'] <= rx <= t['tx_frames'] + 50, (rx, t)
assert t['rx_frames'] <= fwd <= t['rx_frames'] + 50, (fwd, t)
# e1000e's own ethtool statistics, read inside the board.
assert all('rx_crc_errors' in i['driver'] for i in o['interfaces']), [sorted(i['driver']) for i in o['interfaces']]
names = [i['name'] for i in o['interrupts']]
assert any('eth0' in x for x in names), names
" || sed 's/^/# /' "$tmp/trial3.err"
	check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
	check "nothing left: no qemu, no namespace, no state" nothing_left "$qpid"
else
	notok "lab up --dut vm:x86_64,nic=e1000e"
fi
check_refused "vm:armhf,nic=e1000e is refused: the ARM board has one NIC model" 2 "nic=e1000e" \
	"$NETBENCH" lab up --prefix "$P" --dut vm:armhf,nic=e1000e

check_schemas "$tmp"
echo "1..$n"
