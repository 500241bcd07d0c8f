#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installation: make install-strip install-agent into a private prefix. The binary is stripped,
# the documents the man page's FILES section names are installed, the systemd unit verifies, and
# the init script starts the agent from its settings file (bound to loopback, with a pre-shared
# key), reports it, lets a keyed controller run a test, refuses a keyless one, and stops it.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
B=${BUILD:-build}
R=$nb_tmp/root
make -s -C "$TOP" BUILD="$B" PREFIX="$R/usr" SYSCONFDIR="$R/etc" SYSTEMDUNITDIR="$R/lib/systemd/system" \
	install-strip install-agent >"$nb_tmp/install.log" 2>&1
rc=$?
check "make install-strip install-agent into a private prefix (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$nb_tmp/install.log" | head -20; echo "1..$n"; exit 0; }
check "the installed binary is stripped and prints its version" \
	sh -c "file '$R/usr/bin/netbench' | grep -q ', stripped' &&
		'$R/usr/bin/netbench' --version | grep -q \"^netbench $(cat "$TOP/VERSION") \""
for f in usr/share/man/man1/netbench.1 usr/share/doc/netbench/README.md usr/share/doc/netbench/LICENSE \
	etc/default/netbench etc/init.d/netbench lib/systemd/system/netbench.service; do
	[ -f "$R/$f" ] || missing="$missing $f"
done
check "man page, documents, LICENSE, settings, init script and unit are installed${missing:+ (missing:$missing)}" \
	test -z "$missing"
# Every path in the man page's FILES section exists once installed.
sed -n '/^\.SH FILES/,/^\.SH /s/^\.I //p' "$R/usr/share/man/man1/netbench.1" >"$nb_tmp/files"
bad=""
while read -r p; do [ -e "$p" ] || bad="$bad $p"; done <"$nb_tmp/files"
check "every file the man page names under FILES is installed ($(wc -l <"$nb_tmp/files") paths${bad:+; missing:$bad})" \
	sh -c "[ -s '$nb_tmp/files' ] && [ -z '$bad' ]"
if command -v systemd-analyze >/dev/null 2>&1; then
	systemd-analyze verify --man=no "$R/lib/systemd/system/netbench.service" >"$nb_tmp/verify" 2>&1
	rc=$?
	check "systemd-analyze verify accepts the unit (exit $rc)" test $rc -eq 0
	[ $rc -eq 0 ] || sed 's/^/# /' "$nb_tmp/verify" | head -10
	u=$R/lib/systemd/system/netbench.service
	check "the unit runs the installed binary with the settings file" \
		grep -q "^EnvironmentFile=-$R/etc/default/netbench\$" "$u"
	check "the unit's command is that binary's serve" grep -q "^ExecStart=.*exec $R/usr/bin/netbench serve " "$u"
else
	skip "systemd-analyze not installed"
fi

# The init script, as sysvinit or BusyBox init runs it.
P=5328
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$nb_tmp/psk"
cat >>"$R/etc/default/netbench" <<EOT
NETBENCH_PSK_FILE=$nb_tmp/psk
NETBENCH_OPTS="-B 127.0.0.1 -p $P --max-time 5"
NETBENCH_PID_FILE=$nb_tmp/netbench.pid
EOT
init=$R/etc/init.d/netbench
check_rc "init script: start" 0 sh "$init" start
[ -s "$nb_tmp/netbench.pid" ] && nb_pids="$nb_pids $(cat "$nb_tmp/netbench.pid")"
check_rc "init script: status reports the running agent" 0 sh "$init" status
check "init script: status names the pid" has "running (pid $(cat "$nb_tmp/netbench.pid" 2>/dev/null))"
check_rc "init script: start again leaves the one agent running" 0 sh "$init" start
check_rc "a controller with the key runs a test against it" 0 \
	"$R/usr/bin/netbench" tput -c 127.0.0.1 -p $P --psk "$nb_tmp/psk" -t 0.3 -O 0.1 -l 1k
