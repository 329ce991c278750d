"""A match of any length keeps saving and loading: its record folds the hands long past."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core import record
from core.cards import POINT_CARDS_MASK
from core.controller import Controller
from core.errors import RecordError
from core.record import (
    MAX_HAND_BYTES,
    MAX_HANDS,
    MAX_HEADER_BYTES,
    MAX_RECORD_BYTES,
    dumps_record,
    loads_record,
    record_to_dict,
)
from core.rules import MAX_PASS_CYCLE, RuleSet
from core.scoresheet import score_sheet
from core.scoring import score_hand, seat_points_range, totals_unreachable
from core.seats import MAX_SEAT_TEXT


def play_until(controller: Controller, hand_number: int) -> None:
    """Play every seat's first legal choice until hand ``hand_number`` is over."""
    while controller.hand_number < hand_number or controller.phase not in ("hand_over",):
        if controller.phase == "hand_over":
            assert controller.next_hand().ok
            continue
        seat = controller.seats_to_act[0]
        if controller.phase == "pass":
            assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
        else:
            assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok


def test_a_match_to_10000_goes_on_past_a_thousand_hands_and_reloads() -> None:
    controller = Controller()
    controller.new_match(rules={"end_score": 10_000}, seed=7, seats=["bot"] * 4)
    play_until(controller, 1_100)
    text = dumps_record(controller)
    assert len(text) <= MAX_RECORD_BYTES
    loaded = loads_record(text)
    assert loaded.hand_number == 1_100 and loaded.totals == controller.totals
    assert loaded.match is not None and loaded.match.earlier.count == 1_100 - MAX_HANDS
    assert loaded.next_hand().ok and controller.next_hand().ok
    # The next deal is the one the seed gives hand 1,101, as in the unbroken match.
    assert loaded.hand(0) == controller.hand(0)
    assert dumps_record(loads_record(dumps_record(loaded))) == dumps_record(loaded)


def test_folded_hands_keep_the_totals_and_the_numbering(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "MAX_HANDS", 3)
    controller = Controller()
    controller.new_match(rules={"end_score": 10_000}, seed=11, seats=["bot"] * 4)
    play_until(controller, 8)
    data = record_to_dict(controller)
    assert len(data["hands"]) == 3
    assert data["earlier"]["hands"] == 5
    scores = controller.hand_scores
    assert data["earlier"]["totals"] == [
        sum(s.points[seat] for s in scores[:5]) for seat in range(4)
    ]
    loaded = loads_record(dumps_record(controller))
    assert loaded.totals == controller.totals and loaded.hand_number == 8
    sheet = score_sheet(loaded)
    numbers = [line.split()[0] for line in sheet.splitlines() if line.strip()]
    assert numbers[numbers.index("1-5") : numbers.index("1-5") + 4] == ["1-5", "6", "7", "8"]
    # Folding again from a loaded match adds to what was folded before.
    play_until(loaded, 10)
    again = record_to_dict(loaded)
    assert again["earlier"]["hands"] == 7 and len(again["hands"]) == 3


def _tampered(change: dict[str, Any]) -> str:
    controller = Controller()
    controller.new_match(seed=5, seats=["bot"] * 4)
    play_until(controller, 1)
    data = json.loads(dumps_record(controller))
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"earlier": {"hands": 2, "totals": [0, 0, 0, 73]}}, "2 hands cannot give the totals"),
        ({"earlier": {"hands": 0, "totals": [0, 0, 0, 0]}}, "whole number from 1"),
        ({"earlier": {"hands": 2}}, "totals"),
        ({"earlier": [2, [0, 0, 0, 0]]}, "must be an object"),
        ({"earlier": {"hands": 1, "totals": [0, 0, 0, 26]}}, "hand 2: the pass direction"),
        ({"earlier": {"hands": 4, "totals": [26, 26, 26, 26]}}, "hand 5: the deal is not the one"),
        ({"version": 2, "earlier": {"hands": 1, "totals": [0, 0, 0, 0]}}, "version 2 record"),
    ],
)
def test_a_bad_summary_of_earlier_hands_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads_record(_tampered(change))


def test_the_size_cap_holds_the_largest_legal_record() -> None:
    controller = Controller()
    command = "engine:" + "é" * (MAX_SEAT_TEXT - len("engine:"))
    cycle = ["across"] * MAX_PASS_CYCLE
    controller.new_match(
        rules={"pass_cycle": cycle, "end_score": 10_000, "moon": "subtract"},
        seed=2**63 - 1,
        seats=[command] * 4,
    )
    play_until(controller, 1)
    assert controller.next_hand().ok
    while controller.phase in ("pass", "play"):
        seat = controller.seats_to_act[0]
        if controller.phase == "pass":
            controller.submit_pass(seat, controller.hand(seat)[:3])
        else:
            controller.play_card(seat, controller.legal_cards(seat)[0])
    while controller.can_undo:  # the longest redo list: a whole hand taken back
        assert controller.undo().ok
    data = record_to_dict(controller)
    data["earlier"] = {"hands": record.MAX_EARLIER_HANDS, "totals": [-(10**9) * 36] * 4}
    data["totals"] = [-(10**11)] * 4
    hands = data.pop("hands")
    header = len(json.dumps(data))
    assert header <= MAX_HEADER_BYTES
    finished = record_to_dict(loads_record(dumps_record(controller)))["hands"][0]
    finished["direction"] = "across"
    finished["points"] = [-36, -36, -36, -36]
    assert len(json.dumps(finished)) + len(",\n  ") <= MAX_HAND_BYTES
    assert hands  # the record always has its current hand


