#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The shell tests have one harness: every integration script sources tests/lib.sh and takes its
# ok/notok/check/skip from there; none defines its own, none writes a TAP line or a "# SKIP" by
# hand (a hand-written skip passes even when its condition is wrong), and one that sets its own
# EXIT trap still calls lib.sh's nb_cleanup. No check's condition is `[ a ] && [ b ]`: check runs
# one command, and the shell would run `[ b ]` after it, outside the check, which could not
# fail. What lib.sh does once no script does again: a veth pair (veth_pair), a namespace
# (netns_add), the root check (need_root), a refusal's check (check_refused, not a bad() of its
# own), a loop that sleeps until something happens or a bare sleep before what it waits for
# (wait_until, which says what it waited for when it gives up; a pause that no condition can
# replace says `# not a wait: why`), a failed check's name (notok). A script that breaks a rule
# is named with its line.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}

# lint FILE: prints one line per broken rule.
lint() {
	b=$(basename "$1")
	grep -q '^\. .*/lib\.sh"$' "$1" || echo "$b: does not source tests/lib.sh"
	grep -n '^[[:space:]]*\(ok\|notok\|nok\|check\|check_rc\|check_quiet\|skip\|skip_all\)[[:space:]]*()' "$1" |
		sed "s|^|$b:|;s|$| (defines its own TAP helper)|"
	grep -n 'echo[[:space:]]*"\(not \)\{0,1\}ok \|# SKIP' "$1" | grep -v '^[0-9]*:[[:space:]]*#' |
		sed "s|^|$b:|;s|$| (a TAP line by hand)|"
	awk -v b="$b" '
		/^[[:space:]]*check(_quiet)?[[:space:]]+"[^"]*"[[:space:]]+\[ .*\][[:space:]]*&&[[:space:]]*\[/ ||
		(prev ~ /^[[:space:]]*check(_quiet)?[[:space:]].*\\$/ && /^[[:space:]]*\[ .*\][[:space:]]*&&[[:space:]]*\[/) {
			print b ":" NR ": (a check whose second condition runs outside it)"
		}
		{ prev = $0 }' "$1"
	grep -n 'ip\( -[a-z]* [^ ]*\)* link add .*type veth' "$1" | sed "s|^|$b:|;s|$| (builds its own veth pair: veth_pair)|"
	grep -n 'ip\( -[a-z]* [^ ]*\)* netns add ' "$1" | sed "s|^|$b:|;s|$| (adds its own namespace: netns_add)|"
	grep -n 'id -u' "$1" | sed "s|^|$b:|;s|$| (its own root check: need_root)|"
	grep -n '^[[:space:]]*bad[[:space:]]*()' "$1" | sed "s|^|$b:|;s|$| (defines its own bad(): check_refused)|"
	grep -n '\(^\|[;&|({[:space:]]\)nok[[:space:]]' "$1" | sed "s|^|$b:|;s|$| (nok: a failed check is notok)|"
	grep -n '^[[:space:]]*pids=' "$1" | sed "s|^|$b:|;s|$| (its own list of background processes: nb_bg)|"
	# A loop with a sleep in it waits by hand: from the line that opens it (`... do`) to its
	# `done`, wherever a sleep stands, unless that line says why it is a pause (`# not a wait: `).
	# Outside loops, a sleep on a line of its own waits by hand as well, unless it says so or
	# runs in the background (`sleep N &`: a process to stand in for another).
	awk -v b="$b" '
		/(^|[;&|[:space:]])(while|until|for)[[:space:]].*(;|[[:space:]])do([[:space:]]|$)/ {
			if (depth == 0) { start = NR; told = 0 }
			depth++
		}
		depth > 0 && /(^|[;&|[:space:]])sleep[[:space:]]/ && !/# not a wait/ && !told {
			print b ":" start ": (a wait loop of its own: wait_until)"; told = 1
		}
		depth == 0 && /^[[:space:]]*sleep[[:space:]]/ && !/# not a wait: / && !/&[[:space:]]*(#.*)?$/ {
			print b ":" NR ": (sleeps to wait: wait_until, or say `# not a wait: why`)"
		}
		depth > 0 && /(^|[;&|[:space:]])done([;&|)"\047[:space:]]|$)/ { depth-- }' "$1"
	if grep -q '^[[:space:]]*trap [^-].* EXIT' "$1" && ! grep -q nb_cleanup "$1"; then
		echo "$b: sets an EXIT trap that never calls nb_cleanup"
	fi
}

