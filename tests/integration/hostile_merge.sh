#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# results merge under crafted stores (docs/security.md): another store is foreign data. Its
# schema must be netbench's, object for object: a `results` that is a recursive view (before:
# merge spun until killed), a trigger, an extra table are refused at once. Its documents, labels
# and tags pass the check import makes, through the same code: a document without a schema, one
# of 1.1 million values, a tag key 'bad key,=x', a 1,000-byte label (before: all merged, exit 0,
# and report, compare and export failed on the whole store afterwards). A refused merge leaves
# the store as it was; a sound store still merges.
. "$(dirname "$0")/../lib.sh"
need_store
cd "$nb_tmp" || exit 1
PY=/usr/bin/python3
"$NETBENCH" mem --quick -o mem.json >/dev/null 2>&1 || notok "mem --quick"
check_rc "a sound store: two results, a label and a tag" 0 sh -c "
	'$NETBENCH' results import --db good.db --label good --tag board=a mem.json &&
	sed 's/\"test\"/\"extra\": 1, \"test\"/' mem.json >mem2.json &&
	'$NETBENCH' results import --db good.db --label good mem2.json"
check_rc "the store merged into: one result" 0 "$NETBENCH" results import --db m.db --label mine mem.json
count() { $PY -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from results').fetchone()[0])" m.db; }
before=$(count)
sum_before=$(md5sum m.db | cut -c1-32)

# crafted OUT SQL...: good.db copied to OUT, then the statements run on it.
crafted() {
	out=$1; shift
	cp good.db "$out" && $PY - "$out" "$@" <<'PYEOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=DELETE")
for q in sys.argv[2:]:
    db.executescript(q)
db.commit()
PYEOF
}
refused() { # what, store, pattern
	check_rc "merge $1: exit 1 within 20 s" 1 timeout 20 "$NETBENCH" results merge --db m.db "$2"
	cp "$nb_tmp/out" "$nb_tmp/last"
	check_quiet "... naming $2 and why ($3), nothing merged" sh -c \
		"grep -q -- \"$3\" last && grep -q 'nothing merged' last && [ \$(md5sum m.db | cut -c1-32) = $sum_before ]"
}

# --- the schema: object for object
crafted view.db "DROP TABLE tags; DROP TABLE results;
CREATE TABLE tags (result_id INTEGER, key TEXT, value TEXT, num REAL);
CREATE VIEW results AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 'l' AS label, '{}' AS doc, NULL AS table_text FROM c;
PRAGMA user_version = 1;"
refused "a store whose results is a recursive view" view.db "view.db is not a netbench results store"
crafted trig.db "CREATE TRIGGER t AFTER INSERT ON tags BEGIN DELETE FROM results; END;"
refused "a store with a trigger" trig.db "trig.db is not a netbench results store"
crafted extra.db "CREATE TABLE x (a); CREATE INDEX results_by_label ON results(label);"
refused "a store with another table and index" extra.db "extra.db is not a netbench results store"

# --- the documents, labels and tags: import's check
crafted noschema.db "UPDATE results SET doc = '{\"test\":\"tput\"}' WHERE id = 2;"
refused "a document without a schema" noschema.db "noschema.db: result 2 is not a netbench result"
$PY -c "
import json
d = json.load(open('mem.json'))
d['filler'] = [0] * 1100000
open('huge.json', 'w').write(json.dumps(d))"
crafted huge.db "UPDATE results SET doc = readfile('huge.json') WHERE id = 1;" 2>/dev/null ||
	$PY -c "
import sqlite3
db = sqlite3.connect('huge.db')
db.execute('UPDATE results SET doc = ? WHERE id = 1', (open('huge.json').read(),))
db.commit()"
refused "a document of 1.1 million values" huge.db "huge.db: result 1 is not a JSON document: .*values"
crafted tag.db "UPDATE tags SET key = 'bad key,=x';"
refused "a tag key 'bad key,=x'" tag.db "tag.db: result 1 has a tag (1 of 1) that is not KEY=VALUE"
crafted label.db "UPDATE results SET label = printf('%.1000c', 'x') WHERE id = 2;"
refused "a 1,000-byte label" label.db "label.db: result 2 has a label of 1000 bytes (at most 127)"
crafted tags.db "INSERT INTO tags SELECT 1, 'k' || value, 'v', NULL FROM json_each('[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]');"
refused "a result with 18 tags" tags.db "tags.db: result 1 has more than 16 tags"
check "the store holds what it held: $before result(s)" test "$(count)" -eq "$before"

check_rc "the sound store merges: exit 0" 0 "$NETBENCH" results merge --db m.db good.db
check "... one result more (the other is the one m.db holds, byte for byte)" sh -c \
	"[ $(count) -eq $((before + 1)) ] && grep -q '1 result merged, 1 already here' '$nb_tmp/out'"
check_rc "... and every reader reads the whole store" 0 sh -c "
	'$NETBENCH' compare --db m.db >/dev/null && '$NETBENCH' results export --db m.db --csv >/dev/null &&
	'$NETBENCH' report --db m.db -o r.html"
echo "1..$n"
