#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every source file carries the license's SPDX identifier on its first line (the second after a
# "#!" line). Usage: tools/spdx.sh --add (adds it where missing) | --check (lists the files
# without it, exits 1 if there are any). Source files: C, shell, Python, make, man page parts and
# any executable script; the tracked ones in a git work tree, else every file under the tree.
id="SPDX-License-Identifier: BSD-2-Clause"
cd "$(dirname "$0")/.." || exit 1
mode=${1:-}
case $mode in --add | --check) ;; *)
	echo "usage: tools/spdx.sh --add|--check" >&2
	exit 2
	;;
esac

list_files() {
	if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
		git ls-files
	else
		find . -path ./.git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||'
	fi
}

# comment_for FILE: the line that carries the identifier in this file's language, or nothing.
comment_for() {
	case $1 in
	*.c | *.h) echo "/* $id */" ;;
	*.sh | *.py | Makefile | */Makefile | *.mk | debian/rules) echo "# $id" ;;
	*.1) echo ".\\\" $id" ;;
	*) head -c 2 "$1" 2>/dev/null | grep -q '^#!' && echo "# $id" ;;
	esac
}

missing=0
for f in $(list_files); do
	[ -f "$f" ] || continue
	line=$(comment_for "$f") || continue
	[ -n "$line" ] || continue
	if head -2 "$f" | grep -qF "$id"; then continue; fi
	if [ "$mode" = --check ]; then
		echo "$f: no '$id' line at its top"
		missing=$((missing + 1))
		continue
	fi
	tmp="$f.spdx.$$"
	if head -c 2 "$f" | grep -q '^#!'; then
		{ head -1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
	else
		{ printf '%s\n' "$line"; cat "$f"; } >"$tmp"
	fi
	chmod --reference="$f" "$tmp" && mv "$tmp" "$f" && echo "added: $f"
done
[ "$missing" -eq 0 ]
