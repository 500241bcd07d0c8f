#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: netbench lab up --vpn (ESP with each algorithm, WireGuard), tput through
# the tunnel reconciled with the tunnel's own counters (the DUT's outbound SA in `ip -s xfrm
# state`, the WireGuard peer's transfer bytes), --crypto-driver moving the tunnel on and off the
# virtio hardware driver (its data queue interrupts), and lab down leaving nothing behind.
. "$TOP/tests/lib.sh"
# Busybox's shell runs its own ip and tc applets before any PATH lookup: use iproute2's.
ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }
NB=$NETBENCH
export NB_LAB_PREFIX=v
G="ip netns exec v-gen"

# tput's sent_total_bytes (warm-up included, as the tunnel counts it)
sent() { sed -n 's/.*"sent_total_bytes": \([0-9]*\).*/\1/p' "$1" | head -1; }
# bytes of the DUT's outbound SA (to the sink)
sa_bytes() {
	ip -n v-dut -s xfrm state | awk '/^src 198.19.0.254 dst 198.19.0.1/ { f = 1 }
		f && /lifetime current:/ { getline; sub(/\(bytes\).*/, ""); gsub(/ /, ""); print; exit }'
}
# interrupts of the virtio-crypto device (virtioN as the virtio_crypto driver has it)
virtio_irqs() {
	v=$(basename "$(ls -d /sys/bus/virtio/drivers/virtio_crypto/virtio* | head -1)")
	awk -v v="$v-" 'index($0, v) { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i }
		END { print s + 0 }' /proc/interrupts
}
# within LO..HI: tunnel bytes >= payload sent; at most 15 % headers and 64 KB of control
within() { [ "$2" -ge "$1" ] && [ "$2" -le $(($1 + $1 * 15 / 100 + 65536)) ]; }
tput_vpn() { $G "$NB" tput -c 198.19.1.1 -t 0.5 -O 0.2 -l 16k --tx-only -J >"$nb_tmp/t.json" 2>"$nb_tmp/t.err"; }
two_sas() {
	[ "$(ip -n v-dut xfrm state | grep -c '^src')" -eq 2 ] &&
		ip -n v-dut xfrm policy | grep -q 'dir fwd'
}
wg_peer() { [ -n "$(ip netns exec v-dut wg show wgdut peers)" ]; }
clean() {
	! ip netns list | grep -q '^v-' && [ ! -e /run/netbench-lab/v/state ] &&
		[ -z "$(ip xfrm state)" ] && [ -z "$(ip xfrm policy)" ]
}

# Every ip and wg that lab up starts, as /proc/PID/cmdline shows it (tests/lib.sh argv_shims):
# no ESP key (0x and hex), no WireGuard key but the public ones.
argv_shims "$nb_tmp/shims" ip wg
no_keys_in_argv() {
	check "$1: the helpers were watched ($(wc -l <"$nb_tmp/shims/argv.log") commands)" \
		test -s "$nb_tmp/shims/argv.log"
	if [ "$1" = wireguard ]; then
		pubs=$(ip netns exec v-dut wg show all dump | awk 'NF == 5 { print $3 } NF > 5 { print $2 }' | sort -u)
		check "$1: no key but the public ones on any helper's command line" sh -c "
			grep -Eo '[A-Za-z0-9+/]{43}=' '$nb_tmp/shims/argv.log' | sort -u | while read -r k; do
				echo '$pubs' | grep -qx \"\$k\" || exit 1; done"
	else
		check "$1: no key on any helper's command line" \
			sh -c "! grep -Eq '0x[0-9a-fA-F]{16}' '$nb_tmp/shims/argv.log'"
	fi
}

# One lab: up (with the driver, if any), the tunnel in place, tput through it reconciled with
# the tunnel's counter, the virtio device's interrupts over the run, down, nothing left.
round() { # vpn [driver]
	v=$1 drv=${2:-}
	: >"$nb_tmp/shims/argv.log"
	if [ -n "$drv" ]; then
		check_rc "lab up --vpn $v --crypto-driver $drv" 0 \
			env PATH="$nb_tmp/shims:$PATH" "$NB" lab up -J --vpn "$v" --crypto-driver "$drv"
	else
		check_rc "lab up --vpn $v" 0 env PATH="$nb_tmp/shims:$PATH" "$NB" lab up -J --vpn "$v"
	fi
	no_keys_in_argv "$v"
	# to the host, which validates it against docs/schema
	sed "s/^/NBVMJ lab_up_$(echo "$v$drv" | tr -c 'a-z0-9\n' _) /" "$nb_tmp/out"
	check "$v: up's JSON names the tunnel" \
		grep -q "\"kind\": \"${v%%:*}\"" "$nb_tmp/out"
	if [ "$v" = wireguard ]; then
		check "$v: the DUT has its WireGuard peer" wg_peer
		c0=$(ip netns exec v-dut wg show wgdut transfer | awk '{ print $3 }')
	else
		check "$v: two SAs and policies in the DUT" two_sas
		c0=$(sa_bytes)
	fi
	i0=$(virtio_irqs)
	if tput_vpn; then ok "$v: tput through the tunnel"; else
		notok "$v: tput through the tunnel"; sed 's/^/# /' "$nb_tmp/t.err" | head -5; fi
	i1=$(virtio_irqs)
	s=$(sent "$nb_tmp/t.json")
	if [ "$v" = wireguard ]; then
		c1=$(ip netns exec v-dut wg show wgdut transfer | awk '{ print $3 }')
		what="the peer's transfer counter"
	else
		c1=$(sa_bytes)
		what="the SA's byte counter"
	fi
	echo "# $v ${drv:+on $drv}: tput sent ${s:-?} bytes, $what $((${c1:-0} - ${c0:-0})); virtio interrupts $i0 -> $i1"
	check "$v: $what reconciles with tput's bytes" within "${s:-1}" "$((${c1:-0} - ${c0:-0}))"
	case "$drv" in
	virtio_crypto_aes_cbc) check "on $drv the virtio device served the tunnel" [ "$i1" -gt "$i0" ] ;;
	?*) check "on $drv the virtio device served none of it" [ "$i1" -eq "$i0" ] ;;
	esac
	check_rc "$v: lab down" 0 "$NB" lab down
	[ -n "$drv" ] && check "lab down restored $drv's priority" has "restored the priority of crypto driver"
	check "$v: no xfrm state, policy, namespace or state file left" clean
}

round esp virtio_crypto_aes_cbc
round esp:aes-gcm
round esp:chacha20-poly1305
round wireguard
round esp 'cbc(aes-generic)'
check "virtio_crypto_aes_cbc's priority is 150 again" sh -c \
	"grep -A4 'driver *: virtio_crypto_aes_cbc' /proc/crypto | grep -q 'priority *: 150'"
