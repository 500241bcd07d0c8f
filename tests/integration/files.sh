#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What netbench writes and reads on a shared host (docs/security.md, "Files and the store"):
# a symlink planted at a temporary name another user can guess is never followed (-o, report -o,
# serve --pid-file); the read commands open the store read-only, for a user who may only read it,
# and never create one; results export says what it could not give.
. "$(dirname "$0")/../lib.sh"
need_store
need_root         # a root-owned victim file
need_tools setpriv # a second user
NB=$(cd "$(dirname "$NETBENCH")" && pwd)/$(basename "$NETBENCH")
D=$nb_tmp/shared
mkdir -p "$D" && chmod 1777 "$D" # a directory every user may write, as /tmp
V=$nb_tmp/victim
printf 'root secret\n' >"$V" && chmod 0600 "$V"
victim_intact() { [ "$(cat "$V")" = "root secret" ] && [ "$(stat -c %a "$V")" = 600 ]; }
# plant TARGET COMMAND...: runs COMMAND (which writes TARGET) as the process whose pid the
# symlinks TARGET.tmpPID (the name netbench once used) and TARGET.tmp point at the victim.
plant() {
	t=$1; shift
	sh -c 'ln -s "$1" "$2.tmp$$"; ln -s "$1" "$2.tmp"; shift 2; exec "$@"' _ "$V" "$t" "$@"
}

# 6: temporary files. -o of a measuring command.
plant "$D/mem.json" "$NB" mem -q -l 1k,16k --bw-size 1M --threads 1 -o "$D/mem.json" \
	>"$nb_tmp/out" 2>&1
check "mem -o with symlinks planted at FILE.tmpPID and FILE.tmp: exit 0" test $? -eq 0
check "the root-owned file they point at is untouched" victim_intact
check "FILE holds the document" json_check "$D/mem.json" 'assert d["test"] == "mem"'
check "FILE is a file of its own, not the symlink" test ! -L "$D/mem.json"
check "no temporary file is left" sh -c "! ls '$D' | grep -q 'mem.json.tmp-'"
DB=$nb_tmp/r.db
"$NB" results import --db "$DB" --label A "$D/mem.json" >/dev/null 2>&1
plant "$D/r.html" "$NB" report --db "$DB" -o "$D/r.html" >"$nb_tmp/out" 2>&1
check "report -o with symlinks planted: exit 0" test $? -eq 0
check "the victim is untouched by report -o" victim_intact
check "the report was written" grep -q '<svg' "$D/r.html"
plant "$D/agent.pid" "$NB" serve -D -p 5341 -B 127.0.0.1 --pid-file "$D/agent.pid" \
	>"$nb_tmp/out" 2>&1
check "serve --pid-file with symlinks planted: exit 0" test $? -eq 0
apid=$(cat "$D/agent.pid" 2>/dev/null)
[ -n "$apid" ] && nb_pids="$nb_pids $apid"
check "the victim is untouched by the pid file" victim_intact
check "the pid file names the agent" kill -0 "$apid"

# 8: the read commands on a root-owned 0644 store, as another user, and on no store at all.
chmod 0644 "$DB"
chmod 0755 "$nb_tmp"
ro() { setpriv --reuid 65534 --regid 65534 --clear-groups "$NB" "$@"; }
before=$(sha256sum "$DB")
for c in "results list" "results show 1" "results export --csv" "compare"; do
	# shellcheck disable=SC2086 # the words of the command
	check_rc "as nobody on a root-owned 0644 store: $c" 0 ro $c --db "$DB"
	check "  and it printed the result, not an error" sh -c "! grep -q 'readonly\|cannot' '$nb_tmp/out'"
done
check_rc "as nobody: report to a file of its own" 0 ro report --db "$DB" -o "$D/nobody.html"
after=$(sha256sum "$DB")
check "the store is unchanged, byte for byte" test "$before" = "$after"
M=$nb_tmp/missing.db
for c in "results list" "results show 1" "results export --csv" "compare" "report -o $D/m.html"; do
	# shellcheck disable=SC2086
	check_rc "$c --db MISSING: exit 1" 1 "$NB" $c --db "$M"
	check "  it names the path" has "$M: no results store there"
	check "  and creates nothing" test ! -e "$M"
done

# 9: export is complete, or says what it left out (a view holds 64 points a series).
/usr/bin/python3 - "$nb_tmp/big.json" <<'EOF'
import json, sys
pts = [{"set_bytes": 1024 * (i + 1), "ns_per_load": 1.0 + i} for i in range(100)]
json.dump({"schema": "netbench/1", "test": "mem", "time_utc": "2026-01-01T00:00:00Z",
           "env": {"local": {"hostname": "h"}}, "latency": {"points": pts}}, open(sys.argv[1], "w"))
EOF
"$NB" results import --db "$nb_tmp/big.db" "$nb_tmp/big.json" >/dev/null 2>&1
"$NB" results export --csv --db "$nb_tmp/big.db" >"$nb_tmp/big.csv" 2>"$nb_tmp/out"
check "export of 100 points in one series: exit 1 (incomplete)" test $? -eq 1
check "it says how many points it left out, and where" has "result 1, view mem.latency: 36 points not exported"
check "the 64 it could give are written" test "$(tail -n +2 "$nb_tmp/big.csv" | wc -l)" -eq 64
"$NB" results export --lava "$nb_tmp/big.json" >"$nb_tmp/big.lava" 2>"$nb_tmp/out"
check "export --lava of the same document: exit 1, naming what it left out" \
	sh -c "[ $? -eq 1 ] && grep -q 'view mem.latency: 36 points not exported' '$nb_tmp/out' &&
		[ \$(wc -l <'$nb_tmp/big.lava') -eq 64 ]"
"$NB" results export --csv --db "$DB" >"$nb_tmp/all.csv" 2>"$nb_tmp/out"
check "a complete export: exit 0, nothing said" sh -c "[ $? -eq 0 ] && [ ! -s '$nb_tmp/out' ]"
echo "1..$n"
