#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The demo (make demo): installs what is missing, brings the namespace lab up, runs every
# netbench capability this build has through it, writes each result as JSON plus summary.txt
# into results/<time>/, tears the lab down, and prints where the results are. Under 5 minutes.
# Without root it says so and runs what loopback allows. Usage: sh tests/demo.sh BUILD_DIR
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
nb=$(cd "$build" 2>/dev/null && pwd)/netbench
[ -x "$nb" ] || { echo "demo: $build/netbench is not built (run make first)" >&2; exit 1; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${NB_DEMO_OUT:-$top/results/$stamp}
mkdir -p "$out" || exit 1
summary=$out/summary.txt
t0=$(date +%s)
budget_s=${NB_DEMO_BUDGET_S:-280}
sink=198.19.0.1
agent_pid_file=""
agent_dir=""
lab_is_up=0
failed=0

say() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $(($(date +%s) - t0)); }

# netbench's own subcommand list and each subcommand's --help decide what runs and how.
has_cmd() { "$nb" --help 2>/dev/null | grep -q "^  $1 "; }
has_opt() { "$nb" "$1" --help 2>/dev/null | grep -q -- "$2"; }

# step NAME MAX_SECONDS COMMAND...: stdout to NAME.json, stderr to NAME.err, one summary line.
step() {
	name=$1 max=$2
	shift 2
	left=$((budget_s - $(elapsed) - 15))
	if [ "$left" -lt 5 ]; then
		say "$(printf '%-22s skipped: the 5-minute budget is spent' "$name")"
		return 1
	fi
	[ "$max" -gt "$left" ] && max=$left
	s=$(date +%s)
	timeout -k 5 "$max" "$@" >"$out/$name.json" 2>"$out/$name.err"
	rc=$?
	d=$(($(date +%s) - s))
	[ -s "$out/$name.err" ] || rm -f "$out/$name.err"
	if [ "$rc" -eq 0 ] && [ -s "$out/$name.json" ]; then
		say "$(printf '%-22s ok      %4ss  %s.json' "$name" "$d" "$name")"
		return 0
	fi
	[ -s "$out/$name.json" ] || rm -f "$out/$name.json"
	failed=$((failed + 1))
	why="exit $rc"
	[ "$rc" -eq 124 ] && why="timed out after ${max}s"
	first=$(grep -v '^$' "$out/$name.err" 2>/dev/null | head -1)
	say "$(printf '%-22s FAILED  %4ss  %s%s' "$name" "$d" "$why" "${first:+: $first}")"
	return 1
}
skip() { say "$(printf '%-22s skipped: %s' "$1" "$2")"; }

cleanup() {
	if [ "$lab_is_up" -eq 1 ]; then
		"$nb" lab down -J >"$out/lab-down.json" 2>/dev/null || "$nb" lab down >/dev/null 2>&1
		lab_is_up=0
	fi
	if [ -n "$agent_pid_file" ] && [ -s "$agent_pid_file" ]; then
		kill "$(cat "$agent_pid_file")" 2>/dev/null
	fi
	[ -n "$agent_dir" ] && rm -rf "$agent_dir"
}
trap cleanup EXIT
trap 'say "demo: interrupted"; exit 1' INT TERM HUP

sh "$top/tests/deps.sh" || echo "demo: installing packages failed; going on with what is there" >&2

{
	echo "netbench demo, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "$("$nb" --version), host $(uname -n), kernel $(uname -r), $(uname -m), $(nproc) CPUs"
} >"$summary"
cat "$summary"

# The options a test takes to run briefly, where its --help offers them.
short() { # subcommand: prints extra args
	if has_opt "$1" "--quick"; then printf ' --quick'
	elif has_opt "$1" "--time"; then printf ' --time 2'
	fi
}

