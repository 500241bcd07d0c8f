#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# netbench rate --bidir (docs/rate.md, "Both directions"): through the lab's DUT, each
# direction's counts reconcile with the DUT's interfaces' rx/tx packets (less what nftables in
# the DUT counted as its own or control traffic); the JSON validates and names the direction;
# a controller that speaks the protocol and asks the agent to send its reverse stream elsewhere,
# or above its caps by splitting the rate over the directions, is refused (hostile_client.py
# bidir); an agent that does not know --bidir is refused by name; bad input exits 2.
# Runs as root, about 20 s.
NB=${NETBENCH:?}
. "$(dirname "$0")/../lib.sh"
P=nbtbid_$nb_id
tmp=$nb_tmp
PY="python3 $(dirname "$0")/hostile_client.py"

need_root
command -v nft >/dev/null || skip_all "needs nft"
lab_up $P || { notok "lab up --prefix $P"; exit 1; }
D="ip netns exec $P-dut"
G="ip netns exec $P-gen"
# The lab is IPv4 here: IPv6 off on its four interfaces, so that the fresh links' IPv6 chatter
# (router solicitations, MLD reports), which reaches no nftables hook, does not cross the
# counters the reconciliation below reads.
for l in gen:gen0 dut:dut0 dut:dut1 sink:sink0; do
	ip netns exec "$P-${l%%:*}" sysctl -qw "net.ipv6.conf.${l#*:}.disable_ipv6=1" || true
done
# What crosses the DUT besides the test's UDP frames: control connections (TCP, forwarded) and
# the DUT's own traffic (its observer, ICMP, neighbour discovery), counted per interface.
$D nft -f - <<'NFT' || skip_all "nftables cannot load the DUT's counters"
table inet nbtbid {
	counter fwd_tcp_01 {}
	counter fwd_tcp_10 {}
	counter fwd_udp_01 {}
	counter fwd_udp_10 {}
	counter rev_l46 {}
	counter rev_l552 {}
	counter rev_l1500 {}
	counter in0 {}
	counter in1 {}
	counter out0 {}
	counter out1 {}
	chain c_fwd {
		type filter hook forward priority 0; policy accept;
		iifname "dut0" meta l4proto tcp counter name fwd_tcp_01
		iifname "dut1" meta l4proto tcp counter name fwd_tcp_10
		iifname "dut0" meta l4proto udp counter name fwd_udp_01
		iifname "dut1" meta l4proto udp counter name fwd_udp_10
		iifname "dut1" meta l4proto udp ip length 46 counter name rev_l46
		iifname "dut1" meta l4proto udp ip length 552 counter name rev_l552
		iifname "dut1" meta l4proto udp ip length 1500 counter name rev_l1500
	}
	chain c_in {
		type filter hook input priority 0; policy accept;
		iifname "dut0" counter name in0
		iifname "dut1" counter name in1
	}
	chain c_out {
		type filter hook output priority 0; policy accept;
		oifname "dut0" counter name out0
		oifname "dut1" counter name out1
	}
}
table arp nbtbid {
	counter arp_in0 {}
	counter arp_in1 {}
	counter arp_out0 {}
	counter arp_out1 {}
	chain c_in {
		type filter hook input priority 0; policy accept;
		iifname "dut0" counter name arp_in0
		iifname "dut1" counter name arp_in1
	}
	chain c_out {
		type filter hook output priority 0; policy accept;
		oifname "dut0" counter name arp_out0
		oifname "dut1" counter name arp_out1
	}
}
NFT
# snap before|after: the DUT's interface and nftables counters. A packet that crosses the DUT
# between the two reads (the control connection's last segments) must never be subtracted
# without being counted: "before" reads the links first, "after" reads nftables first, so such
# a packet can only leave the links' count above the explained one, which the slack allows.
snap() {
	if [ "$1" = before ]; then
		$D ip -s -j link >"$tmp/$1.link" && $D nft -j list counters >"$tmp/$1.nft"
	else
		$D nft -j list counters >"$tmp/$1.nft" && $D ip -s -j link >"$tmp/$1.link"
	fi
}

