#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The docs agree with the tool (issue "UX round 3", item 7): every netbench command shown in
# README.md and docs/*.md names a subcommand, options and lab namespaces the tool has
# (tests/docs_examples.py; examples marked `<!-- docs-check: skip REASON -->` are listed and
# counted), the checker itself fails on a wrong example, and rate's help states the frame size
# bound its check applies. No root, ~2 s.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
need_tools python3
check_quiet "every command in README.md and docs/*.md is one the tool takes" \
	python3 "$top/tests/docs_examples.py" "$NETBENCH" "$top/README.md" "$top"/docs/*.md
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

# rate's frame sizes: the help states the bound the check applies (9216 whatever the MTU).
check_rc "rate --help" 0 "$NETBENCH" rate --help
check "... states the largest frame, 9216" has "MTU+18, at most 9216"
check_refused "rate -l 9217 is refused at the bound the help states" 2 "at most 9k" \
	"$NETBENCH" rate -l 9217 --local-rx 127.0.0.1
echo "1..$n"
