#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds an emulated board's image: Debian's stock kernel for ARCH (downloaded with apt-get
# download, never installed) and a busybox initramfs with the static netbench of that
# architecture, nft with its libraries, the kernel modules a board needs and the board's init
# (tests/board/init). ppc (an e500v2 with gianfar NICs) has no Debian user space: its kernel
# and user space are built from Debian's sources instead (tests/board/ppc.sh).
# Usage: tests/board/build.sh ARCH BUILD_DIR [IMAGE_DIR], ARCH armhf, x86_64 or ppc.
# Prints on stdout the path of a directory (IMAGE_DIR, default BUILD_DIR/board-ARCH) holding
#   kernel      the kernel image (zImage on armhf, vmlinuz on x86_64, vmlinux on ppc)
#   initrd.gz   the initramfs
#   kernel.version, arch
# (netbench chooses the emulator, its machine arguments, the console and the NIC of ARCH from
# its own table, src/core/lab/lab_board_arch.c: a board directory is data and names no program)
# or prints "SKIP reason" and exits 3 where a tool or package cannot be had. Diagnostics go to
# stderr. Packages are kept in $NB_BOARD_CACHE/ARCH (default /var/cache/netbench-board/ARCH
# when writable, else BUILD_DIR/board-cache/ARCH) and reused.
# Run from netbench's source tree (tests/board/) or as installed with netbench's package
# (/usr/share/netbench/board: these scripts, tests/kernel-cache.sh and netbench-src.tar.gz, the
# source the board's static netbench is built from: `lab up --dut vm:ARCH` runs it there when
# the image is missing).
set -u
arch=${1:?usage: build.sh ARCH BUILD_DIR [IMAGE_DIR]}
build=${2:?usage: build.sh ARCH BUILD_DIR [IMAGE_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build" && build=$(cd "$build" && pwd)
out=${3:-$build/board-$arch}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
skip() { echo "SKIP $*"; exit 3; }
log() { echo "board: $*" >&2; }

case "$arch" in
armhf)
	qemu=qemu-system-arm qemu_pkg=qemu-system-arm deb_arch=armhf kflavour=armmp
	cc=arm-linux-gnueabihf-gcc cc_pkg=gcc-arm-linux-gnueabihf
	readelf=arm-linux-gnueabihf-readelf libdir=arm-linux-gnueabihf
	cpu_mods="aes_arm aes_arm_bs" # the CPU's own AES drivers, for crypto by driver
	nic_mods=
	;;
x86_64)
	qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86 deb_arch=amd64 kflavour=amd64
	cc=gcc cc_pkg=gcc readelf=readelf libdir=x86_64-linux-gnu
	cpu_mods=aesni_intel
	nic_mods=e1000e # vm:x86_64,nic=e1000e: qemu's Intel 82574L
	;;
ppc)
	qemu=qemu-system-ppc qemu_pkg=qemu-system-ppc deb_arch=
	cc=powerpc-linux-gnu-gcc cc_pkg=gcc-powerpc-linux-gnu readelf=powerpc-linux-gnu-readelf
	;;
*)
	echo "board: unknown ARCH '$arch' (armhf, x86_64 or ppc)" >&2
	exit 2
	;;
esac

command -v "$qemu" >/dev/null 2>&1 || skip "$qemu is not installed (Debian package $qemu_pkg)"
command -v "$cc" >/dev/null 2>&1 || skip "$cc is not installed (Debian package $cc_pkg)"
for t in cpio gzip depmod apt-get apt-cache dpkg "$readelf"; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
[ -z "$deb_arch" ] || dpkg --print-architecture | grep -qx "$deb_arch" ||
	dpkg --print-foreign-architectures | grep -qx "$deb_arch" ||
	skip "dpkg has no $deb_arch architecture (dpkg --add-architecture $deb_arch && apt-get update)"

# The source tree, or the installed copy of it (unpacked into the cache once per version).
if [ -f "$here/../../Makefile" ] && [ -d "$here/../../src" ]; then
	src=$(cd "$here/../.." && pwd) kcache=$here/../kernel-cache.sh
elif [ -f "$here/netbench-src.tar.gz" ]; then
	kcache=$here/kernel-cache.sh
