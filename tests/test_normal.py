"""The normal bot: legal everywhere, sensible in clear-cut positions, moon states, gates."""

from __future__ import annotations

import random

import pytest
from positions import play_randomly

from ai.knowledge import read_knowledge
from ai.moon import MoonState, moon_states, moon_strength
from ai.normal import NormalBot
from ai.normal_params import MOON_GATES, STYLES, NormalParams
from core.cards import card_text, mask_of, parse_cards
from core.controller import Controller
from core.observation import Observation, TrickView
from core.rules import RuleSet


def view(
    hand: str,
    tricks: list[tuple[int, str]],
    *,
    seat: int = 0,
    direction: str = "hold",
    scores: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Observation:
    return Observation(
        seat=seat,
        rules=RuleSet(),
        direction=direction,
        hand=mask_of(parse_cards(hand)),
        passed=None,
        received=None,
        tricks=tuple(TrickView(leader, tuple(parse_cards(cards))) for leader, cards in tricks),
        scores=scores,
    )


@pytest.mark.parametrize("style", sorted(STYLES))
def test_plays_only_legal_cards_from_random_positions(style: str) -> None:
    bot = NormalBot(1, style=style)
    for seed in range(40):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), seed % 60)
        for seat in controller.seats_to_act:
            observation = controller.observation(seat)
            if controller.phase == "pass":
                cards = bot.choose_pass(observation)
                assert len(set(cards)) == 3 and set(cards) <= set(controller.hand(seat))
            elif controller.phase == "play":
                assert bot.choose_play(observation) in controller.legal_cards(seat)
                assert bot.last_decision["chosen"]


def test_passes_an_unguarded_queen_and_high_hearts() -> None:
    observation = view("QS 3S 4C 5C 6C 7C 8D 9D TD AH KH 2H 3H", [], direction="left")
    passed = {card_text(card) for card in NormalBot(0).choose_pass(observation)}
    assert passed == {"QS", "AH", "KH"}


def test_keeps_a_well_guarded_queen() -> None:
    observation = view("QS 2S 3S 4S 5S 6C 7C 8D 9D TD 2H 3H 4H", [], direction="left")
    passed = {card_text(card) for card in NormalBot(0).choose_pass(observation)}
    assert "QS" not in passed


def test_a_moon_hand_passes_low_cards() -> None:
    hand = "AH KH QH JH TH 9H AS KS QS AC KC AD 2C"
    observation = view(hand, [], direction="left")
    knowledge = read_knowledge(observation)
    assert moon_strength(observation.hand, knowledge.unseen) >= NormalParams().moon_pass
    passed = {card_text(card) for card in NormalBot(0).choose_pass(observation)}
    assert "2C" in passed and not passed & {"AH", "KH", "QH"}


def test_dumps_the_queen_when_void() -> None:
    tricks = [(0, "2C 3C 4C 5C"), (0, "KC")]
    assert card_text(NormalBot(0).choose_play(view("QS 2H 9D", tricks, seat=1))) == "QS"


def test_ducks_under_the_winning_card() -> None:
    tricks = [(1, "2C 3C 4C 5C"), (1, "9D TD")]
    observation = view("8D JD AD 3S", tricks, seat=3)
    assert card_text(NormalBot(0).choose_play(observation)) == "8D"


def test_moon_states_follow_who_took_points() -> None:
    observation = view(
        "4C 5C 6C 7C 8C 9C TC JC QC KC",
        [(0, "AC 2H 3H 3C"), (0, "")],
        seat=1,
    )
    knowledge = read_knowledge(observation)
    states = moon_states(knowledge, observation.hand, NormalParams())
    assert states[0] == MoonState.CONSIDERING
    assert states[1] == states[2] == states[3] == MoonState.ABORTED
    defended = moon_states(knowledge, observation.hand, NormalParams(moon_defend_points=2))
    assert defended[0] == MoonState.COMMITTED


def test_moon_gates_can_be_overridden_by_name() -> None:
    params = NormalParams().with_gates({"consider": 0.1, "moon_commit": 0.2, "unknown": 3})
    assert params.moon_consider == 0.1 and params.moon_commit == 0.2
    assert "moon_consider" in MOON_GATES and "moon_defend_points" in MOON_GATES
    assert NormalParams().with_gates({"defend_points": 4.0}).moon_defend_points == 4
