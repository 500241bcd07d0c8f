#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Two users' demos on one host (docs/security.md, "A lab is someone's"): with the default lab
# alive (a process of someone else's in it), `make demo` runs its own lab under a free prefix
# beside it, leaves the other one whole, and removes only its own. The budget is short: the
# demo's own steps are the demo test's; this one checks whose lab is whose.
. "$(dirname "$0")/../lib.sh"
need_root
TOP=${TOP:-.}
if ip netns list | grep -Eq '^(nb(gen|dut|sink)|nbdemo1-(gen|dut|sink))( |$)'; then
	skip "a lab is already up on this machine as nbgen or nbdemo1 (netbench lab down to free it)"
	echo "1..$n"
	exit 0
fi
nb_labs="$nb_labs nbdemo1"
"$NETBENCH" lab up --no-agent >"$nb_tmp/up.out" 2>&1 || { notok "the default lab comes up"; exit 1; }
trap '"$NETBENCH" lab down >/dev/null 2>&1; nb_cleanup' EXIT
ip netns exec nbgen sleep 300 &
sleeper=$!
nb_pids="$nb_pids $sleeper"
NB_DEMO_OUT="$nb_tmp/results" NB_DEMO_BUDGET_S=45 sh "$TOP/tests/demo.sh" "${BUILD:-build}" \
	>"$nb_tmp/demo.log" 2>&1
check "the demo says it runs beside the live lab, as nbdemo1" \
	grep -q "the demo's lab is nbdemo1-gen" "$nb_tmp/demo.log" || sed 's/^/# /' "$nb_tmp/demo.log" | head -20
check "its lab came up under that prefix" grep -q '"prefix": "nbdemo1"' "$nb_tmp/results/lab-up.json"
check "its tput ran through its own lab" json_check "$nb_tmp/results/tput.json" '
assert d["steps"] and all(x["valid"] for x in d["steps"])'
check "the other lab is untouched: its namespaces and its process" \
	sh -c "[ -e /run/netns/nbgen ] && [ -e /run/netns/nbdut ] && [ -e /run/netns/nbsink ] && kill -0 $sleeper"
check "the demo removed its own lab" sh -c "! ip netns list | grep -q '^nbdemo1-'"
echo "1..$n"
