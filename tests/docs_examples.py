#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Checks every netbench command shown in README.md and docs/*.md against the tool itself: the
subcommand (and verb) exists, every option it uses is one that command's --help lists, and every
namespace it runs in or receives in (`ip netns exec NS`, `--local-rx NS/ADDR`) is one `netbench
lab up` makes (nbgen, nbdut, nbsink, or P-gen, P-dut, P-sink). A command is a line of a fenced
block after a prompt (`$ `, `pc$ `, `board$ `), or, in a block without prompts, a line that starts
with netbench (after `ip netns exec NS`, `sudo` or `taskset -c LIST`) and an option, verb or
nothing after the subcommand (`netbench tput to ...` is output). Continuation lines (`\\`) are
joined. An example that must not be checked is marked on the line before its fence:
`<!-- docs-check: skip REASON -->`; each is listed by file and line with its reason, and
counted. With --run (root) each command is also run, its values with it, as user nobody in a
network namespace of its own (loopback and a veth pair with the default route, so that
what is sent goes nowhere), from an empty folder of its own, for at most 2 s: exit
status 2 (a usage error: an option or value the command refuses) fails the example; anything
else (a failure for want of the agent, the lab or root, or still running at 2 s) means it took
its command line. Placeholders ($ARCH, $BOARD, $KERNEL) are given example values.
Usage: docs_examples.py [--run] NETBENCH FILE... ; prints TAP."""
import os, re, shlex, subprocess, sys, tempfile

run = len(sys.argv) > 1 and sys.argv[1] == "--run"
args = sys.argv[2:] if run else sys.argv[1:]
nb, files = os.path.abspath(args[0]), args[1:]
PLACEHOLDERS = {"$ARCH": "armhf", "$BOARD": "board1", "$KERNEL": "6.1"}
scratch = tempfile.mkdtemp(prefix="nbdocs.") if run else None
if scratch:
    os.chmod(scratch, 0o777)


def run_example(argv):
    """The command's status run as nobody in an empty network namespace (see the header)."""
    argv = [a for a in argv]
    for k, v in PLACEHOLDERS.items():
        argv = [a.replace(k, v) for a in argv]
    # A folder of its own: no example sees another's files (a store one saved, in time or
    # not, would change what the next one is told).
    home = tempfile.mkdtemp(dir=scratch)
    os.chmod(home, 0o777)
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home, "TERM": "dumb",
           "NB_LAB_PREFIX": "nbdocs%d" % os.getpid()}
    # The namespace has loopback and a veth pair (d0 192.0.2.1/24, multicast, the default
    # route; its peer in the same namespace): an address or group has a route, and what is
    # sent goes nowhere. A namespace that cannot be made is status 97, never a verdict.
    net = ("{ ip link set lo up && ip link add d0 type veth peer name d1 && "
           "ip link set d1 up && ip link set d0 multicast on up && "
           "ip addr add 192.0.2.1/24 dev d0 && ip route add default dev d0; } >&2 || exit 97; "
           "exec \"$@\"")
    cmd = ["unshare", "-n", "sh", "-c", net, "sh", "setpriv", "--reuid=65534", "--regid=65534",
           "--clear-groups", "timeout", "-s", "KILL", "2", nb] + argv
    p = subprocess.run(cmd, cwd=home, env=env, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    return p.returncode, (p.stderr.strip().split("\n") or [""])[0]
VERBS = {"lab": {"up", "down", "status", "ruleset", "fit"},
         "results": {"import", "list", "show", "export", "rm", "merge"}}
NS_RE = re.compile(r"^(nbgen|nbdut|nbsink|[A-Za-z][A-Za-z0-9_-]{0,15}-(gen|dut|sink))$")
PROMPT = re.compile(r"^\s*(?:\$|pc\$|board\$|#\s*\$)\s+")
helps = {}


def help_of(sub, verb):
    key = (sub, verb)
    if key not in helps:
        p = subprocess.run([nb, sub, "--help"], capture_output=True, text=True)
        helps[key] = p.stdout + p.stderr if p.returncode == 0 else None
    return helps[key]


def subcommands():
    out = subprocess.run([nb, "--help"], capture_output=True, text=True).stdout
    return set(re.findall(r"^  ([a-z]+)\s{2,}", out, re.M))


SUBS = subcommands()


def blocks(path):
    """(line number of the fence, skip reason or None, [(line number, text)])"""
    lines = open(path, encoding="utf-8").read().split("\n")
    i, out = 0, []
    while i < len(lines):
        if lines[i].startswith("```"):
            skip = None
            m = re.match(r"^<!-- docs-check: skip (.+?) -->$", lines[i - 1].strip()) if i else None
            if m:
                skip = m.group(1)
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append((i + 1, lines[i]))
                i += 1
            out.append((start, skip, body))
        i += 1
    return out


def commands(body):
    joined, cur, curno = [], "", 0
    for no, line in body:
        if cur:
            cur += " " + line.strip()
        else:
            cur, curno = line, no
        if cur.rstrip().endswith("\\"):
            cur = cur.rstrip()[:-1]
            continue
        joined.append((curno, cur))
        cur = ""
    if cur:
        joined.append((curno, cur))
    prompted = any(PROMPT.match(l) for _, l in joined)
    for no, line in joined:
        if prompted:
            m = PROMPT.match(line)
            if not m:
                continue
            line = line[m.end():]
        line = re.sub(r"\s#\s.*$", "", line)  # a comment after the command
        try:
            toks = shlex.split(line, comments=False)
        except ValueError:
            continue
        yield no, toks, prompted


def check(no, toks, prompted, path, problems):
    """Returns True when toks is a netbench command (checked), False when it is not one."""
    ns = []
    t = list(toks)
    while t:
        if t[:3] == ["ip", "netns", "exec"] and len(t) > 3:
            ns.append(t[3])
            t = t[4:]
        elif t[0] == "sudo":
            t = t[1:]
        elif t[0] == "taskset" and len(t) > 2:
            t = t[3:]
        elif re.match(r"^[A-Z_]+=", t[0]):
            t = t[1:]
        else:
            break
    if len(t) < 2 or not re.search(r"(^|/)netbench$", t[0]):
        return False
    sub = t[1]
    rest = t[2:]
    if sub not in SUBS:
        if prompted or (rest and rest[0].startswith("-")):
            problems.append("unknown subcommand '%s'" % sub)
            return True
        return False
    if rest and not prompted and not rest[0].startswith("-") and rest[0] not in VERBS.get(sub, ()) \
            and rest[0] not in (">", "|", "&&", "2>&1"):
        return False  # output: "netbench tput to 198.19.0.1 ..."
    verb = rest[0] if rest and rest[0] in VERBS.get(sub, ()) else None
    argv = [sub]
    text = help_of(sub, verb)
    if text is None:
        problems.append("`netbench %s --help` fails" % sub)
        return True
    for i, tok in enumerate(rest):
        if tok in (">", "|", "&&", ";", "2>&1") or tok.startswith(">"):
            break
        if tok == "--":
            break
        argv.append(tok)
        if tok.startswith("-") and len(tok) > 1 and not re.match(r"^-[0-9.]", tok):
            opt = tok.split("=", 1)[0]
            if not opt.startswith("--") and len(opt) > 2:
                opt = opt[:2]  # -t1, -J after a short option's glued value
            if not re.search(r"(^|[\s,\[|(])" + re.escape(opt) + r"($|[\s,=\]|)\[])", text, re.M):
                problems.append("option %s is not in `netbench %s --help`" % (opt, sub))
        if tok in ("--local-rx",) and i + 1 < len(rest) and "/" in rest[i + 1]:
            ns.append(rest[i + 1].split("/", 1)[0])
        if tok.startswith("--local-rx=") and "/" in tok:
            ns.append(tok.split("=", 1)[1].split("/", 1)[0])
    for n in ns:
        if "$" not in n and not NS_RE.match(n):
            problems.append("namespace '%s' is not one `netbench lab up` makes (nbgen, nbdut, "
                            "nbsink, or P-gen, P-dut, P-sink)" % n)
    if run and not problems:
        rc, why = run_example(argv)
        if rc == 97:
            problems.append("the sandbox's network namespace could not be made: %s" % why)
        elif rc == 2:
            problems.append("refused as a usage error (exit 2): %s" % why)
    return True


n = bad = checked = 0
skipped = []
for path in files:
    for start, skip, body in blocks(path):
        cmds = list(commands(body))
        if skip:
            if any(check(no, toks, pr, path, []) for no, toks, pr in cmds):
                skipped.append("%s:%d (%s)" % (path, start, skip))
            continue
        for no, toks, pr in cmds:
            problems = []
            if not check(no, toks, pr, path, problems):
                continue
            checked += 1
            n += 1
            cmd = " ".join(toks)
            if len(cmd) > 90:
                cmd = cmd[:87] + "..."
            if problems:
                bad += 1
                print("not ok %d - %s:%d: %s: %s" % (n, path, no, cmd, "; ".join(problems)))
            else:
                print("ok %d - %s:%d: %s" % (n, path, no, cmd))
for s in skipped:
    n += 1
    print("ok %d # SKIP %s" % (n, s))
    print("# skipped by name: %s" % s)
print("# %d commands checked%s, %d wrong, %d examples skipped by name" %
      (checked, " and run" if run else "", bad, len(skipped)))
if scratch:
    subprocess.run(["rm", "-rf", scratch])
print("1..%d" % n)
sys.exit(1 if bad else 0)
