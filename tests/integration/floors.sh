#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The house's floors (docs/design.md, "Where each piece lives"): src/core/base at the bottom,
# session above it, the kernel profile above that, observe and store above it, and the tests (rate, stream, tput, crypto,
# mem) and the lab side by side on the top floor. A file includes from its own folder or from
# a floor below, never from its floor or one above: so no test includes another test, nothing
# below includes a test, and there is no circle. Nothing in src/core includes src/cmd. Every
# include that breaks the rule is named with its file and line; so is each place where one
# concept gets a second word (words below).
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}

floor() { # folder -> its floor, or nothing for a folder the rule does not know
	case $1 in
	base) echo 0 ;;
	session) echo 1 ;;
	profile) echo 2 ;;
	observe | store) echo 3 ;;
	rate | stream | tput | crypto | mem | lab) echo 4 ;;
	esac
}

# floors DIR: prints one line per include in DIR/src/core that breaks the rule, and one per
# folder of src/core that has no floor.
floors() {
	for d in "$1"/src/core/*/; do
		from=$(basename "$d")
		f_from=$(floor "$from")
		if [ -z "$f_from" ]; then
			echo "src/core/$from: a folder with no floor (add it to tests/integration/floors.sh)"
			continue
		fi
		grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(core\|cmd\)/' "$d"*.[ch] 2>/dev/null |
			while IFS= read -r line; do
				file=${line%%:*} rest=${line#*:}
				no=${rest%%:*}
				to=$(echo "$rest" | sed 's|.*"\([a-z]*\)/\([a-z_]*\)/.*|\1/\2|; s|.*"cmd/.*|cmd|')
				case $to in
				cmd) echo "src/core/$from/$(basename "$file"):$no: includes src/cmd" ;;
				core/"$from") ;;
				core/*)
					f_to=$(floor "${to#core/}")
					if [ -z "$f_to" ] || [ "$f_to" -ge "$f_from" ]; then
						echo "src/core/$from/$(basename "$file"):$no: includes ${to#core/}/ (floor ${f_to:-none}) from floor $f_from"
					fi
					;;
				esac
			done
	done
}

floors "$TOP" >"$nb_tmp/floors"
if [ ! -s "$nb_tmp/floors" ]; then
	ok "src/core: every include from its own folder or a floor below; no test includes another"
else
	notok "src/core: every include from its own folder or a floor below; no test includes another"
	sed 's/^/# /' "$nb_tmp/floors"
fi

# The check can fail: a tree where a test includes another, base includes a test, observe
# includes store (the same floor), core includes cmd, and a folder has no floor.
T=$nb_tmp/tree
mkdir -p "$T/src/core/base" "$T/src/core/rate" "$T/src/core/stream" "$T/src/core/observe" \
	"$T/src/core/store" "$T/src/core/attic"
printf '#include "core/rate/netpath.h"\n#include "core/base/net.h"\n' >"$T/src/core/stream/a.c"
printf '#include "core/lab/lab.h"\n#include "core/rate/gen.h"\n' >"$T/src/core/rate/b.h"
printf '#include "core/mem/mem.h"\n' >"$T/src/core/base/c.c"
printf '#include "core/store/store.h"\n#include "core/session/ctl.h"\n' >"$T/src/core/observe/d.c"
printf '#include "cmd/cli.h"\n' >"$T/src/core/store/e.c"
printf '#include "core/base/net.h"\n' >"$T/src/core/attic/f.c"
floors "$T" | sort >"$nb_tmp/bad"
check "a tree with stream -> rate, rate -> lab, base -> mem, observe -> store, store -> cmd and a folder of no floor: those 6 named" \
	test "$(wc -l <"$nb_tmp/bad")" -eq 6 || sed 's/^/# /' "$nb_tmp/bad"
check "... each with its file and line" grep -q "^src/core/stream/a.c:1: includes rate/ (floor 4) from floor 4" "$nb_tmp/bad"
# One word per concept (docs/design.md): the cancellation type is nb_cancel_t, never a raw
# volatile sig_atomic_t pointer (cancel.h defines it; cli.c's unlink guard is a flag of its
# own); the front end has one stop flag, cli_stop; every test's params call theirs `stop`;
# rtnetlink sockets are opened in core/base/nldump.c only; an agent's address is a struct
# nb_ctl_target (session/ctl.h), never a control port or key file of a core struct's own.
words() {
	grep -rn 'volatile sig_atomic_t' "$1/src" --include='*.[ch]' |
		grep -v '^[^:]*/src/core/base/cancel\.h:\|^[^:]*/src/cmd/cli\.c:[0-9]*:static volatile sig_atomic_t unlink_armed' |
		sed "s|^$1/||; s|\$| (a raw flag: nb_cancel_t)|"
	grep -rn '^[[:space:]]*\(static[[:space:]]\+\)\?nb_cancel_t[[:space:]]\+[a-z_]*;' "$1/src/cmd" --include='*.c' |
		grep -v ':nb_cancel_t cli_stop;' | sed "s|^$1/||; s|\$| (a stop flag beside cli_stop)|"
	for f in rate/rate.h stream/stream_ctl.h crypto/crypto_params.h mem/mem.h; do
		[ -f "$1/src/core/$f" ] || continue
		grep -q 'const nb_cancel_t \*stop;' "$1/src/core/$f" ||
			echo "src/core/$f: the params' stop flag is not const nb_cancel_t *stop"
	done
	grep -rn '^[[:space:]]*\(uint16_t[[:space:]]\+ctl_port\|const char[[:space:]]*\*[[:space:]]*psk_file\);' "$1/src/core" --include='*.h' |
		sed "s|^$1/||; s|\$| (an agent's address: struct nb_ctl_target)|"
	grep -rln 'socket(AF_NETLINK.*NETLINK_ROUTE' "$1/src" --include='*.c' | grep -v '/src/core/base/nldump\.c$' |
		sed "s|^$1/||; s|\$|: opens an rtnetlink socket (nldump.c's nb_nl_socket)|"
}

