#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Options mean one thing in every subcommand: --client with --connect as its alias, -c
# HOST:PORT and [IPv6]:PORT alike, -t the trial/window time, -l the size list, -q quick,
# `netbench help SUBCMD`, and usage errors that name the option and exit 2. Loopback only.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH

# help SUBCMD prints that subcommand's help
for s in tput rate stream crypto mem lab serve; do
	"$NB" help $s >"$nb_tmp/h1" 2>&1; rc1=$?
	"$NB" $s --help >"$nb_tmp/h2" 2>&1
	check "help $s prints '$s --help' (exit $rc1)" sh -c "[ $rc1 -eq 0 ] && cmp -s '$nb_tmp/h1' '$nb_tmp/h2' && grep -q 'netbench $s' '$nb_tmp/h1'"
done
check_rc "help of an unknown subcommand exits 2" 2 "$NB" help nosuch
check "... naming it" has "unknown subcommand 'nosuch'"

# every help fits a terminal of 80 columns: each subcommand's --help, each lab verb's and
# results action's, and the top-level help; a wider line is named with its help, width and text
too_wide() {
	awk -v s="$1" 'length($0) > 80 { print s ": " length($0) ": " $0 }'
}
: >"$nb_tmp/wide"
for s in serve tput rate stream crypto mem lab results compare report; do
	"$NB" $s --help 2>&1 | too_wide "$s" >>"$nb_tmp/wide"
done
for v in up down status ruleset fit nft-load nft-list; do
	"$NB" lab $v --help 2>&1 | too_wide "lab $v" >>"$nb_tmp/wide"
done
for v in import list show export merge rm; do
	"$NB" results $v --help 2>&1 | too_wide "results $v" >>"$nb_tmp/wide"
done
"$NB" --help 2>&1 | too_wide "netbench --help" >>"$nb_tmp/wide"
"$NB" help 2>&1 | too_wide "netbench help" >>"$nb_tmp/wide"
check "every help line is at most 80 columns" test ! -s "$nb_tmp/wide" ||
	sed 's/^/# /' "$nb_tmp/wide"
printf '%80s\n%81s\n' fits wide | too_wide known-bad >"$nb_tmp/wide"
check "... the check names a line of 81 columns, and only it" \
	grep -qx 'known-bad: 81: *wide' "$nb_tmp/wide"
check "... (one line)" test "$(wc -l <"$nb_tmp/wide")" -eq 1

# unknown options and missing values are named, exit 2, in every subcommand
check_rc "stream names an unknown short option" 2 "$NB" stream --send -a 127.0.0.1 -P 2
check "... '-P'" has "unknown option '-P'"
check_rc "stream names an option missing its value" 2 "$NB" stream --send -a 127.0.0.1 --ttl
check "... '--ttl'" has "option '--ttl' needs a value"
check_refused "a short option missing its value in a group of letters is named alone" 2 \
	"option '-t' needs a value" "$NB" crypto -Jt
check_rc "lab names an unknown long option" 2 "$NB" lab --bogus status
check "... '--bogus'" has "unknown option '--bogus'"
check_rc "lab names an option missing its value" 2 "$NB" lab status --rules
check "... '--rules'" has "'--rules' needs a value"
check_rc "mem names an unknown option" 2 "$NB" mem --bogus
check "... '--bogus'" has "unknown option '--bogus'"
for s in tput rate stream crypto mem; do
	check_rc "$s -c with a bad port exits 2" 2 "$NB" $s -c 127.0.0.1:99999
	check "... naming --client and the range" has "client port is too large: 99999 (at most 65535)"
	check_rc "$s -c with an unclosed bracket exits 2" 2 "$NB" $s -c '[::1:5301'
	check "... naming --client" has "'\[::1:5301' is not HOST, HOST:PORT or \[IPv6\]:PORT"
done

# -q and -l in mem (parsed: the min,max order check answers before any work)
check_rc "mem -q -l 2M,1M is parsed (min > max refused)" 2 "$NB" mem -q -l 2M,1M
check "... naming -l as typed and the order" has "-l/--sizes 2M,1M: MIN is larger than MAX"
check_rc "mem -l takes exactly MIN,MAX" 2 "$NB" mem -l 1M
# rate: -t is the trial time, -m the procedure (--test), -l the sizes
check_rc "rate -t is the trial time" 2 "$NB" rate --dst 127.0.0.1 -t 10x
check "... named as a duration" has "'10x' is not a duration"
check_rc "rate -m names the procedure" 2 "$NB" rate --dst 127.0.0.1 -m nosuch
check "... unknown test" has "unknown test 'nosuch'"
check_rc "rate -t 0.5 -m trial -l 64 -q sends to loopback" 0 \
	"$NB" rate --dst 127.0.0.1 --data-port 5399 -t 0.5 -m trial -l 64 -q -J
