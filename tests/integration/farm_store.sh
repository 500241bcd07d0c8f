#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A farm's store and LAVA: two stores merge without duplicates (labels and tags kept, the other
# store opened read-only and never created); every figure of a result becomes a lava-test-case
# line that LAVA's argument grammar takes, with names stable from run to run; the LAVA job and
# test definitions in farm/lava/ pass LAVA's own schema validation (lava-common).
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
NB=$NETBENCH
t=$nb_tmp

need_store

# Two small real results, each measured twice (two documents per test).
for i in 1 2; do
	"$NB" mem --quick -J >"$t/mem$i.json" 2>"$t/err" || { sed 's/^/# /' "$t/err"; }
done
check "two mem results measured" test -s "$t/mem1.json" -a -s "$t/mem2.json"

"$NB" results import --db "$t/a.db" --label board-a --tag core_mhz=400 "$t/mem1.json" >/dev/null 2>&1
"$NB" results import --db "$t/b.db" --label board-b --tag core_mhz=333 "$t/mem2.json" >/dev/null 2>&1
"$NB" results import --db "$t/b.db" --label board-a --tag core_mhz=400 "$t/mem1.json" >/dev/null 2>&1
count() { "$NB" results list --db "$1" -J | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["results"]))'; }
check_rc "merge b into a" 0 "$NB" results merge --db "$t/a.db" "$t/b.db"
check "merge says what it took and what it skipped" has "1 result merged, 1 already here"
check "a holds the two distinct documents" test "$(count "$t/a.db")" -eq 2
"$NB" results list --db "$t/a.db" -J >"$t/list.json"
check "the merged result keeps its label and tag" /usr/bin/python3 -c '
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["label"] == "board-b"]
assert len(r) == 1 and r[0]["tags"] == {"core_mhz": "333"} and r[0]["source"] == "merge", r
' "$t/list.json"
check_rc "merging again adds nothing" 0 "$NB" results merge --db "$t/a.db" "$t/b.db"
check "and says so" has "0 results merged, 2 already here"
check "still two results" test "$(count "$t/a.db")" -eq 2
check_rc "a missing store to merge is an error" 1 "$NB" results merge --db "$t/a.db" "$t/none.db"
check "naming it, and it is not created" sh -c "grep -q 'none.db' '$nb_tmp/out' && test ! -e '$t/none.db'"
printf 'not a database at all, but long enough to be read as one by SQLite......' >"$t/junk.db"
check_rc "a file that is not a store is refused" 1 "$NB" results merge --db "$t/a.db" "$t/junk.db"
check "still two results after the refusals" test "$(count "$t/a.db")" -eq 2
check_rc "merge without a store to merge is a usage error" 2 "$NB" results merge --db "$t/a.db"

# LAVA test cases. The grammar: LAVA's lava-test-case takes NAME --result R [--measurement M]
# [--units U]; its signal carries them as space-separated KEY=VALUE words.
cat >"$t/lava-test-case" <<'EOS'
#!/bin/sh
# What LAVA's lava-test-case accepts (its argument parsing), recording each case in a file.
name=$1; shift
[ -n "$name" ] || exit 1
case $name in *[!A-Za-z0-9._-]*) echo "bad name $name" >&2; exit 1 ;; esac
while [ $# -gt 0 ]; do
	case $1 in
	--result) case $2 in pass|fail|skip|unknown) r=$2 ;; *) exit 1 ;; esac; shift 2 ;;
	--measurement) case $2 in ''|*[!0-9.-]*) echo "bad measurement $2" >&2; exit 1 ;; esac; m=$2; shift 2 ;;
	--units) case $2 in ''|*[!A-Za-z0-9._/%-]*) echo "bad units $2" >&2; exit 1 ;; esac; shift 2 ;;
	*) echo "unknown argument $1" >&2; exit 1 ;;
	esac