# One trial at 20 kfps of 128-byte frames, 4 flows, both ways.
snap before
$G "$NB" rate -c 198.19.0.1 --bidir -m trial -r 20k -T 0.5 --drain 200ms -s 128 --flows 4 \
	-J >"$tmp/trial.json" 2>"$tmp/trial.err"
st=$?
snap after
check "rate --bidir -m trial through the DUT: exit status 0 or 1 (generator short of the rate on a busy host) ($st)" \
	test "$st" -le 1 || sed 's/^/# /' "$tmp/trial.err" | tail -5
json_check "$tmp/trial.json" "
def link(name):
    return {l['ifname']: l['stats64'] for l in json.load(open('$tmp/' + name + '.link'))}
def nft(name):
    return {c['counter']['name']: c['counter']['packets'] for c in json.load(open('$tmp/' + name + '.nft'))['nftables'] if 'counter' in c}
b, a = link('before'), link('after')
nb, na = nft('before'), nft('after')
dl = lambda i, k: a[i][k]['packets'] - b[i][k]['packets']
dn = lambda k: na[k] - nb[k]
t = d['sizes'][0]['trials'][0]; v = t['reverse']; L = d['learning'][0]
assert d['parameters']['bidir'] is True
assert t['valid'] and v['valid'], (t.get('invalid_reason'), v.get('invalid_reason'))
# Forward (gen to sink): the learning frames and the trial's, into dut0 and out of dut1.
fwd_in = dl('dut0', 'rx') - dn('fwd_tcp_01') - dn('in0') - dn('arp_in0')
fwd_out = dl('dut1', 'tx') - dn('fwd_tcp_01') - dn('out1') - dn('arp_out1')
rev_in = dl('dut1', 'rx') - dn('fwd_tcp_10') - dn('in1') - dn('arp_in1')
rev_out = dl('dut0', 'tx') - dn('fwd_tcp_10') - dn('out0') - dn('arp_out0')
fwd_sent = t['tx_frames'] + L['frames_sent']
fwd_rcvd = t['rx_frames'] + L['frames_received'] + t['late_frames']
print('# forward: sent %d (trial %d + learning %d), dut0 rx %d; received %d, dut1 tx %d' % (fwd_sent, t['tx_frames'], L['frames_sent'], fwd_in, fwd_rcvd, fwd_out))
print('# reverse: agent sent %d, dut1 rx %d; received %d, dut0 tx %d' % (v['tx_frames'], rev_in, v['rx_frames'], rev_out))
for what, seen, counted in (('forward into the DUT', fwd_in, fwd_sent), ('forward out of the DUT', fwd_out, fwd_rcvd),
                            ('reverse into the DUT', rev_in, v['tx_frames']), ('reverse out of the DUT', rev_out, v['rx_frames'])):
    # A packet or two per interface may reach no hook (the kernel drops them before netfilter):
    # up to 4 are left unexplained, never fewer.
    assert 0 <= seen - counted <= 4, (what, seen, counted)
# and the DUT's own count of forwarded UDP, each way
assert fwd_rcvd <= dn('fwd_udp_01') <= fwd_sent, (dn('fwd_udp_01'), fwd_rcvd, fwd_sent)
assert v['rx_frames'] <= dn('fwd_udp_10') <= v['tx_frames'], (dn('fwd_udp_10'), v['rx_frames'], v['tx_frames'])
assert v['tx_frames'] > 0 and abs(v['tx_frames'] - t['tx_frames']) <= 0.1 * t['tx_frames'], (v['tx_frames'], t['tx_frames'])
assert t['directions']['failed'] == ('none' if t['lost_frames'] == 0 and v['lost_frames'] == 0 else t['directions']['failed'])
assert v['latency_ns'] is None or v['latency_ns']['kind'] == 'one-way'
" >"$tmp/rec.out" 2>&1
check "each direction's counts reconcile with the DUT's veths' rx/tx packets" test $? -eq 0
sed 's/^/# /;s/^# # /# /' "$tmp/rec.out" | tail -4
grep -q "trial 1 reverse: .* fps offered, .* sent" "$tmp/trial.err" 2>/dev/null ||
	$G "$NB" rate -c 198.19.0.1 --bidir -m trial -r 5k -T 0.2 -s 128 >"$tmp/p.out" 2>&1
