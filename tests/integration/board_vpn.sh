#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# An ESP tunnel between two emulated ARM boards (`lab up --dut vm:armhf --sink vm:armhf --vpn
# esp`, docs/lab.md "Boards"): each end's SAs and policies are loaded through the board's
# control port (ip -batch in the board, keys never on a command line), a rate trial to the
# tunnel's address goes gen -> DUT board (encrypts) -> sink board (decrypts), and the boards'
# own SA counters (read through `lab status`) reconcile with the frames sent, and a tput's bytes
# with the DUT board's SA byte counter. A board with a namespace end needs ESP in this
# host's kernel: without it up refuses with the reason, nothing left. down leaves no qemu.
# --crypto-driver: each board's kernel raises the driver before its SAs (an unknown one is
# refused with the board's reason), and the SAs' transform in both boards is on it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbv$$
tmp=$nb_tmp

need_root
board_image armhf
nb_labs="$P"
leftovers() { [ "$(ip netns list | grep -c "^$P-")" -ne 0 ] || pgrep -f "qemu-system-arm.*$P" >/dev/null; }

check_rc "--vpn wireguard with a board: usage error (no wg in the board)" 2 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --vpn wireguard
check_rc "--dut given twice: usage error" 2 "$NETBENCH" lab up --prefix "$P" --dut vm:armhf --dut vm:armhf

# One board, the other end a namespace on this host: up checks this host's kernel first.
# qemu-system-arm is watched (argv_shims): the check must come before any board boots.
argv_shims "$tmp/shims" qemu-system-arm
PATH="$tmp/shims:$PATH" "$NETBENCH" lab up --prefix "$P" --no-agent --dut vm:armhf --vpn esp \
	--board-dir "$board_dir" >"$tmp/mixed" 2>&1
rc=$?
if [ "$rc" -eq 1 ]; then
	check "a namespace end without ESP in this kernel: refused, saying why" \
		grep -q "is a namespace on this host, whose kernel has no ESP" "$tmp/mixed"
	check "... before any board booted (qemu never started)" sh -c "! test -s '$tmp/shims/argv.log'"
	if leftovers; then notok "... no namespace or qemu left"; else ok "... no namespace or qemu left"; fi
	skip "a board and a namespace end: this host's kernel has no ESP"
else
	check "a board and a namespace end on a kernel with ESP: up" [ "$rc" -eq 0 ]
	check_rc "... down" 0 "$NETBENCH" lab down --prefix "$P"
	skip "the refusal without ESP: this host's kernel has ESP"
fi

# xfrm_sa FILE: the lab's SAs from `lab status -J` (each board's own counters, through its
# control port) as "sa BOARD SRC DST SPI BYTES PACKETS" lines.
xfrm_sa() {
	"$NETBENCH" lab status --prefix "$P" -J >"$tmp/st.json"
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["vpn_sa"]:
    print("sa", a["board"], a["src"], a["dst"], a["spi"], a["bytes"], a["packets"])
for e in d["xfrm_errors"]:
    print("xfrm_error", e["board"], e["name"], e["count"])' "$tmp/st.json" >"$1"
}

# tput_mbps JSON LABEL: tput's rate, printed (emulated boards: no bound asserted).
tput_mbps() {
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["steps"]:
    print("# tput through the tunnel on the %s driver: %s B blocks, %s: %.2f Mbit/s" % (sys.argv[2], s["block_bytes"], s["direction"], s["mbit_per_s"]))' "$1" "$2" || true
}
# A driver the armhf board's kernel has for cbc(aes) that its tunnel does not use by default
# (its default is the NEON bit-sliced cbc-aes-neonbs).
DRV='cbc(aes-generic)'

t0=$(date +%s)
if ! lab_up "$P" --dut vm:armhf --sink vm:armhf --vpn esp --board-dir "$board_dir"; then
	notok "lab up --dut vm:armhf --sink vm:armhf --vpn esp"
	echo "1..$n"
	exit 1
