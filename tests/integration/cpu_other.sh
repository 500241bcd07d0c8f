#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Other load in tput and stream: a window that another busy process shared is flagged
# (cpu_polluted, cpu_other_pct, a '*' row and a note in the table), a window on a quiet host is
# not, and the sweep's idle baseline is in the JSON. Agent and controller share this host over
# loopback, so each end's netbench must not count as the other's "other" load.
. "$(dirname "$0")/../lib.sh"
P=5321
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }

run_all() { # tag: tput and stream, JSON and table
	"$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.6 -O 0.2 -l 8k -J >"$nb_tmp/tput-$1.json" 2>"$nb_tmp/err" &&
		"$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.6 -O 0.2 -l 8k --reverse >"$nb_tmp/tput-$1.txt" 2>>"$nb_tmp/err" &&
		"$NETBENCH" stream -c 127.0.0.1 --ctl-port $P -a 127.0.0.1 -p 5322 -r 20M -t 0.6 -J \
			>"$nb_tmp/stream-$1.json" 2>>"$nb_tmp/err" &&
		"$NETBENCH" stream -c 127.0.0.1 --ctl-port $P -a 127.0.0.1 -p 5322 -r 20M -t 0.6 \
			>"$nb_tmp/stream-$1.txt" 2>>"$nb_tmp/err"
}

# The flags of every window, and the baselines, as "name other polluted" lines.
flags() { # tag
	python3 - "$nb_tmp/tput-$1.json" "$nb_tmp/stream-$1.json" <<'PY'
import json, sys
t, s = (json.load(open(f)) for f in sys.argv[1:3])
b = t["cpu_baseline"]
print("baseline", max(b["other_local_pct"], b["other_remote_pct"]), "-")
for x in t["steps"]:
    assert x["valid"], x
    assert x["cpu_polluted"] == (max(x["cpu_other_local_pct"], x["cpu_other_remote_pct"]) > 5), x
    print("tput-" + x["direction"], max(x["cpu_other_local_pct"], x["cpu_other_remote_pct"]), x["cpu_polluted"])
b = s["cpu_baseline"]
print("baseline", max([b["other_local_pct"]] + [a["other_pct"] for a in b["agents"]]), "-")
steps = [("sent", x) for x in s["sent"]] + [("recv", x) for r in s["receivers"] for x in r["steps"]]
assert len(steps) == 2, steps
for name, x in steps:
    assert x["cpu_polluted"] == (x["cpu_other_pct"] > 5), x
    print("stream-" + name, x["cpu_other_pct"], x["cpu_polluted"])
PY
}

# Quiet: on a host where nothing else ran before the sweeps, no window is flagged. A busy host
# (other tests, a build) cannot give a quiet window: the case is skipped, saying why.
check "quiet: tput and stream run" run_all quiet
flags quiet >"$nb_tmp/quiet.flags" 2>&1
check "quiet: every window's flag matches its other load" test $? -eq 0
sed 's/^/# /' "$nb_tmp/quiet.flags"
if awk '$1 == "baseline" && $2 > 2 { busy = 1 } END { exit !busy }' "$nb_tmp/quiet.flags"; then
	skip "quiet: this host was busy before the sweep (other processes over 2 % of a CPU)"
else
	check "quiet: no window flagged as polluted" sh -c "! grep -q ' True$' '$nb_tmp/quiet.flags'"
	check "quiet: no '*' row in the tables" sh -c "! grep -q 'polluted' '$nb_tmp/tput-quiet.txt' '$nb_tmp/stream-quiet.txt'"
fi

# Busy: a spinning shell on CPU 0 for the whole run, its baseline included.
if command -v taskset >/dev/null 2>&1; then
	taskset -c 0 sh -c 'while :; do :; done' &
else
	sh -c 'while :; do :; done' &
fi
busy=$!
nb_pids="$nb_pids $busy"
check "busy: tput and stream run" run_all busy
kill "$busy"
flags busy >"$nb_tmp/busy.flags" 2>&1
check "busy: every window's flag matches its other load" test $? -eq 0
sed 's/^/# /' "$nb_tmp/busy.flags"
check "busy: the idle baselines saw the spinning process (over 50 % of a CPU)" \
	sh -c "awk '\$1 == \"baseline\" && \$2 < 50 { low = 1 } END { exit low }' '$nb_tmp/busy.flags'"
check "busy: every tput and stream window is flagged as polluted" \
	sh -c "! grep -q ' False$' '$nb_tmp/busy.flags' && test \$(grep -c ' True$' '$nb_tmp/busy.flags') -eq 4"
check "busy: the tput CPU table marks the rows and says why" \
	sh -c "grep -Eq '^ +8k +Rx \\|.*[0-9]\\*\$' '$nb_tmp/tput-busy.txt' && grep -q 'other processes used .* the CPU figures are polluted' '$nb_tmp/tput-busy.txt' && grep -q '^idle baseline' '$nb_tmp/tput-busy.txt'"
check "busy: the stream tables mark the rows and say why" \
	sh -c "test \$(grep -c '[0-9]\\*\$' '$nb_tmp/stream-busy.txt') -eq 2 && grep -q 'the CPU figures are polluted' '$nb_tmp/stream-busy.txt' && grep -q '^idle baseline' '$nb_tmp/stream-busy.txt'"
check_schemas "$nb_tmp"
echo "1..$n"
