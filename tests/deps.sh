#!/bin/sh
# Installs from Debian's archive what netbench's build, tests, demo and benchmarks use. Idempotent;
# quiet when everything is present.
set -e
pkgs="make gcc clang libc6-dev pkg-config libssl-dev iproute2 nftables ethtool iperf3 iperf \
netsniff-ng qemu-user gcc-powerpc-linux-gnu libc6-dev-powerpc-cross gcc-arm-linux-gnueabihf \
libc6-dev-armhf-cross libclang-rt-14-dev procps psmisc python3 file \
iputils-ping util-linux python3-jsonschema"
# bench/mem-vs-peers: the memory benchmarks Debian ships (it has no lmbench).
pkgs="$pkgs sysbench mbw"
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
