#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Which lab a command acts on when no prefix is named (issue "UX round 3", item 8): with one lab
# up, `lab status`, `lab ruleset` and rate's --sweep-rules act on it and say so; with two up, each
# refuses to guess (exit 2, both listed, nothing changed in either lab); a prefix named by option or
# $NB_LAB_PREFIX is obeyed. Root, two labs of namespaces without agents, ~10 s.
. "$(dirname "$0")/../lib.sh"
need_root
need_tools ip nft
NB=$NETBENCH
unset NB_LAB_PREFIX
A=nbtwa_$nb_id B=nbtwb_$nb_id
# What this test claims depends on how many labs are up: only its own may be.
up=$(ls /run/netbench-lab/state /run/netbench-lab/*/state 2>/dev/null)
[ -z "$up" ] || skip_all "a lab is up on this host already ($(echo $up | tr '\n' ' ')): not touched"

lab_up $A --no-agent || { notok "lab up --prefix $A"; exit 1; }
ok "lab up --prefix $A"
check_rc "lab status with one lab up: acts on it" 0 "$NB" lab status
check "... its text names $A's namespaces" has "lab $A-gen/$A-dut/$A-sink: healthy"
check "... and says it was the one lab up" has "acting on lab '$A' ($A-gen, $A-dut, $A-sink), the one lab up"
check_rc "lab ruleset with one lab up: acts on it" 0 "$NB" lab ruleset --kind linear --rules 3
check "... loaded into $A-dut" has "loaded into $A-dut"
check_rc "lab ruleset --flush with one lab up" 0 "$NB" lab ruleset --flush

lab_up $B --no-agent || { notok "lab up --prefix $B"; exit 1; }
ok "lab up --prefix $B"
check_refused "lab status with two labs up refuses to guess (exit 2)" 2 \
	"2 labs are up (lab '$A' ($A-gen, $A-dut, $A-sink); lab '$B'" "$NB" lab status
check "... and says how to choose" grep -q -- "say which one with --prefix P" "$nb_tmp/err"
check_refused "lab status -J with two labs up refuses too" 2 "2 labs are up" "$NB" lab status -J
check_refused "lab ruleset with two labs up refuses" 2 "2 labs are up" \
	"$NB" lab ruleset --kind linear --rules 5
for p in $A $B; do
	check "... $p-dut holds no rule after it" sh -c "[ -z \"\$(ip netns exec $p-dut nft list ruleset)\" ]"
done
check_refused "lab down with two labs up refuses" 2 "2 labs are up" "$NB" lab down
check "... both labs still exist" sh -c "ip netns list | grep -q '^$A-dut' && ip netns list | grep -q '^$B-dut'"
check_refused "rate --sweep-rules with two labs up refuses before sending (exit 2)" 2 \
	"say which one with --lab-prefix P" \
	ip netns exec $A-gen "$NB" rate --local-rx $A-sink/198.19.0.1 -s 128 --quick --sweep-rules 0,10
check_rc "lab status --prefix $B is obeyed" 0 "$NB" lab status --prefix $B
check "... names $B" has "lab $B-gen/$B-dut/$B-sink: healthy"
check "... without a note on a choice" sh -c "! grep -q 'acting on' '$nb_tmp/out'"
check_rc "NB_LAB_PREFIX=$A is obeyed" 0 env NB_LAB_PREFIX=$A "$NB" lab status
check "... names $A" has "lab $A-gen/$A-dut/$A-sink: healthy"
check_rc "lab down --prefix $B" 0 "$NB" lab down --prefix $B
check_rc "rate --sweep-rules with one lab up again: acts on it" 0 ip netns exec $A-gen "$NB" \
	rate --local-rx $A-sink/198.19.0.1 -s 128 --quick --sweep-rules 0,10
check "... and says on which lab" has "loads its rules into the DUT of lab '$A' ($A-gen, $A-dut, $A-sink), the one lab up"
echo "1..$n"
