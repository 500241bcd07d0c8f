#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# rate -r with its unit: a bare number and Nfps count frames/s, Nbit/s the frames' bits (the
# table's Mbit/s column), N% a share of --line-rate (preamble and gap counted). Trials over the
# loopback of a namespace of this test's own offer what was asked, and the document says what
# that was. A rate above what the line carries at a frame size, a share without a line rate,
# and a size's rate outside what the generator takes are refused before anything is sent
# (exit 2, the option and value as typed, no document written); a bare number that reads as a bit rate
# runs as frames/s with a warning.
. "$(dirname "$0")/../lib.sh"
need_root
P=nbtru
netns_add "$P-a" || skip_all "cannot create network namespaces"
ip netns exec "$P-a" ip link set lo up
nbr() { ip netns exec "$P-a" "$NETBENCH" rate --local-rx 127.0.0.1 "$@"; }
doc=$nb_tmp/r.json

check_refused "-r 2Gbit/s at --line-rate 1G: above the line at 64 bytes" 2 \
	"--rate 2Gbit/s is 3906250 frames/s at 64-byte frames, above what the line carries: 1488095" \
	nbr -r 2Gbit/s --line-rate 1G -s 64,1518 -o "$doc"
check "no document was written" test ! -e "$doc"
check_refused "--rate 1.5Mfps above 1G's 1518-byte line rate (81274 frames/s)" 2 \
	"--rate 1.5Mfps is 1500000 frames/s at 1518-byte frames.*81274" \
	nbr --rate 1.5Mfps --line-rate 1G -s 1518
check_refused "-r 101%: not a share" 2 "'101%' is not a share of the line rate" nbr -r 101%
check_refused "-r 50% without --line-rate" 2 "--rate 50% is a share of the line rate: give .*--line-rate" \
	nbr -r 50% -s 64
check_refused "--rate 10kbit/s is 20 frames/s at 64 bytes: below the generator's 1k" 2 \
	"--rate 10kbit/s is 20 frames/s at 64-byte frames: the generator takes 1000" nbr -r 10kbit/s -s 64
check_refused "-r 100x: not a rate, the forms named" 2 "'100x' is not a rate (accepted: .*Nbit/s.*N%" \
	nbr -r 100x

check_rc "-r 100Mbit/s, one 512-byte trial" 0 nbr -r 100Mbit/s -s 512 --test trial -T 0.5 -J -o "$doc"
check "100 Mbit/s of 512-byte frames offered (24414 frames/s, within 3 %); rate_bps in the document" \
	json_check "$doc" '
p, s = d["parameters"], d["sizes"][0]
assert p["rate_bps"] == 100000000 and p["rate_fps"] == 0, p
t = s["trials"][0]
assert abs(t["offered_fps"] / 24414.06 - 1) < 0.03, t["offered_fps"]
assert abs(t["offered_fps"] * 512 * 8 / 1e8 - 1) < 0.03
'
check_rc "-r 2% of --line-rate 1G, one 1518-byte trial" 0 nbr -r 2% --line-rate 1G -s 1518 \
	--test trial -T 0.5 -J -o "$doc"
check "2 % of the line's 81274 frames/s offered (1625, within 3 %); rate_line_pct in the document" \
	json_check "$doc" '
p, t = d["parameters"], d["sizes"][0]["trials"][0]
assert p["rate_line_pct"] == 2 and p["line_rate_bps"] == 1000000000, p
assert abs(t["offered_fps"] / 1625.49 - 1) < 0.03, t["offered_fps"]
'
check_rc "-r 20kfps is -r 20k" 0 nbr -r 20kfps -s 64 --test trial -T 0.3 -J -o "$doc"
check "rate_fps 20000" json_check "$doc" 'assert d["parameters"]["rate_fps"] == 20000'
check_schemas "$doc"
# 100M frames/s is more than loopback takes: the trial falls short (exit 1), as it says.
check_rc "-r 100M runs as frames/s (and falls short)" 1 nbr -r 100M -s 64 --test trial -T 0.2
check "warned before the first trial that a bare number counts frames, and how to write bit/s" \
	sh -c "head -1 '$nb_tmp/out' | grep -q 'means 100M frames/s (a bare number counts frames); for a bit rate write 100Mbit/s'"
echo "1..$n"
