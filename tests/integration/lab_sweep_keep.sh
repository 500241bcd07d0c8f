#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A rule sweep (rate --sweep-rules) leaves the lab's DUT with the ruleset it found: the user's
# file ruleset (lab ruleset --kind file:PATH) is read back with the same rule and set-element
# counts and the same lab record after a sweep, after a sweep cut by Ctrl-C (exit 130), and an
# empty DUT stays empty. Root, a lab of namespaces under the prefix nbtkeep_<run id>, ~15 s.
. "$(dirname "$0")/../lib.sh"
need_root
NB=$NETBENCH
P=nbtkeep_$nb_id
need_tools ip nft python3
lab_up $P --no-agent || { notok "lab up --prefix $P"; exit 1; }
ok "lab up --prefix $P"

# 7 rules (6 that match nothing of the test's traffic, then a counter) and a 3-element set
cat >"$nb_tmp/mine.nft" <<'EOF'
table inet mine {
	set blocked {
		type ipv4_addr
		elements = { 10.99.0.1, 10.99.0.2, 10.99.0.3 }
	}
	chain forward {
		type filter hook forward priority 0; policy accept;
		ip saddr @blocked drop
		tcp dport 9 drop
		tcp dport 13 drop
		udp dport 7 drop
		udp dport 19 drop
		ip saddr 10.99.1.1 drop
		counter
	}
}
EOF
check_rc "lab ruleset --kind file: loads the user's ruleset" 0 \
	"$NB" lab ruleset --prefix $P --kind "file:$nb_tmp/mine.nft" -J
cp "$nb_tmp/out" "$nb_tmp/loaded.json"
check "... 7 rules and 3 set elements read back" json_check "$nb_tmp/loaded.json" "
assert d['rules'] == 7 and d['set_elements'] == 3, d"

# status KEY: the lab status document's ruleset as "kind rules_requested rules set_elements"
status() {
	"$NB" lab status --prefix $P -J >"$nb_tmp/st.json" 2>/dev/null
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['ruleset']
print(r.get('kind', '-'), r.get('rules_requested', '-'), r.get('rules', '-'), r.get('set_elements', '-'))
" "$nb_tmp/st.json"
}
before=$(status)
check "lab status records the file ruleset ($before)" test "$before" = "file 7 7 3"

SWEEP="rate --local-rx $P-sink/198.19.0.1 -s 128 -m trial -r 5k --lab-prefix $P --kind linear"
sweep() { ip netns exec $P-gen "$NB" $SWEEP "$@"; }
# swept_ok RC DOC: the sweep ran to its end: exit 0, or 1 where the loaded host's generator fell
# short of the trial's rate (a trial that did not do what was asked), which the document says
swept_ok() {
	[ "$1" -eq 0 ] || { [ "$1" -eq 1 ] && json_check "$2" "
assert any(s['generator_short'] for p in d['sweep'] for s in p['sizes'])"; }
}

sweep --sweep-rules 0,10 -t 0.2 -J >"$nb_tmp/s1.json" 2>"$nb_tmp/s1.err"
rc=$?
check "a short sweep runs to its end (exit $rc)" swept_ok $rc "$nb_tmp/s1.json" ||
	sed 's/^/# /' "$nb_tmp/s1.err" | tail -5
check "... it measured both rule counts" json_check "$nb_tmp/s1.json" "
assert [p['rules'] for p in d['sweep']] == [0, 10], d['sweep']"
after=$(status)
check "after the sweep the DUT has the file's ruleset again ($after)" test "$after" = "$before"
check "... the same table, read with nft" sh -c \
	"ip netns exec $P-dut nft list chain inet mine forward | grep -q 'udp dport 19 drop'"
check "... and none of the sweep's" sh -c "! ip netns exec $P-dut nft list tables | grep -q netbench"

sweep --sweep-rules 0,10 -t 0.2 >"$nb_tmp/s2.txt" 2>"$nb_tmp/s2.err"
check "the table output says the ruleset was loaded back, with its rule count" \
	grep -q "ruleset from before the sweep is loaded back (7 rules)" "$nb_tmp/s2.err"

# Ctrl-C: 6 points of ~1.2 s; SIGINT once the second point's 10 rules are on the DUT lands
# mid-sweep, the first point measured
ip netns exec $P-gen "$NB" $SWEEP --sweep-rules 0,10,20,30,40,50 -t 1 -J >"$nb_tmp/s3.json" \
	2>"$nb_tmp/s3.err" &
pid=$!
# the sweep's table holds 10 rules or more (and its own table and chain)
second_point() {
	[ "$(ip netns exec $P-dut nft -a list table inet netbench 2>/dev/null |
		grep -c '# handle')" -ge 10 ]
}
wait_until 10 "the second point's rules on the DUT" second_point
kill -INT $pid
wait $pid
rc=$?
check "a sweep cut by SIGINT exits 130 (got $rc)" test $rc -eq 130 || sed 's/^/# /' "$nb_tmp/s3.err" | tail -5
after=$(status)
check "after the cut sweep the DUT has the file's ruleset again ($after)" test "$after" = "$before"

# An empty DUT stays empty, with no ruleset recorded
check_rc "lab ruleset --flush" 0 "$NB" lab ruleset --prefix $P --flush
sweep --sweep-rules 0,10 -t 0.2 -J >"$nb_tmp/s4.json" 2>"$nb_tmp/s4.err"
rc=$?
check "a sweep over an empty DUT runs to its end (exit $rc)" swept_ok $rc "$nb_tmp/s4.json"
after=$(status)
check "... which is empty again after it, nothing recorded ($after)" test "$after" = "- - 0 0"
check_schemas "$nb_tmp/s1.json" "$nb_tmp/s3.json" "$nb_tmp/s4.json"
echo "1..$n"
