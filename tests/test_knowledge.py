"""Deductions from an observation and the sampler of consistent deals."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from positions import play_randomly

from ai.knowledge import GROUP_MASKS, read_knowledge
from ai.sampler import DealSampler
from core.cards import cards_of, count, parse_card, parse_cards
from core.controller import Controller
from core.observation import Observation, TrickView
from core.rules import RuleSet


def random_position(seed: int, steps: int) -> Controller:
    controller = Controller()
    controller.new_match(seed=seed, seats=["bot"] * 4)
    play_randomly(controller, random.Random(seed), steps)
    return controller


def consistent(deal: tuple[int, ...], observation: Observation) -> bool:
    knowledge = read_knowledge(observation)
    if deal[observation.seat] != observation.hand:
        return False
    union = 0
    for seat in range(4):
        if count(deal[seat]) != knowledge.remaining[seat] or union & deal[seat]:
            return False
        if deal[seat] & knowledge.known[seat] != knowledge.known[seat]:
            return False
        for group, mask in enumerate(GROUP_MASKS):
            if knowledge.voids[seat] >> group & 1 and deal[seat] & mask:
                return False
        union |= deal[seat]
    return union == knowledge.unseen | observation.hand


@pytest.mark.parametrize("seed", range(12))
def test_samples_are_consistent_and_the_truth_is_possible(seed: int) -> None:
    controller = random_position(seed, 10 + 4 * seed)
    if controller.phase != "play":
        pytest.skip("hand over")
    rng = random.Random(seed)
    for seat in range(4):
        observation = controller.observation(seat)
        truth = tuple(sum(1 << card for card in controller.hand(s)) for s in range(4))
        assert consistent(truth, observation)
        sampler = DealSampler(read_knowledge(observation))
        for _ in range(50):
            assert consistent(sampler.sample(rng), observation)
        probabilities = sampler.probabilities
        for s in range(4):
            for card in controller.hand(s):
                assert probabilities[card][s] > 0


def test_deal_count_and_uniformity_match_brute_force() -> None:
    checked = 0
    for seed in range(40):
        controller = random_position(seed, 44)
        if controller.phase != "play":
            continue
        seat = controller.seats_to_act[0]
        observation = controller.observation(seat)
        knowledge = read_knowledge(observation)
        sampler = DealSampler(knowledge)
        others = [s for s in range(4) if s != seat]
        free = cards_of(knowledge.free)
        deals = []
        for owners in itertools.product(others, repeat=len(free)):
            deal = list(knowledge.known)
            for card, owner in zip(free, owners, strict=True):
                deal[owner] |= 1 << card
            if consistent(tuple(deal), observation):
                deals.append(tuple(deal))
        assert sampler.deal_count == len(deals)
        if 3 <= len(deals) <= 40:
            draws = 200 * len(deals)
            rng = random.Random(seed)
            seen = Counter(sampler.sample(rng) for _ in range(draws))
            assert set(seen) == set(deals)
            # Each deal's count is binomial(draws, 1/n): allow five standard deviations.
            p = 1 / len(deals)
            spread = 5 * (draws * p * (1 - p)) ** 0.5
            assert all(abs(seen[deal] - draws * p) <= spread for deal in deals)
            checked += 1
    assert checked >= 3


def test_probabilities_match_sample_frequencies() -> None:
    controller = random_position(4, 30)
    observation = controller.observation(controller.seats_to_act[0])
    sampler = DealSampler(read_knowledge(observation))
    rng = random.Random(1)
    draws = 4000
    counts = Counter()
    for _ in range(draws):
        deal = sampler.sample(rng)
        for seat in range(4):
            for card in cards_of(deal[seat]):
                counts[card, seat] += 1
    for card in range(52):
        row = sampler.probabilities[card]
        assert sum(row) == pytest.approx(1.0 if row != [0.0] * 4 else 0.0)
        for seat in range(4):
            assert counts[card, seat] / draws == pytest.approx(row[seat], abs=0.04)


def view(hand: str, tricks: list[tuple[int, str]], **extra: object) -> Observation:
    fields: dict[str, object] = {
        "seat": 0,
        "rules": RuleSet(),
        "direction": "hold",
        "hand": sum(1 << card for card in parse_cards(hand)),
        "passed": None,
        "received": None,
        "tricks": tuple(TrickView(leader, tuple(parse_cards(cards))) for leader, cards in tricks),
        "scores": (0, 0, 0, 0),
    }
    fields.update(extra)
    return Observation(**fields)  # type: ignore[arg-type]


def test_failing_to_follow_shows_a_void() -> None:
    knowledge = read_knowledge(view("3C 4D", [(0, "2C 3D 5C 6C"), (2, "")]))
    assert knowledge.is_void(1, 0)
    assert not knowledge.is_void(2, 0)


def test_a_point_card_on_the_first_trick_shows_only_points_are_held() -> None:
    knowledge = read_knowledge(view("3C 4D", [(0, "2C AH 5C 6C"), (2, "")]))
    for suit in (0, 1):
        assert knowledge.is_void(1, suit)
    assert knowledge.voids[1] & 0b00100  # no spade but perhaps the Q♠
    assert not knowledge.voids[1] & 0b11000


def test_leading_unbroken_hearts_shows_only_hearts_are_held() -> None:
    tricks = [(0, "2C 3C 4C 5C"), (3, "AH")]
    knowledge = read_knowledge(view("6C", tricks))
    assert all(knowledge.is_void(3, suit) for suit in (0, 1, 2))


def test_passed_cards_are_known_until_played_and_points_are_counted() -> None:
    observation = view(
        "3C 4D",
        [(0, "2C 3H QS 6C"), (3, "")],
        direction="left",
        passed=tuple(parse_cards("AS KS 7D")),
        received=tuple(parse_cards("3C 4D 5D")),
    )
    knowledge = read_knowledge(observation)
    assert knowledge.known[1] == sum(1 << parse_card(card) for card in ("AS", "KS", "7D"))
    assert knowledge.points_taken == (0, 0, 0, 14)
    assert knowledge.can_shoot_moon(3) and not knowledge.can_shoot_moon(0)
