#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput --profile: where this host's CPU went over each window, on the real kernel over loopback.
# Each direction's JSON carries "profile_local" (schema-checked) and the terminal one line per
# window under the CPU table. Known answer: a TCP socket costs per call as well as per byte, so
# the socket layer's ns per KByte with 1 KB blocks is above that with 32 KB blocks.
. "$(dirname "$0")/../lib.sh"
need_root
ip link set lo up 2>/dev/null

agent -- -p 5385 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
check_quiet "tput --profile with 1 KB and 32 KB blocks" "$NETBENCH" tput -c 127.0.0.1 -p 5385 \
	-l 1k,32k -t 2 --tx-only --profile -o "$nb_tmp/tput.json"
check "the terminal says where this host's CPU went" has "where this host's CPU went"
check "... one line per window, in ns per KByte" \
	sh -c "grep -A2 'where this host' '$nb_tmp/out' | grep -c 'ns/KByte\|unavailable' | grep -qx 2"
grep -A2 "where this host" "$nb_tmp/out" | sed 's/^/# /'
python3 - "$nb_tmp/tput.json" >"$nb_tmp/ka" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
steps = [s for s in d["steps"] if s["direction"] == "tx"]
assert len(steps) == 2, "%d tx steps" % len(steps)
ns = []
for s in steps:
    p = s["profile_local"]
    if not p["available"]:
        print("UNAVAILABLE " + p["unavailable"])
        sys.exit(3)
    assert sum(c["samples"] for c in p["categories"]) == p["samples"], "categories != samples"
    sock = [c for c in p["categories"] if c["name"] == "socket"][0]
    assert sock["established"] and sock["ns_per_frame"] is not None, "socket not established"
    ns.append(sock["ns_per_frame"])
print("socket layer: %.0f ns per KByte with 1 KB blocks, %.0f with 32 KB" % tuple(ns))
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
check_rc "tput --profile=5000: usage error (exit 2)" 2 \
	"$NETBENCH" tput -c 127.0.0.1 -p 5385 --profile=5000
check "... naming the range" has "4999"
echo "1..$n"
