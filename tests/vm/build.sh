#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the test VM: Debian's stock kernel (downloaded with apt-get, never installed) and an
# initramfs holding busybox, the static netbench, the kernel modules the guest tests need (in
# dependency order), iproute2's ip and tc and wireguard-tools' wg with their shared libraries,
# and the guest scripts. Usage: tests/vm/build.sh BUILD_DIR. Prints the kernel image's path on
# stdout; on a host where the kernel package or a tool cannot be had, prints "SKIP reason" on
# stdout and exits 3. Every diagnostic goes to stderr.
#
# The kernel package is kept in a cache outside the tree ($NB_VM_CACHE, default
# /var/cache/netbench-vm when writable, else BUILD_DIR/vm-cache) and reused across runs.
set -u
build=${1:?usage: build.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
skip() { echo "SKIP $*"; exit 3; }

for t in qemu-system-x86_64 busybox cpio gzip depmod apt-get dpkg; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
busybox_bin=$(command -v busybox)
file -L "$busybox_bin" 2>/dev/null | grep -q 'statically linked' ||
	skip "$busybox_bin is not the static busybox (busybox-static)"

if [ -n "${NB_VM_CACHE:-}" ]; then
	cache=$NB_VM_CACHE
elif mkdir -p /var/cache/netbench-vm 2>/dev/null && [ -w /var/cache/netbench-vm ]; then
	cache=/var/cache/netbench-vm
else
	cache=$build/vm-cache
fi
mkdir -p "$cache" || skip "cannot create $cache"

deb_arch=amd64
log() { echo "vm: $*" >&2; }
. "$top/tests/kernel-cache.sh"
kernel_fetch amd64

# The static netbench: what a board runs (libc only).
vm=$build/vm
mkdir -p "$vm"
echo "vm: building the static netbench" >&2
make -C "$top" --no-print-directory -s STATIC=1 BUILD="$vm/static" "$vm/static/netbench" >&2 ||
	{ echo "vm: static build failed" >&2; exit 1; }

ir=$vm/initramfs
rm -rf "$ir"
mkdir -p "$ir/bin" "$ir/sbin" "$ir/usr/bin" "$ir/usr/sbin" "$ir/lib/modules" "$ir/nb/tests" \
	"$ir/proc" "$ir/sys" "$ir/dev" "$ir/run" "$ir/tmp" "$ir/etc" "$ir/var/run" || exit 1
cp "$busybox_bin" "$ir/bin/busybox"
cp "$vm/static/netbench" "$ir/nb/netbench"

# Dynamic tools with the libraries ldd names, at the same paths.
copy_with_libs() { # path
	cp "$1" "$ir$1" || return 1
	ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			mkdir -p "$ir$(dirname "$lib")"
			[ -f "$ir$lib" ] || cp -L "$lib" "$ir$lib"
		done
}
for t in ip tc wg; do
	p=$(command -v "$t" 2>/dev/null) || { echo "vm: $t not found; guest tests needing it skip" >&2; continue; }
	case "$p" in /usr/sbin/* | /sbin/* | /usr/bin/* | /bin/*) ;; *) continue ;; esac
	mkdir -p "$ir$(dirname "$p")"
	copy_with_libs "$p" || skip "cannot copy $p"
done

# Modules and their dependencies, dependencies first, in one load order. Compressed modules
# are decompressed here: busybox's insmod may not read .xz or .zst.
# drbg: the default RNG the IV generators (echainiv, seqiv) of every ESP transform need.
mods="virtio_pci virtio_net virtio_crypto af_alg algif_skcipher algif_aead algif_hash
crypto_user xfrm_user xfrm_algo esp4 authenc echainiv seqiv gcm ghash_generic chacha20poly1305
chacha_generic poly1305_generic ctr drbg wireguard sch_netem sch_tbf sch_fq veth tun"
# shellcheck disable=SC2086 # the list of modules
kernel_modules "$vm/modules.order" "$ir/lib/modules" $mods

cp "$top/tests/vm/init" "$ir/init"
chmod 755 "$ir/init"
cp "$top/tests/lib.sh" "$ir/nb/tests/lib.sh"
mkdir -p "$ir/nb/tests/integration" "$ir/nb/tests/guest"
cp "$top/tests/integration/rate_latency.sh" "$ir/nb/tests/integration/"
cp "$top"/tests/vm/guest/*.sh "$ir/nb/tests/guest/"
echo "$kver" >"$ir/nb/kernel"
(cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) >"$vm/initramfs.gz" || exit 1
echo "$kimg"
