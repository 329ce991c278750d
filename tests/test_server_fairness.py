"""Fair by construction: every frame the server sends to each seat and to spectators, over whole
matches, holds no card of another seat's hand that the receiver has not seen played or been
passed, and never the deal's seed. The truth comes from the match's record once it is over.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from server_harness import Player, ServerProcess, match_over, seated_table

from core.cards import parse_card
from core.errors import HeartsError
from core.rules import pass_sender


def _cards_in(value: Any) -> set[str]:
    """Return every card text anywhere in a frame."""
    if isinstance(value, dict):
        return set().union(*(_cards_in(item) for item in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards_in(item) for item in value)) if value else set()
    if isinstance(value, str) and len(value) == 2:
        try:
            parse_card(value)
        except HeartsError:
            return set()
        return {value}
    return set()


def _numbers_in(value: Any) -> set[int]:
    if isinstance(value, dict):
        return set().union(set(), *(_numbers_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(_numbers_in(item) for item in value))
    return {value} if isinstance(value, int) and not isinstance(value, bool) else set()


def _seed_keys(value: Any) -> list[Any]:
    if isinstance(value, dict):
        found = [value["seed"]] if value.get("seed") is not None else []
        return found + [x for item in value.values() for x in _seed_keys(item)]
    if isinstance(value, list):
        return [x for item in value for x in _seed_keys(item)]
    return []


def _frames_before_over(frames: list[dict[str, Any]], data: dict[str, Any]) -> bool:
    """Return whether the match was over before this frame came."""
    before = frames[: frames.index(data)]
    return any(f.get("event", {}).get("type") == "match_over" for f in before)


class Truth:
    """The whole match from its record: each hand's deal, passes and plays."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.seed = record["seed"]
        self.hands = []
        for hand in record["hands"]:
            passes = {a["seat"]: a["pass"] for a in hand["actions"] if "pass" in a}
            plays = [a["play"] for a in hand["actions"] if "play" in a]
            self.hands.append((hand["direction"], hand["deal"], passes, plays))

    def own(self, hand: int, seat: int, exchanged: bool) -> set[str]:
        """Return the cards ``seat`` may know of in this hand (not counting plays)."""
        direction, deal, passes, _ = self.hands[hand]
        known = set(deal[seat])
        if exchanged and direction != "hold":
            known |= set(passes[pass_sender(seat, direction)])
        return known


def scan(player: Player, seat: int | None, truth: Truth) -> int:
    """Check every frame ``player`` received; return how many cards were checked."""
    hand, played, exchanged, checked = 0, [], False, 0
    for data in player.frames:
        if data["type"] == "record":
            # The record of a finished match (asked for after its end) holds everything.
            assert _frames_before_over(player.frames, data)
            continue
        shown = str(data)[:300]
        assert not _seed_keys(data), f"a seed was sent: {shown}"
        assert truth.seed not in _numbers_in(data), f"the seed's number was sent: {shown}"
        if data["type"] == "snapshot" and data["state"].get("hand_number"):
            state = data["state"]
            hand = state["hand_number"] - 1
            played = [card for trick in state["tricks"] for card in trick["cards"]]
            assert played == truth.hands[hand][3][: len(played)], "the tricks are not the truth"
            exchanged = state["phase"] != "pass"
        elif data["type"] == "event":
            event = data["event"]
            if event["type"] == "hand_started":
                hand, played, exchanged = event["hand_number"] - 1, [], False
            elif event["type"] == "passes_exchanged":
                exchanged = True
            elif event["type"] == "card_played":
                played.append(event["card"])
                assert played == truth.hands[hand][3][: len(played)], "a play is not the truth"
        allowed = set(played)
        if seat is not None and hand < len(truth.hands):
            allowed |= truth.own(hand, seat, exchanged)
        cards = _cards_in(data)
        assert cards <= allowed, (
            f"seat {seat} was sent {sorted(cards - allowed)} it may not know: {shown}"
        )
        checked += len(cards)
    return checked


def test_every_frame_to_every_seat_and_spectator_is_fair(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server.sqlite3", "--rate", "2000", "--burst", "2000")

    async def one_table(seats: list[str]) -> tuple[list[Player], list[Player], dict[str, Any]]:
        host, code, _, players = await seated_table(server.url, seats)
        spectator = await Player(server.url, "spectator").connect()
        await spectator.request("watch", code=code)
        deadline = time.monotonic() + 150
        await asyncio.gather(*(p.play_until(match_over, deadline) for p in players))
        while not any(f.get("event", {}).get("type") == "match_over" for f in spectator.frames):
            await spectator.wait_frames(len(spectator.frames), 10)
        record = await players[0].request("record")
        for player in [host, spectator, *players]:
            await player.close()
        return players, [spectator], record["record"]

    async def scenario() -> list[tuple[list[Player], list[Player], dict[str, Any]]]:
        return list(
            await asyncio.gather(
                one_table(["open"] * 4),
                one_table(["bot:normal", "open", "bot:first", "open"]),
            )
        )

    try:
        tables = asyncio.run(scenario())
    finally:
        server.stop()
    for players, spectators, record in tables:
        truth = Truth(record)
        assert len(truth.hands) >= 2
        for player in players:
            assert player.gaps == 0
            assert scan(player, player.seat, truth) > 500
            # A seat sees its own hand and what it received, never another seat's pass.
            exchanged = [
                f["event"]["passes"]
                for f in player.frames
                if f.get("event", {}).get("type") == "passes_exchanged"
            ]
            assert exchanged and all(sum(p is not None for p in e) == 2 for e in exchanged)
        for spectator in spectators:
            assert scan(spectator, None, truth) > 100
            hands = [f["state"]["hand"] for f in spectator.frames if f["type"] == "snapshot"]
            assert hands and all(h is None for h in hands)