grep -q "reverse: .* fps offered" "$tmp/trial.err" "$tmp/p.out" 2>/dev/null
check "the trial's reverse line is printed" test $? -eq 0

# --imix simple both ways: the agent's reverse sends the same mix, interleaved in its
# proportions; each direction's frames of each size reconcile at its receiver, and the DUT's
# own counters by IP length (46, 552, 1500 bytes) see the reverse's mix as the controller's
# receiver counted it, in the mix's proportions within 2 %.
snap imix0
$G "$NB" rate -c 198.19.0.1 --bidir -m trial -r 6k -T 0.5 --drain 200ms --imix simple \
	--flows 2 -J >"$tmp/imix.json" 2>"$tmp/imix.err"
st=$?
snap imix1
check "rate --bidir --imix simple -m trial: exit status 0 or 1 ($st)" test "$st" -le 1 ||
	sed 's/^/# /' "$tmp/imix.err" | tail -5
json_check "$tmp/imix.json" "
def nft(name):
    return {c['counter']['name']: c['counter']['packets'] for c in json.load(open('$tmp/' + name + '.nft'))['nftables'] if 'counter' in c}
n0, n1 = nft('imix0'), nft('imix1')
t = d['sizes'][0]['trials'][0]; v = t['reverse']
assert t['valid'] and v['valid'], (t.get('invalid_reason'), v.get('invalid_reason'))
share = {64: 7 / 12, 570: 4 / 12, 1518: 1 / 12}
for name, x in (('forward', t), ('reverse', v)):
    bs = {b['frame_bytes']: b for b in x['by_size']}
    assert set(bs) == set(share), (name, bs)
    assert sum(b['tx_frames'] for b in bs.values()) == x['tx_frames'], (name, bs, x['tx_frames'])
    assert sum(b['rx_frames'] for b in bs.values()) == x['rx_frames'], (name, bs, x['rx_frames'])
    for k, w in share.items():
        assert bs[k]['rx_frames'] <= bs[k]['tx_frames'], (name, k, bs[k])
        assert abs(bs[k]['tx_frames'] / x['tx_frames'] - w) <= 0.02, (name, k, bs[k], x['tx_frames'])
    print('# %s by size: %s' % (name, ', '.join('%d B %d/%d' % (k, bs[k]['rx_frames'], bs[k]['tx_frames']) for k in sorted(bs))))
rbs = {b['frame_bytes']: b for b in v['by_size']}
dut = {64: n1['rev_l46'] - n0['rev_l46'], 570: n1['rev_l552'] - n0['rev_l552'], 1518: n1['rev_l1500'] - n0['rev_l1500']}
print('# the DUT forwarded of the reverse by IP length: %s' % dut)
for k, w in share.items():
    # the DUT saw at least what arrived and at most what the agent sent, of each size
    assert rbs[k]['rx_frames'] <= dut[k] <= rbs[k]['tx_frames'], (k, dut[k], rbs[k])
    assert abs(dut[k] / sum(dut.values()) - w) <= 0.02, (k, dut)
" >"$tmp/imix.chk" 2>&1
check "--imix both ways: each size reconciles per direction, the DUT sees the reverse's mix" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/imix.chk" | tail -3; sed 's/^/# /' "$tmp/imix.err" | tail -3; }
sed -n 's/^# /# /p' "$tmp/imix.chk" | head -3

