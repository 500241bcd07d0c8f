#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench mem end to end: --quick runs in seconds and prints its three tables, the JSON parses
# and carries the schema, latency grows from the smallest working set to the largest, and bad
# input is refused with exit status 2. Needs no root and no network.
. "$(dirname "$0")/../lib.sh"
tmp=$nb_tmp

start=$(date +%s)
"$NETBENCH" mem --quick >"$tmp/human.txt" 2>"$tmp/human.err"
rc=$?
secs=$(($(date +%s) - start))
check "--quick exits 0 (took ${secs}s)" test "$rc" -eq 0
# Under 5 s alone; the bound is looser because other tests share the CPUs.
check "--quick finishes within 15 s (took ${secs}s)" test "$secs" -le 15
check "human output has the latency table" grep -q 'working set *ns/load *cycles/load' "$tmp/human.txt"
check "human output has the caches table" grep -q '^Caches: inferred' "$tmp/human.txt"
check "human output has the bandwidth table" grep -q 'read MB/s *write MB/s *copy MB/s' "$tmp/human.txt"
check "human output names the memory latency" grep -q 'memory latency: [0-9.]* ns' "$tmp/human.txt"

"$NETBENCH" mem --quick --max 64M --threads 2 -J >"$tmp/out.json" 2>"$tmp/json.err"
check "--quick -J exits 0" test $? -eq 0
check "JSON parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out.json"
check "JSON has schema netbench/1, test mem and the environment" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "netbench/1" and d["test"] == "mem", d.get("test")
assert d["env"]["local"]["arch"]
assert d["parameters"]["max_bytes"] == 64 << 20 and d["parameters"]["threads"] == 2
' "$tmp/out.json"
check "latency grows from the smallest set to the largest" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["latency"]["points"]
first, last = p[0], p[-1]
print("#", first["set_bytes"], first["ns_per_load"], "ns ->", last["set_bytes"], last["ns_per_load"], "ns")
assert first["set_bytes"] == 1024 and last["set_bytes"] == 64 << 20
assert 0 < first["ns_per_load"] < last["ns_per_load"]
' "$tmp/out.json"
check "bandwidth for 1 and 2 threads, every figure positive" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["bandwidth"]["results"]
assert [x["threads"] for x in r] == [1, 2]
for x in r:
    for k in ("read_mbyte_per_s", "write_mbyte_per_s", "copy_mbyte_per_s"):
        assert x[k] > 0, (k, x[k])
    assert "valid" in x["cpu"] and "sys_busy_pct" in x["cpu"], x["cpu"]
' "$tmp/out.json"
check "--quick: the buffer is 4x the last-level cache, capped at 64M (and then named so)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sysfs = [c["size_bytes"] for c in d["caches"]["sysfs"] if c["type"] != "Instruction"]
inferred = [c["size_bytes"] for c in d["caches"]["inferred"]]
llc = max(sysfs) if sysfs else max(inferred) if inferred else 0
b = d["bandwidth"]
print("#", b, "llc", llc)
assert b["buffer_bytes"] <= 64 << 20, b
if llc and not d["capped_by_memory"]:
    want = max(4 * llc, 1 << 20)
    if want > 64 << 20:
        assert b["buffer_bytes"] == 64 << 20 and b["buffer_bytes_from"] == "quick cap", b
    else:
        assert b["buffer_bytes"] == want and b["buffer_bytes_from"] != "quick cap", b
    assert b["buffer_beyond_llc"] == (b["buffer_bytes"] > llc), b
' "$tmp/out.json"
check "--quick: the human output notes a capped buffer" sh -c '
if grep -q "(quick cap)" "$1"; then grep -q "note: --quick caps the buffer" "$1"; fi' sh "$tmp/human.txt"

check_refused "--min below 1k" 2 "netbench mem: " "$NETBENCH" mem --min 100
check_refused "--min above --max" 2 "netbench mem: " "$NETBENCH" mem --min 8M --max 4M
check_refused "unknown pattern" 2 "netbench mem: " "$NETBENCH" mem --pattern zigzag
check_refused "zero threads" 2 "netbench mem: " "$NETBENCH" mem --threads 0
check_refused "size without a number" 2 "netbench mem: " "$NETBENCH" mem --max lots
check_refused "unknown option" 2 "netbench mem: " "$NETBENCH" mem --frobnicate
# The 32-bit big-endian PowerPC build runs the probe under qemu-ppc: the chain's pointers are
# 4 bytes there and the byte order differs, and the latency ordering must still hold (qemu-user's
# loads are the host's loads).
TOP=${TOP:-.}
if command -v powerpc-linux-gnu-gcc >/dev/null && command -v qemu-ppc >/dev/null; then
	if make -s -C "$TOP" CC=powerpc-linux-gnu-gcc STATIC=1 BUILD="$tmp/ppc" -j2 \
		"$tmp/ppc/netbench" >"$tmp/ppc.log" 2>&1; then
		qemu-ppc "$tmp/ppc/netbench" mem --quick --max 8M --bw-size 4M --threads 2 -J \
			>"$tmp/ppc.json" 2>"$tmp/ppc.err"
		check "PowerPC build runs mem --quick under qemu-ppc" test $? -eq 0
		check "PowerPC JSON: big-endian ppc, latency grows 1 KiB -> 8 MiB" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["env"]["local"]["byte_order"] == "big", d["env"]["local"]
p = d["latency"]["points"]
print("#", d["env"]["local"]["arch"], p[0]["ns_per_load"], "ns ->", p[-1]["ns_per_load"], "ns")
assert p[-1]["set_bytes"] == 8 << 20 and 0 < p[0]["ns_per_load"] < p[-1]["ns_per_load"]
' "$tmp/ppc.json"
	else
		notok "PowerPC build of netbench (see below)"
		sed 's/^/# /' "$tmp/ppc.log" | tail -20
	fi
else
	skip "powerpc-linux-gnu-gcc or qemu-ppc missing (tests/deps.sh installs them)"
fi

"$NETBENCH" mem --help >"$tmp/help.txt"
check "--help exits 0 and lists --pattern" grep -q -- '--pattern' "$tmp/help.txt"
check_quiet "every JSON document validates against docs/schema" \
	python3 "$(dirname "$0")/../validate_json.py" "$tmp"
echo "1..$n"
