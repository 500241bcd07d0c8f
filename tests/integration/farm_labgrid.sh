#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# make farm inside make check: labgrid boots the emulated armhf board, starts netbench serve on
# its console, and the controller's tput, stream receive and rate trial against it are stored
# with the board's platform (farm/run.sh, farm/labgrid). One TAP line per pytest test case.
. "$(dirname "$0")/../lib.sh"
TOP=${TOP:-.}
B=${BUILD:-build}
need_root
B=$(cd "$B" && pwd)
(cd "$TOP" && NB_FARM_DB="$nb_tmp/farm.db" sh farm/run.sh "$B" "$nb_tmp/junit.xml") >"$nb_tmp/farm.log" 2>&1
rc=$?
if [ $rc -eq 3 ]; then
	skip_all "$(grep -m1 '^SKIP' "$nb_tmp/farm.log" | sed 's/^SKIP //')"
fi
if [ ! -s "$nb_tmp/junit.xml" ]; then
	notok "the labgrid suite ran (exit $rc, no JUnit report)"
	tail -30 "$nb_tmp/farm.log" | sed 's/^/# /'
	exit 1
fi
/usr/bin/python3 - "$nb_tmp/junit.xml" >"$nb_tmp/tap" <<'EOS'
import sys, xml.etree.ElementTree as ET
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    name = tc.get("name")
    bad = [c for c in tc if c.tag in ("failure", "error")]
    skipped = [c for c in tc if c.tag == "skipped"]
    if bad:
        print(f"NOTOK labgrid: {name}")
        for line in (bad[0].get("message") or "").splitlines()[:8]:
            print(f"# {line}")
    elif skipped:
        print(f"SKIP labgrid: {name}: {skipped[0].get('message')}")
    else:
        print(f"OK labgrid: {name}")
EOS
while IFS= read -r line; do
	case $line in
	OK\ *) ok "${line#OK }" ;;
	NOTOK\ *) notok "${line#NOTOK }" ;;
	SKIP\ *) skip "${line#SKIP }" ;;
	*) echo "$line" ;;
	esac
done <"$nb_tmp/tap"
check "pytest's status agrees" test $rc -eq 0 || tail -20 "$nb_tmp/farm.log" | sed 's/^/# /'
check "the store holds tput, stream and rate results of the board" sh -c "
	'$NETBENCH' results list --db '$nb_tmp/farm.db' -J | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)[\"results\"]
assert sorted(x[\"test\"] for x in r) == [\"rate\", \"stream\", \"tput\"], r
assert all(x[\"arch\"].startswith(\"arm\") and x[\"label\"].startswith(\"qemu-armhf-\") for x in r), r
'"
check "no namespace, tap or qemu is left" sh -c "! ip netns list | grep -q '^nbfarm' && ! pgrep -f '[q]emu-system-arm.*nbfarm0' >/dev/null"
echo "1..$n"
