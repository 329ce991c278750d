"""The OpenSpiel ISMCTS yardstick seat, and the strength benchmark that runs it.

The key check: at random points of random games, the OpenSpiel state rebuilt from one seat's
observation looks exactly like the real game to that seat (same information state, same legal
cards), so ISMCTS, which resamples hidden cards from that information, sees the true position.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ai.bot import Budget
from ai.easy import EasyBot
from ai.ismcts import (
    IsmctsBot,
    Reconstruction,
    ReconstructionError,
    from_openspiel,
    legal_cards_of,
    openspiel_game,
    openspiel_state,
    reconstruct,
    to_openspiel,
    verify,
)
from ai.tournament import play_hand
from bench import strength
from core.cards import card_text, cards_of, has_card
from core.controller import Controller
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet

needs_openspiel = pytest.mark.skipif(
    importlib.util.find_spec("pyspiel") is None, reason="OpenSpiel (open-spiel) is not installed"
)

VARIANTS = (
    RuleSet(),
    RuleSet(first_lead="any_club", queen_breaks_hearts=False, jack_of_diamonds=True),
    RuleSet(no_points_first_trick=False, must_break_hearts=False, no_tricks_bonus=True),
)
DIRECTIONS = ("left", "right", "across", "hold")


def _true_state(controller: Controller) -> Any:
    """Return the real hand in progress as an OpenSpiel state (every card where it really is)."""
    match = controller.match
    assert match is not None
    record = match.hands[-1]
    passes = ()
    if record.direction != "hold":
        passes = tuple(controller.pass_choice(seat) or () for seat in range(4))
    plays = tuple(card for trick in controller.tricks for card in trick.cards)
    return openspiel_state(
        controller.rules, Reconstruction(record.direction, record.deal, passes, plays)
    )


def _random_positions(
    rules: RuleSet, seed: int, hands: int, rng: random.Random
) -> Iterator[tuple[Controller, int]]:
    """Play ``hands`` hands of a match at random; yield the controller at about 1 play in 3."""
    controller = Controller()
    controller.new_match(rules, seed=seed, seats=["bot"] * 4)
    for _ in range(hands):
        while controller.phase == "pass":
            seat = controller.seats_to_act[0]
            assert controller.submit_pass(seat, rng.sample(controller.hand(seat), 3)).ok
        while controller.phase == "play":
            seat = controller.seats_to_act[0]
            if rng.random() < 0.35:
                yield controller, seat
            assert controller.play_card(seat, rng.choice(controller.legal_cards(seat))).ok
        if controller.phase != "hand_over":
            return
        controller.next_hand()


@needs_openspiel
def test_card_mapping_matches_openspiel_text() -> None:
    state = openspiel_game(RuleSet()).new_initial_state()
    state.apply_action(0)
    assert sorted(to_openspiel(card) for card in range(52)) == list(range(52))
    for card in range(52):
        assert from_openspiel(to_openspiel(card)) == card
        assert state.action_to_string(to_openspiel(card)) == card_text(card)


@needs_openspiel
@pytest.mark.parametrize("rules", VARIANTS, ids=["standard", "any_club_jack", "relaxed"])
def test_the_rebuilt_state_looks_like_the_real_game_to_the_observer(rules: RuleSet) -> None:
    rng = random.Random(7)
    checked: Counter[str] = Counter()
    for seed in range(6):
        for controller, seat in _random_positions(rules, seed, 4, rng):
            observation = controller.observation(seat)
            reconstruction = reconstruct(observation, rng)
            verify(observation, reconstruction)
            match = controller.match
            assert match is not None
            assert reconstruction.dealt[seat] == match.hands[-1].deal[seat]
            state = openspiel_state(rules, reconstruction)
            assert state.current_player() == seat
            assert legal_cards_of(state) == observation.legal_mask()
            truth = _true_state(controller)
            assert state.information_state_string(seat) == truth.information_state_string(seat)
            checked[observation.direction] += 1
            if reconstruction.dealt != match.hands[-1].deal:
                checked["hidden cards differ from the truth"] += 1
    assert all(checked[direction] >= 20 for direction in DIRECTIONS), checked
    assert checked["hidden cards differ from the truth"] >= 50, checked


@needs_openspiel
def test_a_changed_reconstruction_is_refused() -> None:
    rng = random.Random(3)
    controller, seat = next(_random_positions(RuleSet(), 1, 1, rng))
    observation = controller.observation(seat)
    reconstruction = reconstruct(observation, rng)
    # Swap one card of the observer's dealt hand with one of the next seat's.
    dealt = list(reconstruction.dealt)
    other = (seat + 1) % 4
    mine, theirs = cards_of(dealt[seat])[0], cards_of(dealt[other])[0]
    dealt[seat] ^= 1 << mine | 1 << theirs
    dealt[other] ^= 1 << mine | 1 << theirs
    changed = dataclasses.replace(reconstruction, dealt=(dealt[0], dealt[1], dealt[2], dealt[3]))
    with pytest.raises(ReconstructionError):
        verify(observation, changed)


class _Recording:
    """Wraps an ISMCTS bot and counts which engine made each of its plays."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.last_decision: dict[str, Any] = {}
        self.engines: Counter[str] = Counter()
        self.passes: Counter[str] = Counter()

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        cards = self.bot.choose_pass(observation, budget)
        self.passes[observation.direction] += 1
        return cards

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        card = self.bot.choose_play(observation, budget)
        self.engines[self.bot.last_decision["engine"]] += 1
        return card


