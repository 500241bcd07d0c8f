#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes every parser a peer reaches beyond the control framing (tests/fuzz/fuzz_proto.c and
# fuzz_crypto_wire.c have those): the stream records, the mem options and result, and the
# datagrams receivers count (stream header, tput header, rate frames, probes and the rate
# receiver's accounting). libFuzzer under ASan+UBSan, each harness for a fixed number of runs
# (FUZZ_RUNS, default 30000) within FUZZ_TIME seconds (default 8); `make fuzz` runs them
# longer. Prints each harness's executions and coverage. Skips without clang's libFuzzer.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
runs=${FUZZ_RUNS:-30000}
secs=${FUZZ_TIME:-8}
cflags="-std=c11 -D_GNU_SOURCE -I$TOP/src -g -O1 -Werror=incompatible-pointer-types -Werror=int-conversion"
# What the harnesses reach, and what that needs to link.
core="base/*.c session/proto.c session/auth.c session/ctl.c session/caps.c session/job.c stream/stream.c stream/stream_msg.c
mem/*.c rate/frame.c tput/tput.c tput/tput_wire.c profile/prof_wire.c"
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
# That part of the core once, as an archive.
mkdir -p "$nb_tmp/obj"
built=0
for f in $(cd "$TOP/src/core" && ls $core); do
	# shellcheck disable=SC2086
	clang $cflags -DNB_VERSION='"fuzz"' -DNB_GITREV='"fuzz"' $san -fsanitize=fuzzer-no-link -c "$TOP/src/core/$f" \
		-o "$nb_tmp/obj/$(echo "$f" | tr / _).o" >>"$nb_tmp/build.log" 2>&1 || built=1
done
[ $built -eq 0 ] && ar rcs "$nb_tmp/libcore.a" "$nb_tmp"/obj/*.o
check "the core builds for fuzzing" test $built -eq 0
[ $built -eq 0 ] || sed "s/^/# /" "$nb_tmp/build.log" | head
# Valid records to start from: a stream request and a received step, mem options, a rate frame.
seeds() {
	python3 - "$1" <<'PY'
import os, struct, sys
d = sys.argv[1]
def tlv(t, v): return struct.pack(">HH", t, len(v)) + v
def u32(t, v): return tlv(t, struct.pack(">I", v))
def u64(t, v): return tlv(t, struct.pack(">Q", v))
req = (u32(300, 1) + tlv(301, b"239.1.2.3") + u32(14, 5000) + u32(305, 0) + u32(306, 1000) +
       tlv(307, struct.pack(">QQ", 1000000, 2000000)) + u64(308, 10**9) + u32(309, 7) +
       tlv(302, b"eth0") + u32(304, 1) + u64(310, 10**8))
mem = u64(500, 1024) + u64(501, 1 << 20) + u32(502, 0) + u32(503, 2) + u64(504, 1 << 20) + u32(505, 1)
hdr = bytes(20) + b"NBS1" + bytes([1]) + bytes(31)
frame = struct.pack(">HHHIQ", 0x4e42, 1, 3, 42, 123456789)
for name, data in (("req", req), ("mem", mem), ("hdr", hdr), ("frame", frame),
                   ("probe", struct.pack(">HHHIQ", 0x4e52, 0x8000, 3, 8, 5)),
                   ("udp", b"NBUD" + struct.pack(">IQQ", 1, 2, 3))):
    open(os.path.join(d, name), "wb").write(data)
PY
}
for h in fuzz_stream_msg fuzz_mem_wire fuzz_datagram; do
	# shellcheck disable=SC2086
	clang $cflags $san -fsanitize=fuzzer "$TOP/tests/fuzz/$h.c" "$nb_tmp/libcore.a" \
		-pthread -lm -o "$nb_tmp/$h" >"$nb_tmp/$h.build" 2>&1
	st=$?
	check "$h builds" test $st -eq 0
	if [ $st -ne 0 ]; then
		sed 's/^/# /' "$nb_tmp/$h.build" | head
		continue
	fi
	mkdir -p "$nb_tmp/corpus-$h"
	seeds "$nb_tmp/corpus-$h"
	"$nb_tmp/$h" -runs="$runs" -max_total_time="$secs" -timeout="$fuzz_input_s" -rss_limit_mb=1024 \
		-artifact_prefix="$nb_tmp/" "$nb_tmp/corpus-$h" \
		>"$nb_tmp/$h.log" 2>&1
	st=$?
	stats=$(grep -Eo '#[0-9]+[[:space:]]+DONE[[:space:]]+cov: [0-9]+ ft: [0-9]+' "$nb_tmp/$h.log" | tr -s '\t ' ' ' |
		sed 's/#//; s/DONE/runs,/')
	check "$h ($stats) finds no crash, leak or undefined behaviour" test $st -eq 0
	[ $st -eq 0 ] || tail -30 "$nb_tmp/$h.log" | sed 's/^/# /'
done
echo "1..$n"
