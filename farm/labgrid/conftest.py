# SPDX-License-Identifier: BSD-2-Clause
"""Fixtures of the board-farm tests: the board's shell (labgrid boots it), the controller-side
netbench, the store every result goes to, and the label naming the board and its kernel."""
import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def shell(target, strategy):
    strategy.transition("shell")
    return target.get_driver("ShellDriver")


@pytest.fixture(scope="session")
def board(target, shell):
    """What the board says of itself, and how the controller reaches it."""
    opts = target.env.config.get_target_option
    out = shell.run_check("uname -r; uname -m; netbench --version | head -1")
    return {
        "addr": opts(target.name, "board_addr"),
        "name": opts(target.name, "board_name"),
        "kernel": out[0].strip(),
        "arch": out[1].strip(),
        "version": out[2].strip(),
    }


@pytest.fixture(scope="session")
def netbench():
    return os.environ.get("NETBENCH", "build/netbench")


@pytest.fixture(scope="session")
def store(tmp_path_factory):
    return os.environ.get("NB_FARM_DB") or str(tmp_path_factory.mktemp("farm") / "farm.db")


@pytest.fixture(scope="session")
def label(board):
    return f"{board['name']}-{board['kernel']}"


@pytest.fixture(scope="session")
def agent(shell, board):
    """netbench serve on the board, started through its console."""
    shell.run_check("netbench serve -D -p 5301 --max-time 120 --log /tmp/agent.log")
    shell.run_check("n=0; while ! grep -q listening /tmp/agent.log && [ $n -lt 50 ]; do "
                    "sleep 0.1; n=$((n+1)); done; grep -q listening /tmp/agent.log")
    return board


def stored(netbench, store, label, test):
    """The stored results of one test under the board's label, as `results list -J` has them."""
    out = subprocess.run([netbench, "results", "list", "--db", store, "--label", label,
                          "--test", test, "-J"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["results"]
