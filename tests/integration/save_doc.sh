#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# One document path: -J, -o FILE and --save given at once print, write and store the same bytes,
# for tput, rate, stream (controller, --send and --recv) and a Ctrl-C'd tput and rate (whole
# steps only, "interrupted": true, exit 130). The stored copy is read back with
# `results show -J ID`, which prints the document exactly as stored. Loopback only, ~30 s.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH
"$NB" results list --db "$nb_tmp/probe.db" >"$nb_tmp/out" 2>&1
if grep -q "no SQLite" "$nb_tmp/out"; then
	skip_all "this build has no SQLite (libsqlite3-dev): --save cannot run"
fi
P=5341
DB=$nb_tmp/r.db
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
id=0

# same NAME: stdout ($nb_tmp/NAME.out), -o ($nb_tmp/NAME.o) and the next stored result are the
# same bytes, and a JSON document.
same() {
	id=$((id + 1))
	"$NB" results show -J --db "$DB" "$id" >"$nb_tmp/$1.db" 2>"$nb_tmp/$1.dberr"
	check "$1: -J's stdout is a JSON document" json_check "$nb_tmp/$1.out" 'assert d["schema"] == "netbench/1"'
	check "$1: -o FILE holds the bytes -J printed" cmp "$nb_tmp/$1.out" "$nb_tmp/$1.o"
	check "$1: result $id in the store holds the same bytes" cmp "$nb_tmp/$1.out" "$nb_tmp/$1.db"
}
# all3 NAME command...: runs command with -J --save DB -o FILE; sets $rc.
all3() {
	name=$1; shift
	"$@" -J --save "$DB" -o "$nb_tmp/$name.o" >"$nb_tmp/$name.out" 2>"$nb_tmp/$name.err"
	rc=$?
}

all3 tput "$NB" tput -c 127.0.0.1:$P -t 0.3 -O 0.1 -l 1k,4k
check "tput -J --save -o: exit 0 (got $rc)" test "$rc" -eq 0
same tput

all3 rate "$NB" rate -c 127.0.0.1:$P --data-port 5342 -q -s 64,512
check "rate -J --save -o: exit 0 (got $rc)" test "$rc" -eq 0
same rate

all3 stream "$NB" stream -c 127.0.0.1 --ctl-port $P -a 127.0.0.1 -p 5343 -t 0.4 --rates 4M,8M
check "stream -J --save -o: exit 0 (got $rc)" test "$rc" -eq 0
same stream

# stream --recv and --send: one standalone receiver and one sender on loopback. The receiver is
# started first and saves into its own store (two writers at once would each wait for the other).
"$NB" stream --recv -a 127.0.0.1 -p 5344 --idle 5 -t 20 -J --save "$nb_tmp/recv.db" \
	-o "$nb_tmp/recv.o" >"$nb_tmp/recv.out" 2>"$nb_tmp/recv.err" &
rpid=$!
nb_pids="$nb_pids $rpid"
wait_until 5 "the receiver on port 5344" sh -c "ss -Hlun 'sport = :5344' | grep -q ."
all3 send "$NB" stream --send -a 127.0.0.1 -p 5344 --rates 2M,4M -t 0.5 -O 0.1
check "stream --send -J --save -o: exit 0 (got $rc)" test "$rc" -eq 0
same send
wait "$rpid"
rc=$?
check "stream --recv -J --save -o: ends on the sender's end marker, exit 0 (got $rc)" \
	json_check "$nb_tmp/recv.out" "assert $rc == 0 and d['end'] == 'end marker', d['end']"
"$NB" results show -J --db "$nb_tmp/recv.db" 1 >"$nb_tmp/recv.db1" 2>&1
check "stream --recv: -o FILE holds the bytes -J printed" cmp "$nb_tmp/recv.out" "$nb_tmp/recv.o"
check "stream --recv: the stored result holds the same bytes" cmp "$nb_tmp/recv.out" "$nb_tmp/recv.db1"

# Ctrl-C: the sizes measured whole are kept, in all three copies.
# tput: a 0.25 s baseline, then 4 sizes x (Tx + Rx) of 0.6 s; SIGINT once the agent has logged
# the second size's Tx half lands after the first size (its Rx half is whole whether or not the
# controller has taken the Tx half's last snapshot yet) and before the last.
logged=$(grep -c "tput test tcp tx, 2048-byte blocks" "$nb_tmp/agent.log")
tx2k_logged() {
	[ "$(grep -c "tput test tcp tx, 2048-byte blocks" "$nb_tmp/agent.log")" -gt "$logged" ]
}
"$NB" tput -c 127.0.0.1:$P -l 1k,2k,4k,8k -t 0.5 -O 0.1 -J --save "$DB" -o "$nb_tmp/ti.o" \
	>"$nb_tmp/ti.out" 2>"$nb_tmp/ti.err" &
pid=$!
wait_until 10 "the agent to log the second size's Tx half" tx2k_logged
kill -INT "$pid"
wait "$pid"
rc=$?
check "tput -J --save -o: SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "tput: interrupted true, whole sizes and a finished Tx half" json_check "$nb_tmp/ti.out" "
assert d['interrupted'] is True
st = d['steps']; n = len(st); assert 2 <= n < 8, n
dirs = [s['direction'] for s in st]
assert dirs == ['tx', 'rx'] * (n // 2) + ['tx'] * (n % 2), dirs
assert all(s['valid'] for s in st)"
same ti
check "tput: it says where it saved the interrupted run" grep -q "saved as result $id in $DB" "$nb_tmp/ti.err"

# rate as a table run (no -J): the document is still built and stored whole.
"$NB" rate -c 127.0.0.1:$P --data-port 5342 -q -s 64,128,256,512,1024,1518 --save "$DB" \
	-o "$nb_tmp/ri.o" >"$nb_tmp/ri.txt" 2>"$nb_tmp/ri.err" &
pid=$!
# SIGINT once the second size has started: the first is then whole, on a loaded host too.
wait_until 60 "the second size's trial" grep -q "128-byte frames to" "$nb_tmp/ri.err"
kill -INT "$pid"
wait "$pid"
rc=$?
check "rate --save -o (table): SIGINT mid-sweep exits 130 (got $rc)" test "$rc" -eq 130
check "rate: the measured size's row is printed" grep -q "^ *64 " "$nb_tmp/ri.txt"
check "rate: -o holds a document, interrupted true, the sizes finished" json_check "$nb_tmp/ri.o" "
assert d['interrupted'] is True
n = len(d['sizes']); assert 1 <= n < 6, n"
cp "$nb_tmp/ri.o" "$nb_tmp/ri.out"
same ri
echo "1..$n"
