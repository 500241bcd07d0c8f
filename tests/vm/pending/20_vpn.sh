#!/bin/sh
# PENDING: not run by make check yet. In the test VM every `ip xfrm state add` fails with
# "Kernel was unable to initialize cryptographic operations" (the ESP transform is not built);
# WireGuard comes up but tput through it fails. Move back to tests/vm/guest/ once fixed.
# Inside the test VM: netbench lab up --vpn (ESP with each algorithm, WireGuard), tput through
# the tunnel reconciled with the tunnel's own counters (the DUT's outbound SA in `ip -s xfrm
# state`, the WireGuard peer's transfer bytes), --crypto-driver moving the tunnel on and off the
# virtio hardware driver (its data queue interrupts), and lab down leaving nothing behind.
. "$TOP/tests/lib.sh"
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
virtio_irqs() { awk '/virtio.*dataq|virtio.*crypto/ { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i } END { print s + 0 }' /proc/interrupts; }
# within LO..HI: tunnel bytes >= payload sent; at most 15 % headers and 64 KB of control
within() { [ "$2" -ge "$1" ] && [ "$2" -le $(($1 + $1 * 15 / 100 + 65536)) ]; }
tput_vpn() { $G "$NB" tput -c 198.19.1.1 -t 1 -O 0.2 -l 16k --tx-only -J >"$nb_tmp/t.json" 2>"$nb_tmp/t.err"; }
clean() {
	! ip netns list | grep -q '^v-' && [ ! -e /run/netbench-lab/v/state ] &&
		[ -z "$(ip xfrm state)" ] && [ -z "$(ip xfrm policy)" ]
}

for algo in aes-cbc-hmac-sha1 aes-gcm chacha20-poly1305; do
	check_rc "lab up --vpn esp:$algo" 0 "$NB" lab up --vpn "esp:$algo"
	check "esp:$algo: two SAs and policies in the DUT" sh -c \
		"[ \$(ip -n v-dut xfrm state | grep -c '^src') -eq 2 ] && ip -n v-dut xfrm policy | grep -q 'dir fwd'"
	b0=$(sa_bytes)
	if tput_vpn; then ok "esp:$algo: tput through the tunnel"; else
		nok "esp:$algo: tput through the tunnel"; sed 's/^/# /' "$nb_tmp/t.err" | head -5; fi
	s=$(sent "$nb_tmp/t.json"); b1=$(sa_bytes)
	echo "# esp:$algo: tput sent ${s:-?} bytes, the SA counted $((${b1:-0} - ${b0:-0})) bytes"
	check "esp:$algo: the SA's byte counter reconciles with tput's bytes" \
		within "${s:-1}" "$((${b1:-0} - ${b0:-0}))"
	check_rc "esp:$algo: lab down" 0 "$NB" lab down
	check "esp:$algo: no xfrm state, policy, namespace or state file left" clean
done

check_rc "lab up --vpn wireguard" 0 "$NB" lab up --vpn wireguard
w0=$(ip netns exec v-dut wg show wgdut transfer | awk '{ print $3 }')
if tput_vpn; then ok "wireguard: tput through the tunnel"; else
	nok "wireguard: tput through the tunnel"; sed 's/^/# /' "$nb_tmp/t.err" | head -5; fi
s=$(sent "$nb_tmp/t.json")
w1=$(ip netns exec v-dut wg show wgdut transfer | awk '{ print $3 }')
echo "# wireguard: tput sent ${s:-?} bytes, the peer's tx counted $((${w1:-0} - ${w0:-0})) bytes"
# WireGuard counts the encrypted packets: 32 bytes of its own per packet more than ESP's SA.
check "wireguard: the peer's transfer counter reconciles with tput's bytes" \
	within "${s:-1}" "$((${w1:-0} - ${w0:-0}))"
check_rc "wireguard: lab down" 0 "$NB" lab down
check "wireguard: nothing left" clean

# --crypto-driver: the tunnel on the virtio engine, then on the CPU's cbc(aes-generic).
for drv in virtio_crypto_aes_cbc 'cbc(aes-generic)'; do
	check_rc "lab up --vpn esp --crypto-driver $drv" 0 "$NB" lab up --vpn esp --crypto-driver "$drv"
	i0=$(virtio_irqs)
	tput_vpn || nok "tput through the tunnel on $drv"
	i1=$(virtio_irqs)
	echo "# $drv: virtio-crypto interrupts $i0 -> $i1"
	if [ "$drv" = virtio_crypto_aes_cbc ]; then
		check "on virtio_crypto_aes_cbc the virtio device served requests" [ "$i1" -gt "$i0" ]
	else
		check "on cbc(aes-generic) the virtio device served none" [ "$i1" -eq "$i0" ]
	fi
	check_rc "lab down after --crypto-driver $drv" 0 "$NB" lab down
	check "lab down said it restored the priority" has "restored the priority of crypto driver"
done
check "virtio_crypto_aes_cbc's priority is 150 again" sh -c \
	"grep -A4 'driver *: virtio_crypto_aes_cbc' /proc/crypto | grep -q 'priority *: 150'"
check "nothing left at the end" clean
