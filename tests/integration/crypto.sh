#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench crypto end to end: --quick runs and prints a checked table, --json parses and holds
# the numbers, kernel engines missing here are reported unavailable with a reason, bad input
# exits 2 with one line naming the option. Creates only temporary files (removed on exit).
. "$(dirname "$0")/../lib.sh"
nb=$NETBENCH
tmp=$nb_tmp

# Is the soft engine built in (OpenSSL)? Without it the run must say so and exit 1.
soft=1
"$nb" crypto --engine soft --algo hmac-sha1 --sizes 64 --time 20ms >"$tmp/probe" 2>&1 || soft=0

start=$(date +%s)
if [ "$soft" -eq 1 ]; then
	"$nb" crypto --quick >"$tmp/quick.txt" 2>"$tmp/quick.err"
	rc=$?
	check "--quick exits 0 (rc $rc)" test $rc -eq 0
	check "--quick finishes in seconds" test $(($(date +%s) - start)) -le 10
	check "soft engine checked against known answers" grep -q "checked: known answer" "$tmp/quick.txt"
	check "eight algorithms timed at 1420 bytes" test "$(grep -c "^ *1420  soft " "$tmp/quick.txt")" -eq 8
	check "the IPsec transform is measured" grep -q "aes-128-cbc-hmac-sha1" "$tmp/quick.txt"
else
	check "without OpenSSL the soft engine says what is missing" grep -q "without OpenSSL" "$tmp/probe"
	skip "soft engine not built (no OpenSSL): no table to check"
fi

# Kernel engines: available, or unavailable with a reason (this machine has neither).
"$nb" crypto --engine devcrypto,afalg --algo aes-128-cbc --sizes 64 --time 20ms \
	>"$tmp/kern.txt" 2>"$tmp/kern.err"
krc=$?
for e in devcrypto afalg; do
	if grep -q "$e (unavailable)" "$tmp/kern.txt"; then
		check "$e unavailable, with a reason: $(grep "^  $e:" "$tmp/kern.txt" | cut -c1-90)" \
			grep -Eq "^  $e: .{20,}" "$tmp/kern.txt"
	else
		check "$e available: timed or reported" \
			grep -Eq "^ +64  $e |$e +(unsupported|broken|failed)" "$tmp/kern.txt"
	fi
done
if grep -q "(available)" "$tmp/kern.txt"; then
	check "kernel engines run" sh -c "[ $krc -eq 0 ] || grep -q 'no engine could run' '$tmp/kern.err'"
else
	check "nothing to run: exit 1 with a message" sh -c "[ $krc -eq 1 ] && grep -q 'no engine could run' '$tmp/kern.err'"
fi

# ESP's transform by driver: the commas inside the driver name's parentheses are the name's
# (the list was cut there: "unknown engine 'cbc(aes-generic))'"); parentheses that do not match
# are refused naming the item.
esp='afalg:authenc(hmac(sha1-generic),cbc(aes-generic))'
"$nb" crypto -e "$esp" -a aes-128-cbc-hmac-sha1 --sizes 64 --time 20ms >"$tmp/esp.txt" 2>"$tmp/esp.err"
erc=$?
check "-e '$esp' is one engine (rc $erc: $(head -c 120 "$tmp/esp.err"))" sh -c \
	"[ $erc -ne 2 ] && grep -qF 'engines $esp (' '$tmp/esp.txt'"
check_refused "-e 'afalg:cbc(aes' exits 2: parentheses do not match" 2 "parentheses" \
	"$nb" crypto -e 'soft,afalg:cbc(aes'

# JSON (checked with python3, which the test machine has; skipped where it does not).
if ! command -v python3 >/dev/null 2>&1; then
	skip "python3 not installed: JSON not checked"
	echo "1..$n"
	exit 0
fi
"$nb" crypto --json --engine all --algo aes-128-gcm,hmac-sha256 --sizes 64,1420 --time 100ms \
	>"$tmp/out.json" 2>"$tmp/json.err"
jrc=$?
check "--json parses (rc $jrc)" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out.json"
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
    # Each point in --repeat parts (default 3): its interval from them.
    assert d["parameters"]["repeat"] == 3, d["parameters"]
    for p in valid:
        assert p["windows"] == 3 and p["mbyte_per_s_ci95"] is not None and p["mbyte_per_s_ci95"] >= 0, p
    # The system's figure is given only where it holds the process's CPU time.
    for p in valid:
        c = p["cpu"]
        inside = c["valid"] and c["proc_cpu_s"] <= c["sys_busy_cpu_s"] * 1.05 + 0.02 * c["cpu_count"]
        assert c["consistent"] == inside, c
        assert (p["sys_cpu_us_per_kbyte"] is None) == (not c["consistent"]), p
print("json ok")
PY
python3 "$tmp/check.py" "$tmp/out.json" $soft >"$tmp/check.out" 2>&1
crc=$?
check "JSON holds engines, reasons and reconciling numbers: $(tail -1 "$tmp/check.out")" test $crc -eq 0

# Bad input: exit 2, one line naming the option.
check_refused "bad input '--algo rot13' exits 2 naming --algo" 2 "--algo" "$nb" crypto --algo rot13
check_refused "bad input '--engine qat' exits 2 naming --engine" 2 "--engine" \
	"$nb" crypto --engine qat
check_refused "bad input '--sizes 0' exits 2 naming --sizes" 2 "--sizes" "$nb" crypto --sizes 0
check_refused "bad input '--sizes 128k' exits 2 naming --sizes" 2 "--sizes" \
	"$nb" crypto --sizes 128k
check_refused "bad input '--inflight 0' exits 2 naming --inflight" 2 "--inflight" \
	"$nb" crypto --inflight 0
check_refused "bad input '--time 5ms' exits 2 naming --time" 2 "--time" "$nb" crypto --time 5ms
check_refused "bad input '--aad 65' exits 2 naming --aad" 2 "--aad" "$nb" crypto --aad 65
check_refused "bad input '--repeat 0' exits 2 naming --repeat" 2 "--repeat" "$nb" crypto --repeat 0
check_refused "bad input 'extra' exits 2 naming unexpected" 2 "unexpected" "$nb" crypto extra
"$nb" crypto --help >"$tmp/help" 2>&1
check "--help exits 0" sh -c "[ $? -eq 0 ] && grep -q -- '--inflight' '$tmp/help'"
check_quiet "every JSON document validates against docs/schema" \
	python3 "$(dirname "$0")/../validate_json.py" "$tmp/out.json"
echo "1..$n"
