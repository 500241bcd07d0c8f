#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench mem -c: the probe runs inside an agent on loopback and prints as a local run does,
# with env.remote the agent's platform; a second controller is turned away while it runs; an
# interrupted controller's run is cancelled on the agent; the agent's key and max-time policy
# apply; and a big-endian PowerPC agent under qemu-ppc serves a little-endian controller.
. "$(dirname "$0")/../lib.sh"
BUILD=${BUILD:-build}
TOP=${TOP:-.}
tmp=$nb_tmp
listening() { ss -Hltn "sport = :$1" | grep -q .; }
start_agent() { # name, port, the agent's options (one word list), the command running netbench
	name=$1 port=$2 opts=$3; shift 3
	# shellcheck disable=SC2086
	"$@" serve -B 127.0.0.1 -p "$port" $opts >"$tmp/$name.log" 2>&1 &
	agent_pid=$!
	nb_pids="$nb_pids $agent_pid"
	if wait_until 10 "$name listening on port $port" listening "$port"; then
		ok "$name agent listens on 127.0.0.1 port $port"
	else
		notok "$name agent listens on 127.0.0.1 port $port"
		sed 's/^/# /' "$tmp/$name.log"
		return 1
	fi
}
mem() { "$NETBENCH" mem "$@"; }
# Ports from this test's range (5330-5339) that nothing listens on now.
free=""
for p in 5330 5331 5332 5333 5334 5335 5336 5337 5338 5339; do
	listening "$p" || free="$free $p"
