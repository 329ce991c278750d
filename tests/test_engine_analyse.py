"""The engine's ``analyse`` request: the value of every legal card or candidate pass."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from ai.basic import FirstLegalBot
from ai.hard import pass_candidates
from ai.review import analyse
from core.cards import card_text, mask_texts
from core.controller import Controller
from core.view import view_from_observation
from game.engine.protocol import handle_line, handle_request

BOT = FirstLegalBot()


def _ask(view: dict[str, Any], **extra: Any) -> dict[str, Any]:
    reply = handle_request({"type": "analyse", **view, **extra}, BOT)
    assert not reply.quit
    return reply.data


def _controller(pass_cycle: tuple[str, ...] = ("left",)) -> Controller:
    controller = Controller()
    assert controller.new_match(rules={"pass_cycle": list(pass_cycle)}, seed=5).ok
    return controller


def _to_play(controller: Controller, plays: int) -> Controller:
    """Pass the first three cards for everyone, then play ``plays`` lowest legal cards."""
    for seat in controller.seats_to_act if controller.phase == "pass" else []:
        assert controller.submit_pass(seat, controller.hand(seat)[:3]).ok
    for _ in range(plays):
        seat = controller.seats_to_act[0]
        assert controller.play_card(seat, controller.legal_cards(seat)[0]).ok
    return controller


def test_a_play_is_valued_card_by_card_as_the_review_values_it() -> None:
    controller = _to_play(_controller(), 6)
    seat = controller.seats_to_act[0]
    observation = controller.observation(seat)
    reply = _ask(view_from_observation(observation), id=4, samples=25, seed=9)
    assert list(reply) == ["id", "kind", "values", "best", "samples"]
    assert reply["kind"] == "play" and reply["samples"] == 25
    assert list(reply["values"]) == mask_texts(observation.legal_mask())
    assert reply["values"][reply["best"]] == min(reply["values"].values())
    analysis = analyse(observation, 25, 9)
    assert list(reply["values"].values()) == [round(cost, 3) for cost in analysis.costs]
    assert reply == _ask(view_from_observation(observation), id=4, samples=25, seed=9)


def test_the_passes_include_the_one_asked_for() -> None:
    controller = _controller()
    observation = controller.observation(1)
    view = view_from_observation(observation)
    candidates = [
        [card_text(card) for card in cards] for cards in pass_candidates(observation.hand)
    ]
    own = next(
        list(cards)
        for cards in itertools.combinations(mask_texts(observation.hand), 3)
        if sorted(cards) not in [sorted(candidate) for candidate in candidates]
    )
    reply = _ask(view, samples=20, include=own)
    assert list(reply) == ["kind", "passes", "best", "samples"]
    assert reply["kind"] == "pass" and reply["samples"] == 20
    sets = [entry["cards"] for entry in reply["passes"]]
    assert sorted(own) in [sorted(cards) for cards in sets]
    assert len(sets) == len({tuple(cards) for cards in sets}) == len(candidates) + 1
    values = [entry["value"] for entry in reply["passes"]]
    assert reply["best"] == sets[values.index(min(values))]
    plain = _ask(view, samples=20)
    # The same deals with or without the extra set.
    assert plain["passes"] == reply["passes"][: len(candidates)]


def test_a_forced_card_is_valued_too() -> None:
    controller = _controller(("hold",))
    leader = controller.seats_to_act[0]
    reply = _ask(view_from_observation(controller.observation(leader)), samples=10)
    assert list(reply["values"]) == ["2C"] and reply["best"] == "2C"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"samples": 0}, "samples must be a whole number from 1 to 10000, got 0"),
        ({"samples": 10_001}, "samples must be a whole number from 1 to 10000"),
        ({"samples": True}, "samples must be a whole number from 1 to 10000, got true"),
        ({"samples": 2.5}, "samples must be a whole number from 1 to 10000"),
        ({"seed": -1}, "seed must be a whole number from 0 to"),
        ({"seed": "1"}, "seed must be a whole number from 0 to"),
        ({"include": ["2C", "3C"]}, "include must list exactly 3 cards, got 2"),
        ({"include": "2C 3C 4C"}, "include must be a list of cards"),
        ({"include": ["2C", "2C", "3C"]}, "include: 2C is listed twice"),
        ({"depth": 3}, "unknown field 'depth' in analyse"),
    ],
)
def test_bad_options_are_refused_with_the_reason(change: dict[str, Any], message: str) -> None:
    view = view_from_observation(_controller().observation(0))
    reply = _ask(view, id="x", **change)
    assert reply["id"] == "x" and message in reply["error"]


def test_requests_without_a_decision_to_value_say_why() -> None:
    controller = _controller()
    hand = controller.hand(0)
    missing = next(card for card in range(52) if card not in hand)
    view = view_from_observation(controller.observation(0))
    include = [card_text(hand[0]), card_text(hand[1]), card_text(missing)]
    assert (
        _ask(view, include=include)["error"] == f"include: {card_text(missing)} is not in the hand"
    )
    assert controller.submit_pass(0, hand[:3]).ok
    waiting = view_from_observation(controller.observation(0))
    assert _ask(waiting)["error"] == "seat 0 has passed and waits for the exchange"
    playing = _to_play(controller, 1)
    seat = playing.seats_to_act[0]
    view = view_from_observation(playing.observation(seat))
    own = mask_texts(playing.observation(seat).hand)[:3]
    assert _ask(view, include=own)["error"] == f"include is for a pass, and seat {seat} plays now"
    other = (seat + 1) % 4
    assert _ask(view_from_observation(playing.observation(other)))["error"] == (
        f"it is seat {seat}'s turn, not seat {other}'s"
    )
    hold = _controller(("hold",))
    view = view_from_observation(hold.observation(0))
    assert _ask(view, include=own)["error"] == (
        "include is for a pass, and no cards are passed on a hold hand"
    )


def test_an_analyse_line_gets_one_reply_line() -> None:
    view = view_from_observation(_controller().observation(2))
    line = json.dumps({"type": "analyse", "id": 1, **view, "samples": 5})
    reply = handle_line(line, BOT)
    assert reply is not None and reply.data["id"] == 1 and reply.data["samples"] == 5
    unknown = handle_line('{"type": "analyze"}', BOT)
    assert unknown is not None
    assert "use legal, play, pass, analyse, score or quit" in unknown.data["error"]
