#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench serve + tput end to end: loopback (IPv4, IPv6), a veth pair between two namespaces,
# TCP and UDP, bidir, parallel streams, intervals, JSON, pre-shared keys, the agent's caps and
# busy answer, --once, and usage errors.
. "$(dirname "$0")/../lib.sh"
need_root
P=5311
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
ok "agent starts daemonized with a pid file"

check_rc "tput over loopback exits 0" 0 "$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.5 -O 0.2 -l 1k,32k
check "table has the netio columns" has "Tx KByte/s"
check "one row per size with numbers" sh -c "grep -Eq '^ +1k +[0-9]+\.[0-9] +[0-9.]+ +[0-9]+\.[0-9]' $nb_tmp/out && grep -Eq '^ +32k +[0-9]' $nb_tmp/out"
check "CPU table with both ends" sh -c "grep -q 'proc%   sys%  sirq%' $nb_tmp/out && grep -Eq '^ +1k +Rx \|' $nb_tmp/out"

"$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.5 -O 0.2 -l 4k -J >"$nb_tmp/t.json" 2>"$nb_tmp/err"
check "JSON run exits 0" test $? -eq 0
check "JSON: schema, env of both ends, every step valid and reconciled" json_check "$nb_tmp/t.json" '
assert d["schema"] == "netbench/1" and d["test"] == "tput"
assert d["env"]["local"]["kernel"] and d["env"]["remote"]["hostname"]
assert d["env"]["remote"]["iface"] == "lo", d["env"]["remote"]["iface"]
assert "tput" in d["command_line"]
s = d["steps"]
assert [x["direction"] for x in s] == ["tx", "rx"]
for x in s:
    assert x["valid"] and x["kbyte_per_s"] > 0 and x["block_bytes"] == 4096
    assert x["sent_total_bytes"] == x["received_total_bytes"] > x["window_bytes"] > 0
    assert abs(x["kbyte_per_s"] * 1024 * x["window_s"] - x["window_bytes"]) < 2048
    assert 0.3 < x["window_s"] < 1.0
    for end in ("cpu_local", "cpu_remote"):
        c = x[end]
        assert c["valid"] and 0 <= c["sys_softirq_pct"] <= 100 and c["proc_cpu_pct"] > 0
        tot = sum(c[k] for k in ("sys_user_pct","sys_nice_pct","sys_system_pct","sys_irq_pct","sys_softirq_pct","sys_iowait_pct","sys_steal_pct","sys_idle_pct"))
        assert abs(tot - 100) < 0.5, tot
    assert x["demand_local_us_per_kbyte"] > 0
'

"$NETBENCH" tput -c 127.0.0.1 -p $P -t 1 -O 0.2 -l 1k -u -r 20M -J >"$nb_tmp/u.json" 2>"$nb_tmp/err"
check "UDP run exits 0" test $? -eq 0
# Within 1 % on an idle machine; the bound is looser because tests may share the CPUs with
# other work, and a sender starved for over 100 ms does not burst to catch up.
check "UDP: paced rate within 10% of 20 Mbit/s, loss counted from sequence numbers" json_check "$nb_tmp/u.json" '
for x in d["steps"]:
    assert x["valid"], x["invalid_reason"]
    assert abs(x["mbit_per_s"] - 20) / 20 < 0.10, x["mbit_per_s"]
    assert x["loss_pct"] is not None and 0 <= x["loss_pct"] < 5.0
    assert x["window_expected_datagrams"] >= x["window_datagrams"] - 1
'

check_rc "bidir, 2 streams, 0.25 s intervals" 0 "$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.5 -O 0.1 -l 2k -P 2 --bidir -i 0.25
check "interval lines printed for both directions" sh -c "grep -Eq '2k +0\.00- +0\.2[0-9] s +Tx +[0-9.]+ KByte/s +Rx' $nb_tmp/out"
# The intervals under their heading, the result table apart after every one of them.
check "the result table comes after the interval lines, not among them" awk '
	/^Intervals of 0\.25 s/ { h = NR }
	/^ +[0-9.]+[kM]? +[0-9.]+- *[0-9.]+ s / { last = NR; n++ }
	/^ Block +Tx KByte\/s/ { t = NR }
	/^ +2k +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$/ { row = NR }
	END { exit !(h && n >= 2 && h < last && last < t && t < row) }' "$nb_tmp/out"
