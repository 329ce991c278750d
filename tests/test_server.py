"""``mdhearts serve`` end to end: a real server in a subprocess on a free loopback port and real
WebSocket clients playing whole matches, dropping, rejoining, and a server killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import Player, ServerProcess, free_port, match_over, seated_table

from core.record import record_from_dict

FAST = ("--rate", "2000", "--burst", "2000")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Return the path of a new server database."""
    return tmp_path / "server.sqlite3"


def run(coroutine: Any) -> Any:
    """Run a test's coroutine."""
    return asyncio.run(coroutine)


async def _close(*players: Player) -> None:
    for player in players:
        await player.close()


def test_four_clients_play_a_whole_match(db: Path) -> None:
    server = ServerProcess(db, *FAST)

    async def scenario() -> tuple[list[Player], dict[str, Any]]:
        host, _, _, players = await seated_table(server.url, ["open"] * 4, {"end_score": 40})
        deadline = time.monotonic() + 90
        await asyncio.gather(*(p.play_until(match_over, deadline) for p in players))
        record = await players[0].request("record")
        await _close(host, *players)
        return players, record

    try:
        players, record = run(scenario())
    finally:
        assert server.stop() == 0
    assert record["type"] == "record", record
    controller = record_from_dict(record["record"])  # the stored record replays legally
    assert controller.phase == "match_over"
    for player in players:
        assert player.gaps == 0
        over = [f for f in player.frames if f.get("event", {}).get("type") == "match_over"]
        assert len(over) == 1
        assert over[0]["event"]["totals"] == list(controller.totals)
    assert "match over" in server.log
    assert "stopped; every table is saved (0 not finished)" in server.log
    for player in players:  # one line per table event, never a token
        assert player.token and player.token not in server.log
    # The finished match's record is still there after a restart.
    server = ServerProcess(db, *FAST)

    async def again() -> dict[str, Any]:
        player = await Player(server.url, "later").connect()
        player.code, player.token = players[1].code, players[1].token
        assert (await player.rejoin())["type"] == "joined"
        answer = await player.request("record")
        await player.close()
        return answer

    try:
        later = run(again())
    finally:
        server.stop()
    assert "0 tables resumed" in server.log
    assert later["record"] == record["record"]


def test_a_dropped_player_rejoins_after_a_bot_played_for_them(db: Path) -> None:
    server = ServerProcess(db, *FAST, "--grace", "0.3")

    async def scenario() -> None:
        host, code, _, players = await seated_table(server.url, ["open"] * 4, {"end_score": 30})
        leaver = players[2]
        others = [p for p in players if p is not leaver]
        deadline = time.monotonic() + 60

        def mid_trick_waiting(state: dict[str, Any]) -> bool:
            trick = state.get("trick")
            return (
                state["phase"] == "play"
                and trick is not None
                and len(trick["cards"]) >= 1
                and state["to_act"] != [2]
            )

        # Seat 2 plays until a trick is under way and it is not its turn, then drops; the
        # others play on, and past the grace time a bot plays seat 2.
        tasks = [asyncio.create_task(p.play_until(match_over, deadline)) for p in others]
        await leaver.play_until(mid_trick_waiting, deadline)
        before = await leaver.snapshot()
        await leaver.close()
        watcher = await Player(server.url, "w").connect()
        await watcher.request("watch", code=code)

        def bot_played_seat_2(_: dict[str, Any]) -> bool:
            return any(
                f.get("event", {}).get("type") == "card_played" and f["event"]["seat"] == 2
                for f in watcher.frames
            )

        while not bot_played_seat_2({}):
            await watcher.wait_frames(len(watcher.frames), 30)
        seen = (await watcher.snapshot())["players"][2]
        assert {"seat": 2, "away": True, "bot_plays": "normal"}.items() <= seen.items()
        # Seat 2 comes back with its token: the seat is its own again.
        back = Player(server.url, "p2b")
        await back.connect()
        back.code, back.token = code, leaver.token
        joined = await back.rejoin()
        assert joined["type"] == "joined" and joined["seat"] == 2
        state = await back.snapshot()
        assert state["players"][2]["away"] is False and state["players"][2]["bot_plays"] is None
        assert len(state["hand"]) < len(before["hand"])  # the bot played from this hand
        await back.play_until(match_over, deadline)
        await asyncio.gather(*tasks)
        assert back.gaps == 0
        mine = [a for a in back.acked if "card" in a["move"]]
        assert mine, "the player who came back played again"
        await _close(host, watcher, back, *others)

    try:
        run(scenario())
    finally:
        server.stop()
    assert "seat 2 is away" in server.log
    assert "seat 2 away past the grace time, a bot plays" in server.log
    assert "seat 2 is back" in server.log