done
# shellcheck disable=SC2086
set -- $free
if [ $# -lt 4 ]; then
	notok "four free ports in 5330-5339 (free:$free)"
	echo "1..$n"
	exit 1
fi
PORT=$1 PORT_KEY=$2 PORT_PPC=$3 PORT_NONE=$4

start_agent plain "$PORT" "" "$NETBENCH"
plain=$agent_pid

mem -c 127.0.0.1 -p "$PORT" --quick --max 8M >"$tmp/human.txt" 2>"$tmp/human.err"
check "mem -c --quick exits 0 $(head -1 "$tmp/human.err")" test $? -eq 0
check "human output names the agent" grep -q "^netbench mem on the agent at 127.0.0.1 port $PORT: " "$tmp/human.txt"
check "human output has the latency table" grep -q 'working set *ns/load *cycles/load' "$tmp/human.txt"
check "human output has the caches table" grep -q '^Caches: inferred' "$tmp/human.txt"
check "human output has the bandwidth table" grep -q 'read MB/s *write MB/s *copy MB/s' "$tmp/human.txt"
check "human output names the memory latency at 8 MiB" grep -q 'memory latency: [0-9.]* ns.*(at 8 MiB)' "$tmp/human.txt"

mem -c 127.0.0.1 -p "$PORT" --quick --max 16M --threads 2 -J >"$tmp/out.json" 2>"$tmp/json.err"
check "mem -c --quick -J exits 0 $(head -1 "$tmp/json.err")" test $? -eq 0
check "JSON: schema, env.local and env.remote (the agent), the agent's address" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "netbench/1" and d["test"] == "mem", d.get("test")
loc, rem = d["env"]["local"], d["env"]["remote"]
assert loc["arch"] and rem["arch"] and rem["hostname"] and rem["kernel"], d["env"]
assert d["agent"] == {"host": "127.0.0.1", "port": int(sys.argv[2])}, d["agent"]
assert d["parameters"]["max_bytes"] == 16 << 20 and d["parameters"]["threads"] == 2, d["parameters"]
' "$tmp/out.json" "$PORT"
check "JSON: latency from 1 KiB to 16 MiB, every figure positive, grows" python3 -c '
import json, sys
lat = json.load(open(sys.argv[1]))["latency"]
p = lat["points"]
print("#", p[0]["ns_per_load"], "ns ->", p[-1]["ns_per_load"], "ns; memory", lat["memory_ns"], "ns")
assert p[0]["set_bytes"] == 1024 and p[-1]["set_bytes"] == 16 << 20
assert all(x["ns_per_load"] > 0 and x["ns_per_load_median"] > 0 for x in p)
assert 0 < p[0]["ns_per_load"] < p[-1]["ns_per_load"]
assert abs(lat["memory_ns"] - p[-1]["ns_per_load"]) < 0.01
assert lat["trials"] > 0 and "sys_busy_pct" in lat["cpu"], lat["cpu"]
' "$tmp/out.json"
check "JSON: bandwidth for 1 and 2 threads, every figure positive" python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["bandwidth"]
assert [x["threads"] for x in b["results"]] == [1, 2], b
for x in b["results"]:
    for k in ("read_mbyte_per_s", "write_mbyte_per_s", "copy_mbyte_per_s"):
        assert x[k] > 0, (k, x[k])
assert b["buffer_bytes"] > 0 and b["buffer_bytes_from"], b
' "$tmp/out.json"
check "the agent logged both mem tests" test "$(grep -c ': mem test, ' "$tmp/plain.log")" -eq 2

# A long run: a second controller is told the agent is busy (the agent's loop is not stuck in
# the probe), and an interrupted controller's run is cancelled rather than finished.
# (not through the mem function: $! must be netbench itself, not a subshell that ignores SIGINT)
"$NETBENCH" mem -c 127.0.0.1 -p "$PORT" --max 256M >"$tmp/long.out" 2>"$tmp/long.err" &
long=$!
nb_pids="$nb_pids $long"
wait_until 10 "the agent to start the long run" agent_testing "$plain"
t0=$(date +%s)
mem -c 127.0.0.1 -p "$PORT" --quick >"$tmp/busy.out" 2>"$tmp/busy.err"
rc=$?
t=$(($(date +%s) - t0))
check "a second controller fails at once while the run goes on (exit $rc, ${t}s): $(head -1 "$tmp/busy.err")" \
	sh -c "[ $rc -eq 1 ] && [ $t -le 3 ] && grep -q 'busy' '$tmp/busy.err'"
kill -INT "$long"
t0=$(date +%s)
wait "$long"
rc=$?
check "the interrupted controller exits 130, as every interrupted sweep (exit $rc): $(head -1 "$tmp/long.err")" \
	sh -c "[ $rc -eq 130 ] && grep -q interrupted '$tmp/long.err' && [ ! -s '$tmp/long.out' ]"
mem -c 127.0.0.1 -p "$PORT" --quick --max 1M --bw-size 1M --threads 1 -J >"$tmp/after.json" 2>"$tmp/after.err"
rc=$?
t=$(($(date +%s) - t0))
# The full 256 MiB run takes well over 10 s; cancelled, the agent is free within a point.
check "the agent cancelled the run and served the next one (exit $rc, ${t}s after the interrupt)" \
	sh -c "[ $rc -eq 0 ] && [ $t -le 8 ]"

# The agent's policy: the key, and --max-time against the duration the controller asks (an
# upper bound of the run: 60 s for --quick, 150 s by default).
printf 'nbtmema-secret\n' >"$tmp/key"
start_agent keyed "$PORT_KEY" "--psk $tmp/key --max-time 100" "$NETBENCH"
mem -c 127.0.0.1 -p "$PORT_KEY" --quick >"$tmp/nokey.out" 2>"$tmp/nokey.err"
rc=$?
check "without --psk the keyed agent refuses (exit $rc): $(head -1 "$tmp/nokey.err")" \
	sh -c "[ $rc -eq 1 ] && grep -q 'pre-shared key' '$tmp/nokey.err'"
mem -c 127.0.0.1 -p "$PORT_KEY" --psk "$tmp/key" --quick --max 1M --bw-size 1M >"$tmp/key.out" 2>"$tmp/key.err"
check "with --psk a quick run passes (60 s asked, 100 s allowed) $(head -1 "$tmp/key.err")" test $? -eq 0
mem -c 127.0.0.1 -p "$PORT_KEY" --psk "$tmp/key" >"$tmp/long.out" 2>"$tmp/long.err"
rc=$?
check "a default run is refused by the agent's max-time (exit $rc): $(head -1 "$tmp/long.err")" \
	sh -c "[ $rc -eq 1 ] && grep -q 'refused by rule max-time' '$tmp/long.err'"

check_refused "--port without -c" 2 "netbench mem: .*give -c HOST" mem -p "$PORT" --quick
check_refused "--psk without -c" 2 "netbench mem: .*give -c HOST" mem --psk "$tmp/key"
check_refused "port 0" 2 "netbench mem: .*port" mem -c 127.0.0.1 -p 0
check_refused "no agent listening" 1 "netbench mem: .*cannot connect" \
	mem -c 127.0.0.1 -p "$PORT_NONE" --quick
check_refused "an empty key file" 2 "netbench mem: .*empty" \
	mem -c 127.0.0.1 -p "$PORT_KEY" --psk /dev/null

# The board: a static big-endian PowerPC build of the agent under qemu-ppc.
if ! command -v powerpc-linux-gnu-gcc >/dev/null || ! command -v qemu-ppc >/dev/null; then
	skip "powerpc-linux-gnu-gcc or qemu-ppc missing (tests/deps.sh installs them)"
elif ! make -s -C "$TOP" CC=powerpc-linux-gnu-gcc STATIC=1 BUILD="$BUILD-ppc" -j2 \
	"$BUILD-ppc/netbench" >"$tmp/ppc-build.log" 2>&1; then
	notok "PowerPC build of netbench (see below)"
	sed 's/^/# /' "$tmp/ppc-build.log" | tail -20
elif start_agent ppc "$PORT_PPC" "" qemu-ppc "$BUILD-ppc/netbench"; then
	mem -c 127.0.0.1 -p "$PORT_PPC" --quick --max 4M --bw-size 1M --threads 2 -J \
		>"$tmp/ppc.json" 2>"$tmp/ppc.err"
	check "mem -c against the PowerPC agent exits 0 $(head -1 "$tmp/ppc.err")" test $? -eq 0
	check "PowerPC: env.remote is big-endian ppc, env.local this host; latency 1 KiB -> 4 MiB grows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rem, loc = d["env"]["remote"], d["env"]["local"]
assert rem["byte_order"] == "big" and rem["arch"].startswith("ppc"), rem
assert loc["byte_order"] == sys.byteorder, loc
p = d["latency"]["points"]
print("#", rem["arch"], p[0]["ns_per_load"], "ns ->", p[-1]["ns_per_load"], "ns")
assert p[0]["set_bytes"] == 1024 and p[-1]["set_bytes"] == 4 << 20
assert 0 < p[0]["ns_per_load"] < p[-1]["ns_per_load"] and d["latency"]["memory_ns"] > 0
b = d["bandwidth"]["results"]
assert [x["threads"] for x in b] == [1, 2] and all(x["copy_mbyte_per_s"] > 0 for x in b), b
' "$tmp/ppc.json"
	mem -c 127.0.0.1 -p "$PORT_PPC" --quick --max 64k --bw-size 1M --pattern seq >"$tmp/ppc.txt" 2>&1
	check "PowerPC: the human table too (seq pattern)" \
		sh -c "grep -q 'agent at 127.0.0.1 port $PORT_PPC: .*(ppc' '$tmp/ppc.txt' && grep -q '^netbench mem: seq' '$tmp/ppc.txt'"
fi
check_quiet "every JSON document validates against docs/schema" \
	python3 "$(dirname "$0")/../validate_json.py" "$tmp"
echo "1..$n"
