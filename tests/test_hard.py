"""The hard bot: legal, reproducible, sensible in clear-cut positions, and within its budget."""

from __future__ import annotations

import random
import time

import pytest
from positions import masks, play_randomly

from ai import hard, search_py
from ai.bot import Bot, Budget
from ai.easy import EasyBot
from ai.hard import HardBot, moon_shifts, pass_candidates
from ai.tournament import play_hand
from core.cards import card_text, cards_of, mask_of, parse_card, parse_cards
from core.controller import Controller
from core.hand import HandState
from core.match import deal_for
from core.observation import Observation
from core.rules import RuleSet

# Clubs are split so that seat 1's A♣ wins the first trick (2C AC 5C 9C) and seat 1 leads next.
CLUBS = ("2C 3C 4C", "AC KC QC", "5C 6C 7C 8C", "9C TC JC")
FIRST_TRICK = "2C AC 5C 9C"


def scripted(hands: tuple[str, str, str, str], plays: str) -> Observation:
    """Return the observation of the seat to move after these plays from this deal."""
    state = HandState.new(RuleSet(), "hold", masks(*hands))
    for card in parse_cards(plays):
        assert state.turn is not None
        state.play(state.turn, card)
    assert state.turn is not None
    return state.observation(state.turn, (0, 0, 0, 0))


def decide(observation: Observation, samples: int = 200) -> str:
    return card_text(HardBot(seed=1, max_samples=samples).choose_play(observation))


SPADES_DEAL = (
    f"{CLUBS[0]} 2D 3D 4D 5D 4S 5S 2H 3H 4H 5H",
    f"{CLUBS[1]} 6D 7D 8D KS 6S 7S 6H 7H 8H 9H",
    f"{CLUBS[2]} 9D TD JD QS 8S 9S TH JH QH",
    f"{CLUBS[3]} QD KD AD AS 3S 2S TS JS KH AH",
)


def test_ducks_under_a_trick_holding_the_queen() -> None:
    observation = scripted(SPADES_DEAL, f"{FIRST_TRICK} KS QS")
    assert decide(observation) in {"2S", "3S", "TS", "JS"}


def test_gives_the_queen_away_under_the_ace() -> None:
    deal = (
        SPADES_DEAL[0],
        SPADES_DEAL[1].replace("KS", "AS"),
        SPADES_DEAL[2],
        SPADES_DEAL[3].replace("AS", "KS"),
    )
    assert decide(scripted(deal, f"{FIRST_TRICK} AS")) == "QS"


def test_does_not_lead_the_ace_of_spades_while_the_queen_is_out() -> None:
    deal = (
        SPADES_DEAL[0],
        SPADES_DEAL[1].replace("KS", "AS"),
        SPADES_DEAL[2],
        SPADES_DEAL[3].replace("AS", "KS"),
    )
    observation = scripted(deal, FIRST_TRICK)
    assert observation.seat == 1
    assert decide(observation) != "AS"


def test_discards_an_unguarded_queen_when_void() -> None:
    deal = (
        f"{CLUBS[0]} 2D 3D 4D 5D 3S 4S 2H 3H 4H AH",
        f"{CLUBS[1]} 6D 7D 8D 9D 5S 6S 7S 8S 5H 6H",
        f"{CLUBS[2]} QS 2S 7H 8H 9H TH JH QH KH",
        f"{CLUBS[3]} TD JD QD KD AD 9S TS JS KS AS",
    )
    assert decide(scripted(deal, f"{FIRST_TRICK} 6D")) == "QS"


def random_controllers(seeds: range) -> list[Controller]:
    found = []
    for seed in seeds:
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), seed * 3 % 56)
        if controller.phase in ("pass", "play"):
            found.append(controller)
    return found


def test_plays_and_passes_legally_from_random_positions() -> None:
    bot = HardBot(seed=4, max_samples=12)
    played = passed = 0
    for controller in random_controllers(range(30)):
        seat = controller.seats_to_act[0]
        observation = controller.observation(seat)
        if controller.phase == "pass":
            cards = bot.choose_pass(observation)
            assert len(set(cards)) == 3 and mask_of(cards) & ~observation.hand == 0
            passed += 1
        else:
            assert bot.choose_play(observation) in controller.legal_cards(seat)
            assert bot.last_decision["chosen"] in bot.last_decision["values"] or (
                len(controller.legal_cards(seat)) == 1
            )
            played += 1
    assert played > 10 and passed > 0