else
	skip "no netbench source next to $here (a source tree's tests/board, or the package's netbench-src.tar.gz)"
fi
command -v make >/dev/null 2>&1 || skip "make is not installed (the board's netbench is built here)"

if [ -n "${NB_BOARD_CACHE:-}" ]; then
	cache=$NB_BOARD_CACHE/$arch
elif mkdir -p "/var/cache/netbench-board/$arch" 2>/dev/null && [ -w "/var/cache/netbench-board/$arch" ]; then
	cache=/var/cache/netbench-board/$arch
else
	cache=$build/board-cache/$arch
fi
mkdir -p "$cache" || skip "cannot create $cache"
if [ -z "${src:-}" ]; then
	src=$cache/netbench-src
	if ! cmp -s "$here/netbench-src.tar.gz" "$src/.tarball" 2>/dev/null; then
		log "unpacking netbench's source ($here/netbench-src.tar.gz) into $src"
		rm -rf "$src" && mkdir -p "$src" && tar -xzf "$here/netbench-src.tar.gz" -C "$src" &&
			cp "$here/netbench-src.tar.gz" "$src/.tarball" || skip "cannot unpack $here/netbench-src.tar.gz"
	fi
	# Its objects live and go with the unpacked tree: the tarball's files all carry one old
	# time, so make would take another version's objects for up to date.
	static=$src/.static
	rm -rf "$cache/static-$(echo "$src" | sha256sum | cut -c1-12)" # where earlier versions kept them
fi

roots=""
if [ "$arch" = ppc ]; then
	. "$here/ppc.sh"
	ppc_build
else
	. "$kcache"
	kernel_fetch "$kflavour"

	# Userland from Debian's packages of the board's architecture: busybox, nft for rulesets
	# and iproute2's ip for the tunnel's SAs and policies (busybox's ip has no xfrm), with the
	# libraries they need (found below by their ELF NEEDED entries).
	pkgs="busybox-static libc6 nftables libnftables1 libnftnl11 libmnl0 libjansson4 libgmp10
	libxtables12 libedit2 libbsd0 libmd0 libtinfo6
	iproute2 libbpf1 libelf1 libcap2 zlib1g"
	for p in $pkgs; do
		r=$(deb_fetch "$p") || skip "apt-get download $p:$deb_arch failed"
		roots="$roots $r"
	done
fi

ir=$out/initramfs
rm -rf "$ir"
mkdir -p "$ir/bin" "$ir/sbin" "$ir/usr/bin" "$ir/usr/sbin" "$ir/lib/modules" "$ir/nb" \
	"$ir/proc" "$ir/sys" "$ir/dev" "$ir/run" "$ir/tmp" "$ir/etc" "$ir/var/run" "$ir/root" || exit 1

# The static netbench of this architecture: what a board runs (libc only). The whole program,
# not the agent-only build (make AGENT=1): a board's LAVA job exports its own results
# (farm/lava/netbench-board.yaml: results export --lava).
# A source tree's objects stay in the package cache, one folder per tree (make's timestamps must
# not mix two trees' objects), so that a new image directory does not rebuild them all.
static=${static:-$cache/static-$(echo "$src" | sha256sum | cut -c1-12)}
log "building the static netbench for $arch (source: $src, objects: $static)"
make -C "$src" --no-print-directory -s CC="$cc" STATIC=1 BUILD="$static" "$static/netbench" >&2 ||
	{ log "static build for $arch failed"; exit 1; }
cp "$static/netbench" "$ir/nb/netbench"

# find_in_roots RELPATH: the first unpacked package holding it.
find_in_roots() {
	local r
	for r in $roots; do
		[ -e "$r/$1" ] && { echo "$r/$1"; return 0; }
	done
	return 1
}
if [ "$arch" = ppc ]; then
	# Built from source by ppc.sh, all static: no loader, no libraries, no modules.
	cp "$bb" "$ir/bin/busybox" || exit 1
	# Whether the image has nft (the board's tests look): its version, or why not.
	rm -f "$out/nft" "$out/nft.missing"
	if [ -n "$nft" ]; then
		cp "$nft" "$ir/usr/sbin/nft" && echo "nftables $ppc_src_nftables" >"$out/nft" || exit 1
	else
		echo "$nft_missing" >"$out/nft.missing"
	fi
	: >"$ir/lib/modules/load"
