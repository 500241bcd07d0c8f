# SPDX-License-Identifier: BSD-2-Clause
# Sourced by tests/vm/build.sh and tests/board/build.sh: Debian's packages for an architecture
# (the stock kernel above all), fetched with apt-get download (never installed) into a cache
# outside the tree and unpacked there once, and the kernel modules an image needs, in load
# order. The caller defines skip() (prints "SKIP reason", exits 3) and log() (to stderr), and
# sets deb_arch (armhf, amd64) and cache (a directory it may write).

# deb_fetch PKG: the newest .deb of PKG:deb_arch in the cache (downloaded once), unpacked under
# $cache/root-NAME; prints the unpacked root, or returns 1 (apt's words on stderr).
deb_fetch() {
	local p=$1 deb root
	deb=$(ls -t "$cache/${p}"_*_"$deb_arch".deb "$cache/${p}"_*_all.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		log "downloading $p:$deb_arch into $cache"
		(cd "$cache" && apt-get download "$p:$deb_arch" >&2 2>"$cache/download.err") ||
			{ sed 's/^/  /' "$cache/download.err" >&2; return 1; }
		deb=$(ls -t "$cache/${p}"_*.deb 2>/dev/null | head -1)
		[ -n "$deb" ] || return 1
	fi
	root=$cache/root-$(basename "$deb" .deb)
	if [ ! -f "$root/.done" ]; then
		rm -rf "$root"
		dpkg -x "$deb" "$root" >&2 || return 1
		touch "$root/.done"
	fi
	echo "$root"
}

# kernel_fetch FLAVOUR: the kernel Debian's linux-image-FLAVOUR:deb_arch points at (the unsigned
# variant where the archive has one: the same kernel without the Secure Boot signature), with
# its modules.dep; sets kpkg, kroot (the unpacked package), kver and kimg. Skips with the reason
# when apt knows no such kernel or cannot download it.
kernel_fetch() {
	kpkg=$(apt-cache depends "linux-image-$1:$deb_arch" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ :]*\).*$/\1/p' | head -1)
	[ -n "$kpkg" ] || skip "apt knows no linux-image-$1:$deb_arch (no Debian $deb_arch archive in apt's lists; run apt-get update)"
	apt-cache show "$kpkg-unsigned:$deb_arch" >/dev/null 2>&1 && kpkg=$kpkg-unsigned
	kroot=$(deb_fetch "$kpkg") || skip "apt-get download $kpkg:$deb_arch failed (the kernel package is not in reach)"
	kver=$(ls "$kroot/lib/modules" | head -1)
	kimg=$kroot/boot/vmlinuz-$kver
	[ -f "$kimg" ] || skip "no kernel image in $kpkg"
	[ -f "$kroot/lib/modules/$kver/modules.dep" ] || depmod -b "$kroot" "$kver" >&2 ||
		skip "depmod -b $kroot $kver failed"
}

# kernel_modules ORDER_FILE DEST_DIR MODULE...: the modules and their dependencies, dependencies
# first, copied into DEST_DIR decompressed (busybox's insmod may not read .xz or .zst), with
# DEST_DIR/load naming them in load order. A module neither in modules.dep nor built in is named
# on stderr and left out (the image goes without it).
kernel_modules() {
	local order=$1 dest=$2 md=$kroot/lib/modules/$kver m f b
	shift 2
	: >"$order"
	for m in "$@"; do _kernel_resolve "$md" "$order" "$m"; done
	: >"$dest/load"
	while read -r f; do
		b=$(basename "$f"); b=${b%%.ko*}.ko
		case "$f" in
		*.ko) cp "$md/$f" "$dest/$b" ;;
		*.ko.xz) xz -dc "$md/$f" >"$dest/$b" ;;
		*.ko.zst) zstd -qdc "$md/$f" >"$dest/$b" ;;
		*.ko.gz) gzip -dc "$md/$f" >"$dest/$b" ;;
		esac || skip "cannot decompress $f"
		echo "$b" >>"$dest/load"
	done <"$order"
}

_kernel_resolve() { # modules-dir order-file module-name
	local n line file dep d
	n=$(echo "$3" | tr '-' '_')
	line=$(awk -v n="$n" -F: '{ f = $1; sub(/.*\//, "", f); sub(/\.ko.*/, "", f); gsub(/-/, "_", f);
		if (f == n) { print; exit } }' "$1/modules.dep")
	if [ -z "$line" ]; then
		grep -q "/$3.ko\$\|/$n.ko\$" "$1/modules.builtin" 2>/dev/null ||
			log "module $3 is neither in modules.dep nor built in"
		return 0
	fi
	file=${line%%:*}
	grep -qx "$file" "$2" && return 0
	for dep in ${line#*:}; do
		d=$(basename "$dep"); d=${d%%.ko*}
		_kernel_resolve "$1" "$2" "$d"
	done
	grep -qx "$file" "$2" || echo "$file" >>"$2"
}