if [ "$(id -u)" -eq 0 ]; then
	gen=nbgen
	[ -n "${NB_LAB_PREFIX:-}" ] && gen=$NB_LAB_PREFIX-gen
	taken() { [ -e "/run/netns/$1-gen" ] || [ -e "/run/netns/$1-dut" ] || [ -e "/run/netns/$1-sink" ] ||
		[ -e "/run/netbench-lab/$1" ]; }
	if [ -z "${NB_LAB_PREFIX:-}" ] && { "$nb" lab status >/dev/null 2>&1 || [ -e /run/netns/nbgen ] ||
		[ -e /run/netns/nbdut ] || [ -e /run/netns/nbsink ]; }; then
		# The default lab is someone's (another user's demo, a lab being used): run beside
		# it under a free prefix, and leave it alone.
		i=1
		while [ $i -lt 100 ] && taken "nbdemo$i"; do i=$((i + 1)); done
		if [ $i -ge 100 ]; then
			say "demo: the default lab and nbdemo1..nbdemo99 are all taken; set NB_LAB_PREFIX"
			exit 1
		fi
		NB_LAB_PREFIX=nbdemo$i
		export NB_LAB_PREFIX
		gen=$NB_LAB_PREFIX-gen
		say "demo: a lab is already up as nbgen ...; it is left alone, the demo's lab is $gen ..."
	elif [ -n "${NB_LAB_PREFIX:-}" ] && taken "$NB_LAB_PREFIX"; then
		say "demo: a lab is already up as $gen ...; it is left alone. Remove it with"
		say "      'netbench lab down --prefix $NB_LAB_PREFIX' or choose another NB_LAB_PREFIX."
		exit 1
	fi
	say "mode: root, namespace lab (gen -> DUT -> sink, agent on $sink)"
	say ""
	agent_opt=""
	if ! has_opt serve "--pid-file"; then
		agent_opt="--no-agent"
		say "(this build's serve cannot run as the lab's agent: lab without agent)"
	fi
	lab_is_up=1
	# shellcheck disable=SC2086
	if ! step lab-up 30 "$nb" lab up $agent_opt -J; then
		sed 's/^/  /' "$out/lab-up.err" 2>/dev/null | tee -a "$summary"
		exit 1
	fi
	step lab-status 20 "$nb" lab status -J
	in_gen="ip netns exec $gen"
	via="through the DUT"
	target=$sink
	port_args=""
else
	say "mode: not root: the namespace lab needs root (run 'sudo make demo' for it);"
	say "      running what loopback allows"
	say ""
	in_gen=""
	via="on loopback"
	target=127.0.0.1
	port=15301
	port_args="-p $port"
	agent_dir=$(mktemp -d /tmp/netbench-demo.XXXXXX)
	agent_pid_file=$agent_dir/agent.pid
	if has_cmd serve && "$nb" serve -D --pid-file "$agent_pid_file" -B 127.0.0.1 -p $port \
		>"$out/serve.err" 2>&1; then
		rm -f "$out/serve.err"
		sleep 0.3
	else
		skip serve "netbench serve -D did not start (see serve.err)"
	fi
fi

# tput: netio-style sweep through the DUT to the sink's agent.
if has_cmd tput; then
	# shellcheck disable=SC2046,SC2086
	step tput 90 $in_gen "$nb" tput -c $target $port_args -J $(short tput)
else
	skip tput "this build has no tput"
fi

# rate: frames/s through the DUT at four RFC 2544 sizes, then the firewall scaling sweep: the
# DUT loaded with 0, 100 and 1000 nftables rules of kinds linear and set in turn, at 128-byte
# frames (the size the firewall vendor measured), each with rate's fit of ns per frame and per
# rule. A shared machine's other work moves single trials by tens of per cent, so the sweep runs
# three times (kinds' order alternating) and the summary shows the median of each point.
if has_cmd rate; then
	# shellcheck disable=SC2086
	step rate 60 $in_gen "$nb" rate -c $target $port_args -s 64,128,512,1518 --quick -J
	if [ "$(id -u)" -ne 0 ]; then
		skip rule-sweep "needs the lab (root)"
	else
		for i in 1 2 3; do
			kinds=linear,set
			[ $i -eq 2 ] && kinds=set,linear
			# The first sweep also profiles the DUT's kernel: where its CPU went (997 Hz: a quick
			# sweep's short trials want more samples than the default 49 Hz gives).
			prof=""
			[ $i -eq 1 ] && prof=--profile=997
			# shellcheck disable=SC2086
			step rule-sweep-$i 60 $in_gen "$nb" rate -c $target -s 128 --quick \
				--sweep-rules 0,100,1000 --kind $kinds $prof -J
		done
	fi
else
	skip rate "this build has no rate"
	skip rule-sweep "this build has no rate"
fi

if has_cmd stream; then
	# stream takes -p as its UDP port (as mcsend/mcrecv): the agent port is --ctl-port.
	# shellcheck disable=SC2046,SC2086
	step stream 60 $in_gen "$nb" stream -c $target ${port:+--ctl-port $port} -J $(short stream)
else
	skip stream "this build has no stream"
fi

# Local capabilities: the CPU and the memory bus behind the frame rate.
for c in crypto mem; do
	if has_cmd $c; then
		# shellcheck disable=SC2046
		step $c 60 "$nb" $c -J $(short $c)
	else
		skip $c "this build has no $c"
	fi
