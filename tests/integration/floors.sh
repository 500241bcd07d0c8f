#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The house's floors (docs/design.md, "Where each piece lives"): src/core/base at the bottom,
# session above it, the kernel profile above that, observe and store above it, and the tests (rate, stream, tput, crypto,
# mem) and the lab side by side on the top floor. A file includes from its own folder or from
# a floor below, never from its floor or one above: so no test includes another test, nothing
# below includes a test, and there is no circle. Nothing in src/core includes src/cmd. Every
# include that breaks the rule is named with its file and line.
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
echo "1..$n"
