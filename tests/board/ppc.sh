# SPDX-License-Identifier: BSD-2-Clause
# Sourced by tests/board/build.sh for ARCH ppc: Debian has no 32-bit PowerPC user space, so the
# ppc board's kernel and user space are built here from Debian's sources with Debian's cross
# compiler (powerpc-linux-gnu-gcc): the kernel from linux-source-6.1 with tests/board/ppc.config
# (an e500v2 on qemu's ppce500 machine, no modules), busybox static, and nft static (libmnl,
# libnftnl, jansson, nftables with its mini-gmp). Each piece is cached in $cache under a key
# made of its source version, its configuration and the compiler's version: a warm build
# rebuilds nothing. The caller defines skip() and log(), sets here (build.sh's folder), cache
# and cc.
#
# Sets kimg (the kernel, an ELF vmlinux: qemu's ppce500 loads it), kver, bb (busybox) and nft
# (the static nft, or empty when its sources cannot be had, nft_missing saying why: the board
# then loads no rulesets and says so).

# The pinned source versions (Debian 12's). A newer archive that dropped one is told by name.
ppc_src_busybox=1:1.35.0-4+deb12u1
ppc_src_libmnl=1.0.4-3
ppc_src_libnftnl=1.2.4-2
ppc_src_jansson=2.14-2
ppc_src_nftables=1.0.6-2+deb12u2

ppc_jobs=$(nproc 2>/dev/null || echo 2)

# ppc_key WORD...: a short hash of the words and the cross compiler's version.
ppc_key() {
	{ echo "$@"; $cc --version | head -1; } | sha256sum | cut -c1-12
}

