#!/bin/sh
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
	if "$nb" lab status >/dev/null 2>&1 || [ -e "/run/netns/$gen" ]; then
		say "demo: a lab is already up ($gen ...); it is left alone. Remove it with"
		say "      'netbench lab down' or set NB_LAB_PREFIX to run the demo beside it."
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
	target=$sink
	port_args=""
else
	say "mode: not root: the namespace lab needs root (run 'sudo make demo' for it);"
	say "      running what loopback allows"
	say ""
	in_gen=""
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

# Until rate can sweep rule counts: the same sweep with iperf3 as the UDP load (128-byte
# frames), counted where the frames arrive (the sink's rx_packets at the window's edges after a
# warm-up), and netbench lab fit for the cost per frame and per rule. As bench/lab-rules.
iperf_sweep() {
	if ! command -v iperf3 >/dev/null; then
		skip rule-sweep "rate has no --sweep-rules and iperf3 is not installed"
		return
	fi
	if [ $((budget_s - $(elapsed))) -lt 60 ]; then
		skip rule-sweep "the 5-minute budget is spent"
		return
	fi
	sinkns=${gen%gen}sink
	s=$(date +%s)
	say ""
	say "rule sweep: frames/s through the DUT against nftables rules (iperf3 UDP load,"
	say "128-byte frames, counted at the sink over 2 s; rate has no --sweep-rules yet)"
	say "$(printf '  %-8s %6s %10s %10s' kind rules fps ns/frame)"
	pts_linear="" pts_set=""
	for n in 0 100 1000; do
		for kind in linear set; do
			"$nb" lab ruleset --kind $kind --rules $n -J >"$out/ruleset-$kind-$n.json" \
				2>>"$out/rule-sweep.err" || continue
			ip netns exec "$sinkns" iperf3 -s -D -1 -p 15302 >/dev/null 2>&1
			sleep 0.2
			ip netns exec "$gen" timeout 10 iperf3 -c $sink -p 15302 -u -b 0 -l 82 -t 4 \
				>/dev/null 2>&1 &
			ipid=$!
			sleep 1
			a=$(ip netns exec "$sinkns" cat /sys/class/net/sink0/statistics/rx_packets)
			ta=$(date +%s.%N)
			sleep 2
			b=$(ip netns exec "$sinkns" cat /sys/class/net/sink0/statistics/rx_packets)
			tb=$(date +%s.%N)
			wait $ipid
			fps=$(echo "$a $b $ta $tb" | awk '{printf "%.0f", ($2 - $1) / ($4 - $3)}')
			say "$(printf '  %-8s %6s %10s %10.1f' $kind $n "$fps" \
				"$(echo "$fps" | awk '{print ($1 > 0 ? 1e9 / $1 : 0)}')")"
			[ "$fps" -gt 0 ] && eval "pts_$kind=\"\$pts_$kind $n:$fps\""
		done
	done
	"$nb" lab ruleset --flush >/dev/null 2>&1
	for kind in linear set; do
		eval "pts=\$pts_$kind"
		# shellcheck disable=SC2086,SC2154
		if "$nb" lab fit $pts -J >"$out/rule-sweep-$kind.json" 2>>"$out/rule-sweep.err"; then
			say "  $kind: $("$nb" lab fit $pts | tail -1)"
		else
			rm -f "$out/rule-sweep-$kind.json"
			failed=$((failed + 1))
			say "  $kind: no fit (see rule-sweep.err)"
		fi
	done
	[ -s "$out/rule-sweep.err" ] || rm -f "$out/rule-sweep.err"
	say "$(printf '%-22s done    %4ss  rule-sweep-linear.json, rule-sweep-set.json' rule-sweep \
		"$(($(date +%s) - s))")"
	say ""
}

# tput: netio-style sweep through the DUT to the sink's agent.
if has_cmd tput; then
	# shellcheck disable=SC2046,SC2086
	step tput 90 $in_gen "$nb" tput -c $target $port_args -J $(short tput)
else
	skip tput "this build has no tput"
fi

# rate: frames/s at RFC 2544 sizes; the rule sweep when rate offers it.
if has_cmd rate; then
	size_args=""
	if has_opt rate "--sizes"; then size_args="--sizes 64,128,512,1518"
	elif has_opt rate "--size"; then size_args="--size 128"
	fi
	# shellcheck disable=SC2046,SC2086
	step rate 90 $in_gen "$nb" rate -c $target $port_args $size_args -J $(short rate)
	if [ "$(id -u)" -ne 0 ]; then
		skip rule-sweep "needs the lab (root)"
	elif has_opt rate "--sweep-rules"; then
		# shellcheck disable=SC2046,SC2086
		step rule-sweep 120 $in_gen "$nb" rate -c $target --sweep-rules 0,100,1000 \
			--kind linear,set -J $(short rate)
	else
		iperf_sweep
	fi
else
	skip rate "this build has no rate"
	if [ "$(id -u)" -eq 0 ]; then iperf_sweep; else skip rule-sweep "needs the lab (root)"; fi
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
	say "tput through the DUT (see tput.json):"
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

# The rule sweep's fit, as rate printed it in its JSON.
if [ -s "$out/rule-sweep.json" ]; then
	say ""
	say "rule sweep (see rule-sweep.json):"
	grep -E '"(kind|rules|fps|base_ns[a-z_]*|per_rule_ns|residual_ns)"' "$out/rule-sweep.json" |
		sed 's/^ */  /' | head -40 | tee -a "$summary"
fi
say ""
[ "$failed" -gt 0 ] && say "$failed step(s) FAILED: see the .err files"
say "finished in $(elapsed) s; results: $out"
[ "$failed" -eq 0 ]
