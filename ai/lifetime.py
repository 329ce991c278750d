"""What must end when the program does: the one at-exit registry of the processes ``ai`` starts.

Bot workers, review workers and engine programs each register the object that owns their
process; at exit every one still alive is closed (each ``close`` ends its process). A program
started with ``subprocess`` that must not outlive a killed parent (a server a benchmark or a
test starts) takes ``ends_with_parent()``'s options.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import sys
import weakref
from collections.abc import Callable
from typing import Any, Protocol

#: Linux's ``prctl`` option that signals a process when its parent ends.
_PR_SET_PDEATHSIG = 1


class Closable(Protocol):
    """An owner of a process: ``close`` ends it (and may be called more than once)."""

    def close(self) -> object:
        """End the process this object owns."""
        ...


#: Every owner whose process must end when the program does, held weakly.
_owners: weakref.WeakSet[Closable] = weakref.WeakSet()


def close_at_exit(owner: Closable) -> None:
    """Have ``owner.close()`` called when the program exits (the owner is held weakly)."""
    _owners.add(owner)


@atexit.register
def _close_owners() -> None:
    for owner in list(_owners):
        owner.close()


def ends_with_parent() -> dict[str, Any]:
    """Return ``subprocess.Popen`` options that end the child (SIGTERM) when this process
    ends, however it ends, even by SIGKILL (Linux; elsewhere no options).

    The kernel sends the signal when the *thread* that started the child ends: start it from
    a thread that lives as long as the child should (the main thread, say).
    """
    if not sys.platform.startswith("linux"):
        return {}
    return {"preexec_fn": _parent_death_signal(os.getpid())}


def _parent_death_signal(parent: int) -> Callable[[], None]:
    def arm() -> None:  # runs in the child, between fork and exec
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent ended before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)

    return arm
