#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the observe test's decoders (a window, the request: what a controller and
# an agent read from each other) with libFuzzer under ASan+UBSan for a bounded time, seeded
# with a valid encoding. Skips where clang's fuzzer runtime is missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
out="$nb_tmp/fuzz_obs_wire"
# Only what the decoders and the verdict need: building every core file with the fuzzer takes
# minutes.
srcs="$TOP/src/core/observe/obs_wire.c $TOP/src/core/observe/obs_window.c
$TOP/src/core/observe/verdict.c $TOP/src/core/session/proto.c $(ls "$TOP"/src/core/base/*.c)"
cflags="-std=c11 -D_GNU_SOURCE -DNB_VERSION=\"fuzz\" -DNB_GITREV=\"fuzz\" -I$TOP/src -g"
if ! command -v clang >/dev/null 2>&1 ||
	! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' |
	clang -x c - -fsanitize=fuzzer -o "$nb_tmp/probe" >/dev/null 2>&1; then
	skip "clang with libFuzzer not installed (libclang-rt-14-dev)"
	exit 0
fi
# shellcheck disable=SC2086
clang $cflags -O2 -DFUZZ_SEED "$TOP/tests/fuzz/fuzz_obs_wire.c" $srcs -pthread -lm \
	-o "$nb_tmp/seed" >"$nb_tmp/build.log" 2>&1 &&
	clang $cflags -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		"$TOP/tests/fuzz/fuzz_obs_wire.c" $srcs -pthread -lm -o "$out" >>"$nb_tmp/build.log" 2>&1
check "fuzz harness and seed generator build" test $? -eq 0 || sed 's/^/# /' "$nb_tmp/build.log" | head
mkdir -p "$nb_tmp/corpus"
"$nb_tmp/seed" >"$nb_tmp/corpus/window"
check "the seed is a window that decodes" test $? -eq 0 -a -s "$nb_tmp/corpus/window"
"$out" -max_total_time=10 -rss_limit_mb=1024 "$nb_tmp/corpus" >"$nb_tmp/fuzz.log" 2>&1
check "10 s of fuzzing finds no crash, leak or undefined behaviour" test $? -eq 0 ||
	tail -30 "$nb_tmp/fuzz.log" | sed 's/^/# /'
echo "1..$n"
