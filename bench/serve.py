"""``python -m bench serve``: K tables of 4 scripted clients against a real ``mdhearts serve``.

The server runs in its own process on a free loopback port with a new database; the clients
run in this process (asyncio), each playing legal moves as the protocol tells it the game, from
the events alone (a seat's ``hand_started`` carries its cards, ``passes_exchanged`` the ones it
received). At
human pace each table makes one move a second; flat out, every move is made as soon as it may.
Measured: the server's CPU time (its process, from /proc) per hand played, command→broadcast
latency (a ``play`` sent until its ``card_played`` event comes back, p50 and p99), the server's
memory per table (resident memory grown while K tables were made and joined, over K), and, at
human pace, the largest K of those tried whose p99 stays under 50 ms. The clients' own CPU share
is printed too. On a machine of two cores or more the server (and the bot worker it starts) is
pinned to one core and the clients to another (``os.sched_setaffinity``), so "one core holds K
tables" means what it says and the clients do not take the server's core; the output says
whether that was done. How long the server's loop was runnable but waiting for its core (other
work on the machine) is read from Linux's ``schedstat`` and printed as a share of the run.
``--profile FILE`` runs the server under ``cProfile`` (its statistics are written to FILE
when it stops).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ai.lifetime import ends_with_parent
from bench import machine_info
from core.cards import (
    TWO_OF_CLUBS,
    card_text,
    cards_of,
    has_card,
    mask_of,
    parse_card,
    suit_of,
)
from core.events import passes_known
from core.kernel import legal_mask
from core.rules import RuleSet

#: The target of the issue: p99 command→broadcast latency under this many ms.
TARGET_P99_MS = 50.0
ROOT = Path(__file__).resolve().parent.parent
_FLAGS = RuleSet().flags


def percentile(values: Sequence[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Server:
    """``mdhearts serve`` in a process of its own, on a free loopback port."""

    def __init__(self, folder: Path, core: int | None = None, profile: Path | None = None) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        options = ["--rate", "1000", "--burst", "1000", "--max-tables", "100000"]
        self.log = open(folder / "server.log", "w+")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                *(["-m", "cProfile", "-o", str(profile)] if profile else []),
                "-m",
                "game",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(folder / "bench.sqlite3"),
                *options,
            ],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            **ends_with_parent(),
        )
        if core is not None:
            os.sched_setaffinity(self.proc.pid, {core})
        deadline = time.monotonic() + 30
        while "listening on" not in Path(self.log.name).read_text():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    @property
    def url(self) -> str:
        """Return the server's address."""
        return f"ws://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        """Return the server process's CPU time so far (user + system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def run_queue_wait_s(self) -> float | None:
        """Return how long the server's main thread (its loop) has waited for a core so far:
        runnable but not running (Linux ``schedstat``), or None where it is not known."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/schedstat").read_text().split()
            return int(fields[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return None

    def rss_bytes(self) -> int:
        """Return the server process's resident memory."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


@dataclass
class Pace:
    """When a table may make its next move (one a second at human pace).

    With a ``spread`` each wait is drawn from ``gap_s`` × [1 − spread, 1 + spread] (a mean of
    ``gap_s``), as people take more or less time; with none the tables keep in step.
    """

    gap_s: float
    spread: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    next_at: float = 0.0

    async def wait(self) -> None:
        """Wait for the table's turn to move, then book the next one."""
        now = time.monotonic()
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        gap = self.gap_s
        if self.spread:
            gap *= self.rng.uniform(1 - self.spread, 1 + self.spread)
        self.next_at = max(now, self.next_at) + gap


@dataclass
class Stats:
    """What the clients measured."""

    latencies_ms: list[float] = field(default_factory=list)
    hands: int = 0
    moves: int = 0
    errors: int = 0


