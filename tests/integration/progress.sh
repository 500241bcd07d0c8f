#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The live progress line: on a terminal (stderr a tty) tput, rate, stream, crypto and mem show
# "step k of n" on stderr, redrawn in place at most a few times a second and gone before the table
# and at the end, so stdout and stderr on one terminal render as the plain table; off a terminal
# there is no progress text at all; with -J the line is on the terminal (stderr) and stdout stays a
# JSON document that parses, also when both are one terminal. Runs under a pseudo-terminal
# (python3's pty); loopback only, ~20 s.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH

# ptyrun.py STDOUT TTYLOG CMD...: runs CMD with stderr on a new pty (stdout too when STDOUT is -,
# else into the file STDOUT); TTYLOG gets the bytes the terminal received; exits with CMD's status.
cat >"$nb_tmp/ptyrun.py" <<'PY'
import fcntl, os, pty, select, struct, subprocess, sys, termios
out, log, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
m, s = pty.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack('HHHH', 50, 200, 0, 0))
so = s if out == '-' else open(out, 'wb')
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=so, stderr=s,
                     env=dict(os.environ, TERM='xterm'))
os.close(s)
buf = b''
while True:
    try:
        r, _, _ = select.select([m], [], [], 1)
    except OSError:
        break
    if r:
        try:
            d = os.read(m, 65536)
        except OSError:
            break
        if not d:
            break
        buf += d
    elif p.poll() is not None:
        break
open(log, 'wb').write(buf)
sys.exit(p.wait())
PY
# render.py TTYLOG: what the terminal shows at the end (\r, ESC[K and newlines applied)
cat >"$nb_tmp/render.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace').replace('\r\n', '\n')
lines, cur, col, i = [], [], 0, 0
while i < len(b):
    c = b[i]
    if b.startswith('\x1b[K', i):
        del cur[col:]; i += 3; continue
    if c == '\r':
        col = 0
    elif c == '\n':
        lines.append(''.join(cur)); cur, col = [], 0
    else:
        if col < len(cur): cur[col] = c
        else: cur.append(c)
        col += 1
    i += 1
if cur: lines.append(''.join(cur))
print('\n'.join(lines))
PY
P='netbench [a-z]*: step [0-9]* of'; export P
pty() { python3 "$nb_tmp/ptyrun.py" "$@"; }
render() { python3 "$nb_tmp/render.py" "$1"; }
# draws LOG WHAT: how many times the progress line of WHAT was drawn
draws() { grep -ao "$(printf '\r')netbench $2: step" "$1" | wc -l; }

agent -- -p 5394 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
T="$NB tput -c 127.0.0.1:5394 -l 1k,2k -t 0.2 -O 0"
T1="$NB tput -c 127.0.0.1:5394 -l 1k -t 0.2 -O 0"

# tput, stdout to a file, stderr on the terminal
t0=$(date +%s.%N)
pty "$nb_tmp/t.out" "$nb_tmp/t.tty" $T
rc=$?
t1=$(date +%s.%N)
check "tput on a tty exits 0 (got $rc)" test "$rc" -eq 0
check "tput: a progress line on the terminal (step k of 4, time left)" \
	grep -aq "$(printf '\r')netbench tput: step 1 of 4, ~[0-9]* s left (1k Tx)" "$nb_tmp/t.tty"
check "tput: the line moves on to the last step with the last result" \
	grep -aq 'netbench tput: step 4 of 4.*(2k Rx); 2k Tx [0-9.]* Mbit/s' "$nb_tmp/t.tty"
n_draw=$(draws "$nb_tmp/t.tty" tput)
max_draw=$(awk "BEGIN { print int(10 * ($t1 - $t0)) + 4 }")
check "tput: redrawn at most ~10 times a second ($n_draw draws, at most $max_draw)" \
	test "$n_draw" -le "$max_draw"
check "tput: the terminal ends with the progress line taken off" \
	test "$(tail -c 4 "$nb_tmp/t.tty" | od -An -tx1 | tr -d ' \n')" = 0d1b5b4b
check "tput: stdout (a file) has the table and no carriage return" \
	sh -c "grep -q '^ *2k  *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*\$' '$nb_tmp/t.out' && ! grep -q \"\$(printf '\r')\" '$nb_tmp/t.out' && ! grep -q \"\$P\" '$nb_tmp/t.out'"

# tput, stdout and stderr on the same terminal: it renders as the plain table
pty - "$nb_tmp/t2.tty" $T1
render "$nb_tmp/t2.tty" >"$nb_tmp/t2.txt"
check "tput, table and progress on one terminal: a progress line was drawn" \
	grep -aq 'netbench tput: step 2 of 2' "$nb_tmp/t2.tty"