fi
ok "lab up --dut vm:armhf --sink vm:armhf --vpn esp ($(($(date +%s) - t0)) s)"
check "up names the agent in the sink board, as status does, and the tunnel's address" sh -c "
	grep -q 'agent: netbench serve in the sink board on 198.19.0.1' '$nb_tmp/lab.out' &&
	grep -q 'vpn: esp from the DUT board to the sink board; traffic to 198.19.1.1 goes through it' '$nb_tmp/lab.out'" ||
	sed 's/^/# /' "$nb_tmp/lab.out"
run=/run/netbench-lab/$P
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json"
check_quiet "status: healthy, both boards running with their control ports, the agent the sink board's" json_check "$tmp/status.json" "
assert d['healthy'], d
assert d['board']['role'] == 'dut' and d['board2']['role'] == 'sink', d
assert d['board_control_port'] and d['board2_alive'] and d['board2_control_port'], d
assert d['agent']['answers'] and d['agent']['pid'] == d['board2']['qemu_pid'], d
"
check "two boards, each with its qemu" sh -c "test -s $run/board-qemu.pid && test -s $run/board-sink-qemu.pid"
check "the wire between the boards is a bridge of their taps in the DUT namespace" sh -c \
	"ip -n $P-dut link show sink0 | grep -q 'master br1' && ip -n $P-dut link show dut1 | grep -q 'master br1'"
xfrm_sa "$tmp/sa0"
grep '^sa dut' "$tmp/sa0" >"$tmp/sa-dut0"
grep '^sa sink' "$tmp/sa0" >"$tmp/sa-sink0"
check "status: each board holds the two SAs, the same SPIs at both ends" sh -c \
	"[ \$(grep -c '^sa ' '$tmp/sa-dut0') -eq 2 ] && [ \"\$(awk '{print \$3, \$4, \$5}' '$tmp/sa-dut0' | sort)\" = \"\$(awk '{print \$3, \$4, \$5}' '$tmp/sa-sink0' | sort)\" ]"
check "no key in status" sh -c "! grep -Eq '0x[0-9a-f]{32}' '$tmp/st.json' && \"$NETBENCH\" lab status --prefix $P | grep -q 'vpn sa in the sink board' && ! \"$NETBENCH\" lab status --prefix $P | grep -Eq '0x[0-9a-f]{32}'"

# The agent on the sink board is reached at the tunnel's address: control and frames go
# through the tunnel (the receiver binds to the control connection's address).
ip netns exec "$P-gen" "$NETBENCH" rate -c 198.19.1.1 -s 128 -m trial -r 1000 -t 2 -J \
	>"$tmp/trial.json" 2>"$tmp/trial.err"
xfrm_sa "$tmp/sa1"
grep '^sa dut' "$tmp/sa1" >"$tmp/sa-dut1"
grep '^sa sink' "$tmp/sa1" >"$tmp/sa-sink1"
sed 's/^/# before: /' "$tmp/sa0"; sed 's/^/# after: /' "$tmp/sa1"
# The SA from the DUT board to the sink board carries the trial's frames and the control
# connection's segments (about 40 in a 2 s trial here; 300 allowed for a slow control
# exchange): encrypted by the DUT board, decrypted by the sink board. No rate is asserted (two
# emulated boards on a loaded host lose frames, and the generator may send fewer than asked):
# what the sink counted must have gone through both SAs, and the DUT board cannot have
# encrypted more than was sent plus the control traffic.
check_quiet "rate trial through the tunnel: the boards' SA counters reconcile with the frames" /usr/bin/python3 -c "
import json, sys
t = json.load(open('$tmp/trial.json'))['sizes'][0]['trials'][0]
assert t['valid'] and t['tx_frames'] > 0, t
assert t['rx_frames'] + t['lost_frames'] == t['tx_frames'], t
def sa(path):
    return {(w[2], w[3]): (int(w[5]), int(w[6])) for w in (l.split() for l in open(path)) if w[0] == 'sa'}
