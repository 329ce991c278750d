"""A real ``mdhearts serve`` in a subprocess on a free loopback port, and real WebSocket players.

``ServerProcess`` starts the server (``python -m game serve --port 0``), reads the port from its
"listening on" log line, and stops it with SIGTERM or SIGKILL. ``Player`` is an asyncio client
that keeps every frame it receives (the fairness scan reads them all), checks that event
numbers follow each other, and can play legal moves by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ai.lifetime import ends_with_parent

ROOT = Path(__file__).resolve().parent.parent
_LISTENING = re.compile(r"listening on wss?://[^:]+:(\d+)")


def free_port() -> int:
    """Return a loopback port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``mdhearts serve`` on 127.0.0.1 with its own database; its log lines are kept."""

    def __init__(self, db: Path, *options: str, port: int = 0) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game", "serve", "--port", str(port), "--db", str(db), *options],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            **ends_with_parent(),
        )
        self.lines: list[str] = []
        self._ready = threading.Event()
        self.port = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._ready.wait(30):
            self.kill()
            raise RuntimeError("the server did not start: " + "".join(self.lines))

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            found = _LISTENING.search(line)
            if found:
                self.port = int(found.group(1))
                self._ready.set()

    @property
    def url(self) -> str:
        """Return the server's address."""
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log(self) -> str:
        """Return what the server logged so far (the lines this side has read)."""
        return "".join(self.lines)

    def log_count(self, text: str, count: int = 1, timeout: float = 10) -> int:
        """Return how often ``text`` is in the log, waiting up to ``timeout`` seconds for it to
        be there ``count`` times: a line the server wrote a moment ago may not be read yet."""
        deadline = time.monotonic() + timeout
        while self.log.count(text) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.log.count(text)

    def _finish_log(self) -> None:
        """The server has ended: read its last lines before anyone looks at the log."""
        self._reader.join(10)

    def children(self) -> list[int]:
        """Return the ids of the processes the server started (from /proc)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.proc.pid:
                        found.append(int(entry.name))
        return found

    def stop(self) -> int:
        """Stop the server with SIGTERM and return its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        self._finish_log()
        return status

    def kill(self) -> None:
        """Kill the server at once (SIGKILL)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self._finish_log()


class Player:
    """A WebSocket client of the server; ``frames`` holds every frame it received, in order."""

    def __init__(self, url: str, name: str = "") -> None:
        self.url = url
        self.name = name
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seq = 0
        self.gaps = 0
        self.code = ""
        self.token = ""
        self.seat: int | None = None
        self.close_code: int | None = None
        #: The acknowledgements of this player's moves.
        self.acked: list[dict[str, Any]] = []
        #: How many frames had arrived when the last answer came.
        self.answered_at = 0
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, hello: bool = True) -> Player:
        """Open the connection (and say hello)."""
        self.ws = await connect(self.url, max_size=2**22, open_timeout=10)
        self._reader = asyncio.create_task(self._read())
        if hello:
            welcome = await self.request("hello", versions=[1], client="tests")
            assert welcome["type"] == "welcome", welcome
        return self

    async def close(self) -> None:
        """Close the connection."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for message in self.ws:
                data = json.loads(message)
                self.frames.append(data)
                if data["type"] == "snapshot":
                    self.seq, self.state = data["seq"], data["state"]
                elif data["type"] == "event":
                    if data["seq"] != self.seq + 1:
                        self.gaps += 1
                    self.seq = data["seq"]
                future = self._waiting.pop(str(data.get("id")), None)
                if future is not None and not future.done():
                    self.answered_at = len(self.frames)
                    future.set_result(data)
                self._changed.set()
        except Exception:  # the connection ended
            pass
        finally:
            if self.ws is not None:
                self.close_code = self.ws.close_code
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("closed"))
            self._changed.set()

    async def send_raw(self, text: str | bytes) -> None:
        """Send a frame as it is."""
        assert self.ws is not None
        await self.ws.send(text)

    async def request(self, kind: str, timeout: float = 20, **fields: Any) -> dict[str, Any]:
        """Send a command with a new id and return the frame that answers it."""
        command_id = f"{self.name}-{next(self._ids)}"
        return await self.request_with_id(command_id, kind, timeout, **fields)

    async def request_with_id(
        self, command_id: str, kind: str, timeout: float = 20, **fields: Any
    ) -> dict[str, Any]:
        """Send a command with this id and return the frame that answers it."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[command_id] = future
        await self.send_raw(json.dumps({"v": 1, "type": kind, "id": command_id, **fields}))
        return await asyncio.wait_for(future, timeout)

    async def join(self, code: str, name: str) -> dict[str, Any]:
        """Take a seat at the table; keep its token."""
        answer = await self.request("join", code=code, name=name)
        assert answer["type"] == "joined", answer
        self.code, self.token, self.seat = code, answer["token"], answer["seat"]
        return answer

    async def rejoin(self) -> dict[str, Any]:
        """Take the seat back with its token."""
        return await self.request("rejoin", code=self.code, token=self.token)

    async def wait_frames(self, count: int, timeout: float = 20) -> None:
        """Wait until more than ``count`` frames have arrived (or the connection ended)."""
        end = time.monotonic() + timeout
        while len(self.frames) <= count and self.close_code is None:
            self._changed.clear()
            if len(self.frames) > count:
                return
            await asyncio.wait_for(self._changed.wait(), max(0.0, end - time.monotonic()))

    async def snapshot(self) -> dict[str, Any]:
        """Ask for a snapshot and return its state."""
        answer = await self.request("snapshot")
        assert answer["type"] == "snapshot", answer
        return dict(answer["state"])

    async def play_once(self) -> bool:
        """Make this seat's move if it is its turn (first three cards, first legal card).

        Return whether a move was acknowledged.
        """
        state = await self.snapshot()
        if not state.get("your_turn"):
            return False
        command_id = f"{self.name}-{next(self._ids)}"
        if state["phase"] == "pass":
            move: dict[str, Any] = {"cards": state["hand"][:3]}
            answer = await self.request_with_id(command_id, "pass", **move)
        else:
            move = {"card": state["legal"][0]}
            answer = await self.request_with_id(command_id, "play", **move)
        answer = {**answer, "move": move, "hand_number": state["hand_number"]}
        assert answer["type"] in ("ack", "error"), answer
        if answer["type"] == "ack":
            self.acked.append(answer)
        return answer["type"] == "ack"

    async def play_until(self, done: Any, deadline: float) -> None:
        """Play this seat's moves until ``done(state)`` holds for the latest snapshot."""
        while time.monotonic() < deadline:
            state = await self.snapshot()
            seen = self.answered_at
            if done(state):
                return
            if state.get("your_turn"):
                await self.play_once()
                continue
            with contextlib.suppress(asyncio.TimeoutError):
                await self.wait_frames(seen, 5)
        raise TimeoutError(f"{self.name}: not done in time")


def match_over(state: dict[str, Any]) -> bool:
    """Return whether a snapshot's match is over."""
    return state.get("phase") == "match_over"


async def seated_table(
    url: str,
    seats: list[str],
    rules: dict[str, Any] | None = None,
) -> tuple[Player, str, str, list[Player]]:
    """Create a table, seat a player in each open seat, start it.

    Return the host's connection, the code, the host token and the seated players.
    """
    host = await Player(url, "host").connect()
    created = await host.request("create", seats=seats, rules=rules or {})
    assert created["type"] == "created", created
    code, host_token = created["code"], created["host_token"]
    players = []
    for number, kind in enumerate(seats):
        if kind == "open":
            player = await Player(url, f"p{number}").connect()
            await player.join(code, f"player {number}")
            players.append(player)
    started = await host.request("start", code=code, host_token=host_token)
    assert started["type"] == "ack", started
    return host, code, host_token, players
