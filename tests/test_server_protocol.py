"""Protocol v1 of ``mdhearts serve`` frame by frame, against a real server: versions, reason
codes with command ids, tokens, retries, oversized frames, floods and clients that never read.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import ROOT, Player, ServerProcess, seated_table
from websockets.asyncio.client import connect

from core.cards import FULL_DECK, mask_texts
from core.errors import REFUSAL_REASONS
from game.server.protocol import MAX_FRAME_BYTES, PROTOCOL_REASONS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, with the default rate limit (20 a second, bursts of 40)."""
    process = ServerProcess(tmp_path_factory.mktemp("serve") / "server.sqlite3")
    yield process
    assert process.stop() == 0
    assert "Traceback" not in process.log


def run(coroutine: Any) -> Any:
    """Run a test's coroutine."""
    return asyncio.run(coroutine)


def test_hello_welcome_and_refusal_name_the_versions(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = await Player(server.url, "v").connect(hello=False)
        early = await player.request("ping")
        assert (early["type"], early["reason"], early["id"]) == ("error", "hello_first", "v-1")
        welcome = await player.request("hello", versions=[3, 1])
        assert welcome["type"] == "welcome" and welcome["version"] == 1
        assert welcome["max_frame"] == MAX_FRAME_BYTES
        again = await player.request("hello", versions=[1])
        assert again["reason"] == "already_greeted"
        await player.close()
        newer = await Player(server.url, "n").connect(hello=False)
        refusal = await newer.request("hello", versions=[2, 3])
        assert refusal["type"] == "refusal" and refusal["versions"] == [1]
        await asyncio.sleep(0.3)
        assert newer.close_code == 4002
        other = await Player(server.url, "o").connect(hello=False)
        await other.send_raw(json.dumps({"v": 2, "type": "hello", "versions": [2]}))
        await other.wait_frames(0)
        assert other.frames[0]["type"] == "refusal"

    run(scenario())


def test_every_refusal_has_a_reason_code_and_the_command_id(server: ServerProcess) -> None:
    async def scenario() -> None:
        host, code, host_token, players = await seated_table(
            server.url, ["open", "open", "bot:first", "bot:first"]
        )
        p0, p1 = players
        state = await p0.snapshot()
        turn = p0 if state["your_turn"] else p1
        other = p1 if turn is p0 else p0
        # Passing: three cards, held, once.
        wrong = await turn.request("pass", cards=["2C", "2C", "3C"])
        assert wrong["type"] == "error" and wrong["id"] and wrong["reason"] in REFUSAL_REASONS
        hand = (await other.snapshot())["hand"]
        notheld = [c for c in mask_texts(FULL_DECK) if c not in hand][:3]
        refused = await other.request("pass", cards=notheld)
        assert refused["reason"] == "card_not_held", refused
        playing = await other.request("play", card=hand[0])
        assert playing["reason"] == "must_pass_first", playing
        # Seat-less and host-less commands.
        stranger = await Player(server.url, "s").connect()
        assert (await stranger.request("play", card="2C"))["reason"] == "not_seated"
        joined = await stranger.request("join", code=code, name="late")
        assert joined["reason"] == "table_full"
        assert (await stranger.request("start", code=code, host_token="x" * 43))[
            "reason"
        ] == "not_host"
        assert (await stranger.request("watch", code="ZZZZ-ZZZZ"))["reason"] == "no_such_table"
        assert (await host.request("start", code=code, host_token=host_token))[
            "reason"
        ] == "already_started"
        # A token of another table does not open this one.
        _, _, _, players2 = await seated_table(
            server.url, ["open", "bot:first", "bot:first", "bot:first"]
        )
        foreign = await stranger.request("rejoin", code=code, token=players2[0].token)
        assert foreign["reason"] == "bad_token"
        assert (await stranger.request("record"))["reason"] == "not_seated"
        assert (await p0.request("record"))["reason"] == "match_not_over"
        bad = await stranger.request("create", seats=["open", "open", "bot:nobody", "open"])
        assert bad["reason"] == "bad_seats"
        bad = await stranger.request("create", seats=["open"] * 4, rules={"end_score": "x"})
        assert bad["reason"] == "bad_rules"
        engine = await stranger.request("create", seats=["open", "engine:/bin/sh", "open", "open"])
        assert engine["reason"] == "bad_seats"
        for player in (host, stranger, *players, *players2):
            await player.close()
        reasons = {
            f["reason"]
            for p in (host, stranger, *players)
            for f in p.frames
            if f["type"] == "error"
        }
        assert reasons <= set(PROTOCOL_REASONS) | set(REFUSAL_REASONS)

    run(scenario())


def test_a_retried_command_is_applied_once(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, _, _, (player,) = await seated_table(
            server.url, ["open", "bot:first", "bot:first", "bot:first"]
        )
        state = await player.snapshot()
        first = await player.request_with_id("mine-1", "pass", cards=state["hand"][:3])
        assert first["type"] == "ack"
        again = await player.request_with_id("mine-1", "pass", cards=state["hand"][:3])
        assert again == {**first, "duplicate": True}
        await player.close()

    run(scenario())


def test_two_connections_with_one_token_the_newer_wins(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, code, _, (older,) = await seated_table(
            server.url, ["open", "bot:first", "bot:first", "bot:first"]
        )
        newer = await Player(server.url, "newer").connect()
        newer.code, newer.token = code, older.token
        assert (await newer.rejoin())["seat"] == 0
        await older.wait_frames(len(older.frames) - 1)
        deadline = time.monotonic() + 5
        while older.close_code is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert older.frames[-1]["type"] == "replaced"
        assert older.close_code == 4001
        assert (await newer.snapshot())["seat"] == 0
        await newer.close()

    run(scenario())


def test_an_oversized_frame_closes_the_connection(server: ServerProcess) -> None:
    async def scenario() -> None:
        player = await Player(server.url, "big").connect()
        await player.send_raw(json.dumps({"v": 1, "type": "ping", "pad": "x" * MAX_FRAME_BYTES}))
        await player.close()
        assert player.close_code == 1009
        fine = await Player(server.url, "fine").connect()
        assert (await fine.request("ping"))["type"] == "pong"
        await fine.close()

    run(scenario())


def test_a_flood_closes_the_connection_and_no_other(server: ServerProcess) -> None:
    async def scenario() -> None:
        calm = await Player(server.url, "calm").connect()
        flood = await Player(server.url, "flood").connect()
        for number in range(200):
            try:
                await flood.send_raw(json.dumps({"v": 1, "type": "ping", "id": f"f{number}"}))
            except Exception:
                break
        deadline = time.monotonic() + 5
        while flood.close_code is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert flood.close_code == 1008
        pongs = sum(1 for f in flood.frames if f["type"] == "pong")
        assert 20 <= pongs < 200
        assert (await calm.request("ping"))["type"] == "pong"
        await calm.close()

    run(scenario())


def test_tls_serves_wss(tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl here to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    server = ServerProcess(tmp_path / "s.sqlite3", "--tls-cert", str(cert), "--tls-key", str(key))
    assert "listening on wss://" in server.log
    context = ssl.create_default_context(cafile=str(cert))

    async def scenario() -> dict[str, Any]:
        async with connect(f"wss://127.0.0.1:{server.port}", ssl=context) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "id": "h", "versions": [1]}))
            return dict(json.loads(await ws.recv()))

    try:
        assert run(scenario())["type"] == "welcome"
    finally:
        server.stop()
    half = subprocess.run(
        [sys.executable, "-m", "game", "serve", "--tls-cert", str(cert)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert half.returncode == 2 and "--tls-cert and --tls-key go together" in half.stderr


def test_hand_started_tells_each_seat_its_own_dealt_cards_and_a_spectator_none(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        host = await Player(server.url, "host").connect()
        created = await host.request("create", seats=["open", "open", "bot:first", "bot:first"])
        code = created["code"]
        spectator = await Player(server.url, "watcher").connect()
        assert (await spectator.request("watch", code=code))["type"] == "watching"
        players = [await Player(server.url, f"p{n}").connect() for n in range(2)]
        for number, player in enumerate(players):
            await player.join(code, f"player {number}")
        await host.request("start", code=code, host_token=created["host_token"])
        for player in players:
            state = await player.snapshot()  # the pass: nobody has moved a card yet
            assert state["phase"] == "pass"
            started = [
                frame["event"]
                for frame in player.frames
                if frame["type"] == "event" and frame["event"]["type"] == "hand_started"
            ]
            assert [event["hand"] for event in started] == [state["hand"]]
        deadline = time.monotonic() + 10
        watched: list[dict[str, Any]] = []
        while not watched and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            watched = [
                frame["event"]
                for frame in spectator.frames
                if frame["type"] == "event" and frame["event"]["type"] == "hand_started"
            ]
        assert len(watched) == 1 and "hand" not in watched[0]
        for connection in (host, spectator, *players):
            await connection.close()

    run(scenario())