class Client:
    """One scripted seat: follows the table from its events and plays the lowest legal card."""

    def __init__(self, ws: ClientConnection, seat: int, pace: Pace, stats: Stats) -> None:
        self.ws, self.seat, self.pace, self.stats = ws, seat, pace, stats
        self.hand = 0
        self.trick: list[int] = []
        self.leader = 0
        self.tricks_done = 0
        self.broken = False
        self.to_act: int | None = None
        self.sent_at: float | None = None
        self.ids = 0
        self.stop = False

    async def send(self, kind: str, **fields: Any) -> None:
        """Send a command with a new id."""
        self.ids += 1
        await self.ws.send(json.dumps({"v": 1, "type": kind, "id": f"b{self.ids}", **fields}))

    def take_snapshot(self, state: dict[str, Any]) -> None:
        """Start again from a snapshot."""
        self.hand = mask_of(parse_card(text) for text in state["hand"] or [])
        trick = state.get("trick")
        self.trick = [parse_card(text) for text in trick["cards"]] if trick else []
        self.leader = trick["leader"] if trick else 0
        self.tricks_done = sum(1 for t in state.get("tricks", []) if "winner" in t)
        self.broken = bool(state.get("hearts_broken"))
        to_act = state.get("to_act") or []
        self.to_act = to_act[0] if state["phase"] == "play" and to_act else None

    async def run(self) -> None:
        """Play until the match is over or ``stop`` is set."""
        async for message in self.ws:
            data = json.loads(message)
            kind = data["type"]
            if kind == "snapshot":
                state = data["state"]
                self.take_snapshot(state)
                if state["phase"] == "pass" and state["your_turn"]:
                    await self.pace.wait()
                    await self.send("pass", cards=state["hand"][:3])
                    self.stats.moves += 1
            elif kind == "event":
                if await self.follow(data["event"]):
                    return
            elif kind == "error":
                self.stats.errors += 1
            if self.to_act == self.seat and self.sent_at is None and not self.stop:
                await self.play()

    async def follow(self, event: dict[str, Any]) -> bool:
        """Update from an event; return True when the match is over."""
        kind = event["type"]
        if kind == "hand_started":
            self.hand = mask_of(parse_card(text) for text in event["hand"])
            self.trick, self.tricks_done, self.broken = [], 0, False
            if event["direction"] == "hold":
                self.to_act = self.seat if has_card(self.hand, TWO_OF_CLUBS) else None
            else:
                await self.pace.wait()
                await self.send("pass", cards=[card_text(c) for c in cards_of(self.hand)[:3]])
                self.stats.moves += 1
        elif kind == "passes_exchanged":
            gave, sender = passes_known(self.seat, event["direction"])
            passes = event["passes"]
            self.hand &= ~mask_of(parse_card(text) for text in passes[gave])
            self.hand |= mask_of(parse_card(text) for text in passes[sender])
            self.to_act = self.seat if has_card(self.hand, TWO_OF_CLUBS) else None
        elif kind == "card_played":
            card = parse_card(event["card"])
            if event["seat"] == self.seat:
                self.hand &= ~(1 << card)
                if self.sent_at is not None:
                    self.stats.latencies_ms.append((time.perf_counter() - self.sent_at) * 1000)
                    self.sent_at = None
            if not self.trick:
                self.leader = event["seat"]
            self.trick.append(card)
            self.to_act = (event["seat"] + 1) % 4 if len(self.trick) < 4 else None
        elif kind == "hearts_broken":
            self.broken = True
        elif kind == "trick_won":
            self.trick, self.tricks_done = [], self.tricks_done + 1
            self.to_act = event["seat"] if self.tricks_done < 13 else None
        elif kind == "hand_scored" and self.seat == 0:
            self.stats.hands += 1
        return bool(kind == "match_over")

    async def play(self) -> None:
        """Play the lowest legal card."""
        led = suit_of(self.trick[0]) if self.trick else -1
        legal = legal_mask(self.hand, led, self.tricks_done == 0, self.broken, _FLAGS)
        if not legal:
            return
        await self.pace.wait()
        self.sent_at = time.perf_counter()
        await self.send("play", card=card_text(cards_of(legal)[0]))
        self.stats.moves += 1


