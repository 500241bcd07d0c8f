#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Ctrl-C mid-sweep keeps what was measured (tput, rate, stream and stream --reverse, mem, crypto): SIGINT during a sweep stops the running step, prints
# the steps already measured (table, or a complete JSON document with "interrupted": true),
# closes the agent's session and exits 130; the agent serves the next run and no process is left.
# tput also prints its header first and each row as soon as it is measured. Loopback only, ~25 s.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH

agent -- -p 5393 -B 127.0.0.1 || { notok "agent starts"; exit 1; }

# sigint_after SECONDS OUT ERR command...: runs command, SIGINT after SECONDS; sets $rc
sigint_after() {
	t=$1 out=$2 errf=$3; shift 3
	"$@" >"$out" 2>"$errf" &
	pid=$!
	sleep "$t" # not a wait: the interrupt lands this far into the run, inside a window of its sweep
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
}

# tput: a 0.25 s idle baseline, then 4 sizes x (Tx + Rx) of 0.6 s each; the first size is done
# after ~1.6 s
sigint_after 2.6 "$nb_tmp/t.txt" "$nb_tmp/t.err" \
	"$NB" tput -c 127.0.0.1:5393 -l 1k,2k,4k,8k -t 0.5 -O 0.1 -i 0.25
check "tput: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
# With -i the interval lines come under their own heading and the result table after them.
check "tput: the intervals' heading comes before the first interval line, the table after the last" awk '
	/^Intervals of 0\.25 s/ { if (!h) h = NR }
	/ s  Tx / { if (!first) first = NR; last = NR }
	/^ Block +Tx KByte\/s/ { t = NR }
	END { exit !(h && first && h < first && last < t) }' "$nb_tmp/t.txt"
check "tput: the 1k row is printed, in the table after the interval lines" awk '
	/ s  Tx / { last = NR }
	/^ *1k +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$/ { row = NR }
	END { exit !(row && last && last < row) }' "$nb_tmp/t.txt"
check "tput: the 8k row is not (the sweep stopped)" sh -c "! grep -q '^ *8k  *[0-9]' '$nb_tmp/t.txt'"
check "tput: it says how many sizes were measured" grep -q 'interrupted: [1-3] of 4 sizes measured' "$nb_tmp/t.txt"
check "tput: the CPU table of the measured sizes follows" grep -q '1k  Tx |' "$nb_tmp/t.txt"

sigint_after 2.2 "$nb_tmp/t.json" "$nb_tmp/tj.err" \
	"$NB" tput -c 127.0.0.1:5393 -l 1k,2k,4k,8k -t 0.5 -O 0.1 -J
