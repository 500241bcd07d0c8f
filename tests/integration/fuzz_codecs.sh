#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fuzzes the tput and rate codecs (what a controller reads from an agent's FINAL, and a tput
# datagram's header into the sequence tracking), the path of an imported document: JSON
# parse, views, compare and the HTML report, and the path of a merged store. libFuzzer under ASan+UBSan, each harness for a few
# seconds from a valid seed (and, for the documents, real documents of this build). Skips where
# clang's fuzzer runtime is missing.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
. "$TOP/tests/fuzz_lib.sh"
fuzz_need_clang
base=$(ls "$TOP"/src/core/base/*.c)
S=$TOP/src/core

fuzz_build_seeded fuzz_tput_wire "$S/tput/tput.c $S/tput/tput_wire.c $S/session/proto.c $base"
fuzz_seed final "a tput FINAL with both counters, pacing and a request's items"
printf 'NBUD\000\000\000\001\000\000\000\000\000\000\000\007\000\000\000\000\000\000\000\001' \
	>"$nb_tmp/corpus/udp"
fuzz_for 5

rm -rf "$nb_tmp/corpus"
fuzz_build_seeded fuzz_rate_wire "$S/rate/rate_wire.c $S/rate/raterx.c $S/rate/frame.c \
$S/session/proto.c $base"
fuzz_seed snap "a rate trial's snapshot"
fuzz_for 5

rm -rf "$nb_tmp/corpus"
fuzz_build_seeded fuzz_jdoc_views "$(ls "$S"/store/*.c | grep -v '/store\.c$\|/store_check\.c$') $base"
fuzz_seed rate.json "a rate document"
# Real documents of this build, where it runs here without an agent.
"$NETBENCH" mem -q -l 1k,64k --bw-size 1M --threads 1 -J >"$nb_tmp/corpus/mem.json" 2>/dev/null
"$NETBENCH" crypto --quick --algo aes-128-cbc -J >"$nb_tmp/corpus/crypto.json" 2>/dev/null
# The sweep whose rule counts are one ulp apart used to hang the report's axes.
printf '%s' '{"schema":"netbench/1","test":"rate","sweep":[{"kind":"linear","rules":1e17,"sizes":[{"frame_bytes":64,"valid":true,"fps":1000}]},{"kind":"linear","rules":100000000000000016,"sizes":[{"frame_bytes":64,"valid":true,"fps":-1e17}]}]}' >"$nb_tmp/corpus/ulp"
# The sweep of subnormal frames/s that spun the rules chart's tick loop for ever.
printf '%s' '{"schema":"netbench/1","test":"rate","sweep":[{"kind":"linear","rules":0,"sizes":[{"frame_bytes":64,"valid":true,"fps":5e-324}]},{"kind":"linear","rules":100,"sizes":[{"frame_bytes":64,"valid":true,"fps":1e-323}]}]}' >"$nb_tmp/corpus/subnormal"
find "$nb_tmp/corpus" -size 0 -delete
fuzz_for 15 5

# results merge: another store's bytes, merged into a fresh store.
if [ -e /usr/include/sqlite3.h ]; then
	rm -rf "$nb_tmp/corpus"
	fuzz_build_seeded fuzz_store_merge "$(ls "$S"/store/*.c) $base -DHAVE_SQLITE -lsqlite3"
	fuzz_seed sound.db "a store of two results with a label and tags"
	# The store whose results is a recursive view (merge once spun on it until killed).
	/usr/bin/python3 - "$nb_tmp/corpus/sound.db" "$nb_tmp/corpus/view.db" <<'PY'
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
db.executescript("""DROP TABLE tags; DROP TABLE results;
CREATE TABLE tags (result_id INTEGER, key TEXT, value TEXT, num REAL);
CREATE VIEW results AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
SELECT x AS id, 'l' AS label, '{}' AS doc, NULL AS table_text FROM c;""")
db.commit()
PY
	fuzz_for 15
else
	skip "fuzz_store_merge: no SQLite headers (libsqlite3-dev, tests/deps.sh)"
fi
echo "1..$n"