for f in "$TOP"/tests/integration/*.sh; do
	case $(basename "$f") in
	# vm_guest.sh hands over to tests/vm/run.sh, which relays the guest's TAP lines; this
	# script holds the patterns it looks for.
	vm_guest.sh | lint_tests.sh) continue ;;
	esac
	lint "$f"
done >"$nb_tmp/lint"
if [ ! -s "$nb_tmp/lint" ]; then
	ok "every integration script uses tests/lib.sh's TAP helpers and cleanup"
else
	notok "every integration script uses tests/lib.sh's TAP helpers and cleanup"
	sed 's/^/# /' "$nb_tmp/lint"
fi

# The lint can fail: a script that breaks every rule is named once for each.
printf '#!/bin/sh\nok() { echo ok; }\necho "ok 1 # SKIP x"\ntrap "rm -f x" EXIT\n' >"$nb_tmp/bad.sh"
printf 'check "a" [ 1 = 1 ] && [ 2 = 3 ]\ncheck "b" \\\n\t[ 1 = 1 ] && [ 2 = 3 ]\n' >>"$nb_tmp/bad.sh"
cat >>"$nb_tmp/bad.sh" <<'EOF'
[ "$(id -u)" -eq 0 ] || exit 0
ip netns add x1
ip -n x1 link add a type veth peer name b netns x2
bad() { notok "$1"; }
true || nok "x"
sleep 9 &
pids="$pids $!"
i=0
while [ $i -lt 9 ] && ! test -e y; do
	i=$((i + 1))
	sleep 0.1
done
for _ in 1 2 3; do test -e y && break; sleep 1; done
while read -r l; do echo "$l"; done </dev/null
sleep 2
EOF
lint "$nb_tmp/bad.sh" >"$nb_tmp/bad.lint"
check "a script with its own ok(), a hand-written skip, its own trap, no lib.sh, two checks half outside, its own root check, namespace, veth pair, bad(), nok and pid list, two wait loops, a bare sleep: 15 findings" \
	test "$(wc -l <"$nb_tmp/bad.lint")" -eq 15 || sed 's/^/# /' "$nb_tmp/bad.lint"
# ... and passes what lib.sh offers in their place.
cat >"$nb_tmp/good.sh" <<'EOF'
. "$(dirname "$0")/../lib.sh"
need_root
netns_add "nbx-$nb_id" && veth_pair "nbx-$nb_id" a "nbx-$nb_id" b 10.0.0.1/24 10.0.0.2/24
wait_until 1 "y to appear" test -e y || notok "y"
check_refused "refused" 2 "x" true
nb_bg "$nb_tmp/x.out" - sleep 9
while read -r l; do echo "$l"; done </dev/null
sleep 9 &
sleep 0.5 # not a wait: a pause the test needs
EOF
lint "$nb_tmp/good.sh" >"$nb_tmp/good.lint"
check "a script using need_root, netns_add, veth_pair, wait_until, check_refused, nb_bg, notok and a pause that says why: no finding" \
	test ! -s "$nb_tmp/good.lint" || sed 's/^/# /' "$nb_tmp/good.lint"

# The helpers themselves, each with a known answer.
wait_until 0.2 "a file that never comes" test -e "$nb_tmp/never" >"$nb_tmp/wu.out"
check "wait_until gives up: status 1, says after how long and what it waited for" \
	test $? -eq 1 -a "$(cat "$nb_tmp/wu.out")" = "# gave up after 0.2 s waiting for a file that never comes"
(sleep 0.3; : >"$nb_tmp/soon") &
wait_until 5 "a file" test -e "$nb_tmp/soon" >"$nb_tmp/wu.out"
check "wait_until returns 0, silent, once the command succeeds" test $? -eq 0 -a ! -s "$nb_tmp/wu.out"
wait_until 0 "x" true 2>"$nb_tmp/wu.err"
check "wait_until 0: status 2, the timeout named" sh -c "[ $? -eq 2 ] && grep -q \"'0' is not\" '$nb_tmp/wu.err'"
cat >"$nb_tmp/bg.sh" <<EOF
. "$(cd "$(dirname "$0")/.." && pwd)/lib.sh"
nb_bg "$nb_tmp/bg.out" "$nb_tmp/bg.err" sh -c 'echo out; echo err >&2; exec sleep 30'
echo "\$nb_bg_pid" >"$nb_tmp/bg.pid"
wait_until 5 "the background command's output" grep -q err "$nb_tmp/bg.err"
EOF
sh "$nb_tmp/bg.sh"
check "nb_bg: stdout and stderr apart, and the process stopped when the script exits" sh -c \
	"grep -qx out '$nb_tmp/bg.out' && grep -qx err '$nb_tmp/bg.err' && ! kill -0 \$(cat '$nb_tmp/bg.pid') 2>/dev/null"
refuse() { echo "netbench x: --y is $1" >&2; [ -z "$2" ] || echo "$2"; return 2; }
(check_refused "r" 2 "--y is too large" refuse "too large") >"$nb_tmp/cr.out"
check "check_refused: status, pattern on stderr, nothing on stdout: ok" grep -qx "ok [0-9]* - r" "$nb_tmp/cr.out"
(check_refused "r" 1 "--y is too small" refuse "too large" "half a table") >"$nb_tmp/cr.out"
check "check_refused names each miss: the status, the pattern, output on stdout" grep -qx \
	"not ok [0-9]* - r (exit 2, wanted 1; no '--y is too small' on stderr; output on stdout)" "$nb_tmp/cr.out"
if [ "$(id -u)" -eq 0 ] && netns_add "nblint-$nb_id"; then
	check "netns_add: a namespace of this run's, loopback up" \
		sh -c "ip -n nblint-$nb_id link show lo | grep -q 'state UNKNOWN\|,UP'"
	netns_add "nblint-$nb_id" 2>"$nb_tmp/ns.err"
	check "netns_add of a name that exists fails, names it and leaves it" sh -c \
		"[ $? -ne 0 ] && grep -q 'nblint-$nb_id exists already' '$nb_tmp/ns.err' && ip netns list | grep -q '^nblint-$nb_id'"
	netns_add "nblint2-$nb_id"
	veth_pair "nblint-$nb_id" va "nblint2-$nb_id" vb 198.18.99.1/24 198.18.99.2/24 - 2001:db8:99::2/64
	check "veth_pair: both ends up with their addresses (none where '-'), no DAD; they answer" sh -c "
		ip -n nblint-$nb_id -o addr show dev va | grep -q '198.18.99.1/24' &&
		! ip -n nblint-$nb_id -o addr show dev va | grep -q 2001:db8 &&
		ip -n nblint2-$nb_id -o addr show dev vb | grep -q '2001:db8:99::2/64' &&
		ip netns exec nblint-$nb_id ping -c 1 -W 2 198.18.99.2 >/dev/null"
	check "veth_pair made nothing in this host's namespace" sh -c "! ip link show va 2>/dev/null"
else
	skip "netns_add, veth_pair: need root"
fi
echo "1..$n"
