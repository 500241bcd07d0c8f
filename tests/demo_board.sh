#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The demo on an emulated board (make demo BOARD=armhf, docs/lab.md "Boards"): builds the
# board image, brings the lab up with the board as the DUT and runs the firewall sweep through
# it (0, 100, 1000 rules, linear and set, 128-byte frames: NDR searches; on the ppc board 1000 fps
# trials with the board's CPU, as its eTSEC stops for good once its ring overflows), then with
# the board as the sink: stream receive (the multicast group 239.77.0.1, as seed 002) at 4, 8
# and 12 Mbit/s with 8192-byte datagrams, crypto by driver and memory on the board. Writes each
# result as JSON plus summary.txt into results/<time>-board-ARCH/, stores them under a label
# naming the board beside the namespace lab's demos, and writes the report.
# Root only. Usage: sh tests/demo_board.sh BUILD_DIR ARCH
set -u
build=${1:-build}
arch=${2:-armhf}
top=$(cd "$(dirname "$0")/.." && pwd)
nb=$(cd "$build" 2>/dev/null && pwd)/netbench
[ -x "$nb" ] || { echo "demo: $build/netbench is not built (run make first)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "demo: BOARD=$arch needs root (a lab with an emulated board)" >&2; exit 1; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${NB_DEMO_OUT:-$top/results/$stamp-board-$arch}
mkdir -p "$out" || exit 1
summary=$out/summary.txt
t0=$(date +%s)
P=${NB_LAB_PREFIX:-nbboard}
gen="ip netns exec $P-gen"
failed=0
say() { echo "$*" | tee -a "$summary"; }
# step NAME MAX_SECONDS COMMAND...: stdout to NAME.json, stderr to NAME.err, one summary line.
step() {
	name=$1 max=$2
	shift 2
	s=$(date +%s)
	timeout -k 5 "$max" "$@" >"$out/$name.json" 2>"$out/$name.err"
	rc=$?
	[ -s "$out/$name.err" ] || rm -f "$out/$name.err"
	if [ "$rc" -eq 0 ] && [ -s "$out/$name.json" ]; then
		say "$(printf '%-22s ok      %4ss  %s.json' "$name" "$(($(date +%s) - s))" "$name")"
		return 0
	fi
	[ -s "$out/$name.json" ] || rm -f "$out/$name.json"
	failed=$((failed + 1))
	say "$(printf '%-22s FAILED  %4ss  exit %s: %s' "$name" "$(($(date +%s) - s))" "$rc" \
		"$(grep -v '^$' "$out/$name.err" 2>/dev/null | head -1)")"
	return 1
}
cleanup() { "$nb" lab down --prefix "$P" >/dev/null 2>&1; }
trap cleanup EXIT
trap 'say "demo: interrupted"; exit 1' INT TERM HUP

sh "$top/tests/deps.sh" || echo "demo: installing packages failed; going on with what is there" >&2
if "$nb" lab status --prefix "$P" >/dev/null 2>&1 || [ -e "/run/netns/$P-gen" ]; then
	echo "demo: a lab $P is up; it is left alone (set NB_LAB_PREFIX to run beside it)" >&2
	trap - EXIT
	exit 1
fi
board_dir=$(sh "$top/tests/board/build.sh" "$arch" "$build" 2>"$out/board-build.log")
case "$board_dir" in
SKIP*) echo "demo: no $arch board here: ${board_dir#SKIP }" >&2; exit 1 ;;
esac
[ -f "$board_dir/kernel" ] || { echo "demo: building the board failed (see $out/board-build.log)" >&2; exit 1; }
{
	echo "netbench demo on an emulated $arch board, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "$("$nb" --version), host $(uname -n), kernel $(uname -r), $(nproc) CPUs;"
	echo "board: $(cat "$board_dir/kernel.version"), qemu's machine for $arch (TCG: emulated,"
	echo "compare only with boards emulated on this host)"
	echo ""
} >"$summary"
cat "$summary"

# The board as the DUT: the firewall sweep through it, rulesets loaded through its control port.
# The search starts at 50k frames/s, above what the emulated board forwards: from the
# generator's own maximum (near 1M), --quick's 2 % resolution would stop above the board's
# rate with 1000 linear rules and report 0.
# The ppc board's eTSEC (qemu's model) stops receiving for good once its receive ring overflows
# (docs/lab.md): no search above the board's rate there, but 1000 fps trials at each point,
# whose loss and the board's own CPU (its observer) tell what the rules cost it.
if [ "$arch" = ppc ] && step lab-up-dut 120 "$nb" lab up --prefix "$P" --dut "vm:$arch" --board-dir "$board_dir" -J; then
	step rule-sweep-1 150 $gen "$nb" rate -c 198.19.0.1 -s 128 -m trial -r 1000 -t 2 \
		--lab-prefix "$P" --sweep-rules 0,100,1000 --kind linear,set -J
