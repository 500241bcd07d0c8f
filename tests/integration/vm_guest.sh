#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The kernel engines this host's kernel lacks (AF_ALG, ESP, WireGuard, netem, fq pacing), tested
# in a VM: Debian's stock kernel under qemu with a virtio-crypto device (tests/vm/run.sh). One
# boot runs every guest script in tests/vm/guest/. Skips where qemu or the kernel package
# cannot be had.
exec sh "${TOP:?}/tests/vm/run.sh" "${BUILD:?}"
