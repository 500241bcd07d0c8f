#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The emulated big-endian PowerPC board in the lab (docs/lab.md "Boards"), as DUT and as sink:
# an e500v2 on qemu's ppce500 machine, one CPU, 256 MiB, two eTSEC NICs driven by gianfar, with
# a kernel and a static user space built from Debian's sources (tests/board/build.sh ppc).
# As DUT: status shows it; 1000 linear rules and a set of 1000 load through the control port (by
# nft where the image has it, else by the board's netbench through netlink); a rate trial through
# it reconciles with the board's own gianfar counters, and its observer (the board's agent) names
# gianfar (gfar-enet), a big-endian ppc kernel of its own, one CPU, gianfar's ethtool
# statistics, its interrupts, softirq and softnet. As sink: tput and a multicast stream (seed
# 002's 8192-byte datagrams) measure it, with its platform (ppc, big-endian, its kernel,
# gianfar, "vm tcg") in the JSON. Down leaves no qemu, tap or namespace.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbp$$
tmp=$nb_tmp

need_root
board_image ppc
nb_labs="$P"

nothing_left() { # qemu pid
	! kill -0 "$1" 2>/dev/null && [ "$(ip netns list | grep -c "^$P-")" -eq 0 ] &&
		[ ! -e "/run/netbench-lab/$P" ]
}
# The board's platform as every result from it carries it: its own big-endian kernel.
board_env="
assert r['arch'] == 'ppc' and r['byte_order'] == 'big', r
assert r['kernel'].endswith('-netbench-ppc') and r['cpu_count'] == 1, r
# gianfar names itself gfar-enet in ethtool's driver information (ethtool -i).
assert r['driver'] == 'gfar-enet' and 'e500' in (r['cpu_model'] or ''), r
assert r['virtualization'] == 'vm tcg', r.get('virtualization')
"

# --- the board as DUT
t0=$(date +%s)
if ! lab_up "$P" --dut vm:ppc --board-dir "$board_dir"; then
	notok "lab up --dut vm:ppc"
	echo "1..$n"
	exit 1
fi
ok "lab up --dut vm:ppc ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json"
check_quiet "status: healthy, a ppc board with its own kernel, emulated" json_check "$tmp/status.json" "
assert d['healthy'] and d['board_alive'] and d['board_control_port'], d
b = d['board']
assert b['role'] == 'dut' and b['arch'] == 'ppc' and b['kernel'].endswith('-netbench-ppc'), b
assert b['virtualization'] == 'vm tcg', b
"
qpid=$(jnum qemu_pid "$tmp/status.json")

# With nft in the image it loads the rulesets; without (the nft sources could not be had: the
# image's nft.missing says why) the board's netbench loads them through netlink (lab nft-load).
loader=nft
[ -f "$board_dir/nft" ] || loader="netlink (no nft: $(cat "$board_dir/nft.missing" 2>/dev/null))"
rules=0
check_quiet "ruleset set 1000 loads into the ppc board by $loader: 2 rules, 1000 elements read back" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind set --rules 1000 | grep -q '2 rules, 1000 set elements (as expected)'"
check_quiet "ruleset linear 1000 loads into the ppc board by $loader: 1001 rules read back" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 1000 | grep -q '1001 rules, 0 set elements (as expected)'" &&
	rules=1000
if [ ! -f "$board_dir/nft" ]; then
	printf 'table inet t { }\n' >"$tmp/own.nft"
	"$NETBENCH" lab ruleset --prefix "$P" --kind "file:$tmp/own.nft" >"$tmp/nonft.out" 2>&1
	check_quiet "an image without nft: a user's own nft file is refused, saying why" \
		grep -q "without nft only those load" "$tmp/nonft.out"
fi

ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.0.1 -s 128 -m trial -r 1000 -t 2 -J \
	>"$tmp/trial.json" 2>"$tmp/trial.err"
check_quiet "rate trial at 1000 fps gen -> ppc board ($rules rules) -> sink: reconciles with its gianfar counters" json_check "$tmp/trial.json" "
t = d['sizes'][0]['trials'][0]
assert t['valid'] and t['tx_frames'] == 2000, t
assert t['rx_frames'] + t['lost_frames'] == t['tx_frames'], t
o = t['observers'][0]
ifs = {i['name']: i for i in o['interfaces']}
assert sorted(ifs) == ['eth0', 'eth1'], ifs
# The board's gen-side NIC received what the generator sent and its sink-side NIC sent what
# the sink got (a few frames of neighbour discovery and the agent's control traffic on top).
rx, fwd = ifs['eth0']['rx_packets'], ifs['eth1']['tx_packets']
assert t['tx_frames'] - t['lost_frames'] <= rx <= t['tx_frames'] + 50, (rx, t)
assert t['rx_frames'] <= fwd <= t['rx_frames'] + 50, (fwd, t)
print('gen %d, board eth0 rx %d, eth1 tx %d, sink %d, lost %d' % (t['tx_frames'], rx, fwd, t['rx_frames'], t['lost_frames']))
" || sed 's/^/# /' "$tmp/trial.err"
check_quiet "the observer is the board's agent: gianfar, a big-endian ppc kernel, one CPU" json_check "$tmp/trial.json" "
o = d['sizes'][0]['trials'][0]['observers'][0]
assert o['observer'] == '198.18.0.254' and o['hostname'] == 'netbench-board-ppc', o['hostname']
r = o['env']
$board_env
assert len(o['cpus']) == 1 and 0 <= o['cpus'][0]['softirq_pct'] <= 100, o['cpus']
assert o['softnet']['processed'] >= 1900, o['softnet']
names = [i['name'] for i in o['interrupts']]
assert any('eth0' in x for x in names) and any('eth1' in x for x in names), names
# gianfar's own ethtool statistics, read inside the board.
assert all('rx-crc-errors' in i['driver'] for i in o['interfaces']), [i['driver'] for i in o['interfaces']]
" || sed 's/^/# /' "$tmp/trial.err"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check "nothing left: no qemu, no namespace, no state" nothing_left "$qpid"