def test_is_reproducible_with_a_seed_and_a_sample_count() -> None:
    for controller in random_controllers(range(6)):
        observation = controller.observation(controller.seats_to_act[0])
        choose = "choose_pass" if controller.phase == "pass" else "choose_play"
        first, second = HardBot(seed=9, max_samples=40), HardBot(seed=9, max_samples=40)
        assert getattr(first, choose)(observation) == getattr(second, choose)(observation)
        assert first.last_decision == second.last_decision
        assert first.last_decision["samples"] in (0, 40)


def test_the_twin_kernel_makes_the_same_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    observations = [
        controller.observation(controller.seats_to_act[0])
        for controller in random_controllers(range(10, 16))
        if controller.phase == "play"
    ]
    assert observations
    decisions = []
    for observation in observations:
        bot = HardBot(seed=2, max_samples=6)
        bot.choose_play(observation)
        decisions.append(bot.last_decision)
    for name in ("evaluate", "sample_deals", "policy_card"):
        monkeypatch.setattr(hard, name, getattr(search_py, name))
    for observation, expected in zip(observations, decisions, strict=True):
        bot = HardBot(seed=2, max_samples=6)
        bot.choose_play(observation)
        assert bot.last_decision == expected


def test_answers_at_once_with_an_expired_or_cancelled_budget() -> None:
    observation = scripted(SPADES_DEAL, f"{FIRST_TRICK} KS QS")
    bot = HardBot(seed=3)
    expired = Budget(deadline=time.perf_counter() - 1)
    assert card_text(bot.choose_play(observation, expired)) in {"AS", "2S", "3S", "TS", "JS"}
    assert bot.last_decision["samples"] == 0
    cancelled = Budget.for_ms(60_000, cancelled=lambda: True)
    assert bot.choose_play(observation, cancelled) in cards_of(observation.legal_mask())
    assert bot.last_decision["samples"] == 0
    hand = HandState.new(RuleSet(), "left", deal_for(3, 0))
    pass_view = hand.observation(0, (0, 0, 0, 0))
    assert bot.choose_pass(pass_view, expired) == pass_candidates(pass_view.hand)[0]
    assert bot.last_decision["samples"] == 0


def test_a_forced_card_needs_no_search() -> None:
    observation = scripted(SPADES_DEAL, "")
    bot = HardBot(seed=3, max_samples=10_000)
    assert card_text(bot.choose_play(observation)) == "2C"
    assert bot.last_decision["samples"] == 0 and bot.last_decision["chosen"] == "2C"


def test_a_small_tournament_against_easy_bots_runs() -> None:
    rules = RuleSet()
    for index in range(12):
        bots: list[Bot] = [EasyBot(index * 4 + seat) for seat in range(4)]
        hard_bot = HardBot(seed=index, max_samples=16)
        bots[index % 4] = hard_bot
        outcome = play_hand(rules, rules.direction_of_hand(index), deal_for(21, index), bots)
        assert sum(outcome.score.taken_points) == 26
        assert set(hard_bot.last_decision) == {"samples", "playouts", "values", "chosen", "exact"}


def test_pass_candidates_are_distinct_sets_from_the_hand() -> None:
    hand = mask_of(parse_cards("QS 2S 3S AH KH 2H 4C 5C 7D 8D 9D TD JD"))
    candidates = pass_candidates(hand)
    assert len(candidates) == hard.PASS_CANDIDATES
    assert len({frozenset(cards) for cards in candidates}) == len(candidates)
    for cards in candidates:
        assert len(set(cards)) == 3 and mask_of(cards) & ~hand == 0
    # The unguarded Q♠ and the top hearts look most dangerous.
    assert set(candidates[0]) == {parse_card("QS"), parse_card("AH"), parse_card("KH")}


def test_moon_shifts_follow_the_moon_rule() -> None:
    def view(moon: str, scores: tuple[int, int, int, int]) -> Observation:
        return Observation(0, RuleSet(moon=moon), "hold", 0, None, None, (), scores)

    assert moon_shifts(view("add", (90, 95, 10, 20))) == (0, 0, 0, 0)
    assert moon_shifts(view("subtract", (0, 0, 0, 0))) == (-26, -26, -26, -26)
    # Adding 26 would end the match with seat 2 ahead unless seat 2 or 3 shoots.
    assert moon_shifts(view("auto", (90, 95, 10, 20))) == (-26, -26, 0, 0)
    assert moon_shifts(view("auto", (0, 0, 0, 0))) == (0, 0, 0, 0)
