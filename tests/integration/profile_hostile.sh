#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The kernel profile as an attacker asks for it (hostile_client.py speaks the protocol
# correctly): an agent started with --no-profile refuses any profile and still observes; any
# agent refuses a rate above 4999 Hz per CPU or a buffer above 1024 KiB per CPU, whatever is
# asked, and a profile within the caps sends names and counts, never a kernel address. The
# controller refuses the same bounds as a usage error. The same for crypto's profile of each
# point.
. "$(dirname "$0")/../lib.sh"
need_root
PY="python3 $(dirname "$0")/hostile_client.py"

ip link set lo up 2>/dev/null
agent -- -p 5381 -B 127.0.0.1 --no-profile || { notok "agent --no-profile starts"; exit 1; }
np_pid=$agent_pid
run_case $PY profile_refused 127.0.0.1 5381 -
run_case $PY crypto_profile 127.0.0.1 5381 - 1
agent -- -p 5382 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
run_case $PY profile_caps 127.0.0.1 5382 -
run_case $PY crypto_profile 127.0.0.1 5382 -
check "the --no-profile agent still serves" kill -0 "$np_pid"
check "the profiling agent still serves" kill -0 "$agent_pid"

check_rc "rate --profile=5000: usage error (exit 2)" 2 \
	"$NETBENCH" rate --observe 127.0.0.1:5382 --profile=5000 --local-rx 127.0.0.1
check "... naming the option and its range" has "4999"
check_rc "rate --profile without an observer: usage error (exit 2)" 2 \
	"$NETBENCH" rate --no-observe --profile --local-rx 127.0.0.1
check "... saying it needs one" has "needs an observer"
check_rc "crypto --profile=5000: usage error (exit 2)" 2 "$NETBENCH" crypto --profile=5000
check "... naming the option and its range" has "4999"
check_rc "crypto --profile-folded with an empty name: usage error (exit 2)" 2 \
	"$NETBENCH" crypto --profile-folded ''
echo "1..$n"
