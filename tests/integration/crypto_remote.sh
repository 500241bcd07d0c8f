#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench crypto -c: the measurement runs inside an agent and comes back as the same tables and
# JSON as a local run, with env.remote the agent's platform. A native agent (with OpenSSL where
# this build has it) measures soft for real; a static PowerPC agent under qemu-ppc (no OpenSSL,
# no /dev/crypto, no AF_ALG) reports every engine unavailable with reasons and ends cleanly;
# refusals (max-time, key) are named; the agent stays responsive during a run and survives an
# interrupted one. Agents on 127.0.0.1 ports 5350-5354, always killed (trap in lib.sh).
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
B=${BUILD:-build}
nb=$NETBENCH
H=127.0.0.1

# Does this build have the soft engine (OpenSSL)? The agent is the same binary.
soft=1
"$nb" crypto --engine soft --algo hmac-sha1 --sizes 64 --time 20ms >/dev/null 2>&1 || soft=0

agent -- -p 5350 -B $H || { notok "native agent starts"; exit 1; }
native=$agent_pid
ok "native agent listening on $H port 5350"

# Human tables, from the board's side.
"$nb" crypto -c $H -p 5350 --quick >"$nb_tmp/q.txt" 2>"$nb_tmp/q.err"
rc=$?
check "the table names the agent and its platform" \
	grep -q "^netbench crypto on the agent at $H port 5350: .*(x86_64\|(aarch64\|(.*Linux" "$nb_tmp/q.txt"
check "the engines line and the reasons are printed as locally" \
	grep -Eq "^  (devcrypto|afalg): .{20,}|^netbench crypto: engines soft \(available\) devcrypto \(available\) afalg \(available\)" "$nb_tmp/q.txt"
if [ $soft -eq 1 ]; then
	check "--quick against the agent exits 0 (rc $rc)" test $rc -eq 0
	check "soft checked against known answers on the agent" grep -q "soft       checked: known answer" "$nb_tmp/q.txt"
	check "eight algorithms timed at 1420 bytes" test "$(grep -c '^ *1420  soft ' "$nb_tmp/q.txt")" -eq 8
else
	check "without OpenSSL nothing is measurable: exit 1 with reasons (rc $rc)" sh -c \
		"[ $rc -eq 1 ] && grep -q 'no engine could run any selected algorithm on the agent' '$nb_tmp/q.err'"
fi

# JSON: env.remote present, soft measured with MB/s > 0, the correctness check recorded.
"$nb" crypto -c $H -p 5350 -J --algo aes-128-gcm,aes-128-cbc-hmac-sha1 -s 64,1420 -t 60ms \
	>"$nb_tmp/r.json" 2>"$nb_tmp/r.err"
jrc=$?
check "-J against the agent: one JSON document (rc $jrc)" json_check "$nb_tmp/r.json" 'pass'
check "JSON: env.remote is the agent, agent host and port, engines with reasons, soft measured" \
	json_check "$nb_tmp/r.json" "
soft = $soft == 1
assert d['schema'] == 'netbench/1' and d['test'] == 'crypto'
rem = d['env']['remote']
assert rem['hostname'] and rem['arch'] and rem['byte_order'] in ('little', 'big'), rem
assert d['agent'] == {'host': '$H', 'port': 5350}, d['agent']
assert d['parameters']['sizes_bytes'] == [64, 1420] and abs(d['parameters']['time_s'] - 0.06) < 1e-9
eng = {e['name']: e for e in d['engines']}
assert set(eng) == {'soft', 'devcrypto', 'afalg'}, eng
for e in eng.values():
    assert e['available'] or len(e['reason']) > 10, e
res = {(r['algo'], r['engine']): r for r in d['results']}
assert len(res) == 6, sorted(res)
for r in res.values():
    assert r['status'] == 'ok' or r['reason'], r
if soft:
    for a in ('aes-128-gcm', 'aes-128-cbc-hmac-sha1'):
        r = res[(a, 'soft')]
        assert r['status'] == 'ok' and r['check'].startswith('known answer'), r
        valid = [p for p in r['points'] if p['valid']]
        assert valid and all(p['invalid_reason'] for p in r['points'] if not p['valid'])
        for p in valid:
            assert p['mbyte_per_s'] > 0 and p['ops'] > 0, p
            mbps = p['ops'] * p['size_bytes'] / p['window_s'] / 1e6
            assert abs(mbps - p['mbyte_per_s']) <= 0.01 * mbps + 0.01, (mbps, p)
            assert p['latency_p99_us'] >= p['latency_p50_us'] > 0 and p['cpu']['window_s'] > 0
else:
    assert not eng['soft']['available'] and 'OpenSSL' in eng['soft']['reason']
