#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Foreign strings never reach the terminal raw (docs/security.md): a man in the middle of the
# control connection (hostile_client.py escape_proxy) appends terminal control sequences to every
# fact of the agent's HELLO_OK and AUTH_OK and to its error texts, and a store holds a label and
# platform facts with them; every printer (tput, mem, an agent's refusal, results list, show,
# export, compare) must print them escaped: no C0 control but newline and tab, no DEL, no C1.
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
P=5351
X=5352
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
: >"$nb_tmp/proxy.out"
$PY "$(dirname "$0")/hostile_client.py" escape_proxy $X $P >"$nb_tmp/proxy.out" 2>&1 &
proxy=$!
nb_pids="$nb_pids $proxy"
wait_until 10 "the proxy listening" grep -q listening "$nb_tmp/proxy.out"
# clean FILE: no control character but newline and tab, no DEL, no C1 (raw byte or UTF-8)
clean() {
	$PY - "$1" <<'EOF'
import re, sys
b = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", b)
if bad:
    print("# raw control %r at byte %d" % (bad.group(0), bad.start()))
    sys.exit(1)
EOF
}
# run NAME COMMAND...: stdout and stderr of the command apart, each checked
run() {
	name=$1; shift
	"$@" >"$nb_tmp/o" 2>"$nb_tmp/e"
	check "$name: stdout carries no raw control character" clean "$nb_tmp/o"
	check "$name: stderr carries no raw control character" clean "$nb_tmp/e"
}

run "tput through the proxy" "$NETBENCH" tput -c 127.0.0.1 -p $X -l 1k -t 0.3 -O 0.1
check "the proxy's sequence is shown, escaped, in the header" grep -q 'x1b\]0;pwned' "$nb_tmp/o"
run "tput -J through the proxy" "$NETBENCH" tput -c 127.0.0.1 -p $X -l 1k -t 0.3 -O 0.1 -J
run "mem on the agent through the proxy" "$NETBENCH" mem -c 127.0.0.1:$X -q -l 1k,16k \
	--bw-size 1M --threads 1
# An error text from the agent: "busy" while another controller's run holds it.
"$NETBENCH" tput -c 127.0.0.1 -p $P -l 1k -t 4 -O 0.1 >/dev/null 2>&1 &
busy=$!
wait_until 5 "the agent to start the first controller's test" agent_testing "$agent_pid"
run "an agent's refusal through the proxy" "$NETBENCH" tput -c 127.0.0.1 -p $X -l 1k -t 0.3
check "  the refusal is printed (escaped)" grep -q 'busy.*x1b' "$nb_tmp/e"
wait $busy

# A store with foreign text: a document imported with facts that carry ESC, and a label.
if "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
	skip "store printers: this build has no SQLite"
else
	DB=$nb_tmp/s.db
	$PY - "$nb_tmp/doc.json" <<'EOF'
import json, sys
evil = "\x1b]0;pwned\x07\x1b[2J\x1b[8m\u009b31m\rX"
pts = [{"set_bytes": 1024 << i, "ns_per_load": 1.0 + i} for i in range(4)]
json.dump({"schema": "netbench/1", "test": "mem", "time_utc": "2026-01-01T00:00:00Z",
           "env": {"local": {"hostname": "h" + evil, "kernel": "6.1" + evil, "arch": "x" + evil,
                             "cpu_model": "c" + evil, "driver": "d" + evil}},
           "latency": {"points": pts}}, open(sys.argv[1], "w"))
EOF
	"$NETBENCH" results import --db "$DB" --label "$(printf 'L\033[8m\302\233x')" "$nb_tmp/doc.json" \
		>/dev/null 2>&1
	sed 's/2026-01-01T00:00:00Z/2026-01-01T00:00:01Z/' "$nb_tmp/doc.json" >"$nb_tmp/doc2.json"
	"$NETBENCH" results import --db "$DB" --label B "$nb_tmp/doc2.json" >/dev/null 2>&1
	run "results list" "$NETBENCH" results list --db "$DB"
	check "  the label is shown, escaped" grep -q 'L\\x1b\[8m' "$nb_tmp/o"
	run "results list -J" "$NETBENCH" results list -J --db "$DB"
	run "results show" "$NETBENCH" results show --db "$DB" 1
	run "results show -J" "$NETBENCH" results show -J --db "$DB" 1
	check "  show -J is still JSON" json_check "$nb_tmp/o" 'assert d["test"] == "mem"'
	run "results export --csv" "$NETBENCH" results export --csv --db "$DB"
	run "compare" "$NETBENCH" compare --db "$DB"
	run "compare --csv" "$NETBENCH" compare --csv --db "$DB"
fi
echo "1..$n"
