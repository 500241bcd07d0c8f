#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The small agent for boards: `make MUSL=1 STATIC=1` (musl, -Os, section garbage collection,
# stripped) builds -Werror clean, its unit tests pass, it fits its size budget, and it resolves
# names (musl's resolver, static: no NSS libraries needed at run time): an agent bound to
# "localhost" serves a controller that connects to "localhost". The agent-only build
# (`make MUSL=1 STATIC=1 AGENT=1`: serve, stream, crypto, mem) fits 450 KiB and serves the full
# controller. The static glibc build is measured against its budget too.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/size.sh"
B=${BUILD:-build}
M=$B-musl
jobs=$(nproc 2>/dev/null || echo 2)

if ! command -v musl-gcc >/dev/null 2>&1; then
	skip_all "musl-gcc not installed (musl-tools; tests/deps.sh installs it)"
fi
make -s -C "$TOP" WERROR=1 MUSL=1 STATIC=1 BUILD="$M" -j"$jobs" all \
	$(cd "$TOP" && ls tests/unit/t_*.c | sed "s|tests/unit/\(.*\)\.c|$M/tests/\1|") \
	>"$nb_tmp/musl.log" 2>&1
if [ $? -ne 0 ]; then
	notok "musl: make MUSL=1 STATIC=1"
	sed 's/^/# /' "$nb_tmp/musl.log" | head -30
	exit 0
fi
ok "musl: make MUSL=1 STATIC=1 is -Werror clean"
check "musl: the binary is static and stripped" \
	sh -c "file '$M/netbench' | grep 'statically linked' | grep -q ', stripped'"
size_check x86_64-musl "$M/netbench" strip
# The README's figure is the budget: a claim the binary outgrows fails here, not on a board.
readme_kib=$(sed -n 's/.*gives an x86-64 agent of at most \([0-9]*\) KiB.*/\1/p' "$TOP/README.md")
budget=$(awk '$1 == "x86_64-musl" { print $2 }' "$TOP/tests/size-budget")
strip -o "$nb_tmp/readme-size" "$M/netbench"
musl_bytes=$(wc -c <"$nb_tmp/readme-size" | tr -d ' ')
check "README's musl size claim (${readme_kib:-none} KiB) is the budget's ($budget bytes), and the binary ($musl_bytes) fits it" \
	test -n "$readme_kib" -a "$((budget / 1024))" = "$readme_kib" -a "$musl_bytes" -le "$budget"
fails=""
for t in "$M"/tests/t_*; do
	"$t" >"$nb_tmp/$(basename "$t").log" 2>&1 && ! grep -q '^not ok' "$nb_tmp/$(basename "$t").log" ||
		fails="$fails $(basename "$t")"
done
check "musl: every unit test passes${fails:+ (failed:$fails)}" test -z "$fails"
for f in $fails; do grep '^not ok' "$nb_tmp/$f.log" | head -5 | sed "s/^/# $f: /"; done

# Names: localhost comes from /etc/hosts through musl's own resolver.
P=5327
"$M/netbench" serve -B localhost -p $P --once --pid-file "$nb_tmp/agent.pid" -D --log "$nb_tmp/agent.log"
check "musl: the agent binds to the name localhost" test -s "$nb_tmp/agent.pid"
[ -s "$nb_tmp/agent.pid" ] && nb_pids="$nb_pids $(cat "$nb_tmp/agent.pid")"
"$M/netbench" tput -c localhost -p $P -t 0.3 -O 0.1 -l 1k -J >"$nb_tmp/tput.json" 2>"$nb_tmp/tput.err"
check "musl: the controller reaches the agent at localhost and the step reconciles" json_check \
	"$nb_tmp/tput.json" '
assert len(d["steps"]) == 2 and all(x["valid"] and x["kbyte_per_s"] > 0 for x in d["steps"]), d["steps"]
'
[ -s "$nb_tmp/tput.err" ] && sed 's/^/# /' "$nb_tmp/tput.err" | head -5
"$M/netbench" tput -c no-such-host.invalid -p $P -t 0.3 -l 1k >"$nb_tmp/bad.out" 2>&1
rc=$?
check "musl: an unknown host name is an error naming it (exit $rc)" \
	sh -c "[ $rc -ne 0 ] && grep -q 'no-such-host.invalid' '$nb_tmp/bad.out'"
check_refused "musl: an option missing its value at the end is named, alone or in a group (exit 2)" \
	2 "option '-t' needs a value" "$M/netbench" crypto -t
