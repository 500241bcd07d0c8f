#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every codec has a fuzz harness: each decoder (nb_*_get*, nb_*decode*) that a wire codec defines
# (src/core/*/*_wire.c, the control protocol and caps, the stream records, the test datagrams'
# headers) is called by a libFuzzer harness in tests/fuzz/, and that harness is built and run by
# one of the fuzz scripts make check runs. A decoder without one is named with its file.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}

codecs=$(ls "$TOP"/src/core/*/*_wire.c)
codecs="$codecs $TOP/src/core/session/proto.c $TOP/src/core/session/caps.c
$TOP/src/core/stream/stream_msg.c $TOP/src/core/stream/stream.c $TOP/src/core/rate/frame.c"

decoders() { # FILE: the decoders it defines
	grep -oE '^(int|void|bool) nb_[a-z0-9_]*(_get|decode)[a-z0-9_]*\(' "$1" | sed 's/^[a-z]* //; s/($//'
}

# unfuzzed HARNESS_DIR SCRIPT_DIR FILE...: one line per decoder no run harness calls.
unfuzzed() {
	hd=$1 sd=$2
	shift 2
	for f in "$@"; do
		for fn in $(decoders "$f"); do
			run=0
			for h in $(grep -lw "$fn" "$hd"/*.c 2>/dev/null); do
				grep -qw "$(basename "$h" .c)" "$sd"/*.sh && run=1
			done
			[ $run -eq 1 ] || echo "$(basename "$f"): $fn is called by no fuzz harness that a script runs"
		done
	done
}

nfiles=$(echo "$codecs" | wc -w)
# shellcheck disable=SC2086
ndec=$(for f in $codecs; do decoders "$f"; done | wc -l)
# shellcheck disable=SC2086
unfuzzed "$TOP/tests/fuzz" "$TOP/tests/integration" $codecs >"$nb_tmp/unfuzzed"
check "every decoder of the $nfiles codec files ($ndec decoders) is fuzzed by a harness make check runs" \
	test ! -s "$nb_tmp/unfuzzed" -a "$ndec" -gt 20 || sed 's/^/# /' "$nb_tmp/unfuzzed"

# The check can fail: a decoder no harness calls, and one whose harness no script runs.
mkdir -p "$nb_tmp/h" "$nb_tmp/s"
printf 'int nb_fake_get_a(const void *p)\n{\n}\nint nb_fake_decode_b(const void *p)\n{\n}\n' >"$nb_tmp/fake_wire.c"
printf 'nb_fake_decode_b(x);\n' >"$nb_tmp/h/fuzz_fake.c"
printf 'echo nothing\n' >"$nb_tmp/s/fuzz.sh"
unfuzzed "$nb_tmp/h" "$nb_tmp/s" "$nb_tmp/fake_wire.c" >"$nb_tmp/fake.out"
check "a decoder no harness calls and one whose harness no script runs: 2 findings" \
	test "$(wc -l <"$nb_tmp/fake.out")" -eq 2 || sed 's/^/# /' "$nb_tmp/fake.out"
printf 'fuzz_build_seeded fuzz_fake\n' >"$nb_tmp/s/fuzz.sh"
printf 'nb_fake_get_a(x);\n' >>"$nb_tmp/h/fuzz_fake.c"
unfuzzed "$nb_tmp/h" "$nb_tmp/s" "$nb_tmp/fake_wire.c" >"$nb_tmp/fake.out"
check "both called by a harness a script runs: none" test ! -s "$nb_tmp/fake.out" ||
	sed 's/^/# /' "$nb_tmp/fake.out"
echo "1..$n"
