#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The shell tests have one harness: every integration script sources tests/lib.sh and takes its
# ok/notok/check/skip from there; none defines its own, none writes a TAP line or a "# SKIP" by
# hand (a hand-written skip passes even when its condition is wrong), and one that sets its own
# EXIT trap still calls lib.sh's nb_cleanup. No check's condition is `[ a ] && [ b ]`: check runs
# one command, and the shell would run `[ b ]` after it, outside the check, which could not
# fail. A script that breaks a rule is named with its line.
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

# The lint can fail: a script that breaks every rule is named six times.
printf '#!/bin/sh\nok() { echo ok; }\necho "ok 1 # SKIP x"\ntrap "rm -f x" EXIT\n' >"$nb_tmp/bad.sh"
printf 'check "a" [ 1 = 1 ] && [ 2 = 3 ]\ncheck "b" \\\n\t[ 1 = 1 ] && [ 2 = 3 ]\n' >>"$nb_tmp/bad.sh"
lint "$nb_tmp/bad.sh" >"$nb_tmp/bad.lint"
check "a script with its own ok(), a hand-written skip, its own trap, no lib.sh and two checks half outside: 6 findings" \
	test "$(wc -l <"$nb_tmp/bad.lint")" -eq 6 || sed 's/^/# /' "$nb_tmp/bad.lint"
echo "1..$n"
