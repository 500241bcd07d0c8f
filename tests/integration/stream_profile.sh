#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# stream --profile: where the receiver's CPU went in each step, on the real kernel over loopback.
# A standalone receiver and an agent each profile every step's window; the JSON carries each
# step's "profile" (schema-checked) and the terminal a "where it went" line per step. Known
# answer: a 10 Mbit/s step of 8 KB datagrams (about 150 a second) barely touches the receive
# path, a 2 Gbit/s one (about 30,000 a second) spends measurably in it, so the receive path's
# (ip, socket, copy, netcore) samples rise with the rate. An agent started with --no-profile
# refuses, and a client asking an agent for more than its cap is refused (hostile_client.py).
. "$(dirname "$0")/../lib.sh"
need_root
PY="python3 $(dirname "$0")/hostile_client.py"
ip link set lo up 2>/dev/null

# The two steps' profiles in f: each available, its categories adding up to its samples, and
# the receive path's samples at 2 Gbit/s more than at 10 Mbit/s.
known_answer() { # file steps-expression
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
steps = eval(sys.argv[2])
assert len(steps) == 2, "%d steps" % len(steps)
rx = []
for s in steps:
    p = s["profile"]
    if not p["available"]:
        print("UNAVAILABLE " + p["unavailable"])
        sys.exit(3)
    assert sum(c["samples"] for c in p["categories"]) == p["samples"], "categories != samples"
    path = sum(c["samples"] for c in p["categories"]
               if c["name"] in ("ip", "socket", "copy", "netcore", "driver"))
    rx.append(path)
    for c in p["categories"]:
        if c["name"] == "copy" and c["samples"]:
            assert c["ns_per_frame"] is None or c["ns_per_frame"] > 0
print("receive path samples: %d at 10 Mbit/s, %d at 2 Gbit/s" % tuple(rx))
assert rx[1] > rx[0] and rx[1] >= 10, "the receive path does not rise with the rate"
EOF
}

prof_check() { # description file steps-expression
	if known_answer "$2" "$3" >"$nb_tmp/ka" 2>&1; then
		ok "$1: $(cat "$nb_tmp/ka")"
	elif grep -q UNAVAILABLE "$nb_tmp/ka"; then
		skip "$1: $(sed 's/UNAVAILABLE //' "$nb_tmp/ka")"
	else
		notok "$1"
		sed 's/^/# /' "$nb_tmp/ka" | tail -5
	fi
}

# 1. A standalone receiver.
"$NETBENCH" stream --recv -a 127.0.0.1 -p 40384 --profile=997 -t 20 -o "$nb_tmp/recv.json" \
	>"$nb_tmp/recv.txt" 2>&1 &
rpid=$!
nb_pids="$nb_pids $rpid"
wait_until 5 "the receiver's socket" sh -c "ss -Hlnu 'sport = :40384' | grep -q ." || notok "the receiver binds"
check_quiet "a 10 Mbit/s and a 2 Gbit/s step sent" \
	"$NETBENCH" stream --send -a 127.0.0.1 -p 40384 -b 8000 --rates 10M,2G -t 2 -O 0.2
wait "$rpid"
check "the receiver prints where each step's CPU went" \
	grep -q "where it went (kernel profile" "$nb_tmp/recv.txt"
check "... one line per step, in ns per datagram" \
	sh -c "grep -A2 'where it went' '$nb_tmp/recv.txt' | grep -c 'samples:\|unavailable' | grep -qx 2"
grep -A2 "where it went" "$nb_tmp/recv.txt" | sed 's/^/# /'
prof_check "standalone receiver: each step's profile" "$nb_tmp/recv.json" 'd["steps"]'

# 2. An agent receives; the controller asks it for the profile.
agent -- -p 5383 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
check_quiet "stream -c AGENT --profile" "$NETBENCH" stream -c 127.0.0.1 --ctl-port 5383 \
	-a 127.0.0.1 -p 40385 -b 8000 --rates 10M,2G -t 2 -O 0.2 --profile=997 -o "$nb_tmp/agent.json"
check "... prints the agent's profile under its table" has "where it went (kernel profile"
prof_check "agent receiver: each step's profile" "$nb_tmp/agent.json" 'd["receivers"][0]["steps"]'
check "no kernel address in the agent's answer" \
	sh -c "! grep -Eq '0x[0-9a-f]{8}|ffffffff[0-9a-f]{8}' '$nb_tmp/agent.json'"
check_schemas "$nb_tmp/recv.json" "$nb_tmp/agent.json"
run_case $PY stream_profile 127.0.0.1 5383 -
check "the agent still serves" kill -0 "$agent_pid"

# 3. An agent that may not profile.
agent -- -p 5384 -B 127.0.0.1 --no-profile || { notok "agent --no-profile starts"; exit 1; }
check_refused "stream --profile from a --no-profile agent: a failure (exit 1)" 1 \
	"refused by rule profile" "$NETBENCH" stream -c 127.0.0.1 --ctl-port 5384 -a 127.0.0.1 \
	-p 40386 --rates 1M -t 1 --profile
run_case $PY stream_profile 127.0.0.1 5384 - 1
check_rc "stream --send --profile: usage error (exit 2)" 2 \
	"$NETBENCH" stream --send -a 127.0.0.1 -p 40386 --profile
check "... saying the profile is the receiver's" has "receiver"
check_rc "stream --profile=5000: usage error (exit 2)" 2 \
	"$NETBENCH" stream --recv -a 127.0.0.1 -p 40386 --profile=5000
check "... naming the range" has "4999"
echo "1..$n"
