#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench lab, as root: up/status/down leaves nothing behind, a killed or interrupted `up` is
# cleaned, each ruleset kind loads with the expected rule count read back, the rules sit in the
# forward path (a drop blocks ping), bad input exits 2, a non-root user exits 1.
# Uses its own prefix so that it runs beside a real lab and beside other tests.
. "$(dirname "$0")/../lib.sh"
P=nbtlab_$nb_id
tmp=$nb_tmp

cleanup() {
	"$NETBENCH" lab down --prefix "$P" >/dev/null 2>&1
	for r in gen dut sink; do ip netns del "$P-$r" 2>/dev/null; done
	nb_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_root
need_tools ip nft ping setpriv

ns_left() { ip netns list | grep -c "^$P-" ; }
has_ns() { ip netns list | grep -q "^$1"; }
status_is() { # expected exit code, command...
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want" >>"$tmp/err"; cat "$tmp/err" >&2; return 1; }
}
one_line_err() { # the error names what was wrong in one line (plus the --help hint)
	[ "$(grep -vc "^Try " "$tmp/err")" -eq 1 ] && grep -q -- "$1" "$tmp/err"
}
json_num() { # key file: the number after "key":
	sed -n "s/.*\"$1\": \([0-9][0-9]*\).*/\1/p" "$2" | head -1
}


# --- bad input: exit 2, one line naming the input, nothing created
refused() { # description, pattern in the message, args...: one line, nothing created
	d=$1 pat=$2; shift 2
	check_refused "bad input exits 2: $d" 2 "$pat" "$NETBENCH" lab "$@" || return
	one_line_err "$pat" && [ "$(ns_left)" -eq 0 ] ||
		{ notok "$d: the message is one line, nothing is created"; sed 's/^/# /' "$tmp/err"; }
}
refused "no verb" "which one" --prefix "$P"
refused "unknown verb" "'bogus' is not" bogus --prefix "$P"
refused "unknown kind" "--kind: 'hash'" ruleset --kind hash --rules 1 --prefix "$P"
refused "too many rules" "--rules is too large" ruleset --kind linear --rules 100001 --prefix "$P"
refused "kind without --rules" "needs --rules" ruleset --kind set --prefix "$P"
refused "mtu too small" "--mtu is too small" up --mtu 10 --prefix "$P"
refused "mtu too small for IPv6" "too small for IPv6" up -6 --mtu 1000 --prefix "$P"
refused "bad prefix" "--prefix" up --prefix 'a b'
refused "up option on status" "options of .lab up." status --mtu 1500 --prefix "$P"
refused "fit with one rule count" "two or more" fit 10:1000 10:2000

# --- not root: one clear message, exit 1 (a copy of the binary nobody may run)
cp "$NETBENCH" "$tmp/netbench" && chmod 755 "$tmp" "$tmp/netbench"
if setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/netbench" lab up --prefix "$P" \
	>"$tmp/out" 2>"$tmp/err"; then rc=0; else rc=$?; fi
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "needs root" "$tmp/err" &&
	[ "$(ns_left)" -eq 0 ]; then
	ok "non-root: exit 1 with one message"
else
	notok "non-root: exit 1 with one message (exit $rc)"; sed 's/^/# /' "$tmp/err"
fi

# --- up, status, traffic
root_veths_before=$(ip -o link show type veth | grep -cE ': (gen0|dut0|dut1|sink0)[@:]')
check_quiet "lab up" "$NETBENCH" lab up --prefix "$P"
if status_is 0 "$NETBENCH" lab status --prefix "$P" && grep -q ': healthy$' "$tmp/out"; then
	ok "status: healthy"
else
	notok "status: healthy"; sed 's/^/# /' "$tmp/out" "$tmp/err"
fi
"$NETBENCH" lab status --prefix "$P" -J >"$tmp/status.json" 2>&1
check_quiet "status -J: healthy, forwarding on, 3 namespaces" \
	sh -c "grep -q '\"healthy\": true' '$tmp/status.json' &&
		grep -q '\"forwarding_ipv4\": true' '$tmp/status.json' &&
		grep -q '\"dut\": \"$P-dut\"' '$tmp/status.json'"
agent_pid=$(sed -n 's/.*"pid": \([0-9-]*\).*/\1/p' "$tmp/status.json" | head -1)
check_quiet "agent pid alive and port answers" \
	sh -c "grep -q '\"alive\": true' '$tmp/status.json' &&
		grep -q '\"answers\": true' '$tmp/status.json' && kill -0 $agent_pid"
check_quiet "agent runs in the sink namespace" sh -c "ip netns pids $P-sink | grep -qx $agent_pid"
obs_pid=$(cat "/run/netbench-lab/$P/observer.pid" 2>/dev/null)
check_quiet "observer runs in the DUT namespace and answers" \
	sh -c "[ -n '$obs_pid' ] && ip netns pids $P-dut | grep -qx '$obs_pid' &&
		grep -A6 '\"observer\"' '$tmp/status.json' | grep -q '\"answers\": true'"
check_quiet "tput from the gen through the DUT to the agent" \
	ip netns exec "$P-gen" "$NETBENCH" tput -c 198.19.0.1 -l 8k -t 0.5 -O 0.1 --tx-only
check_quiet "ping gen -> sink through the DUT" ip netns exec "$P-gen" ping -c 1 -W 2 -q 198.19.0.1
check_quiet "DUT forwards (the gen has no route around it)" \
	sh -c "ip -n $P-gen route get 198.19.0.1 | grep -q 'via 198.18.0.254'"

# --- rulesets: each kind loads; rule counts read back by us and by an independent nft listing
ruleset_count() { # kind n expected_rules expected_elems
	if status_is 0 "$NETBENCH" lab ruleset --prefix "$P" --kind "$1" --rules "$2" -J &&
		[ "$(json_num rules "$tmp/out")" = "$3" ] &&
		[ "$(json_num set_elements "$tmp/out")" = "$4" ] &&
		[ "$(ip netns exec "$P-dut" nft -a list chain inet netbench forward |
			grep -v "chain " | grep -c "# handle [0-9]*$")" -eq "$3" ]; then
		ok "ruleset $1 $2: $3 rules, $4 set elements read back"
	else
		notok "ruleset $1 $2: $3 rules, $4 set elements read back"
		sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -5
	fi
}
ruleset_count linear 3 4 0
ruleset_count linear 1000 1001 0
ruleset_count set 1000 2 1000
ruleset_count conntrack 3 5 0
ruleset_count set 0 1 0
check_quiet "ping passes 1000 non-matching rules" sh -c "
	'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 1000 >/dev/null &&
	ip netns exec $P-gen ping -c 1 -W 2 -q 198.19.0.1"

cat >"$tmp/drop.nft" <<'NFT'
table inet userfw {
	chain forward {
		type filter hook forward priority filter; policy accept;
		ip daddr 198.19.0.1 icmp type echo-request counter drop
		ip daddr 198.19.0.2 drop
	}
}
NFT
if status_is 0 "$NETBENCH" lab ruleset --prefix "$P" --kind "file:$tmp/drop.nft" -J &&
	[ "$(json_num rules "$tmp/out")" = 2 ]; then
	ok "ruleset file: loaded, 2 rules read back"
else
	notok "ruleset file: loaded, 2 rules read back"; sed 's/^/# /' "$tmp/out" "$tmp/err" | tail -5
fi
if ! ip netns exec "$P-dut" nft list table inet userfw >/dev/null 2>&1 ||
	ip netns exec "$P-gen" ping -c 1 -W 1 -q 198.19.0.1 >/dev/null 2>&1; then
	notok "a drop rule in the file blocks gen -> sink (rules are in the forward path)"
else
	ok "a drop rule in the file blocks gen -> sink (rules are in the forward path)"
fi
check_quiet "the drop rule counted the blocked packet" \
	sh -c "ip netns exec $P-dut nft list chain inet userfw forward | grep -q 'packets [1-9]'"
check_quiet "generated ruleset replaces the file's: ping passes again" sh -c "
	'$NETBENCH' lab ruleset --prefix $P --kind linear --rules 0 >/dev/null &&
	ip netns exec $P-gen ping -c 1 -W 2 -q 198.19.0.1"
printf 'table inet bad {\n\tchain f {\n\t\ttype filter hook forward priority 0;\n\t\tip daddr 198.19.0.1 bogus drop\n\t}\n}\n' \
	>"$tmp/bad.nft"
if status_is 1 "$NETBENCH" lab ruleset --prefix "$P" --kind "file:$tmp/bad.nft" &&
	grep -q "bad.nft:4:" "$tmp/err" && grep -q "Error:" "$tmp/err"; then
	ok "bad rule file: exit 1 with nft's message and line"
else
	notok "bad rule file: exit 1 with nft's message and line"; sed 's/^/# /' "$tmp/err"
fi
check_quiet "bad rule file left the previous ruleset in place (one transaction)" sh -c "
	ip netns exec $P-dut nft list ruleset | grep -q 'table inet netbench' &&
	! ls /tmp/netbench-lab-* 2>/dev/null"

# --- a lab that is alive is someone's: a second up refuses it and leaves it whole
if status_is 1 "$NETBENCH" lab up --prefix "$P" && grep -q "a lab is alive as $P-gen" "$tmp/err" &&
	grep -q "agent answers" "$tmp/err" && grep -q -- "--prefix" "$tmp/err" &&
	grep -q "lab down --prefix $P" "$tmp/err" && grep -q -- "--force" "$tmp/err"; then
	ok "up over a live lab: exit 1, names it, its agent, and the ways out"
else
	notok "up over a live lab: exit 1, names it, its agent, and the ways out"; sed 's/^/# /' "$tmp/err"
fi
check_quiet "the live lab's agent and observer still run, and it is healthy" sh -c \
	"kill -0 $agent_pid && kill -0 $obs_pid && '$NETBENCH' lab status --prefix $P"
# Its agent stopped, a process of someone else's in a namespace still makes it alive.
ip netns exec "$P-gen" sleep 60 &
sleeper=$!
nb_pids="$nb_pids $sleeper"
kill "$agent_pid" "$obs_pid"
# agent and observer gone, and the sleeper running in the namespace (its ip has become sleep)
only_sleeper() {
	nb_gone "$agent_pid" && nb_gone "$obs_pid" && grep -qx sleep "/proc/$sleeper/comm"
}
wait_until 5 "the agent and the observer to exit, the sleeper in $P-gen" only_sleeper
if status_is 1 "$NETBENCH" lab up --prefix "$P" && grep -q "namespace $P-gen holds process" "$tmp/err"; then
	ok "a process in one of its namespaces keeps a lab alive: refused"
else
	notok "a process in one of its namespaces keeps a lab alive: refused"; sed 's/^/# /' "$tmp/err"
fi
check_quiet "and that process was left running" kill -0 "$sleeper"
if status_is 0 "$NETBENCH" lab up --prefix "$P" --force && ! kill -0 "$sleeper" 2>/dev/null &&
	"$NETBENCH" lab status --prefix "$P" >/dev/null; then
	ok "up --force replaces it: exit 0, healthy"
else
	notok "up --force replaces it: exit 0, healthy"; sed 's/^/# /' "$tmp/err"
fi
wait "$sleeper" 2>/dev/null
agent_pid=$(cat "/run/netbench-lab/$P/agent.pid" 2>/dev/null)
obs_pid=$(cat "/run/netbench-lab/$P/observer.pid" 2>/dev/null)

# --- down: nothing left
check_quiet "lab down" "$NETBENCH" lab down --prefix "$P"
check_quiet "no namespace left" test "$(ns_left)" -eq 0
check_quiet "no veth left in the host namespace" test \
	"$(ip -o link show type veth | grep -cE ': (gen0|dut0|dut1|sink0)[@:]')" -le "$root_veths_before"
check "no agent process left" nb_gone "$agent_pid"
check "no observer process left" nb_gone "$obs_pid"
check_quiet "no state left" test ! -e "/run/netbench-lab/$P"
check_quiet "down again: idempotent, nothing to remove" sh -c \
	"'$NETBENCH' lab down --prefix $P | grep -q 'nothing to remove'"
if status_is 1 "$NETBENCH" lab status --prefix "$P" && grep -q 'down' "$tmp/out"; then
	ok "status of a removed lab: down, exit 1"
else
	notok "status of a removed lab: down, exit 1"
fi

# --- a SIGKILLed up is cleaned by the next down
NB_LAB_STEP_DELAY_MS=50 "$NETBENCH" lab up --prefix "$P" >/dev/null 2>&1 &
upid=$!
wait_until 5 "up to make $P-sink" has_ns "$P-sink"
kill -9 $upid 2>/dev/null
wait $upid 2>/dev/null
check_quiet "killed up left its namespaces (killed mid-way)" test "$(ns_left)" -eq 3
if "$NETBENCH" lab down --prefix "$P" >"$tmp/out" 2>"$tmp/err" &&
	grep -q "interrupted" "$tmp/err" && [ "$(ns_left)" -eq 0 ] && [ ! -e "/run/netbench-lab/$P" ]; then
	ok "the next down cleans a killed up and says what it found"
else
	notok "the next down cleans a killed up and says what it found"; sed 's/^/# /' "$tmp/err"
fi

# --- killed after its agent started: the next up finds and stops the agent
NB_LAB_STEP_DELAY_MS=150 "$NETBENCH" lab up --prefix "$P" >/dev/null 2>&1 &
upid=$!
wait_until 10 "up to start its agent" test -s "/run/netbench-lab/$P/agent.pid"
kill -9 $upid 2>/dev/null
wait $upid 2>/dev/null
apid=$(cat "/run/netbench-lab/$P/agent.pid" 2>/dev/null)
check_quiet "killed up left a running agent" sh -c "[ -n '$apid' ] && kill -0 '$apid'"
if "$NETBENCH" lab up --prefix "$P" >"$tmp/out" 2>"$tmp/err" && grep -q "interrupted" "$tmp/err" &&
	! kill -0 "$apid" 2>/dev/null && "$NETBENCH" lab status --prefix "$P" >/dev/null; then
	ok "the next up stops the old agent, says what it found, and is healthy"
else
	notok "the next up stops the old agent, says what it found, and is healthy"
	sed 's/^/# /' "$tmp/err"
fi
check_quiet "down after the recovered up" "$NETBENCH" lab down --prefix "$P"
check_quiet "nothing left after the recovered up" sh -c "[ \"\$(ip netns list | grep -c '^$P-')\" -eq 0 ] &&
	! kill -0 '$apid' 2>/dev/null"

# --- Ctrl-C during up: up removes what it made
NB_LAB_STEP_DELAY_MS=50 "$NETBENCH" lab up --prefix "$P" >/dev/null 2>"$tmp/err" &
upid=$!
wait_until 5 "up to make $P-sink" has_ns "$P-sink"
kill -INT $upid
if wait $upid; then rc=0; else rc=$?; fi
if [ "$rc" -eq 1 ] && grep -q interrupted "$tmp/err" && [ "$(ns_left)" -eq 0 ] &&
	[ ! -e "/run/netbench-lab/$P" ]; then
	ok "SIGINT during up: exit 1, nothing left"
else
	notok "SIGINT during up: exit 1, nothing left (exit $rc)"; sed 's/^/# /' "$tmp/err"
fi

# --- IPv6, MTU, DUT CPUs
check_quiet "up -6 --mtu 1280 --dut-cpus 1" "$NETBENCH" lab up --prefix "$P" -6 --mtu 1280 --dut-cpus 1
check_quiet "ping -6 gen -> sink through the DUT" ip netns exec "$P-gen" ping -6 -c 1 -W 2 -q 2001:2:0:2::1
check_quiet "MTU 1280 on the veths" sh -c "ip -n $P-dut link show dut1 | grep -q 'mtu 1280'"
check_quiet "RPS mask set on the DUT's links" sh -c \
	"ip netns exec $P-dut cat /sys/class/net/dut0/queues/rx-0/rps_cpus | grep -q '[1-9a-f]'"
check_quiet "ruleset -6 set 10 loads" sh -c \
	"'$NETBENCH' lab ruleset --prefix $P -6 --kind set --rules 10 | grep -q '10 set elements'"
check_quiet "status healthy with IPv6" sh -c "'$NETBENCH' lab status --prefix $P | grep -q 'IPv6 on'"
check_quiet "down after IPv6" "$NETBENCH" lab down --prefix "$P"
check_quiet "nothing left after IPv6 lab" test "$(ns_left)" -eq 0

check_schemas "$tmp"
echo "1..$n"
