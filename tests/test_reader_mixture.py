"""Reading each seat by a mixture of the learned model and today's explorations: the compiled
mixture equals the twin's on many random histories, a prior of 1 (0) gives the learned (today's)
evidence exactly, the mixture is the per-seat sum it claims, and a seat is read mostly by the
model that explains its plays."""

from __future__ import annotations

import math
import random
from types import ModuleType

import pytest
from search_kernels import IMPLEMENTATIONS, compiled, needs_compiled
from test_learned_reader_twin import random_model
from test_search_twin import random_history, random_state, table_of

from ai import search_py
from ai.inference import DEFAULT_MODEL, PlayModel
from ai.knowledge import read_knowledge
from ai.play_model import load_play_model
from ai.sampler import DealSampler
from ai.search_py import FEATURE_COUNT, LOG_UNIT, History, LearnedModel
from core.cards import cards_of
from core.hand import HandState
from core.rules import RuleSet


def random_table(rng: random.Random) -> tuple[int, ...]:
    explorations = [rng.choice((0.01, 0.3, 0.6, 1.0)) for _ in range(4)]
    return PlayModel(*explorations).log_weights()


def random_case(
    rng: random.Random,
) -> tuple[list[tuple[int, ...]], History, tuple[int, ...], LearnedModel] | None:
    """Deals, a history, an evidence table and a learned model for a random position, or None
    when no other seat has played."""
    hand = random_state(rng)
    seat = hand.turn
    if seat is None or not hand.tricks or not hand.tricks[0].cards:
        return None
    sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
    deals = [tuple(hand.hands)] + [sampler.sample(rng) for _ in range(3)]
    return deals, random_history(hand), random_table(rng), random_model(rng)


@needs_compiled
def test_the_compiled_mixture_equals_the_twin_on_many_histories() -> None:
    rng = random.Random(61)
    checked = 0
    for _ in range(500):
        case = random_case(rng)
        if case is None:
            continue
        deals, history, table, model = case
        prior = rng.choice((0.0, 1.0, 0.5, rng.random(), 1e-9, 1.0 - 1e-9))
        for per_play in (False, True):
            got = compiled.mixed_evidence(deals, history, table, model, prior, per_play)
            assert got == search_py.mixed_evidence(deals, history, table, model, prior, per_play)
        checked += 1
    assert checked > 350


@pytest.mark.parametrize("per_play", [False, True], ids=["per seat", "per play"])
@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_prior_of_one_is_the_learned_evidence_and_zero_today_s(
    kernel: ModuleType, per_play: bool
) -> None:
    rng = random.Random(62)
    checked = 0
    for _ in range(200):
        case = random_case(rng)
        if case is None:
            continue
        deals, history, table, model = case
        learned = kernel.learned_evidence(deals, history, model)
        assert kernel.mixed_evidence(deals, history, table, model, 1.0, per_play) == learned
        today = kernel.play_evidence(deals, history, table)
        assert kernel.mixed_evidence(deals, history, table, model, 0.0, per_play) == today
        checked += 1
    assert checked > 130


def mixture_of(learned: int, explored: int, prior: float) -> float:
    """log(prior · e^A + (1 − prior) · e^B) in 1 / LOG_UNIT nats, written out plainly."""
    top = max(learned, explored)
    share = prior * math.exp((learned - top) / LOG_UNIT)
    share += (1 - prior) * math.exp((explored - top) / LOG_UNIT)
    return top + LOG_UNIT * math.log(share)


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_the_mixture_sums_each_seat_s_mixture_of_its_two_likelihoods(kernel: ModuleType) -> None:
    rng = random.Random(63)
    checked = 0
    for _ in range(150):
        case = random_case(rng)
        if case is None:
            continue
        deals, history, table, model = case
        prior = rng.random()
        mixed = kernel.mixed_evidence(deals, history, table, model, prior)
        learned = kernel.learned_evidence(deals, history, model)
        today = kernel.play_evidence(deals, history, table)
        for index, deal in enumerate(deals):
            by_learned, by_table = search_py.seat_evidence(deal, history, table, model)
            assert by_learned[history.observer] == by_table[history.observer] == 0
            assert sum(by_learned) == learned[index]
            assert sum(by_table) == today[index]
            expected = sum(
                mixture_of(a, b, prior) for a, b in zip(by_learned, by_table, strict=True)
            )
            # Each seat's term is rounded on its own.
            assert abs(mixed[index] - expected) <= 2.01
        checked += 1
    assert checked > 90


def learned_favourite(
    hands: tuple[int, ...], table: search_py.Table, model: LearnedModel, legal: list[int]
) -> int:
    """The legal card (of ``legal``, lowest first) the learned model finds likeliest."""
    kind, rows = search_py.card_features(hands, table)
    weights = model.weights[kind * FEATURE_COUNT : (kind + 1) * FEATURE_COUNT]
    logits = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
    return legal[logits.index(max(logits))]


def played_by(choose: str, seed: int, model: LearnedModel) -> tuple[HandState, History]:
    """A hand of 40 cards where every seat plays the rollout policy's card (``policy``) or the
    learned model's likeliest (``learned``); its history as seat 0 reads it."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    dealt = [sum(1 << card for card in deck[seat::4]) for seat in range(4)]
    hand = HandState.new(RuleSet(), "hold", dealt)
    leader = -1
    cards: list[int] = []
    while len(cards) < 40:
        seat = hand.turn
        assert seat is not None
        if leader < 0:
            leader = seat
        hands = tuple(hand.hands)
        table = table_of(hand)
        if choose == "policy":
            card = search_py.policy_card(hands, table)
        else:
            card = learned_favourite(hands, table, model, cards_of(hand.legal_mask(seat)))
        assert hand.legal_mask(seat) >> card & 1
        hand.play(seat, card)
        cards.append(card)
    return hand, History(leader, tuple(cards), 0, hand.rules.flags)


@pytest.mark.parametrize("choose", ["policy", "learned"])
@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_seat_is_read_mostly_by_the_model_it_plays_by(kernel: ModuleType, choose: str) -> None:
    model = load_play_model()
    table = DEFAULT_MODEL.log_weights()
    prior = 0.5
    for seed in range(3):
        hand, history = played_by(choose, seed, model)
        deal = [tuple(hand.hands)]
        by_learned, by_table = search_py.seat_evidence(deal[0], history, table, model)
        favoured, other = (by_table, by_learned) if choose == "policy" else (by_learned, by_table)
        mixed = kernel.mixed_evidence(deal, history, table, model, prior)[0]
        # Each other seat's mixture is its favoured model's likelihood times the prior, plus a
        # share of the other's that is small: the favoured model holds over 9/10 of the weight.
        floor = sum(favoured) + 3 * LOG_UNIT * math.log(prior)
        assert floor - 3 <= mixed <= floor + 3 * LOG_UNIT * math.log(1 / 0.9) + 3
        for seat in (1, 2, 3):
            assert favoured[seat] - other[seat] > LOG_UNIT * math.log(9)


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_bad_prior_or_table_is_refused(kernel: ModuleType) -> None:
    rng = random.Random(64)
    case = None
    while case is None:
        case = random_case(rng)
    deals, history, table, model = case
    for prior in (-0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match=r"prior is in \[0, 1\]"):
            kernel.mixed_evidence(deals, history, table, model, prior)
    with pytest.raises(ValueError, match="an evidence table has 112 entries"):
        kernel.mixed_evidence(deals, history, table[:-1], model, 0.5)
