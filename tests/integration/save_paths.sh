#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Where a result goes is checked before anything is measured: --save's database, -o's file and
# rate's --profile-folded in a directory that does not exist, or naming a directory, are refused
# at once (exit 1, the option and the path named, nothing created). When the write fails anyway
# at the end (the directory removed during the run), the measurement is kept: the document is
# printed on standard output, the other destination still gets it, and the message says where
# it could not go.
. "$(dirname "$0")/../lib.sh"
need_store
t=$nb_tmp
NB=$NETBENCH

check_refused "crypto --save into a missing directory: refused before measuring" 1 \
	"--save: the directory /nonexistent/dir of /nonexistent/dir/x.db does not exist (nothing was measured)" \
	timeout 2 "$NB" crypto -t 1 --save /nonexistent/dir/x.db
check_refused "mem -o into a missing directory" 1 "--output: the directory $t/none of $t/none/x.json does not exist" \
	timeout 2 "$NB" mem --quick -o "$t/none/x.json"
check_refused "mem -o naming a directory" 1 "--output: $t is a directory" timeout 2 "$NB" mem --quick -o "$t"
check_refused "rate --profile-folded into a missing directory" 1 \
	"--profile-folded: the directory $t/none of $t/none/f.txt does not exist" \
	timeout 2 "$NB" rate --local-rx 127.0.0.1 --profile-folded "$t/none/f.txt"
check "nothing was created" test ! -e "$t/none" -a ! -e /nonexistent

# The directory goes away during the run: -o fails at the end, --save still stores.
mkdir "$t/gone"
"$NB" mem -l 1k,4M --threads 1 -o "$t/gone/m.json" --save "$t/s.db" >"$t/out" 2>"$t/err" &
pid=$!
sleep 0.3 # not a wait: the directory goes after the run's checks at its start, before its end
rm -r "$t/gone"
wait $pid
rc=$?
check "the run ends with exit 1" test "$rc" -eq 1
check "it names the file it could not write and says the document is on standard output" \
	grep -q "the result could not go to $t/gone/m.json; its JSON document is on standard output" "$t/err"
check "the document follows the table on standard output" python3 -c '
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{\n"):])
assert d["test"] == "mem" and d["latency"]["points"], d.keys()
' "$t/out"
check "--save stored it all the same" sh -c "'$NB' results list --db '$t/s.db' | grep -q mem"
mkdir "$t/gone2"
"$NB" mem -l 1k,4M --threads 1 -J -o "$t/gone2/m.json" >"$t/out" 2>"$t/err" &
pid=$!
sleep 0.3 # not a wait: the directory goes after the run's checks at its start, before its end
rm -r "$t/gone2"
wait $pid
check "with -J the document is printed once, and the failure named" sh -c "
	[ \$(grep -c '\"schema\"' '$t/out') -eq 1 ] && grep -q 'could not go to $t/gone2/m.json' '$t/err'"
check_refused "mem -l 64M,1k names the sizes as typed, not --min and --max" 2 "^netbench mem: -l/--sizes 64M,1k: MIN is larger than MAX" \
	"$NB" mem -l 64M,1k
echo "1..$n"
