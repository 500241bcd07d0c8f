#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tput -u paces one datagram every size x 8 / rate seconds: -r 8k with 32 KiB datagrams sends
# one every 32 s, and a 1 s window would wait for nothing. Such a rate is refused at once with
# the smallest rate that puts 10 datagrams of the largest size in each window per stream; that
# rate runs and measures, one a hundredth below it is refused.
. "$(dirname "$0")/../lib.sh"
P=5422
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
T="-c 127.0.0.1 -p $P -u --tx-only"
# shellcheck disable=SC2086
check_refused "-r 8k -l 32k -t 1: refused at once with the smallest rate" 2 \
	"-r 8k is too slow for 32768-byte datagrams: a 1 s window would hold 0.031 of them per stream, and a rate needs 10; give at least -r 2.63M" \
	timeout 3 "$NETBENCH" tput $T -r 8k -l 32k -t 1
# shellcheck disable=SC2086
check_refused "-r 2.62M: 9.99 datagrams a window, refused" 2 "give at least -r 2.63M" \
	timeout 3 "$NETBENCH" tput $T -r 2.62M -l 32k -t 1
# shellcheck disable=SC2086
check_refused "the largest of several sizes decides; a longer -t lowers the rate" 2 "give at least -r 1.32M" \
	timeout 3 "$NETBENCH" tput $T -r 100k -l 1k,32k -t 2
# shellcheck disable=SC2086
check_rc "-r 2.63M -l 32k -t 1 runs (within 15 s)" 0 timeout 15 "$NETBENCH" tput $T -r 2.63M -l 32k \
	-t 1 -O 0.2 -J -o "$nb_tmp/t.json"
check "and measures 2.63 Mbit/s from the 10 datagrams of its window (within 10 %)" json_check "$nb_tmp/t.json" '
s = d["steps"][0]
assert s["valid"] and s["window_datagrams"] >= 10 and abs(s["mbit_per_s"] / 2.63 - 1) < 0.1, s
'
echo "1..$n"
