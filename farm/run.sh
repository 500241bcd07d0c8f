#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make farm [BOARD=ppc]: the labgrid suite (farm/labgrid) against an emulated board (armhf by
# default, or ppc: farm/labgrid/qemu-ARCH.yaml). Builds the board (tests/board/build.sh), gives
# its NIC a tap in a network namespace of its own (198.18.77.1/24 here, the board 198.18.77.2),
# and runs pytest with labgrid's plugin inside that namespace, so the controller's traffic
# reaches only the board. Usage: farm/run.sh [BUILD_DIR [JUNIT.xml [ARCH]]].
# Exits with pytest's status; 3 with "SKIP reason" on stdout where the board, labgrid or pytest
# cannot be had. Nothing is left behind: the namespace, its tap and qemu go at exit.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
junit=${2:-}
arch=${3:-armhf}
[ -f "$top/farm/labgrid/qemu-$arch.yaml" ] ||
	{ echo "farm: no labgrid environment for board '$arch' (armhf or ppc)" >&2; exit 2; }
mkdir -p "$build" && build=$(cd "$build" && pwd)
py=/usr/bin/python3
[ "$(id -u)" -eq 0 ] || { echo "SKIP needs root (network namespace, tap)"; exit 3; }
$py -c 'import labgrid, pytest' 2>/dev/null ||
	{ echo "SKIP $py lacks labgrid or pytest (Debian: python3-labgrid python3-pytest)"; exit 3; }
[ -x "$build/netbench" ] || { echo "SKIP no $build/netbench (make first)"; exit 3; }
out=$(sh "$top/tests/board/build.sh" "$arch" "$build")
rc=$?
case $out in SKIP*) echo "$out"; exit 3 ;; esac
[ $rc -eq 0 ] || { echo "board image build failed (exit $rc)" >&2; exit 1; }
dir=$(echo "$out" | tail -1)

ns=nbfarm$$
tap=nbfarm0
cleanup() {
	trap '' INT TERM HUP
	# qemu ends with labgrid's driver; one still holding the tap would keep the namespace alive.
	for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null; done
	sleep 0.3
	for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
	ip netns del "$ns" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM
ip netns add "$ns" || exit 1
ip -n "$ns" link set lo up
ip -n "$ns" tuntap add dev "$tap" mode tap || exit 1
ip -n "$ns" addr add 198.18.77.1/24 dev "$tap"
ip -n "$ns" link set "$tap" up
# The stream test sends to a multicast group: out of the board's tap.
ip -n "$ns" route add 224.0.0.0/4 dev "$tap"

cd "$top" || exit 1
LG_BOARD_DIR=$dir LG_BOARD_TAP=$tap LG_BOARD_ADDR=198.18.77.2 NETBENCH=$build/netbench \
	NB_FARM_DB=${NB_FARM_DB:-$build/farm.db} PYTHONDONTWRITEBYTECODE=1 \
	ip netns exec "$ns" $py -m pytest -p no:cacheprovider --lg-env "farm/labgrid/qemu-$arch.yaml" \
	-v ${junit:+--junitxml="$junit"} farm/labgrid