# A throughput search with a policer on the reverse direction only (4000/s from the sink, 200
# frames deep: a 0.5 s trial passes up to 4400 fps):
# the result is where both pass, and the reverse is named as the direction that limited.
$D nft add chain inet nbtbid pol '{ type filter hook forward priority 10; policy accept; }'
$D nft add rule inet nbtbid pol iifname dut1 meta l4proto udp limit rate over 4000/second burst 200 packets drop
$G "$NB" rate -c 198.19.0.1 --bidir -m throughput -r 16k -T 0.5 --drain 100ms -s 128 \
	--resolution 5% -J >"$tmp/tp.json" 2>"$tmp/tp.err"
st=$?
json_check "$tmp/tp.json" "
s = d['sizes'][0]
print('# %.0f fps; %s' % (s['fps'], s['bidir']['text']))
print('# bottleneck: %s' % ((s['bottleneck'] or {}).get('text')))
assert s['bidir']['failed'] in ('reverse', 'both'), s['bidir']
assert s['bidir']['text'].startswith(s['bidir']['failed'] + ' direction'), s['bidir']
assert 0 < s['fps'] <= 4400 * 1.05, s['fps']
fails = [t for t in s['trials'] if t['directions']['failed'] == 'reverse']
assert fails and all(t['reverse']['lost_frames'] > 0 for t in fails)
" >"$tmp/tp.chk" 2>&1
check "a reverse policed at 4000/s: the search finds both passing at most there and names the reverse (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/tp.chk" | tail -3; sed 's/^/# /' "$tmp/tp.err" | tail -3; }
sed -n 's/^# /# /p' "$tmp/tp.chk" | head -2

# The same policer under RFC 2544's loss curve (26.3) and back-to-back (26.4) with both
# directions loaded. Loss: each step's loss per direction; the first step (8000 fps) loses in
# the reverse (the policer passes 4400 at most in 0.5 s), and the reverse is named. B2b: the
# policer passes about 200 + a quarter of a burst sent at 16000 fps (266 frames), far below the
# forward's 8000 frames: the burst found is the reverse's, each burst went both ways.
$G "$NB" rate -c 198.19.0.1 --bidir -m loss -r 8k -T 0.5 --drain 100ms -s 128 \
	-J >"$tmp/loss.json" 2>"$tmp/loss.err"
st=$?
json_check "$tmp/loss.json" "
s = d['sizes'][0]; ts = s['trials']
print('# loss: ' + '; '.join('%.0f fps fwd %s%% rev %s%%' % (t['offered_fps'], t['loss_pct'], t['reverse']['loss_pct']) for t in ts))
print('# ' + s['bidir']['text'])
assert all('reverse' in t and t['reverse']['tx_frames'] > 0 for t in ts), 'a step without its reverse'
assert ts[0]['reverse']['lost_frames'] > 0, ts[0]['reverse']
assert s['bidir']['failed'] in ('reverse', 'both'), s['bidir']
assert s['bidir']['text'].startswith(s['bidir']['failed'] + ' direction'), s['bidir']
" >"$tmp/loss.chk" 2>&1
check "-m loss both ways with a reverse policed at 4000/s: per-direction loss per step, the reverse named (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/loss.chk" | tail -3; sed 's/^/# /' "$tmp/loss.err" | tail -3; }
sed -n 's/^# /# /p' "$tmp/loss.chk" | head -2
$G "$NB" rate -c 198.19.0.1 --bidir -m b2b -r 16k -T 0.5 --drain 100ms -s 128 --repeat 2 \
	-J >"$tmp/b2b.json" 2>"$tmp/b2b.err"
