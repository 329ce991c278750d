"""The server's parts without a network: invite codes and tokens, and a hub whose database
fails to write (nothing is applied, the client is told ``busy``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from game.server.bots import ServerBots
from game.server.credentials import (
    CODE_ALPHABET,
    new_code,
    new_token,
    normal_code,
    token_hash,
    token_matches,
)
from game.server.hub import Hub
from game.server.store import Store, StoreError


def test_codes_are_easy_to_read_aloud_and_tokens_are_kept_as_hashes() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == 9 and code[4] == "-"
        assert set(code.replace("-", "")) <= set(CODE_ALPHABET)
        assert not set("0O1lIL") & set(code)
        assert normal_code(code.lower().replace("-", " ")) == code
    token = new_token()
    assert len(token) >= 40 and token_hash(token) != token
    assert token_matches(token, token_hash(token))
    assert not token_matches(token + "x", token_hash(token))
    assert not token_matches(token, None)


def test_a_token_never_begins_with_a_dash_so_it_can_follow_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ``--host-token -abc...`` is refused by the command line as a missing value.
    draws = iter(["-" + "a" * 42, "b" * 43])
    monkeypatch.setattr("game.server.credentials.secrets.token_urlsafe", lambda n: next(draws))
    assert new_token() == "b" * 43
    monkeypatch.undo()
    assert not any(new_token().startswith("-") for _ in range(2000))


class FakeConn:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.greeted = False
        self.table_id: int | None = None
        self.seat: int | None = None
        self.closing = False
        self.peer = "test"
        self.sent: list[dict[str, Any]] = []

    def send(self, data: dict[str, Any]) -> None:
        self.sent.append(data)

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str, *, flush: bool = True) -> None:
        self.closing = True


def _say(hub: Hub, conn: FakeConn, **frame: Any) -> dict[str, Any]:
    hub.receive(conn, json.dumps({"v": 1, **frame}))  # type: ignore[arg-type]
    return next(f for f in reversed(conn.sent) if f.get("id") == frame.get("id"))


def test_a_command_the_database_cannot_store_is_not_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "s.sqlite3")
        hub = Hub(store, ServerBots(100.0))
        host, seats = FakeConn(), [FakeConn() for _ in range(4)]
        for conn in (host, *seats):
            _say(hub, conn, type="hello", id="h", versions=[1])
        made = _say(hub, host, type="create", id="c", seats=["open"] * 4)
        for number, conn in enumerate(seats):
            _say(hub, conn, type="join", id="j", code=made["code"], name=f"p{number}")
        _say(hub, host, type="start", id="s", code=made["code"], host_token=made["host_token"])
        state = _say(hub, seats[0], type="snapshot", id="before")["state"]
        seq = hub.tables[made["code"]].seq
        real_save = store.save

        def broken(*args: Any, **kwargs: Any) -> None:
            raise StoreError("disk full")

        monkeypatch.setattr(store, "save", broken)
        refused = _say(hub, seats[0], type="pass", id="p1", cards=state["hand"][:3])
        assert refused["reason"] == "busy"
        assert hub.tables[made["code"]].seq == seq
        after = _say(hub, seats[0], type="snapshot", id="after")["state"]
        assert after == state, "a move that was not stored was applied"
        monkeypatch.setattr(store, "save", real_save)
        assert _say(hub, seats[0], type="pass", id="p2", cards=state["hand"][:3])["type"] == "ack"
        store.close()
        hub.bots.close()

    asyncio.run(scenario())


def test_a_connection_that_moves_to_another_table_leaves_its_seat_away(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(tmp_path / "s.sqlite3")
        hub = Hub(store, ServerBots(100.0), grace_s=30)
        host, player = FakeConn(), FakeConn()
        for conn in (host, player):
            _say(hub, conn, type="hello", id="h", versions=[1])
        first = _say(hub, host, type="create", id="c1", seats=["open", "bot", "bot", "bot"])
        second = _say(hub, host, type="create", id="c2", seats=["open", "bot", "bot", "bot"])
        _say(hub, player, type="join", id="j", code=first["code"], name="ann")
        _say(hub, player, type="watch", id="w", code=second["code"])
        seat = hub.tables[first["code"]].seats[0]
        assert seat.away_since is not None and not seat.connected
        assert (hub.tables[first["code"]].id, 0) not in hub.seated
        store.close()
        hub.bots.close()

    asyncio.run(scenario())


def test_a_finished_table_nobody_is_at_is_unloaded_and_comes_back_when_asked(
    tmp_path: Path,
) -> None:
    from ai.autoplay import play_bots
    from ai.basic import FirstLegalBot
    from core.controller import Controller

    async def scenario() -> None:
        store = Store(tmp_path / "s.sqlite3")
        hub = Hub(store, ServerBots(100.0))
        host, player = FakeConn(), FakeConn()
        for conn in (host, player):
            _say(hub, conn, type="hello", id="h", versions=[1])
        made = _say(
            hub,
            host,
            type="create",
            id="c",
            seats=["open", "bot", "bot", "bot"],
            rules={"end_score": 1},
        )
        _say(hub, player, type="join", id="j", code=made["code"], name="ann")
        _say(hub, host, type="start", id="s", code=made["code"], host_token=made["host_token"])
        table = hub.tables[made["code"]]
        finished = Controller()  # the match played to its end (a bot for every seat)
        finished.new_match(table.rules, 5, ["human"] * 4)
        while finished.phase != "match_over":
            play_bots(finished, {seat: FirstLegalBot() for seat in range(4)})
            if finished.phase == "hand_over":
                finished.next_hand()
        assert finished.phase == "match_over"
        table.controller = finished
        forgotten: list[int] = []
        hub.bots.workers[0].forget_seed = forgotten.append  # type: ignore[method-assign]
        hub.publish(table, [])
        assert forgotten == [table.id], "the worker keeps the bots of a finished table"
        record = _say(hub, player, type="record", id="r1")["record"]
        hub.disconnected(player)  # type: ignore[arg-type]
        assert made["code"] not in hub.tables, "a finished table nobody is at stays in memory"
        watcher = FakeConn()
        _say(hub, watcher, type="hello", id="h", versions=[1])
        assert _say(hub, watcher, type="watch", id="w", code=made["code"])["type"] == "watching"
        assert _say(hub, watcher, type="record", id="r2")["record"] == record
        store.close()
        hub.bots.close()

    asyncio.run(scenario())


def _without_automatic_passes(scenario: Any) -> Any:
    """Run ``scenario()`` with only the passes it makes itself (in a large test process the
    objects it makes would start full passes of their own in between)."""
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return asyncio.run(scenario())
    finally:
        if was_enabled:
            gc.enable()


def test_survivors_of_a_full_collection_are_frozen_and_walked_again_once_they_grew() -> None:
    import gc

    from game.server.collector import ShortCollections

    kept: list[list[object]] = []

    async def full_pass() -> int:
        gc.collect()
        await asyncio.sleep(0)  # the freeze or thaw runs on the loop
        return gc.get_freeze_count()

    async def scenario() -> list[int]:
        collections = ShortCollections(asyncio.get_running_loop(), growth=0.25, interval_s=0)
        collections.start()
        try:
            counts = [await full_pass()]  # the first pass walks everything, then freezes it
            counts.append(await full_pass())  # nothing grew: still frozen, not walked again
            counts.append(collections.whole_passes)
            # Grow the live objects by far more than a quarter: the next pass thaws ...
            kept.append([[n] for n in range(counts[0])])
            counts.append(await full_pass())
            counts.append(await full_pass())  # ... and the one after walks it all and freezes
            counts.append(collections.whole_passes)
        finally:
            collections.close()
        assert gc.get_freeze_count() == 0, "close leaves objects frozen"
        return counts

    first, same, whole_before, thawed, frozen_again, whole = _without_automatic_passes(scenario)
    assert first > 0, "the survivors of a full pass are not frozen"
    # Not ``same >= first``: frozen objects that other code lets go of (the loop's handles)
    # leave the frozen count between the two passes; a thaw would leave nothing frozen.
    assert same > 0 and whole_before == 1, "a pass with nothing grown unfroze the survivors"
    assert thawed == 0, "grown frozen objects are never walked again"
    assert frozen_again > first
    assert whole == 2


def test_a_pass_over_every_object_waits_for_its_interval() -> None:
    import gc

    from game.server.collector import ShortCollections

    now = [1000.0]
    kept: list[list[object]] = []

    async def full_pass() -> int:
        gc.collect()
        await asyncio.sleep(0)
        return gc.get_freeze_count()

    async def scenario() -> tuple[int, int, int]:
        collections = ShortCollections(
            asyncio.get_running_loop(), growth=0.25, interval_s=600, clock=lambda: now[0]
        )
        collections.start()
        try:
            first = await full_pass()  # walks everything at 1000 s
            kept.append([[n] for n in range(first)])
            now[0] += 599  # grown by far more than a quarter, but within the interval
            within = await full_pass()
            now[0] += 1
            after = await full_pass()  # the interval is over: unfrozen for a whole pass
            found, ms = collections.sweep()
            assert found >= 0 and ms >= 0
        finally:
            collections.close()
        return first, within, after

    first, within, after = _without_automatic_passes(scenario)
    assert within > first, "a pass within the interval unfroze everything"
    assert after == 0, "after the interval, grown frozen objects are not walked again"


def test_a_replaced_or_failing_bot_worker_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    from ai.worker import MAX_FAILED_STARTS

    bots = ServerBots(100.0, workers=2)  # never started: no process, polls find nothing
    try:
        with caplog.at_level("WARNING", logger="mdhearts.serve"):
            bots.poll()
            assert caplog.messages == []
            bots.workers[1].restarts = 1
            bots.poll()
            bots.poll()
            assert caplog.messages == ["bot worker 1 ended and was started again"]
            bots.workers[0]._failed_starts = MAX_FAILED_STARTS
            bots.poll()
            bots.poll()
        assert caplog.messages[1:] == [
            "bot worker 0 keeps failing to start: bots play fallback moves"
        ]
    finally:
        bots.close()
