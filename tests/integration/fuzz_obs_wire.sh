#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the observe test's decoders (a window and its kernel profile, the request: what a
# controller and an agent read from each other) with libFuzzer under ASan+UBSan for a bounded time, seeded
# with a valid encoding. Skips where clang's fuzzer runtime is missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
# Only what the decoders and the verdict need: building every core file with the fuzzer takes
# minutes.
fuzz_build_seeded fuzz_obs_wire "$TOP/src/core/observe/obs_wire.c $TOP/src/core/observe/obs_window.c
$TOP/src/core/observe/verdict.c $TOP/src/core/session/proto.c $TOP/src/core/profile/prof_wire.c
$TOP/src/core/profile/prof_summary.c $TOP/src/core/profile/prof_cat.c $(ls "$TOP"/src/core/base/*.c)"
fuzz_seed window "a window"
fuzz_for 10
echo "1..$n"
