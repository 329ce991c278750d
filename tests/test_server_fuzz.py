"""Hostile input against a real server: at least 10,000 frames of garbage, wrong types, unknown
messages and commands aimed at someone else's table leave it serving and the table intact; a
client that never reads is dropped and comes back with a snapshot. (Rate limits are raised
here so that the frames are read, not cut off as a flood: ``test_server_protocol`` has that.)
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Player, ServerProcess, match_over, seated_table
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

#: Frames sent by the fuzz run, and the connections they are spread over.
FUZZ_FRAMES = 10_400
FUZZ_CONNECTIONS = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, with the rate limit out of the way."""
    db = tmp_path_factory.mktemp("serve") / "server.sqlite3"
    process = ServerProcess(db, "--rate", "100000", "--burst", "100000")
    yield process
    assert process.stop() == 0
    assert "Traceback" not in process.log


def _junk(rng: random.Random) -> Any:
    return rng.choice(
        [
            None,
            True,
            0,
            -1,
            2**70,
            1.5,
            "",
            "x" * rng.randint(1, 300),
            [],
            {},
            [1, [2, [3]]],
            {"a": {"b": None}},
            "QS",
            ["QS", "AH"],
            "bot:hard",
            "ZZZZ-ZZZZ",
        ]
    )


def hostile_frame(rng: random.Random, code: str, token: str) -> str | bytes:
    """Return one hostile frame (every kind answers with exactly one frame)."""
    kind = rng.randrange(14)
    valid = {
        "v": 1,
        "type": rng.choice(
            [
                "pass",
                "play",
                "rejoin",
                "join",
                "start",
                "watch",
                "create",
                "snapshot",
                "record",
                "hello",
            ]
        ),
        "id": f"z{rng.randrange(10**6)}",
    }
    if kind == 0:  # garbage text
        alphabet = '{}[]":,0123456789abcdefvtype \\\u00e9\u2665\ud7ff'
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120)))
    if kind == 1:  # valid JSON cut short
        text = json.dumps({"v": 1, "type": "play", "id": "c", "card": "QS"})
        return text[: rng.randint(0, len(text) - 1)]
    if kind == 2:  # JSON that is not an object
        return json.dumps(rng.choice([[], [1, 2], 3, "hello", None, True, 1e300]))
    if kind == 3:  # wrong or missing version
        frame = dict(valid)
        frame["v"] = rng.choice([0, 2, "1", 1.0, True, None, [1]])
        return json.dumps(frame)
    if kind == 4:  # unknown or badly typed message type
        return json.dumps({"v": 1, "type": _junk(rng) or "explode", "id": "u"})
    if kind == 5:  # a known type with a field of the wrong type
        frame = dict(valid)
        for name in (
            "cards",
            "card",
            "code",
            "name",
            "token",
            "seats",
            "rules",
            "versions",
            "seat",
            "host_token",
        ):
            if rng.random() < 0.5:
                frame[name] = _junk(rng)
        return json.dumps(frame)
    if kind == 6:  # a bad or missing id
        frame = dict(valid)
        frame["id"] = rng.choice([None, 7, "", "x" * 65, "spaces are bad", ["a"]])
        if rng.random() < 0.3:
            del frame["id"]
        return json.dumps(frame)
    if kind == 7:  # deep nesting, huge numbers, duplicate keys, NaN
        return rng.choice(
            [
                "[" * 50 + "]" * 50,
                '{"v": 1' + ', "x": [' * 30 + "]" * 30 + "}",
                '{"v": 1, "type": "ping", "n": ' + "9" * 400 + "}",
                '{"v": 1, "v": 1, "type": "ping"}',
                '{"v": NaN, "type": "ping"}',
                '{"v": 1, "type": "ping", "x": 1e999}',
            ]
        )
    if kind == 8:  # someone else's table: a stolen code with a guessed or altered token
        altered = token[:-1] + ("A" if token[-1] != "A" else "B")
        guess = rng.choice([altered, "A" * 43, token + "x", token[1:], ""])
        return json.dumps({"v": 1, "type": "rejoin", "id": "r", "code": code, "token": guess})
    if kind == 9:  # a stolen code: join a started table, start it without the host token
        return json.dumps(
            rng.choice(
                [
                    {"v": 1, "type": "join", "id": "j", "code": code, "name": "thief"},
                    {"v": 1, "type": "start", "id": "s", "code": code, "host_token": token},
                ]
            )
        )
    if kind == 10:  # moves without a seat
        return json.dumps(
            {
                "v": 1,
                "type": rng.choice(["play", "pass"]),
                "id": "m",
                "card": "2C",
                "cards": ["2C", "3C", "4C"],
            }
        )
    if kind == 11:  # binary
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    if kind == 12:  # a second hello
        return json.dumps({"v": 1, "type": "hello", "versions": [1]})
    return json.dumps(
        {
            "v": 1,
            "type": "create",
            "id": "c",  # tables that cannot be made
            "seats": rng.choice([["open"] * 3, ["engine:sh"] * 4, ["bot:x"] * 4, ["human"] * 4]),
            "rules": rng.choice([{"end_score": -5}, {"moon": "x"}, {"nope": 1}]),
        }
    )