elif [ "$arch" != ppc ] && step lab-up-dut 120 "$nb" lab up --prefix "$P" --dut "vm:$arch" --board-dir "$board_dir" -J; then
	for i in 1 2; do
		kinds=linear,set
		[ $i -eq 2 ] && kinds=set,linear
		# shellcheck disable=SC2086
		step rule-sweep-$i 150 $gen "$nb" rate -c 198.19.0.1 -s 128 --quick -r 50000 \
			--lab-prefix "$P" --sweep-rules 0,100,1000 --kind $kinds -J
	done
fi
"$nb" lab down --prefix "$P" >/dev/null 2>&1

# The board as the sink: what its kernel and CPUs receive, encrypt and copy.
if step lab-up-sink 120 "$nb" lab up --prefix "$P" --sink "vm:$arch" --board-dir "$board_dir" -J; then
	step stream 90 $gen "$nb" stream -c 198.19.0.1 -a 239.77.0.1 --rates 4M,8M,12M -b 8192 -t 3 -J
	# Crypto by driver (seed 003): the board's virtio-crypto device, a "hardware engine" its
	# kernel drives, against its CPU's drivers (afalg:all would list the host's drivers).
	# The ppc board has no engine at all (qemu has no SEC/talitos, and its image no
	# virtio-crypto): its kernel's software driver alone.
	engines="afalg:virtio_crypto_aes_cbc,afalg:cbc-aes-neonbs,afalg:cbc(aes-generic)"
	[ "$arch" = x86_64 ] && engines="afalg:virtio_crypto_aes_cbc,afalg:cbc-aes-aesni,afalg:cbc(aes-generic)"
	[ "$arch" = ppc ] && engines="afalg:cbc(aes-generic)"
	step crypto 120 $gen "$nb" crypto -c 198.19.0.1 --quick -a aes-128-cbc -e "$engines" -J
	step mem 120 $gen "$nb" mem -c 198.19.0.1 --quick -J
fi
"$nb" lab down --prefix "$P" >/dev/null 2>&1

say ""
for f in "$out"/rule-sweep-*.json; do
	[ -s "$f" ] || continue
	/usr/bin/python3 - "$f" "$arch" <<'EOF' | tee -a "$summary"
import json, sys
d = json.load(open(sys.argv[1]))
name = sys.argv[1].rsplit("/", 1)[1]
if sys.argv[2] == "ppc":
    # Fixed-rate trials: the loss and the board's CPU at each point; no fit (the fps is the
    # rate offered, not one found).
    print("%s (128-byte frames through the board, 1000 fps trials):" % name)
    for p in d["sweep"]:
        t = p["sizes"][0]["trials"][0]
        o = (t.get("observers") or [{}])[0]
        c = (o.get("cpus") or [{}])[0]
        print("  %-7s %5d rules  %d of %d frames lost  board CPU %.1f %% busy, softirq %.1f %%" % (
            p["kind"], p["rules"], t["lost_frames"], t["tx_frames"],
            100 - c.get("idle_pct", 100), c.get("softirq_pct", 0)))
    sys.exit(0)
print("%s (128-byte frames through the board, NDR):" % name)
for p in d["sweep"]:
    s = p["sizes"][0]
    b = (s.get("bottleneck") or {}).get("kind", "")
    print("  %-7s %5d rules  %8.0f fps  %s" % (p["kind"], p["rules"], s["fps"], b))
for f in d["fits"]:
    print("  fit %-6s per-frame cost = %.1f ns + %.3f ns x rules (%d points)" % (
        f["kind"], f["base_ns"], f["per_rule_ns"], f["points"]))
EOF
done
if [ -s "$out/stream.json" ]; then
	/usr/bin/python3 - "$out/stream.json" <<'EOF' | tee -a "$summary"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["receivers"][0]
print("stream received by the board (%s, %s):" % (r["env"]["arch"], r["env"]["kernel"]))
for s in r["steps"]:
    print("  %6.1f Mbit/s asked: %d datagrams, %d lost, cpu %s" % (
        s["rate_bps_asked"] / 1e6, s["datagrams"], s["lost"], s.get("cpu", {}).get("busiest_cpu_pct")))
EOF
fi
db=${NETBENCH_DB:-$(dirname "$out")/netbench.db}
label=${NB_DEMO_LABEL:-board $arch (emulated, TCG) $stamp}
docs=$(ls "$out"/*.json 2>/dev/null | grep -v '/lab-[^/]*\.json$')
# shellcheck disable=SC2086
if [ -n "$docs" ] && "$nb" results import --db "$db" --label "$label" $docs >/dev/null 2>"$out/store.err" &&
	"$nb" report --db "$db" -o "$out/report.html" --title "netbench demo" 2>>"$out/store.err"; then
	rm -f "$out/store.err"
	say ""
	say "stored in $db as \"$label\" ($(echo "$docs" | wc -l) results), beside earlier demos;"
	say "report: $out/report.html"
else
	failed=$((failed + 1))
	say "storing the results or writing the report FAILED: see store.err"
fi
[ "$failed" -gt 0 ] && say "$failed step(s) FAILED: see the .err files"
say "finished in $(($(date +%s) - t0)) s; results: $out"
[ "$failed" -eq 0 ]
