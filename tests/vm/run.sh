#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Boots the test VM (tests/vm/build.sh) under qemu without KVM, with a virtio-crypto device (a
# hardware crypto driver for the guest) and a virtio-net link to a network namespace this script
# creates, runs the guest scripts (tests/vm/guest/*.sh, or those whose name contains PATTERN)
# and prints their TAP, renumbered as one stream, with one check per script's exit status.
# Usage: tests/vm/run.sh BUILD_DIR [PATTERN]. Exit 0 when every check passed. Needs root (the
# namespace and its tap device). Bounded: the VM is killed after $NB_VM_TIMEOUT seconds (360).
#
# KVM is not used on purpose: it is not everywhere CI runs, and where it is, a guest can hang at
# boot on an unusual host CPU; TCG boots this kernel in about 10 s. There is no virtio-rng on
# purpose too: like many boards, the guest starts with no entropy source, and its kernel's RNG
# becomes ready only some seconds into the tests (what the guest's tput must cope with).
set -u
build=${1:?usage: run.sh BUILD_DIR [PATTERN]}
pattern=${2:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
NB=${NETBENCH:-$build/netbench}
ns=nbvm
tap=nbvmtap
vm=$build/vm
t0=$(date +%s)

skip_all() { echo "1..0 # SKIP $1"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a network namespace with a tap device)"
kernel=$(sh "$top/tests/vm/build.sh" "$build" 2>"$build/vm-build.log")
rc=$?
case "$kernel" in SKIP*) skip_all "test VM: ${kernel#SKIP }" ;; esac
if [ "$rc" -ne 0 ] || [ ! -f "$kernel" ]; then
	echo "not ok 1 - test VM built (see $build/vm-build.log)"
	sed 's/^/# /' "$build/vm-build.log" | tail -20
	exit 1
fi
echo "# VM built in $(($(date +%s) - t0)) s: $kernel"

cleanup() {
	[ -s "$vm/agent.pid" ] && kill "$(cat "$vm/agent.pid")" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns del "$ns" 2>/dev/null
netdev=""
if ip netns add "$ns" && ip -n "$ns" link set lo up &&
	ip -n "$ns" tuntap add dev "$tap" mode tap 2>/dev/null &&
	ip -n "$ns" addr add 198.18.200.1/24 dev "$tap" && ip -n "$ns" link set "$tap" up; then
	netdev="-netdev tap,id=n0,ifname=$tap,script=no,downscript=no -device virtio-net-pci,netdev=n0"
	# The host's end of the link: an agent the guest's tput talks to.
	rm -f "$vm/agent.pid"
	ip netns exec "$ns" "$NB" serve -D -p 5301 --pid-file "$vm/agent.pid" --log "$vm/agent.log"
else
	echo "# no tap device here: the guest runs without a link to the host"
fi

rm -f "$vm/console.log" "$vm/tap.log"
# nb.virt=tcg: the guest cannot tell TCG from KVM by itself; what started it states it, and
# netbench records it as the platform's "virtualization".
append="console=ttyS0 quiet panic=-1 nb.virt=tcg nbvm.only=$pattern"
t1=$(date +%s)
# shellcheck disable=SC2086
ip netns exec "$ns" timeout -k 5 "${NB_VM_TIMEOUT:-360}" qemu-system-x86_64 -accel tcg \
	-m 512 -smp 1 -nodefaults -no-user-config -display none -no-reboot \
	-kernel "$kernel" -initrd "$vm/initramfs.gz" -append "$append" \
	-serial "file:$vm/console.log" -serial "file:$vm/tap.log" \
	-object cryptodev-backend-builtin,id=c0 -device virtio-crypto-pci,cryptodev=c0 \
	$netdev >"$vm/qemu.log" 2>&1
qrc=$?
echo "# VM ran $(($(date +%s) - t1)) s (qemu exit $qrc)"

# One TAP stream: guest numbers replaced by a running count, plans dropped, a whole-script skip
# turned into one skipped check, and one check per script that its exit status was 0.
rm -rf "$vm/json"
mkdir -p "$vm/json"
tr -d '\r' <"$vm/tap.log" | awk -v dir="$vm/json" '
	/^NBVMJ [a-z0-9_.-]+ / { f = $2; sub(/^NBVMJ [^ ]+ /, ""); print > (dir "/" f ".json"); next }
	/^NBVM-RC / { n++; if ($3 == 0) print "ok " n " - guest " $2 " exited 0";
		else { print "not ok " n " - guest " $2 " exited " $3; bad = 1 }; next }
	/^NBVM-DONE/ { done = 1; next }
	/^1\.\.0 # SKIP/ { n++; sub(/^1\.\.0 # SKIP */, ""); print "ok " n " # SKIP " $0; next }
	/^1\.\.[0-9]+/ { next }
	/^ok [0-9]+/ { n++; sub(/^ok [0-9]+/, "ok " n); print; next }
	/^not ok [0-9]+/ { n++; sub(/^not ok [0-9]+/, "not ok " n); print; bad = 1; next }
	{ print "# " $0 }
	END { if (!done) { n++; print "not ok " n " - the VM ran every guest script and powered off"; bad = 1 }
		print n > (dir "/.count"); exit bad }'
rc=$?
n=$(cat "$vm/json/.count")
rm -f "$vm/json/.count"
# The guest has no Python: the JSON documents it printed are validated here.
if ls "$vm/json"/*.json >/dev/null 2>&1; then
	n=$((n + 1))
	if python3 "$top/tests/validate_json.py" "$vm/json" >"$vm/json.log" 2>&1; then
		echo "ok $n - the guest's JSON documents validate against docs/schema ($(ls "$vm/json" | wc -l))"
	else
		echo "not ok $n - the guest's JSON documents validate against docs/schema"
		sed 's/^/# /' "$vm/json.log" | head -20
		rc=1
	fi
fi
echo "1..$n"
if [ "$rc" -ne 0 ]; then
	echo "# last lines of the guest console:"
	tail -15 "$vm/console.log" | sed 's/^/#   /'
	if [ -s "$vm/agent.log" ]; then
		echo "# last lines of the host's agent log:"
		tail -10 "$vm/agent.log" | sed 's/^/#   /'
	fi
fi
exit "$rc"
