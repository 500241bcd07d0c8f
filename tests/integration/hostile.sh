#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The agent as an attacker finds it: a client that speaks the protocol correctly
# (hostile_client.py) asks for what it must not get, and every refusal or bound is asserted:
# overflowing rate and duration products, wire rate and packet rate caps, names, interfaces and
# IPv6 scopes, multicast scope/TTL/rate/egress interface, receiver binds, mem and every test ended at
# --max-time, facts before the key proof, a controller that meets an impostor, a handshake flood
# and 2,000 hostile connections, and `lab down` with a pid that is no longer our agent. Also:
# duplicate data connections under --max-rate, a controller that never reads past --max-time,
# and valid HELLOs flooding from 64 addresses.
. "$(dirname "$0")/../lib.sh"
need_root
PY="python3 $(dirname "$0")/hostile_client.py"
key="$nb_tmp/key"
printf 'hostile-test-key\n' >"$key"

ip link set lo up 2>/dev/null
# Multicast the agent may send leaves by loopback here.
ip link set lo multicast on 2>/dev/null
ip route add 239.0.0.0/8 dev lo 2>/dev/null
# A: key, wire-rate cap, a short max-time.
agent -- -p 5341 -B 127.0.0.1 --psk "$key" --max-rate 10M --max-time 3 || { notok "agent A starts"; exit 1; }
a_pid=$agent_pid
run_case $PY caps 127.0.0.1 5341 "$key"
run_case $PY cap_time 127.0.0.1 5341 "$key"
run_case $PY flood 127.0.0.1 5341 "$key" "$a_pid"
run_case $PY dup_send 127.0.0.1 5341 "$key" 10000000
run_case $PY nonreader 127.0.0.1 5341 "$key" 3

# B: defaults (mem needs a max-time above its own estimate).
agent -- -p 5342 -B 127.0.0.1 || { notok "agent B starts"; exit 1; }
b_pid=$agent_pid
run_case $PY mem_stop 127.0.0.1 5342 -
run_case $PY mem_cancel 127.0.0.1 5342 - "$b_pid"

# TCP congestion control (tput -C): a loaded algorithm outside tcp_allowed_congestion_control
# (if this kernel has one) needs --allow-tuning; one not loaded is refused by every agent
# without the kernel loading its module.
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
outside=-
for a in $avail; do
	case " $allowed " in *" $a "*) ;; *) outside=$a && break ;; esac
done
unloaded=""
for a in vegas westwood htcp hybla illinois scalable lp veno yeah nv dctcp highspeed bic cdg; do
	case " $avail " in *" $a "*) ;; *) unloaded=$a && break ;; esac
done
run_case $PY congestion 127.0.0.1 5342 - "$outside" "$unloaded" 0
[ "$outside" = - ] && skip "congestion control outside the allowed list: this kernel has none loaded"
if agent -- -p 5348 -B 127.0.0.1 --allow-tuning; then
	run_case $PY congestion 127.0.0.1 5348 - "$outside" "$unloaded" 1
else
	notok "an agent starts with --allow-tuning"
fi

# C: packet-rate cap.
if agent -- -p 5343 -B 127.0.0.1 --max-pps 2000; then
	run_case $PY pps 127.0.0.1 5343 -
else
	notok "an agent starts with --max-pps 2000"
fi

# 8. With --psk the controller refuses an agent that does not prove the key.
$PY impostor 5344 >"$nb_tmp/imp.out" 2>&1 &
imp=$!
nb_pids="$nb_pids $imp"
# A loaded machine may take seconds to start python.
wait_until 10 "the impostor listening" grep -q listening "$nb_tmp/imp.out"
check_rc "controller with --psk refuses an agent that says no key is needed" 1 \
	"$NETBENCH" tput -c 127.0.0.1 -p 5344 --psk "$key" -t 0.3 -l 1k
check "... naming why" has "does not ask for the pre-shared key"
wait $imp 2>/dev/null
check "... and sent the impostor nothing after its HELLO_OK" grep -q "controller left" "$nb_tmp/imp.out"

