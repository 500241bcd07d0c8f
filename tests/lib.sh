# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for integration tests (sourced). TAP output, root and tool checks, agents that
# are always reaped, namespaces that are always removed.
NETBENCH=${NETBENCH:-build/netbench}
n=0
nb_pids=""
nb_netns=""
nb_labs=""
nb_tmp=$(mktemp -d /tmp/nbtest.XXXXXX) || exit 1
# This run's own part of every name it gives the host (namespaces, lab prefixes): the suffix of
# its temporary folder, [A-Za-z0-9]{6}, which no other run has for as long as this one lives.
nb_id=${nb_tmp##*.}

ok() { n=$((n + 1)); echo "ok $n - $1"; }
# notok description: the one name of a failed check.
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# skip_all reason: the whole script cannot run here (counted as one skip).
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
# jnum KEY FILE: the first number after "KEY": in a JSON file
jnum() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -1; }
# check description command...: ok or not ok; returns the command's success, so that
# `check ... || show-why` prints what explains a failure.
check() {
	d=$1; shift
	if "$@"; then ok "$d"; else
		notok "$d"
		return 1
	fi
}
# check_quiet description command...: as check, with the command's output in $nb_tmp/out (shown
# as comments when it fails), so that nothing it prints is read as a TAP line.
check_quiet() {
	d=$1; shift
	if "$@" >"$nb_tmp/out" 2>&1; then ok "$d"; else
		notok "$d"
		sed 's/^/# /' "$nb_tmp/out" | head -20
	fi
}
# check_rc description expected-status command...: runs command, output into $nb_tmp/out
check_rc() {
	d=$1; want=$2; shift 2
	"$@" >"$nb_tmp/out" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$d"; else
		notok "$d (exit $got, wanted $want)"
		# The start and the end: an error follows whatever JSON went before it.
		awk -v n="$(wc -l <"$nb_tmp/out")" 'NR <= 5 || NR > n - 15 { print "# " $0 }
			NR == 6 && n > 20 { print "# ..." }' "$nb_tmp/out"
	fi
}
has() { grep -q -- "$1" "$nb_tmp/out"; }
# run_case command...: runs a client (tests/integration/hostile_client.py and the like) and
# turns its PASS:/FAIL: lines into TAP, its other lines into comments.
run_case() {
	"$@" >"$nb_tmp/case.out" 2>&1
	while IFS= read -r line; do
		case "$line" in
		PASS:*) ok "${line#PASS:}" ;;
		FAIL:*) notok "${line#FAIL:}" ;;
		*) echo "# $line" ;;
		esac
	done <"$nb_tmp/case.out"
}
# check_refused description status pattern command...: the command refuses: it exits with status
# (2 for a usage error, 1 for a failure), prints nothing on standard output and names pattern (a
# grep pattern) on standard error. Its output is in $nb_tmp/out, its errors in $nb_tmp/err (shown
# as comments when the check fails).
check_refused() {
	d=$1 _want=$2 _pat=$3; shift 3
	"$@" >"$nb_tmp/out" 2>"$nb_tmp/err"
	_got=$?
	_why=""
	[ "$_got" -eq "$_want" ] || _why="exit $_got, wanted $_want"
	grep -q -- "$_pat" "$nb_tmp/err" || _why="${_why:+$_why; }no '$_pat' on stderr"
	[ -s "$nb_tmp/out" ] && _why="${_why:+$_why; }output on stdout"
	if [ -z "$_why" ]; then ok "$d"; else
		notok "$d ($_why)"
		cat "$nb_tmp/out" "$nb_tmp/err" | sed 's/^/# /' | head -20
		return 1
	fi
}

# wait_until seconds what command...: runs the command every 50 ms until it succeeds, for at most
# that many seconds (fractions allowed); when time runs out it prints "# gave up after S s waiting
# for WHAT" and returns 1. For a wait on something a test can ask about; not a sleep.
wait_until() {
	_left=$(awk -v t="$1" 'BEGIN { if (t + 0 <= 0) exit 1; print int(t * 20 + 0.999) }') || {
		echo "# wait_until: '$1' is not a number of seconds above 0" >&2
		return 2
	}
	_what=$2 _secs=$1; shift 2
	while ! "$@"; do
		if [ "$_left" -le 0 ]; then
			echo "# gave up after $_secs s waiting for $_what"
			return 1
		fi
		sleep 0.05
		_left=$((_left - 1))
	done
}