# --- the board as sink
t0=$(date +%s)
if ! lab_up "$P" --sink vm:ppc --board-dir "$board_dir"; then
	notok "lab up --sink vm:ppc"
	echo "1..$n"
	exit 1
fi
ok "lab up --sink vm:ppc ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status2.json"
check_quiet "status: healthy, the agent is the board's" json_check "$tmp/status2.json" "
assert d['healthy'], d
assert d['board']['role'] == 'sink' and d['board']['arch'] == 'ppc', d['board']
assert d['agent']['answers'] and d['agent']['pid'] == d['board']['qemu_pid'], d['agent']
"
qpid=$(jnum qemu_pid "$tmp/status2.json")
# Paced: qemu's eTSEC model stops receiving for good once its receive ring overflows (an
# unpaced TCP burst does that; docs/lab.md), so the board is offered 20 Mbit/s.
ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.0.1 -l 8k -t 2 -r 20M -J >"$tmp/tput.json" 2>"$tmp/tput.err"
check_quiet "tput to the ppc board: steps measured, the board's platform in the JSON" json_check "$tmp/tput.json" "
r = d['env']['remote']
$board_env
s = [x for x in d['steps'] if x['valid']]
assert s and all(x['mbit_per_s'] > 0 for x in s), d['steps']
" || sed 's/^/# /' "$tmp/tput.err"
# Seed 002: a multicast stream the board joins, through the DUT namespace's layer-2 pass.
ip netns exec "$P-gen" "$NETBENCH" stream -c 198.19.0.1 -a 239.77.0.1 --rates 4M,8M -b 8192 \
	-t 2 -J >"$tmp/mstream.json" 2>"$tmp/mstream.err"
check_quiet "multicast stream (239.77.0.1) received by the ppc board at 4 and 8 Mbit/s" json_check "$tmp/mstream.json" "
r = d['env']['remote']
$board_env
assert d['parameters']['multicast'] and d['parameters']['address'] == '239.77.0.1', d['parameters']
rx = d['receivers'][0]
assert len(rx['steps']) == 2 and all(st['valid'] and st['datagrams'] > 0 for st in rx['steps']), rx['steps']
r = rx['env']
$board_env
print([(st['rate_bps_asked'], st['datagrams'], st['lost']) for st in rx['steps']])
" || sed 's/^/# /' "$tmp/mstream.err"
# mem and crypto run on the big-endian board and come back decoded: its own figures, its
# platform; crypto by the kernel's software driver (qemu's e500 has no SEC engine, talitos).
ip netns exec "$P-gen" "$NETBENCH" mem -c 198.19.0.1 --quick -J >"$tmp/mem.json" 2>"$tmp/mem.err"
check_quiet "mem -c runs on the ppc board: latency and bandwidth decoded" json_check "$tmp/mem.json" "
r = d['env']['remote']
$board_env
assert d['latency']['points'] and all(x['ns_per_load'] > 0 for x in d['latency']['points']), d['latency']
assert d['bandwidth']['results'] and all(x['copy_mbyte_per_s'] > 0 for x in d['bandwidth']['results']), d['bandwidth']
" || sed 's/^/# /' "$tmp/mem.err"
ip netns exec "$P-gen" "$NETBENCH" crypto -c 198.19.0.1 --quick -a aes-128-cbc \
	-e 'afalg:cbc(aes-generic)' -J >"$tmp/crypto.json" 2>"$tmp/crypto.err"
check_quiet "crypto -c on the ppc board: its kernel's software AES, no hardware engine" json_check "$tmp/crypto.json" "
r = d['env']['remote']
$board_env
ok = [x for x in d['results'] if x['status'] == 'ok']
assert len(ok) == 1 and ok[0]['kernel_driver']['driver'] == 'cbc(aes-generic)', d['results']
assert not ok[0]['kernel_driver']['hardware'], ok[0]['kernel_driver']
assert all(p['ops'] > 0 and p['mbyte_per_s'] > 0 for p in ok[0]['points'] if p['valid']), ok[0]
assert any(p['valid'] for p in ok[0]['points']), ok[0]
" || sed 's/^/# /' "$tmp/crypto.err"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check "nothing left: no qemu, no namespace, no state" nothing_left "$qpid"

check_schemas "$tmp"
echo "1..$n"