async def _request(ws: ClientConnection, frame: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps({"v": 1, **frame}))
    while True:
        data: dict[str, Any] = json.loads(await ws.recv())
        if data.get("id") == frame.get("id"):
            return data


@dataclass
class BenchTable:
    """A table of the benchmark: its host's connection and its four clients."""

    host: ClientConnection
    code: str
    host_token: str
    clients: list[Client]


async def _table(url: str, pace: Pace, stats: Stats) -> BenchTable:
    """Make a table of four open seats and seat four clients (not started yet)."""
    host = await connect(url, max_size=2**22)
    await _request(host, {"type": "hello", "id": "h", "versions": [1]})
    made = await _request(host, {"type": "create", "id": "c", "seats": ["open"] * 4})
    clients = []
    for number in range(4):
        ws = await connect(url, max_size=2**22)
        await _request(ws, {"type": "hello", "id": "h", "versions": [1]})
        joined = await _request(
            ws, {"type": "join", "id": "j", "code": made["code"], "name": f"bench {number}"}
        )
        clients.append(Client(ws, joined["seat"], pace, stats))
    return BenchTable(host, made["code"], made["host_token"], clients)


async def run_tables(
    server: Server, tables: int, gap_s: float, seconds: float, spread: float = 0.0
) -> dict[str, Any]:
    """Play ``tables`` tables for ``seconds`` and return what was measured (``spread``: see
    ``Pace``)."""
    stats = Stats()
    rss_before = server.rss_bytes()
    seated: list[BenchTable] = []
    paces = [Pace(gap_s, spread, random.Random(number)) for number in range(tables)]
    for start in range(0, tables, 50):  # made 50 at a time
        seated += await asyncio.gather(
            *(_table(server.url, paces[n], stats) for n in range(start, min(tables, start + 50)))
        )
    await asyncio.sleep(0.5)
    rss_after = server.rss_bytes()
    tasks = [asyncio.create_task(c.run()) for table in seated for c in table.clients]
    for table in seated:
        start_frame = {
            "type": "start",
            "id": "s",
            "code": table.code,
            "host_token": table.host_token,
        }
        await _request(table.host, start_frame)
    # Tables at human pace do not move in step: their first moves are spread over a second.
    now = time.monotonic()
    for number, pace in enumerate(paces):
        pace.next_at = now + gap_s * number / tables
    # Only what happens in the measured window counts (tables started first play meanwhile).
    moves_before, hands_before, timed_before = stats.moves, stats.hands, len(stats.latencies_ms)
    cpu_before, own_before = server.cpu_seconds(), time.process_time()
    wait_before = server.run_queue_wait_s()
    started = time.monotonic()
    await asyncio.sleep(seconds)
    elapsed = time.monotonic() - started
    cpu = server.cpu_seconds() - cpu_before
    own = time.process_time() - own_before
    wait_after = server.run_queue_wait_s()
    waited = None if wait_before is None or wait_after is None else wait_after - wait_before
    hands, moves = stats.hands - hands_before, stats.moves - moves_before
    latencies = stats.latencies_ms[timed_before:]
    for table in seated:
        for client in table.clients:
            client.stop = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for table in seated:
        for ws in [table.host, *(c.ws for c in table.clients)]:
            await ws.close()
    return {
        "tables": tables,
        "pace": "human" if gap_s else "flat out",
        "spread": spread if gap_s else None,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "hands": hands,
        "errors": stats.errors,
        "p50_ms": round(percentile(latencies, 0.50), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "server_cpu_share": round(cpu / elapsed, 3),
        "clients_cpu_share": round(own / elapsed, 3),
        "server_waited_share": None if waited is None else round(waited / elapsed, 3),
        "cpu_ms_per_move": round(cpu * 1000 / moves, 2) if moves else None,
        "cpu_ms_per_hand": round(cpu * 1000 / hands, 1) if hands else None,
        "rss_kib_per_table": round((rss_after - rss_before) / 1024 / tables, 1),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this benchmark's options."""
    parser.add_argument(
        "--tables", default="10,50,100,200,400", help="K values to try at human pace, e.g. 10,100"
    )
    parser.add_argument("--flat-tables", type=int, default=10, help="K of the flat-out run")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds of play per run")
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        metavar="S",
        help="at human pace, draw each wait from 1 s x [1-S, 1+S] (0 to 0.9; default 0: "
        "the tables keep in step, every hand ends at about the same time)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line per run")
    parser.add_argument(
        "--profile",
        type=Path,
        help="run the server under cProfile and write its statistics here (human-pace runs)",
    )


def pin_cores() -> tuple[int | None, str]:
    """Pin this process (the clients) to one core and return the core for the server, with a
    line saying what was done."""
    if not hasattr(os, "sched_setaffinity"):
        return None, "cores: not pinned (no os.sched_setaffinity here)"
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None, f"cores: not pinned (only core {cores} is available)"
    os.sched_setaffinity(0, {cores[1]})
    return cores[0], f"cores: the server on core {cores[0]}, the clients on core {cores[1]}"


def run(args: argparse.Namespace) -> int:
    """Run the flat-out run, then the human-pace runs; print each and the largest good K."""
    if not 0.0 <= args.spread <= 0.9:
        print("--spread must be from 0 to 0.9", file=sys.stderr)
        return 2
    for key, value in machine_info().items():
        print(f"{key}: {value}")
    server_core, pinned = pin_cores()
    print(pinned)
    ks = [int(part) for part in str(args.tables).split(",") if part.strip()]
    runs = [(args.flat_tables, 0.0)] if args.flat_tables else []
    runs += [(k, 1.0) for k in ks]
    largest = None
    for tables, gap in runs:
        with tempfile.TemporaryDirectory(prefix="mdh-bench-serve-") as folder:
            profile = args.profile if args.profile and gap else None
            server = Server(Path(folder), server_core, profile)
            try:
                result = asyncio.run(run_tables(server, tables, gap, args.seconds, args.spread))
            finally:
                server.stop()
            result["server"] = _server_timing(Path(folder) / "server.log")
        print(json.dumps(result) if args.json else _line(result), flush=True)
        if gap and result["p99_ms"] < TARGET_P99_MS and result["errors"] == 0:
            largest = tables
    print(f"largest K at human pace with p99 < {TARGET_P99_MS:g} ms (of those tried): {largest}")
    return 0


def _server_timing(log: Path) -> str:
    """Return the server's own timing line (frame handling, loop lag) from its log."""
    for line in log.read_text().splitlines():
        if "stopping; " in line:
            return line.split("stopping; ", 1)[1]
    return "not logged"


def _spread(spread: float | None) -> str:
    return f" (waits 1 s ± {spread:.0%})" if spread else ""


def _line(result: dict[str, Any]) -> str:
    per_hand = result["cpu_ms_per_hand"]
    hand = "no hand ended" if per_hand is None else f"{per_hand} ms a hand"
    return (
        f"{result['tables']:>5} tables {result['pace']:>8}{_spread(result['spread'])}: "
        f"{result['moves']} moves, "
        f"{result['hands']} hands in {result['seconds']} s; latency p50 {result['p50_ms']} ms, "
        f"p99 {result['p99_ms']} ms; server CPU {result['server_cpu_share']:.0%} of a core "
        f"(the clients' {result['clients_cpu_share']:.0%}; the server's loop waited for "
        f"its core {_share(result['server_waited_share'])} of the time), "
        f"{result['cpu_ms_per_move']} ms a move, "
        f"{hand}; "
        f"{result['rss_kib_per_table']} KiB a table; "
        f"{result['errors']} errors\n        server: {result['server']}"
    )


def _share(value: float | None) -> str:
    return "?" if value is None else f"{value:.0%}"
