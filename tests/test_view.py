"""Views: JSON round trips of every observation, inconsistent views refused, hands scored."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core import events as ev
from core.cards import mask_of, parse_cards
from core.controller import Controller
from core.match import HandRecord, MatchState
from core.rules import RuleSet
from core.scoring import score_hand
from core.view import (
    ViewError,
    observation_from_view,
    score_finished_hand,
    view_from_observation,
)

RULE_SETS = [
    RuleSet(),
    RuleSet(moon="subtract", jack_of_diamonds=True, no_tricks_bonus=True),
    RuleSet(
        first_lead="any_club",
        no_points_first_trick=False,
        must_break_hearts=False,
        queen_breaks_hearts=False,
        pass_cycle=("across", "hold", "right"),
    ),
]


def _random_step(controller: Controller, rng: random.Random) -> list[ev.Event]:
    """Make every seat that must act act at random; return the events."""
    events: list[ev.Event] = []
    if controller.phase == "pass":
        for seat in controller.seats_to_act:
            result = controller.submit_pass(seat, rng.sample(controller.hand(seat), 3))
            assert result.ok, result.error
            events.extend(result.events)
    else:
        seat = controller.seats_to_act[0]
        result = controller.play_card(seat, rng.choice(controller.legal_cards(seat)))
        assert result.ok, result.error
        events.extend(result.events)
    return events


def _assert_round_trip(controller: Controller) -> None:
    for seat in range(4):
        observation = controller.observation(seat)
        wire = json.loads(json.dumps(view_from_observation(observation)))
        assert observation_from_view(wire) == observation


@pytest.mark.parametrize("rules", RULE_SETS, ids=["standard", "subtract-jd", "lenient"])
def test_every_observation_of_random_games_round_trips(rules: RuleSet) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        controller = Controller()
        controller.new_match(rules=rules, seed=seed, seats=["bot"] * 4)
        for _hand in range(4):
            while controller.phase in ("pass", "play"):
                _assert_round_trip(controller)
                _random_step(controller, rng)
            _assert_round_trip(controller)
            if controller.phase == "match_over":
                break
            assert controller.next_hand().ok


@pytest.mark.parametrize("rules", RULE_SETS, ids=["standard", "subtract-jd", "lenient"])
def test_score_matches_the_controller(rules: RuleSet) -> None:
    scored = 0
    for seed in range(6):
        rng = random.Random(100 + seed)
        controller = Controller()
        controller.new_match(rules=rules, seed=seed, seats=["bot"] * 4)
        while controller.phase != "match_over" and scored < 20:
            for event in _random_step(controller, rng):
                if isinstance(event, ev.HandScored):
                    view = view_from_observation(controller.observation(0))
                    before = [t - p for t, p in zip(event.totals, event.points, strict=True)]
                    data = {"tricks": view["tricks"], "rules": rules.to_dict(), "scores": before}
                    assert score_finished_hand(data).points == event.points
                    scored += 1
            if controller.phase == "hand_over":
                controller.next_hand()
    assert scored >= 12


# -- the moon -----------------------------------------------------------------------------


def _moon_controller(rules: RuleSet) -> tuple[Controller, tuple[int, ...]]:
    """Seat 0 holds every club, so it takes every trick and shoots the moon."""
    deal = tuple(
        mask_of(parse_cards(hand))
        for hand in (
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        )
    )
    match = MatchState(rules, 1, ("bot",) * 4, [HandRecord(deal, "hold")])  # type: ignore[arg-type]
    controller = Controller.from_match(match)
    points: tuple[int, ...] = ()
    while controller.phase == "play":
        seat = controller.seats_to_act[0]
        result = controller.play_card(seat, controller.legal_cards(seat)[0])
        for event in result.events:
            if isinstance(event, ev.HandScored):
                points = event.points
    return controller, points


@pytest.mark.parametrize(
    "rules",
    [RuleSet(moon="add"), RuleSet(moon="subtract"), RuleSet(jack_of_diamonds=True)],
    ids=["add", "subtract", "jack"],
)
def test_score_of_a_moon_matches_the_controller(rules: RuleSet) -> None:
    controller, points = _moon_controller(rules)
    tricks = view_from_observation(controller.observation(2))["tricks"]
    assert score_finished_hand({"tricks": tricks, "rules": rules.to_dict()}).points == points
    assert points[1] == points[2] == points[3] == (26 if rules.moon == "add" else 0)


def test_score_of_a_moon_in_auto_mode_uses_the_totals() -> None:
    rules = RuleSet(moon="auto")
    controller, _points = _moon_controller(rules)
    tricks = view_from_observation(controller.observation(0))["tricks"]
    taken = [(1 << 52) - 1, 0, 0, 0]
    for totals in ([0, 0, 0, 0], [90, 80, 85, 70], [90, 60, 85, 70]):
        expected = score_hand(rules, taken, [13, 0, 0, 0], totals).points
        data = {"tricks": tricks, "rules": {"moon": "auto"}, "scores": totals}
        assert score_finished_hand(data).points == expected
    assert score_finished_hand(
        {"tricks": tricks, "rules": {"moon": "auto"}, "scores": [90, 60, 85, 70]}
    ).points == (-26, 0, 0, 0)


# -- inconsistent views ---------------------------------------------------------------------

HAND = "2C 3C 4C 5D 6D 7D 8S 9S TS JH QH KH AH"


def _view(held: str, played: list[tuple[int, str]], /, **extra: Any) -> dict[str, Any]:
    """Return a view of seat 0 on a hold hand; ``extra`` fields are added or replace these."""
    view: dict[str, Any] = {
        "seat": 0,
        "hand": held.split(),
        "direction": "hold",
        "tricks": [{"leader": leader, "cards": cards.split()} for leader, cards in played],
    }
    view.update(extra)
    return view


def _without(hand: str, *cards: str) -> str:
    return " ".join(card for card in hand.split() if card not in cards)


def test_a_consistent_hand_made_view_is_accepted() -> None:
    view = _view(_without(HAND, "2C"), [(0, "2C AC KC QC"), (1, "")])
    observation = observation_from_view(view)
    assert observation.to_play == 1
    assert observation_from_view(view_from_observation(observation)) == observation


PASSING = {"direction": "left", "passed": ["AH", "KH", "QH"], "received": ["AS", "KS", "QS"]}
AFTER_PASS = "2C 3C 4C 5D 6D 7D 8S 9S TS JH AS KS QS"

INCONSISTENT: list[tuple[str, dict[str, Any], str]] = [
    ("not an object", [], "expected a JSON object, got an empty list"),  # type: ignore[list-item]
    ("unknown field", _view(HAND, [(0, "")], recieved=[]), "unknown field 'recieved'"),
    ("missing seat", {"hand": [], "direction": "hold"}, "missing field 'seat'"),
    ("bad seat", _view(HAND, [(0, "")], seat=4), "seat must be a whole number from 0 to 3"),
    ("bool seat", _view(HAND, [(0, "")], seat=True), "seat must be a whole number"),
    ("bad card", _view("2C 3C ZZ", [(0, "")]), "hand: not a card: 'ZZ'"),
    ("card not text", _view(HAND, [(0, "")], hand=[1, 2]), "hand: a card is a string"),
    ("hand not list", _view(HAND, [(0, "")], hand="2C 3C"), "hand must be a list of cards"),
    ("duplicate in hand", _view("2C 2C 3C", [(0, "")]), "hand: 2C is listed twice"),
    ("bad direction", _view(HAND, [(0, "")], direction="up"), "direction must be left, right"),
    (
        "direction not in cycle",
        _view(HAND, [(0, "")], rules={"pass_cycle": ["left"]}),
        "direction 'hold' is not in the rules' pass_cycle",
    ),
    ("bad rules", _view(HAND, [(0, "")], rules={"moon": "up"}), "rules: moon must be one of"),
    ("bad rule type", _view(HAND, [(0, "")], rules={"pass_cycle": [[1]]}), "rules: "),
    ("bad scores", _view(HAND, [(0, "")], scores=[1, 2, 3]), "scores must list the four"),
    ("float score", _view(HAND, [(0, "")], scores=[1.5, 0, 0, 0]), "a score must be a whole"),
    ("wrong hand size", _view(_without(HAND, "AH"), [(0, "")]), "must hold 13, got 12"),
    (
        "held and played",
        _view(HAND, [(0, "2C AC KC QC"), (1, "")]),
        "2C is both held and played",
    ),
    (
        "played twice",
        _view(_without(HAND, "2C"), [(0, "2C AC KC QC"), (1, "AC")]),
        "AC is played twice (tricks 1 and 2)",
    ),
    (
        "open trick not last",
        _view(_without(HAND, "2C"), [(0, "2C AC KC"), (1, "")]),
        "trick 1 has 3 cards but is not the last",
    ),
    (
        "complete last trick",
        _view(_without(HAND, "2C"), [(0, "2C AC KC QC")]),
        "led by its winner seat 1, with no cards yet",
    ),
    (
        "wrong leader",
        _view(_without(HAND, "2C"), [(0, "2C AC KC QC"), (2, "")]),
        "trick 2 is led by seat 2, but seat 1 won trick 1",
    ),
    ("no current trick", _view(HAND, []), "tricks must include the current trick"),
    (
        "observer holds the 2C",
        _view(HAND, [(1, "")]),
        "seat 0 held the 2C when play began, so it leads the first trick, not seat 1",
    ),
    (
        "observer leads without the 2C",
        _view(_without(HAND, "2C") + " 2S", [(0, "")]),
        "seat 0 leads the first trick, so it must have held the 2C",
    ),
    (
        "first lead not the 2C",
        _view(_without(HAND, "2C") + " 2S", [(1, "AC")]),
        "trick 1: seat 1 cannot play AC: the first trick must be led with the 2C",
    ),
    (
        "first lead not a club",
        _view(_without(HAND, "2C") + " 2S", [(1, "AD")], rules={"first_lead": "any_club"}),
        "the first trick must be led with a club",
    ),
    (
        "another seat plays the 2C",
        _view(_without(HAND, "2C") + " 2S", [(1, "AC 2C")], rules={"first_lead": "any_club"}),
        "trick 1: seat 2 cannot play 2C: seat 1 leads the first trick, so it holds the 2C",
    ),
    (
        "observer does not follow suit",
        _view(_without(HAND, "2C", "8S"), [(0, "2C AC KC QC"), (1, "2D 3D 4D 8S"), (3, "")]),
        "trick 2: seat 0 cannot play 8S: must follow suit: play a diamond",
    ),
    (
        "observer leads a heart before hearts are broken",
        _view("3C 4C 5D 6D 7D 8S 9S TS QH KH AH", [(1, "2C 5C 6C AC"), (0, "JH")]),
        "trick 2: seat 0 cannot play JH: hearts are not broken",
    ),
    (
        "observer plays a point on the first trick",
        _view("5D 6D 7D 8S 9S TS QH KH AH 2S 3S 4S", [(1, "2C 3C 4C JH"), (3, "")]),
        "trick 1: seat 0 cannot play JH: no points on the first trick",
    ),
    (
        "a seat shown void plays the suit",
        _view(_without(HAND, "2C"), [(0, "2C AC 2D QC"), (1, "JC TC")]),
        "trick 2: seat 2 cannot play TC: seat 2 showed it had no clubs in trick 1",
    ),
    (
        "a seat that led hearts unbroken plays a club",
        _view(
            _without(HAND, "2C", "JH", "3C"),
            [(0, "2C AC KC QC"), (1, "2H 3H 4H JH"), (0, "3C 5C")],
        ),
        "seat 1 led a heart in trick 2 before hearts were broken, so it held only hearts",
    ),
    (
        "a seat that played a point on trick one plays a diamond",
        _view(
            _without(HAND, "2C", "5D"),
            [(0, "2C 5H KC QC"), (2, "2D 3D 5D 4D"), (0, "")],
        ),
        "seat 1 played a point card on the first trick, so it held only hearts and the QS",
    ),
    (
        "a seat cannot have enough cards",
        _view(_without(HAND, "2C", "JH"), [(0, "2C AC KC QC"), (1, "2H 3H 4H JH"), (0, "")]),
        "seat 1 must still hold 11 cards, but only 6 unseen cards can be in its hand",
    ),
    (
        "nobody can hold the unseen spades",
        _view(
            "3D 4D 5D 6D 7D 3S 4S 5S 6S 7S",
            [(0, "2C 3C 4C 5C"), (3, "6C AC 8C 9C"), (0, "2S 8D 9D TD"), (0, "")],
        ),
        "no seat can hold the unseen 8S: seat 1 showed it had no spades in trick 3",
    ),
    # Passing.
    (
        "passed on a hold hand",
        _view(HAND, [(0, "")], passed=["AH", "KH", "QH"]),
        "no cards are passed on a hold hand",
    ),
    (
        "received without passed",
        _view(HAND, [], direction="left", received=["AH", "KH", "QH"]),
        "received without passed",
    ),
    (
        "two passed cards",
        _view(HAND, [], direction="left", passed=["AH", "KH"]),
        "passed must list exactly 3 cards, got 2",
    ),
    (
        "tricks before the exchange",
        _view(HAND, [(0, "")], direction="left", passed=["AH", "KH", "QH"]),
        "no card is played before the passes are exchanged",
    ),
    (
        "short hand before the exchange",
        _view(_without(HAND, "AH"), [], direction="left"),
        "before the exchange the hand holds 13 cards, got 12",
    ),
    (
        "passed card not held before the exchange",
        _view(HAND, [], direction="left", passed=["AS", "KH", "QH"]),
        "passed card AS is not in the hand",
    ),
    (
        "passed card still held after the exchange",
        _view(_without(AFTER_PASS, "JH") + " AH", [(0, "")], **PASSING),
        "passed card AH went to seat 1, but it is still in the hand",
    ),
    (
        "passed and received",
        _view(AFTER_PASS, [(0, "")], **PASSING | {"received": ["AS", "KS", "AH"]}),
        "AH is both passed and received",
    ),
    (
        "received card missing",
        _view(_without(AFTER_PASS, "AS") + " 2S", [(0, "")], **PASSING),
        "received card AS is neither held nor played by seat 0",
    ),
    (
        "passed card played by the wrong seat",
        _view(_without(AFTER_PASS, "2C"), [(0, "2C 5C 6C QH"), (2, "")], **PASSING),
        "trick 1: seat 3 cannot play QH: seat 0 passed it to seat 1",
    ),
    (
        "passed the 2C but still leads",
        _view(
            _without(AFTER_PASS, "2C") + " AH",
            [(0, "")],
            **PASSING | {"passed": ["2C", "KH", "QH"]},
        ),
        "seat 0 passed the 2C to seat 1, so seat 1 leads the first trick, not seat 0",
    ),
    ("tricks not a list", _view(HAND, [], tricks={}), "tricks must be a list"),
    ("trick not an object", _view(HAND, [], tricks=[3]), "trick 1 must be an object"),
    ("trick missing leader", _view(HAND, [], tricks=[{"cards": []}]), "missing field 'leader'"),
    (
        "trick of five cards",
        _view(HAND, [], tricks=[{"leader": 0, "cards": ["3S", "4S", "5S", "6S", "7S"]}]),
        "trick 1 lists 5 cards; a trick has at most 4",
    ),
]


@pytest.mark.parametrize(
    ("view", "message"),
    [(view, message) for _name, view, message in INCONSISTENT],
    ids=[name for name, _view, _message in INCONSISTENT],
)
def test_an_inconsistent_view_is_refused_with_the_reason(view: Any, message: str) -> None:
    with pytest.raises(ViewError) as caught:
        observation_from_view(view)
    assert message in str(caught.value)


def test_the_hand_made_passing_views_are_consistent_before_mutation() -> None:
    assert observation_from_view(_view(AFTER_PASS, [(0, "")], **PASSING)).received is not None
    waiting = observation_from_view(_view(HAND, [], direction="left", passed=["QH", "AH", "KH"]))
    assert waiting.passed == tuple(sorted(parse_cards("AH KH QH")))
    assert observation_from_view(_view(HAND, [], direction="left")).must_pass


# -- scoring errors -------------------------------------------------------------------------


def _finished_tricks() -> list[dict[str, Any]]:
    controller, _points = _moon_controller(RuleSet())
    return view_from_observation(controller.observation(0))["tricks"]


def test_score_refuses_an_unfinished_hand() -> None:
    with pytest.raises(ViewError, match="a finished hand has 13 tricks, got 12"):
        score_finished_hand({"tricks": _finished_tricks()[:12]})


def test_score_refuses_an_illegal_play() -> None:
    tricks = _finished_tricks()
    assert tricks[0]["cards"][:2] == ["2C", "2D"] and tricks[1]["cards"][0] == "3C"
    tricks[0]["cards"][0], tricks[1]["cards"][0] = "3C", "2C"
    with pytest.raises(ViewError, match="seat 0 cannot play 3C: the first trick must be led"):
        score_finished_hand({"tricks": tricks})


def test_score_refuses_a_first_trick_not_led_by_the_two_of_clubs_holder() -> None:
    tricks = _finished_tricks()
    tricks[0]["cards"][:2] = ["2D", "2C"]
    with pytest.raises(ViewError, match="seat 1 held the 2C, so it leads the first trick, not"):
        score_finished_hand({"tricks": tricks})


def test_score_refuses_a_broken_chain_of_leaders() -> None:
    tricks = _finished_tricks()
    tricks[5]["leader"] = 2
    with pytest.raises(ViewError, match="trick 6 is led by seat 2, but seat 0 won trick 5"):
        score_finished_hand({"tricks": tricks})


def test_score_refuses_unknown_fields() -> None:
    with pytest.raises(ViewError, match="unknown field 'seat'"):
        score_finished_hand({"tricks": _finished_tricks(), "seat": 0})