check "tput, one terminal: every row renders whole, no progress text is left" \
	sh -c "grep -q '^ *1k  *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*\$' '$nb_tmp/t2.txt' && grep -q '^ *1k  Rx |' '$nb_tmp/t2.txt' && ! grep -q \"\$P\" '$nb_tmp/t2.txt'"

# -J with stderr on a terminal: the progress line there, stdout one JSON document that parses
pty "$nb_tmp/tj.out" "$nb_tmp/tj.tty" $T -J
check "tput -J on a tty: the progress line on the terminal, up to the last step" \
	grep -aq 'netbench tput: step 4 of 4.*(2k Rx); 2k Tx [0-9.]* Mbit/s' "$nb_tmp/tj.tty"
tj_clean() { # stdout of tput -J: no progress line, no carriage return, the 4 steps
	! grep -q "$P" "$nb_tmp/tj.out" && ! grep -q "$(printf '\r')" "$nb_tmp/tj.out" &&
		json_check "$nb_tmp/tj.out" "assert len(d['steps']) == 4, d['steps']"
}
check "tput -J: stdout is one JSON document with every step, no progress text" tj_clean
# -J with stdout on the same terminal: the line is gone before the document, which renders whole
pty - "$nb_tmp/tj2.tty" $T1 -J
render "$nb_tmp/tj2.tty" >"$nb_tmp/tj2.txt"
check "tput -J, one terminal: a progress line was drawn" grep -aq 'netbench tput: step 2 of 2' "$nb_tmp/tj2.tty"
check "tput -J, one terminal: what remains is the JSON document alone" \
	json_check "$nb_tmp/tj2.txt" "assert len(d['steps']) == 2, d['steps']"

# rate: the search's trials on the line, the trial log and the table intact
pty "$nb_tmp/r.out" "$nb_tmp/r.tty" "$NB" rate --local-rx 127.0.0.1 --data-port 5395 -q -l 64,128 -t 0.15
rc=$?
check "rate on a tty exits 0 (got $rc)" test "$rc" -eq 0
check "rate: step k of 2 with the last trial's rate and loss" \
	grep -aq 'netbench rate: step [12] of 2, ~[0-9]* s left ([0-9]*-byte frames); trial [0-9]*: [0-9]* fps, loss [0-9.]* %' "$nb_tmp/r.tty"
render "$nb_tmp/r.tty" >"$nb_tmp/r.txt"
check "rate: the trial log renders whole, no progress text is left" \
	sh -c "grep -q '^  trial 1: 64 B' '$nb_tmp/r.txt' && ! grep -q \"\$P\" '$nb_tmp/r.txt'"
check "rate: stdout's table has both sizes and no carriage return" \
	sh -c "grep -q '^ *128 B  *[0-9]' '$nb_tmp/r.out' && ! grep -q \"\$(printf '\r')\" '$nb_tmp/r.out'"
# off a terminal: stderr in a file keeps the trial log and gets nothing of the line
"$NB" rate --local-rx 127.0.0.1 --data-port 5395 -q -l 64 -t 0.15 >"$nb_tmp/rf.out" 2>"$nb_tmp/rf.err"
check "rate off a terminal: the trial log on stderr, no progress text, no carriage return" \
	sh -c "grep -q '^  trial 1: 64 B' '$nb_tmp/rf.err' && ! grep -q \"\$P\" '$nb_tmp/rf.err' && ! grep -q \"\$(printf '\r')\" '$nb_tmp/rf.err' && grep -q '^ *64 B  *[0-9]' '$nb_tmp/rf.out'"

# stream: a sweep this host sends
pty "$nb_tmp/s.out" "$nb_tmp/s.tty" "$NB" stream --send -a 127.0.0.1 -p 5396 --rates 4M,8M -t 0.3 -O 0
check "stream --send on a tty: step k of 2 with the rate asked and the last sent" \
	sh -c "grep -aq 'netbench stream: step 1 of 2, ~[0-9]* s left (4 Mbit/s asked)' '$nb_tmp/s.tty' && grep -aq 'netbench stream: step 2 of 2.*(8 Mbit/s asked); step 1 sent [0-9.]* Mbit/s' '$nb_tmp/s.tty'"
