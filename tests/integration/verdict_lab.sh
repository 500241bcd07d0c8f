#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Known-answer verdicts through the lab, as root: each bottleneck made on purpose and measured
# in several short runs, since a shared host can disturb any one of them:
#   1,000 linear rules, the DUT's work on one CPU   -> dut_cpu_bound
#   a tbf shaper on the DUT's egress                -> egress_bound
#   a sink with the smallest receive buffer         -> receiver_bound
#   no rules, the user's cap (--rate) below both    -> no bottleneck: "the asked maximum
#                                                      (--rate)", never the generator's limit
# Each case must give its verdict in a majority of the runs (how often is printed), and in every
# window of every run the counters may never account for more drops than were lost (such a
# window is "misaligned", never a verdict), a DUT CPU at its limit is always named, and the
# verdict across sizes never calls the DUT unsaturated when a size's bottleneck says otherwise.
# NB_VERDICT_RUNS sets the runs per case (default 5).
. "$(dirname "$0")/../lib.sh"
need_root
need_tools ip nft tc python3
P=nbtvl_$nb_id
RUNS=${NB_VERDICT_RUNS:-5}
lab_up $P --dut-cpus 1 || { notok "lab up --prefix $P --dut-cpus 1"; exit 1; }
ok "lab up, the DUT's receive work steered to CPU 1"

# rate FILE ARGS...: rate from the generator (on CPU 0, lab_gen_rate) into FILE.
rate() { lab_gen_rate $P "$@"; }

# judge FILE WANT: prints the first size's verdict kind; exits 1 when a rule of the verdicts is
# broken in any window of the document (the reason on stderr).
judge() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
for s in d["sizes"]:
    b = s["bottleneck"]
    if b is None:
        continue
    tol = b["lost"] // 100
    if b["kind"] != "misaligned" and b["accounted"] > b["lost"] + tol:
        bad.append("%s: %d accounted for of %d lost" % (b["kind"], b["accounted"], b["lost"]))
    if b["kind"] == "unexplained" and b["accounted"] > b["lost"]:
        bad.append("unexplained with more accounted than lost: %s" % b["text"])
    if b["cpu_at_limit"] and ("cpu%d" % b["busiest_cpu"]) not in b["text"]:
        bad.append("a DUT CPU at its limit not named: %s" % b["text"])
    if b["cpu_at_limit"] and "not saturated" in d.get("verdict", ""):
        bad.append("verdict '%s' beside %s" % (d["verdict"], b["text"]))
    if b["kind"] == "generator_bound" and b["busiest_cpu_pct"] is not None and \
            b["busiest_cpu_pct"] >= 95:
        bad.append("generator bound with the DUT CPU at %s %%" % b["busiest_cpu_pct"])
for t in (t for s in d["sizes"] for t in s["trials"]):
    for o in t.get("observers", []):
        if o["cycles_per_frame"] is not None and o["cycles_per_forwarded_frame"] is not None \
                and o["cycles_per_frame"] > o["cycles_per_forwarded_frame"] + 1e-6:
            bad.append("cycles per ingress frame above cycles per forwarded frame")
for x in bad:
    print("# " + x, file=sys.stderr)
b = d["sizes"][0]["bottleneck"]
print(b["kind"] if b else "none")
open(sys.argv[1] + ".text", "w").write((b["text"] if b else "-") + "\n")
sys.exit(1 if bad else 0)
PY
}

# case_runs NAME WANT ARGS...: RUNS runs of rate ARGS; the verdict WANT in a majority of them,
# and no run breaks a rule. A run that exits 1 (the generator short of --rate on a loaded host)
# still has its verdict judged; one without a document counts as broken.
case_runs() {
	name=$1; want=$2; shift 2
	got=0 broken=0 seen=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		f="$nb_tmp/$name.$i.json"
		rate "$f" "$@"
		if ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null; then
			broken=$((broken + 1)); seen="$seen no-document"
			sed 's/^/# /' "$f.err" | tail -3
			continue
		fi
		k=$(judge "$f" "$want" 2>"$f.why") || { broken=$((broken + 1)); sed 's/^/# /' "$f.why"; }
		seen="$seen $k"
		if [ "$k" = "$want" ]; then got=$((got + 1)); else sed "s/^/# run $i: /" "$f.text"; fi
	done
	echo "# $name: $want in $got of $RUNS runs (verdicts:$seen)"
	if [ -n "$busy_skip" ]; then
		skip "$name: $want in a majority of $RUNS runs: $busy_skip"
	else
		check "$name: $want in a majority of $RUNS runs ($got)" test $((2 * got)) -gt "$RUNS" ||
			sed 's/^/# /' "$nb_tmp/$name.$RUNS.json.text"
	fi
	check "$name: no window accounts for more drops than were lost, the DUT CPU named at its limit" \
		test "$broken" -eq 0
}
busy_skip=""

# A fresh lab's DUT has not resolved the sink's address yet; with its CPU saturated by 1,000
# rules its own ARP exchange can be lost in the full backlog, and every forwarded frame with it
# (a loss no observed counter sees: "unexplained"). A slow trial first resolves the neighbours.
check "a slow trial resolves the lab's neighbours" rate "$nb_tmp/warm.json" --test trial -T 0.2 --rate 2k
check "1,000 linear rules loaded" "$NETBENCH" lab ruleset --prefix $P --kind linear --rules 1000
case_runs cpu dut_cpu_bound --test trial -T 0.5
check "rules flushed" "$NETBENCH" lab ruleset --prefix $P --flush

check "tbf shaper on the DUT's egress" ip netns exec $P-dut tc qdisc add dev dut1 root tbf \
	rate 2mbit burst 8kb latency 20ms
case_runs egress egress_bound --test trial -T 0.5 --rate 20k
check "shaper removed" ip netns exec $P-dut tc qdisc del dev dut1 root

case_runs receiver receiver_bound --test trial -T 0.5 --rate 30k --rcvbuf 1

# The user's cap: nothing is known above it, so no bottleneck is named and the note says the
# rate was the asked maximum. Where other work on this host keeps CPU 1 busy, the verdict names
# it at its limit instead, rightly; the runs are still judged by the rules.
b=$(cpu_busy_pct 1)
echo "# CPU 1 busy $b % with no test traffic"
[ "$b" -ge 50 ] && busy_skip="CPU 1 was $b % busy with no test traffic (other work on this host): the DUT has no room below the asked rate"
case_runs asked none --quick -T 0.3 --rate 5k
if [ -z "$busy_skip" ]; then
	a=$(cat "$nb_tmp"/asked.*.json.text | grep -c "the asked maximum (--rate)")
	check "asked: the note says the asked maximum (--rate), not the generator's, in a majority ($a of $RUNS)" \
		test $((2 * a)) -gt "$RUNS"
fi
busy_skip=""
check_schemas "$nb_tmp"
