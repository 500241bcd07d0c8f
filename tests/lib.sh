# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for integration tests (sourced). TAP output, root and tool checks, agents that
# are always reaped, namespaces that are always removed.
NETBENCH=${NETBENCH:-build/netbench}
n=0
nb_pids=""
nb_netns=""
nb_labs=""
nb_tmp=$(mktemp -d /tmp/nbtest.XXXXXX) || exit 1

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
nok() { notok "$1"; }
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
		sed 's/^/# /' "$nb_tmp/out" | head -20
	fi
}
has() { grep -q -- "$1" "$nb_tmp/out"; }

# At exit: stop the agents, remove the namespaces and labs and the temporary files. A signal
# arriving meanwhile (a test runner's timeout signals the whole process group) must not cut this
# short: ignored here, it is ignored by what this runs too (ip, lab down).
nb_cleanup() {
	trap '' INT TERM HUP
	for p in $nb_pids; do kill "$p" 2>/dev/null || true; done
	sleep 0.2
	for p in $nb_pids; do kill -9 "$p" 2>/dev/null; done
	for ns in $nb_netns; do ip netns del "$ns" 2>/dev/null; done
	for p in $nb_labs; do "$NETBENCH" lab down --prefix "$p" >/dev/null 2>&1; done
	rm -rf "$nb_tmp"
}
trap nb_cleanup EXIT
trap 'exit 1' INT TERM

need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "needs root (network namespaces)"
		exit 0
	fi
}

# netns_add NAME: creates a namespace removed at exit, with loopback up.
netns_add() {
	ip netns del "$1" 2>/dev/null
	ip netns add "$1" || return 1
	nb_netns="$nb_netns $1"
	ip -n "$1" link set lo up
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
