#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""A controller that speaks docs/protocol.md correctly (HELLO, AUTH with HMAC-SHA256, TEST_REQ
with the real tags) and asks an agent for what it must not give. Each case prints PASS:text or
FAIL:text lines for tests/integration/hostile.sh. Usage: hostile_client.py CASE HOST PORT [ARGS]."""
import hashlib, hmac, os, random, resource, selectors, socket, struct, subprocess, sys, threading, time

MAGIC = 0x4e424331
HELLO, HELLO_OK, AUTH, AUTH_OK, ERROR, TEST_REQ, TEST_ACK, START, MARK, SNAP, STOP, FINAL, BYE = range(1, 14)
T_VERSION, T_SW, T_NONCE, T_AUTH_REQ, T_PROOF, T_ERR_CODE, T_ERR_TEXT, T_TEST, T_DURATION = range(1, 10)
T_RATE_BPS, T_PORT = 13, 14
TEST_TPUT, TEST_RATE, TEST_STREAM, TEST_MEM = 1, 2, 3, 5
NS = 1_000_000_000


def tlv(tag, val): return struct.pack(">HH", tag, len(val)) + val
def u32(tag, v): return tlv(tag, struct.pack(">I", v))
def u64(tag, v): return tlv(tag, struct.pack(">Q", v & (2**64 - 1)))
def st(tag, s): return tlv(tag, s.encode())
def frame(typ, body): return struct.pack(">IHHI", MAGIC, typ, 0, len(body)) + body


def report(ok, text):
    print(("PASS:" if ok else "FAIL:") + text, flush=True)


def recvall(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise ConnectionError("closed")
        b += c
    return b


def recv_msg(s):
    magic, typ, _, ln = struct.unpack(">IHHI", recvall(s, 12))
    body = recvall(s, ln)
    items, off = {}, 0
    while off < len(body):
        tag, l = struct.unpack(">HH", body[off:off + 4])
        items.setdefault(tag, []).append(body[off + 4:off + 4 + l])
        off += 4 + l
    return typ, items


def connect(host, port, timeout=5.0, rcvbuf=0, src=None):
    ai = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)[0]
    s = socket.socket(ai[0], socket.SOCK_STREAM)
    s.settimeout(timeout)
    if rcvbuf:   # before connect: the window follows it
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    if src:
        s.bind((src, 0))
    s.connect(ai[4])
    return s


class Ctl:
    def __init__(self, host, port, psk=None, timeout=5.0, rcvbuf=0):
        self.s = connect(host, port, timeout, rcvbuf)
        cn = os.urandom(32)
        self.s.sendall(frame(HELLO, u32(T_VERSION, 1) + st(T_SW, "hostile") + tlv(T_NONCE, cn)))
        typ, self.hello = recv_msg(self.s)
        if typ != HELLO_OK:
            raise RuntimeError("no HELLO_OK: %s" % text(self.hello))
        sn = self.hello[T_NONCE][0]
        self.auth = struct.unpack(">I", self.hello[T_AUTH_REQ][0])[0]
        self.auth_ok = None
        if self.auth:
            def proof(role): return hmac.new(psk, role.ljust(32, b"\0") + cn + sn, hashlib.sha256).digest()
            self.s.sendall(frame(AUTH, tlv(T_PROOF, proof(b"controller"))))
            typ, self.auth_ok = recv_msg(self.s)
            if typ != AUTH_OK or self.auth_ok[T_PROOF][0] != proof(b"agent"):
                raise RuntimeError("agent did not prove the key")

    def ask(self, typ, body=b""):
        self.s.sendall(frame(typ, body))
        return recv_msg(self.s)

    def close(self):
        try:
            self.s.sendall(frame(BYE, b""))
        except OSError:
            pass
        self.s.close()


def text(items):
    return items.get(T_ERR_TEXT, [b""])[0].decode(errors="replace")


def expect_refusal(mk, body, words, what):
    """A refusal ends the session: each request gets a session of its own."""
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, body)
    ctl.close()
    t = text(items)
    ok = typ == ERROR and all(w in t for w in words)
    report(ok, "%s: refused (%s)" % (what, t if typ == ERROR else "accepted with message type %d" % typ))


def expect_start_refusal(mk, body, words, what):
    """A receiver opens its sockets at START (a request holds no port): a port in use is
    refused there, with the reason."""
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, body)
    if typ == TEST_ACK:
        typ, items = ctl.ask(START)
    ctl.close()
    t = text(items)
    ok = typ == ERROR and all(w in t for w in words)
    report(ok, "%s: refused at START (%s)" % (what, t if typ == ERROR else "accepted with message type %d" % typ))


def expect_accept(mk, body, what):
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, body)
    ctl.close()
    report(typ == TEST_ACK, "%s: accepted%s" % (what, "" if typ == TEST_ACK else " (" + text(items) + ")"))


def tput_req(rate, streams, block, proto=1, dir=2, port=40001, dur=NS):
    return (u32(T_TEST, TEST_TPUT) + u64(T_DURATION, dur) + u32(100, proto) + u32(101, block) +
            u32(102, streams) + u32(103, dir) + u64(T_RATE_BPS, rate) + u32(105, port))


def stream_req(role, addr, rates, step_ns, block=1000, port=40002, iface=None, ttl=None, omit=0):
    b = (u32(T_TEST, TEST_STREAM) + u64(T_DURATION, NS) + u32(300, role) + st(301, addr) +
         u32(T_PORT, port) + u32(305, 0) + u32(306, block) +
         tlv(307, b"".join(struct.pack(">Q", r) for r in rates)) + u64(308, step_ns) + u32(309, 7))
    if iface is not None:
        b += st(302, iface)
    if ttl is not None:
        b += u32(304, ttl)
    if omit:
        b += u64(310, omit)
    return b


def rate_req(port, addr=None):
    b = u32(T_TEST, TEST_RATE) + u64(T_DURATION, NS) + u64(T_RATE_BPS, 1000) + u32(T_PORT, port)
    if addr is not None:
        b += tlv(201, addr)
    return b


def mem_req(dur, max_bytes=0, quick=0, min_bytes=0):
    return (u32(T_TEST, TEST_MEM) + u64(T_DURATION, dur) + u64(500, min_bytes) + u64(501, max_bytes) +
            u32(502, 0) + u32(503, 1) + u64(504, 0) + u32(505, quick))


def fresh(host, port, psk, rcvbuf=0):
    """A new session. Until the previous one is torn down the agent may say "busy" (at once):
    that is an answer, so try again for up to 2 s."""
    until = time.monotonic() + 2.0
    while True:
        try:
            return Ctl(host, port, psk, rcvbuf=rcvbuf)
        except RuntimeError as e:
            if "busy" not in str(e) or time.monotonic() > until:
                raise
            time.sleep(0.05)


def case_caps(host, port, psk):
    """Agent with --psk, --max-rate 10M, --max-time 3."""
    mk = lambda: fresh(host, port, psk)
    c = mk()
    # 9. facts only after the proof
    facts = [t for t in c.hello if 20 <= t <= 39]
    report(c.auth == 1 and not facts, "HELLO_OK before the proof carries no platform facts (tags %s)" % facts)
    report(c.auth_ok is not None and 22 in c.auth_ok, "AUTH_OK after the proof carries the platform")
    # The caps are stated after the proof only, and truly (--max-time 3, --max-rate 10M).
    caps = [t for t in c.hello if 16 <= t <= 18]
    report(not caps, "HELLO_OK before the proof states no caps (tags %s)" % caps)
    got = {t: struct.unpack(">Q", c.auth_ok[t][0])[0] for t in (16, 17, 18) if t in (c.auth_ok or {})}
    report(got == {16: 3 * NS, 17: 10000000, 18: 0},
           "AUTH_OK states the caps: max-time 3 s, max-rate 10M, no max-pps (%s)" % got)
    # 1. rate x streams overflow
    c.close()
    expect_refusal(mk, tput_req(2**63 + 1, 2, 1024), ["max-rate"], "2 streams at 2^63+1 bit/s")
    # A client that ignores the stated caps is refused by the agent all the same.
    expect_refusal(mk, tput_req(20000000, 1, 1024), ["refused by rule max-rate"],
                   "ignoring the stated caps: the agent sends 20 Mbit/s under --max-rate 10M")
    expect_refusal(mk, tput_req(1000000, 1, 1024, dur=5 * NS), ["refused by rule max-time"],
                   "ignoring the stated caps: a 5 s test under --max-time 3")
    # 1. (step + omit) x steps overflow
    expect_refusal(mk, stream_req(1, "", [1000000, 1000000], 2**63), ["max-time"],
                   "stream of 2 steps of 2^63 ns")
    expect_refusal(mk, stream_req(1, "", [1000000] * 3, 2**63 - 10**9, omit=10**9), ["max-time"],
                   "stream whose (step + omit) x steps wraps")
    # 11. wire bits: 9 Mbit/s of 24-byte payloads is ~34 Mbit/s on the wire
    expect_refusal(mk, tput_req(9_000_000, 1, 24), ["max-rate"], "9 Mbit/s of 24-byte UDP blocks under --max-rate 10M")
    # 3. names are not looked up on the agent
    expect_refusal(mk, stream_req(1, "localhost", [1000000], NS), ["numeric"], "stream to a host name")
    # 2. the controller does not choose the interface of a unicast stream
    expect_refusal(mk, stream_req(1, "", [1000000], NS, iface="lo"), ["target", "interface"],
                   "unicast stream with an interface chosen by the controller")
    # 4. multicast: admin scope, TTL 1, --max-rate
    expect_refusal(mk, stream_req(1, "225.1.2.3", [1000000], NS), ["multicast", "administratively"],
                   "multicast to 225.1.2.3")
    expect_refusal(mk, stream_req(1, "ff0e::1:2", [1000000], NS), ["multicast", "administratively"],
                   "multicast to the global group ff0e::1:2")
    expect_refusal(mk, stream_req(1, "239.1.2.3", [1000000], NS, ttl=255), ["multicast", "TTL"],
                   "multicast with TTL 255")
    expect_refusal(mk, stream_req(1, "239.1.2.3", [20000000], NS, ttl=1), ["max-rate"],
                   "multicast at 20 Mbit/s under --max-rate 10M")
    expect_accept(mk, stream_req(1, "239.1.2.3", [1000000], NS, ttl=1), "multicast to 239.1.2.3, TTL 1, 1 Mbit/s")
    # 10. the rate receiver binds to the control connection's address, unprivileged port
    for addr, what in ((bytes(4), "0.0.0.0"), (bytes([224, 0, 0, 1]), "224.0.0.1"),
                       (bytes([127, 0, 0, 2]), "127.0.0.2")):
        expect_refusal(mk, rate_req(40100, addr), ["bind"], "rate receiver on %s" % what)
    expect_refusal(mk, rate_req(80), ["bind", "privileged"], "rate receiver on port 80")
    squat = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    squat.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squat.bind(("127.0.0.1", 40101))
    expect_start_refusal(mk, rate_req(40101), ["Address already in use"],
                         "rate receiver does not share a port another socket holds with SO_REUSEADDR")
    squat.close()
    expect_accept(mk, rate_req(40102), "rate receiver on the control address, port 40102")
    # the trial id the receiver is to count (tag 210): 1 to 65535, nothing else
    for trial in (0, 65536, 2**32 - 1):
        expect_refusal(mk, rate_req(40103) + u32(210, trial), ["trial id"],
                       "rate receiver told to count trial id %d" % trial)
    expect_accept(mk, rate_req(40104) + u32(210, 65535), "rate receiver counting trial id 65535")
    # a destination range (tag 250): its own addresses only, 2 to 1024 of them, from an address
    lo = bytes([127, 0, 0, 1])
    for count in (0, 1025, 2**32 - 1):
        expect_refusal(mk, rate_req(40105, lo) + u32(250, count), ["destination addresses"],
                       "rate receiver on %d destination addresses" % count)
    expect_refusal(mk, rate_req(40105) + u32(250, 4), ["destination addresses"],
                   "rate receiver on a destination range without its first address")
    expect_refusal(mk, rate_req(40105, bytes([127, 255, 255, 254])) + u32(250, 3),
                   ["127.255.255.255 (flow 1) is not an address"],
                   "rate receiver on a range reaching 127/8's broadcast address")
    expect_refusal(mk, rate_req(40105, bytes([224, 0, 0, 1])) + u32(250, 2), ["not an address"],
                   "rate receiver on a range of groups")
    # a port range (tag 251): 1 to 1024 unprivileged ports up to 65535, none shared
    for first, count in ((40106, 0), (40106, 1025), (65000, 537), (40106, 2**32 - 1)):
        expect_refusal(mk, rate_req(first) + u32(251, count), ["destination ports"],
                       "rate receiver on %d ports from %d" % (count, first))
    squat = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    squat.bind(("127.0.0.1", 40120))
    expect_start_refusal(mk, rate_req(40110) + u32(251, 20), ["40110", "Address already in use"],
                         "rate receiver on a port range holding a port another socket has")
    squat.close()
    expect_accept(mk, rate_req(40110) + u32(251, 1024), "rate receiver on 1024 ports")
    # addresses x ports (tags 250 and 251): received on the ports' wildcard address, which holds
    # each port on every address of the host; no more than a run's 65,536 flows need
    # (before: 1,024 x 1,024 took ports 50000-51023 on every address until max-time)
    expect_refusal(mk, rate_req(50000, lo) + u32(250, 1024) + u32(251, 1024),
                   ["refused by rule flows", "1048576 flows"],
                   "rate receiver on 1024 destination addresses x 1024 ports")
    expect_accept(mk, rate_req(50000, lo) + u32(250, 1024) + u32(251, 64),
                  "rate receiver on 1024 destination addresses x 64 ports (65,536 flows)")
    # flows past 1024 (tag 252): at most 65,536 (the receiver's windows: 8 MB), fewer with probes
    for flows in (0, 65537, 2**32 - 1):
        expect_refusal(mk, rate_req(40130) + u32(252, flows), ["flows (1 to 65536)"],
                       "rate receiver counting %d flows" % flows)
    expect_refusal(mk, rate_req(40130) + u32(252, 40000) + u32(203, 40131), ["top bit"],
                   "rate receiver counting 40000 flows and reflecting probes")
    expect_accept(mk, rate_req(40130) + u32(252, 65536), "rate receiver counting 65536 flows")
    # 6. mem: the run's own estimate against --max-time
    expect_refusal(mk, mem_req(NS), ["max-time"], "mem run claiming 1 s under --max-time 3")


def bidir_req(port, fwd_fps, rev_fps, size=64, rev_port=40200, rev_addr=None, rev_ns=NS // 2,
              dur=NS, trial=7):
    """rate --bidir (docs/protocol.md): the forward's frame bits per second, and the reverse the
    agent is to send (tags 206-209, 228-231)."""
    b = (u32(T_TEST, TEST_RATE) + u64(T_DURATION, dur) + u64(T_RATE_BPS, fwd_fps * size * 8) +
         u32(T_PORT, port) + u32(210, trial) + u32(206, rev_port) + u64(208, rev_fps) +
         u32(209, size) + u64(228, rev_ns) + u32(229, 1))
    if rev_addr is not None:
        b += tlv(207, rev_addr)
    return b


def count_udp(addr, port, secs):
    """Datagrams arriving at addr:port within secs, from a thread started now."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, port))
    s.settimeout(0.1)
    got = [0]

    def run():
        end = time.monotonic() + secs
        while time.monotonic() < end:
            try:
                s.recv(2048)
                got[0] += 1
            except socket.timeout:
                pass
        s.close()
    t = threading.Thread(target=run)
    t.start()
    return t, got


