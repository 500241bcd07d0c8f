#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the network and /proc parsers with libFuzzer (clang) under ASan+UBSan for a bounded
# time. Skips where clang's fuzzer runtime is missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
out="$nb_tmp/fuzz_proto"
srcs=$(ls "$TOP"/src/core/*/*.c)
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
# shellcheck disable=SC2086
clang -std=c11 -D_GNU_SOURCE -DNB_VERSION='"fuzz"' -DNB_GITREV='"fuzz"' -I"$TOP/src" -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	"$TOP/tests/fuzz/fuzz_proto.c" $srcs -pthread -lm -o "$out" >"$nb_tmp/build.log" 2>&1
check "fuzz harness builds" test $? -eq 0 || sed 's/^/# /' "$nb_tmp/build.log" | head
mkdir -p "$nb_tmp/corpus"
# Seeds: a valid HELLO and a /proc/stat sample.
printf 'NBC1\000\001\000\000\000\000\000\010\000\001\000\004\000\000\000\001' >"$nb_tmp/corpus/hello"
head -c 2000 /proc/stat >"$nb_tmp/corpus/stat"
"$out" -max_total_time=20 -timeout="$fuzz_input_s" -rss_limit_mb=1024 "$nb_tmp/corpus" >"$nb_tmp/fuzz.log" 2>&1
check "20 s of fuzzing finds no crash, leak or undefined behaviour, nor an input slower than $fuzz_input_s s" test $? -eq 0 ||
	tail -30 "$nb_tmp/fuzz.log" | sed 's/^/# /'
