"""Processes this program starts end with it: bot workers, engine programs and their children.

Also: a tournament starts no more processes than it has jobs, and it reports the moves an
engine's fallback made for it.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINUX = sys.platform.startswith("linux")
#: Generous: the machine running the tests may be busy.
DEADLINE_S = 20.0

# A program that starts a bot worker as the table does, lets it answer once, prints the
# worker's process id and waits to be killed.
WORKER_PARENT = """
import time

from ai.worker import BotWorker
from core.controller import Controller

if __name__ == "__main__":
    worker = BotWorker()
    controller = Controller()
    controller.new_match(seed=3, rules={"pass_cycle": ["hold"]})
    decision = worker.decide(controller.observation(controller.seats_to_act[0]), "first")
    print(worker.pid, decision.fallback, flush=True)
    time.sleep(600)
"""


def is_gone(pid: int) -> bool:
    """Return whether no process has this id any more, or only its zombie is left."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            state = stat.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_until(condition: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    """Poll ``condition`` until it holds or the deadline passes; return whether it held."""
    give_up = time.monotonic() + deadline_s
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def children_of(pid: int) -> list[int]:
    """Return the ids of a process's children (Linux)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            found += [int(word) for word in (task / "children").read_text().split()]
    return found


def command_line(pid: int) -> str:
    """Return a process's command line as text ('' when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def read_line(process: subprocess.Popen[str], deadline_s: float = DEADLINE_S) -> str:
    """Return the next line the process prints, failing the test if none comes in time."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], deadline_s)
    assert ready, "the program printed nothing in time"
    return process.stdout.readline()


def kill_leftovers(pids: list[int]) -> None:
    """Kill the processes a failed test left behind (they are this test's own)."""
    for pid in pids:
        if not is_gone(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Process ids appended here are killed after the test if they still run."""
    pids: list[int] = []
    yield pids
    kill_leftovers(pids)


# -- 1. the bot worker ends with the program ------------------------------------------------


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_bot_worker_and_resource_tracker_end_when_the_program_is_killed(
    tmp_path: Path, leftovers: list[int]
) -> None:
    script = tmp_path / "parent.py"
    script.write_text(WORKER_PARENT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, str(script)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    leftovers.append(parent.pid)
    try:
        words = read_line(parent).split()
        worker = int(words[0])
        assert words[1:] == ["None"], "the worker should have answered itself"
        children = children_of(parent.pid)
        leftovers.extend(children)
        assert worker in children
        helpers = {pid: command_line(pid) for pid in children}
        parent.send_signal(signal.SIGKILL)
        parent.wait(DEADLINE_S)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    assert wait_until(lambda: all(is_gone(pid) for pid in children)), (
        "still running after the program was killed: "
        + ", ".join(f"{pid} {helpers[pid]!r}" for pid in children if not is_gone(pid))
    )
