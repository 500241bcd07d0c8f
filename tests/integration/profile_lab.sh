#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Known answers of the kernel profile on this host's kernel, through the lab with the DUT's
# receive work pinned to CPU 1 (--dut-cpus 1) and the generator on CPU 0:
#   1,000 linear rules: netfilter holds most of the DUT CPU's kernel samples and is its largest
#     kernel category, and its ns per frame (the lower end of its interval) is at least 5x that
#     at 0 rules (the upper end of its interval);
#   a 1,000-element set: netfilter holds no such majority, the same comparison does not establish
#     5x the cost at 0 rules, and it costs a tenth of the linear list's or less;
#   "DUT CPU bound" names netfilter and its ns per frame; the terminal prints the profile line
#     under the CPU table; --profile-folded writes folded stacks that name nft_do_chain;
#   a rule sweep fits netfilter's ns per frame against the rule count beside its own fit.
# The namespace lab shares this host's kernel: the DUT's CPU also runs whatever else the host
# schedules there (other processes' user time, their system calls). The DUT forwards in the
# kernel and runs no process of its own, so the shares are judged over its CPU's kernel samples
# (neither idle nor user); both figures are printed. Each case is run up to three times and
# judged on its best-behaved run, since other work on a shared host can crowd any one of them.
. "$(dirname "$0")/../lib.sh"
need_root
need_tools ip nft python3
P=nbtpf
lab_up $P --dut-cpus 1 || { notok "lab up --prefix $P --dut-cpus 1"; exit 1; }
ok "lab up, the DUT's receive work steered to CPU 1"
rate() { lab_gen_rate $P "$@"; }
check "a slow trial resolves the lab's neighbours" rate "$nb_tmp/warm.json" --test trial -T 0.2 --rate 2k
# --profile without a rate samples at the default, 49 Hz per CPU (what bench/profile-cost costs);
# the known answers below ask for 997 Hz, enough samples in a 1 s window.
rate "$nb_tmp/default.json" --test trial -T 0.3 --rate 2k --profile
check "--profile's default rate is 49 Hz per CPU" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['sizes'][0]['trials'][0]['observers'][0]['profile']
sys.exit(not (p['available'] and p['hz'] == 49))" "$nb_tmp/default.json"

# figures FILE: "SHARE_OF_KERNEL SHARE_OF_ALL NS NS_LO NS_HI LARGEST SAMPLES" of netfilter on
# the DUT's CPU in the document's trial.
figures() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o = d["sizes"][0]["trials"][0]["observers"][0]
p = o["profile"]
if not p or not p["available"]:
    print("unavailable", p and p.get("unavailable")); sys.exit(1)
cats = {c["name"]: c for c in p["categories"]}
kernel = sum(c["samples"] for n, c in cats.items() if n not in ("idle", "user"))
nf = cats["netfilter"]
largest = max((c for n, c in cats.items() if n not in ("idle", "user")),
              key=lambda c: c["samples"])["name"]
ns = nf["ns_per_frame"] if nf["ns_per_frame"] is not None else -1
lo, hi = nf["ns_per_frame_interval"] or (-1, -1)
print("%.4f %.4f %.1f %.1f %.1f %s %d" % (nf["samples"] / max(kernel, 1), nf["share"], ns, lo,
      hi, largest, p["samples"]))
PY
}

# measure NAME KIND RULES: loads the ruleset and runs a 1 s trial with the profile, up to 3 times
# until judge NAME passes; the figures of the last run in $nb_tmp/NAME.fig.
measure() {
	check "ruleset $2 $3 loaded" "$NETBENCH" lab ruleset --prefix $P --kind "$2" --rules "$3"
	i=0
	while [ $i -lt 3 ]; do
		i=$((i + 1))
		rate "$nb_tmp/$1.json" --test trial -T 1 --profile=997 --profile-folded "$nb_tmp/$1.folded"
		figures "$nb_tmp/$1.json" >"$nb_tmp/$1.fig" || { cat "$nb_tmp/$1.fig"; continue; }
		echo "# $1 run $i: netfilter $(cat "$nb_tmp/$1.fig") (kernel share, share, ns, lo, hi, largest, samples)"
		judge_"$1" && break
	done
}
fig() { awk -v k="$2" '{ print $k }' "$nb_tmp/$1.fig"; }
# An idle-heavy window can get far fewer samples than Hz x its length (an idle virtual CPU's
# timer fires late), so the 0-rule run asks only for enough to bound netfilter's share.
judge_zero() { [ "$(fig zero 7)" -ge 150 ]; }
judge_linear() {
	awk -v s="$(fig linear 1)" -v lo="$(fig linear 4)" -v hi0="$(fig zero 5)" \
		'BEGIN { exit !(s > 0.5 && lo >= 5 * hi0) }' && [ "$(fig linear 6)" = netfilter ]
}
# The set: the same comparison that establishes 5x for the linear list (the lower end of its
# interval against 5x the upper end at 0 rules) does not hold, and the set's netfilter costs a
# tenth of the linear list's or less.
judge_set() {
	awk -v s="$(fig set 1)" -v lo="$(fig set 4)" -v hi="$(fig set 5)" -v hi0="$(fig zero 5)" \
		-v lin="$(fig linear 4)" 'BEGIN { exit !(s <= 0.5 && lo < 5 * hi0 && hi * 10 <= lin) }'
}

