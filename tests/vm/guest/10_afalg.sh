#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM: netbench crypto by kernel driver. The virtio hardware driver and the
# kernel's software cbc(aes-generic) each pass the known-answer and reference checks and are
# timed; afalg:all finds both and gives the crossover line with CPU time per KByte, with
# several requests in flight. Function and accounting only: speeds under emulation mean nothing.
. "$TOP/tests/lib.sh"
NB=$NETBENCH
o=$nb_tmp/afalg.json
check_rc "afalg:virtio_crypto_aes_cbc and afalg:cbc(aes-generic) checked and timed" 0 \
	"$NB" crypto --algo aes-128-cbc -e 'afalg:virtio_crypto_aes_cbc,afalg:cbc(aes-generic)' \
	-s 64,1024,8192 -t 0.1 -J
cp "$nb_tmp/out" "$o"
sed 's/^/NBVMJ crypto_afalg /' "$o" # to the host, which validates it against docs/schema
for d in virtio_crypto_aes_cbc 'cbc(aes-generic)'; do
	if tr -d '\n ' <"$o" | grep -q "\"engine\":\"afalg:$d\",\"status\":\"ok\",\"check\":\"knownanswerandref"; then
		ok "$d passed the known answer and the reference"
	else
		notok "$d passed the known answer and the reference"
		sed 's/^/# /' "$o" | grep -i 'reason\|status' | head -5
	fi
done
n=$(grep -c '"mbyte_per_s"' "$o")
check "both drivers timed at the three sizes ($n points)" [ "$n" -eq 6 ]
check "the virtio driver is reported as hardware, with its priority" \
	sh -c "tr -d '\n ' <'$o' | grep -q '\"driver\":\"virtio_crypto_aes_cbc\",\"module\":\"virtio_crypto\",\"priority\":150,\"hardware\":true'"
check "virtio's crossover is against cbc(aes-generic)" \
	grep -q '"crossover_vs": "afalg:cbc(aes-generic)"' "$o"

check_rc "afalg:all with 4 requests in flight" 0 \
	"$NB" crypto --algo aes-128-cbc -e afalg:all -s 256,4096 -t 0.1 -n 4
sed 's/^/# /' "$nb_tmp/out"
check "afalg:all measured the virtio driver" has 'afalg:virtio_crypto_aes_cbc  *checked'
check "afalg:all measured a software driver" has 'afalg:cbc(aes-generic) *checked'
check "a crossover line: hardware against the fastest software driver" \
	grep -Eq 'crossover: (none, )?afalg:virtio_crypto_aes_cbc (beats|does not beat) afalg:' "$nb_tmp/out"
check "CPU time per KByte, proc and sys, in the table" has 'CPU us/KB proc'
check "4 in flight" has '4 in flight'
check_rc "an unknown driver is refused as unsupported, not timed" 1 \
	"$NB" crypto --algo aes-128-cbc -e 'afalg:no-such-driver' -s 64 -t 0.05
check "the refusal names the driver" has 'no skcipher driver "no-such-driver"'