st=$?
json_check "$tmp/b2b.json" "
s = d['sizes'][0]; ts = [t for t in s['trials'] if t['purpose'] == 'burst']
print('# b2b: %s frames (%s to %s); %s' % (s['b2b_frames_avg'], s['b2b_frames_min'], s['b2b_frames_max'], s['bidir']['text']))
assert all(t['reverse']['tx_frames'] == t['tx_frames'] == t['asked_frames'] for t in ts), [(t['tx_frames'], t['reverse']['tx_frames']) for t in ts]
assert s['bidir']['failed'] in ('reverse', 'both'), s['bidir']
assert ts and 0 < s['b2b_frames_max'] < 2000, s
" >"$tmp/b2b.chk" 2>&1
check "-m b2b both ways with a reverse policed at 4000/s: each burst both ways, the reverse's burst found (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/b2b.chk" | tail -3; sed 's/^/# /' "$tmp/b2b.err" | tail -3; }
sed -n 's/^# /# /p' "$tmp/b2b.chk" | head -1
$D nft delete chain inet nbtbid pol

# -m latency both ways (RFC 2544 26.2 at the throughput both directions pass): the agent runs
# on this kernel, so the reverse has its one-way latency beside the forward's.
$G "$NB" rate -c 198.19.0.1 --bidir -m latency -r 8k -T 0.5 --drain 100ms -s 128 --repeat 1 \
	-J >"$tmp/lat.json" 2>"$tmp/lat.out"
st=$?
json_check "$tmp/lat.json" "
s = d['sizes'][0]; b = s['bidir']; ts = [t for t in s['trials'] if t['purpose'] == 'latency']
print('# forward p50 %s ns, reverse p50 %s ns' % ((s['latency_ns'] or {}).get('p50'), (b['reverse_latency_ns'] or {}).get('p50')))
assert d['parameters']['latency'] == 'one-way'
assert ts and all(t['reverse']['tx_frames'] > 0 for t in ts)
assert s['latency_ns']['kind'] == 'one-way' and s['latency_ns']['p50'] > 0, s['latency_ns']
r = b['reverse_latency_ns']
assert r['kind'] == 'one-way' and 0 < r['min'] <= r['p50'] <= r['max'], b
assert ts[-1]['reverse']['latency_ns']['p50'] == r['p50'], (ts[-1]['reverse'], r)
assert 'reverse_latency_reason' not in b
" >"$tmp/lat.chk" 2>&1
check "-m latency both ways on one kernel: the reverse's one-way latency beside the forward's (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/lat.chk" | tail -3; sed 's/^/# /' "$tmp/lat.out" | tail -3; }
sed -n 's/^# /# /p' "$tmp/lat.chk" | head -1
check_schemas "$tmp/trial.json" "$tmp/tp.json" "$tmp/imix.json" "$tmp/loss.json" "$tmp/b2b.json" \
	"$tmp/lat.json"

# The attacker: an agent with caps on loopback, and a controller that asks for what it must
# not get (another address, a rate split over the directions, flat out, longer than the test).
ip link set lo up 2>/dev/null
agent -- -p 5361 -B 127.0.0.1 --max-rate 10M || { notok "an agent with caps starts"; exit 1; }
agent -- -p 5365 -B 127.0.0.1 --max-pps 15000 || { notok "an agent with --max-pps starts"; exit 1; }
{
	$PY bidir 127.0.0.1 5361 - 10000000 15000
	$PY bidir 127.0.0.1 5365 - 0 15000
} >"$tmp/case.out" 2>&1
while IFS= read -r line; do
	case "$line" in
	PASS:*) ok "${line#PASS:}" ;;
	FAIL:*) notok "${line#FAIL:}" ;;
	*) echo "# $line" ;;
	esac
done <"$tmp/case.out"
grep -q "refused by rule target" "$tmp/agent.log" && grep -q "both directions" "$tmp/agent.log"
check "the agent logged the refusals (target, caps on both directions)" test $? -eq 0

# --engine packet both ways: the agent's reverse from its packet engine (it runs as root in the
# lab), counted whole by the controller and by the DUT's forwarded UDP; an agent without
# CAP_NET_RAW refuses it by name.
snap pk0
$G "$NB" rate -c 198.19.0.1 --bidir -e packet -m trial -r 10k -T 0.5 --drain 200ms -s 128 \
	-J >"$tmp/pk.json" 2>"$tmp/pk.err"
