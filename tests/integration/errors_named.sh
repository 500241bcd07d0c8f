#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Errors name what the user typed and the next step: a letter as the letter (with its long
# name), a rule sweep with no lab as "no lab ... run `netbench lab up`" before anything is sent,
# and another service on the agent's port (an SSH banner) as a question about that address.
. "$(dirname "$0")/../lib.sh"
NB=$NETBENCH

check_refused "rate -l 63 names -l as typed" 2 "^netbench rate: -l/--len is too small: 63 (at least 64)" \
	"$NB" rate -l 63
check_refused "rate --len 63 names --len as typed" 2 "^netbench rate: --len is too small: 63" \
	"$NB" rate --len 63
check_refused "mem -l 64M,1k names -l and the sizes as typed" 2 \
	"^netbench mem: -l/--sizes 64M,1k: MIN is larger than MAX" "$NB" mem -l 64M,1k
check_refused "tput -t 0 names -t as typed" 2 "^netbench tput: -t/--time is too small: 0" \
	"$NB" tput -t 0

# A sweep with no lab under its prefix: refused before the receiver or the generator starts.
pfx=nbnolab$nb_id
check_refused "rate --sweep-rules with no lab: the next step, exit 1" 1 \
	"no lab '$pfx' is up (the sweep loads its DUT's rules): run \`netbench lab up --prefix $pfx\`" \
	timeout 10 "$NB" rate --sweep-rules 0,100 -c 127.0.0.1:1 --lab-prefix "$pfx"
check "... and nothing of a lab was made" sh -c "! ip netns list 2>/dev/null | grep -q '^$pfx-'"

# sshd's banner on the port given as the agent's.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
port=$((46100 + $$ % 400))
cat >"$nb_tmp/banner.py" <<'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
print("listening", flush=True)
s.settimeout(20)
c, _ = s.accept()
c.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n")
c.settimeout(5)
try:
    c.recv(4096)
except OSError:
    pass
c.close()
PY
"$py" "$nb_tmp/banner.py" "$port" >"$nb_tmp/banner.out" 2>&1 &
nb_pids="$nb_pids $!"
wait_until 10 "the banner server on port $port" grep -q listening "$nb_tmp/banner.out"
check_refused "an SSH banner on the agent's port: the address and the question" 1 \
	"at 127.0.0.1 port $port: is that a netbench agent (netbench serve)?" \
	timeout 20 "$NB" tput -c "127.0.0.1:$port" -t 0.2
echo "1..$n"