async def _fuzz(url: str, seed: int, count: int, code: str, token: str) -> tuple[int, int]:
    rng = random.Random(seed)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "versions": [1]}))
        json.loads(await ws.recv())  # the welcome
        answers = 0

        async def read() -> None:
            nonlocal answers
            async for message in ws:
                data = json.loads(message)
                assert data["type"] in ("error", "pong"), data
                answers += 1
                if data.get("id") == "end":
                    return

        reader = asyncio.create_task(read())
        for _ in range(count):
            await ws.send(hostile_frame(rng, code, token))
        await ws.send(json.dumps({"v": 1, "type": "ping", "id": "end"}))
        await asyncio.wait_for(reader, 60)
        return count, answers - 1


def test_ten_thousand_hostile_frames_leave_the_server_serving(server: ServerProcess) -> None:
    async def scenario() -> None:
        host, code, _, players = await seated_table(
            server.url, ["open", "open", "bot:first", "open"]
        )
        # Everyone passes, so the table is in the play, then look at it from every seat.
        for player in players:
            assert await player.play_once()
        while (await players[0].snapshot())["to_act"] == [2]:  # the bot's turn: let it play
            await asyncio.sleep(0.05)
        before = [await p.snapshot() for p in players]
        started = time.monotonic()
        per = FUZZ_FRAMES // FUZZ_CONNECTIONS
        results = await asyncio.gather(
            *(
                _fuzz(server.url, seed, per, code, players[0].token)
                for seed in range(FUZZ_CONNECTIONS)
            )
        )
        elapsed = time.monotonic() - started
        sent = sum(r[0] for r in results)
        assert sent >= 10_000
        # Never silence: one answer for every frame.
        assert [r[1] for r in results] == [r[0] for r in results]
        after = [await p.snapshot() for p in players]
        assert after == before, "the table changed under hostile frames"
        assert all(p.close_code is None for p in players)
        # The table plays on to its end.
        deadline = time.monotonic() + 120
        await asyncio.gather(*(p.play_until(match_over, deadline) for p in players))
        for player in (host, *players):
            await player.close()
        assert elapsed < 60

    asyncio.run(scenario())


def _raw_client(port: int) -> tuple[socket.socket, ClientProtocol]:
    """Open a WebSocket by hand (the sans-I/O protocol) on a socket with a small receive
    buffer, so nothing reads what the server sends unless asked."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}"))
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    while not protocol.events_received():
        protocol.receive_data(sock.recv(4096))
    return sock, protocol


def test_a_client_that_never_reads_is_dropped_and_resyncs(server: ServerProcess) -> None:
    async def seat() -> tuple[str, str]:
        _, code, _, (player,) = await seated_table(
            server.url, ["open", "bot:first", "bot:first", "bot:first"]
        )
        await player.close()
        return code, player.token

    code, token = asyncio.run(seat())
    sock, protocol = _raw_client(server.port)
    frames = [
        {"v": 1, "type": "hello", "versions": [1]},
        {"v": 1, "type": "rejoin", "id": "r", "code": code, "token": token},
    ]
    sent = 0
    deadline = time.monotonic() + 30
    sock.settimeout(20)  # a busy machine may keep the server from reading for a while
    try:
        while "too slow" not in server.log and time.monotonic() < deadline:
            for data in frames or [{"v": 1, "type": "snapshot", "id": f"s{sent}"}] * 100:
                protocol.send_text(json.dumps(data).encode())
                sent += 1
            frames = []
            sock.sendall(b"".join(protocol.data_to_send()))
            time.sleep(0.005)
    except OSError:
        pass  # the server cut the connection
    finally:
        sock.close()
    # The server logs the drop before it cuts the connection; this side reads its log apart.
    assert server.log_count("dropped a connection too slow to read") == 1

    async def back() -> None:
        calm = await Player(server.url, "calm").connect()  # the others were not held up
        assert (await calm.request("ping"))["type"] == "pong"
        await calm.close()
        again = await Player(server.url, "back").connect()
        again.code, again.token = code, token
        assert (await again.rejoin())["type"] == "joined"
        assert (await again.snapshot())["seat"] == 0
        await again.close()

    asyncio.run(back())
