#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An emulated ARM board as the lab's sink (`lab up --sink vm:armhf`, docs/lab.md "Boards"): the
# agent host is the board (Debian's armmp kernel under qemu-system-arm), reached through the
# namespace DUT. tput and stream receive (seed 002: 8192-byte datagrams at 4, 8 and 12 Mbit/s,
# unicast and to a multicast group) measure the board, and their JSON carries the board's platform (env.remote: armv7l, its
# kernel, virtio_net, unknown device-tree clocks); mem -c runs on the board, crypto -c by driver
# (its virtio-crypto device against its CPU's driver);
# status shows it; down leaves no qemu, tap or namespace.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbs$$
tmp=$nb_tmp

need_root
board_image armhf
nb_labs="$P"

t0=$(date +%s)
if ! lab_up "$P" --sink vm:armhf --board-dir "$board_dir"; then
	notok "lab up --sink vm:armhf"
	echo "1..$n"
	exit 1
fi
ok "lab up --sink vm:armhf ($(($(date +%s) - t0)) s)"
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json"
check_quiet "status: healthy, the agent is the board's" json_check "$tmp/status.json" "
assert d['healthy'], d
assert d['board']['role'] == 'sink' and d['board']['arch'] == 'armhf', d['board']
assert d['agent']['answers'] and d['agent']['pid'] == d['board']['qemu_pid'], d['agent']
"
qpid=$(jnum qemu_pid "$tmp/status.json")

# The board's platform, as every result from it must carry it.
board_env="
r = d['env']['remote']
assert r['arch'] == 'armv7l' and 'armmp' in r['kernel'], r
assert r['driver'] == 'virtio_net' and r['cpu_count'] == 2, r
assert r['virtualization'] == 'vm tcg', r.get('virtualization')
assert r['core_mhz'] is None and r['bus_mhz'] is None, r  # qemu's virt declares no clock
"
ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.0.1 -l 8k -t 2 -J >"$tmp/tput.json" 2>"$tmp/tput.err"
check_quiet "tput to the board: steps measured, the board's platform in the JSON" json_check "$tmp/tput.json" "
$board_env
s = [x for x in d['steps'] if x['valid']]
assert s and all(x['mbit_per_s'] > 0 for x in s), d['steps']
assert any(x['cpu_remote']['valid'] and x['cpu_remote']['cpu_count'] == 2 for x in s), s
" || sed 's/^/# /' "$tmp/tput.err"

ip netns exec "$P-gen" "$NETBENCH" stream -c 198.19.0.1 -a 198.19.0.1 --rates 4M,8M,12M -b 8192 \
	-t 2 -J >"$tmp/stream.json" 2>"$tmp/stream.err"
check_quiet "stream received by the board at 4, 8, 12 Mbit/s, 8192-byte datagrams" json_check "$tmp/stream.json" "
$board_env
rx = d['receivers'][0]
steps = rx['steps']
assert len(steps) == 3, steps
for st in steps:
    assert st['valid'] and st['datagrams'] > 0, st
assert rx['env']['arch'] == 'armv7l', rx['env']
print([(st['rate_bps_asked'], st['datagrams'], st['lost']) for st in steps])
" || sed 's/^/# /' "$tmp/stream.err"

# Seed 002 as the farm runs it: a multicast stream the board joins. The DUT namespace passes
# 224.0.0.0/4 to the board's tap at layer 2 (lab up's tc filter on dut0), whose counter must
# account for every datagram the board received.
ip netns exec "$P-gen" "$NETBENCH" stream -c 198.19.0.1 -a 239.77.0.1 --rates 4M,8M,12M -b 8192 \
	-t 2 -J >"$tmp/mstream.json" 2>"$tmp/mstream.err"