# 2. Two links whose far ends own the same link-local address (and the same IPv4 address):
# the controller on link A cannot make the agent send to the host on link B.
hA=nbhA_$nb_id hC=nbhC_$nb_id hV=nbhV_$nb_id hF=nbhF_$nb_id
netns_add $hA && netns_add $hC && netns_add $hV || { notok "namespaces"; exit 1; }
if veth_pair $hA a0 $hC c0 10.77.0.2/24 10.77.0.1/24 &&
	veth_pair $hA b0 $hV v0 10.78.0.2/24 10.78.0.1/24; then
	# Only the link-local addresses set here: none of the kernel's own.
	for l in "$hA a0 fe80::2" "$hA b0 fe80::3" "$hC c0 fe80::1" "$hV v0 fe80::1"; do
		set -- $l
		ip -n "$1" link set "$2" addrgenmode none 2>/dev/null
		ip -n "$1" addr flush dev "$2" scope link
		ip -n "$1" addr add "$3/64" dev "$2" nodad
	done
	agent $hA -- -p 5345 || notok "agent in $hA starts"
	run_case ip netns exec $hC $PY scope "fe80::2%c0" 5345 - "fe80::1%b0"
	run_case ip netns exec $hC $PY iface 10.77.0.2 5345 - b0
	# Multicast leaves by the control connection's interface (a0 here), or one the operator
	# allowed with --mcast-iface.
	run_case ip netns exec $hC $PY mcast_iface 10.77.0.2 5345 - b0 a0
	if agent $hA -- -p 5346 --mcast-iface b0; then
		run_case ip netns exec $hC $PY mcast_iface_allowed 10.77.0.2 5346 - b0
	else
		notok "an agent starts with --mcast-iface b0"
	fi
else
	skip "no veth support"
fi

# Handshake slots are shared among sources: 64 addresses of a namespace (/32 on its loopback)
# keep 8 connections each with a valid HELLO, back at once when dropped, while a controller with
# the key and a real `netbench tput --psk` must be served.
if netns_add $hF; then
	for i in $(seq 1 64); do ip -n $hF addr add "10.79.1.$i/32" dev lo; done
	ip -n $hF addr add 10.79.0.1/32 dev lo
	if agent $hF -- -p 5347 -B 10.79.0.1 --psk "$key"; then
		run_case ip netns exec $hF $PY sources 10.79.0.1 5347 "$key" 64 8 10.79.1 \
			"$NETBENCH" "$key"
	else
		notok "an agent starts in $hF"
	fi
else
	notok "namespace $hF"
fi

# Every session or handshake the agent closes is logged with its reason.
run_case $PY slow_hello 127.0.0.1 5342 -
log="$nb_tmp/agent.log"
check "the agent logged the late first byte's close" \
	grep -q "handshake closed: no byte within 2000 ms of the connection" "$log"
check "the agent logged a refusal's session close with the rule" \
	grep -q "session closed: refused by rule max-rate" "$log"
check "the agent logged the refused duplicate data connection" \
	grep -q "session closed: refused by rule data-connections: a second data connection" "$log"
check "the agent logged the control connection it closed after --max-time" \
	grep -q "session closed: test stopped by rule max-time: .* control connection was closed" "$log"
check "the agent logged a controller that vanished mid-test" \
	grep -q "session closed: controller disconnected" "$log"
check "the agent logged a controller that said goodbye" \
	grep -q "session closed: the controller said goodbye" "$log"
check_rc "serve --mcast-iface with an empty name: usage error (exit 2)" 2 \
	"$NETBENCH" serve --mcast-iface "eth0,,lo"
check "... naming the option" has "mcast-iface"

# 12. `lab down` signals the pid in its pid file only while it is still our agent.
mkdir -p /run/netbench-lab
sleep 30 &
victim=$!
nb_pids="$nb_pids $victim"
echo "$victim" >/run/netbench-lab/agent.pid
"$NETBENCH" lab down >"$nb_tmp/down.out" 2>&1
check "lab down leaves alone a pid that is not our agent" kill -0 "$victim"
kill "$victim" 2>/dev/null
check "agents A and B still running" kill -0 "$a_pid"