check "... the trial lasted 0.5 s" grep -q '"trial_ns": 500000000' "$nb_tmp/out"
check_rc "crypto -l is the size list" 2 "$NB" crypto -l 0
check "... named" has "too small"

# --connect is --client's alias; HOST:PORT and [IPv6]:PORT reach the agent on that port
agent -- -p 5397 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
check_rc "tput --connect HOST:PORT runs" 0 "$NB" tput --connect 127.0.0.1:5397 --tx-only -l 1k -t 0.2 -O 0 -J
check "... one step measured" grep -q '"tx"' "$nb_tmp/out"
check_rc "rate --client HOST:PORT reaches the agent" 0 \
	"$NB" rate --client 127.0.0.1:5397 --data-port 5398 -m trial -t 0.5 -l 64 -J
check_rc "stream -c HOST:PORT reaches the agent on that port (no --ctl-port)" 0 \
	"$NB" stream -c 127.0.0.1:5397 -p 5398 -r 1M -t 0.3 -O 0 -J
check "... the agent received the stream" json_check "$nb_tmp/out" \
	"assert d['receivers'][0]['steps'][0]['datagrams'] > 0, d['receivers'][0]"
check_rc "stream -c HOST:PORT,HOST: a bad second entry is named" 2 \
	"$NB" stream -c 127.0.0.1:5397,127.0.0.1:0 -a 239.1.2.3
check "... naming --client and the range" has "client port is too small"
# any argv byte gives valid JSON: a key file whose name is Latin-1 and has a space and a quote
head -c 32 /dev/urandom >"$nb_tmp/key"
odd=$(printf '%s/caf\351 "k"' "$nb_tmp")
cp "$nb_tmp/key" "$odd"
agent -- -p 5395 -B 127.0.0.1 --psk "$nb_tmp/key" || notok "agent with --psk starts"
"$NB" tput -c 127.0.0.1:5395 --psk "$odd" --tx-only -l 1k -t 0.2 -O 0 -J >"$nb_tmp/odd.json" 2>"$nb_tmp/odd.err"
check "tput with a non-UTF-8 argv byte runs" test -s "$nb_tmp/odd.json"
check "... its JSON parses; command_line has the byte as U+00E9, the argument quoted" \
	json_check "$nb_tmp/odd.json" "assert '/caf\\u00e9 \"k\"\\' --tx-only' in d['command_line'], d['command_line']"
check "... the raw byte is escaped in the file" grep -q 'caf\\u00e9' "$nb_tmp/odd.json"
if "$NB" serve -p 5396 -B ::1 -D --pid-file "$nb_tmp/a6.pid" --log "$nb_tmp/a6.log" 2>/dev/null; then
	nb_pids="$nb_pids $(cat "$nb_tmp/a6.pid")"
	check_rc "tput -c [::1]:PORT reaches an IPv6 agent" 0 "$NB" tput -c '[::1]:5396' --tx-only -l 1k -t 0.2 -O 0 -J
	check_rc "mem -c [::1]:PORT reaches an IPv6 agent (parse, then a refused size)" 2 \
		"$NB" mem -c '[::1]:5396' -l 2M,1M
	check_rc "stream -c [::1]:PORT reaches an IPv6 agent" 0 \
		"$NB" stream -c '[::1]:5396' -p 5398 -r 1M -t 0.3 -O 0 -J
else
	skip "no IPv6 loopback"
	skip "no IPv6 loopback"
	skip "no IPv6 loopback"
fi
# stream --recv --iface lo describes lo, not the interface that holds the address (veth)
O=nbtopt_$nb_id
if is_root && netns_add $O && veth_pair $O nbopt0 $O nbopt1 198.51.100.1/24 -; then
	ip netns exec $O "$NB" stream --recv -a 198.51.100.1 -p 5394 --iface lo -t 0.3 -J \
		>"$nb_tmp/lo.json" 2>"$nb_tmp/lo.err"
	check "stream --recv --iface lo -J: the platform block describes lo (no veth driver)" \
		json_check "$nb_tmp/lo.json" "l = d['env']['local']; assert l['iface'] == 'lo' and l['driver'] is None and l['mtu'] == 65536, l"
else
	skip "needs root for a veth pair"
fi
echo "1..$n"
