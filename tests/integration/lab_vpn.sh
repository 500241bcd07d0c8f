#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench lab up --vpn on this host's kernel: where it lacks ESP or WireGuard, up says so in one
# line, exits 1 and leaves no namespace, state or process behind; where it has them, the lab
# comes up and down removes it all. Bad --vpn/--crypto-driver values are usage errors (exit 2);
# a --crypto-driver this kernel lacks or that is no part of the SA's transform is refused (1).
# The tunnels' function and accounting are tested in the VM (tests/vm/guest/20_vpn.sh). ~2 s.
. "$(dirname "$0")/../lib.sh"
NB=${NETBENCH:?}
need_root
V=nbtvpn_$nb_id
export NB_LAB_PREFIX=$V
nb_labs="$nb_labs $V" # taken down at exit, whatever happens
leftovers() {
	ip netns list | grep -q "^$V-" && return 0
	[ -e /run/netbench-lab/$V/state ] && return 0
	return 1
}

check_rc "--vpn with an unknown tunnel is a usage error" 2 "$NB" lab up --vpn ipsec
check "it names the accepted ones" has "esp:chacha20-poly1305"
check_rc "--vpn esp with an unknown algorithm is a usage error" 2 "$NB" lab up --vpn esp:des
check_rc "--crypto-driver without --vpn is a usage error" 2 "$NB" lab up --crypto-driver x
# --crypto-driver is checked against this kernel's /proc/crypto before anything changes (its
# priority is global): a driver it lacks, or one implementing no part of the SA's transform
# (the DRBG's stdrng), exits 1 with the reason and leaves nothing.
check_refused "--crypto-driver this kernel lacks: exit 1, saying so" 1 \
	"this kernel has no driver nosuch-aes-driver" "$NB" lab up --no-agent --vpn esp \
	--crypto-driver nosuch-aes-driver
if leftovers; then notok "... no namespace or state left"; else ok "... no namespace or state left"; fi
drbg=$(awk '/^name/ { n = $3 } /^driver/ && n == "stdrng" { print $3; exit }' /proc/crypto)
prio() { awk -v d="$1" '/^driver/ { x = $3 } /^priority/ && x == d { print $3; exit }' /proc/crypto; }
if [ -n "$drbg" ]; then
	p0=$(prio "$drbg")
	check_refused "--crypto-driver $drbg (stdrng) for esp: exit 1, naming what the SA uses" 1 \
		"implements stdrng, which the SA's transform does not use (it uses authenc(hmac(sha1),cbc(aes)) cbc(aes)" \
		"$NB" lab up --no-agent --vpn esp --crypto-driver "$drbg"
	check "... its priority unchanged ($p0)" [ "$(prio "$drbg")" = "$p0" ]
	if leftovers; then notok "... no namespace or state left"; else ok "... no namespace or state left"; fi
else
	skip "--crypto-driver of another algorithm: this kernel lists no stdrng driver"
fi
check_rc "--vpn is an option of up only" 2 "$NB" lab down --vpn esp
for v in esp:aes-gcm wireguard; do
	"$NB" lab up --no-agent --vpn "$v" >"$nb_tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 1 ]; then
		check "$v: one line says what the kernel lacks" \
			sh -c "[ \$(wc -l <'$nb_tmp/out') -eq 1 ] && grep -q 'this kernel has no' '$nb_tmp/out'"
		check "$v: no key in the message" sh -c "! grep -Eq '0x[0-9a-f]{32}' '$nb_tmp/out'"
		if leftovers; then notok "$v: no namespace or state left"; else ok "$v: no namespace or state left"; fi
		skip "$v: this kernel has it (tested in the VM)"
	else
		check "$v: up succeeded on a kernel that has it" [ "$rc" -eq 0 ]
		check "$v: the DUT has the tunnel" sh -c \
			"ip -n $V-dut xfrm state | grep -q spi || ip -n $V-dut link show wgdut >/dev/null 2>&1"
		check_rc "$v: down" 0 "$NB" lab down
		if leftovers; then notok "$v: no namespace or state left"; else ok "$v: no namespace or state left"; fi
		skip "$v: the kernel-lacks-it branch (this kernel has $v)"
	fi
done

# Keys never on a command line: every ip and wg that lab up starts is logged as /proc shows it.
# ESP's first SA is added (with its keys) whatever the kernel has, so this runs everywhere;
# WireGuard's keys are made only once the kernel took a WireGuard link.
argv_shims "$nb_tmp/shims" ip wg
for v in esp esp:aes-gcm esp:chacha20-poly1305 wireguard; do
	: >"$nb_tmp/shims/argv.log"
	PATH="$nb_tmp/shims:$PATH" "$NB" lab up --no-agent --vpn "$v" >"$nb_tmp/out" 2>&1
	rc=$?
	if [ "$v" = wireguard ] && [ "$rc" -ne 0 ]; then
		skip "$v: no private key on a command line: this kernel has no WireGuard (checked in the VM, tests/vm/guest/20_vpn.sh)"
	elif [ "$v" = wireguard ]; then
		pubs=$(ip netns exec $V-dut wg show all dump | awk 'NF == 5 { print $3 } NF > 5 { print $2 }' | sort -u)
		check "$v: no key but the public ones on any helper's command line" sh -c "
			grep -Eo '[A-Za-z0-9+/]{43}=' '$nb_tmp/shims/argv.log' | sort -u | while read -r k; do
				echo '$pubs' | grep -qx \"\$k\" || exit 1; done"
	else
		check "$v: the helpers were watched ($(wc -l <"$nb_tmp/shims/argv.log") commands)" \
			test -s "$nb_tmp/shims/argv.log"
		check "$v: no key on any helper's command line" \
			sh -c "! grep -Eq '0x[0-9a-fA-F]{16}' '$nb_tmp/shims/argv.log'" ||
			grep -E '0x[0-9a-fA-F]{16}' "$nb_tmp/shims/argv.log" | cut -c1-150 | sed 's/^/# /'
	fi
	"$NB" lab down >/dev/null 2>&1
done
echo "1..$n"
