#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A board directory is data (docs/security.md): `lab up --board-dir DIR` runs as root, so a
# directory another user owns or could change is refused before anything starts, and nothing in
# it names a program or arguments. A crafted directory holds `qemu` = sh and `qemu.args` =
# `-c id>FILE` (what older versions ran as root). Where the directory is acceptable, a stand-in
# for qemu-system-x86_64 first in PATH logs the arguments netbench chose and fails, so that no
# board boots: they come from netbench's table, with qemu's seccomp sandbox and -runas nobody.
. "$(dirname "$0")/../lib.sh"
P=nbtbo$nb_id
tmp=$nb_tmp

need_root
nb_labs="$P"
nobody=65534

# crafted DIR: a board directory as an attacker writes it (the kernel and initramfs are bytes:
# nothing here may boot).
crafted() {
	mkdir -p "$1"
	head -c 4096 /dev/urandom >"$1/kernel"
	head -c 4096 /dev/urandom >"$1/initrd.gz"
	echo sh >"$1/qemu"
	echo "-c id>$tmp/pwned" >"$1/qemu.args"
	chmod 0755 "$1"
	chmod 0644 "$1"/*
}
nothing_left() {
	[ ! -e "$tmp/pwned" ] && [ "$(ip netns list | grep -c "^$P-")" -eq 0 ] &&
		[ ! -e "/run/netbench-lab/$P" ]
}
up() { # DIR: lab up with a board from DIR (check_rc's output is copied to $tmp/last)
	"$NETBENCH" lab up --prefix "$P" -p 5391 --dut vm:x86_64 --board-dir "$1"
}

# --- owned by another user (as user nobody wrote it)
crafted "$tmp/nobody"
chown -R "$nobody" "$tmp/nobody"
check_rc "a directory owned by uid $nobody: exit 1" 1 up "$tmp/nobody"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused naming it, its owner and the rule; nothing ran, nothing created" sh -c \
	"grep -q 'refused board directory: $tmp/nobody (owner uid $nobody' '$tmp/last' &&
	 grep -q 'owned by root or by the user running netbench' '$tmp/last'"
check "... no file written by its 'qemu', no namespace, no state" nothing_left

# --- root's, but writable by others
crafted "$tmp/ww"
chmod 0777 "$tmp/ww"
check_rc "a world-writable directory: exit 1" 1 up "$tmp/ww"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused: writable by group or others" grep -q "$tmp/ww (owner uid 0, mode 0777) is writable by group or others" "$tmp/last"
chmod 0775 "$tmp/ww"
check_rc "a group-writable directory: exit 1" 1 up "$tmp/ww"
cp "$nb_tmp/out" "$tmp/last"

# --- root's directory, a file in it another user's or writable by others, or a symlink
crafted "$tmp/file"
chown "$nobody" "$tmp/file/initrd.gz"
check_rc "an initramfs owned by uid $nobody: exit 1" 1 up "$tmp/file"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused naming the file" grep -q "$tmp/file/initrd.gz (owner uid $nobody" "$tmp/last"
chown 0 "$tmp/file/initrd.gz"
chmod 0666 "$tmp/file/kernel"
check_rc "a world-writable kernel: exit 1" 1 up "$tmp/file"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused naming the file" grep -q "$tmp/file/kernel (owner uid 0, mode 0666) is writable" "$tmp/last"
chmod 0644 "$tmp/file/kernel"
mv "$tmp/file/kernel" "$tmp/kernel"
ln -s "$tmp/kernel" "$tmp/file/kernel"
check_rc "a kernel that is a symlink: exit 1" 1 up "$tmp/file"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused: not a regular file" grep -q "$tmp/file/kernel .* is not a regular file" "$tmp/last"

# --- root's directory inside one others may rename entries of (no sticky bit)
mkdir -p "$tmp/open"
chmod 0777 "$tmp/open"
crafted "$tmp/open/board"
check_rc "under a world-writable, non-sticky directory: exit 1" 1 up "$tmp/open/board"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... refused naming the parent" grep -q "$tmp/open (owner uid 0, mode 0777) above the board directory is writable by group or others and not sticky" "$tmp/last"
# ... while a sticky one (as /tmp) is fine: the next case's directory is under /tmp
chmod 1777 "$tmp/open"

# --- an acceptable directory: its `qemu` and `qemu.args` are ignored; netbench's own qemu, with
# its machine arguments, the sandbox and -runas (the stand-in fails: no board boots)
mkdir -p "$tmp/shim"
cat >"$tmp/shim/qemu-system-x86_64" <<SHIM
#!/bin/sh
printf '%s\n' "\$@" >"$tmp/qemu.argv"
echo "qemu stand-in: not booting" >&2
exit 1
SHIM
chmod 0755 "$tmp/shim/qemu-system-x86_64"
check_rc "a root-owned 0755 directory with qemu=sh: up runs the stand-in, which fails: exit 1" 1 \
	env PATH="$tmp/shim:$PATH" "$NETBENCH" lab up --prefix "$P" -p 5391 --dut vm:x86_64 --board-dir "$tmp/open/board"
cp "$nb_tmp/out" "$tmp/last"
check_quiet "... qemu-system-x86_64 did not start the board (the stand-in's words)" grep -q "qemu-system-x86_64 did not start the x86_64 board: qemu stand-in" "$tmp/last"
check "... the directory's 'qemu' and 'qemu.args' were not run: no file, no namespace, no state" nothing_left
check_quiet "... qemu got the table's machine, the sandbox and -runas nobody, nothing of qemu.args" sh -c "
	tr '\n' ' ' <'$tmp/qemu.argv' >'$tmp/argv1'; cat '$tmp/argv1'
	grep -q -- '-M pc -accel tcg -cpu max -smp 2 -m 256 ' '$tmp/argv1' &&
	grep -q -- '-sandbox on,obsolete=deny,resourcecontrol=deny ' '$tmp/argv1' &&
	grep -q -- '-runas nobody ' '$tmp/argv1' && ! grep -q -- '-c ' '$tmp/argv1' &&
	grep -q -- '-kernel $tmp/open/board/kernel ' '$tmp/argv1'"

echo "1..$n"
