#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make package-check: the Debian package, end to end, as root. Builds it with dpkg-buildpackage
# in a temporary copy of the tree (nothing is left in the source tree), runs lintian (errors and
# warnings fail; debian/source/lintian-overrides says why any remaining tag is accepted),
# installs it with dpkg -i, checks `netbench --version`, `man netbench` and the agent's unit
# (systemd-analyze verify), and purges it: nothing is left on the machine. TAP output.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ]; then skip_all "needs root (dpkg -i)"; fi
for t in dpkg-buildpackage dh lintian; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed (tests/deps.sh installs it)"
done
if dpkg-query -W -f='${Status}' netbench 2>/dev/null | grep -q 'ok installed'; then
	skip_all "a netbench package is already installed here: this check would replace it"
fi
version=$(cat "$TOP/VERSION")

# The copy: what git tracks (plus new files not yet committed) in a work tree, else the tree.
S=$nb_tmp/netbench-$version
mkdir -p "$S"
if [ "$(git -C "$TOP" rev-parse --show-toplevel 2>/dev/null)" = "$TOP" ]; then
	(cd "$TOP" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$S"
else
	(cd "$TOP" && tar -cf - --exclude='./build*' --exclude=./.git .) | tar -xf - -C "$S"
fi
start=$(date +%s)
(cd "$S" && DEB_BUILD_OPTIONS="noddebs${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" dpkg-buildpackage -b -us -uc -j"$(nproc 2>/dev/null || echo 2)") >"$nb_tmp/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -b -us -uc builds the package ($(($(date +%s) - start)) s)" test $rc -eq 0
if [ $rc -ne 0 ]; then
	tail -30 "$nb_tmp/build.log" | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi
deb=$(ls "$nb_tmp"/netbench_"$version"_*.deb 2>/dev/null | head -1)
check "the package's version is the VERSION file's ($version)" test -n "$deb"
check "the build used no -Werror (packagers' builds)" sh -c "! grep -qE -- '-Werror( |$)' '$nb_tmp/build.log'"

lintian --fail-on error,warning \
	"$nb_tmp"/netbench_"$version"_*.changes >"$nb_tmp/lintian.log" 2>&1
rc=$?
check "lintian: no errors or warnings" test $rc -eq 0
sed 's/^/# /' "$nb_tmp/lintian.log" | head -20

# Installed for real, then purged. One check at a time on this machine.
exec 9>/run/lock/netbench-package-check
flock 9
purge() { dpkg --purge netbench >/dev/null 2>&1; }
trap 'purge; nb_cleanup' EXIT
dpkg -i "$deb" >"$nb_tmp/dpkg.log" 2>&1
rc=$?
check "dpkg -i installs the package" test $rc -eq 0
[ $rc -eq 0 ] || sed "s/^/# /" "$nb_tmp/dpkg.log"
check_rc "netbench --version prints the VERSION file's version" 0 /usr/bin/netbench --version
check "  ... namely netbench $version" has "^netbench $version "
MANPAGER=cat MANWIDTH=80 man netbench >"$nb_tmp/out" 2>&1
check "man netbench shows the manual" sh -c "grep -q 'netbench serve' '$nb_tmp/out' &&
	grep -q '/usr/share/doc/netbench/docs/schema.md' '$nb_tmp/out'"
check "the documents the man page names are installed" test -f /usr/share/doc/netbench/docs/schema.md
# lab up --dut vm:ARCH builds a missing board image with this (docs/lab.md, "The board image").
check "the board builder is installed, with the source the board's netbench is built from" sh -c "
	b=/usr/share/netbench/board; [ -x \$b/build.sh ] && [ -s \$b/init ] && [ -s \$b/ppc.sh ] &&
	[ -s \$b/kernel-cache.sh ] && tar -tzf \$b/netbench-src.tar.gz | grep -qx src/main.c"
check "every docs/ link of the installed README resolves" sh -c "
	cd /usr/share/doc/netbench && for f in \$(grep -o 'docs/[A-Za-z0-9_./-]*[A-Za-z0-9]' README.md | sort -u); do
		[ -e \"\$f\" ] || { echo \"missing \$f\"; exit 1; }; done"
/usr/bin/netbench mem --quick -J >"$nb_tmp/mem.json" 2>/dev/null
check_rc "the package has the results store (SQLite): a result imports" 0 \
	/usr/bin/netbench results import --db "$nb_tmp/pkg.db" "$nb_tmp/mem.json"
if command -v systemd-analyze >/dev/null 2>&1; then
	check_rc "systemd-analyze verify accepts the installed unit" 0 \
		systemd-analyze verify /lib/systemd/system/netbench.service
else
	skip "systemd-analyze not installed"
fi
check "the unit is installed but not enabled" sh -c "[ -f /lib/systemd/system/netbench.service ] &&
	! ls /etc/systemd/system/*/netbench.service >/dev/null 2>&1"
check "/etc/default/netbench is a conffile" sh -c "dpkg-query -W -f='\${Conffiles}' netbench | grep -q /etc/default/netbench"
check_rc "the init script is valid sh" 0 sh -n /etc/init.d/netbench
dpkg --purge netbench >"$nb_tmp/dpkg.log" 2>&1
rc=$?
check "dpkg --purge removes it" test $rc -eq 0
check "nothing is left behind" sh -c "[ ! -e /usr/bin/netbench ] && [ ! -e /etc/default/netbench ] &&
	[ ! -e /etc/init.d/netbench ] && [ ! -e /lib/systemd/system/netbench.service ] &&
	[ ! -e /usr/share/doc/netbench ] && [ ! -e /usr/share/netbench ]"
echo "1..$n"