tc -n "$P-dut" -s filter show dev dut0 ingress >"$tmp/tc.out" 2>&1
check_quiet "multicast stream (239.77.0.1) received by the board at 4, 8, 12 Mbit/s, 8192-byte datagrams" json_check "$tmp/mstream.json" "
$board_env
import re
assert d['parameters']['multicast'] and d['parameters']['address'] == '239.77.0.1', d['parameters']
rx = d['receivers'][0]
steps = rx['steps']
assert len(steps) == 3 and all(st['valid'] and st['datagrams'] > 0 for st in steps), steps
# 8192-byte datagrams are 6 frames each at MTU 1500: the DUT's filter passed at least those.
passed = int(re.search(r'Sent \\d+ bytes (\\d+) pkt', open('$tmp/tc.out').read()).group(1))
got = sum(st['datagrams'] for st in steps)
assert passed >= 6 * got, (passed, got)
print([(st['rate_bps_asked'], st['datagrams'], st['lost']) for st in steps], passed)
" || sed 's/^/# /' "$tmp/mstream.err" "$tmp/tc.out"
ip netns exec "$P-gen" "$NETBENCH" mem -c 198.19.0.1 --quick -J >"$tmp/mem.json" 2>"$tmp/mem.err"
check_quiet "mem -c runs on the board" json_check "$tmp/mem.json" "
$board_env
assert d['bandwidth'], d
"
# Crypto by driver on the board: its virtio-crypto device (a "hardware engine" its kernel
# drives) against its CPU's driver.
ip netns exec "$P-gen" "$NETBENCH" crypto -c 198.19.0.1 --quick -a aes-128-cbc \
	-e 'afalg:virtio_crypto_aes_cbc,afalg:cbc(aes-generic)' -J >"$tmp/crypto.json" 2>"$tmp/crypto.err"
check_quiet "crypto -c by driver on the board: its virtio-crypto engine and its CPU's" json_check "$tmp/crypto.json" "
$board_env
by = {r['kernel_driver']['driver']: r for r in d['results'] if r['status'] == 'ok'}
assert set(by) == {'virtio_crypto_aes_cbc', 'cbc(aes-generic)'}, d['results']
assert by['virtio_crypto_aes_cbc']['kernel_driver']['hardware'], by
assert all(p['ops'] > 0 for r in by.values() for p in r['points'] if p['valid']), by
# Each point in 3 parts with its interval; the system's figure only where it holds the
# process's CPU time (a TCG board's ticks can lose busy time).
for r in by.values():
    for p in r['points']:
        if p['valid']:
            assert p['windows'] == 3 and p['mbyte_per_s_ci95'] is not None, p
            assert (p['sys_cpu_us_per_kbyte'] is None) == (not p['cpu']['consistent']), p
" || sed 's/^/# /' "$tmp/crypto.err"
# ESP's transform by driver: the commas inside the name's parentheses are the name's.
esp='afalg:authenc(hmac(sha1-generic),cbc(aes-generic))'
ip netns exec "$P-gen" "$NETBENCH" crypto -c 198.19.0.1 --quick -a aes-128-cbc-hmac-sha1 \
	-e "$esp" -J >"$tmp/esp.json" 2>"$tmp/esp.err"
check_quiet "crypto -c times ESP's authenc transform by driver on the board" json_check "$tmp/esp.json" "
r = d['results'][0]
assert r['engine'] == '$esp' and r['status'] == 'ok', r
assert r['kernel_driver']['driver'] == 'authenc(hmac(sha1-generic),cbc(aes-generic))', r
assert all(p['ops'] > 0 for p in r['points'] if p['valid']), r
" || sed 's/^/# /' "$tmp/esp.err"
# Kernel engines only: the table says why there is no soft row, and why a CPU driver has no
# crossover.
ip netns exec "$P-gen" "$NETBENCH" crypto -c 198.19.0.1 --quick -a aes-128-cbc -s 64,1024 \
	-e 'afalg:cbc(aes-generic)' >"$tmp/nosoft.txt" 2>"$tmp/nosoft.err"
check "no soft row: said why, and why the CPU driver has no crossover" sh -c \
	"grep -q 'no soft row: soft was not among the engines asked' '$tmp/nosoft.txt' &&
	 grep -q 'crossover: none stated for afalg:cbc(aes-generic), a CPU driver' '$tmp/nosoft.txt'" ||
	sed 's/^/# /' "$tmp/nosoft.txt" "$tmp/nosoft.err"

check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check "nothing left: no qemu, no namespace, no state" eval \
	'! kill -0 "$qpid" 2>/dev/null && [ "$(ip netns list | grep -c "^$P-")" -eq 0 ] && [ ! -e "/run/netbench-lab/$P" ]'

check_schemas "$tmp"
echo "1..$n"
