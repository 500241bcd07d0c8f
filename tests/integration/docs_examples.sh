#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The docs agree with the tool (issue "UX round 3", item 7): every netbench command shown in
# README.md and docs/*.md names a subcommand, options and lab namespaces the tool has
# (tests/docs_examples.py; examples marked `<!-- docs-check: skip REASON -->` are listed and
# counted); as root each is also run as user nobody in an empty network namespace of its own for
# at most 2 s, and one the command refuses as a usage error (exit 2: an option or a value) fails.
# The checker itself fails on wrong examples, and rate's help states the frame size bound its
# check applies. ~2 s, as root ~70 s.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
need_tools python3
run=""
is_root && command -v unshare >/dev/null && command -v setpriv >/dev/null && run=--run
check_quiet "every command in README.md and docs/*.md is one the tool takes${run:+, and takes its values when run}" \
	python3 "$top/tests/docs_examples.py" $run "$NETBENCH" "$top/README.md" "$top"/docs/*.md
grep '^# .* commands checked' "$nb_tmp/out"
grep '^# skipped by name: ' "$nb_tmp/out"

# The checker fails on what it is there to catch.
cat >"$nb_tmp/bad.md" <<'MD'
```
ip netns exec gen netbench rate --local-rx sink/198.19.0.1 --trial 1s
netbench tput -c board --no-such-option
netbench nosuch --help
```
MD
check_rc "the checker fails on a wrong example" 1 python3 "$top/tests/docs_examples.py" "$NETBENCH" "$nb_tmp/bad.md"
check "... naming the namespace the lab does not make" has "namespace 'gen' is not one"
check "... the option tput does not have" has "option --no-such-option is not in"
check "... and the subcommand" has "unknown subcommand 'nosuch'"
if [ -n "$run" ]; then
	cat >"$nb_tmp/values.md" <<'MD'
```
netbench rate -l 70000 --local-rx 127.0.0.1
netbench tput -c board -t soon
netbench mem --quick --threads 2
```
MD
	check_rc "run, the checker fails on values the tool refuses" 1 \
		python3 "$top/tests/docs_examples.py" --run "$NETBENCH" "$nb_tmp/values.md"
	check "... rate's -l 70000" grep -q "^not ok 1 .*refused as a usage error (exit 2): .*at most 9k" "$nb_tmp/out"
	check "... tput's -t soon" grep -q "^not ok 2 .*refused as a usage error (exit 2)" "$nb_tmp/out"
	check "... and takes one it runs (mem, cut at 2 s)" grep -q "^ok 3 " "$nb_tmp/out"
fi

# rate's frame sizes: the help states the bound the check applies (9216 whatever the MTU).
check_rc "rate --help" 0 "$NETBENCH" rate --help
check "... states the largest frame, 9216" has "MTU+18, at most 9216"
check_refused "rate -l 9217 is refused at the bound the help states" 2 "at most 9k" \
	"$NETBENCH" rate -l 9217 --local-rx 127.0.0.1
echo "1..$n"
