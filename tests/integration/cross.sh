#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Portability: the core builds -Werror clean with clang, and statically for big-endian 32-bit
# PowerPC and 32-bit ARM; the unit tests run under qemu-user; a PowerPC agent under qemu-ppc
# interoperates with this host's controller (little-endian x86-64 against big-endian ppc32).
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/size.sh"
B=${BUILD:-build}
jobs=$(nproc 2>/dev/null || echo 2)

if command -v clang >/dev/null 2>&1; then
	make -s -C "$TOP" WERROR=1 CC=clang BUILD="$B-clang" -j"$jobs" >"$nb_tmp/clang.log" 2>&1
	check "clang build is -Werror clean" test $? -eq 0 || sed 's/^/# /' "$nb_tmp/clang.log" | head -20
else
	skip "clang not installed"
fi

for arch in ppc arm; do
	case $arch in
	ppc) cc=powerpc-linux-gnu-gcc qemu=qemu-ppc label=ppc32-glibc ;;
	arm) cc=arm-linux-gnueabihf-gcc qemu=qemu-arm label=armhf-glibc ;;
	esac
	if ! command -v $cc >/dev/null 2>&1 || ! command -v $qemu >/dev/null 2>&1; then
		skip "$arch: $cc or $qemu not installed (tests/deps.sh installs them)"
		continue
	fi
	make -s -C "$TOP" WERROR=1 CC=$cc STATIC=1 BUILD="$B-$arch" -j"$jobs" all \
		$(cd "$TOP" && ls tests/unit/t_*.c | sed "s|tests/unit/\(.*\)\.c|$B-$arch/tests/\1|") \
		>"$nb_tmp/$arch.log" 2>&1
	if [ $? -ne 0 ]; then
		notok "$arch: static build with $cc"
		sed 's/^/# /' "$nb_tmp/$arch.log" | head -30
		continue
	fi
	ok "$arch: static build with $cc is -Werror clean"
	check "$arch: the binary is static" sh -c "file '$B-$arch/netbench' | grep -q 'statically linked'"
	size_check $label "$B-$arch/netbench" "${cc%gcc}strip"
	check "$arch: no SQLite in the static build: results and --save say so in one line" sh -c "
		! grep -q sqlite3_open '$B-$arch/netbench' &&
		$qemu '$B-$arch/netbench' results list >'$nb_tmp/$arch-nosql' 2>&1; test \$? -eq 1 &&
		grep -q 'this build has no SQLite' '$nb_tmp/$arch-nosql' && test \$(wc -l <'$nb_tmp/$arch-nosql') -eq 1 &&
		$qemu '$B-$arch/netbench' mem --save >'$nb_tmp/$arch-nosql' 2>&1; test \$? -eq 1 &&
		grep -q 'no SQLite' '$nb_tmp/$arch-nosql'"
	for t in "$B-$arch"/tests/t_*; do
		name=$(basename "$t")
		# Emulated code runs at a fraction of native speed: tests judge no wall-clock rates.
		NB_EMULATED=1 timeout 300 $qemu "$t" >"$nb_tmp/$arch-$name.log" 2>&1
		rc=$?
		fails=$(grep -c '^not ok' "$nb_tmp/$arch-$name.log")
		if [ $rc -eq 0 ] && [ "$fails" -eq 0 ]; then ok "$arch: $name passes under $qemu"; else
			notok "$arch: $name under $qemu (exit $rc)"
			grep '^not ok' "$nb_tmp/$arch-$name.log" | head -5 | sed 's/^/# /'
		fi
	done
done

