#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compare keeps every receiver and every fact where it belongs: a multicast stream run with two
# receiving agents, saved once, compares as two rows, each named by the label and its receiver
# and carrying its own interface (the receivers' interfaces are named differently here, and the
# controller's differently again, so a fact taken from the wrong end shows). Three runs of one
# label tagged rules=0/100/100 are shown per tag value, not averaged.
#
#   nbtcmp-s  198.18.52.1 ctl0  --+
#   nbtcmp-r1 198.18.52.2 lan1  --+-- bridge in nbtcmp-br
#   nbtcmp-r2 198.18.52.3 wan2  --+
. "$(dirname "$0")/../lib.sh"
trap nb_cleanup EXIT
P=nbtcmp_$nb_id
PORT=5394
need_store
need_root
netns_add "$P-br" 2>/dev/null || skip_all "cannot create network namespaces"
inns() { _ns=$1; shift; ip netns exec "$P-$_ns" "$@"; }
inns br ip link add br0 type bridge
inns br ip link set br0 up
i=1
for x in s:ctl0 r1:lan1 r2:wan2; do
	ns=${x%%:*} dev=${x#*:}
	netns_add "$P-$ns" || { notok "namespace $P-$ns"; exit 1; }
	veth_pair "$P-br" "b-$ns" "$P-$ns" "$dev" - "198.18.52.$i/24" || { notok "veth to $ns"; exit 1; }
	inns br ip link set "b-$ns" master br0
	inns "$ns" ip route add 224.0.0.0/4 dev "$dev"
	i=$((i + 1))
done
wait_until 10 "the bridge ports forwarding" \
	sh -c "! ip netns exec $P-br bridge link show | grep -v 'state forwarding' | grep -q ."
agent "$P-r1" -- -p $PORT || { notok "agent in r1 starts"; exit 1; }
agent "$P-r2" -- -p $PORT || { notok "agent in r2 starts"; exit 1; }
DB=$nb_tmp/rows.db

check_rc "stream -c r1,r2 --save: a two-receiver multicast run" 0 inns s "$NETBENCH" stream \
	-c 198.18.52.2,198.18.52.3 --ctl-port $PORT -a 239.7.7.7 -p 12370 --rates 2M -t 0.5 \
	--save "$DB" --label "two boards"
check_rc "compare --test stream" 0 "$NETBENCH" compare --db "$DB" --test stream
sed 's/^/# /' "$nb_tmp/out"
check "one row per receiver, named by label and receiver, with its own interface" sh -c "
	grep -Eq '^two boards / 198\.18\.52\.2 \(.*lan1 veth\)~? +[0-9]' $nb_tmp/out &&
	grep -Eq '^two boards / 198\.18\.52\.3 \(.*wan2 veth\)~? +[0-9]' $nb_tmp/out"
check "the controller's interface is nowhere in the table" sh -c "! grep -q ctl0 $nb_tmp/out"
"$NETBENCH" compare --db "$DB" --test stream -J >"$nb_tmp/c.json"
check "compare -J: two lines, each with its receiver's interface" json_check "$nb_tmp/c.json" '
t = d["tables"][0]
assert len(t["rows"]) == 2, t["rows"]
assert [l["iface"] for l in t["lines"]] == ["lan1", "wan2"], t["lines"]
assert [l["series"] for l in t["lines"]] == ["198.18.52.2", "198.18.52.3"]
'
"$NETBENCH" results export --db "$DB" --csv --test stream >"$nb_tmp/x.csv"
check "export: both receivers, each with its own host facts" python3 -c "
import csv
rows = list(csv.DictReader(open('$nb_tmp/x.csv')))
assert {r['series'] for r in rows} == {'198.18.52.2', '198.18.52.3'}, rows
"

# Tags: one label measured at three rule counts is three groups, never one average.
check_rc "mem --quick, tagged rules=0 / 100 / 100 under one label" 0 sh -c "
	'$NETBENCH' mem --quick --save '$DB' --label fw --tag rules=0 &&
	'$NETBENCH' mem --quick --save '$DB' --label fw --tag rules=100 &&
	'$NETBENCH' mem --quick --save '$DB' --label fw --tag rules=100"
check_rc "compare --test mem" 0 "$NETBENCH" compare --db "$DB" --test mem
check "the label is split by its tag, with a warning" sh -c "
	grep -q 'fw \[rules=0\]: 1 run' $nb_tmp/out && grep -q 'fw \[rules=100\]: 2 runs' $nb_tmp/out &&
	grep -q 'label fw (its runs differ in rules): shown per tag or setting, not averaged' $nb_tmp/out"
check_rc "--baseline fw is ambiguous: usage error naming the groups" 2 \
	"$NETBENCH" compare --db "$DB" --test mem --baseline fw
check "it names both" sh -c "grep -q \"'fw \[rules=0\]'\" $nb_tmp/out && grep -q \"'fw \[rules=100\]'\" $nb_tmp/out"
check_rc "--baseline 'fw [rules=0]'" 0 "$NETBENCH" compare --db "$DB" --test mem --baseline 'fw [rules=0]'

# An emulated platform (env "virtualization", as an agent under qemu-user records it) is marked;
# a document without the key is unknown and unmarked.
"$NETBENCH" mem --quick -J >"$nb_tmp/m.json" 2>/dev/null
python3 - "$nb_tmp/m.json" "$nb_tmp/emu.json" "$nb_tmp/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["env"]["local"]["virtualization"] = "qemu-user ppc on x86_64"
json.dump(d, open(sys.argv[2], "w"))
# An older agent's document: no key at all.
del d["env"]["local"]["virtualization"]
json.dump(d, open(sys.argv[3], "w"))
PY
check_rc "import a document of an emulated platform" 0 "$NETBENCH" results import --db "$DB" \
	--label "ppc under qemu" "$nb_tmp/emu.json"
check_rc "and one without the key" 0 "$NETBENCH" results import --db "$DB" --label plain \
	"$nb_tmp/plain.json"
check_rc "compare --test mem" 0 "$NETBENCH" compare --db "$DB" --test mem
check "its columns carry ~ and a sentence says its figures are not a board's" sh -c "
	grep -q ': ns per load~' $nb_tmp/out &&
	grep -q '~ ppc under qemu ran under qemu-user ppc on x86_64: its instructions were translated and its CPU figures are the host kernel.s, not a board.s' $nb_tmp/out"
check "the run without the key is not marked" sh -c "
	grep -q 'plain: ns per load' $nb_tmp/out && ! grep -q 'plain: ns per load~' $nb_tmp/out &&
	! grep -q '^~ plain' $nb_tmp/out"
echo "1..$n"
