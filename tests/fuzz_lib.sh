# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# Shared by the libFuzzer scripts (sourced after lib.sh, with TOP set). fuzz_need_clang ends the
# script with a skip where clang's fuzzer runtime is missing. fuzz_build_seeded HARNESS SOURCES
# builds tests/fuzz/HARNESS.c under ASan+UBSan into $fuzz_bin and its seed generator
# (-DFUZZ_SEED) into $nb_tmp/seed; fuzz_seed NAME WHAT writes and checks the seed;
# fuzz_for SECONDS fuzzes from the seeds.
fuzz_cflags="-std=c11 -D_GNU_SOURCE -DNB_VERSION=\"fuzz\" -DNB_GITREV=\"fuzz\" -I$TOP/src -g"

fuzz_need_clang() {
	if ! command -v clang >/dev/null 2>&1 ||
		! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' |
		clang -x c - -fsanitize=fuzzer -o "$nb_tmp/probe" >/dev/null 2>&1; then
		skip "clang with libFuzzer not installed (libclang-rt-14-dev)"
		exit 0
	fi
}

fuzz_build_seeded() { # harness, sources
	fuzz_bin="$nb_tmp/$1"
	# -O2 for the seed generator: clang 14 at plain -O1 takes minutes and gigabytes on
	# crypto_ref.c.
	# shellcheck disable=SC2086
	clang $fuzz_cflags -O2 -DFUZZ_SEED "$TOP/tests/fuzz/$1.c" $2 -pthread -lm \
		-o "$nb_tmp/seed" >"$nb_tmp/build.log" 2>&1 &&
		clang $fuzz_cflags -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
			"$TOP/tests/fuzz/$1.c" $2 -pthread -lm -o "$fuzz_bin" >>"$nb_tmp/build.log" 2>&1
	check "fuzz harness and seed generator build" test $? -eq 0 ||
		sed 's/^/# /' "$nb_tmp/build.log" | head
}

fuzz_seed() { # corpus file name, what it is
	mkdir -p "$nb_tmp/corpus"
	"$nb_tmp/seed" >"$nb_tmp/corpus/$1"
	check "the seed is $2 that decodes" test $? -eq 0 -a -s "$nb_tmp/corpus/$1"
}

# Every harness in `make check` runs each input under this limit (seconds): a loop that never
# ends shows as libFuzzer's timeout and fails the test.
fuzz_input_s=5

# fuzz_for SECONDS [PER-INPUT-SECONDS]: an input slower than the second (default
# $fuzz_input_s) fails too.
fuzz_for() {
	_per=${2:-$fuzz_input_s}
	"$fuzz_bin" -max_total_time="$1" -timeout="$_per" -rss_limit_mb=1024 \
		-artifact_prefix="$nb_tmp/" "$nb_tmp/corpus" >"$nb_tmp/fuzz.log" 2>&1
	check "$1 s of fuzzing finds no crash, leak or undefined behaviour, nor an input slower than $_per s" \
		test $? -eq 0 || tail -30 "$nb_tmp/fuzz.log" | sed 's/^/# /'
}