# ppc_deb_src: apt's lists know Debian's source packages; where no deb-src entry exists and we
# are root, one is added beside the archive's own entries (the same URIs and suites), once.
ppc_deb_src() {
	local f=/etc/apt/sources.list.d/netbench-deb-src.sources
	apt-cache showsrc busybox 2>/dev/null | grep -q '^Package:' && return 0
	[ "$(id -u)" -eq 0 ] || skip "apt has no deb-src entry for Debian's sources (as root, build.sh adds one)"
	log "adding Debian's source packages to apt ($f)"
	{
		for s in /etc/apt/sources.list.d/*.sources; do
			[ -f "$s" ] && [ "$s" != "$f" ] || continue
			awk 'BEGIN { RS = ""; ORS = "\n\n" }
				/(^|\n)Types:[^\n]*deb/ && /debian/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$s"
		done
		for s in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -f "$s" ] || continue
			awk '$1 == "deb" && /debian/ { $1 = ""; sub(/^ /, "");
				opt = ""; if ($1 ~ /^\[/) { opt = $1; $1 = ""; sub(/^ /, "") }
				print "Types: deb-src"; print "URIs: " $1; print "Suites: " $2;
				$1 = $2 = ""; sub(/^ +/, ""); print "Components: " $0; print "" }' "$s"
		done
	} >"$f.tmp" && mv "$f.tmp" "$f" || skip "cannot write $f"
	apt-get update -qq >&2 || skip "apt-get update failed after adding $f"
	apt-cache showsrc busybox 2>/dev/null | grep -q '^Package:' ||
		skip "Debian's archive lists no source packages (deb-src) here"
}

# ppc_source NAME VERSION: the unpacked source of NAME=VERSION under $cache/src (downloaded with
# apt-get source into the cache once); prints its directory, or returns 1 (apt's words in
# $cache/src/NAME.err).
ppc_source() {
	local name=$1 ver=$2 dir dsc
	dir=$cache/src/$name-${ver#*:}
	[ -f "$dir/.done" ] && { echo "$dir"; return 0; }
	mkdir -p "$cache/src" || return 1
	dsc=$cache/src/${name}_${ver#*:}.dsc
	if [ ! -f "$dsc" ]; then
		log "downloading the source of $name $ver into $cache/src"
		(cd "$cache/src" && apt-get source -qq -d "$name=$ver") >"$cache/src/$name.err" 2>&1 ||
			{ grep '^E:' "$cache/src/$name.err" | sed 's/^/  /' >&2; return 1; }
	fi
	rm -rf "$dir"
	dpkg-source -x "$dsc" "$dir" >"$cache/src/$name.err" 2>&1 || return 1
	touch "$dir/.done"
	echo "$dir"
}

ppc_kernel() {
	local src kv key kb
	[ -f /usr/src/linux-source-6.1.tar.xz ] ||
		skip "no /usr/src/linux-source-6.1.tar.xz (Debian package linux-source-6.1)"
	for t in flex bison bc; do
		command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (the kernel's build needs it)"
	done
	kv=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
	key=$(ppc_key "linux-source-6.1 $kv" "$(cat "$here/ppc.config")")
	kb=$cache/kernel-$key
	if [ ! -f "$kb/done" ]; then
		src=$cache/linux-source-6.1-$kv
		if [ ! -f "$src/.done" ]; then
			log "unpacking linux-source-6.1 $kv"
			rm -rf "$src" && mkdir -p "$src" &&
				tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --strip-components=1 ||
				{ log "cannot unpack the kernel's source"; exit 1; }
			touch "$src/.done"
		fi
		rm -rf "$kb" && mkdir -p "$kb/obj" || exit 1
		log "configuring the kernel (allnoconfig + tests/board/ppc.config)"
		make -s -C "$src" O="$kb/obj" ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu- \
			KCONFIG_ALLCONFIG="$here/ppc.config" allnoconfig >&2 ||
			{ log "the kernel's configuration failed"; exit 1; }
		# Every symbol the fragment sets must have survived (a dependency left unmet drops
		# it silently).
		grep '^CONFIG_' "$here/ppc.config" | while IFS= read -r l; do
			grep -qxF "$l" "$kb/obj/.config" || { log "kernel config lost $l"; exit 1; }
		done || exit 1
		log "building the kernel (linux-source-6.1 $kv, powerpc e500v2; progress in $kb/build.log)"
		nice make -C "$src" O="$kb/obj" ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu- \
			-j"$ppc_jobs" vmlinux >"$kb/build.log" 2>&1 ||
			{ tail -20 "$kb/build.log" >&2; log "the kernel's build failed"; exit 1; }
		powerpc-linux-gnu-strip -o "$kb/vmlinux" "$kb/obj/vmlinux" &&
			cat "$kb/obj/include/config/kernel.release" >"$kb/release" || exit 1
		# The objects are not needed again (a changed config builds afresh under a new key).
		rm -rf "$kb/obj"
		touch "$kb/done"
	fi
	kimg=$kb/vmlinux
	kver=$(cat "$kb/release")
}

ppc_busybox() {
	local src key out
	key=$(ppc_key "busybox $ppc_src_busybox")
	out=$cache/busybox-$key
	if [ ! -f "$out/busybox" ]; then
		src=$(ppc_source busybox "$ppc_src_busybox") ||
			skip "apt-get source busybox=$ppc_src_busybox failed (see $cache/src/busybox.err)"
		log "building busybox $ppc_src_busybox (static, Debian's busybox-static configuration)"
		rm -rf "$out/obj" && mkdir -p "$out/obj" &&
			cp "$src/debian/config/pkg/static" "$out/obj/.config" || exit 1
		# oldconfig alone first: busybox's kbuild runs the goals of one `make -j oldconfig
		# busybox` side by side, both building its kconfig tools at once (a race that fails
		# the link of scripts/kconfig/conf).
		{ make -C "$src" O="$out/obj" CROSS_COMPILE=powerpc-linux-gnu- oldconfig </dev/null &&
			nice make -C "$src" O="$out/obj" CROSS_COMPILE=powerpc-linux-gnu- \
				-j"$ppc_jobs" busybox </dev/null; } >"$out/build.log" 2>&1 ||
			{ tail -20 "$out/build.log" >&2; log "busybox's build failed"; exit 1; }
		powerpc-linux-gnu-strip -o "$out/busybox" "$out/obj/busybox" || exit 1
		rm -rf "$out/obj"
	fi
	bb=$out/busybox
}

# ppc_autotools NAME SRC STAGE CONFIGURE-ARGS...: configure, build and install a library or
# program into STAGE for powerpc-linux-gnu, static libraries only; $ppc_make_args go to make
# (libtool's -all-static links a program without any shared library).
ppc_make_args=
ppc_autotools() {
	local name=$1 src=$2 stage=$3
	shift 3
	(
		cd "$src" || exit 1
		[ -x configure ] || autoreconf -fi || exit 1
		PKG_CONFIG_LIBDIR=$stage/lib/pkgconfig PKG_CONFIG_PATH= \
			./configure --host=powerpc-linux-gnu --prefix="$stage" --enable-static \
			--disable-shared "$@" && nice make -j"$ppc_jobs" $ppc_make_args && make install
	) >"$stage/$name.log" 2>&1 || { tail -20 "$stage/$name.log" >&2; log "$name's build failed"; return 1; }
}

ppc_nft() {
	local key out stage s s_libmnl s_libnftnl s_jansson s_nftables s_mnl s_nftnl s_nft
	nft= nft_missing=
	key=$(ppc_key "libmnl $ppc_src_libmnl libnftnl $ppc_src_libnftnl jansson $ppc_src_jansson" \
		"nftables $ppc_src_nftables")
	out=$cache/nft-$key
	if [ ! -f "$out/nft" ]; then
		for p in libmnl:$ppc_src_libmnl libnftnl:$ppc_src_libnftnl jansson:$ppc_src_jansson \
			nftables:$ppc_src_nftables; do
			if ! s=$(ppc_source "${p%%:*}" "${p#*:}"); then
				nft_missing="the source of ${p%%:*} ${p#*:} could not be had (apt-get source)"
				log "no nft on the ppc board: $nft_missing"
				return 0
			fi
			eval "s_${p%%:*}=\$s"
		done
		s_mnl=$s_libmnl s_nftnl=$s_libnftnl s_nft=$s_nftables
		stage=$out/stage
		rm -rf "$out" && mkdir -p "$stage" || exit 1
		log "building nft $ppc_src_nftables static (libmnl, libnftnl, jansson, mini-gmp)"
		ppc_autotools libmnl "$s_mnl" "$stage" &&
			ppc_autotools jansson "$s_jansson" "$stage" &&
			ppc_autotools libnftnl "$s_nftnl" "$stage" &&
			ppc_make_args=LDFLAGS=-all-static ppc_autotools nftables "$s_nft" "$stage" \
				--with-mini-gmp --without-cli --disable-man-doc --with-json --without-xtables ||
			exit 1
		powerpc-linux-gnu-strip -o "$out/nft" "$stage/sbin/nft" || exit 1
		rm -rf "$stage"
	fi
	nft=$out/nft
}

ppc_build() {
	ppc_deb_src
	ppc_kernel
	ppc_busybox
	ppc_nft
}
