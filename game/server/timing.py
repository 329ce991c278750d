"""How long the server's loop takes: each frame's handling, and how late the loop runs.

Kept for the log line at the end of a run (``python -m bench serve`` reads it), so the
latency a client measures can be told apart from the server's own work: ``handling`` is the
time from a frame read to its answers and events written, ``lag`` how late a timer that should
fire every 50 ms fires (the time frames wait for the loop), and ``collections`` how long the
garbage collector's full (oldest generation) passes held the loop.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from typing import Any

#: Most samples kept of each (the newest).
MAX_SAMPLES = 200_000
#: How often the lag is sampled.
LAG_EVERY_S = 0.05


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank), 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class LoopTiming:
    """Samples of frame handling times and of the loop's lateness, in ms."""

    def __init__(self) -> None:
        self.handling: deque[float] = deque(maxlen=MAX_SAMPLES)
        self.lag: deque[float] = deque(maxlen=MAX_SAMPLES)
        self.collections: deque[float] = deque(maxlen=MAX_SAMPLES)
        self._collecting = 0.0

    def watch_collections(self) -> None:
        """Time the garbage collector's full passes from now on (until ``close``)."""
        gc.callbacks.append(self._collection)

    def close(self) -> None:
        """Stop timing the garbage collector."""
        if self._collection in gc.callbacks:
            gc.callbacks.remove(self._collection)

    def _collection(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._collecting = time.perf_counter()
        else:
            self.collections.append((time.perf_counter() - self._collecting) * 1000)

    def handled(self, started: float) -> None:
        """Record a frame whose handling began at ``started`` (``time.perf_counter``)."""
        self.handling.append((time.perf_counter() - started) * 1000)

    async def watch_lag(self) -> None:
        """Sample how late the loop wakes a timer, until cancelled."""
        while True:
            due = time.perf_counter() + LAG_EVERY_S
            await asyncio.sleep(LAG_EVERY_S)
            self.lag.append(max(0.0, (time.perf_counter() - due) * 1000))

    def summary(self) -> str:
        """Return the log line's text: p50 and p99 of each."""
        handling, lag = list(self.handling), list(self.lag)
        full = list(self.collections)
        return (
            f"frame handling p50 {percentile(handling, 0.5):.2f} ms, "
            f"p99 {percentile(handling, 0.99):.2f} ms over {len(handling)} frames; "
            f"loop lag p50 {percentile(lag, 0.5):.2f} ms, p99 {percentile(lag, 0.99):.2f} ms; "
            f"{len(full)} full collections, {sum(full):.0f} ms in all, "
            f"the longest {max(full, default=0.0):.0f} ms"
        )
