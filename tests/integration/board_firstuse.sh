#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A board on first use (docs/lab.md "Boards"): `lab up --dut vm:x86_64` with no image in its
# default image directory ($NB_BOARD_CACHE/board-x86_64, a fresh one here) builds the image there
# with the board builder (its progress on stderr), boots it and comes up; a second `lab up` finds
# it and builds nothing; an explicit --board-dir without an image is an error naming the builder,
# nothing built. The builder as netbench's package installs it (make install:
# DATADIR/netbench/board, with the source it builds the board's netbench from) builds an image
# outside any source tree. The Debian packages the builder downloads are the usual package
# cache's (linked into the fresh cache): a cold download is the board tests' own first build.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../board/image.sh"
P=nbtbf$$
tmp=$nb_tmp

need_root
# The packages in reach (or the whole script skips with the builder's reason).
board_image x86_64
nb_labs="$P"

# The package cache board_image used (build.sh's choice), shared; the image directory fresh.
if [ -n "${NB_BOARD_CACHE:-}" ]; then pkgs=$NB_BOARD_CACHE/x86_64
elif [ -w /var/cache/netbench-board/x86_64 ]; then pkgs=/var/cache/netbench-board/x86_64
else pkgs=$BUILD/board-cache/x86_64; fi
mkdir -p "$tmp/cache" && ln -s "$pkgs" "$tmp/cache/x86_64"
img=$tmp/cache/board-x86_64
export NB_BOARD_CACHE="$tmp/cache"
check_rc "an explicit --board-dir without an image: exit 1" 1 \
	"$NETBENCH" lab up --prefix "$P" --dut vm:x86_64 --board-dir "$tmp/none"
check "... naming the builder; nothing built there, no namespace" sh -c \
	"grep -q 'tests/board/build.sh x86_64' '$nb_tmp/out' && [ ! -e '$tmp/none' ] &&
	 [ \$(ip netns list | grep -c '^$P-') -eq 0 ]"
t0=$(date +%s)
if "$NETBENCH" lab up --prefix "$P" --dut vm:x86_64 >"$tmp/up.out" 2>"$tmp/up.err"; then
	ok "lab up with no image in $img: built and up ($(($(date +%s) - t0)) s)"
else
	notok "lab up with no image: built and up"
	tail -20 "$tmp/up.err" | sed 's/^/# /'
fi
check_quiet "it said it was building, and the builder's progress followed" sh -c \
	"grep -q 'no x86_64 board image in $img: building it with .*build.sh' '$tmp/up.err' &&
	 grep -q '^board: ' '$tmp/up.err'"
check "the image is there: kernel, initrd.gz, kernel.version" \
	test -s "$img/kernel" -a -s "$img/initrd.gz" -a -s "$img/kernel.version"
check_quiet "the board is healthy" "$NETBENCH" lab status --prefix "$P"
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
"$NETBENCH" lab up --prefix "$P" --dut vm:x86_64 >"$tmp/up2.out" 2>"$tmp/up2.err"
check "a second lab up finds the image and builds nothing" \
	sh -c "! grep -q 'building it' '$tmp/up2.err' && grep -q 'board: DUT x86_64' '$tmp/up2.out'"
"$NETBENCH" lab down --prefix "$P" >/dev/null 2>&1

# The package's copy of the builder, away from the source tree (the usual package cache).
unset NB_BOARD_CACHE
if make -s -C "$TOP" install DESTDIR="$tmp/inst" PREFIX=/usr BUILD="$BUILD" >"$tmp/inst.log" 2>&1; then
	b=$tmp/inst/usr/share/netbench/board
	check_quiet "make install carries the builder and the source the board's netbench is built from" \
		ls "$b/build.sh" "$b/ppc.sh" "$b/init" "$b/ppc.config" "$b/kernel-cache.sh" "$b/netbench-src.tar.gz"
	t0=$(date +%s)
	out=$(sh "$b/build.sh" x86_64 "$tmp/pkg" 2>"$tmp/pkg.err")
	if [ "$out" = "$tmp/pkg/board-x86_64" ] && [ -s "$out/initrd.gz" ] && [ -s "$out/kernel" ]; then
		ok "the installed builder makes an image outside the source tree ($(($(date +%s) - t0)) s)"
	else
		notok "the installed builder makes an image outside the source tree (got '$out')"
		tail -10 "$tmp/pkg.err" | sed 's/^/# /'
	fi
	check "its netbench was built from the package's source, unpacked into the cache" \
		grep -q "static netbench for x86_64 (source: .*/netbench-src, objects: .*/netbench-src/.static)" "$tmp/pkg.err"

	# An upgrade: the cache holds an older version's source and objects (the tarball's files all
	# carry one old time, so make would link the old objects). The new version's unpacking takes
	# the old objects with it, and the build links.
	src=$(sed -n 's/.*static netbench for x86_64 (source: \(.*\), objects: .*)$/\1/p' "$tmp/pkg.err")
	static=$(sed -n 's/.*static netbench for x86_64 (source: .*, objects: \(.*\))$/\1/p' "$tmp/pkg.err")
	if [ -d "$src" ] && [ -d "$static" ]; then
		echo "an older version" >"$src/.tarball" && : >"$static/stale-object.o"
		out=$(sh "$b/build.sh" x86_64 "$tmp/pkg" 2>"$tmp/pkg2.err")
		check "after an upgrade of the package, its source is unpacked again and the old objects are gone" \
			sh -c "grep -q 'unpacking netbench' '$tmp/pkg2.err' && [ ! -e '$static/stale-object.o' ] &&
			       [ '$out' = '$tmp/pkg/board-x86_64' ] && [ -s '$out/initrd.gz' ]"
	else
		notok "the installed builder's source ($src) and objects ($static) are in its cache"
	fi
else
	notok "make install DESTDIR"
	tail -10 "$tmp/inst.log" | sed 's/^/# /'
fi
echo "1..$n"
