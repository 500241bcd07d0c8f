#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the path a stored document takes into the HTML report (JSON reader, views, charts and
# page) with libFuzzer under ASan+UBSan for a bounded time, seeded with a rate document holding
# a rule sweep and with the sweep whose rule counts are one ulp apart (it used to hang the
# report). A page that takes more than 5 s is a failure. Skips where clang's fuzzer runtime is
# missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
fuzz_build_seeded fuzz_report "$(ls "$TOP"/src/core/store/*.c) $TOP/src/core/base/json.c"
fuzz_seed sweep "a rate document with a rule sweep"
printf '%s' '{"schema":"netbench/1","test":"rate","sweep":[{"kind":"linear","rules":1e17,"sizes":[{"frame_bytes":64,"valid":true,"fps":1000}]},{"kind":"linear","rules":100000000000000016,"sizes":[{"frame_bytes":64,"valid":true,"fps":-1e17}]}]}' >"$nb_tmp/corpus/ulp"
"$fuzz_bin" -max_total_time=20 -timeout=5 -rss_limit_mb=1024 "$nb_tmp/corpus" >"$nb_tmp/fuzz.log" 2>&1
rc=$?
grep "^#.*DONE" "$nb_tmp/fuzz.log" | sed "s/^/# /"
check "20 s of fuzzing finds no crash, leak, undefined behaviour or page slower than 5 s" test $rc -eq 0 ||
	tail -30 "$nb_tmp/fuzz.log" | sed 's/^/# /'
echo "1..$n"