st=$?
snap pk1
json_check "$tmp/pk.json" "
def nft(name):
    return {c['counter']['name']: c['counter']['packets'] for c in json.load(open('$tmp/' + name + '.nft'))['nftables'] if 'counter' in c}
n0, n1 = nft('pk0'), nft('pk1')
t = d['sizes'][0]['trials'][0]; v = t['reverse']
print('# packet engine: forward %d/%d, reverse %d/%d, the DUT forwarded %d of the reverse' % (t['rx_frames'], t['tx_frames'], v['rx_frames'], v['tx_frames'], n1['fwd_udp_10'] - n0['fwd_udp_10']))
assert d['parameters']['engine'] == 'packet', d['parameters']['engine']
assert t['valid'] and v['valid'] and v['tx_frames'] > 0, (t.get('invalid_reason'), v)
assert v['rx_frames'] <= n1['fwd_udp_10'] - n0['fwd_udp_10'] <= v['tx_frames'], (n0, n1, v)
assert abs(v['tx_frames'] - t['tx_frames']) <= 0.1 * t['tx_frames'], (v['tx_frames'], t['tx_frames'])
" >"$tmp/pk.chk" 2>&1
check "--bidir --engine packet through the DUT: the agent's packet engine sends the reverse, counted whole (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/pk.chk" | tail -3; sed 's/^/# /' "$tmp/pk.err" | tail -3; }
sed -n 's/^# /# /p' "$tmp/pk.chk" | head -1
check_schemas "$tmp/pk.json"
if setpriv --bounding-set -net_raw true 2>/dev/null; then
	setpriv --bounding-set -net_raw "$NB" serve -D --pid-file "$tmp/noraw.pid" \
		--log "$tmp/agent.log" -p 5372 -B 127.0.0.1 &&
		nb_pids="$nb_pids $(cat "$tmp/noraw.pid")"
	$PY bidir_engine 127.0.0.1 5372 - >"$tmp/eng.out" 2>&1
	while IFS= read -r line; do
		case "$line" in
		PASS:*) ok "${line#PASS:}" ;;
		FAIL:*) notok "${line#FAIL:}" ;;
		*) echo "# $line" ;;
		esac
	done <"$tmp/eng.out"
else
	skip "setpriv cannot drop CAP_NET_RAW here: no agent without it to refuse the packet engine"
fi

# An agent older than --bidir (a proxy hides the reverse tags from it): refused by name, exit 1;
# without --bidir the same agent serves as before.
agent -- -p 5362 -B 127.0.0.1 || { notok "an agent starts"; exit 1; }
$PY old_rate_proxy 5363 5362 >"$tmp/proxy.out" 2>&1 &
nb_pids="$nb_pids $!"
wait_until 10 "the proxy listening" grep -q listening "$tmp/proxy.out"
check_rc "--bidir against an agent that does not know it: exit 1" 1 \
	"$NB" rate -c 127.0.0.1:5363 --data-port 5364 --bidir -m trial -r 1k -T 0.2 -s 64
check "... naming why" has "older than --bidir"
check_rc "the same agent without --bidir: one direction, as before" 0 \
	"$NB" rate -c 127.0.0.1:5363 --data-port 5364 -m trial -r 1k -T 0.2 -s 64

# An agent that knows --bidir but not its mix nor its bursts (a proxy hides tags 236 and 238
# from it): --imix and -m b2b are refused by name, exit 1, rather than counting one size sent
# back as a mix, or a whole trial as a burst.
$PY old_mix_proxy 5368 5362 >"$tmp/proxy2.out" 2>&1 &
nb_pids="$nb_pids $!"
wait_until 10 "the proxy listening" grep -q listening "$tmp/proxy2.out"
check_rc "--bidir --imix against an agent without the reverse's mix: exit 1" 1 \
	"$NB" rate -c 127.0.0.1:5368 --data-port 5369 --bidir --imix simple -m trial -r 1k -T 0.2
