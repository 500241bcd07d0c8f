#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Flows hold ports only while their controller is there (docs/security.md): a client that speaks
# the protocol (hostile_client.py quiet_ports) asks rate for 1,024 destination addresses x 64
# ports (the 65,536-flow cap), which hold no port until START; after START it falls silent, and the
# agent (serve --quiet-time 2) ends the test, frees every port within the limit, says why, logs
# it, and serves the next controller. A real controller waiting out a trial longer than the limit
# is kept by its ALIVE messages. Root (a namespace of its own), ~20 s.
. "$(dirname "$0")/../lib.sh"
need_root
need_tools ip python3
PY="python3 $(dirname "$0")/hostile_client.py"
NS=nbtqp_$nb_id
netns_add $NS || { notok "namespace $NS"; exit 1; }

agent $NS -- -p 5351 -B 127.0.0.1 --quiet-time 2 || { notok "agent starts"; exit 1; }
ok "agent with --quiet-time 2"
run_case ip netns exec $NS $PY quiet_ports 127.0.0.1 5351 - 2
check "the agent's log names the rule" grep -q "session closed: test stopped by rule quiet-time" \
	"$nb_tmp/agent.log" || sed 's/^/# /' "$nb_tmp/agent.log" | tail -5

# A controller of this build whose trial (4 s) outlasts the quiet limit twice: its ALIVE messages
# keep the test; the trial ends by its own STOP.
check_rc "rate with 4 s trials against --quiet-time 2 runs to its end" 0 ip netns exec $NS \
	"$NETBENCH" rate -c 127.0.0.1:5351 -m trial -s 64 -r 10000 -t 4 --learning-timeout 0 -J
check "... no test was cut for quiet" sh -c "[ \$(grep -c 'quiet-time' '$nb_tmp/agent.log') -eq 1 ]"
check_rc "serve --quiet-time 0 is refused" 2 "$NETBENCH" serve --quiet-time 0
check "... naming the range" has "quiet-time"
echo "1..$n"
