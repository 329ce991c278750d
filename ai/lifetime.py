"""What must end when the program does: the one at-exit registry of the processes ``ai`` starts.

Bot workers, review workers and engine programs each register the object that owns their
process; at exit every one still alive is closed (each ``close`` ends its process).
"""

from __future__ import annotations

import atexit
import weakref
from typing import Protocol


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