words "$TOP" >"$nb_tmp/words"
if [ ! -s "$nb_tmp/words" ]; then
	ok "src: one cancellation type and name, one stop flag in the front end, rtnetlink through nldump.c, one agent address"
else
	notok "src: one cancellation type and name, one stop flag in the front end, rtnetlink through nldump.c, one agent address"
	sed 's/^/# /' "$nb_tmp/words"
fi
W=$nb_tmp/wtree
mkdir -p "$W/src/core/base" "$W/src/core/mem" "$W/src/core/rate" "$W/src/cmd"
printf 'int f(volatile sig_atomic_t *stop);\n' >"$W/src/core/rate/a.h"
printf 'static nb_cancel_t stop;\nnb_cancel_t cli_stop;\n' >"$W/src/cmd/lab.c"
printf 'struct nb_mem_params {\n\tconst nb_cancel_t *cancel;\n};\n' >"$W/src/core/mem/mem.h"
printf 'int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);\n' >"$W/src/core/rate/flows_dst.c"
printf 'int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);\n' >"$W/src/core/base/nldump.c"
printf 'struct cfg {\n\tconst char *agent;\n\tuint16_t ctl_port;\n};\n' >"$W/src/core/rate/gen.h"
words "$W" >"$nb_tmp/wbad"
check "a tree with a raw flag, a second stop flag, mem's cancel, a netlink socket in rate and an agent's port of its own: those 5 named" \
	test "$(wc -l <"$nb_tmp/wbad")" -eq 5 || sed 's/^/# /' "$nb_tmp/wbad"
check "... with file and line where there is one" grep -q "^src/cmd/lab.c:1:static nb_cancel_t stop;" "$nb_tmp/wbad"
echo "1..$n"