def count_udp_lens(addr, port, secs):
    """Datagrams arriving at addr:port within secs by payload length, from a thread started now."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, port))
    s.settimeout(0.1)
    lens = {}

    def run():
        end = time.monotonic() + secs
        while time.monotonic() < end:
            try:
                n = len(s.recv(2048))
                lens[n] = lens.get(n, 0) + 1
            except socket.timeout:
                pass
        s.close()
    t = threading.Thread(target=run)
    t.start()
    return t, lens


def reverse_sent(ctl, typ):
    """Runs an acknowledged --bidir test for 0.8 s and closes it: the frames the agent says it
    sent back (tag 233, per flow), or -1 when the test was not acknowledged or FINAL lacks them."""
    sent = -1
    if typ == TEST_ACK:
        ctl.ask(START)
        time.sleep(0.8)
        typ, items = ctl.ask(STOP)
        if typ == FINAL and 233 in items:
            per = items[233][0]
            sent = sum(struct.unpack(">%dQ" % (len(per) // 8), per))
    ctl.close()
    return sent


def bidir_mix(host, port, psk, max_rate):
    """rate --bidir --imix (tag 236): a mix the agent must not accept, a mix whose mean frame the
    caps judge above the size the request states, and a mix within the caps that arrives at the
    controller in its proportions."""
    mk = lambda: fresh(host, port, psk)
    for spec, what in ((b"64:7,570:4,99999:1", "a size above 9216 bytes"),
                       (b"64:1", "one size only"),
                       (b"64:7,57\x000:4", "a NUL inside"),
                       (b"64:1001,128:1", "a weight above 1000"),
                       (b"64:1,128:1,192:1,256:1,320:1,384:1,448:1,512:1,576:1", "nine sizes")):
        expect_refusal(mk, bidir_req(40130, 100, 100) + tlv(236, spec), ["malformed reverse mix"],
                       "a reverse mix with %s" % what)
    # 64-byte frames stated, 9000- and 9216-byte frames in the mix: judged at the mix's mean.
    fps = int(max_rate * 1.1 / (9129 * 8))
    expect_refusal(mk, bidir_req(40131, fps, fps) + tlv(236, b"9000:1,9216:1"),
                   ["refused by rule max-rate", "both directions"],
                   "%d fps each way of a 9108-byte mix stated as 64-byte frames" % fps)
    # -m b2b (tag 238): a burst of 0 frames is malformed; a burst within the caps is sent whole
    # and no more, though the trial lasts longer.
    expect_refusal(mk, bidir_req(40133, 100, 100) + u64(238, 0), ["burst of 0 frames"],
                   "a reverse burst of 0 frames")
    th, got = count_udp("127.0.0.1", 40204, 1.5)
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, bidir_req(40134, 1000, 1000, rev_port=40204) + u64(238, 123))
    ok = typ == TEST_ACK and struct.unpack(">I", items.get(239, [bytes(4)])[0])[0] == 1
    report(ok, "a reverse burst of 123 frames: accepted and confirmed (%s)" %
           ("tag 239" if ok else text(items)))
    sent = reverse_sent(ctl, typ)
    th.join()
    report(sent == 123 and got[0] == 123,
           "... the agent sent %d frames of a 0.5 s trial at 1000 fps and the controller received %d"
           % (sent, got[0]))
    th, lens = count_udp_lens("127.0.0.1", 40203, 1.5)
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, bidir_req(40132, 1000, 1000, size=354, rev_port=40203) +
                         tlv(236, b"64:7,570:4,1518:1"))
    ok = typ == TEST_ACK and struct.unpack(">I", items.get(237, [bytes(4)])[0])[0] == 1
    report(ok, "simple IMIX each way to the controller: accepted, the mix confirmed (%s)" %
           ("tag 237" if ok else text(items)))
    sent = reverse_sent(ctl, typ)
    th.join()
    got = sum(lens.values())
    # IPv4 payloads of 64, 570 and 1518-byte frames; one flow of `sent` frames follows the
    # pattern of 12 from its start, so each size's count is within one pattern of its share.
    share = {18: 7, 524: 4, 1472: 1}
    fits = set(lens) <= set(share) and all(abs(lens.get(k, 0) - sent * w / 12) <= w
                                           for k, w in share.items())
    report(sent > 0 and got == sent and fits,
           "... the agent sent %d frames and the controller received %s by payload length" %
           (sent, dict(sorted(lens.items()))))


def case_bidir_engine(host, port, psk):
    """rate --bidir --engine packet (tag 240) against an agent without CAP_NET_RAW: refused,
    naming the capability; an engine it does not know, and a mix on the packet engine, are
    malformed."""
    mk = lambda: fresh(host, port, psk)
    expect_refusal(mk, bidir_req(40140, 100, 100) + u32(240, 2), ["packet engine", "CAP_NET_RAW"],
                   "a reverse with the packet engine from an agent without CAP_NET_RAW")
    expect_refusal(mk, bidir_req(40141, 100, 100) + u32(240, 3), ["malformed", "engine 3"],
                   "a reverse with engine 3")
    expect_refusal(mk, bidir_req(40142, 100, 100) + u32(240, 2) + tlv(236, b"64:7,570:4,1518:1"),
                   ["packet engine sends one frame size"], "a mix on the reverse's packet engine")
    # and the udp engine still serves it
    expect_accept(mk, bidir_req(40143, 100, 100) + u32(240, 1), "a reverse with engine 1 (udp)")


def case_bidir(host, port, psk, max_rate, max_pps):
    """rate --bidir against an agent with --max-rate and --max-pps: the reverse direction goes
    only to the controller, and the caps judge both directions' sum."""
    mk = lambda: fresh(host, port, psk)
    max_rate, max_pps = int(max_rate), int(max_pps)
    # Another address, named freely: refused by the target rule, and nothing arrives there.
    for addr, what in ((bytes([127, 0, 0, 2]), "127.0.0.2, another local address"),
                       (bytes([198, 51, 100, 7]), "198.51.100.7, another host"),
                       (bytes(4), "0.0.0.0")):
        listen = addr == bytes([127, 0, 0, 2])
        if listen:
            th, got = count_udp("127.0.0.2", 40201, 1.0)
        ctl = mk()
        typ, items = ctl.ask(TEST_REQ, bidir_req(40110, 1000, 1000, rev_port=40201, rev_addr=addr))
        if typ == TEST_ACK:   # were it accepted, it would send now
            ctl.ask(START)
        ctl.close()
        t = text(items)
        report(typ == ERROR and "refused by rule target" in t,
               "reverse direction to %s: refused (%s)" % (what, t if typ == ERROR else "accepted"))
        if listen:
            th.join()
            report(got[0] == 0, "... and no datagram arrived at 127.0.0.2:40201 (%d)" % got[0])
    if not max_rate:
        # An agent with --max-pps only: the packet rate split over the directions.
        pfps = int(max_pps * 0.6)
        expect_refusal(mk, bidir_req(40115, pfps, pfps), ["refused by rule max-pps", "both directions"],
                       "%d packets/s each way under --max-pps %d" % (pfps, max_pps))
        expect_accept(mk, bidir_req(40119, pfps // 2, pfps // 2),
                      "%d packets/s each way under --max-pps %d" % (pfps // 2, max_pps))
        return
    # A rate split over the two directions: each within --max-rate, the sum above it.
    fps = int(max_rate * 0.6 / (84 * 8))
    expect_accept(mk, u32(T_TEST, TEST_RATE) + u64(T_DURATION, NS) + u64(T_RATE_BPS, fps * 64 * 8) +
                  u32(T_PORT, 40111), "forward alone at %d fps of 64 B (60 %% of --max-rate)" % fps)
    expect_refusal(mk, bidir_req(40112, fps, fps), ["refused by rule max-rate", "both directions"],
                   "%d fps each way, 120 %% of --max-rate together" % fps)
    expect_refusal(mk, bidir_req(40113, 100, 2 * fps), ["refused by rule max-rate", "both directions"],
                   "a small forward and a reverse of 120 % of --max-rate")
    expect_refusal(mk, bidir_req(40114, 100, 0), ["max-rate", "unlimited", "reverse"],
                   "a flat-out reverse under --max-rate")
    expect_refusal(mk, bidir_req(40116, 100, 100, rev_ns=2 * NS), ["outlasts"],
                   "a reverse direction longer than the test")
    expect_refusal(mk, bidir_req(40117, 100, 2**62), ["max-rate"],
                   "a reverse rate whose wire bits wrap 64 bits")
    expect_refusal(mk, bidir_req(40120, 100, 100) + u32(230, 1 << 30), ["burst"],
                   "a reverse sent in bursts of 2^30 frames")
    bidir_mix(host, port, psk, max_rate)
    # Within the caps, to the controller: accepted, and what arrived is what FINAL says was sent.
    th, got = count_udp("127.0.0.1", 40202, 1.5)
    ctl = mk()
    typ, items = ctl.ask(TEST_REQ, bidir_req(40118, 1000, 1000, rev_port=40202))
    ok = typ == TEST_ACK and struct.unpack(">I", items.get(232, [bytes(4)])[0])[0] == 1
    report(ok, "1000 fps each way to the controller: accepted, the reverse confirmed (%s)" %
           ("tag 232" if ok else text(items)))
    sent = reverse_sent(ctl, typ)
    th.join()
    report(sent > 0 and sent <= 501 and got[0] == sent,
           "... the agent sent %d frames in 0.5 s and the controller's port received %d" % (sent, got[0]))


def case_cap_time(host, port, psk):
    """7. A test that asks for exactly --max-time (3 s) and never sends STOP ends at 3 s."""
    c = fresh(host, port, psk)
    typ, items = c.ask(TEST_REQ, stream_req(0, "127.0.0.1", [1000000], 3 * NS, port=40003))
    if typ != TEST_ACK:
        report(False, "receive stream accepted (%s)" % text(items))
        return
    typ, _ = c.ask(START)
    t0 = time.monotonic()
    c.s.settimeout(20)
    try:
        typ, items = recv_msg(c.s)
        got = "message %d: %s" % (typ, text(items))
    except Exception as e:
        typ, got = None, "connection ended: %s" % e
    dt = time.monotonic() - t0
    report(typ == ERROR and "max-time" in text(items) and dt < 3.5,
           "test without STOP stopped at --max-time 3 s after %.2f s, and said so (%s)" % (dt, got))
    c.s.close()


def tput_tcp_req(rate, streams, dir, dur=2 * NS, block=1448):
    return (u32(T_TEST, TEST_TPUT) + u64(T_DURATION, dur) + u32(100, 0) + u32(101, block) +
            u32(102, streams) + u32(103, dir) + u64(T_RATE_BPS, rate))


AVAIL_CC = "/proc/sys/net/ipv4/tcp_available_congestion_control"


def case_congestion(host, port, psk, not_allowed, unloaded, tuning):
    """A TCP test's congestion control (tag 108): the agent takes only a name its kernel has
    loaded, never makes the kernel load a module for one (as root, setsockopt would), and one
    outside tcp_allowed_congestion_control only when started with --allow-tuning."""
    def mk(): return fresh(host, port, psk)
    base = tput_tcp_req(0, 1, 1)
    before = open(AVAIL_CC).read()
    expect_refusal(mk, base + st(108, unloaded), ["not loaded", unloaded],
                   "congestion control %s, not loaded" % unloaded)
    after = open(AVAIL_CC).read()
    report(before == after, "no module loaded for it (loaded before: %s, after: %s)" % (
        before.strip(), after.strip()))
    if not_allowed != "-" and tuning == "0":
        expect_refusal(mk, base + st(108, not_allowed), ["refused by rule tuning", not_allowed],
                       "congestion control %s, outside tcp_allowed_congestion_control" % not_allowed)
    elif not_allowed != "-":
        expect_accept(mk, base + st(108, not_allowed),
                      "congestion control %s with --allow-tuning" % not_allowed)
    expect_refusal(mk, tput_req(10**6, 1, 1000) + st(108, "reno"), ["TCP's"],
                   "congestion control on a UDP test")
    for bad in [b"../../x", b"a" * 16, b"", b"reno\0", b"ReNo", b"reno cubic"]:
        expect_refusal(mk, base + tlv(108, bad), ["malformed"], "congestion name %r" % bad)


def case_dup_send(host, port, psk, cap_bps):
    """1 (issue 21). A TCP test in both directions with S streams plans S connections on which
    the agent sends; a controller opening 2S that all say "agent sends" would double the rate
    the agent checked. The agent takes one per stream and direction: the second is refused,
    and what the client receives stays within --max-rate."""
    cap, streams = int(cap_bps), 2
    rate = int(cap * 0.8 / streams)   # per stream: the plan fits the cap with 20 % room
    c = fresh(host, port, psk)
    typ, items = c.ask(TEST_REQ, tput_tcp_req(rate, streams, 3))
    if typ != TEST_ACK:
        report(False, "both directions, %d streams at %d bit/s accepted (%s)" % (streams, rate, text(items)))
        return
    dport = struct.unpack(">I", items[T_PORT][0])[0]
    cookie = struct.unpack(">I", items[104][0])[0]
    data, got, lock, stop = [], [0], threading.Lock(), threading.Event()
    for i in range(2 * streams):
        d = connect(host, dport, 3)
        d.sendall(struct.pack(">IHH", cookie, i % streams, 2))   # every one: "agent sends"
        data.append(d)

    def drain(d):
        d.settimeout(0.2)
        while not stop.is_set():
            try:
                b = d.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not b:
                return
            with lock:
                got[0] += len(b)

    th = [threading.Thread(target=drain, args=(d,)) for d in data]
    for t in th:
        t.start()
    t0 = time.monotonic()
    c.s.settimeout(10)
    typ, items = c.ask(START)
    time.sleep(1.5)
    dt = time.monotonic() - t0
    stop.set()
    for t in th:
        t.join()
    for d in data:
        d.close()
    c.s.close()
    mbit = got[0] * 8 / dt / 1e6
    report(typ == ERROR and "second data connection" in text(items) and "agent sends" in text(items),
           "%d 'agent sends' data connections for a plan of %d: the test is refused, naming the "
           "duplicate (%s)" % (2 * streams, streams, text(items) if typ == ERROR else "started"))
    # Payload only: what the agent put on the wire is more. Before the fix this was ~1.6 x cap.
    report(got[0] * 8 <= cap * dt, "received %.2f Mbit/s of payload in %.1f s, within --max-rate "
           "%.2f Mbit/s (%d bytes)" % (mbit, dt, cap / 1e6, got[0]))


def case_nonreader(host, port, psk, max_time):
    """3 (issue 21). A controller that sends and never reads: MARK after MARK while its receive
    window is full, so the agent's answers cannot leave. The test's datagrams stop at
    --max-time whatever the session's thread is doing, and the next controller is served
    within 1 s of it (before the rule: datagrams to max-time + 2 s, "busy" for half a minute)."""
    limit = float(max_time)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind((host, 0))
    udp.settimeout(0.1)
    c = fresh(host, port, psk, rcvbuf=2048)
    typ, items = c.ask(TEST_REQ, tput_req(1000000, 1, 1000, proto=1, dir=2, port=udp.getsockname()[1],
                                          dur=int(limit * NS)))
    if typ != TEST_ACK:
        report(False, "agent-sending UDP test of --max-time accepted (%s)" % text(items))
        return
    last, count, stop = [0.0], [0], threading.Event()

    def rx():
        while not stop.is_set():
            try:
                udp.recv(2048)
            except socket.timeout:
                continue
            last[0] = time.monotonic()
            count[0] += 1

    r = threading.Thread(target=rx)
    r.start()
    t0 = time.monotonic()   # before START: the agent's limit counts from later
    c.ask(START)
    c.s.setblocking(False)
    mark, marks = frame(MARK, u32(10, 1)), 0
    # Flood MARKs, never reading, until the limit has passed by 2 s or the agent closes.
    while time.monotonic() < t0 + limit + 2.0:
        try:
            c.s.send(mark)
            marks += 1
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            break
    # The next controller: its tput test is set up (the agent does that only when free).
    served_at = None
    while served_at is None and time.monotonic() < t0 + limit + 4.0:
        try:
            n = Ctl(host, port, psk, timeout=2)
            typ, _ = n.ask(TEST_REQ, tput_req(1000000, 1, 1000, proto=1, dir=1, port=0))
            n.close()
            if typ == TEST_ACK:
                served_at = time.monotonic()
        except Exception:
            pass
        if served_at is None:
            time.sleep(0.05)
    stop.set()
    r.join()
    udp.close()
    c.s.close()
    report(count[0] > 0 and last[0] - t0 <= limit + 1.0,
           "a controller that never reads: the agent's datagrams stop by --max-time %.0f s + 1 s "
           "(%d datagrams, the last %.2f s after START; %d MARKs sent)" % (limit, count[0], last[0] - t0, marks))
    # The flood ends when the agent closes the connection; then a controller tries at once.
    report(served_at is not None and served_at - t0 <= limit + 1.0,
           "... and the next controller's test is set up within 1 s of --max-time, %s" %
           ("%.2f s after START" % (served_at - t0) if served_at else "not within %.0f s" % (limit + 4)))


def case_pps(host, port, psk):
    mk = lambda: fresh(host, port, psk)
    expect_refusal(mk, stream_req(1, "", [4000000], NS, block=100), ["max-pps"],
                   "5000 packets/s under --max-pps 2000")
    expect_accept(mk, stream_req(1, "", [1000000], NS, block=1000), "125 packets/s under --max-pps 2000")


def case_mem_stop(host, port, psk):
    """6. STOP ends a mem run within 1 s."""
    c = fresh(host, port, psk)
    typ, items = c.ask(TEST_REQ, mem_req(300 * NS, max_bytes=64 << 20))
    if typ != TEST_ACK:
        report(False, "mem run accepted (%s)" % text(items))
        return
    c.ask(START)
    time.sleep(0.5)
    t0 = time.monotonic()
    c.s.settimeout(30)
    typ, items = c.ask(STOP)
    dt = time.monotonic() - t0
    report(dt < 1.0, "mem answers STOP within 1 s (%.2f s, message %d)" % (dt, typ))
    c.s.close()
    # The next controller is served within 1 s of the answer (until the session is torn
    # down it may hear "busy", at once).
    t0, served = time.monotonic(), False
    while time.monotonic() - t0 < 1.0 and not served:
        try:
            fresh(host, port, psk).close()
            served = True
        except Exception:
            time.sleep(0.05)
    report(served, "the agent serves the next controller within 1 s (%.2f s)" % (time.monotonic() - t0))


def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    return proc_stat(pid)[0]


def case_mem_cancel(host, port, psk, pid):
    """2 (issue). A cancel lands inside one large point (1 GiB and up: faulting a gigabyte in and
    laying a chain of 16 M lines take seconds): STOP is answered, and a controller that
    vanishes leaves the agent idle and serving, within 1 s either way."""
    pid = int(pid)
    for how in ("STOP", "vanish"):
        c = fresh(host, port, psk)
        typ, items = c.ask(TEST_REQ, mem_req(300 * NS, max_bytes=2 << 30, min_bytes=1 << 30))
        if typ != TEST_ACK:
            report(False, "mem run over 1 to 2 GiB accepted (%s)" % text(items))
            return
        c.ask(START)
        # Inside the first point: its gigabyte is faulted in, its chain being laid.
        t0 = time.monotonic()
        while rss_kib(pid) < (1 << 20) and time.monotonic() - t0 < 20:
            time.sleep(0.01)
        if rss_kib(pid) < (1 << 20):
            report(False, "the agent's mem run reached 1 GiB of RSS within 20 s")
            return
        t0 = time.monotonic()
        if how == "STOP":
            c.s.settimeout(30)
            typ, items = c.ask(STOP)
            dt = time.monotonic() - t0
            report(dt < 1.0, "mem answers STOP inside a 1 GiB point within 1 s (%.2f s, message %d)"
                   % (dt, typ))
            c.s.close()
        else:
            c.s.close()
        # Served: a new test is set up, which the agent does only once the old one is gone.
        served = False
        while time.monotonic() - t0 < 5.0 and not served:
            try:
                n = fresh(host, port, psk)
                typ, items = n.ask(TEST_REQ, mem_req(10 * NS, max_bytes=4096, min_bytes=1024, quick=1))
                n.close()
                served = typ == TEST_ACK
            except Exception:
                pass
            if not served:
                time.sleep(0.05)
        dt = time.monotonic() - t0
        report(served and dt < 1.0, "after %s inside a 1 GiB point the next controller's test is "
               "set up within 1 s (%.2f s)" % (how, dt))
        c0 = cpu_s(pid)
        time.sleep(0.5)
        busy = cpu_s(pid) - c0
        report(busy < 0.1, "after %s the agent is idle (%.2f s of CPU in 0.5 s)" % (how, busy))


def case_scope(host, port, psk, other):
    """2. Controller at host (link-local on link A); fe80::1 on link B is another host."""
    mk = lambda: fresh(host, port, psk)
    expect_refusal(mk, stream_req(1, other, [1000000], NS), ["target"], "stream to %s (same address, other link)" % other)
    expect_accept(mk, stream_req(1, "", [1000000], NS), "stream to the controller itself on its own link")


def case_iface(host, port, psk, iface):
    mk = lambda: fresh(host, port, psk)
    expect_refusal(mk, stream_req(1, "", [1000000], NS, iface=iface), ["target"],
                   "unicast stream to the controller's address out of %s" % iface)


def case_mcast_iface(host, port, psk, other, own):
    """3 (issue). Multicast leaves by the control connection's interface: the controller cannot
    point it at another network."""
    mk = lambda: fresh(host, port, psk)
    expect_refusal(mk, stream_req(1, "239.1.2.3", [1000000], NS, iface=other, ttl=1),
                   ["multicast", "control connection's interface " + own, other],
                   "multicast to 239.1.2.3 out of %s (the control connection is on %s)" % (other, own))
    expect_accept(mk, stream_req(1, "239.1.2.3", [1000000], NS, ttl=1),
                  "multicast to 239.1.2.3 with no interface asked (leaves by %s)" % own)
    expect_accept(mk, stream_req(1, "239.1.2.3", [1000000], NS, iface=own, ttl=1),
                  "multicast to 239.1.2.3 out of the control connection's own %s" % own)


def case_mcast_iface_allowed(host, port, psk, other):
    mk = lambda: fresh(host, port, psk)
    expect_accept(mk, stream_req(1, "239.1.2.3", [1000000], NS, iface=other, ttl=1),
                  "multicast out of %s once the operator allowed it with --mcast-iface" % other)


def case_slow_hello(host, port, psk):
    """A connection whose first byte comes after the 2 s deadline is closed (the agent logs
    why: tests/integration/hostile.sh reads the log)."""
    s = connect(host, port)
    time.sleep(2.5)
    try:
        s.sendall(frame(HELLO, u32(T_VERSION, 1) + st(T_SW, "late") + tlv(T_NONCE, os.urandom(32))))
        got = s.recv(64)
    except OSError:
        got = b""
    s.close()
    report(got == b"", "a HELLO 2.5 s after connecting finds the connection closed")


def proc_stat(pid):
    rss = thr = 0
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
        if line.startswith("Threads:"):
            thr = int(line.split()[1])
    return rss, thr, len(os.listdir("/proc/%d/fd" % pid))


def timed_handshake(host, port, psk):
    t0 = time.monotonic()
    try:
        c = Ctl(host, port, psk, timeout=3)
        c.close()
        return time.monotonic() - t0, "served"
    except Exception as e:
        return time.monotonic() - t0, "refused: %s" % e


def case_flood(host, port, psk, pid):
    """5. Idle and slow clients do not keep a controller out; 2,000 hostile connections leave
    the agent as it was."""
    pid = int(pid)
    c = fresh(host, port, psk)   # warm-up: one full session first
    c.close()
    time.sleep(1.0)
    before = proc_stat(pid)
    stop = threading.Event()
    held = []

    def idler():
        while not stop.is_set():
            try:
                held.append(connect(host, port, 2))
            except OSError:
                pass
            time.sleep(0.02)

    def slow():
        while not stop.is_set():
            try:
                s = connect(host, port, 2)
                for b in frame(HELLO, u32(T_VERSION, 1) + tlv(T_NONCE, bytes(32))):
                    if stop.is_set():
                        break
                    s.send(bytes([b]))
                    time.sleep(0.3)
                held.append(s)
            except OSError:
                pass

    th = [threading.Thread(target=idler) for _ in range(3)] + [threading.Thread(target=slow) for _ in range(8)]
    for t in th:
        t.start()
    time.sleep(1.0)
    worst, results = 0.0, []
    for _ in range(6):
        dt, how = timed_handshake(host, port, psk)
        worst = max(worst, dt)
        results.append(how)
        time.sleep(0.3)
    stop.set()
    for t in th:
        t.join()
    report(worst < 1.0 and all(r == "served" for r in results),
           "a controller with the key is served within 1 s during an idle and slow flood "
           "(worst %.3f s, %d idle/slow connections open: %s)" % (worst, len(held), results[-1]))
    for s in held:
        s.close()
    # 2,000 hostile connections of four kinds.
    kinds = {"random": 0, "absurd": 0, "half-open": 0, "http": 0}
    for i in range(2000):
        k = ("random", "absurd", "half-open", "http")[i % 4]
        try:
            s = connect(host, port, 2)
            if k == "random":
                s.sendall(os.urandom(random.randint(1, 3000)))
            elif k == "absurd":
                s.sendall(struct.pack(">IHHI", MAGIC, HELLO, 0, 0xffffffff) + os.urandom(64))
            elif k == "half-open":
                s.shutdown(socket.SHUT_WR)
            else:
                s.sendall(b"GET / HTTP/1.1\r\nHost: agent\r\n\r\n")
            s.close()
            kinds[k] += 1
        except OSError:
            pass
    time.sleep(2.5)  # first-byte deadlines and lingering answers run out
    dt, how = timed_handshake(host, port, psk)
    report(how == "served" and dt < 1.0, "served after 2,000 hostile connections (%.3f s)" % dt)
    time.sleep(1.0)
    after = proc_stat(pid)
    report(sum(kinds.values()) >= 1900, "2,000 hostile connections made (%s)" % kinds)
    report(after[2] == before[2], "fd count unchanged (%d before, %d after)" % (before[2], after[2]))
    report(after[1] == before[1], "thread count unchanged (%d before, %d after)" % (before[1], after[1]))
    report(after[0] <= before[0] + 1024, "RSS within 1 MiB (%d KiB before, %d KiB after)" % (before[0], after[0]))


def flood_hellos(host, port, srcs, per, stop, stats):
    """per connections from each source address, each sending a valid HELLO at once and
    coming back as soon as the agent drops it; until stop is set."""
    sel = selectors.DefaultSelector()
    hello = frame(HELLO, u32(T_VERSION, 1) + st(T_SW, "flood") + tlv(T_NONCE, os.urandom(32)))

    def open_one(src):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((src, 0))
            s.connect_ex((host, port))
            sel.register(s, selectors.EVENT_WRITE, [src, False])
        except OSError:
            s.close()
            stats["errors"] += 1

    def close_one(s):
        sel.unregister(s)
        s.close()

    for src in srcs:
        for _ in range(per):
            open_one(src)
    while not stop.is_set():
        for key, _ in sel.select(0.1):
            s, d = key.fileobj, key.data
            if not d[1]:
                if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    close_one(s)
                    open_one(d[0])
                    continue
                try:
                    s.send(hello)
                except OSError:
                    close_one(s)
                    open_one(d[0])
                    continue
                d[1] = True
                stats["hellos"] += 1
                sel.modify(s, selectors.EVENT_READ, d)
                continue
            try:
                b = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            if not b:
                close_one(s)
                stats["dropped"] += 1
                open_one(d[0])
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    sel.close()


def case_sources(host, port, psk, nsrc, per, src_net, netbench, keyfile):
    """2 (issue 21). Handshake slots shared among sources: nsrc addresses (src_net + .1 ..) each
    keep per connections open with a valid HELLO, coming back at once when dropped. A
    controller with the key is served within 1 s every time, and a real `netbench tput --psk`
    succeeds. Before the rule, 6-8 sources x 16 locked it out 7 times in 10."""
    nsrc, per = int(nsrc), int(per)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = nsrc * per + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    srcs = ["%s.%d" % (src_net, i + 1) for i in range(nsrc)]
    stats = {"hellos": 0, "dropped": 0, "errors": 0}
    stop = threading.Event()
    th = threading.Thread(target=flood_hellos, args=(host, port, srcs, per, stop, stats))
    th.start()
    try:
        # Until the agent's slots are full and it is evicting (bounded: 10 s at most).
        t0 = time.monotonic()
        while stats["dropped"] < 4 * nsrc * per and time.monotonic() - t0 < 10:
            time.sleep(0.1)
        report(stats["dropped"] > 0, "the flood from %d addresses x %d fills the handshake slots "
               "(%d HELLOs, %d dropped by the agent)" % (nsrc, per, stats["hellos"], stats["dropped"]))
        h0, worst, results = stats["hellos"], 0.0, []
        for _ in range(10):
            dt, how = timed_handshake(host, port, psk)
            worst = max(worst, dt)
            results.append(how)
            time.sleep(0.1)
        bad = [r for r in results if r != "served"]
        report(worst < 1.0 and not bad,
               "a controller with the key is served within 1 s, 10 of 10 times, while %d addresses "
               "flood valid HELLOs (worst %.3f s%s)" % (nsrc, worst, "; " + bad[0] if bad else ""))
        fails = []
        for i in range(5):
            t1 = time.monotonic()
            try:
                r = subprocess.run([netbench, "tput", "-c", host, "-p", str(port), "--psk", keyfile,
                                    "-t", "0.3", "-O", "0", "-l", "1k", "--tx-only"],
                                   capture_output=True, text=True, timeout=30)
                rc, err = r.returncode, (r.stderr.strip().splitlines() or [""])[-1]
                if rc and not err:  # a step judged invalid says why on stdout
                    err = " / ".join(l.strip() for l in r.stdout.splitlines() if "invalid" in l)
            except subprocess.TimeoutExpired:
                rc, err = -1, "no end within 30 s"
            if rc != 0:
                fails.append("run %d: exit %d after %.1f s: %s" % (i + 1, rc, time.monotonic() - t1, err))
        report(not fails, "a real `netbench tput --psk` succeeds 5 of 5 times during the flood%s"
               % (" (" + fails[0] + ")" if fails else ""))
        report(stats["hellos"] - h0 > nsrc * per, "... while the flood went on (%d HELLOs meanwhile; "
               "%d in all, %d dropped by the agent)" % (stats["hellos"] - h0, stats["hellos"], stats["dropped"]))
    finally:
        stop.set()
        th.join()


def case_impostor(port):
    """8. An agent that says no key is required; prints when the controller gave up."""
    l = socket.socket()
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind(("127.0.0.1", int(port)))
    l.listen(1)
    print("listening", flush=True)
    l.settimeout(15)
    c, _ = l.accept()
    recv_msg(c)
    c.sendall(frame(HELLO_OK, u32(T_VERSION, 1) + st(T_SW, "0.1.0") + tlv(T_NONCE, os.urandom(32)) +
                    u32(T_AUTH_REQ, 0) + st(22, "impostor")))
    c.settimeout(5)
    try:
        typ, _ = recv_msg(c)
        print("impostor got message %d" % typ, flush=True)
    except Exception:
        print("impostor: controller left", flush=True)


# Terminal control sequences a hostile agent (or a proxy) puts in its facts: retitle, clear the
# screen, hide text, a C1 CSI (U+009B) that some terminals obey as ESC [, and a carriage return.
EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[8m\u009b31m\rX"
SI_STRINGS = (T_SW, 21, 22, 23, 24, 25, 26, 27, 30, 31, 32, 33)  # gitrev .. bus info, no numbers


def rewrite(typ, body):
    """Facts in HELLO_OK and AUTH_OK, and every error text, get EVIL appended."""
    if typ not in (HELLO_OK, AUTH_OK, ERROR):
        return body
    out, off = b"", 0
    while off < len(body):
        tag, l = struct.unpack(">HH", body[off:off + 4])
        val = body[off + 4:off + 4 + l]
        off += 4 + l
        if tag in SI_STRINGS or tag == T_ERR_TEXT:
            val = (val.decode(errors="replace") + EVIL).encode()[:200]
        out += tlv(tag, val)
    return out


def pump(src, dst, edit):
    """Copies messages from src to dst, each body through edit(type, body) (None: as is)."""
    try:
        while True:
            magic, typ, z, ln = struct.unpack(">IHHI", recvall(src, 12))
            body = recvall(src, ln)
            if edit:
                body = edit(typ, body)
            dst.sendall(struct.pack(">IHHI", magic, typ, z, len(body)) + body)
    except (OSError, ConnectionError, struct.error):
        pass
    for x in (src, dst):
        try:
            x.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def proxy(listen_port, agent_port, up, down):
    """A man in the middle of the control connection: messages to the agent through up, its
    answers through down; serves connections until killed. Prints "listening" once it accepts."""
    l = socket.socket()
    l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind(("127.0.0.1", int(listen_port)))
    l.listen(8)
    print("listening", flush=True)

    def serve(c):
        a = socket.create_connection(("127.0.0.1", int(agent_port)))
        threading.Thread(target=pump, args=(c, a, up), daemon=True).start()
        pump(a, c, down)
        for x in (a, c):
            try:
                x.close()
            except OSError:
                pass

    while True:
        c, _ = l.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


def case_escape_proxy(listen_port, agent_port):
    """Rewrites the agent's facts and error texts (rewrite)."""
    proxy(listen_port, agent_port, None, rewrite)


REV_TAGS = (206, 207, 208, 209, 228, 229, 230, 231, 236, 238, 240)


def old_rate(typ, body):
    """What an agent older than --bidir reads of a rate TEST_REQ: the reverse tags unknown."""
    if typ != TEST_REQ:
        return body
    out, off = b"", 0
    while off < len(body):
        tag, l = struct.unpack(">HH", body[off:off + 4])
        if tag not in REV_TAGS:
            out += body[off:off + 4 + l]
        off += 4 + l
    return out


def old_mix(typ, body):
    """What an agent that knows --bidir but not its mix nor its bursts reads: tags 236 and 238
    unknown."""
    if typ != TEST_REQ:
        return body
    out, off = b"", 0
    while off < len(body):
        tag, l = struct.unpack(">HH", body[off:off + 4])
        if tag not in (236, 238):
            out += body[off:off + 4 + l]
        off += 4 + l
    return out


def case_old_mix_proxy(listen_port, agent_port):
    """An agent as old as before --bidir --imix and -m b2b: one size, for the whole trial."""
    proxy(listen_port, agent_port, old_mix, None)


def other_kernel(typ, body):
    """An agent's TEST_ACK as from another kernel: its boot id (tag 202) not this host's."""
    if typ != TEST_ACK:
        return body
    out, off = b"", 0
    while off < len(body):
        tag, l = struct.unpack(">HH", body[off:off + 4])
        val = body[off + 4:off + 4 + l]
        off += 4 + l
        out += tlv(tag, b"00000000-0000-4000-8000-000000000000" if tag == 202 else val)
    return out


def case_other_kernel_proxy(listen_port, agent_port):
    """An agent on this host that says it runs on another kernel: no clock shared with it."""
    proxy(listen_port, agent_port, None, other_kernel)


def case_old_rate_proxy(listen_port, agent_port):
    """An agent as old as before --bidir: it never sees the reverse direction's tags."""
    proxy(listen_port, agent_port, old_rate, None)


TEST_OBSERVE = 6
T_PROF_HEAD, T_PROF_WHY, T_PROF_CPU, T_PROF_FUNC, T_PROF_FOLDED = 620, 621, 622, 623, 624


def obs_req(hz=None, kib=None, mask=None):
    b = u32(T_TEST, TEST_OBSERVE) + u64(T_DURATION, NS) + u32(600, 10)
    if hz is not None:
        b += u32(606, hz)
    if kib is not None:
        b += u32(607, kib)
    if mask is not None:
        b += u64(608, mask)
    return b


def kernel_text_range():
    lo, hi = None, None
    with open("/proc/kallsyms") as f:
        for line in f:
            a = int(line.split()[0], 16)
            if a and line.split()[1] in "tTwW":
                lo = a if lo is None or a < lo else lo
                hi = a if hi is None or a > hi else hi
    return lo, hi


def case_profile_refused(host, port, psk):
    """An agent started with --no-profile: any profile request is refused by rule profile,
    observing alone is not."""
    def mk(): return fresh(host, port, psk)
    expect_refusal(mk, obs_req(hz=997), ["refused by rule profile", "--no-profile"],
                   "a profile from a --no-profile agent")
    expect_refusal(mk, obs_req(hz=1), ["refused by rule profile"],
                   "a 1 Hz profile from a --no-profile agent")
    expect_accept(mk, obs_req(), "observing without a profile on a --no-profile agent")


def case_profile_caps(host, port, psk):
    """More than the agent's caps, whatever is asked; then a profile within them, whose
    window carries names and counts and never a kernel address."""
    def mk(): return fresh(host, port, psk)
    expect_refusal(mk, obs_req(hz=5000), ["4999"], "a 5000 Hz profile")
    expect_refusal(mk, obs_req(hz=0xffffffff), ["4999"], "a 2^32-1 Hz profile")
    expect_refusal(mk, obs_req(hz=0), ["4999"], "a 0 Hz profile")
    expect_refusal(mk, obs_req(hz=997, kib=1 << 20), ["1024 KiB"], "a 1 GiB profile buffer")
    expect_refusal(mk, obs_req(hz=997, kib=4), ["KiB"], "a 4 KiB profile buffer")
    expect_refusal(mk, obs_req(kib=64), ["KiB"], "a profile buffer without a rate")
    expect_refusal(mk, tlv(606, b"\x00\x01") + obs_req(), ["rate"], "a 2-byte profile rate")
    c = mk()
    typ, items = c.ask(TEST_REQ, obs_req(hz=4999, kib=1024))
    report(typ == TEST_ACK, "a profile at the caps (4999 Hz, 1024 KiB): accepted%s" %
           ("" if typ == TEST_ACK else " (" + text(items) + ")"))
    if typ != TEST_ACK:
        c.close()
        return
    c.ask(START)
    t0 = time.time()
    while time.time() - t0 < 0.5:
        sum(i * i for i in range(20000))
    typ, items = c.ask(STOP)
    c.close()
    head = items.get(T_PROF_HEAD, [b""])[0]
    ok = typ == FINAL and len(head) == 48
    report(ok, "the window's FINAL carries a profile head (%d bytes)" % len(head))
    if not ok:
        return
    avail = struct.unpack(">I", head[:4])[0]
    if not avail:
        report(T_PROF_WHY in items, "unavailable, and says why: %s" %
               items.get(T_PROF_WHY, [b"?"])[0].decode(errors="replace"))
        return
    cpus = items.get(T_PROF_CPU, [])
    samples = sum(struct.unpack(">Q", c[4:12])[0] for c in cpus)
    report(samples > 0, "the profile counted %d samples on %d CPUs" % (samples, len(cpus)))
    lo, hi = kernel_text_range()
    leaks = []
    for tag in (T_PROF_HEAD, T_PROF_CPU, T_PROF_FUNC, T_PROF_FOLDED):
        for v in items.get(tag, []):
            for k in range(0, len(v) - 7):
                for fmt in (">Q", "<Q"):
                    x = struct.unpack(fmt, v[k:k + 8])[0]
                    if lo <= x <= hi:
                        leaks.append((tag, k))
            t = v.decode("latin-1")
            if "ffffffff" in t or "0x" in t:
                leaks.append((tag, "hex text"))
    report(not leaks, "no item of the profile holds a kernel text address (%s)" %
           (leaks[:3] if leaks else "names and counts only"))
    names = [v[9:].decode(errors="replace") for v in items.get(T_PROF_FUNC, [])]
    report(len(names) > 0 and all(n and n.isprintable() for n in names),
           "functions named: %s" % ", ".join(names[:3]))


def case_stream_profile(host, port, psk, no_profile="0"):
    """A stream receiver's kernel profile: refused by a --no-profile agent; else capped at 4999
    Hz per CPU whatever is asked, never 0 Hz, and only the receiver's (a sending agent takes
    none)."""
    def mk(): return fresh(host, port, psk)
    recv = stream_req(0, "127.0.0.1", [1000000], NS, port=40383)
    if no_profile == "1":
        expect_refusal(mk, recv + u32(313, 997), ["refused by rule profile", "--no-profile"],
                       "a stream profile from a --no-profile agent")
        expect_accept(mk, recv, "a stream without a profile on a --no-profile agent")
        return
    expect_refusal(mk, recv + u32(313, 5000), ["4999"], "a 5000 Hz stream profile")
    expect_refusal(mk, recv + u32(313, 0xffffffff), ["4999"], "a 2^32-1 Hz stream profile")
    expect_refusal(mk, recv + u32(313, 0), ["malformed"], "a 0 Hz stream profile")
    expect_refusal(mk, tlv(313, b"\x00\x01") + recv, ["malformed"], "a 2-byte stream profile rate")
    expect_refusal(mk, stream_req(1, "127.0.0.1", [1000000], NS, port=40383) + u32(313, 997),
                   ["receiver"], "a profile from a sending agent")
    expect_accept(mk, recv + u32(313, 4999), "a stream profile at the cap (4999 Hz)")


def udp_port_free(addr, port):
    """Whether this host could bind UDP addr:port now (False: EADDRINUSE)."""
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind((addr, port))
        return True
    except OSError:
        return False
    finally:
        u.close()


def case_quiet_ports(host, port, psk, quiet_s):
    """35.7: a TEST_REQ of 1,024 destination addresses x 64 ports (65,536 flows: the cap) holds
    no port until START; after START the controller goes silent: the agent ends the test within
    its quiet limit (quiet_s), frees the ports and says why, and serves the next controller."""
    quiet = float(quiet_s)
    lo = socket.inet_aton("127.0.0.1")
    req = rate_req(50000, lo) + u32(250, 1024) + u32(251, 64)
    req = req.replace(u64(T_DURATION, NS), u64(T_DURATION, 300 * NS))
    c = fresh(host, port, psk)
    typ, items = c.ask(TEST_REQ, req)
    report(typ == TEST_ACK, "rate request for 1024 addresses x 64 ports accepted%s" %
           ("" if typ == TEST_ACK else " (" + text(items) + ")"))
    if typ != TEST_ACK:
        return
    report(udp_port_free("0.0.0.0", 50010) and udp_port_free("127.0.0.5", 50063),
           "after TEST_REQ alone no port of the range is held (0.0.0.0:50010, 127.0.0.5:50063 bind)")
    typ, items = c.ask(START)
    report(typ == TEST_ACK, "START accepted%s" % ("" if typ == TEST_ACK else " (" + text(items) + ")"))
    held = not udp_port_free("0.0.0.0", 50010)
    report(held, "after START the receiver holds the range (0.0.0.0:50010 is in use)")
    t0 = time.monotonic()
    # Silent from here: nothing sent, nothing read, until every port is free again.
    while time.monotonic() - t0 < quiet + 30 and not (udp_port_free("0.0.0.0", 50010) and
                                                      udp_port_free("0.0.0.0", 50063)):
        time.sleep(0.05)
    freed = time.monotonic() - t0
    report(held and freed <= quiet + 2.0,
           "a silent controller's ports are free %.1f s after it fell quiet (limit %.0f s + 2 s)" %
           (freed, quiet))
    c.s.settimeout(5.0)
    try:
        typ, items = recv_msg(c.s)
        t = text(items)
    except Exception as e:
        typ, t = None, "%s: %s" % (type(e).__name__, e)
    report(typ == ERROR and "test stopped by rule quiet-time" in t,
           "the agent tells the silent controller why (%s)" % t)
    c.s.close()
    d = fresh(host, port, psk)
    typ, items = d.ask(TEST_REQ, rate_req(50000, lo) + u32(251, 64))
    report(typ == TEST_ACK, "the agent serves the next controller%s" %
           ("" if typ == TEST_ACK else " (" + text(items) + ")"))
    if typ == TEST_ACK:
        typ, items = d.ask(START)
        typ2, _ = d.ask(STOP) if typ == TEST_ACK else (None, None)
        report(typ == TEST_ACK and typ2 == FINAL, "... its test starts and stops (%s, %s)" %
               (typ, typ2))
    d.close()
def crypto_req(dur=120 * NS):
    return (u32(T_TEST, 4) + u64(T_DURATION, dur) + st(400, "aes-128-cbc") + st(401, "soft") +
            u32(402, 64) + u64(403, 50 * NS // 1000) + u64(404, 10 * NS // 1000) + u32(405, 1) +
            u32(406, 8) + u32(408, 1))


def case_crypto_profile(host, port, psk, no_profile="0"):
    """crypto's kernel profile of each point: refused by a --no-profile agent; else capped at
    4999 Hz per CPU whatever is asked, never 0 Hz, and stacks only with a profile."""
    def mk(): return fresh(host, port, psk)
    if no_profile == "1":
        expect_refusal(mk, crypto_req() + u32(417, 997), ["refused by rule profile", "--no-profile"],
                       "a crypto profile from a --no-profile agent")
        expect_accept(mk, crypto_req(), "crypto without a profile on a --no-profile agent")
        return
    expect_refusal(mk, crypto_req() + u32(417, 5000), ["4999"], "a 5000 Hz crypto profile")
    expect_refusal(mk, crypto_req() + u32(417, 0xffffffff), ["4999"], "a 2^32-1 Hz crypto profile")
    expect_refusal(mk, crypto_req() + u32(417, 0), ["malformed"], "a 0 Hz crypto profile")
    expect_refusal(mk, tlv(417, b"\x00\x01") + crypto_req(), ["malformed"],
                   "a 2-byte crypto profile rate")
    expect_refusal(mk, crypto_req() + u32(418, 1), ["malformed"], "crypto stacks without a profile")
    expect_accept(mk, crypto_req() + u32(417, 4999) + u32(418, 1),
                  "a crypto profile at the cap (4999 Hz) with its stacks")


if __name__ == "__main__":
    case, args = sys.argv[1], sys.argv[2:]
    if case == "impostor":
        case_impostor(*args)
        sys.exit(0)
    if case in ("escape_proxy", "old_rate_proxy", "old_mix_proxy", "other_kernel_proxy"):
        globals()["case_" + case](*args)
        sys.exit(0)
    host, port, pskfile = args[0], int(args[1]), args[2]
    psk = open(pskfile, "rb").read().rstrip(b"\r\n") if pskfile != "-" else None
    try:
        globals()["case_" + case](host, port, psk, *args[3:])
    except Exception as e:
        report(False, "%s: %s: %s" % (case, type(e).__name__, e))
