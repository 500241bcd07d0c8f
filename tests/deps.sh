#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs from Debian's archive what netbench's build, tests, demo and benchmarks use. Idempotent;
# quiet when everything is present.
set -e
pkgs="make gcc clang libc6-dev pkg-config libssl-dev iproute2 nftables ethtool iperf3 iperf \
netsniff-ng qemu-user gcc-powerpc-linux-gnu libc6-dev-powerpc-cross gcc-arm-linux-gnueabihf \
libc6-dev-armhf-cross libclang-rt-14-dev procps psmisc python3 file \
iputils-ping util-linux python3-jsonschema"
# The small static agent, installation and the Debian package (make package-check).
pkgs="$pkgs musl-tools dpkg-dev debhelper lintian fakeroot man-db systemd busybox-static"
# The results store (controller only) and its test: SQLite, and a browser to look at the report.
pkgs="$pkgs libsqlite3-dev sqlite3 chromium"
# bench/mem-vs-peers: the memory benchmarks Debian ships (it has no lmbench).
pkgs="$pkgs sysbench mbw"
# bench/stream-pacing: GNU time around each sender.
pkgs="$pkgs time"
# tests/integration/tput_congestion.sh: the order of a data socket's system calls.
pkgs="$pkgs strace"
# tests/vm: Debian's kernel under qemu (the kernel package itself is downloaded by tests/vm/build.sh,
# never installed), busybox and the tools copied into its initramfs.
pkgs="$pkgs qemu-system-x86 cpio kmod wireguard-tools xz-utils zstd"
# tests/board: the emulated ARM board (its kernel and userland are downloaded from Debian's armhf
# archive by tests/board/build.sh, never installed; dpkg must know the architecture for that).
pkgs="$pkgs qemu-system-arm"
if [ "$(id -u)" -eq 0 ] && ! dpkg --print-foreign-architectures | grep -qx armhf; then
	dpkg --add-architecture armhf
	apt-get update -qq
fi
# tests/board ppc: the e500v2 board with gianfar NICs. Debian has no 32-bit PowerPC user space:
# tests/board/build.sh builds its kernel from linux-source-6.1 (flex, bison, bc) and its busybox
# and nft from Debian's source packages (apt-get source, with a deb-src entry build.sh adds;
# dpkg-source unpacks them, autoreconf where a source has no configure).
pkgs="$pkgs qemu-system-ppc linux-source-6.1 flex bison bc autoconf automake libtool"
# The board farm (docs/farm.md): LAVA's own schemas check the job and test definitions offline;
# labgrid (python3-labgrid, with pytest) boots the emulated board and drives its console.
pkgs="$pkgs lava-common python3-yaml python3-labgrid python3-pytest"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "netbench: missing packages:$missing (run as root to install them)" >&2
	exit 0
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
