#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: the kernel engines are here (AF_ALG, the virtio hardware driver) and the
# link to the host carries a netbench tput to the host's agent.
. "$TOP/tests/lib.sh"
NB=$NETBENCH
check "AF_ALG sockets in the guest kernel" grep -q . /proc/crypto
check "virtio-crypto registered cbc(aes) as virtio_crypto_aes_cbc" \
	grep -q 'virtio_crypto_aes_cbc' /proc/crypto
if [ -s /run/nbvm-netdev ]; then
	check "the link to the host answers ping" ping -c 2 -W 5 198.18.200.1
	# This guest has no hardware RNG (as many boards): its kernel's RNG becomes ready only
	# seconds after boot, later still on a loaded host, and until then reading /dev/urandom
	# blocks. The controller used to connect first and read its handshake nonce after, so
	# the agent's 2 s first-byte deadline closed the connection ("lost the agent during the
	# handshake"); it now reads the nonce before it connects.
	echo "# uptime $(cut -d' ' -f1 /proc/uptime) s at the tput; $(dmesg | grep -m1 'crng init' || echo 'the RNG is not ready yet')"
	check_rc "tput over virtio-net to the host's agent" 0 \
		"$NB" tput -c 198.18.200.1 -t 1 -O 0.2 -l 16k --tx-only -J
	if has '"kbyte_per_s"'; then ok "tput gave a rate"; else notok "tput gave a rate"; fi
	if has '"virtualization": "vm tcg"'; then ok "the guest's result names its TCG virtual machine"
	else notok "the guest's result names its TCG virtual machine"; fi
	echo "# $(dmesg | grep -m1 'crng init' || echo 'the RNG is still not ready')"
else
	skip "no link to the host (no tap device there)"
fi