# A dynamic cross build finds this machine's libcrypto through pkg-config: it must go without it
# and say so in one line, not link x86-64 flags into a PowerPC binary (the commands, make -n).
if command -v powerpc-linux-gnu-gcc >/dev/null 2>&1 && pkg-config --exists libcrypto 2>/dev/null; then
	make -s -n -C "$TOP" CC=powerpc-linux-gnu-gcc BUILD="$B-ppc-dyn" all >"$nb_tmp/dyn.log" 2>&1
	check "dynamic PowerPC build: this machine's libcrypto is refused in one line" sh -c "
		[ \$(grep -c 'libcrypto from .* does not link for powerpc-linux-gnu: building without OPENSSL' \
			'$nb_tmp/dyn.log') -eq 1 ] && ! grep -qE -- '-lcrypto|HAVE_OPENSSL' '$nb_tmp/dyn.log'"
else
	skip "dynamic PowerPC build: no powerpc-linux-gnu-gcc or no libcrypto here"
fi

# Interoperation: the big-endian agent under qemu-ppc, the native controller.
if [ -x "$B-ppc/netbench" ] && command -v qemu-ppc >/dev/null 2>&1; then
	P=5325
	qemu-ppc "$B-ppc/netbench" serve -p $P -B 127.0.0.1 --log "$nb_tmp/ppc-agent.log" &
	nb_pids="$nb_pids $!"
	wait_until 5 "the PowerPC agent listening" grep -qs listening "$nb_tmp/ppc-agent.log"
	"$NETBENCH" tput -c 127.0.0.1 -p $P -t 1 -O 0.3 -l 1k,32k -J >"$nb_tmp/ppc.json" 2>"$nb_tmp/ppc.err"
	check "native controller runs tput against the PowerPC agent" test $? -eq 0 ||
		sed 's/^/# /' "$nb_tmp/ppc.err"
	check "the agent reports a big-endian ppc platform and every step reconciles" json_check "$nb_tmp/ppc.json" '
r = d["env"]["remote"]
assert r["byte_order"] == "big" and r["arch"].startswith("ppc"), r
assert r["virtualization"].startswith("qemu-user ppc on "), r["virtualization"]
assert d["env"]["local"]["byte_order"] == "little"
assert len(d["steps"]) == 4 and all(x["valid"] and x["kbyte_per_s"] > 0 for x in d["steps"])
assert all(x["cpu_remote"]["valid"] for x in d["steps"])
'
	"$NETBENCH" tput -c 127.0.0.1 -p $P -t 1 -O 0.3 -l 1k -u -r 10M -J >"$nb_tmp/ppcu.json" 2>"$nb_tmp/ppc.err"
	check "UDP sequence numbers survive the byte-order change" json_check "$nb_tmp/ppcu.json" '
assert all(x["valid"] and x["loss_pct"] < 5 and x["duplicate_pct"] == 0 for x in d["steps"]), d["steps"]
'
	"$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.5 -O 0.2 -l 1k --tx-only >"$nb_tmp/ppc.txt" 2>&1
	check "the header says the agent is emulated and whose /proc it reads" \
		grep -q "note: the agent runs under a user-mode emulator (qemu-user ppc on .*the host kernel's" \
		"$nb_tmp/ppc.txt" || sed 's/^/# /' "$nb_tmp/ppc.txt"
	# Under qemu-user the kernel is the host's: the agent's profile says so, never a profile.
	"$NETBENCH" rate --dst 127.0.0.1 --observe 127.0.0.1:$P --profile=997 --test trial -T 0.3 \
		--rate 1k -J >"$nb_tmp/ppcprof.json" 2>"$nb_tmp/ppc.err"
	check "the PowerPC agent under qemu-user: its kernel profile is unavailable and says why" \
		json_check "$nb_tmp/ppcprof.json" '
p = d["sizes"][0]["trials"][0]["observers"][0]["profile"]
assert p["available"] is False and "qemu-user" in p["unavailable"] and "no board kernel" in p["unavailable"], p
' || sed 's/^/# /' "$nb_tmp/ppc.err"
	check_schemas "$nb_tmp/ppc.json" "$nb_tmp/ppcu.json" "$nb_tmp/ppcprof.json"
else
	skip "PowerPC interoperation: no ppc build or qemu-ppc"
fi
