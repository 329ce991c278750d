"""``python -m bench serve``'s scripted clients play legal moves from the events alone."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

import bench.serve
from bench.serve import Pace, Server, run_tables


def test_the_scripted_clients_play_whole_hands_without_a_refusal(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        result = asyncio.run(run_tables(server, 2, 0.0, 4.0))
    finally:
        server.stop()
    assert result["errors"] == 0, "a client sent a move the server refused"
    assert result["hands"] >= 1 and result["moves"] > 52
    assert result["p99_ms"] > 0


def test_a_spread_pace_waits_within_its_bounds_and_averages_the_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench.serve.time, "monotonic", lambda: 100.0)
    pace = Pace(1.0, 0.5, random.Random(7))

    async def gaps() -> list[float]:
        waits = []
        for _ in range(2000):
            pace.next_at = 0.0  # due already: no sleep; the next move is booked from "now"
            await pace.wait()
            waits.append(pace.next_at - 100.0)
        return waits

    waits = asyncio.run(gaps())
    assert min(waits) >= 0.5 and max(waits) <= 1.5
    assert max(waits) - min(waits) > 0.9, "the waits are not spread"
    assert abs(sum(waits) / len(waits) - 1.0) < 0.05
    steady = Pace(1.0)
    steady.next_at = 0.0
    asyncio.run(steady.wait())
    assert steady.next_at == 101.0  # in step: one second from now
