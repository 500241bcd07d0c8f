#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Inside the test VM (Debian's stock kernel under qemu, one CPU): crypto --profile by kernel
# driver, the known answer of where a request's time goes. The kernel's software driver
# cbc(aes-generic) computes on the CPU: the crypto category holds the largest share of the
# samples, clear of every other category (95 % intervals apart), and its busiest function is an
# aes one (crypto_aes_encrypt, the aes_generic code), clear of the next crypto function, and no
# virtio_crypto function is on any of its stacks. The virtio-crypto driver hands the request to
# the device (qemu computes it) and waits: its driver's functions (virtio_crypto_*) are on the
# stacks of an established share of the samples (--profile-folded), and the waiting around it
# (scheduler, idle, interrupts) holds an established share, its interval above aes-generic's.
# Under TCG the device computes inside the driver's kick, with interrupts off: the device's time
# lands on the driver (at _raw_spin_unlock_irqrestore, where the deferred sample is taken), so
# how it splits between the driver and the waiting varies from run to run; what it is not, is
# aes-generic's picture. No Python here: the JSON is
# read with awk (the host validates it against docs/schema).
. "$TOP/tests/lib.sh"
NB=$NETBENCH

# prof_lines FILE: the single point's profile as lines "total N", "cat NAME N", "func NAME MODULE
# N" (MODULE "-" when built in), from the pretty-printed JSON.
prof_lines() {
	awk '
	/"profile": \{/ { inp = 1; next }
	inp && /"available": false/ { print "unavailable"; exit }
	inp && !tot && /"samples": / { gsub(/[^0-9]/, ""); print "total " $0; tot = 1; next }
	inp && /"categories": \[/ { sec = "cat"; next }
	inp && /"functions": \[/ { sec = "func"; next }
	inp && /"functions_cpus"/ { sec = ""; next }
	inp && sec != "" && /"name": / { s = $0; sub(/.*"name": "/, "", s); sub(/".*/, "", s); nm = s; md = "-"; next }
	inp && sec == "func" && /"module": "/ { s = $0; sub(/.*"module": "/, "", s); sub(/".*/, "", s); md = s; next }
	inp && sec != "" && /"samples": / { s = $0; gsub(/[^0-9]/, "", s)
		if (sec == "cat") print "cat " nm " " s; else print "func " nm " " md " " s; next }
	inp && /"profile_ns_per_byte"/ { exit }
	' "$1"
}

# wilson K N: the 95 % interval of K of N (Wilson score, as the profiler's), "LO HI". Busybox
# awk has no sqrt: Newton's iteration.
wilson() {
	awk -v k="$1" -v n="$2" 'function sq(x, r, i) { if (x <= 0) return 0; r = x < 1 ? 1 : x
			for (i = 0; i < 80; i++) r = (r + x / r) / 2; return r }
		BEGIN { z = 1.96; p = k / n; d = 1 + z * z / n
		c = (p + z * z / (2 * n)) / d; h = z * sq(p * (1 - p) / n + z * z / (4 * n * n)) / d
		printf "%.4f %.4f\n", c - h, c + h }'
}

# established K N: the profiler's rule, the interval's half-width at most half the share.
established() {
	set -- "$1" "$2" $(wilson "$1" "$2")
	awk -v k="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(k > 0 && (hi - lo) / 2 <= k / n / 2) }'
}

# above K N HI: K of N is established and its interval lies above HI.
above() {
	established "$1" "$2" || return 1
	set -- $(wilson "$1" "$2") "$3"
	awk -v lo="$1" -v hi="$3" 'BEGIN { exit !(lo > hi) }'
}

# on_stack FOLDED PATTERN: the samples with a frame matching PATTERN on their stack.
on_stack() {
	awk -v p="$2" '{ c = $NF; f = $0; sub(/ [0-9]+$/, "", f); n = split(f, fr, ";")
		for (i = 1; i <= n; i++) if (fr[i] ~ p) { s += c; break } } END { print s + 0 }' "$1"
}

# run ENGINE FILE: one point (8 KB requests, a 1 s window) with its profile, as JSON, and its
# stacks in FILE.folded.
run() {
	"$NB" crypto --algo aes-128-cbc -e "$1" -s 8192 -t 1 --profile=997 -J \
		--profile-folded "$2.folded" >"$2" 2>"$nb_tmp/err"
}

# 1. cbc(aes-generic): the CPU computes.
o=$nb_tmp/prof_aes.json
if ! run 'afalg:cbc(aes-generic)' "$o"; then
	notok "crypto --profile with afalg:cbc(aes-generic)"
	sed 's/^/# /' "$nb_tmp/err" | head -5
	exit 1
fi
sed 's/^/NBVMJ crypto_profile_aes /' "$o"
prof_lines "$o" >"$nb_tmp/aes.lines"
sed 's/^/# aes: /' "$nb_tmp/aes.lines" | head -30
if grep -q unavailable "$nb_tmp/aes.lines"; then
	notok "the profile is available in the guest ($(grep -o '"unavailable": "[^"]*"' "$o"))"
	exit 1
fi
tot=$(sed -n 's/^total //p' "$nb_tmp/aes.lines")
tot_aes=$tot
check "aes-generic: the point's profile has samples ($tot)" [ "${tot:-0}" -ge 50 ]
# The two largest categories other than idle.
set -- $(awk '$1 == "cat" && $2 != "idle" { print $3, $2 }' "$nb_tmp/aes.lines" | sort -rn | head -2 | tr '\n' ' ')
first=$2 k1=$1 second=${4:-none} k2=${3:-0}
set -- $(wilson "$k1" "$tot") $(wilson "$k2" "$tot")
check "aes-generic: crypto is the largest category ($first $k1 of $tot, [$1, $2]), clear of the next ($second $k2, [$3, $4])" \
	awk -v f="$first" -v lo="$1" -v hi="$4" 'BEGIN { exit !(f == "crypto" && lo > hi) }'
# The crypto functions by the crypto rules' names (docs/design.md), the busiest first.
awk '$1 == "func" && ($2 ~ /^_*(crypto_|aes|cbc_|skcipher_|af_alg)/ || $3 == "aes_generic") { print $4, $2 }' \
	"$nb_tmp/aes.lines" | sort -rn | head -2 >"$nb_tmp/aesf"
set -- $(tr '\n' ' ' <"$nb_tmp/aesf")
f1=${2:-none} c1=${1:-0} f2=${4:-none} c2=${3:-0}
set -- $(wilson "$c1" "$tot") $(wilson "$c2" "$tot")
check "aes-generic: the busiest crypto function is an aes one ($f1 $c1 of $tot, [$1, $2]), clear of the next ($f2 $c2, [$3, $4])" \
	awk -v f="$f1" -v lo="$1" -v hi="$4" 'BEGIN { exit !(f ~ /aes/ && lo > hi) }'
wait_aes=$(awk '$1 == "cat" && ($2 == "sched" || $2 == "idle" || $2 == "irq") { s += $3 } END { print s + 0 }' "$nb_tmp/aes.lines")
vc_aes=$(on_stack "$o.folded" '^virtio_crypto_')
check "aes-generic: no virtio_crypto function on any stack ($vc_aes samples)" [ "$vc_aes" -eq 0 ]

# 2. virtio_crypto_aes_cbc: the device computes, the CPU waits.
o=$nb_tmp/prof_virtio.json
if ! run afalg:virtio_crypto_aes_cbc "$o"; then
	notok "crypto --profile with afalg:virtio_crypto_aes_cbc"
	sed 's/^/# /' "$nb_tmp/err" | head -5
	exit 1
fi
sed 's/^/NBVMJ crypto_profile_virtio /' "$o"
prof_lines "$o" >"$nb_tmp/v.lines"
sed 's/^/# virtio: /' "$nb_tmp/v.lines" | head -30
tot=$(sed -n 's/^total //p' "$nb_tmp/v.lines")
check "virtio: the point's profile has samples ($tot)" [ "${tot:-0}" -ge 50 ]
vc=$(on_stack "$o.folded" '^virtio_crypto_')
set -- $(wilson "$vc" "$tot")
check "virtio: its driver (virtio_crypto_*) is on the stack of an established share ($vc of $tot, [$1, $2])" \
	established "$vc" "$tot"
wt=$(awk '$1 == "cat" && ($2 == "sched" || $2 == "idle" || $2 == "irq") { s += $3 } END { print s + 0 }' "$nb_tmp/v.lines")
set -- $(wilson "$wt" "$tot") $(wilson "$wait_aes" "$tot_aes")
check "virtio: the waiting around it (sched, idle, irq: $wt of $tot, [$1, $2]) is established and above aes-generic's ($wait_aes of $tot_aes, [$3, $4])" \
	above "$wt" "$tot" "$4"
"$NB" crypto --algo aes-128-cbc -e 'afalg:cbc(aes-generic),afalg:virtio_crypto_aes_cbc' -s 8192 \
	-t 0.5 --profile=997 2>&1 | sed -n '/where it went/,$p' | sed 's/^/# /'
