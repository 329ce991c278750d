"""Programs started with ``ai.lifetime.ends_with_parent`` end when their parent is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from ai.lifetime import ends_with_parent

# The parent starts a long sleeper with the options, prints its pid, then waits to be killed.
PARENT = """
import subprocess, sys, time
from ai.lifetime import ends_with_parent
sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
child = subprocess.Popen(sleeper, **ends_with_parent())
print(child.pid, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by init) counts as ended
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


LINUX_ONLY = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"
)


@LINUX_ONLY
def test_a_child_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    ended = not _alive(child)
    if not ended:
        os.kill(child, signal.SIGKILL)
    assert ended, "the child outlived its killed parent"


def test_elsewhere_no_options_are_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    assert ends_with_parent() == {}
