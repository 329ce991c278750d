"""Reading the opponents: deals weighed by the plays they explain (ai.inference)."""

from __future__ import annotations

import math
import random

import pytest

from ai.inference import (
    BLOCK,
    RUNNER_WEIGHTS,
    DealReader,
    PlayModel,
    pass_record,
    play_history,
    resample,
    runner_seat,
)
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler
from ai.search import LOG_UNIT, deal_plan, effective_size, sample_deals, tempered_weights
from core.cards import QUEEN_OF_SPADES, cards_of, parse_card
from core.hand import HandState
from core.observation import Observation
from core.rules import RuleSet


def _mask(*texts: str) -> int:
    return sum(1 << parse_card(text) for text in texts)


def _deals_with_queen(deals: list[tuple[int, int, int, int]], seat: int) -> float:
    return sum(1 for deal in deals if deal[seat] >> QUEEN_OF_SPADES & 1) / len(deals)


def test_a_discard_other_than_the_queen_moves_the_queen_away_from_the_discarder() -> None:
    hands = [
        _mask("2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "2S", "3S", "4S"),
        _mask("KC", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"),
        _mask("7C", "8C", "9C", "TC", "7D", "8D", "9D", "TD", "5S", "6S", "7S", "8S", "AH"),
        _mask("JC", "QC", "AC", "JD", "QD", "KD", "AD", "9S", "TS", "JS", "QS", "KS", "AS"),
    ]
    hand = HandState.new(RuleSet(), "hold", hands)
    for seat, card in ((0, "2C"), (1, "KC"), (2, "7C"), (3, "JC")):
        hand.play(seat, parse_card(card))
    # Seat 1 took the first trick with the K♣ and, holding only hearts, leads one.
    hand.play(1, parse_card("2H"))
    hand.play(2, parse_card("AH"))
    hand.play(3, parse_card("KS"))
    observation = hand.observation(0, (0, 0, 0, 0))
    # Seat 3, void in hearts, discarded the K♠ and not the Q♠: it likely has no Q♠.
    knowledge = read_knowledge(observation)
    assert knowledge.free >> QUEEN_OF_SPADES & 1
    sampler = DealSampler(knowledge)
    uniform = sampler.probabilities[QUEEN_OF_SPADES][3]
    reader = DealReader(deal_plan(sampler), 11, play_history(observation))
    deals = reader.draw(0, 2048)
    assert uniform > 0.3
    assert _deals_with_queen(deals, 3) < uniform / 2
    assert reader.mean_power() is not None


def test_deals_do_not_depend_on_how_they_are_split_into_batches() -> None:
    observation = _played_observation(17, 9)
    plan = deal_plan(DealSampler(read_knowledge(observation)))
    whole = DealReader(plan, 5, play_history(observation)).draw(0, 70)
    reader = DealReader(plan, 5, play_history(observation))
    parts = reader.draw(0, 3) + reader.draw(3, 20) + reader.draw(23, 1) + reader.draw(24, 46)
    assert parts == whole
    assert DealReader(plan, 6, play_history(observation)).draw(0, 70) != whole


def _played_observation(seed: int, plays: int) -> Observation:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = HandState.new(RuleSet(), "hold", [sum(1 << c for c in deck[s::4]) for s in range(4)])
    for _ in range(plays):
        seat = hand.turn
        assert seat is not None
        legal = hand.legal_mask(seat)
        hand.play(seat, rng.choice([c for c in range(52) if legal >> c & 1]))
    seat = hand.turn
    assert seat is not None
    return hand.observation(seat, (0, 0, 0, 0))


def test_no_history_means_uniform_deals() -> None:
    observation = _played_observation(3, 0)
    assert play_history(observation) is None
    plan = deal_plan(DealSampler(read_knowledge(observation)))
    reader = DealReader(plan, 9, None)
    assert reader.draw(4, 10) == sample_deals(plan, 10, 9, 4)
    assert reader.mean_power() is None


def test_tempering_keeps_enough_effective_deals() -> None:
    flat, power = tempered_weights([0] * 64, BLOCK)
    assert power == 1.0 and effective_size(flat) == pytest.approx(64)
    # One deal far more likely than the others: untempered, the pool is worth one deal.
    lopsided = [0] * 63 + [40 * LOG_UNIT]
    weights, power = tempered_weights(lopsided, BLOCK)
    assert 0.0 < power < 1.0
    assert effective_size(weights) >= BLOCK - 1e-6
    assert effective_size([math.exp(v / LOG_UNIT) for v in lopsided]) < 2
    # Tempered only as far as needed: a bit more power would fall short.
    stronger = [math.exp(min(1.0, power + 0.05) * (v - max(lopsided)) / LOG_UNIT) for v in lopsided]
    assert effective_size(stronger) < BLOCK


def test_resampling_follows_the_weights() -> None:
    pool = [(n, 0, 0, 0) for n in range(4)]
    weights = [1.0, 0.0, 3.0, 4.0]
    drawn = resample(pool, weights, 800, 0.37)
    counts = [sum(1 for deal in drawn if deal[0] == n) for n in range(4)]
    assert counts == [100, 0, 300, 400]
    assert resample(pool, [1.0] * 4, 4, 0.999) == pool


def test_the_model_table_ranks_an_agreeing_play_above_a_straying_one() -> None:
    table = PlayModel(0.6, 0.4, 0.3, 0.1).log_weights()
    for kind in range(4):
        for choices in range(2, 14):
            agree = table[(kind * 2 + 1) * 14 + choices]
            stray = table[(kind * 2) * 14 + choices]
            assert agree > stray
    # A discard says more than a lead.
    assert table[(2 * 2 + 1) * 14 + 5] - table[(2 * 2) * 14 + 5] > (
        table[(0 * 2 + 1) * 14 + 5] - table[(0 * 2) * 14 + 5]
    )


def _passed_observation(
    direction: str, ours: str, passes: dict[int, str], firsts: dict[int, str] | None = None
) -> Observation:
    """Deal seat 0 ``ours``, each seat of ``firsts`` its cards, the rest in turn; the seats of
    ``passes`` pass the named cards, the others their three lowest cards but the Q♠; return
    seat 0's view after the exchange."""
    dealt = [_mask(*ours.split()), 0, 0, 0]
    for seat, texts in (firsts or {}).items():
        dealt[seat] = _mask(*texts.split())
    taken = dealt[0] | dealt[1] | dealt[2] | dealt[3]
    rest = iter(card for card in range(52) if not taken >> card & 1)
    for seat in (1, 2, 3):
        while dealt[seat].bit_count() < 13:
            dealt[seat] |= 1 << next(rest)
    hand = HandState.new(RuleSet(), direction, dealt)
    for seat in range(4 if direction != "hold" else 0):
        named = passes.get(seat)
        if named is not None:
            cards = [parse_card(text) for text in named.split()]
        else:
            cards = [c for c in cards_of(dealt[seat]) if c != QUEEN_OF_SPADES][:3]
        hand.submit_pass(seat, cards)
    return hand.observation(0, (0, 0, 0, 0))


def _reader_and_uniform(
    observation: Observation,
) -> tuple[list[tuple[int, int, int, int]], DealSampler]:
    knowledge = read_knowledge(observation)
    sampler = DealSampler(knowledge)
    record = pass_record(observation, PlayModel())
    assert record is not None
    reader = DealReader(deal_plan(sampler), 3, play_history(observation), PlayModel(), record)
    deals = reader.draw(0, 2048)
    assert reader.mean_power() is not None
    return deals, sampler


@pytest.mark.parametrize(("direction", "receiver"), [("across", 2), ("left", 1), ("right", 3)])
def test_the_seat_we_passed_to_rarely_holds_an_unguarded_queen(
    direction: str, receiver: int
) -> None:
    # With seven low spades ours, no other seat can guard the Q♠: the seat we passed to would
    # have passed it on, so it holds it only by straying from the model.
    observation = _passed_observation(
        direction, "2C 2S 3S 4S 5S 6S 7S 8S 3D 4D 5D 6D 7D", {0: "5D 6D 7D"}
    )
    assert play_history(observation) is None
    deals, sampler = _reader_and_uniform(observation)
    uniform = sampler.probabilities[QUEEN_OF_SPADES][receiver]
    assert uniform > 0.25
    assert _deals_with_queen(deals, receiver) < uniform / 3
    # A model that does not read passes, or a hand without passes, gives no record.
    assert pass_record(observation, PlayModel(passing=None)) is None
    held = _passed_observation("hold", "2C 2S 3S 4S 5S 6S 7S 8S 3D 4D 5D 6D 7D", {})
    assert pass_record(held, PlayModel()) is None


def test_a_high_spade_passed_to_us_says_its_passer_had_few_low_spades() -> None:
    # Passing to the left, seat 3 gives us the K♠: it was unguarded there, so seat 3 holds
    # fewer of the ten low spades than uniform sampling gives it.
    observation = _passed_observation(
        "left",
        "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 7D 8D 9D",
        {0: "3C 4C 5C", 3: "KS 8H 9H"},
        {3: "KS 8H 9H AC KC QC JC TC 9C AD KD QD JD"},
    )
    deals, sampler = _reader_and_uniform(observation)
    low = _mask("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS")
    uniform = sum(sampler.probabilities[card][3] for card in cards_of(low))
    read = sum((deal[3] & low).bit_count() for deal in deals) / len(deals)
    assert read < uniform - 0.5, (read, uniform)


#: A model that reads a seat holding every point taken as likely strong.
RUNNER_READ = PlayModel(runner=RUNNER_WEIGHTS)


def _losers(deal: tuple[int, int, int, int], seat: int) -> int:
    """Cards of ``seat``'s hand that a card of another hand in the deal beats."""
    others = [deal[other] for other in range(4) if other != seat]
    losers = 0
    for card in cards_of(deal[seat]):
        suit = card // 13
        losers += any(
            other >> higher & 1 for other in others for higher in range(card + 1, 13 * suit + 13)
        )
    return losers


def _holders(observation: Observation) -> list[int]:
    knowledge = read_knowledge(observation)
    return [seat for seat in range(4) if knowledge.points_taken[seat] > 0]


def test_a_seat_holding_every_point_is_read_only_when_asked_and_only_if_another() -> None:
    cases = {"another": 0, "observer": 0, "several": 0, "none": 0}
    for seed in range(40):
        for plays in (8, 16, 24):
            observation = _played_observation(seed, plays)
            knowledge = read_knowledge(observation)
            holders = _holders(observation)
            assert runner_seat(knowledge, PlayModel()) is None  # not read by default
            found = runner_seat(knowledge, RUNNER_READ)
            if len(holders) == 1 and holders[0] != observation.seat:
                assert found == holders[0]
                cases["another"] += 1
            else:
                assert found is None
                key = "none" if not holders else "several" if len(holders) > 1 else "observer"
                cases[key] += 1
    assert all(cases.values()), cases


def test_a_seat_holding_every_point_is_drawn_with_stronger_hands() -> None:
    # Random play after five tricks: in the positions where another seat holds every point,
    # the share of drawn deals that give it at most two losers, read and not.
    strong = plain = 0.0
    positions = 0
    for seed in range(150):
        observation = _played_observation(seed, 20)
        knowledge = read_knowledge(observation)
        taker = runner_seat(knowledge, RUNNER_READ)
        if taker is None:
            continue
        positions += 1
        plan = deal_plan(DealSampler(knowledge))
        history = play_history(observation)
        read = DealReader(plan, seed, history, RUNNER_READ, pool_factor=16, runner=taker).draw(
            0, 128
        )
        unread = DealReader(plan, seed, history, PlayModel(), pool_factor=16).draw(0, 128)
        strong += sum(_losers(deal, taker) <= 2 for deal in read) / len(read)
        plain += sum(_losers(deal, taker) <= 2 for deal in unread) / len(unread)
    assert positions >= 20
    assert strong > 2 * plain > 0
