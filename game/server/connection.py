"""One client connection: its send queue (bounded), its rate limit, and what it is bound to.

Frames to a client go through a queue of ``SEND_QUEUE`` frames, written by a task of its own:
a client that does not read fills it and is dropped (close code 1013) instead of being
buffered forever; it reconnects and gets a snapshot. Every other client is unaffected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

#: Frames waiting for one client before it counts as too slow.
SEND_QUEUE = 256
#: Close codes (RFC 6455 and the private range) and their reasons.
CLOSE_TOO_SLOW = (1013, "too slow to read: reconnect for a snapshot")
CLOSE_FLOOD = (1008, "too many frames: slow down")
CLOSE_REPLACED = (4001, "the seat was taken by a newer connection with its token")
CLOSE_REFUSED = (4002, "no protocol version in common")
CLOSE_SHUTDOWN = (1001, "the server is stopping")
#: How long the frames queued before a close may take to go out.
FLUSH_WAIT_S = 2.0


class RateLimit:
    """A token bucket: ``rate`` frames a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = time.monotonic()

    def allow(self) -> bool:
        """Take one frame's token; return False when none is left (a flood)."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Conn:
    """A client connection: ``table_id`` and ``seat`` say where it sits (seat None: watching)."""

    def __init__(self, ws: ServerConnection, rate: float, burst: float) -> None:
        self.ws = ws
        self.limit = RateLimit(rate, burst)
        self.greeted = False
        self.table_id: int | None = None
        self.seat: int | None = None
        self.closing = False
        self._queue: asyncio.Queue[str] = asyncio.Queue(SEND_QUEUE)
        self._writer = asyncio.create_task(self._write())

    @property
    def peer(self) -> str:
        """Return the client's address for the log."""
        address = self.ws.remote_address
        return f"{address[0]}:{address[1]}" if address else "?"

    def send(self, data: dict[str, Any]) -> None:
        """Queue a frame; a client whose queue is full is dropped (it resyncs on rejoin)."""
        self.send_text(json.dumps(data, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a frame already encoded."""
        if self.closing:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(*CLOSE_TOO_SLOW, flush=False)

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """Close the connection with a code and reason; with ``flush``, after the frames
        already queued (given a moment), else at once."""
        if self.closing:
            return
        self.closing = True
        if flush and not self._queue.full():
            self._queue.put_nowait("")
        else:
            self._writer.cancel()
        self._closer = asyncio.create_task(self._close_later(code, reason))

    async def _close_later(self, code: int, reason: str) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self._writer, FLUSH_WAIT_S)
        await self.ws.close(code, reason)

    async def _write(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await self._queue.get()
                if not text:  # the end, once the frames before it are sent
                    return
                await self.ws.send(text)

    def stop(self) -> None:
        """Stop writing (the connection is gone)."""
        self.closing = True
        self._writer.cancel()