check "stream: stdout has both rows, no carriage return, no progress" \
	sh -c "[ \$(grep -c '^ *[48].00  *[0-9]' '$nb_tmp/s.out') -eq 2 ] && ! grep -q \"\$(printf '\r')\" '$nb_tmp/s.out' && ! grep -q \"\$P\" '$nb_tmp/s.out'"

# crypto: a step per algorithm
pty "$nb_tmp/c.out" "$nb_tmp/c.tty" "$NB" crypto --algo hmac-sha256,aes-128-cbc -e soft -s 64,1024 -t 0.1
check "crypto on a tty: step k of 2 with the algorithm" \
	sh -c "grep -aq 'netbench crypto: step 1 of 2, ~[0-9]* s left (hmac-sha256)' '$nb_tmp/c.tty' && grep -aq 'netbench crypto: step 2 of 2.*(aes-128-cbc)' '$nb_tmp/c.tty'"
check "crypto: stdout has both algorithms' tables, no progress text" \
	sh -c "grep -q 'hmac-sha256' '$nb_tmp/c.out' && grep -q 'aes-128-cbc' '$nb_tmp/c.out' && ! grep -q \"\$P\" '$nb_tmp/c.out'"

pty "$nb_tmp/rj.out" "$nb_tmp/rj.tty" "$NB" rate --local-rx 127.0.0.1 --data-port 5395 -q -l 64,128 -t 0.15 -J
check "rate -J on a tty: step 2 of 2 with the last trial's rate and loss" \
	grep -aq 'netbench rate: step 2 of 2.*(128-byte frames); trial [0-9]*: [0-9]* fps, loss [0-9.]* %' "$nb_tmp/rj.tty"
check "rate -J: stdout is one JSON document, no trial log on the terminal" \
	sh -c "! grep -aq '  trial [0-9]*: ' '$nb_tmp/rj.tty' && python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))[\"sizes\"]) == 2' '$nb_tmp/rj.out'"
pty "$nb_tmp/cj.out" "$nb_tmp/cj.tty" "$NB" crypto --algo hmac-sha256,aes-128-cbc -e soft -s 64,1024 -t 0.1 -J
check "crypto -J on a tty: the line moves on to step 2 of 2" \
	grep -aq 'netbench crypto: step 2 of 2.*(aes-128-cbc)' "$nb_tmp/cj.tty"
check "crypto -J: stdout is one JSON document" json_check "$nb_tmp/cj.out" "assert d['test'] == 'crypto'"
pty "$nb_tmp/sj.out" "$nb_tmp/sj.tty" "$NB" stream --send -a 127.0.0.1 -p 5396 --rates 4M,8M -t 0.3 -O 0 -J
check "stream --send -J on a tty: the line moves on to step 2 of 2 with the last sent" \
	grep -aq 'netbench stream: step 2 of 2.*(8 Mbit/s asked); step 1 sent [0-9.]* Mbit/s' "$nb_tmp/sj.tty"
check "stream --send -J: stdout is one JSON document" json_check "$nb_tmp/sj.out" "assert d['test'] == 'stream'"

# mem: the latency points and the bandwidth rounds
# Up to 32 MiB: long enough (~0.4 s) for several redraws, which come at most every 150 ms.
pty "$nb_tmp/m.out" "$nb_tmp/m.tty" "$NB" mem -q --max 32M --threads 1 --bw-size 1M
check "mem on a tty: the latency points as steps, with the last point's figure" \
	sh -c "grep -aq 'netbench mem: step 1 of [0-9]* (latency, set 1 KiB)' '$nb_tmp/m.tty' && grep -aq 'netbench mem: step [0-9]* of [0-9]*\(, ~[0-9]* s left + bandwidth\)\{0,1\} (latency, set [0-9]* [KM]iB); last point [0-9.]* ns/load' '$nb_tmp/m.tty'"
check "mem on a tty: the time left once a latency point is measured, the bandwidth rounds named apart" \
	grep -aq 'netbench mem: step [0-9]* of [0-9]*, ~[0-9]* s left + bandwidth (latency, set ' "$nb_tmp/m.tty"
check "mem: stdout has the table, no progress text" \
	sh -c "grep -q 'memory latency' '$nb_tmp/m.out' && ! grep -q \"\$P\" '$nb_tmp/m.out'"
"$NB" mem -q --max 64k --threads 1 --bw-size 1M -J >"$nb_tmp/mj.out" 2>"$nb_tmp/mj.err"
check "mem -J off a terminal: nothing on stderr" test ! -s "$nb_tmp/mj.err"
check "mem -J: stdout is one JSON document" json_check "$nb_tmp/mj.out" "assert d['test'] == 'mem'"
echo "1..$n"