"$R/usr/bin/netbench" tput -c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k >"$nb_tmp/out" 2>&1
rc=$?
check "a controller without the key is refused (exit $rc)" test $rc -eq 1
pid=$(cat "$nb_tmp/netbench.pid" 2>/dev/null)
check_rc "init script: stop" 0 sh "$init" stop
check "init script: the agent is gone and its pid file removed" \
	sh -c "! kill -0 '$pid' 2>/dev/null && [ ! -e '$nb_tmp/netbench.pid' ]"
check_rc "init script: status of a stopped agent exits 3" 3 sh "$init" status
check_rc "init script: an unknown action is a usage error" 3 sh "$init" frobnicate
# BusyBox's own sh runs the same script (a board's init).
if command -v busybox >/dev/null 2>&1; then
	check_rc "init script under busybox sh: start" 0 busybox sh "$init" start
	[ -s "$nb_tmp/netbench.pid" ] && nb_pids="$nb_pids $(cat "$nb_tmp/netbench.pid")"
	check_rc "init script under busybox sh: status" 0 busybox sh "$init" status
	check_rc "init script under busybox sh: stop" 0 busybox sh "$init" stop
	check "init script under busybox sh: the agent is gone" test ! -e "$nb_tmp/netbench.pid"
else
	skip "busybox not installed"
fi

# The version stamp: VERSION, and the git revision only when the source tree is the git work tree.
V=$(cat "$TOP/VERSION")
O=$nb_tmp/outer
mkdir -p "$O/netbench" && git -C "$O" init -q && (cd "$TOP" && tar -cf - Makefile VERSION src) | tar -xf - -C "$O/netbench" &&
	git -C "$O" add -A && git -C "$O" -c user.name=t -c user.email=t@t commit -qm outer
make -s -n -C "$O/netbench" BUILD="$O/b" all >"$nb_tmp/outer.log" 2>&1
check "a source tree inside another git repository stamps git revision unknown and VERSION $V" \
	sh -c "grep -q \"NB_GITREV='\\\"unknown\\\"'\" '$nb_tmp/outer.log' && grep -q \"NB_VERSION='\\\"$V\\\"'\" '$nb_tmp/outer.log'"
if [ "$(git -C "$TOP" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$TOP" && pwd -P)" ]; then
	rev=$(git -C "$TOP" rev-parse --short=12 HEAD)
	make -s -n -C "$TOP" BUILD="$O/b2" all >"$nb_tmp/own.log" 2>&1
	check "the git work tree itself stamps its revision $rev" grep -q "NB_GITREV='\"$rev\"'" "$nb_tmp/own.log"
else
	skip "the source tree is not a git work tree"
fi
# A commit after a build: what uses the stamp is built again with the new revision, and nothing
# is rebuilt while the revision stays.
G=$nb_tmp/own
obj=$G/b/src/core/base/sysinfo.o
mkdir -p "$G" && (cd "$TOP" && tar -cf - Makefile VERSION src) | tar -xf - -C "$G" && git -C "$G" init -q &&
	git -C "$G" add -A && git -C "$G" -c user.name=t -c user.email=t@t commit -qm one &&
	make -s -C "$G" BUILD="$G/b" "$obj" >/dev/null 2>&1
check "a built object that uses the stamp is up to date while the revision stays" make -s -q -C "$G" BUILD="$G/b" "$obj"
git -C "$G" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
rev2=$(git -C "$G" rev-parse --short=12 HEAD)
make -s -n -C "$G" BUILD="$G/b" "$obj" >"$nb_tmp/own2.log" 2>&1
check "after a commit it is built again with the new revision $rev2" grep -q "NB_GITREV='\"$rev2\"'" "$nb_tmp/own2.log"
# A build directory named relatively, then absolutely (as tests/integration/cross.sh names
# it): a header changed in between still rebuilds the objects that include it.
make -s -C "$G" BUILD=rel rel/src/core/base/sysinfo.o >/dev/null 2>&1
# A second after the object: the file system's clock is coarse (a kernel tick), and a header
# touched within the tick of the build gets the object's own time, which make takes as current.
touch -r "$G/rel/src/core/base/sysinfo.o" -d '+1 second' "$G/src/core/base/sysinfo.h"
check_rc "a header changed after a relative build rebuilds the object named absolutely" 1 \
	make -s -q -C "$G" BUILD="$G/rel" "$G/rel/src/core/base/sysinfo.o"
echo "1..$n"
