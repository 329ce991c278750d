"""Short full garbage collections for a server holding many tables.

A full (oldest generation) pass of Python's cyclic collector walks every tracked object, and a
server with hundreds of tables and thousands of connections holds millions of them: one pass
held the loop for some 230 ms at 600 tables (``python -m bench serve``). ``ShortCollections``
freezes what survives a full pass (``gc.freeze``: the tables and connections in use), so the
next passes walk only what is newer.

Frozen objects that later become cyclic garbage (a closed connection's, an unloaded table's)
are reclaimed only by a pass that walks everything, which at a thousand tables holds the loop
for a few hundred milliseconds. One is made when the frozen objects have grown by ``growth``
(a quarter, the share of growth Python's own collector waits for before a full pass) since
the last such pass, but not within ``interval_s`` (ten minutes) of it: everything is unfrozen,
and the next full pass walks it all. Most growth is live (tables being made, the moves of
each hand): walking it often would free nothing. So at most one long pause comes every ten
minutes, and the garbage held meanwhile is what ten minutes of closed connections leave (the
server's stop line says how much a last pass found).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

#: The frozen objects may grow by this share before a full pass walks them again.
GROWTH = 0.25
#: Seconds between two passes that walk everything, at the least.
INTERVAL_S = 600.0


class ShortCollections:
    """Freeze the survivors of each full pass; walk everything again once they grew."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        growth: float = GROWTH,
        interval_s: float = INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.loop = loop
        self.growth = max(0.0, growth)
        self.interval_s = max(0.0, interval_s)
        self.clock = clock
        #: When the last pass that walked everything ended.
        self.walked_at = -float("inf")
        self.passes = 0
        #: Full passes that walked everything (the first, and each after a thaw).
        self.whole_passes = 0
        #: How many objects were frozen after the last pass that walked everything.
        self.base = 0
        self._whole = True  # nothing is frozen yet: the next full pass walks everything

    def start(self) -> None:
        """Watch the collector's passes from now on."""
        gc.callbacks.append(self._pass)

    def close(self) -> None:
        """Stop watching and unfreeze everything (the collector works as usual again)."""
        if self._pass in gc.callbacks:
            gc.callbacks.remove(self._pass)
        gc.unfreeze()

    def sweep(self) -> tuple[int, float]:
        """Unfreeze and walk everything once (at the stop): return how many unreachable
        objects were found (the garbage held since the last whole pass) and the ms it took."""
        self.close()
        started = time.perf_counter()
        found = gc.collect()
        return found, (time.perf_counter() - started) * 1000

    def _pass(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        self.passes += 1
        # Not from inside the collector's callback: once the pass is over, on the loop.
        self.loop.call_soon(self._after_pass)

    def _after_pass(self) -> None:
        if self._whole:  # this pass walked everything: freeze it all and measure from here
            self.whole_passes += 1
            self._whole = False
            self.walked_at = self.clock()
            gc.freeze()
            self.base = gc.get_freeze_count()
            return
        gc.freeze()
        grown = gc.get_freeze_count() > self.base * (1 + self.growth)
        if grown and self.clock() - self.walked_at >= self.interval_s:
            gc.unfreeze()  # the next full pass walks everything, frozen garbage included
            self._whole = True
