"""``create`` and ``join`` sent again after a drop, with the same id and the client's own token,
are applied once: one table, one seat, also across a SIGKILL and restart of the server; and the
terminal client's ``create`` and ``join`` whose first answer is lost end with one table and one
seat. Each runs against a real ``mdhearts serve`` on a free loopback port.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from server_harness import Player, ServerProcess

from game.server.credentials import new_token
from game.terminal import remote

SEATS = ["open", "open", "open", "bot:first"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Return the path of a new server database."""
    return tmp_path / "server.sqlite3"


@pytest.fixture
def server(db: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, so that its database holds only the test's tables."""
    process = ServerProcess(db)
    yield process
    process.stop()
    assert "Traceback" not in process.log


def run(coroutine: Any) -> Any:
    """Run a test's coroutine."""
    return asyncio.run(coroutine)


def stored_codes(db: Path) -> list[str]:
    """Return the code of every table in the server's database (committed ones)."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        rows = connection.execute("SELECT code FROM tables ORDER BY id").fetchall()
    return [str(row[0]) for row in rows]


async def players_seen(url: str, code: str) -> list[str]:
    """Return who sits in each seat of the table, as a spectator sees it."""
    watcher = await Player(url, "watcher").connect()
    answer = await watcher.request("watch", code=code)
    assert answer["type"] == "watching", answer
    state = await watcher.snapshot()
    await watcher.close()
    return [player["player"] for player in state["players"]]


def test_create_sent_twice_with_its_id_and_token_makes_one_table(
    server: ServerProcess, db: Path
) -> None:
    token = new_token()

    async def scenario() -> list[str]:
        first = await Player(server.url, "a").connect()
        made = await first.request_with_id("make-1", "create", seats=SEATS, host_token=token)
        assert made["type"] == "created" and made["host_token"] == token, made
        assert "duplicate" not in made
        await first.close()
        # The connection dropped before the answer was read: the same command comes again.
        second = await Player(server.url, "b").connect()
        again = await second.request_with_id("make-1", "create", seats=SEATS, host_token=token)
        assert again["type"] == "created" and again.get("duplicate") is True, again
        assert (again["code"], again["host_token"]) == (made["code"], token)
        # The proposed token is the host token: it starts the table.
        started = await second.request_with_id("go-1", "start", code=made["code"], host_token=token)
        assert started["type"] == "ack", started
        # A create with the id the start had (a client's mistake) is not taken for a retry.
        reused = await second.request_with_id("go-1", "create", seats=SEATS, host_token=token)
        assert reused["type"] == "created" and "duplicate" not in reused, reused
        # The same id from a client with another token is another client's table.
        other = await second.request_with_id(
            "make-1", "create", seats=SEATS, host_token=new_token()
        )
        assert other["type"] == "created" and "duplicate" not in other, other
        # Without a token of its own a create is not known as a retry (as documented).
        plain = [await second.request_with_id("make-2", "create", seats=SEATS) for _ in "ab"]
        await second.close()
        return [made["code"], reused["code"], other["code"], *(a["code"] for a in plain)]

    codes = run(scenario())
    assert stored_codes(db) == codes and len(set(codes)) == 5
    assert server.log_count(" created: seats ", 5) == 5
    assert token not in server.log


def test_join_sent_twice_gives_the_same_seat_and_leaves_the_others_open(
    server: ServerProcess,
) -> None:
    token = new_token()

    async def scenario() -> None:
        host = await Player(server.url, "host").connect()
        made = await host.request("create", seats=SEATS, host_token=new_token())
        code = made["code"]
        first = await Player(server.url, "a").connect()
        joined = await first.request_with_id("join-1", "join", code=code, name="Ann", token=token)
        assert (joined["type"], joined["seat"], joined["token"]) == ("joined", 0, token), joined
        assert "duplicate" not in joined
        # The same join over a new connection: the same seat, then its snapshot.
        second = await Player(server.url, "b").connect()
        again = await second.request_with_id(
            "join-1", "join", code=code, name="Ann again", token=token
        )
        assert again["type"] == "joined" and again.get("duplicate") is True, again
        assert (again["seat"], again["token"]) == (0, token)
        await second.wait_frames(second.answered_at)
        assert second.frames[second.answered_at]["type"] == "snapshot"
        assert second.state is not None and second.state["seat"] == 0
        await asyncio.sleep(0.2)
        assert first.close_code == 4001, "the older connection of the seat is replaced"
        assert await players_seen(server.url, code) == ["person", "open", "open", "bot:first"]
        # Another person still gets the next open seat; once the match began, the retry of
        # the first join is still answered with its seat, not refused as table_full.
        other = await Player(server.url, "c").connect()
        assert (await other.join(code, "Bob"))["seat"] == 1
        assert (await host.request("start", code=code, host_token=made["host_token"]))[
            "type"
        ] == "ack"
        late = await second.request_with_id("join-1", "join", code=code, name="Ann", token=token)
        assert (late["type"], late["seat"], late.get("duplicate")) == ("joined", 0, True), late
        state = await second.snapshot()
        assert state["players"][0]["name"] == "Ann" and len(state["hand"]) == 13
        refused = await other.request("join", code=code, name="Cy", token=new_token())
        assert refused["reason"] == "table_full", refused
        await asyncio.gather(*(p.close() for p in (host, first, second, other)))

    run(scenario())
    assert server.log_count("seat 0 taken (") == 1
    assert token not in server.log


def test_create_and_join_sent_again_after_a_sigkill_and_restart(db: Path) -> None:
    host_token, seat_token = new_token(), new_token()
    server = ServerProcess(db)

    async def before() -> str:
        client = await Player(server.url, "a").connect()
        made = await client.request_with_id("make-1", "create", seats=SEATS, host_token=host_token)
        joined = await client.request_with_id(
            "join-1", "join", code=made["code"], name="Ann", token=seat_token
        )
        assert joined["type"] == "joined" and joined["seat"] == 0, joined
        await client.close()
        return str(made["code"])

    try:
        code = run(before())
    finally:
        server.kill()  # before the client heard of anything else
    server = ServerProcess(db)

    async def after() -> None:
        client = await Player(server.url, "b").connect()
        made = await client.request_with_id("make-1", "create", seats=SEATS, host_token=host_token)
        assert (made["type"], made["code"], made.get("duplicate")) == ("created", code, True)
        joined = await client.request_with_id(
            "join-1", "join", code=code, name="Ann", token=seat_token
        )
        assert (joined["type"], joined["seat"], joined.get("duplicate")) == ("joined", 0, True)
        await client.close()
        assert await players_seen(server.url, code) == ["person", "open", "open", "bot:first"]

    try:
        run(after())
        assert stored_codes(db) == [code]
    finally:
        server.stop()
    assert "1 tables resumed" in server.log and "seat 0 is back" in server.log


@pytest.mark.parametrize(
    "token",
    ["short", "x" * 31, "x" * 65, "x" * 31 + "!", "é" * 40, 12345678901234567890, None],
    ids=["short", "31", "65", "sign", "accents", "number", "null"],
)
def test_a_malformed_proposed_token_is_refused_as_bad_field(
    server: ServerProcess, db: Path, token: object
) -> None:
    async def scenario() -> None:
        client = await Player(server.url, "a").connect()
        made = await client.request("create", seats=SEATS, host_token=token)
        assert (made["type"], made["reason"], made["id"]) == ("error", "bad_field", "a-2")
        assert "host_token" in made["message"]
        good = await client.request("create", seats=SEATS, host_token="A-_z09" * 10)
        assert good["type"] == "created", good
        joined = await client.request("join", code=good["code"], name="Ann", token=token)
        assert (joined["type"], joined["reason"]) == ("error", "bad_field"), joined
        await client.close()
        assert await players_seen(server.url, good["code"]) == [*["open"] * 3, "bot:first"]

    run(scenario())
    assert len(stored_codes(db)) == 1


class DroppingSeat(remote.RemoteSeat):
    """The terminal client's connection, lost once right after the server answered a create or
    a join (the answer with it): the client reconnects and sends the command again."""

    lost: ClassVar[list[dict[str, Any]]] = []

    def receive(self, timeout: float | None) -> dict[str, Any] | None:
        data = super().receive(timeout)
        if data is not None and data["type"] in ("created", "joined") and not self.lost:
            DroppingSeat.lost.append(data)
            assert self.ws is not None
            self.ws.close()
            return super().receive(timeout)  # raises ConnectionClosed: the connection is gone
        return data


def cli(*args: str) -> dict[str, Any]:
    """Run ``mdhearts cli --json ...`` in this process and return its JSON."""
    out = io.StringIO()
    status = remote.run([*args, "--json"], out)
    answer = json.loads(out.getvalue())
    assert status == 0 and answer["ok"], answer
    return dict(answer)


def test_the_terminal_clients_create_and_join_are_applied_once_after_a_drop(
    server: ServerProcess, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (remote.SERVER_ENV, remote.CODE_ENV, remote.TOKEN_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(remote, "RemoteSeat", DroppingSeat)
    monkeypatch.setattr(DroppingSeat, "lost", [])
    made = cli("--server", server.url, "create", "--seats", "open,open,bot,bot")
    assert DroppingSeat.lost and DroppingSeat.lost[0]["code"] == made["code"]
    assert stored_codes(db) == [made["code"]]
    monkeypatch.setattr(DroppingSeat, "lost", [])
    joined = cli("--server", server.url, "--code", made["code"], "join", "--name", "Ann")
    assert DroppingSeat.lost and DroppingSeat.lost[0]["token"] == joined["token"]
    assert joined["seat"] == 0
    seen = run(players_seen(server.url, made["code"]))
    assert seen == ["person", "open", "bot:normal", "bot:normal"]
    # The token the client made is the seat's: it opens it, and the host's starts the table.
    state = cli("--server", server.url, "--code", made["code"], "--token", joined["token"])
    assert state["seat"] == 0 and state["phase"] == "waiting"
    cli("--server", server.url, "--code", made["code"], "start", "--host-token", made["host_token"])
    assert server.log_count(" created: seats ") == 1 and server.log_count("seat 0 taken (") == 1


class HelloDroppingSeat(remote.RemoteSeat):
    """The terminal client's connection, lost once right after the server's welcome."""

    lost: ClassVar[list[dict[str, Any]]] = []

    def receive(self, timeout: float | None) -> dict[str, Any] | None:
        data = super().receive(timeout)
        if data is not None and data["type"] == "welcome" and not self.lost:
            HelloDroppingSeat.lost.append(data)
            assert self.ws is not None
            self.ws.close()
            return super().receive(timeout)  # raises ConnectionClosed: the connection is gone
        return data


def test_a_connection_lost_during_its_hello_is_opened_again(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (remote.SERVER_ENV, remote.CODE_ENV, remote.TOKEN_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(remote, "RemoteSeat", HelloDroppingSeat)
    monkeypatch.setattr(HelloDroppingSeat, "lost", [])
    made = cli("--server", server.url, "create", "--seats", "open,bot,bot,bot")
    assert HelloDroppingSeat.lost, "the connection was not lost during its hello"
    assert made["code"]
