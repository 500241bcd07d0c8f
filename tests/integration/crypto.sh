#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench crypto end to end: --quick runs and prints a checked table, --json parses and holds
# the numbers, kernel engines missing here are reported unavailable with a reason, bad input
# exits 2 with one line naming the option. Creates only temporary files (removed on exit).
nb=${NETBENCH:?NETBENCH must name the binary}
tmp=$(mktemp -d /tmp/nbtcry.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$1"; then ok "$2"; else nok "$2"; fi; }

# Is the soft engine built in (OpenSSL)? Without it the run must say so and exit 1.
soft=1
"$nb" crypto --engine soft --algo hmac-sha1 --sizes 64 --time 20ms >"$tmp/probe" 2>&1 || soft=0

start=$(date +%s)
if [ "$soft" -eq 1 ]; then
	"$nb" crypto --quick >"$tmp/quick.txt" 2>"$tmp/quick.err"
	rc=$?
	check '[ $rc -eq 0 ]' "--quick exits 0 (rc $rc)"
	check '[ $(($(date +%s) - start)) -le 10 ]' "--quick finishes in seconds"
	check 'grep -q "checked: known answer" "$tmp/quick.txt"' "soft engine checked against known answers"
	check '[ $(grep -c "^ *1420  soft " "$tmp/quick.txt") -eq 8 ]' "eight algorithms timed at 1420 bytes"
	check 'grep -q "aes-128-cbc-hmac-sha1" "$tmp/quick.txt"' "the IPsec transform is measured"
else
	check 'grep -q "without OpenSSL" "$tmp/probe"' "without OpenSSL the soft engine says what is missing"
	echo "ok $((n + 1)) # SKIP soft engine not built (no OpenSSL): no table to check"; n=$((n + 1))
fi

# Kernel engines: available, or unavailable with a reason (this machine has neither).
"$nb" crypto --engine devcrypto,afalg --algo aes-128-cbc --sizes 64 --time 20ms \
	>"$tmp/kern.txt" 2>"$tmp/kern.err"
krc=$?
for e in devcrypto afalg; do
	if grep -q "$e (unavailable)" "$tmp/kern.txt"; then
		check 'grep -Eq "^  $e: .{20,}" "$tmp/kern.txt"' "$e unavailable, with a reason: $(grep "^  $e:" "$tmp/kern.txt" | cut -c1-90)"
	else
		check 'grep -Eq "^ +64  $e |$e +(unsupported|broken|failed)" "$tmp/kern.txt"' "$e available: timed or reported"
	fi
done
if grep -q "(available)" "$tmp/kern.txt"; then
	check '[ $krc -eq 0 ] || grep -q "no engine could run" "$tmp/kern.err"' "kernel engines run"
else
	check '[ $krc -eq 1 ] && grep -q "no engine could run" "$tmp/kern.err"' "nothing to run: exit 1 with a message"
fi

# JSON (checked with python3, which the test machine has; skipped where it does not).
if ! command -v python3 >/dev/null 2>&1; then
	echo "ok $((n + 1)) # SKIP python3 not installed: JSON not checked"
	echo "1..$((n + 1))"
	exit 0
fi
"$nb" crypto --json --engine all --algo aes-128-gcm,hmac-sha256 --sizes 64,1420 --time 100ms \
	>"$tmp/out.json" 2>"$tmp/json.err"
jrc=$?
check 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out.json"' "--json parses (rc $jrc)"
cat >"$tmp/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
soft = sys.argv[2] == "1"
assert d["schema"] == "netbench/1" and d["test"] == "crypto", "schema/test"
assert "env" in d and d["parameters"]["sizes_bytes"] == [64, 1420], "parameters"
eng = {e["name"]: e for e in d["engines"]}
assert set(eng) == {"soft", "devcrypto", "afalg"}, eng
for e in eng.values():
    assert e["available"] or len(e.get("reason", "")) > 10, ("no reason", e)
res = {(r["algo"], r["engine"]): r for r in d["results"]}
assert len(res) == 6, len(res)
for r in res.values():
    assert r["status"] in ("ok", "unavailable", "unsupported", "broken", "failed"), r
    if r["status"] != "ok":
        assert r["reason"], r
if soft:
    r = res[("aes-128-gcm", "soft")]
    assert r["status"] == "ok" and "known answer" in r["check"], r
    valid = [p for p in r["points"] if p["valid"]]
    # A starved thread (a busy shared machine) gives an invalid point, with its reason.
    assert all(p.get("invalid_reason") for p in r["points"] if not p["valid"]), r["points"]
    assert valid, r["points"]
    for p in valid:
        assert p["ops"] > 0, p
        mbps = p["ops"] * p["size_bytes"] / p["window_s"] / 1e6
        assert abs(mbps - p["mbyte_per_s"]) <= 0.01 * mbps + 0.01, (mbps, p["mbyte_per_s"])
        assert p["latency_p99_us"] >= p["latency_p50_us"] > 0, p
        assert "proc_cpu_s" in p["cpu"], p
print("json ok")
PY
python3 "$tmp/check.py" "$tmp/out.json" $soft >"$tmp/check.out" 2>&1
crc=$?
check '[ $crc -eq 0 ]' "JSON holds engines, reasons and reconciling numbers: $(tail -1 "$tmp/check.out")"

# Bad input: exit 2, one line naming the option.
bad() { # what, args...
	what=$1; shift
	"$nb" crypto "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	r=$?
	check '[ $r -eq 2 ] && grep -q -- "$what" "$tmp/bad.err" && [ ! -s "$tmp/bad.out" ]' "bad input '$*' exits 2 naming $what"
}
bad --algo --algo rot13
bad --engine --engine qat
bad --sizes --sizes 0
bad --sizes --sizes 128k
bad --inflight --inflight 0
bad --time --time 5ms
bad --aad --aad 65
bad unexpected extra
"$nb" crypto --help >"$tmp/help" 2>&1
check '[ $? -eq 0 ] && grep -q -- "--inflight" "$tmp/help"' "--help exits 0"
check 'python3 "$(dirname "$0")/../validate_json.py" "$tmp" >"$tmp/schemas.log" 2>&1 || { sed "s/^/# /" "$tmp/schemas.log" | head -20; false; }' "every JSON document validates against docs/schema"
echo "1..$n"