@needs_openspiel
def test_the_bot_plays_whole_hands_of_every_direction_against_easy_bots() -> None:
    for index, rules in enumerate(VARIANTS):
        for number, direction in enumerate(DIRECTIONS):
            seat = (index + number) % 4
            recording = _Recording(IsmctsBot(seed=number, simulations=50))
            bots: list[Any] = [EasyBot(seed) for seed in range(4)]
            bots[seat] = recording
            outcome = play_hand(rules, direction, deal_for(index, number), bots)
            assert len(outcome.decision_ms[seat]) == 13 + (direction != "hold")
            assert recording.passes[direction] == (direction != "hold")
            assert recording.engines["openspiel ismcts"] >= 1
            assert set(recording.engines) <= {"openspiel ismcts", "forced"}


@needs_openspiel
def test_a_bot_that_cannot_rebuild_the_game_plays_the_easy_bots_card() -> None:
    rng = random.Random(5)
    controller, seat = next(_random_positions(RuleSet(), 2, 1, rng))
    observation = controller.observation(seat)
    while len(cards_of(observation.legal_mask())) < 2:
        controller.play_card(seat, controller.legal_cards(seat)[0])
        seat = controller.seats_to_act[0]
        observation = controller.observation(seat)
    # A card vanishes from the hand: no deal can explain the observation any more.
    lowest = cards_of(observation.hand)[0]
    broken = dataclasses.replace(observation, hand=observation.hand & ~(1 << lowest))
    bot = IsmctsBot(seed=1, simulations=20)
    card = bot.choose_play(broken)
    assert bot.last_decision["engine"] == "easy heuristic"
    assert "problem" in bot.last_decision
    assert has_card(broken.legal_mask(), card)


@needs_openspiel
def test_a_near_deadline_limits_the_search_by_time() -> None:
    rng = random.Random(11)
    bot = IsmctsBot(seed=2, simulations=200)
    searched = 0
    for controller, seat in _random_positions(RuleSet(), 3, 1, rng):
        observation = controller.observation(seat)
        if len(cards_of(observation.legal_mask())) < 2:
            continue
        budget = None if searched == 0 else Budget.for_ms(0.5)
        assert has_card(observation.legal_mask(), bot.choose_play(observation, budget))
        expected = 200 if searched == 0 else "until the deadline"
        assert bot.last_decision["simulations"] == expected
        searched += 1
    assert searched >= 2


def test_without_openspiel_the_bot_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ImportError, match="pip install open-spiel"):
        IsmctsBot(seed=1)


# -- the strength benchmark ----------------------------------------------------------------------


def test_a_target_with_an_unknown_bot_is_not_available() -> None:
    target = strength.Target("ghost", ("no-such-bot", "easy", "easy", "easy"), -1.0)
    outcome = strength.run_target(target, deals=2, matches=0, seed=1, workers=1)
    assert outcome.summaries == []
    assert outcome.status().startswith("not available")
    assert "no-such-bot" in outcome.status()


def test_a_target_is_judged_on_its_first_bot() -> None:
    reachable = strength.Target("easy-wins", ("easy", "random", "random", "random"), 30.0)
    unreachable = strength.Target("easy-perfect", ("easy", "random", "random", "random"), -30.0)
    outcome = strength.run_target(reachable, deals=2, matches=0, seed=4, workers=1)
    assert outcome.subject_summary is not None and outcome.subject_summary.name == "easy"
    assert outcome.status() == "met"
    outcome.target = unreachable
    assert outcome.status() == "not met"
    outcome.target = dataclasses.replace(reachable, min_match_win_rate=0.1)
    assert outcome.status().startswith("not measured")


def test_match_wins_are_played_only_for_targets_that_ask_for_them() -> None:
    target = strength.Target("wins", ("easy", "random", "random", "random"), 30.0, 0.0)
    outcome = strength.run_target(target, deals=2, matches=2, seed=4, workers=1)
    assert outcome.matches == 2
    assert outcome.status() == "met"
    assert "match wins" in outcome.measured()
    plain = dataclasses.replace(target, min_match_win_rate=None)
    assert strength.run_target(plain, deals=2, matches=2, seed=4, workers=1).matches == 0


def test_the_strength_command_writes_a_markdown_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    strength.add_arguments(parser)
    report = tmp_path / "strength.md"
    args = parser.parse_args(
        ["--only", "easy-vs-random", "--deals", "2", "--workers", "1", "--markdown", str(report)]
    )
    assert strength.run(args) == 0
    text = report.read_text(encoding="utf-8")
    assert "python -m bench strength --only easy-vs-random --deals 2" in text
    assert "| easy-vs-random | easy, random, random, random | Diff ≤ −3 |" in text
    assert "| easy ×1 | 8 |" in text
    assert "**Status: " in capsys.readouterr().out
    assert strength.run(parser.parse_args(["--only", "nonsense"])) == 2