def test_sigkill_mid_match_then_restart_loses_no_acknowledged_move(db: Path) -> None:
    port = free_port()
    server = ServerProcess(db, *FAST, "--grace", "30", "--bot-workers", "2", port=port)
    children = server.children()
    if len(children) < 3:
        server.stop()  # not left running when the check below fails
    assert len(children) >= 3, "two bot workers (and multiprocessing's resource tracker) run"

    async def first_part() -> tuple[str, list[Player]]:
        _, code, _, players = await seated_table(
            server.url, ["open", "open", "open", "bot:first"], {"end_score": 60}
        )
        deadline = time.monotonic() + 60
        tasks = [asyncio.create_task(p.play_until(match_over, deadline)) for p in players]
        while sum(len(p.acked) for p in players) < 45:
            await asyncio.sleep(0.001)
        server.kill()  # in the middle of play: some commands are in flight
        await asyncio.gather(*tasks, return_exceptions=True)
        for player in players:
            with contextlib.suppress(Exception):
                await player.close()
        return code, players

    code, players = run(first_part())
    end = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in children) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in children), "workers outlived it"

    server = ServerProcess(db, *FAST, "--grace", "30", port=port)
    assert "1 tables resumed" in server.log

    async def second_part() -> None:
        acked_seq = max(a["seq"] for p in players for a in p.acked)
        again = []
        for old in players:
            player = Player(server.url, old.name + "b")
            await player.connect()
            player.code, player.token = code, old.token
            joined = await player.rejoin()
            assert joined["type"] == "joined" and joined["seat"] == old.seat
            again.append(player)
        state = await again[0].snapshot()
        assert again[0].seq >= acked_seq
        for old, player in zip(players, again, strict=True):
            mine = await player.snapshot()
            for ack in old.acked:
                if "card" in ack["move"] and ack["hand_number"] == mine["hand_number"]:
                    played = [c for trick in mine["tricks"] for c in trick["cards"]]
                    assert ack["move"]["card"] in played
                    assert ack["move"]["card"] not in mine["hand"]
                if "cards" in ack["move"] and ack["hand_number"] == mine["hand_number"]:
                    assert sorted(mine["passed"]) == sorted(ack["move"]["cards"])
            # The last acknowledged move sent again with its id is not applied twice.
            last = old.acked[-1]
            kind = "play" if "card" in last["move"] else "pass"
            seq = player.seq
            retry = await player.request_with_id(last["id"], kind, **last["move"])
            assert retry["type"] == "ack" and retry.get("duplicate") is True, retry
            assert retry["seq"] == last["seq"]
            assert (await player.snapshot()) and player.seq == seq
        assert state["phase"] in ("pass", "play")
        deadline = time.monotonic() + 60
        await asyncio.gather(*(p.play_until(match_over, deadline) for p in again))
        await _close(*again)

    try:
        run(second_part())
    finally:
        server.stop()


def test_sigterm_stops_cleanly_and_the_table_resumes(db: Path) -> None:
    server = ServerProcess(db, *FAST)

    async def play_some() -> tuple[str, str, int]:
        host, code, _, players = await seated_table(
            server.url, ["open", "bot:first", "bot:first", "bot:first"]
        )
        await players[0].play_until(
            lambda s: s["phase"] == "play" and len(s["hand"]) < 12, time.monotonic() + 30
        )
        await asyncio.sleep(0.2)
        seq = (await players[0].request("snapshot"))["seq"]
        await _close(host, players[0])
        return code, players[0].token, seq

    code, token, seq = run(play_some())
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(20) == 0
    assert "stopped; every table is saved (1 not finished)" in server.log
    server = ServerProcess(db, *FAST)

    async def resume() -> dict[str, Any]:
        player = await Player(server.url, "again").connect()
        player.code, player.token = code, token
        await player.rejoin()
        answer = await player.request("snapshot")
        await player.close()
        return answer

    try:
        answer = run(resume())
    finally:
        server.stop()
    assert answer["seq"] >= seq + 1  # + the seat's away notice at the disconnection
    assert answer["state"]["phase"] == "play"
    assert len(answer["state"]["hand"]) < 12