check "bidir header says so" has "Tx and Rx at once"
"$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.6 -O 0.1 -l 2k -i 0.2 -J >"$nb_tmp/i.json" 2>&1
check "JSON carries the intervals, and they add up to the window" json_check "$nb_tmp/i.json" '
for x in d["steps"]:
    iv = x["intervals"]
    assert len(iv) == 3 and iv[0]["start_s"] == 0 and abs(iv[-1]["end_s"] - 0.6) < 0.05, iv
    kb = sum(i["kbyte_per_s"] * (i["end_s"] - i["start_s"]) for i in iv)
    assert abs(kb * 1024 - x["window_bytes"]) / x["window_bytes"] < 0.05, (kb * 1024, x["window_bytes"])
'


check_rc "reverse only (-R)" 0 "$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k -R
check "-R prints no Tx numbers" sh -c "grep -Eq '^ +1k +- +- +[0-9]' $nb_tmp/out"

# A second controller while a test runs gets 'busy' at once, not a hang.
"$NETBENCH" tput -c 127.0.0.1 -p $P -t 3 -O 0 -l 1k --tx-only >/dev/null 2>&1 &
long=$!
wait_until 5 "the agent to start the first controller's test" agent_testing "$agent_pid"
t0=$(date +%s)
check_rc "second controller is refused while busy" 1 "$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.3 -l 1k
check "refusal says busy and comes at once" sh -c "grep -q 'agent busy' $nb_tmp/out && [ $(($(date +%s) - t0)) -le 2 ]"
wait $long
check "the first controller's test was not disturbed" test $? -eq 0

# IPv6 loopback
agent -- -p $((P + 1)) -B ::1 && ok "IPv6 agent starts" || notok "IPv6 agent starts"
check_rc "tput over IPv6 loopback" 0 "$NETBENCH" tput -c ::1 -p $((P + 1)) -t 0.3 -O 0.1 -l 1k

# Pre-shared key
printf 'correct horse\n' >"$nb_tmp/key"
printf 'wrong horse\n' >"$nb_tmp/bad"
agent -- -p $((P + 2)) -B 127.0.0.1 --psk "$nb_tmp/key"
check_rc "no key: refused" 1 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 2)) -t 0.3 -l 1k
check "message asks for --psk" has "requires a pre-shared key"
check_rc "wrong key: refused" 1 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 2)) -t 0.3 -l 1k --psk "$nb_tmp/bad"
check "refusal names the rule" has "refused by rule psk"
check_rc "right key: runs" 0 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 2)) -t 0.3 -O 0.1 -l 1k --psk "$nb_tmp/key"
check "the key never crosses the wire" sh -c "! grep -q 'correct horse' $nb_tmp/agent.log"

# Caps
agent -- -p $((P + 3)) -B 127.0.0.1 --max-time 2 --max-rate 10M
check_rc "longer than --max-time: refused" 1 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -t 5 -l 1k
check "refusal names max-time" has "refused by rule max-time"
check_rc "unpaced reverse under --max-rate: refused" 1 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -t 0.3 -l 1k -R
check "refusal names max-rate" has "refused by rule max-rate"
check_rc "reverse paced below the cap: runs" 0 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -t 0.5 -O 0.1 -l 1k -R -r 5M
# The agent states its caps in the handshake: a run whose Rx half it would refuse is refused
# before the Tx half runs (no test reaches the agent), naming the option, the value and the cap.
tests_before=$(grep -c 'tput test' "$nb_tmp/agent.log")
check_rc "Tx+Rx at -b 20M under --max-rate 10M: refused before the first step" 1 \
	"$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -u -r 20M -t 1 -O 0 -l 1k,2k
check "... naming -b, the rate asked and the agent's cap" \
	has "before any traffic: -b 20 Mbit/s x -P 1 stream .*at most 10.000 Mbit/s (its serve --max-rate"
check "... and no step ran on the agent" \
	test "$(grep -c 'tput test' "$nb_tmp/agent.log")" -eq "$tests_before"
check_rc "Tx only at -b 20M under --max-rate 10M: the agent receives, no cap applies" 0 \
	"$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -u -r 20M -t 0.3 -O 0 -l 1k --tx-only
check_rc "-t over the agent's --max-time: refused before the first step" 1 \
	"$NETBENCH" tput -c 127.0.0.1 -p $((P + 3)) -t 1.5 -O 0 -l 1k --tx-only
check "... naming -t and the cap" has "before any traffic: -t 1.5 s .*at most 2.0 s (its serve --max-time)"