"
# The remote document has every member a local one has (plus agent).
"$nb" crypto -J --algo aes-128-gcm -s 64 -t 20ms >"$nb_tmp/l.json" 2>/dev/null
"$nb" crypto -c $H -p 5350 -J --algo aes-128-gcm -s 64 -t 20ms >"$nb_tmp/r1.json" 2>/dev/null
check "remote JSON has the local document's members and entries" python3 -c "
import json, sys
l = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
assert set(r) == set(l) | {'agent'}, (set(r) ^ set(l))
assert l['env'].get('remote') is None and r['env']['remote']['hostname']
assert [(x['algo'], x['engine'], x['status']) for x in r['results']] == \
       [(x['algo'], x['engine'], x['status']) for x in l['results']]
for x, y in zip(l['results'], r['results']):
    assert set(x) == set(y), (set(x) ^ set(y))
" "$nb_tmp/l.json" "$nb_tmp/r1.json"

# Only kernel engines, none here: every engine reported unavailable, exit 1 with the reason.
check_rc "kernel engines only (none here): exit 1" 1 \
	"$nb" crypto -c $H -p 5350 -e devcrypto,afalg --algo aes-128-cbc -s 64 -t 20ms
if ! grep -q "devcrypto (available)\|afalg (available)" "$nb_tmp/out"; then
	check "... every engine unavailable with its reason, and the message says so" sh -c \
		"grep -Eq '^  devcrypto: .{20,}' '$nb_tmp/out' && grep -Eq '^  afalg: .{20,}' '$nb_tmp/out' &&
		 grep -q 'no engine could run any selected algorithm on the agent' '$nb_tmp/out'"
else
	skip "a kernel engine is available here: nothing-measurable case not reachable"
fi

# The control loop stays responsive while the run's thread measures: a second controller is
# turned away at once, and the run still completes.
"$nb" crypto -c $H -p 5350 --algo hmac-sha1,hmac-sha256 -s 64,1024,8192 -t 200ms -e soft \
	>"$nb_tmp/long.txt" 2>&1 &
long=$!
wait_until 5 "the agent to start the long run" agent_testing "$native"
t0=$(date +%s%N)
"$nb" crypto -c $H -p 5350 --algo hmac-sha1 -s 64 -t 20ms >"$nb_tmp/busy.txt" 2>&1
brc=$?
t1=$(date +%s%N)
check "a second controller during a run is told the agent is busy, within 2 s (rc $brc)" sh -c \
	"[ $brc -eq 1 ] && grep -q 'agent busy' '$nb_tmp/busy.txt' && [ $(((t1 - t0) / 1000000)) -lt 2000 ]"
wait $long
lrc=$?
if [ $soft -eq 1 ]; then
	check "... and the run itself completes undisturbed (rc $lrc)" sh -c \
		"[ $lrc -eq 0 ] && [ \$(grep -c '^ *8192  soft ' '$nb_tmp/long.txt') -eq 2 ]"
else
	check "... and the run ends cleanly (rc $lrc)" test $lrc -eq 1
fi

# Ctrl-C on the controller: the agent stops the run, reports it interrupted, and serves on.
"$nb" crypto -c $H -p 5350 --algo all -s 64,1024 -t 300ms -e soft >"$nb_tmp/int.txt" 2>&1 &
intr=$!
# the first algorithm's rows (printed once it is measured), or the end of a run that failed
first_rows() { grep -q '^ *1024  soft ' "$nb_tmp/int.txt" || nb_gone "$intr"; }
wait_until 10 "the interrupted run's first algorithm" first_rows
kill -INT $intr
t0=$(date +%s)
wait $intr
irc=$?
# with soft here the run is mid-sweep: 130 and the points kept; without, it failed at once (1)
check "an interrupted remote run exits $((130 - 129 * (1 - soft))) saying so, within seconds (rc $irc)" sh -c \
	"[ $irc -eq $((130 - 129 * (1 - soft))) ] && grep -q 'interrupted' '$nb_tmp/int.txt' && [ $(($(date +%s) - t0)) -le 5 ]"
check "the agent logged the interrupted run" grep -q "crypto test .*interrupted" "$nb_tmp/agent.log"
check_rc "the agent serves the next run" $((1 - soft)) \
	"$nb" crypto -c $H -p 5350 --algo hmac-sha1 -s 64 -t 20ms -e soft

# A controller that vanishes mid-run (kill -9): the agent ends the run's thread and serves on.
"$nb" crypto -c $H -p 5350 --algo all -s 64,1024 -t 300ms -e soft >/dev/null 2>&1 &
gone=$!
wait_until 5 "the agent to start the vanishing controller's run" agent_testing "$native"
kill -9 $gone 2>/dev/null
wait $gone 2>/dev/null
t0=$(date +%s)
check_rc "after a controller vanished mid-run, the agent serves the next run" $((1 - soft)) \
	"$nb" crypto -c $H -p 5350 --algo hmac-sha1 -s 64 -t 20ms -e soft
