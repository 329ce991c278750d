"""One client connection: its bounded send buffer, its rate limit, and what it is bound to.

Frames go out with ``websockets``' ``broadcast`` (written at once, never awaited), so one slow
client never holds up the loop. A client that does not read lets its write buffer grow; past
``SEND_BUFFER_LIMIT`` bytes it is dropped (close code 1013) instead of being buffered forever:
it reconnects and gets a snapshot. Every other client is unaffected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast

log = logging.getLogger("mdhearts.serve")

#: Bytes waiting to go to one client before it counts as too slow.
SEND_BUFFER_LIMIT = 1024 * 1024
#: Close codes (RFC 6455 and the private range) and their reasons.
CLOSE_TOO_SLOW = (1013, "too slow to read: reconnect for a snapshot")
CLOSE_FLOOD = (1008, "too many frames: slow down")
CLOSE_REPLACED = (4001, "the seat was taken by a newer connection with its token")
CLOSE_REFUSED = (4002, "no protocol version in common")
CLOSE_SHUTDOWN = (1001, "the server is stopping")


def encode(data: dict[str, Any]) -> str:
    """Return a frame as the JSON text sent (compact)."""
    return json.dumps(data, separators=(",", ":"))


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
        self._closer: asyncio.Task[None] | None = None

    @property
    def peer(self) -> str:
        """Return the client's address for the log."""
        address = self.ws.remote_address
        return f"{address[0]}:{address[1]}" if address else "?"

    def send(self, data: dict[str, Any]) -> None:
        """Send a frame now; a client that lets too much pile up is dropped."""
        self.send_text(encode(data))

    def send_text(self, text: str) -> None:
        """Send a frame already encoded."""
        if self.closing:
            return
        transport = self.ws.transport
        if transport is not None and transport.get_write_buffer_size() > SEND_BUFFER_LIMIT:
            log.info("dropped a connection too slow to read (%s)", self.peer)
            self.close(*CLOSE_TOO_SLOW, flush=False)
            return
        broadcast([self.ws], text)

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        """Close the connection with a code and reason: after the frames already sent, or
        (``flush`` False, a client that does not read) at once."""
        if self.closing:
            return
        self.closing = True
        if not flush and self.ws.transport is not None:
            self.ws.transport.abort()
            return
        self._closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    def stop(self) -> None:
        """The connection is gone: send nothing more."""
        self.closing = True