else
	bb=$(find_in_roots bin/busybox) || skip "busybox-static:$deb_arch has no bin/busybox"
	cp "$bb" "$ir/bin/busybox"

	# An ELF and, recursively, the shared libraries it names, at Debian's multiarch paths; the
	# loader comes from libc6.
	copy_elf() { # path-in-packages
		local src lib f
		src=$(find_in_roots "$1") || { log "no $1 in the packages"; return 1; }
		mkdir -p "$ir/$(dirname "$1")"
		[ -f "$ir/$1" ] && return 0
		cp -L "$src" "$ir/$1" || return 1
		for lib in $($readelf -d "$src" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			for f in "lib/$libdir/$lib" "usr/lib/$libdir/$lib"; do
				find_in_roots "$f" >/dev/null && { copy_elf "$f" || return 1; break; }
			done
		done
		interp=$($readelf -l "$src" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
		if [ -n "$interp" ] && [ ! -e "$ir$interp" ]; then
			f=$(find_in_roots "${interp#/}") || { log "no loader $interp"; return 1; }
			mkdir -p "$ir$(dirname "$interp")"
			cp -L "$f" "$ir$interp"
		fi
	}
	copy_elf usr/sbin/nft || skip "cannot assemble nft for $deb_arch"
	# iproute2's ip as /nb/ip, called by that path (busybox's shell prefers its own applets to
	# PATH): the init's other ip commands are busybox's.
	copy_elf bin/ip || skip "cannot assemble iproute2's ip for $deb_arch"
	cp "$ir/bin/ip" "$ir/nb/ip" && rm -f "$ir/bin/ip"
	# libc6 keeps the loader's real file under lib/ARCH and a link in /lib: both resolve.
	[ -d "$ir/lib/$libdir" ] && [ ! -e "$ir/usr/lib/$libdir" ] && mkdir -p "$ir/usr/lib" &&
		ln -s "../../lib/$libdir" "$ir/usr/lib/$libdir"

	# Modules, dependencies first, in one load order (decompressed: busybox's insmod may not read
	# .xz). virtio_mmio for -M virt, virtio_pci for a PC; nf_tables and nft_ct for the lab's
	# rulesets (libcrc32c, which nf_tables needs, wants a crc32c first); af_alg and virtio_crypto for
	# crypto by driver; xfrm_user, esp4 and the transforms of `lab up --vpn esp[:ALGO]` (authenc
	# with cbc(aes) and hmac(sha1), rfc4106(gcm(aes)), rfc7539esp(chacha20,poly1305)) for a tunnel
	# that ends in the board, with drbg and jitterentropy_rng: echainiv and seqiv take their IVs'
	# salt from the default RNG, which the kernel would otherwise ask modprobe for (there is none).
	mods="virtio_mmio virtio_pci virtio_net virtio_console virtio_crypto crc32c_generic nf_tables nft_ct af_alg
	algif_skcipher algif_aead algif_hash crypto_user $cpu_mods jitterentropy_rng drbg xfrm_user esp4
	authenc echainiv seqiv cbc hmac sha1_generic aes_generic gcm ctr ghash_generic chacha_generic
	poly1305_generic chacha20poly1305 $nic_mods"
	# shellcheck disable=SC2086 # the list of modules
	kernel_modules "$out/modules.order" "$ir/lib/modules" $mods
fi

# The init runs under the board's busybox (the package's copy has no #! line: it is data there).
{ echo '#!/bin/busybox sh'; sed '1{/^#!/d}' "$here/init"; } >"$ir/init"
chmod 755 "$ir/init"
echo "$kver" >"$ir/nb/kernel"
echo "$arch" >"$ir/nb/arch"
(cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initrd.gz.tmp" &&
	mv "$out/initrd.gz.tmp" "$out/initrd.gz" || exit 1
cp "$kimg" "$out/kernel"
echo "$kver" >"$out/kernel.version"
echo "$arch" >"$out/arch"
rm -rf "$ir"
echo "$out"