# At exit: stop the agents, remove the namespaces and labs and the temporary files. A signal
# arriving meanwhile (a test runner's timeout signals the whole process group) must not cut this
# short: ignored here, it is ignored by what this runs too (ip, lab down).
nb_cleanup() {
	trap '' INT TERM HUP
	for p in $nb_pids; do kill "$p" 2>/dev/null || true; done
	sleep 0.2
	for p in $nb_pids; do kill -9 "$p" 2>/dev/null; done
	for p in $nb_pids; do wait "$p" 2>/dev/null; done # this shell's own children: reaped
	for ns in $nb_netns; do ip netns del "$ns" 2>/dev/null; done
	for p in $nb_labs; do "$NETBENCH" lab down --prefix "$p" >/dev/null 2>&1; done
	rm -rf "$nb_tmp"
}
trap nb_cleanup EXIT
trap 'exit 1' INT TERM

# nb_bg OUT ERR COMMAND...: runs COMMAND (a program or a function) in the background, its stdout
# into OUT and its stderr into ERR ("-": into OUT as well); stopped at exit. Sets $nb_bg_pid.
nb_bg() {
	_out=$1 _err=$2; shift 2
	if [ "$_err" = - ]; then "$@" >"$_out" 2>&1 & else "$@" >"$_out" 2>"$_err" & fi
	nb_bg_pid=$!
	nb_pids="$nb_pids $nb_bg_pid"
}

# is_root: the one root check; need_root skips the whole script unless it runs as root.
is_root() { [ "$(id -u)" -eq 0 ]; }
need_root() { is_root || skip_all "needs root (network namespaces)"; }

# netns_add NAME: creates a namespace removed at exit, with loopback up. NAME carries $nb_id (this
# run's part), so that no other run has it; one that exists already is another's: it is left
# alone and netns_add fails.
netns_add() {
	if [ -e "/run/netns/$1" ]; then
		echo "# namespace $1 exists already (another run's): not touched" >&2
		return 1
	fi
	ip netns add "$1" || return 1
	nb_netns="$nb_netns $1"
	ip -n "$1" link set lo up
}

# veth_pair NS1 DEV1 NS2 DEV2 [ADDR1 ADDR2]...: a veth pair made right inside the namespaces (never
# in this host's own, where another run's names would collide), DEV1 in NS1 and DEV2 in NS2 (the
# same namespace twice is allowed), each following pair of addresses (prefix length included;
# "-" for none) added to DEV1 and DEV2, IPv6 ones without duplicate address detection; both ends
# up. It goes with its namespaces at exit.
veth_pair() {
	_n1=$1 _d1=$2 _n2=$3 _d2=$4; shift 4
	ip link add "$_d1" netns "$_n1" type veth peer name "$_d2" netns "$_n2" || {
		echo "# veth pair $_n1/$_d1 - $_n2/$_d2 could not be made" >&2
		return 1
	}
	while [ $# -ge 2 ]; do
		nb_addr_add "$_n1" "$_d1" "$1" && nb_addr_add "$_n2" "$_d2" "$2" || return 1
		shift 2
	done
	ip -n "$_n1" link set "$_d1" up && ip -n "$_n2" link set "$_d2" up
}
nb_addr_add() { # ns dev address-or-dash
	case $3 in
	-) ;;
	*:*) ip -n "$1" addr add "$3" dev "$2" nodad ;;
	*) ip -n "$1" addr add "$3" dev "$2" ;;
	esac
}

# lab_up PREFIX [lab up options]: brings up `netbench lab` as PREFIX-gen, PREFIX-dut and
# PREFIX-sink (docs/lab.md), taken down at exit, also when up fails or is interrupted. up's
# output is in $nb_tmp/lab.out (shown as comments when it fails).
lab_up() {
	_p=$1; shift
	nb_labs="$nb_labs $_p"
	"$NETBENCH" lab up --prefix "$_p" "$@" >"$nb_tmp/lab.out" 2>&1 && return 0
	sed 's/^/# /' "$nb_tmp/lab.out" | head -20
	return 1
}

# nb_gone PID: the process has exited (or is a zombie, where nothing reaps orphans, as in some
# containers whose PID 1 is not an init).
nb_gone() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" | cut -c1)" = Z ]; }