# --once: the agent exits after one controller's tests and removes its pid file.
agent -- -p $((P + 4)) -B 127.0.0.1 --once
once_pid=$agent_pid
check_rc "tput against a --once agent" 0 "$NETBENCH" tput -c 127.0.0.1 -p $((P + 4)) -t 0.3 -O 0.1 -l 1k
# Gone (or a zombie where nothing reaps orphans) within 5 s.
check "--once agent has exited" wait_until 5 "the --once agent to exit" nb_gone $once_pid
check "--once agent removed its pid file" sh -c "! grep -lx $once_pid $nb_tmp/agent.*.pid 2>/dev/null | grep -q ."

# Across a veth pair between two namespaces the test creates.
TA=nbttput_$nb_id-a TB=nbttput_$nb_id-b
if netns_add $TA && netns_add $TB &&
	veth_pair $TA nbttput-va $TB nbttput-vb 198.18.77.1/24 198.18.77.2/24; then
	ok "veth pair between two namespaces"
	agent $TB -- -p $P -B 198.18.77.2
	ip netns exec $TA "$NETBENCH" tput -c 198.18.77.2 -p $P -t 0.5 -O 0.2 -l 1k,32k -J >"$nb_tmp/v.json" 2>"$nb_tmp/err"
	check "tput across the veth pair" test $? -eq 0
	check "JSON names the veth interfaces and driver at both ends" json_check "$nb_tmp/v.json" '
assert d["env"]["local"]["iface"] == "nbttput-va" and d["env"]["remote"]["iface"] == "nbttput-vb"
assert d["env"]["remote"]["driver"] == "veth" and d["env"]["remote"]["mtu"] == 1500
assert all(x["valid"] and x["kbyte_per_s"] > 0 for x in d["steps"])
'
	ip netns exec $TA "$NETBENCH" tput -c 198.18.77.2 -p $P -t 0.5 -O 0.2 -l 8k -u -r 50M --bidir -J >"$nb_tmp/vu.json" 2>"$nb_tmp/err"
	check "UDP bidir across the veth pair" json_check "$nb_tmp/vu.json" '
assert all(x["valid"] and abs(x["mbit_per_s"] - 50) < 2.5 for x in d["steps"]), [x["mbit_per_s"] for x in d["steps"]]
'
else
	notok "veth pair between two namespaces"
fi

# Usage errors: one line naming the option, the value and the range; exit 2.
check_rc "no -c: usage error" 2 "$NETBENCH" tput
check "names what is missing" has "agent's address is required"
check_rc "--time 0: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -t 0
check "names option, value and range" has "--time is too small: 0 (at least 100ms)"
check_rc "--parallel 100: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -P 100
check "parallel range named" has "--parallel is too large: 100 (at most 32)"
check_rc "--sizes garbage: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -l 1k,abc
check "bad size named" has "--sizes: 'abc' is not a size"
check_rc "UDP block too large: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -u -l 70000
check_rc "unknown option: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 --frobnicate
check "the unknown option is named once" sh -c "grep -c frobnicate $nb_tmp/out | grep -qx 1"
check_rc "option without its value: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 --time
check "the option missing a value is named" has "option '--time' needs a value"
check_rc "conflicting directions: usage error" 2 "$NETBENCH" tput -c 127.0.0.1 -R --bidir
check_rc "serve -p 70000: usage error" 2 "$NETBENCH" serve -p 70000
check "serve names the port range" has "--port is too large: 70000 (at most 65535)"
check_rc "no agent there: failure" 1 "$NETBENCH" tput -c 127.0.0.1 -p 5319 -t 0.3
check "says it cannot connect" has "cannot connect to the agent at 127.0.0.1 port 5319"
check_rc "--help exits 0" 0 "$NETBENCH" tput --help
check_rc "serve --help exits 0" 0 "$NETBENCH" serve --help
check_rc "make install honours PREFIX and DESTDIR" 0 make -s -C "${TOP:-.}" BUILD="${BUILD:-build}" install PREFIX=/usr DESTDIR="$nb_tmp/root"
check "binary and manual page installed" test -x "$nb_tmp/root/usr/bin/netbench" -a -s "$nb_tmp/root/usr/share/man/man1/netbench.1"
check "the manual page renders and documents serve and tput" sh -c "man -l $nb_tmp/root/usr/share/man/man1/netbench.1 2>/dev/null | grep -q 'NETBENCH TPUT' || grep -q 'NETBENCH TPUT' $nb_tmp/root/usr/share/man/man1/netbench.1"
check_rc "--version" 0 "$NETBENCH" --version
check "version names the git revision" has "netbench [0-9.]* (git "
check_schemas "$nb_tmp"
