# SPDX-License-Identifier: BSD-2-Clause
"""netbench on a board driven by labgrid: the agent starts on the board's console, the
controller runs tput, stream receive and a rate trial against it, and every result is stored
with --save under a label naming the board and its kernel, carrying the board's platform.
These tests assert that each run completed and was stored as the board's; they judge no
performance number."""
import json
import subprocess

from conftest import stored


def run(netbench, *args):
    p = subprocess.run([netbench, *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"netbench {' '.join(args)}: exit {p.returncode}\n{p.stderr}"
    return p


def check_platform(netbench, store, results, board, test):
    assert len(results) == 1, f"{test}: {len(results)} stored results"
    r = results[0]
    # The measured end is the board: its kernel and architecture, not the controller's.
    assert r["kernel"] == board["kernel"], (r["kernel"], board["kernel"])
    assert r["arch"] == board["arch"], (r["arch"], board["arch"])
    # And the document says it is an emulated board, never silicon.
    doc = json.loads(run(netbench, "results", "show", "--db", store, "-J", str(r["id"])).stdout)
    remote = doc["env"]["remote"] if "remote" in doc["env"] else doc["env"]["receivers"][0]
    assert remote.get("virtualization") == "vm tcg", remote.get("virtualization")


def test_board_console(shell, board):
    # The board's own kernel: never the controller's architecture (armv7l on qemu-armhf, ppc on
    # qemu-ppc).
    assert board["arch"] == {"qemu-armhf": "armv7l", "qemu-ppc": "ppc"}.get(board["name"]), board
    assert board["version"].startswith("netbench"), board
    shell.run_check(f"ip addr show eth0 | grep -q 'inet {board['addr']}/'")


def test_tput(netbench, agent, store, label):
    # Paced: qemu's eTSEC (the ppc board's NIC) stops receiving for good once an unpaced TCP
    # burst overflows its receive ring (docs/lab.md); these tests judge completion, not speed.
    run(netbench, "tput", "-c", agent["addr"], "-t", "1", "-O", "0.3", "-l", "1k,32k",
        "-r", "20M", f"--save={store}", "--label", label)
    check_platform(netbench, store, stored(netbench, store, label, "tput"), agent, "tput")


def test_stream_receive(netbench, agent, store, label):
    # The board receives a multicast stream from this host (seed 002's measurement).
    run(netbench, "stream", "-c", agent["addr"], "-a", "239.77.0.1", "-b", "8192",
        "--rates", "4M,8M", "-t", "1", f"--save={store}", "--label", label)
    check_platform(netbench, store, stored(netbench, store, label, "stream"), agent, "stream")


def test_rate_trial(netbench, agent, store, label):
    run(netbench, "rate", "-c", agent["addr"], "-m", "trial", "-r", "1000", "-t", "1", "-s", "128",
        f"--save={store}", "--label", label)
    check_platform(netbench, store, stored(netbench, store, label, "rate"), agent, "rate")
