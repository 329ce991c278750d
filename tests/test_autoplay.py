"""The one bots-play loop: a match through its controller, a bare hand, the reliability checks."""

from __future__ import annotations

import pytest

from ai.autoplay import BotError, play_bots, play_hand_bots
from ai.basic import FirstLegalBot
from ai.registry import make_bot
from ai.tournament import play_hand
from bench.reliability import InvariantError, play_checked_hand, play_checked_hands
from core.controller import Controller
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet


class Cheater(FirstLegalBot):
    """Plays the ace of hearts whatever the rules say."""

    def choose_play(self, observation: Observation, budget: object = None) -> int:
        return 51


def test_a_match_hand_and_a_bare_hand_are_played_alike() -> None:
    controller = Controller()
    controller.new_match(seed=7, seats=["bot"] * 4)
    match_bots = {seat: make_bot("easy", seat) for seat in range(4)}
    moved: list[int] = []
    play_bots(controller, match_bots, lambda seat, ms: moved.append(seat))
    assert controller.phase == "hand_over" and len(moved) == 4 + 52

    rules = controller.rules
    hand = HandState.new(rules, rules.direction_of_hand(0), controller_deal(seed=7))
    events = play_hand_bots(hand, {seat: make_bot("easy", seat) for seat in range(4)})
    assert hand.phase == "done" and events[-1].kind == "trick_won"
    assert hand.score((0, 0, 0, 0)) == controller.hand_scores[-1]


def test_the_tournament_times_every_decision_of_every_seat() -> None:
    rules = RuleSet()
    hand = HandState.new(rules, "left", controller_deal())
    outcome = play_hand(rules, "left", hand.hands, [FirstLegalBot() for _ in range(4)])
    assert [len(times) for times in outcome.decision_ms] == [14, 14, 14, 14]
    assert all(ms >= 0 for times in outcome.decision_ms for ms in times)


def controller_deal(seed: int = 3) -> tuple[int, int, int, int]:
    """Return the first deal of the match with this seed."""
    return deal_for(seed, 0)


def test_a_bot_breaking_the_rules_stops_every_loop() -> None:
    cheaters = {seat: Cheater() for seat in range(4)}
    controller = Controller()
    controller.new_match(seed=1, seats=["bot"] * 4, rules={"pass_cycle": ["hold"]})
    with pytest.raises(BotError, match="seat 0 chose an illegal move"):
        play_bots(controller, cheaters)
    hand = HandState.new(RuleSet(), "hold", controller_deal())
    with pytest.raises(BotError, match="illegal move"):
        play_hand_bots(hand, cheaters)
    controller.new_match(seed=1, seats=["bot"] * 4, rules={"pass_cycle": ["hold"]})
    with pytest.raises(InvariantError, match="illegal move"):
        play_checked_hand(controller, list(cheaters.values()))


def test_the_reliability_check_counts_and_checks_every_move() -> None:
    controller = Controller()
    controller.new_match(seed=2, seats=["bot"] * 4)
    assert play_checked_hand(controller, [FirstLegalBot() for _ in range(4)]) == 4 + 52
    # Three hands (left, right, across): four passes and 52 plays each.
    assert play_checked_hands(["first", "easy", "random", "first"], 3, seed=1) == (3, 3 * 56)
