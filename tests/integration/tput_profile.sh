#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput --profile: where each end's CPU went over each window, on the real kernel over loopback.
# Each direction's JSON carries "profile_local" and the agent's "profile_remote" (schema-checked),
# the terminal a line per end and window under the CPU table. Known answers: a TCP socket costs
# per call as well as per byte, so the sender's socket layer's ns per KByte with 1 KB blocks is
# above that with 32 KB blocks; the agent's profile covers its own CPU samples' window (starts
# after its opening sample, stops before its closing one, a few ms apart at most), and the
# receiving agent copies to user space what it receives; in the store, compare gives the
# agent's categories per block size. An agent started with --no-profile refuses the test.
. "$(dirname "$0")/../lib.sh"
need_root
ip link set lo up 2>/dev/null

agent -- -p 5385 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
check_quiet "tput --profile with 1 KB and 32 KB blocks" "$NETBENCH" tput -c 127.0.0.1 -p 5385 \
	-l 1k,32k -t 2 --tx-only --profile=997 -o "$nb_tmp/tput.json"
check "the terminal says where each end's CPU went" has "where each end's CPU went"
check "... one line per end and window, in ns per KByte" \
	sh -c "grep -A4 'where each end' '$nb_tmp/out' | grep -c 'ns/KByte\|unavailable' | grep -qx 4"
check "... the sender's and the receiver's" \
	sh -c "grep -A4 'where each end' '$nb_tmp/out' | grep 'Tx sender (this host)' | grep -q . &&
	       grep -A4 'where each end' '$nb_tmp/out' | grep -q 'Tx receiver ('"
grep -A4 "where each end" "$nb_tmp/out" | sed 's/^/# /'
python3 - "$nb_tmp/tput.json" >"$nb_tmp/ka" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
steps = [s for s in d["steps"] if s["direction"] == "tx"]
assert len(steps) == 2, "%d tx steps" % len(steps)
ns = []
for s in steps:
    for end in ("profile_local", "profile_remote"):
        p = s[end]
        if not p["available"]:
            print("UNAVAILABLE %s: %s" % (end, p["unavailable"]))
            sys.exit(3)
        assert sum(c["samples"] for c in p["categories"]) == p["samples"], \
            "%s: categories != samples" % end
    sock = [c for c in s["profile_local"]["categories"] if c["name"] == "socket"][0]
    assert sock["established"] and sock["ns_per_frame"] is not None, "socket not established"
    ns.append(sock["ns_per_frame"])
    # The agent's profile: inside its CPU samples' window, at most 20 ms shorter.
    r, cw = s["profile_remote"], s["cpu_remote"]["window_s"]
    assert r["window_s"] <= cw + 1e-6 and cw - r["window_s"] < 0.02, \
        "agent's profile window %.6f s, its CPU window %.6f s" % (r["window_s"], cw)
    copy = [c for c in r["categories"] if c["name"] == "copy"][0]
    assert copy["established"] and copy["ns_per_frame"], "the receiving agent copies nothing"
print("socket layer: %.0f ns per KByte with 1 KB blocks, %.0f with 32 KB; the agent's profile "
      "within its CPU window" % tuple(ns))
assert ns[0] > ns[1], "the per-call cost does not show"
EOF
rc=$?
if [ $rc -eq 0 ]; then
	ok "$(cat "$nb_tmp/ka")"
elif grep -q UNAVAILABLE "$nb_tmp/ka"; then
	skip "$(sed 's/UNAVAILABLE //' "$nb_tmp/ka")"
else
	notok "the socket layer's ns per KByte falls with the block size"
	sed 's/^/# /' "$nb_tmp/ka" | tail -5
fi
check_schemas "$nb_tmp/tput.json"
# In the store: the agent's categories are metrics (compare's tput.profile, ns per KByte).
if "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
	skip "this build has no SQLite: no store to compare the profile in"
else
	"$NETBENCH" results import --db "$nb_tmp/t.db" --label loop "$nb_tmp/tput.json" >/dev/null 2>&1
	"$NETBENCH" compare --db "$nb_tmp/t.db" --test tput >"$nb_tmp/cmp" 2>&1
	sed -n '/kernel CPU per KByte/,/^$/p' "$nb_tmp/cmp" >"$nb_tmp/cmp.prof"
	check "compare: the agent's kernel CPU per KByte by direction and subsystem, at both block sizes" \
		sh -c "grep -q 'loop: Tx: copy' '$nb_tmp/cmp.prof' && grep -Eq '^1k ' '$nb_tmp/cmp.prof' &&
		       grep -Eq '^32k ' '$nb_tmp/cmp.prof'"
	sed 's/^/# /' "$nb_tmp/cmp.prof" | head -4
fi
check_rc "tput --profile=5000: usage error (exit 2)" 2 \
	"$NETBENCH" tput -c 127.0.0.1 -p 5385 --profile=5000
check "... naming the range" has "4999"

# The agent's own cap and its operator's refusal.
agent -- -p 5386 -B 127.0.0.1 --no-profile || { notok "agent --no-profile starts"; exit 1; }
check_rc "an agent started with --no-profile refuses tput --profile (exit 1)" 1 \
	"$NETBENCH" tput -c 127.0.0.1 -p 5386 -l 1k -t 1 --tx-only --profile
check "... naming the rule" has "refused by rule profile: this agent was started with --no-profile"
check_quiet "... and still serves tput without it" "$NETBENCH" tput -c 127.0.0.1 -p 5386 -l 1k \
	-t 1 --tx-only
echo "1..$n"
