#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: the kernel engines are here (AF_ALG, the virtio hardware driver) and the
# link to the host carries a netbench tput sweep to the host's agent.
. "$TOP/tests/lib.sh"
NB=$NETBENCH
check "AF_ALG sockets in the guest kernel" grep -q . /proc/crypto
check "virtio-crypto registered cbc(aes) as virtio_crypto_aes_cbc" \
	grep -q 'virtio_crypto_aes_cbc' /proc/crypto
if [ -s /run/nbvm-netdev ]; then
	check_rc "tput over virtio-net to the host's agent" 0 \
		"$NB" tput -c 198.18.200.1 -t 1 -O 0.2 -l 16k --tx-only -J
	if has '"kbyte_per_s"'; then ok "tput gave a rate"; else nok "tput gave a rate"; fi
else
	skip "no link to the host (no tap device there)"
fi