check "... naming why" has "older than --bidir with --imix"
check_rc "--bidir -m b2b against an agent without the reverse's bursts: exit 1" 1 \
	"$NB" rate -c 127.0.0.1:5368 --data-port 5369 --bidir -m b2b -r 1k -T 0.2 --repeat 1 -s 64
check "... naming why" has "older than --bidir with -m b2b" || sed 's/^/# /' "$tmp/out" | tail -3

# An agent that says it runs on another kernel (a proxy rewrites its boot id): the forward's
# latency is the round trip of reflected probes, the reverse's one-way latency is not measured,
# null with the reason, in the JSON and below the table.
$PY other_kernel_proxy 5370 5362 >"$tmp/proxy3.out" 2>&1 &
nb_pids="$nb_pids $!"
wait_until 10 "the proxy listening" grep -q listening "$tmp/proxy3.out"
"$NB" rate -c 127.0.0.1:5370 --data-port 5371 --bidir -m latency -r 2k -T 0.3 -s 64 --repeat 1 \
	-J >"$tmp/latx.json" 2>"$tmp/latx.err"
st=$?
json_check "$tmp/latx.json" "
s = d['sizes'][0]; b = s['bidir']; ts = [t for t in s['trials'] if t['purpose'] == 'latency']
print('# ' + b['reverse_latency_reason'])
assert d['parameters']['latency'] == 'round-trip'
assert ts and all(t['reverse']['latency_ns'] is None and 'another kernel' in t['reverse']['latency_reason'] for t in ts)
assert b['reverse_latency_ns'] is None and b['reverse_latency_reason'].startswith('not measured: the agent runs on another kernel'), b
" >"$tmp/latx.chk" 2>&1
check "-m latency both ways, agent on another kernel: the reverse's latency null, 'not measured' with the reason (status $st)" \
	test $? -eq 0 || { sed 's/^/# /' "$tmp/latx.chk" | tail -3; sed 's/^/# /' "$tmp/latx.err" | tail -3; }
"$NB" rate -c 127.0.0.1:5370 --data-port 5371 --bidir -m latency -r 2k -T 0.3 -s 64 --repeat 1 \
	>"$tmp/latx.txt" 2>&1
check "... and below the table" grep -q "64 B reverse latency: not measured: the agent runs on another kernel" "$tmp/latx.txt"
check_schemas "$tmp/latx.json"

# IPv6: the agent's reverse over ::1 (84-byte frames, the smallest there).
if agent -- -p 5366 -B ::1 2>/dev/null; then
	"$NB" rate -c '[::1]:5366' --data-port 5367 --bidir -m trial -r 2k -T 0.3 -s 84 -J \
		>"$tmp/v6.json" 2>"$tmp/v6.err"
	json_check "$tmp/v6.json" "
t = d['sizes'][0]['trials'][0]; v = t['reverse']
assert v['valid'] and v['tx_frames'] > 0 and v['rx_frames'] == v['tx_frames'], v
" >"$tmp/v6.chk" 2>&1
	check "IPv6: the reverse direction over ::1 arrives whole" test $? -eq 0 ||
		{ sed 's/^/# /' "$tmp/v6.chk" | tail -2; sed 's/^/# /' "$tmp/v6.err" | tail -2; }
else
	skip "no IPv6 loopback here (an agent cannot bind ::1)"
fi

# Bad input: exit 2 and the reason.
check_refused "refused: --bidir --local-rx 127.0.0.1" 2 "needs an agent" \
	"$NB" rate -m trial -r 1k -T 0.2 --bidir --local-rx 127.0.0.1
check_refused "refused: --bidir --dst 127.0.0.1" 2 "needs an agent" \
	"$NB" rate -m trial -r 1k -T 0.2 --bidir --dst 127.0.0.1
check_refused "refused: --bidir -c 127.0.0.1:5361 --flows 1025" 2 "at most 1024" \
	"$NB" rate -m trial -r 1k -T 0.2 --bidir -c 127.0.0.1:5361 --flows 1025
echo "1..$n"