done

if [ "$lab_is_up" -eq 1 ]; then
	step lab-status-end 20 "$nb" lab status -J
	step lab-down 30 "$nb" lab down -J && lab_is_up=0
fi

# tput's steps in one line each (the JSON has all of it, with the CPU load of both ends).
if [ -s "$out/tput.json" ]; then
	say ""
	say "tput $via (see tput.json):"
	awk -F': ' '
		/"block_bytes"/ { b = $2 + 0; d = ""; v = "" }
		/"direction"/ && b { d = $2; gsub(/[",]/, "", d) }
		/"valid"/ && d != "" && v == "" { v = $2; gsub(/,/, "", v) }
		/"mbit_per_s"/ && d != "" {
			m = $2; gsub(/,/, "", m)
			printf "  %6d bytes  %-3s  %s\n", b, d, (v == "true" ? m " Mbit/s" : "invalid")
			b = 0; d = ""
		}' "$out/tput.json" | tee -a "$summary"
fi

# rate's four sizes in one line each.
if [ -s "$out/rate.json" ]; then
	say ""
	say "rate $via (see rate.json):"
	awk -F': ' '
		function v(x) { gsub(/[",]/, "", x); return x }
		/^      "frame_bytes"/ { b = v($2) }
		/^      "fps"/ { fps = v($2) }
		/^      "mbit_per_s"/ { m = v($2) }
		/^      "generator_max"/ { g = v($2) }
		/^      "valid"/ {
			if (v($2) == "true")
				printf "  %5s B  %10.0f fps  %8.1f Mbit/s%s\n", b, fps, m, g == "true" ? "  (the generator'"'"'s maximum)" : ""
			else
				printf "  %5s B  invalid\n", b
		}' "$out/rate.json" | tee -a "$summary"
	grep -m1 '"verdict"' "$out/rate.json" | sed 's/^ *"verdict": "\(.*\)",*$/  verdict: \1/' |
		tee -a "$summary"	# The DUT's view: each size's bottleneck as the observer in the DUT counted it (the lab's
	# DUT is observed by default), with the counters that decided it.
	awk -F': ' '
		/^      "frame_bytes"/ { b = $2; gsub(/[",]/, "", b) }
		/^      "bottleneck": \{/ { inb = 1 }
		inb && /^        "text"/ {
			t = $0; sub(/^ *"text": "/, "", t); sub(/",?$/, "", t)
			printf "  bottleneck %s B: %s\n", b, t; inb = 0
		}' "$out/rate.json" | tee -a "$summary"
	grep -q '"observers"' "$out/rate.json" &&
		say "  (the DUT's CPUs, softnet, NIC, qdisc and conntrack counters per trial: \"observers\" in rate.json)"
fi
# The firewall scaling table (median fps per rule count per kind over the sweeps that ran),
# netbench lab fit over those medians, and each sweep's own fit as rate computed it.
sweeps=$(ls "$out"/rule-sweep-[0-9].json 2>/dev/null)
if [ -n "$sweeps" ]; then
	# kind rules fps per valid point, and the fits: "fit kind base per_rule residual"
	# shellcheck disable=SC2086
	awk -F': ' '
		function v(x) { gsub(/[",]/, "", x); return x }
		FNR == 1 { s = 0; f = 0 }
		/^  "sweep"/ { s = 1 } /^  "fits"/ { s = 0; f = 1 }
		s && /^      "kind"/ { k = v($2) }
		s && /^      "rules"/ { r = v($2) }
		s && /^          "fps"/ { fps = v($2) }
		s && /^          "valid"/ && v($2) == "true" { print k, r, fps }
		f && /^      "kind"/ { fk = v($2) }
		f && /^      "per_rule_ns"/ { fp = v($2); lo = "null"; hi = "null" }
		f && /^      "per_rule_lo_ns"/ { lo = v($2) }
		f && /^      "per_rule_hi_ns"/ { print "fit", fk, fp, lo, v($2) }' $sweeps >"$out/rule-sweep.points"
	n_sweeps=$(echo "$sweeps" | wc -l)
	median() { # kind rules
		awk -v k="$1" -v r="$2" '$1 == k && $2 == r { print $3 }' "$out/rule-sweep.points" |
			sort -n | awk '{ v[NR] = $1 } END {
				if (NR == 0) print "-"; else if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2];
				else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	}
	say ""
	say "firewall scaling through the DUT, 128-byte frames, median of $n_sweeps sweeps"
	say "(rule-sweep-N.json):"
	say "$(printf '  %8s  %12s  %12s' rules 'linear fps' 'set fps')"
	for r in 0 100 1000; do
		ml=$(median linear $r) ms=$(median set $r)
		say "$(printf '  %8s  %12s  %12s' $r "$ml" "$ms")"
	done
	# The fit runs over every valid point of every sweep (repeats included: their spread is the
	# noise the slope's 95 % interval has to clear), not over the medians.
	for kind in linear set; do
		pts=$(awk -v k=$kind '$1 == k { printf " %s:%s", $2, $3 }' "$out/rule-sweep.points")
		# shellcheck disable=SC2086,SC2154
		if "$nb" lab fit $pts -J >"$out/rule-sweep-fit-$kind.json" 2>/dev/null; then
			fit=$("$nb" lab fit $pts | tail -1)
			say "$(printf '  fit %-7s %s' $kind "$fit")"
		else
			rm -f "$out/rule-sweep-fit-$kind.json"
			say "$(printf '  fit %-7s none (too few valid points)' $kind)"
		fi
		say "$(printf '      %-7s %s' '' "each sweep's fit: $(awk -v k=$kind \
			'$1 == "fit" && $2 == k { printf "%s%.1f", n++ ? ", " : "", $3
				if ($4 == "null" || $5 == "null") printf " (no interval)"
				else printf(" (%.1f to %.1f%s)", $4, $5, ($4 > 0 || $5 < 0) ? "" : ", not established") }' \
			"$out/rule-sweep.points") ns per rule")"
	done
	rm -f "$out/rule-sweep.points"
	# Where the DUT's CPU went at 1000 linear rules: the kernel profile of the trial the first
	# sweep judged its bottleneck on (rate --profile), one line.
	pl=$(awk -F': ' '
		function v(x) { gsub(/[",]/, "", x); return x }
		function w(x) { sub(/^"/, "", x); sub(/",?$/, "", x); return x }
		/^  "sweep"/ { s = 1 } /^  "fits"/ { s = 0 }
		s && /^      "kind"/ { k = v($2) }
		s && /^      "rules"/ { r = v($2) }
		s && k == "linear" && r == 1000 && /^              "id"/ { id = v($2) }
		s && k == "linear" && r == 1000 && /"profile_line"/ { t = $0; sub(/^[^:]*: /, "", t); line[id] = w(t) }
		s && k == "linear" && r == 1000 && /"bottleneck_trial"/ { b = v($2) }
		END { if (b != "" && line[b] != "") print line[b] }' "$out/rule-sweep-1.json" 2>/dev/null)
	if [ -n "$pl" ]; then
		say "  DUT at 1000 linear rules, kernel profile (rule-sweep-1.json):"
		say "    $pl"
	fi
fi
# Keep the runs: every result goes into the results store beside the results directories, with
# a label (NB_DEMO_LABEL: name what this run changed, e.g. a ruleset or --dut-cpus), and one
# report draws this demo's runs beside those of earlier demos in the same store.
# A build without SQLite says so; a store that does not exist yet is not that (read commands
# never create one).
if has_cmd results && ! "$nb" results list --db "$out/.probe.db" 2>&1 | grep -q 'no SQLite'; then
	rm -f "$out/.probe.db"*
	db=${NETBENCH_DB:-$(dirname "$out")/netbench.db}
	label=${NB_DEMO_LABEL:-demo $(uname -n) $stamp}
	docs=$(ls "$out"/*.json 2>/dev/null | grep -v '/lab-[^/]*\.json$')
	say ""
	# shellcheck disable=SC2086
	if [ -n "$docs" ] && "$nb" results import --db "$db" --label "$label" $docs >/dev/null 2>"$out/store.err" &&
		"$nb" report --db "$db" -o "$out/report.html" --title "netbench demo" 2>>"$out/store.err"; then
		rm -f "$out/store.err"
		say "stored in $db as \"$label\" ($(echo "$docs" | wc -l) results);"
		say "side by side with earlier runs: netbench compare --db $db"
		say "report: $out/report.html"
		say "open it with: xdg-open $out/report.html"
	else
		failed=$((failed + 1))
		say "storing the results or writing the report FAILED: see store.err"
	fi
else
	rm -f "$out/.probe.db"*
	say ""
	say "(this build has no results store: rebuild with libsqlite3-dev for netbench report)"
fi
say ""
[ "$failed" -gt 0 ] && say "$failed step(s) FAILED: see the .err files"
say "finished in $(elapsed) s; results: $out"
[ "$failed" -eq 0 ]