check "... within seconds" test $(($(date +%s) - t0)) -le 5
# Killed mid-run, or (on a loaded machine) before its handshake finished.
check "... and logged the broken session" grep -Eq "controller disconnected|handshake failed" "$nb_tmp/agent.log"

# Refusals, named.
agent -- -p 5351 -B $H --max-time 2 || notok "agent with --max-time 2 starts"
check_rc "a run longer than the agent's --max-time is refused" 1 "$nb" crypto -c $H -p 5351 --quick
check "... naming the rule" has "refused by rule max-time"
printf 'nbtcrya-secret\n' >"$nb_tmp/psk"
agent -- -p 5352 -B $H --psk "$nb_tmp/psk" || notok "agent with --psk starts"
check_rc "an agent with a key refuses a controller without it" 1 \
	"$nb" crypto -c $H -p 5352 --algo hmac-sha1 -s 64 -t 20ms
check "... saying --psk is needed" has "pre-shared key"
check_rc "with --psk the run goes through" $((1 - soft)) \
	"$nb" crypto -c $H -p 5352 --psk "$nb_tmp/psk" --algo hmac-sha1 -s 64 -t 20ms -e soft
check_rc "no agent on the port: exit 1 naming it" 1 "$nb" crypto -c $H -p 5359 --algo hmac-sha1
check "... cannot connect" has "cannot connect to the agent at $H port 5359"
check_rc "--psk without -c is a usage error" 2 "$nb" crypto --psk "$nb_tmp/psk"
check "... saying -c is needed" has "give -c HOST"
check_rc "-p without -c is a usage error" 2 "$nb" crypto -p 5350
check_rc "-p out of range is a usage error" 2 "$nb" crypto -c $H -p 70000
check "... naming -p" has "port"

# The board's case: a static PowerPC agent without OpenSSL, under qemu-ppc.
if ! command -v qemu-ppc >/dev/null 2>&1 || ! command -v powerpc-linux-gnu-gcc >/dev/null 2>&1; then
	skip "PowerPC agent: qemu-ppc or powerpc-linux-gnu-gcc not installed (tests/deps.sh)"
else
	# Always through make: a PowerPC binary older than the sources would be a stale agent.
	make -s -C "$TOP" CC=powerpc-linux-gnu-gcc STATIC=1 BUILD="$B-ppc" -j2 \
		"$B-ppc/netbench" >"$nb_tmp/ppc-build.log" 2>&1
	if [ $? -ne 0 ] || [ ! -x "$B-ppc/netbench" ]; then
		sed 's/^/# /' "$nb_tmp/ppc-build.log" | grep -v getaddrinfo | head -20
		notok "static PowerPC build for the agent"
	else
		qemu-ppc "$B-ppc/netbench" serve -p 5353 -B $H --log "$nb_tmp/ppc.log" &
		nb_pids="$nb_pids $!"
		wait_until 10 "the PowerPC agent listening" grep -qs listening "$nb_tmp/ppc.log"
		"$nb" crypto -c $H -p 5353 --quick >"$nb_tmp/ppc.txt" 2>"$nb_tmp/ppc.err"
		prc=$?
		check "PowerPC agent: nothing measurable, exit 1 with the reason (rc $prc)" sh -c \
			"[ $prc -eq 1 ] && grep -q 'no engine could run any selected algorithm on the agent' '$nb_tmp/ppc.err'"
		check "... the header names the ppc agent" grep -q "^netbench crypto on the agent at .*(ppc" "$nb_tmp/ppc.txt"
		for e in soft devcrypto afalg; do
			check "... $e unavailable, with a reason: $(grep "^  $e:" "$nb_tmp/ppc.txt" | cut -c1-80)" \
				grep -Eq "^  $e: .{20,}" "$nb_tmp/ppc.txt"
		done
		"$nb" crypto -c $H -p 5353 -J --algo aes-128-gcm,hmac-sha1 -s 64,1420 -t 20ms \
			>"$nb_tmp/ppc.json" 2>/dev/null
		check "PowerPC agent, JSON: big-endian ppc remote, every engine unavailable with a reason" \
			json_check "$nb_tmp/ppc.json" "
r = d['env']['remote']
assert r['byte_order'] == 'big' and r['arch'].startswith('ppc'), r
assert d['env']['local']['byte_order'] == 'little'
assert all(not e['available'] and len(e['reason']) > 10 for e in d['engines']), d['engines']
assert 'OpenSSL' in [e for e in d['engines'] if e['name'] == 'soft'][0]['reason']
assert len(d['results']) == 6 and all(x['status'] == 'unavailable' and x['reason'] for x in d['results'])
assert d['interrupted'] is False
"
		check "... and the agent logged a clean end of the test" grep -q "crypto test 2 algorithms" "$nb_tmp/ppc.log"
	fi
fi
check_schemas "$nb_tmp"
echo "1..$n"
