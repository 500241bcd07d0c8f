#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the crypto test's decoders (request, head, one algorithm's result, a point's profile:
# what a controller and an agent read from each other) with libFuzzer under ASan+UBSan for a
# bounded time, seeded with a valid encoding. Skips where clang's fuzzer runtime is missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
# Only what the decoders need (the crypto engines, the session's codec, the profile's codec and
# summary, base; the session itself, which a result holds and frees): building every core file
# with the fuzzer took a minute.
fuzz_build_seeded fuzz_crypto_wire "$(ls "$TOP"/src/core/crypto/*.c | grep -v -e crypto_agent -e crypto_ctl)
$TOP/src/core/session/proto.c $TOP/src/core/session/ctl.c $TOP/src/core/session/auth.c
$TOP/src/core/session/caps.c
$(ls "$TOP"/src/core/profile/*.c "$TOP"/src/core/base/*.c)"
fuzz_seed algo "a result item"
"$nb_tmp/seed" tlv >"$nb_tmp/corpus/algo-tlv"
check "the second seed is a result item as an agent before the shared CPU-load record sends it" \
	test $? -eq 0 -a -s "$nb_tmp/corpus/algo-tlv"
fuzz_for 15
echo "1..$n"