measure zero linear 0
check "0 rules: a profile of 150 samples or more on the DUT's CPU ($(fig zero 7))" judge_zero
measure linear linear 1000
check "1,000 linear rules: netfilter holds most of the DUT CPU's kernel samples ($(fig linear 1); $(fig linear 2) of all) and is its largest kernel category ($(fig linear 6))" \
	sh -c "awk -v s=$(fig linear 1) 'BEGIN { exit !(s > 0.5) }' && [ $(fig linear 6) = netfilter ]"
check "1,000 linear rules: netfilter's ns per frame $(fig linear 3) (95 % from $(fig linear 4)) is at least 5x that at 0 rules ($(fig zero 3), 95 % up to $(fig zero 5))" \
	awk -v lo="$(fig linear 4)" -v hi0="$(fig zero 5)" 'BEGIN { exit !(lo >= 5 * hi0) }'
python3 - "$nb_tmp/linear.json" >"$nb_tmp/verdict" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["sizes"][0]["bottleneck"]
print(b["kind"], "|", b["text"])
PY
sed 's/^/# /' "$nb_tmp/verdict"
check "\"DUT CPU bound\" names netfilter and its ns per frame" \
	grep -q "^dut_cpu_bound .*where its CPU went: netfilter [0-9]* % (95 % [0-9]*-[0-9]* %, [0-9]* ns/frame)" "$nb_tmp/verdict"
check "the folded stacks name nft_do_chain, one 'frames COUNT' per line" \
	sh -c "grep -q 'nft_do_chain' '$nb_tmp/linear.folded' && ! grep -qv '^[^ ].* [0-9][0-9]*\$' '$nb_tmp/linear.folded'"
measure set set 1000
check "a 1,000-element set: netfilter holds no majority of the DUT CPU's kernel samples ($(fig set 1)), its ns per frame $(fig set 3) (95 % $(fig set 4) to $(fig set 5)) is not established at 5x that at 0 rules (95 % up to $(fig zero 5)), and is a tenth of the linear list's or less" judge_set

# The profile in the store: a category's ns per frame is a metric like any other, so the two
# rulesets compare by subsystem (compare's rate.profile table, the report's chart).
if "$NETBENCH" results list --db "$nb_tmp/probe.db" 2>&1 | grep -q "no SQLite"; then
	skip "this build has no SQLite: no store to compare the profiles in"
else
	DB=$nb_tmp/prof.db
	"$NETBENCH" results import --db "$DB" --label zero "$nb_tmp/zero.json" >/dev/null 2>&1
	"$NETBENCH" results import --db "$DB" --label linear "$nb_tmp/linear.json" >/dev/null 2>&1
	"$NETBENCH" compare --db "$DB" --test rate >"$nb_tmp/cmp.txt" 2>&1
	# One frame size: the table's rows are the size, its columns each label's categories.
	sed -n '/kernel CPU per frame/,/^$/p' "$nb_tmp/cmp.txt" >"$nb_tmp/cmp.prof"
	check "compare: the DUT's kernel CPU per frame by subsystem, linear's netfilter beside the 0-rule run's categories" \
		sh -c "grep -q 'linear: netfilter' '$nb_tmp/cmp.prof' && grep -q 'zero: ' '$nb_tmp/cmp.prof'"
	sed 's/^/# /' "$nb_tmp/cmp.prof"
	"$NETBENCH" report --db "$DB" --test rate -o "$nb_tmp/prof.html" >/dev/null 2>&1
	check "report: a chart of the profile's categories" grep -q 'data-view="rate.profile"' "$nb_tmp/prof.html"
fi

check "ruleset linear 1000 again" "$NETBENCH" lab ruleset --prefix $P --kind linear --rules 1000
taskset -c 0 ip netns exec $P-gen "$NETBENCH" rate --local-rx "$P-sink/198.19.0.1" -s 64 --test trial \
	-T 0.5 --profile=997 >"$nb_tmp/out" 2>&1
sed 's/^/# /' "$nb_tmp/out" | grep -A2 "DUT cpu1 "
check "the terminal prints the profile line under the CPU table" \
	grep -q "^ *DUT cpu1 [0-9]* %: netfilter [0-9]* % ([0-9]* ns/frame)" "$nb_tmp/out"
check "... and the profiler's cost and what the shared kernel's CPU holds" \
	grep -q "profile: 997 Hz per CPU, .* the profiler [0-9.]* % of a CPU .* shared kernel" "$nb_tmp/out"
# A rule sweep with the profile: netfilter's ns per frame per point beside the fit.
rate "$nb_tmp/sweep.json" --sweep-rules 0,1000 --kind linear --quick --lab-prefix $P --profile=997 \
	--profile-folded "$nb_tmp/sweep.folded"
python3 - "$nb_tmp/sweep.json" >"$nb_tmp/sweep.out" 2>&1 <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["fits"][0]
n = f["profile_netfilter"]
print(n["per_rule_ns"], f["per_rule_ns"], n["points"], "|", n["text"])
sys.exit(0 if n["points"] == 2 and n["per_rule_ns"] > 0 and "kernel profile" in n["text"] else 1)
PY
rc=$?
check "sweep: netfilter's ns per rule from the profile beside the fit (profile, fit, points: $(cat "$nb_tmp/sweep.out"))" \
	test "$rc" -eq 0
check "sweep: the folded stacks under each rule count" \
	sh -c "grep -q '^0 linear rules;64 B;' '$nb_tmp/sweep.folded' && grep -q '^1000 linear rules;64 B;.*nft_do_chain' '$nb_tmp/sweep.folded'"
check_schemas "$nb_tmp"
echo "1..$n"