k = ('198.19.0.254', '198.19.0.1')
d0, d1 = sa('$tmp/sa-dut0')[k], sa('$tmp/sa-dut1')[k]
s1 = sa('$tmp/sa-sink1')[k]
out = d1[1] - d0[1]
print('# trial: tx', t['tx_frames'], 'rx', t['rx_frames'], '; DUT board encrypted', out, 'packets; sink board decrypted', s1[1], 'in all')
assert t['rx_frames'] <= out <= t['tx_frames'] + 300, (out, t)
assert t['rx_frames'] <= s1[1] and s1[1] <= d1[1], (s1, d1, t)
assert d1[0] - d0[0] >= 100 * t['rx_frames'], (d0, d1)
"
# The agent at the tunnel's end names the NIC the tunnel crosses, not lo.
check_quiet "the tunnel's end: the sink board's NIC and its driver, not lo" json_check \
	"$tmp/trial.json" "
r = d['env']['remote']
assert r['iface'] == 'eth0' and r['driver'], r
"

# tput through the tunnel: the DUT board's SA carried every byte tput sent (warm-up included, as
# the tunnel counts it), plus TCP/IP headers and the control connection: at most 15 % and 64 KB
# more (the bound tests/vm/guest/20_vpn.sh uses for the namespace lab's tunnel).
ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.1.1 -t 0.5 -O 0.2 -l 16k --tx-only -J \
	>"$tmp/tput.json" 2>"$tmp/tput.err"
check "tput through the tunnel" test -s "$tmp/tput.json"
xfrm_sa "$tmp/sa2"
grep '^sa dut' "$tmp/sa2" >"$tmp/sa-dut2"
sent=$(sed -n 's/.*"sent_total_bytes": \([0-9]*\).*/\1/p' "$tmp/tput.json" | head -1)
b1=$(awk '$3 == "198.19.0.254" && $4 == "198.19.0.1" { print $6 }' "$tmp/sa-dut1")
b2=$(awk '$3 == "198.19.0.254" && $4 == "198.19.0.1" { print $6 }' "$tmp/sa-dut2")
echo "# tput sent ${sent:-?} bytes; the DUT board's SA to the sink carried $((${b2:-0} - ${b1:-0}))"
check "tput's bytes reconcile with the DUT board's SA byte counter" sh -c \
	"[ -n '$sent' ] && [ $((${b2:-0} - ${b1:-0})) -ge ${sent:-1} ] && [ $((${b2:-0} - ${b1:-0})) -le $((${sent:-0} + ${sent:-0} * 15 / 100 + 65536)) ]"
check "... and no xfrm error counter in either board" sh -c "! grep -q '^xfrm_error' '$tmp/sa2'"
# What a tunnel runs on without --crypto-driver: each board's kernel's choice, never the
# driver chosen below (else the check that the choice carried the tunnel would prove nothing).
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/st-default.json"
check_quiet "status: each board's ESP transform, on its kernel's default driver, not $DRV" json_check \
	"$tmp/st-default.json" "
t = [x for x in d['vpn_transforms'] if x['name'] == 'authenc(hmac(sha1),cbc(aes))']
print('# default:', ', '.join('%s board %s (%d references)' % (x['board'], x['driver'], x['refcnt']) for x in t))
assert {x['board'] for x in t} == {'dut', 'sink'}, t
assert all('$DRV' not in x['driver'] for x in t), t
"
grep '^# ' "$nb_tmp/out"
tput_mbps "$tmp/tput.json" default
check_schemas "$tmp"
check_rc "lab down" 0 "$NETBENCH" lab down --prefix "$P"
if leftovers; then notok "down: no namespace or qemu left"; else ok "down: no namespace or qemu left"; fi

# --crypto-driver with two boards: `netbench lab crypto-driver` in each board (its control port)
# raises the driver before the board's SAs exist. A driver the boards' kernel lacks: exit 1 with
# the board's reason, nothing left.
"$NETBENCH" lab up --prefix "$P" --dut vm:armhf --sink vm:armhf --vpn esp --crypto-driver \
	nosuch-aes-driver --board-dir "$board_dir" >"$tmp/nosuch" 2>&1