# agent_testing PID: the agent (netbench serve, native) runs a test: beside the two threads it
# always has (its session loop and its handshake gate) it has the test's, its timer first, from
# START to the test's end. For a wait on "the agent is busy": a connection alone is not a test.
agent_testing() { [ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -gt 2 ]; }

# agent [ns] -- serve arguments: starts an agent (daemonized, so it is listening when this
# returns) and records its pid for cleanup. Sets $agent_pid.
agent() {
	pidf="$nb_tmp/agent.$n.$$.pid"
	if [ "$1" != "--" ]; then ns=$1; shift; else ns=""; fi
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$NETBENCH" serve -D --pid-file "$pidf" --log "$nb_tmp/agent.log" "$@"
	else
		"$NETBENCH" serve -D --pid-file "$pidf" --log "$nb_tmp/agent.log" "$@"
	fi || return 1
	agent_pid=$(cat "$pidf")
	nb_pids="$nb_pids $agent_pid"
}

# json_check FILE PYTHON-EXPRESSIONS: runs assertions with d = the parsed document.
json_check() {
	f=$1; shift
	python3 -c "
import json, sys, math
d = json.load(open(sys.argv[1]))
$*
" "$f"
}

# check_schemas DIR|FILE...: every netbench JSON document found there validates against its
# test's schema in docs/schema/ (tests/validate_json.py); at least one document must be found.
check_schemas() {
	if python3 "$(dirname "$0")/../validate_json.py" "$@" >"$nb_tmp/schemas" 2>&1; then
		ok "every JSON document validates against docs/schema ($(tail -1 "$nb_tmp/schemas" | sed 's/^# //'))"
	else
		notok "every JSON document validates against docs/schema"
		sed "s/^\([^#]\)/# \1/" "$nb_tmp/schemas" | head -20
	fi
}

# cpu_busy_pct CPU: that CPU's busy share (percent, whole) over half a second, from /proc/stat.
# A lab's DUT CPU is the host's: a test that needs it idle asks first.
cpu_busy_pct() {
	_a=$(grep "^cpu$1 " /proc/stat); sleep 0.5; _b=$(grep "^cpu$1 " /proc/stat)
	echo "$_a" "$_b" | awk '{ for (i = 2; i <= 9; i++) t += $(i + 11) - $i
		idle = ($16 - $5) + ($17 - $6); print (t > 0 ? int(100 * (t - idle) / t) : 0) }'
}

# argv_shims DIR TOOL...: puts in DIR a stand-in for each TOOL that appends the command line any
# local user would see (its /proc/PID/cmdline) to DIR/argv.log and then runs the real tool with
# the same arguments and standard input. With DIR first in PATH, every helper netbench starts is
# logged, however short it lives (docs/security.md: keys never on a command line).
argv_shims() {
	_d=$1; shift
	mkdir -p "$_d" && : >"$_d/argv.log" || return 1
	for _t in "$@"; do
		# the file execvp would run (command -v would name a shell function of that name)
		_real=$(IFS=:; for _p in $PATH; do [ -x "$_p/$_t" ] && { echo "$_p/$_t"; break; }; done)
		[ -n "$_real" ] || continue
		printf '#!/bin/sh\n{ tr "\\000" " " </proc/$$/cmdline; echo; } >>"%s/argv.log"\nexec "%s" "$@"\n' \
			"$_d" "$_real" >"$_d/$_t"
		chmod 0755 "$_d/$_t"
	done
}

# need_tools TOOL...: skips the whole script, naming the first tool missing, unless every one is
# installed.
need_tools() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null || skip_all "$_t is not installed (tests/deps.sh)"
	done
}

# need_store: skips the whole script when this build has no results store (built without
# SQLite); a read of a store that does not exist says so in one line.
need_store() {
	if "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
		skip_all "this build has no SQLite (libsqlite3-dev)"
	fi
}

# lab_gen_rate PREFIX OUT ARGS...: rate from the lab's generator to its sink at 64-byte frames,
# the document in OUT (stderr in OUT.err), the generator on CPU 0 where taskset is installed,
# so that it never shares a DUT steered to CPU 1 (lab up --dut-cpus 1) with the DUT's work.
lab_gen_rate() {
	_p=$1 _out=$2; shift 2
	_pin=""
	command -v taskset >/dev/null && _pin="taskset -c 0"
	$_pin ip netns exec "$_p-gen" "$NETBENCH" rate --local-rx "$_p-sink/198.19.0.1" -s 64 -J \
		"$@" >"$_out" 2>"$_out.err"
}