check "tput -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "tput -J: a complete document, interrupted true, whole sizes and a finished Tx half" json_check "$nb_tmp/t.json" "
assert d['interrupted'] is True
st = d['steps']; n = len(st); assert 2 <= n < 8, n
dirs = [s['direction'] for s in st]
assert dirs == ['tx', 'rx'] * (n // 2) + ['tx'] * (n % 2), dirs
assert all(s['valid'] for s in st)"

# rate: --quick throughput at six sizes (about 1 s each on a quiet host, after a learning phase);
# SIGINT after 3.5 s lands after the first size on a loaded host too, and before the last
sigint_after 3.5 "$nb_tmp/r.json" "$nb_tmp/r.err" \
	"$NB" rate -c 127.0.0.1:5393 --data-port 5392 -q -s 64,128,256,512,1024,1518 -J
check "rate -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "rate -J: a complete document, interrupted true, the sizes finished" json_check "$nb_tmp/r.json" "
assert d['interrupted'] is True
n = len(d['sizes']); assert 1 <= n < 6, n"
check "rate: says how many sizes were measured" grep -q 'interrupted: [1-5] of 6 frame sizes measured' "$nb_tmp/r.err"

# stream: 3 steps of 1 s to the agent; SIGINT in the second: the cut step is not loss
sigint_after 2 "$nb_tmp/s.json" "$nb_tmp/s.err" \
	"$NB" stream -c 127.0.0.1 --ctl-port 5393 -a 127.0.0.1 -p 5391 --rates 1M,2M,3M -t 1 -J
check "stream -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "stream -J: interrupted true, only whole steps, none lost" json_check "$nb_tmp/s.json" "
assert d['interrupted'] is True
assert len(d['sent']) == 1, d['sent']
st = d['receivers'][0]['steps']; assert len(st) == 1 and st[0]['lost'] == 0, st"
sigint_after 2 "$nb_tmp/s.txt" "$nb_tmp/s2.err" \
	"$NB" stream -c 127.0.0.1 --ctl-port 5393 -a 127.0.0.1 -p 5391 --rates 1M,2M,3M -t 1
check "stream: SIGINT mid-sweep exits 130 (got $rc), says what it kept" \
	sh -c "[ $rc -eq 130 ] && grep -q 'interrupted: 1 whole step kept' '$nb_tmp/s.txt'"

# stream --send and --recv, without an agent: SIGINT in the second of three 1 s steps keeps the
# first step only (no step cut short, no phantom step never sent), and both documents say so.
sigint_after 1.6 "$nb_tmp/ss.json" "$nb_tmp/ss.err" \
	"$NB" stream --send -a 127.0.0.1 -p 5397 --rates 1M,2M,3M -t 1 -O 0 -J
check "stream --send -J: SIGINT mid-sweep exits 130 (got $rc), one whole step, interrupted" json_check "$nb_tmp/ss.json" "
assert d['interrupted'] is True
st = d['sent']; assert len(st) == 1 and st[0]['rate_bps_asked'] == 1000000, st"
check "stream --send: SIGINT exits 130 (got $rc)" [ "$rc" = 130 ]
"$NB" stream --recv -a 127.0.0.1 -p 5398 -J >"$nb_tmp/sr.json" 2>"$nb_tmp/sr.err" &
rpid=$!
wait_until 5 "the receiver on port 5398" sh -c "ss -Hlun 'sport = :5398' | grep -q ."
"$NB" stream --send -a 127.0.0.1 -p 5398 --rates 1M,2M,3M -t 1 -O 0 >/dev/null 2>&1 &
spid=$!
sleep 1.6 # not a wait: the interrupt lands in the second of the three 1 s steps
kill -INT "$rpid"
wait "$rpid"
rc=$?
wait "$spid"
check "stream --recv -J: SIGINT mid-sweep, interrupted true, the open step dropped (rc $rc)" json_check "$nb_tmp/sr.json" "
assert d['interrupted'] is True and d['end'] == 'interrupted', (d.get('interrupted'), d.get('end'))
st = d['steps']; assert len(st) == 1 and st[0]['rate_bps_asked'] == 1000000, st"
check "stream --recv: SIGINT exits 130 (got $rc)" [ "$rc" = 130 ]

# stream --reverse: the agent sends 8 steps of 1.1 s; SIGINT after 3 s lands mid-sweep whether
# the start takes 0.1 s or 2 s (the steps are timed, not host-bound); the agent is told to stop
sigint_after 3 "$nb_tmp/sr.json" "$nb_tmp/sr.err" \
	"$NB" stream -c 127.0.0.1:5393 --reverse -p 5391 --rates 1M,1M,2M,2M,3M,3M,4M,4M -t 1 -O 0.1 -J
check "stream --reverse -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "stream --reverse -J: interrupted true, only whole steps, none lost" json_check "$nb_tmp/sr.json" "
assert d['interrupted'] is True
n = len(d['sent']); assert 1 <= n < 8, d['sent']
st = d['receivers'][0]['steps']; assert len(st) == n and all(s['lost'] == 0 for s in st), st"
logged=$(grep -c 'stream test send' "$nb_tmp/agent.log")
sigint_after 3 "$nb_tmp/sr.txt" "$nb_tmp/sr2.err" \
	"$NB" stream -c 127.0.0.1:5393 --reverse -p 5391 --rates 1M,1M,2M,2M,3M,3M,4M,4M -t 1 -O 0.1
check "stream --reverse: SIGINT mid-sweep exits 130 (got $rc), says what it kept" \
	sh -c "[ $rc -eq 130 ] && grep -q 'interrupted: [1-7] whole steps\\? kept' '$nb_tmp/sr.txt'"
check "stream --reverse: the agent stopped sending at once (its test lasted under 5 s of 8.8)" \
	wait_until 2 "the agent to log this run's end, under 5 s" sh -c "
	[ \$(grep -c 'stream test send' '$nb_tmp/agent.log') -gt $logged ] &&
	grep 'stream test send' '$nb_tmp/agent.log' | tail -1 | grep -q ', 8 steps, [0-4]\\.[0-9] s'"

# mem (local): the default sweep can end in under 3 s on a fast host; up to 2 GiB the largest
# working sets alone take seconds to fault in and walk, so a SIGINT after 1 s lands mid-sweep on any
# host, after the small sets (faulted in point by point) are measured
sigint_after 1 "$nb_tmp/m.json" "$nb_tmp/m.err" "$NB" mem --max 2G -J
check "mem -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "mem -J: interrupted true, the small points kept, no memory latency and no bandwidth claimed" \
	json_check "$nb_tmp/m.json" "
assert d['interrupted'] is True
pts = d['latency']['points']; assert 1 <= len(pts) < 43, len(pts)
assert pts[0]['set_bytes'] == 1024, pts[0]
assert d['latency']['memory_ns'] is None, d['latency']['memory_ns']
assert d['bandwidth']['results'] == [], d['bandwidth']"
sigint_after 1 "$nb_tmp/m.txt" "$nb_tmp/m2.err" "$NB" mem --max 2G
check "mem: SIGINT mid-sweep exits 130 (got $rc), prints the points and says so" \
	sh -c "[ $rc -eq 130 ] && grep -q '^ *1 KiB' '$nb_tmp/m.txt' && grep -q '^interrupted: .*no memory latency' '$nb_tmp/m.txt'"

# crypto: 3 algorithms x 4 sizes of 0.36 s (window and warm-up) with soft, ~1.5 s per algorithm;
# SIGINT after 2.2 s lands in the second (or, on a slow host, the first): the points measured
# whole are printed and kept, the cut one and those not reached are not
crypto_args="--algo hmac-sha1,aes-128-cbc,hmac-sha256 -e soft -s 64,256,1024,4096 -t 0.3"
crypto_keeps_whole="
assert d['interrupted'] is True
pts = [p for c in d['results'] if c['status'] == 'ok' for p in c['points']]
assert 1 <= len(pts) < 12, len(pts)
assert all(p['valid'] or p['invalid_reason'] not in ('interrupted', 'not run') for p in pts), pts
assert all(c['status'] != 'failed' or c['reason'] != 'not run' for c in d['results']), d['results']
assert d['results'][0]['algo'] == 'hmac-sha1', d['results'][0]"
if "$NB" crypto -e soft --algo hmac-sha1 -s 64 -t 0.01 >/dev/null 2>&1; then
	sigint_after 2.2 "$nb_tmp/c.json" "$nb_tmp/c.err" "$NB" crypto $crypto_args -J
	check "crypto -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
	check "crypto -J: interrupted true, only whole (algorithm, engine, size) points" \
		json_check "$nb_tmp/c.json" "$crypto_keeps_whole"
	check "crypto -J: says how many points were measured" \
		grep -q 'interrupted: [1-9][0-9]* (algorithm, engine, size) points measured, of at most 12' "$nb_tmp/c.err"
	sigint_after 2.2 "$nb_tmp/c.txt" "$nb_tmp/c2.err" "$NB" crypto $crypto_args
	check "crypto: SIGINT mid-sweep exits 130 (got $rc), prints the points and says so" \
		sh -c "[ $rc -eq 130 ] && grep -q '^ *64  soft  *[0-9]' '$nb_tmp/c.txt' && grep -q '^interrupted: [1-9]' '$nb_tmp/c.txt'"
	check "crypto: no cut point is printed" sh -c "! grep -q 'invalid: interrupted' '$nb_tmp/c.txt'"
	sigint_after 2.2 "$nb_tmp/cr.json" "$nb_tmp/cr.err" "$NB" crypto -c 127.0.0.1:5393 $crypto_args -J
	check "crypto -c -J: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
	check "crypto -c -J: the agent's whole points are kept, interrupted true" \
		json_check "$nb_tmp/cr.json" "$crypto_keeps_whole"
	crypto_docs="$nb_tmp/c.json $nb_tmp/cr.json"
else
	skip "crypto: no soft engine in this build (OpenSSL), nothing to interrupt"
	crypto_docs=""
fi

check "the agent still runs" kill -0 "$agent_pid"
check_rc "the agent serves the next run" 0 "$NB" tput -c 127.0.0.1:5393 -l 1k -t 0.2 -O 0 -J
check "... which says interrupted false" json_check "$nb_tmp/out" "assert d['interrupted'] is False"
cp "$nb_tmp/out" "$nb_tmp/ok.json"
check "no controller process is left" sh -c "! pgrep -f '^$NB (tput|rate|stream|mem|crypto) ' >/dev/null"
check_schemas "$nb_tmp/t.json" "$nb_tmp/ok.json" "$nb_tmp/r.json" "$nb_tmp/s.json" "$nb_tmp/sr.json" \
	"$nb_tmp/m.json" $crypto_docs
echo "1..$n"