done
[ -n "$r" ] || exit 1
echo "$name $r $m" >>"$LAVA_CASES"
EOS
chmod +x "$t/lava-test-case"
"$NB" results export --lava --prefix qemu-armhf "$t/mem1.json" >"$t/lava1.txt" 2>"$t/err"
"$NB" results export --lava --prefix qemu-armhf "$t/mem2.json" >"$t/lava2.txt" 2>>"$t/err"
check "export --lava prints test cases for a document" test "$(wc -l <"$t/lava1.txt")" -ge 10 ||
	sed 's/^/# /' "$t/err"
check "every line is lava-test-case NAME --result pass --measurement DECIMAL --units UNIT" sh -c "
	! grep -Ev '^lava-test-case qemu-armhf\\.mem\\.[A-Za-z0-9._-]+ --result pass --measurement -?[0-9]+\\.[0-9]+ --units [A-Za-z0-9._/%-]+\$' '$t/lava1.txt'"
rm -f "$t/cases"
check "LAVA's argument grammar takes every line" env PATH="$t:$PATH" LAVA_CASES="$t/cases" sh -e "$t/lava1.txt"
check "one case per line, names unique" test "$(cut -d' ' -f1 "$t/cases" | sort -u | wc -l)" -eq "$(wc -l <"$t/lava1.txt")"
check "the names are the same from run to run" sh -c "
	cut -d' ' -f2 '$t/lava1.txt' | sort >'$t/n1'; cut -d' ' -f2 '$t/lava2.txt' | sort >'$t/n2'; cmp -s '$t/n1' '$t/n2'"
check "the measurements are the document's figures" /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
want = sorted(round(p["ns_per_load"], 3) for p in d["latency"]["points"])
got = sorted(float(l.split()[5]) for l in open(sys.argv[2]) if ".latency." in l)
assert got == want, (got[:5], want[:5])
' "$t/mem1.json" "$t/lava1.txt"
"$NB" results export --lava --db "$t/a.db" --label board-b >"$t/lava3.txt" 2>"$t/err"
check "stored results export with their label as the prefix" sh -c "
	test -s '$t/lava3.txt' && ! grep -v '^lava-test-case board-b\\.mem\\.' '$t/lava3.txt'"
check_rc "documents and store filters together are a usage error" 2 \
	"$NB" results export --lava --label x "$t/mem1.json"
check_rc "a --prefix outside the case-name alphabet is a usage error" 2 \
	"$NB" results export --lava --prefix 'a b' "$t/mem1.json"

# LAVA's own schemas (lava-common), run by Debian's python.
if /usr/bin/python3 -c 'import lava_common.schemas, yaml' 2>/dev/null; then
	cat >"$t/validate.py" <<'EOS'
import sys, yaml
from lava_common.schemas import validate
from lava_common.schemas.test import testdef
kind, path = sys.argv[1], sys.argv[2]
data = yaml.safe_load(open(path))
if kind == "job":
    validate(data, strict=True)
else:
    testdef.validate(data)
EOS
	# The files, relative to the top of the tree.
	cd "$TOP" || exit 1
	for j in farm/lava/job-qemu-*.yaml; do
		check_quiet "$(basename "$j") passes LAVA's job schema" /usr/bin/python3 "$t/validate.py" job "$j"
	done
	for d in farm/lava/netbench-*.yaml; do
		check_quiet "$(basename "$d") passes LAVA's test-definition schema" /usr/bin/python3 "$t/validate.py" testdef "$d"
	done
	# The check can fail: a job without its device type, a definition with a wrong format.
	sed '/^device_type:/d' farm/lava/job-qemu-armhf.yaml >"$t/bad-job.yaml"
	check "a job without device_type is refused by the same check" sh -c "! /usr/bin/python3 '$t/validate.py' job '$t/bad-job.yaml' 2>/dev/null"
	sed 's/Lava-Test Test Definition 1.0/Lava-Test Test Definition 9/' farm/lava/netbench-board.yaml >"$t/bad-def.yaml"
	check "a definition of another format is refused" sh -c "! /usr/bin/python3 '$t/validate.py' testdef '$t/bad-def.yaml' 2>/dev/null"
else
	skip "LAVA's schemas: /usr/bin/python3 has no lava_common or yaml (lava-common, python3-yaml)"
fi
echo "1..$n"