check_refused "... in a group of letters too" 2 "option '-t' needs a value" "$M/netbench" crypto -Jt

# The agent-only build: what a board with 8-16 MiB of flash runs alone. It answers the full
# controller above (a tput against it reconciles) and has no controller subcommands.
G=$B-agent
if make -s -C "$TOP" WERROR=1 MUSL=1 STATIC=1 AGENT=1 BUILD="$G" -j"$jobs" "$G/netbench" \
	>"$nb_tmp/agent.log" 2>&1; then
	ok "agent only: make MUSL=1 STATIC=1 AGENT=1 is -Werror clean"
	size_check x86_64-musl-agent "$G/netbench" strip
	# (a subcommand starts a line of the list; a long summary goes on under it, indented)
	check "agent only: serve, stream, crypto, mem and nothing else" sh -c \
		"'$G/netbench' --help | awk '/^Subcommands:/ { on = 1; next } on && !NF { exit } on && /^  [^ ]/ { print \$1 }' | tr '\n' ' ' | grep -qx 'serve stream crypto mem '"
	check_rc "agent only: rate is not in it (usage error)" 2 "$G/netbench" rate -c 127.0.0.1
	P=5377
	"$G/netbench" serve -B 127.0.0.1 -p $P --once --pid-file "$nb_tmp/agent2.pid" -D --log "$nb_tmp/agent2.log"
	[ -s "$nb_tmp/agent2.pid" ] && nb_pids="$nb_pids $(cat "$nb_tmp/agent2.pid")"
	"$M/netbench" tput -c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k -J >"$nb_tmp/tput2.json" 2>"$nb_tmp/tput2.err"
	check "agent only: it serves a controller's tput and the steps reconcile" json_check \
		"$nb_tmp/tput2.json" '
assert len(d["steps"]) == 2 and all(x["valid"] and x["kbyte_per_s"] > 0 for x in d["steps"]), d["steps"]
'
else
	notok "agent only: make MUSL=1 STATIC=1 AGENT=1"
	sed 's/^/# /' "$nb_tmp/agent.log" | head -20
fi

# 32-bit ARM with musl, where Debian's musl-dev:armhf is installed (multiarch: see docs/size.md).
if [ -f /usr/lib/arm-linux-musleabihf/musl-gcc.specs ] && command -v qemu-arm >/dev/null 2>&1; then
	A=$B-arm-musl
	if make -s -C "$TOP" WERROR=1 MUSL=1 STATIC=1 CC=arm-linux-gnueabihf-gcc BUILD="$A" -j"$jobs" all \
		$(cd "$TOP" && ls tests/unit/t_*.c | sed "s|tests/unit/\(.*\)\.c|$A/tests/\1|") \
		>"$nb_tmp/arm-musl.log" 2>&1; then
		ok "armhf musl: make MUSL=1 STATIC=1 CC=arm-linux-gnueabihf-gcc is -Werror clean"
		size_check armhf-musl "$A/netbench" arm-linux-gnueabihf-strip
		fails=""
		for t in "$A"/tests/t_*; do
			NB_EMULATED=1 timeout 300 qemu-arm "$t" >"$nb_tmp/a-$(basename "$t").log" 2>&1 &&
				! grep -q '^not ok' "$nb_tmp/a-$(basename "$t").log" || fails="$fails $(basename "$t")"
		done
		check "armhf musl: every unit test passes under qemu-arm${fails:+ (failed:$fails)}" test -z "$fails"
		for f in $fails; do grep '^not ok' "$nb_tmp/a-$f.log" | head -5 | sed "s/^/# $f: /"; done
	else
		notok "armhf musl: make MUSL=1 STATIC=1 CC=arm-linux-gnueabihf-gcc"
		sed 's/^/# /' "$nb_tmp/arm-musl.log" | head -20
	fi
else
	skip "armhf musl: musl-dev:armhf not installed (needs dpkg --add-architecture armhf; docs/size.md)"
fi

# The static glibc build: only its size (cross.sh measures the PowerPC and ARM ones).
make -s -C "$TOP" STATIC=1 BUILD="$B-static" -j"$jobs" all >"$nb_tmp/static.log" 2>&1
if [ $? -eq 0 ]; then
	size_check x86_64-glibc "$B-static/netbench" strip
else
	notok "glibc: make STATIC=1"
	sed 's/^/# /' "$nb_tmp/static.log" | head -20
fi
echo "1..$n"