rc=$?
check "--crypto-driver unknown to the boards' kernel: exit 1 (got $rc), the board's reason" sh -c \
	"[ $rc -eq 1 ] && grep -q 'the DUT board (kernel .*) refused it: .*this kernel has no driver nosuch-aes-driver' '$tmp/nosuch'" ||
	sed 's/^/# /' "$tmp/nosuch"
if leftovers; then notok "... no namespace or qemu left"; else ok "... no namespace or qemu left"; fi

# A driver the armhf kernel has for cbc(aes) that a tunnel does not use by default: the SAs of
# both boards are built on it (the ESP transform /proc/crypto lists, read through lab status),
# and tput's bytes go through the DUT board's SA.
t0=$(date +%s)
if lab_up "$P" --dut vm:armhf --sink vm:armhf --vpn esp --crypto-driver "$DRV" --board-dir "$board_dir"; then
	ok "lab up ... --vpn esp --crypto-driver $DRV ($(($(date +%s) - t0)) s)"
	check "up says the driver each board's kernel raised" sh -c "
		grep -q 'crypto driver in the DUT board: $DRV for cbc(aes): priority' '$nb_tmp/lab.out' &&
		grep -q 'crypto driver in the sink board: $DRV for cbc(aes): priority' '$nb_tmp/lab.out'" ||
		sed 's/^/# /' "$nb_tmp/lab.out"
	xfrm_sa "$tmp/sa3"
	ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.1.1 -t 0.5 -O 0.2 -l 16k --tx-only -J \
		>"$tmp/tput-drv.json" 2>"$tmp/tput-drv.err"
	check "tput through the tunnel on $DRV" test -s "$tmp/tput-drv.json"
	xfrm_sa "$tmp/sa4"
	sent=$(sed -n 's/.*"sent_total_bytes": \([0-9]*\).*/\1/p' "$tmp/tput-drv.json" | head -1)
	b3=$(awk '$2 == "dut" && $3 == "198.19.0.254" && $4 == "198.19.0.1" { print $6 }' "$tmp/sa3")
	b4=$(awk '$2 == "dut" && $3 == "198.19.0.254" && $4 == "198.19.0.1" { print $6 }' "$tmp/sa4")
	echo "# tput sent ${sent:-?} bytes; the DUT board's SA to the sink carried $((${b4:-0} - ${b3:-0}))"
	check "... its bytes went through the DUT board's SA" sh -c \
		"[ -n '$sent' ] && [ $((${b4:-0} - ${b3:-0})) -ge ${sent:-1} ] && [ $((${b4:-0} - ${b3:-0})) -le $((${sent:-0} + ${sent:-0} * 15 / 100 + 65536)) ]"
	"$NETBENCH" lab status --prefix "$P" -J >"$tmp/st-drv.json"
	check_quiet "status: each board's ESP transform is on $DRV, and no other one" json_check \
		"$tmp/st-drv.json" "
t = [x for x in d['vpn_transforms'] if x['name'] == 'authenc(hmac(sha1),cbc(aes))']
print('# on $DRV:', ', '.join('%s board %s (%d references)' % (x['board'], x['driver'], x['refcnt']) for x in t))
assert sorted(x['board'] for x in t) == ['dut', 'sink'], t
assert all(x['driver'].endswith(',$DRV)') for x in t), t
"
	grep '^# ' "$nb_tmp/out"
	grep 'crypto driver in the' "$nb_tmp/lab.out" | sed 's/^ */# /'
	check "status says it" sh -c "\"$NETBENCH\" lab status --prefix $P | grep -q 'vpn transform in the sink board: authenc(hmac(sha1),cbc(aes)) on authenc(.*,$DRV)'"
	tput_mbps "$tmp/tput-drv.json" "$DRV"
	check_schemas "$tmp"
	check_rc "lab down" 0 "$NETBENCH" lab down --prefix "$P"
else
	notok "lab up ... --vpn esp --crypto-driver $DRV"
fi
if leftovers; then notok "down: no namespace or qemu left"; else ok "down: no namespace or qemu left"; fi
echo "1..$n"
