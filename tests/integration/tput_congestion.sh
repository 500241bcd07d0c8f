#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput -C/--congestion: both ends' data connections use the asked TCP congestion control, as the
# kernel itself shows them (ss -ti in a namespace of the test's own, read while the step runs),
# and the JSON and the text name each sender's algorithm; without -C, the namespace's default.
# The agent takes an algorithm outside tcp_allowed_congestion_control only with --allow-tuning;
# a name this kernel has not loaded is a usage error here (exit 2), never a module load.
. "${TOP:-.}/tests/lib.sh"
need_root
command -v ss >/dev/null || skip_all "needs ss (iproute2)"
N=nbtcc-a
netns_add $N || skip_all "cannot create a network namespace"
agent $N -- -p 5361 -B 127.0.0.1 || skip_all "agent did not start"
inns() { ip netns exec $N "$@"; }
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
default=$(inns cat /proc/sys/net/ipv4/tcp_congestion_control)

# ss_cc PORT: the congestion control of every TCP socket in the namespace that is not the
# control connection (port PORT), one per line
ss_cc() {
	inns ss -tinH state established | awk -v p=":$1" '
		/^[0-9]/ { ctl = index($0, p " ") > 0 || substr($0, length($0) - length(p) + 1) == p; next }
		!ctl { print $1 }'
}

# both_cc PORT: ss_cc shows both ends' data connections
both_cc() { [ "$(ss_cc "$1" | grep -c .)" -ge 2 ]; }

# run_cc PORT ALGO|- NAME: a 2 s Tx-only step at 8k blocks; ss looks once both ends' data
# connections are there
run_cc() {
	cc=""
	[ "$2" != - ] && cc="-C $2"
	# shellcheck disable=SC2086
	inns "$NETBENCH" tput -c 127.0.0.1 -p "$1" -l 8k -t 2 -O 0.2 --tx-only $cc -J \
		>"$nb_tmp/$3.json" 2>"$nb_tmp/$3.err" &
	p=$!
	wait_until 5 "both ends' data connections" both_cc "$1"
	ss_cc "$1" >"$nb_tmp/$3.ss"
	wait $p
	echo $? >"$nb_tmp/$3.rc"
}

# json_cc FILE: parameters.congestion and each step's direction=congestion
json_cc() {
	python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
print(d['parameters']['congestion'], ' '.join('%s=%s' % (s['direction'], s['congestion']) for s in d['steps']))" "$1"
}

run_cc 5361 reno reno
check "-C reno: exits 0" [ "$(cat "$nb_tmp/reno.rc")" = 0 ]
check "-C reno: both ends' data connections use reno, as the kernel shows them ($(tr '\n' ' ' <"$nb_tmp/reno.ss"))" \
	sh -c "[ \$(grep -c . '$nb_tmp/reno.ss') -ge 2 ] && ! grep -qv '^reno$' '$nb_tmp/reno.ss'"
check "-C reno: the JSON says reno was asked and used ($(json_cc "$nb_tmp/reno.json"))" \
	[ "$(json_cc "$nb_tmp/reno.json")" = "reno tx=reno" ]

run_cc 5361 - dflt
check "without -C: the namespace's default ($default), in the kernel and in the JSON ($(json_cc "$nb_tmp/dflt.json"))" \
	sh -c "[ \$(grep -c . '$nb_tmp/dflt.ss') -ge 2 ] && ! grep -qv '^$default\$' '$nb_tmp/dflt.ss' &&
		[ \"\$(cat '$nb_tmp/dflt.rc')\" = 0 ] && [ \"$(json_cc "$nb_tmp/dflt.json")\" = 'None tx=$default' ]"

inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -l 8k -t 0.3 -O 0.1 -C reno >"$nb_tmp/text.out" 2>&1
check "text: the TCP table names each sender's congestion control" sh -c "
	grep -q 'TCP segments of the sender over each window, and its congestion control' '$nb_tmp/text.out' &&
	grep -Eq '^ +8k +Tx .* reno\$' '$nb_tmp/text.out' && grep -Eq '^ +8k +Rx .* reno\$' '$nb_tmp/text.out'"

outside=""
for a in $avail; do
	case " $allowed " in *" $a "*) ;; *) outside=$a && break ;; esac
done
if [ -n "$outside" ]; then
	check_rc "-C $outside (loaded, outside tcp_allowed_congestion_control): the agent refuses (exit 1)" 1 \
		inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -l 8k -t 0.3 -O 0.1 -C "$outside"
	check "it names the rule and the allowed list" grep -q "refused by rule tuning: congestion control $outside is outside the agent's tcp_allowed_congestion_control ($allowed)" "$nb_tmp/out"
	agent $N -- -p 5362 -B 127.0.0.1 --allow-tuning || notok "an agent with --allow-tuning starts"
	run_cc 5362 "$outside" out
	check "-C $outside to an agent with --allow-tuning: both ends use it ($(tr '\n' ' ' <"$nb_tmp/out.ss"))" \
		sh -c "[ \"\$(cat '$nb_tmp/out.rc')\" = 0 ] && [ \$(grep -c . '$nb_tmp/out.ss') -ge 2 ] &&
			! grep -qv '^$outside\$' '$nb_tmp/out.ss'"
else
	skip "no loaded algorithm outside tcp_allowed_congestion_control ($allowed) on this kernel"
	skip "(its refusal's text)"
	skip "(an agent with --allow-tuning using it)"
