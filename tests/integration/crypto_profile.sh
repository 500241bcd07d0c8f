#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# crypto --profile: where the CPU went in each point's window, on the real kernel, here and on
# an agent over loopback. The JSON carries each point's "profile" (schema-checked), its ns per
# byte and the crypto category by driver; the terminal a "where it went" line per point;
# --profile-folded writes each point's stacks under a root naming it. Known answer: soft
# encrypts in this process, so a request of 16 KB costs the process's own (user) time far more
# than one of 64 bytes: user's ns per request at 16384 bytes is above that at 64 bytes with
# both 95 % intervals apart. (The kernel engines' answer, aes_generic and virtio_crypto, is
# tests/vm/guest/15_afalg_profile.sh: this host's kernel may lack AF_ALG.) An agent started
# with --no-profile refuses; a client asking for more than the cap is refused
# (profile_hostile.sh).
. "$(dirname "$0")/../lib.sh"
need_root
ip link set lo up 2>/dev/null

# Every point's profile in f: available, its categories adding up to its samples, no kernel
# address; user's ns per request at the largest size above that at the smallest, intervals apart.
known_answer() { # file
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
pts = [p for r in d["results"] for p in r["points"] if p["valid"]]
assert len(pts) == 2, "%d points" % len(pts)
user = {}
for p in pts:
    pr = p["profile"]
    if not pr["available"]:
        print("UNAVAILABLE " + pr["unavailable"])
        sys.exit(3)
    assert sum(c["samples"] for c in pr["categories"]) == pr["samples"], "categories != samples"
    assert isinstance(p["profile_crypto_drivers"], list)
    u = [c for c in pr["categories"] if c["name"] == "user"][0]
    assert u["established"], "user's share not established at %d bytes" % p["size_bytes"]
    assert p["profile_ns_per_byte"]["user"] > 0
    user[p["size_bytes"]] = (u["ns_per_frame"], u["ns_per_frame_interval"])
(s, (ns_s, iv_s)), (b, (ns_b, iv_b)) = sorted(user.items())
print("user ns per request: %.0f [%.0f, %.0f] at %d B, %.0f [%.0f, %.0f] at %d B" %
      (ns_s, iv_s[0], iv_s[1], s, ns_b, iv_b[0], iv_b[1], b))
assert iv_b[0] > iv_s[1], "the intervals overlap"
EOF
}

prof_check() { # description file
	if known_answer "$2" >"$nb_tmp/ka" 2>&1; then
		ok "$1: $(cat "$nb_tmp/ka")"
	elif grep -q UNAVAILABLE "$nb_tmp/ka"; then
		skip "$1: $(sed 's/UNAVAILABLE //' "$nb_tmp/ka")"
	else
		notok "$1"
		sed 's/^/# /' "$nb_tmp/ka" | tail -5
	fi
}

run="--algo aes-128-cbc -e soft -s 64,16384 -t 0.3 --profile=997"
# 1. Here.
# shellcheck disable=SC2086
check_quiet "crypto --profile here" "$NETBENCH" crypto $run -o "$nb_tmp/here.json" \
	--profile-folded "$nb_tmp/here.folded"
check "the terminal says where each point's CPU went" has "where it went (kernel profile"
check "... a line per point in ns per request, and the crypto category by driver" \
	sh -c "[ \$(grep -c 'ns/req\|unavailable' '$nb_tmp/out') -ge 2 ] && [ \$(grep -c 'crypto by driver' '$nb_tmp/out') -eq 2 ]"
grep -A4 "where it went" "$nb_tmp/out" | sed 's/^/# /'
prof_check "here: each point's profile" "$nb_tmp/here.json"
check "--profile-folded: each point's stacks under its root, COUNT last" \
	sh -c "grep -q '^aes-128-cbc;soft;64 B;.* [0-9][0-9]*\$' '$nb_tmp/here.folded' &&
		grep -q '^aes-128-cbc;soft;16384 B;.* [0-9][0-9]*\$' '$nb_tmp/here.folded'"

# 2. On an agent.
agent -- -p 5393 -B 127.0.0.1 || { notok "agent starts"; exit 1; }
# shellcheck disable=SC2086
check_quiet "crypto -c AGENT --profile" "$NETBENCH" crypto -c 127.0.0.1:5393 $run \
	-o "$nb_tmp/agent.json" --profile-folded "$nb_tmp/agent.folded"
check "... prints the agent's profile under its table" has "where it went (kernel profile"
prof_check "agent: each point's profile" "$nb_tmp/agent.json"
check "... with its stacks" grep -q '^aes-128-cbc;soft;16384 B;' "$nb_tmp/agent.folded"
check "no kernel address in the agent's answer" \
	sh -c "! grep -Eq '0x[0-9a-f]{8}|ffffffff[0-9a-f]{8}' '$nb_tmp/agent.json' '$nb_tmp/agent.folded'"
check_schemas "$nb_tmp/here.json" "$nb_tmp/agent.json"

# 3. An agent that may not profile.
agent -- -p 5394 -B 127.0.0.1 --no-profile || { notok "agent --no-profile starts"; exit 1; }
check_rc "crypto --profile from a --no-profile agent: a failure (exit 1)" 1 \
	"$NETBENCH" crypto -c 127.0.0.1:5394 --algo aes-128-cbc -e soft -s 64 -t 0.05 --profile
check "... refused by rule profile, naming --no-profile" \
	sh -c "grep -q 'refused by rule profile' '$nb_tmp/out' && grep -q -- '--no-profile' '$nb_tmp/out'"
check_quiet "... which still runs crypto without one" "$NETBENCH" crypto -c 127.0.0.1:5394 \
	--algo aes-128-cbc -e soft -s 64 -t 0.05
echo "1..$n"
