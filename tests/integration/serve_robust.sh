#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The agent survives hostile and broken controllers and keeps serving: random bytes, half-open
# connections, a stalled half message, a wrong protocol version (refused naming both versions),
# garbage after a good handshake, a controller killed mid-test; after each, a normal test runs.
. "$(dirname "$0")/../lib.sh"
P=5321
agent -- -p $P -B 127.0.0.1 || { notok "agent starts"; exit 1; }
ok "agent starts"
# serve -D returned once the pid file was written: the daemon is detached from the terminal.
check "serve -D: the daemon's stdin, stdout and stderr are /dev/null" sh -c "
	for fd in 0 1 2; do [ \$(readlink /proc/$agent_pid/fd/\$fd) = /dev/null ] || exit 1; done"
check "serve -D: it runs in / in a session of its own" sh -c "
	[ \$(readlink /proc/$agent_pid/cwd) = / ] && [ \$(ps -o sid= -p $agent_pid) -eq $agent_pid ]"

normal() {
	check_rc "$1: a normal test still runs" 0 "$NETBENCH" tput -c 127.0.0.1 -p $P -t 0.3 -O 0.1 -l 1k
}

python3 - "$P" >"$nb_tmp/py.out" 2>&1 <<'PY'
import os, socket, struct, sys, time
port = int(sys.argv[1])
def conn():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s
# 1. random bytes, several connections
for i in range(5):
    s = conn(); s.sendall(os.urandom(4096 * (i + 1)))
    try: s.recv(100)
    except Exception: pass
    s.close()
# 2. half-open connections left open, then closed
hs = [conn() for _ in range(3)]
time.sleep(0.2)
for s in hs: s.close()
print("garbage-done")
PY
check "random bytes and half-open connections sent" grep -q garbage-done "$nb_tmp/py.out"
normal "after random bytes and half-open connections"

# A header that announces a payload that never comes: the agent must time out and go on.
python3 - "$P" >"$nb_tmp/py.out" 2>&1 <<'PY'
import socket, struct, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(struct.pack(">IHHI", 0x4e424331, 1, 0, 1000) + b"x" * 10)
t = time.time()
s.settimeout(15)
try:
    data = s.recv(100)
except Exception as e:
    data = b""
print("closed-after %.1f" % (time.time() - t))
PY
check "a stalled half message is dropped within the handshake timeout" sh -c "grep -Eq 'closed-after [0-6]\.' $nb_tmp/py.out"
normal "after a stalled controller"

# Wrong protocol version: refused with both versions named.
python3 - "$P" >"$nb_tmp/py.out" 2>&1 <<'PY'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
def tlv(tag, val): return struct.pack(">HH", tag, len(val)) + val
body = tlv(1, struct.pack(">I", 99)) + tlv(3, b"n" * 32)
s.sendall(struct.pack(">IHHI", 0x4e424331, 1, 0, len(body)) + body)
hdr = s.recv(12, socket.MSG_WAITALL)
magic, typ, flags, ln = struct.unpack(">IHHI", hdr)
payload = s.recv(ln, socket.MSG_WAITALL)
off = 0
while off < len(payload):
    tag, l = struct.unpack(">HH", payload[off:off+4])
    if tag == 7: print("type", typ, "text:", payload[off+4:off+4+l].decode())
    off += 4 + l
PY
check "version mismatch answered with ERROR naming both versions" \
	grep -q "type 5 text: incompatible protocol: controller speaks version 99, agent speaks version 1" "$nb_tmp/py.out"
normal "after a version mismatch"

# Garbage after a good handshake: the session is dropped, the agent goes on.
python3 - "$P" >"$nb_tmp/py.out" 2>&1 <<'PY'
import os, socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
def tlv(tag, val): return struct.pack(">HH", tag, len(val)) + val
body = tlv(1, struct.pack(">I", 1)) + tlv(3, b"n" * 32)
s.sendall(struct.pack(">IHHI", 0x4e424331, 1, 0, len(body)) + body)
magic, typ, flags, ln = struct.unpack(">IHHI", s.recv(12, socket.MSG_WAITALL))
s.recv(ln, socket.MSG_WAITALL)
print("hello-ok" if typ == 2 else "unexpected %d" % typ)
# a TEST_REQ whose TLV lies about its length, then random bytes
bad = struct.pack(">HH", 8, 400) + b"\0" * 10
s.sendall(struct.pack(">IHHI", 0x4e424331, 6, 0, len(bad)) + bad + os.urandom(2000))
try: print("reply", len(s.recv(100)))
except Exception as e: print("closed", e)
PY
check "handshake then garbage: session dropped" grep -q hello-ok "$nb_tmp/py.out"
normal "after garbage mid-session"

# A controller killed in the middle of a test.
"$NETBENCH" tput -c 127.0.0.1 -p $P -t 5 -l 1k,2k >/dev/null 2>&1 &
victim=$!
closed=$(grep -c "session closed" "$nb_tmp/agent.log")
wait_until 5 "the agent to start the victim's test" agent_testing "$agent_pid"
kill -9 $victim
wait $victim 2>/dev/null
wait_until 5 "the agent to close the victim's session" sh -c \
	"[ \$(grep -c 'session closed' '$nb_tmp/agent.log') -gt $closed ]"
normal "after a controller was killed mid-test"
check "agent logged what happened" grep -Eq "session closed: controller disconnected|handshake failed" "$nb_tmp/agent.log" ||
	sed 's/^/# /' "$nb_tmp/agent.log"
check "agent still running" kill -0 "$agent_pid"
# The listening socket is the only one left (answers linger for 0.5 s at most).
check "no data sockets left open by the agent" wait_until 0.6 "the agent's data sockets to close" \
	sh -c "[ \$(ls -l /proc/$agent_pid/fd | grep -c socket:) -eq 1 ]"

# The controller refuses an agent of another protocol version, naming both.
python3 - >"$nb_tmp/fake.out" 2>&1 <<'PY' &
import socket, struct
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", 5329)); l.listen(1); l.settimeout(10)
c, _ = l.accept()
magic, typ, flags, ln = struct.unpack(">IHHI", c.recv(12, socket.MSG_WAITALL)); c.recv(ln, socket.MSG_WAITALL)
def tlv(tag, val): return struct.pack(">HH", tag, len(val)) + val
body = tlv(1, struct.pack(">I", 7)) + tlv(3, b"s" * 32) + tlv(4, struct.pack(">I", 0))
c.sendall(struct.pack(">IHHI", 0x4e424331, 2, 0, len(body)) + body)
c.close()
PY
fake=$!
# A loaded machine may take seconds to start python: wait for the fake agent's port.
wait_until 10 "the fake agent on port 5329" sh -c "ss -Hltn 'sport = :5329' | grep -q ."
check_rc "controller refuses an agent of another version" 1 "$NETBENCH" tput -c 127.0.0.1 -p 5329 -t 0.3
check "message names both versions" has "controller speaks version 1, agent speaks version 7"
wait $fake
