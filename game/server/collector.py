"""Short full garbage collections for a server holding many tables.

A full (oldest generation) pass of Python's cyclic collector walks every tracked object, and a
server with hundreds of tables and thousands of connections holds millions of them: one pass
held the loop for some 230 ms at 600 tables (``python -m bench serve``). ``ShortCollections``
freezes what survives a full pass (``gc.freeze``: the tables and connections in use), so the
next passes walk only what is newer; every ``thaw_every``-th pass first unfreezes everything,
so cyclic garbage among frozen objects (a closed connection's, an unloaded table's) is still
reclaimed, with one long pass now and then instead of every time.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

#: Every this many full passes, the frozen objects are collected too.
THAW_EVERY = 10


class ShortCollections:
    """Freeze the survivors of each full pass; thaw before every ``thaw_every``-th one."""

    def __init__(self, loop: asyncio.AbstractEventLoop, thaw_every: int = THAW_EVERY) -> None:
        self.loop = loop
        self.thaw_every = max(1, thaw_every)
        self.passes = 0

    def start(self) -> None:
        """Watch the collector's passes from now on."""
        gc.callbacks.append(self._pass)

    def close(self) -> None:
        """Stop watching and unfreeze everything (the collector works as usual again)."""
        if self._pass in gc.callbacks:
            gc.callbacks.remove(self._pass)
        gc.unfreeze()

    def _pass(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        self.passes += 1
        # Not from inside the collector's callback: once the pass is over, on the loop.
        self.loop.call_soon(self._after_pass)

    def _after_pass(self) -> None:
        if self.passes % self.thaw_every == self.thaw_every - 1:
            gc.unfreeze()  # the next full pass walks everything, frozen garbage included
        else:
            gc.freeze()