def _folded(rules: dict[str, Any], monkeypatch: pytest.MonkeyPatch, hands: int = 5) -> str:
    """The record of a match of ``hands`` hands whose first ones are folded into ``earlier``."""
    monkeypatch.setattr(record, "MAX_HANDS", 1)
    controller = Controller()
    controller.new_match(rules={"end_score": 10_000, **rules}, seed=11, seats=["bot"] * 4)
    play_until(controller, hands)
    text = dumps_record(controller)
    monkeypatch.setattr(record, "MAX_HANDS", MAX_HANDS)
    return text


_VARIANTS = [
    {"moon": moon, "jack_of_diamonds": jack, "no_tricks_bonus": bonus}
    for moon in ("add", "subtract", "auto")
    for jack in (False, True)
    for bonus in (False, True)
]


@pytest.mark.parametrize("rules", _VARIANTS)
def test_every_folded_match_loads_under_every_variant(
    rules: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _folded(rules, monkeypatch, hands=9)
    assert json.loads(text)["earlier"]["hands"] == 8
    assert loads_record(text).hand_number == 9


@pytest.mark.parametrize(
    ("rules", "totals", "message"),
    [
        ({}, [0, 99, 99, 99], "add up to 297, but 4 hands give out 104 in all, 52 more"),
        ({}, [50, 50, 50, 50], "add up to 200"),
        ({}, [-1, 27, 26, 52], "seat 0 scores 0 to 26 points a hand"),
        ({}, [0, 0, 0, 105], "seat 3 scores 0 to 26 points a hand, so 4 hands give it 0 to 104"),
        ({"moon": "subtract"}, [0, 0, 0, 100], "add up to 100, but 4 hands give out 104"),
        ({"jack_of_diamonds": True}, [0, 0, 0, 104], "4 hands give out 64 in all"),
        ({"no_tricks_bonus": True}, [0, 0, 0, 93], "5 less for each seat that takes no trick"),
        (
            {"end_score": 100},
            [0, 104, 104, 104],
            "end the match after hand 4, yet more hands follow",
        ),
    ],
)
def test_totals_no_play_can_reach_are_refused(
    rules: dict[str, Any], totals: list[int], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(_folded(rules, monkeypatch))
    data["earlier"] = {"hands": 4, "totals": totals}
    del data["totals"]
    with pytest.raises(RecordError, match=message):
        loads_record(json.dumps(data))


@pytest.mark.parametrize(
    ("rules", "totals"),
    [
        ({}, [0, 104, 78, 78]),  # three moons and a plain hand
        ({"moon": "subtract", "jack_of_diamonds": True}, [-144, 0, 0, 0]),  # four moons, J♦
        ({"no_tricks_bonus": True}, [-20, -20, 60, 64]),  # two seats without a trick each hand
        ({"moon": "auto"}, [-26, 26, 26, 26]),  # one moon added, one subtracted, two plain
    ],
)
def test_totals_at_the_edge_of_what_play_can_reach_load(
    rules: dict[str, Any], totals: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(_folded(rules, monkeypatch))
    data["earlier"] = {"hands": 4, "totals": totals}
    del data["totals"]
    assert loads_record(json.dumps(data)).match is not None


@pytest.mark.parametrize("rules", _VARIANTS)
def test_the_bounds_per_hand_hold_every_score(rules: dict[str, Any]) -> None:
    """Random finished hands, a third of them moons, score within the bounds records check."""
    ruleset = RuleSet(**rules)
    least, most = seat_points_range(ruleset)
    rng = random.Random(3)
    seen = set()
    for _ in range(3_000):
        deck = list(range(52))
        rng.shuffle(deck)
        winners = rng.sample(range(4), rng.randint(1, 4))
        shooter = rng.randrange(4) if rng.random() < 0.3 else None
        taken, won = [0] * 4, [0] * 4
        for trick in range(13):
            mask = sum(1 << card for card in deck[trick * 4 : trick * 4 + 4])
            point_trick = shooter is not None and mask & POINT_CARDS_MASK
            winner = shooter if point_trick else rng.choice(winners)
            assert winner is not None
            taken[winner] |= mask
            won[winner] += 1
        points = score_hand(ruleset, taken, won, [rng.randint(0, 120) for _ in range(4)]).points
        seen.update(points)
        assert totals_unreachable(ruleset, 1, points) is None, points
    assert min(seen) == least and max(seen) == most