fi

# The algorithm is set before each data connection exists (a socket switched after its
# connection began keeps some of what the default set up: likely BBR's pacing, and a veth at 1k blocks
# then moved a tenth): on the controller's socket before connect(), on the agent's listener
# before accept(), never on a connected one. strace shows the order of the system calls.
# order FILE: per connect()ed or accept()ed TCP socket, whether TCP_CONGESTION was set on it (or
# its listener) before the connection existed, and any set after
order() {
	python3 - "$1" <<'PY'
import re, sys
cc, listener_cc, before, after = {}, {}, [], 0
for line in open(sys.argv[1]):
    m = re.search(r"\b(socket|setsockopt|connect|listen|accept4?)\((\d+)?", line)
    if not m or "resumed" in line:
        continue
    call, fd = m.group(1), m.group(2)
    ret = re.search(r"= (-?\d+)", line)
    ret = int(ret.group(1)) if ret else -1
    if call == "socket" and "SOCK_STREAM" in line and ret >= 0:
        cc[ret] = False
    elif call == "setsockopt" and "TCP_CONGESTION" in line:
        fd = int(fd)
        if cc.get(fd) == "connected":
            after += 1
        else:
            cc[fd] = True
    elif call == "connect" and int(fd) in cc and cc[int(fd)] != "connected":
        before.append(cc[int(fd)]); cc[int(fd)] = "connected"
    elif call.startswith("accept") and ret >= 0:
        before.append(cc.get(int(fd)) is True); cc[ret] = "connected"
print("set before %d of %d connections, after on %d" % (sum(1 for b in before if b is True), len(before), after))
PY
}
if command -v strace >/dev/null; then
	inns strace -f -qq -e trace=socket,setsockopt,connect -o "$nb_tmp/ctl.strace" \
		"$NETBENCH" tput -c 127.0.0.1 -p 5361 -l 8k -t 0.3 -O 0.1 --tx-only -C reno >/dev/null 2>&1
	got=$(order "$nb_tmp/ctl.strace")
	# the control connection (default) and the one data connection (reno)
	check "controller: set before connect() on the data connection, never after ($got)" \
		[ "$got" = "set before 1 of 2 connections, after on 0" ]
	inns strace -f -qq -e trace=socket,setsockopt,listen,accept,accept4 -o "$nb_tmp/agent.strace" \
		"$NETBENCH" serve -p 5363 -B 127.0.0.1 --pid-file "$nb_tmp/strace-serve.pid" \
		--log "$nb_tmp/strace-serve.log" &
	st=$!
	nb_pids="$nb_pids $st"
	wait_until 5 "the traced agent's pid file" test -s "$nb_tmp/strace-serve.pid"
	inns "$NETBENCH" tput -c 127.0.0.1 -p 5363 -l 8k -t 0.3 -O 0.1 --tx-only -C reno >/dev/null 2>&1
	kill "$(cat "$nb_tmp/strace-serve.pid")" 2>/dev/null
	wait $st 2>/dev/null
	got=$(order "$nb_tmp/agent.strace")
	check "agent: set on the listener before accept(), never on the connection ($got)" \
		[ "$got" = "set before 1 of 2 connections, after on 0" ]
else
	skip "the order of the system calls: needs strace"
	skip "(the agent's)"
fi

unloaded=""
for a in vegas westwood htcp hybla illinois scalable lp veno yeah nv dctcp highspeed bic cdg; do
	case " $avail " in *" $a "*) ;; *) unloaded=$a && break ;; esac
done
check_rc "-C $unloaded (not loaded here): a usage error" 2 inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -C "$unloaded"
check "it names the loaded ones and loads no module" grep -q "'$unloaded' is not loaded in this kernel (loaded: $avail); netbench loads no module for it" "$nb_tmp/out"
check "the kernel's list is as it was" [ "$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)" = "$avail" ]
check_rc "-C with a name no algorithm has: a usage error" 2 inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -C 'Cubic!'
check "it states the accepted form" grep -q "is not an algorithm's name (1 to 15 of a-z, 0-9, _ and -)" "$nb_tmp/out"
check_rc "-u -C reno: a usage error" 2 inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -u -C reno
check "it says why" grep -q -- "--congestion is TCP's" "$nb_tmp/out"
# compare names each result's algorithm beside its figures: runs of two algorithms do not
# pass for the same measurement
if ! "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q 'this build has no SQLite'; then
	for a in reno -; do
		cc=""
		[ $a != - ] && cc="-C $a"
		# shellcheck disable=SC2086
		inns "$NETBENCH" tput -c 127.0.0.1 -p 5361 -l 8k -t 0.3 -O 0.1 --tx-only $cc \
			--save "$nb_tmp/cc.db" --label "cc-$a" >/dev/null 2>&1
	done
	"$NETBENCH" compare --db "$nb_tmp/cc.db" >"$nb_tmp/cmp.out" 2>&1
	check "compare notes each result's congestion control (reno, $default)" sh -c "
		grep -q 'cc-reno: TCP congestion control Tx reno, Rx not known' '$nb_tmp/cmp.out' &&
		grep -q 'cc--: TCP congestion control Tx $default, Rx not known' '$nb_tmp/cmp.out'"
else
	skip "compare's notes: this build has no SQLite"
fi
check_schemas "$nb_tmp"
echo "1..$n"
