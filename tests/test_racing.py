"""Racing (``ai.racing``): the check points, the rule that drops candidates, and the hard bot's
raced decisions (fair, reproducible, honest about what measured each card)."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from positions import play_randomly

from ai import batches, hard, racing
from ai.hard import EXACT_CARDS, HardBot
from core.cards import card_text, cards_of, count
from core.controller import Controller
from core.observation import Observation

# -- check points ------------------------------------------------------------------------------


def test_check_points_grow_from_the_first_check() -> None:
    points = [racing.next_check(0)]
    while points[-1] < 2000:
        points.append(racing.next_check(points[-1]))
    assert points[:4] == [64, 96, 144, 216]
    assert racing.next_check(63) == 64
    assert racing.next_check(65) == 96


@pytest.mark.parametrize("sizes", [[1] * 300, [7, 50, 3, 240], [300], [64, 32, 204]])
def test_batches_of_any_size_meet_the_same_check_points(sizes: list[int]) -> None:
    """The clock sizes the batches; the checks fall on the same deal numbers whatever they are."""
    covered: list[int] = []
    checks: list[int] = []
    first = 0
    for size in sizes:
        for start, end, check in racing.check_points(first, size):
            assert start < end
            covered += range(start, end)
            if check:
                checks.append(end)
        first += size
    assert covered == list(range(300))
    assert checks == [64, 96, 144, 216]


# -- the paired difference -----------------------------------------------------------------------


def test_the_paired_difference_is_the_mean_and_standard_error_of_the_differences() -> None:
    rng = random.Random(3)
    best = [rng.randrange(-30, 30) for _ in range(50)]
    other = [cost + rng.randrange(-5, 9) for cost in best]
    differences = [a - b for a, b in zip(other, best, strict=True)]
    mean, error = racing.paired_difference(other, best)
    assert mean == pytest.approx(statistics.mean(differences))
    assert error == pytest.approx(statistics.stdev(differences) / math.sqrt(50))


def test_a_paired_difference_of_fewer_than_two_deals_has_no_error() -> None:
    assert racing.paired_difference([], []) == (0.0, math.inf)
    assert racing.paired_difference([5], [2]) == (3.0, math.inf)


# -- the rule ------------------------------------------------------------------------------------


LUCK = random.Random(7).choices(range(-40, 40), k=400)


def _costs(rng: random.Random, shift: float, spread: int, deals: int = 200) -> list[int]:
    """Deal-by-deal costs: a common luck per deal, plus ``shift`` and this candidate's noise."""
    return [base + round(shift) + rng.randrange(-spread, spread + 1) for base in LUCK[:deals]]


def test_clearly_worse_candidates_drop_and_close_ones_stay() -> None:
    rng = random.Random(1)
    by_deal = [
        _costs(rng, 0, 3),  # the best
        _costs(rng, 6, 3),  # clearly worse
        _costs(rng, 0, 3),  # as good
        _costs(rng, 1, 30),  # worse by the mean, but the noise hides it
    ]
    assert racing.contenders(by_deal, [0, 1, 2, 3]) == [0, 2, 3]


def test_the_common_luck_of_a_deal_cancels_out() -> None:
    """Compared on their own, two candidates' means differ by far less than their spread; deal
    by deal the difference is clear."""
    rng = random.Random(2)
    by_deal = [_costs(rng, 0, 1), _costs(rng, 1, 1)]
    assert statistics.stdev(by_deal[0]) > 10
    assert racing.contenders(by_deal, [0, 1], alone=math.inf) == [0, 1]
    assert racing.contenders([*by_deal, _costs(rng, 0, 1)], [0, 1, 2]) == [0, 2]


def test_at_least_two_stay_unless_one_is_best_by_a_wide_margin() -> None:
    rng = random.Random(4)
    near = [_costs(rng, 0, 3), _costs(rng, 6, 20), _costs(rng, 8, 3)]
    # Slot 1 is behind by more than DROP_ERRORS but less than ALONE_ERRORS: the closest stays.
    _, error = racing.paired_difference(near[1], near[0])
    gap = (sum(near[1]) - sum(near[0])) / len(near[0]) / error
    assert racing.DROP_ERRORS < gap < racing.ALONE_ERRORS
    assert racing.contenders(near, [0, 1, 2]) == [0, 1]
    # Far behind, every other one drops.
    assert racing.contenders([near[0], near[2]], [0, 1]) == [0]
    assert racing.contenders([near[0], near[2]], [0, 1], alone=math.inf) == [0, 1]


def test_the_best_is_the_lowest_total_and_its_equals_stay() -> None:
    same = [3, 1, 4, 1, 5] * 20
    worse = [cost + 9 for cost in same]
    assert racing.contenders([worse, same, worse, same], [0, 1, 2, 3]) == [1, 3]
    assert racing.contenders([worse, same, worse], [0, 1, 2]) == [1]
    assert racing.contenders([worse, same], [1]) == [1]
    assert racing.contenders([worse, same], []) == []


def test_only_the_alive_slots_are_judged() -> None:
    rng = random.Random(5)
    by_deal = [_costs(rng, -20, 1), _costs(rng, 0, 3), _costs(rng, 0, 3), _costs(rng, 9, 3)]
    # Slot 0 would beat everything, but it is out of the race already.
    assert racing.contenders(by_deal, [1, 2, 3]) == [1, 2]


# -- the hard bot's raced decisions --------------------------------------------------------------

SAMPLES = 400


def _raced_position() -> Observation:
    """A position in play, searched by rollouts, where a raced decision drops a card."""
    for seed in range(60):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), 8 + seed % 24)
        if controller.phase != "play":
            continue
        view = controller.observation(controller.seats_to_act[0])
        if len(cards_of(view.legal_mask())) < 4 or count(view.hand) <= EXACT_CARDS:
            continue
        bot = HardBot(seed=seed, max_samples=SAMPLES, threads=1)
        bot.choose_play(view)
        if min(bot.last_decision["deals"].values()) < SAMPLES:
            return view
    raise AssertionError("no position where a card drops out")


@pytest.fixture(scope="module")
def position() -> Observation:
    return _raced_position()


def _values(observation: Observation, race: bool, threads: int = 1) -> hard.SearchValues:
    bot = HardBot(seed=9, max_samples=SAMPLES, threads=threads)
    legal = cards_of(observation.legal_mask())
    return bot._play_values(observation, legal, bot._budget(None), 0, race=race)


def test_a_card_that_stays_meets_the_same_deals_and_random_numbers(position: Observation) -> None:
    """Dropping a card changes nothing another card meets: each card's costs, deal by deal, are
    the first ones of the search that measures every card on every deal."""
    raced = _values(position, race=True)
    full = _values(position, race=False)
    assert full.deals == ()
    assert len(set(raced.deals)) > 1
    assert max(raced.deals) == raced.samples == full.samples == SAMPLES
    for slot, costs in enumerate(raced.by_deal):
        assert len(costs) == raced.deals[slot]
        assert costs == full.by_deal[slot][: len(costs)]
        assert raced.mean(slot) == pytest.approx(sum(costs) / len(costs) / 3)
    assert raced.best() == full.best() or full.paired(raced.best(), full.best())[0] < 0.5


def test_a_raced_decision_depends_neither_on_threads_nor_on_batches(
    position: Observation, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _values(position, race=True)
    assert _values(position, race=True, threads=3) == expected
    monkeypatch.setattr(batches, "BATCH_DEALS", 5)
    monkeypatch.setattr(batches, "BATCH_SECONDS", 1e-9)
    assert _values(position, race=True) == expected


def test_the_decision_says_how_many_deals_measured_each_card(position: Observation) -> None:
    bot = HardBot(seed=9, max_samples=SAMPLES, threads=1)
    card = bot.choose_play(position)
    values = _values(position, race=True)
    facts = bot.last_decision
    labels = [card_text(card) for card in cards_of(position.legal_mask())]
    assert facts["chosen"] == card_text(card) == labels[values.best()]
    assert facts["deals"] == dict(zip(labels, values.deals, strict=True))
    assert facts["playouts"] == sum(values.deals) * bot.rollouts
    for slot, label in enumerate(labels):
        assert facts["values"][label] == round(values.mean(slot), 3)
    # The chosen card was measured on every deal.
    assert facts["deals"][facts["chosen"]] == facts["samples"] == SAMPLES


def test_the_coachs_measure_values_every_card_on_every_deal(position: Observation) -> None:
    values = HardBot(seed=9, max_samples=SAMPLES, threads=1).play_values(position)
    assert values.deals == ()
    assert {len(costs) for costs in values.by_deal} == {SAMPLES}


def test_an_exact_search_measures_every_card() -> None:
    """With few cards left the bot searches exactly, a few passes over a small set of deals:
    no card drops out."""
    for seed in range(60):
        controller = Controller()
        controller.new_match(seed=seed, seats=["bot"] * 4)
        play_randomly(controller, random.Random(seed), 40 + seed % 8)
        if controller.phase != "play":
            continue
        view = controller.observation(controller.seats_to_act[0])
        if len(cards_of(view.legal_mask())) >= 2 and count(view.hand) <= EXACT_CARDS:
            bot = HardBot(seed=seed, max_samples=SAMPLES, threads=1)
            bot.choose_play(view)
            assert bot.last_decision["exact"]
            assert "deals" not in bot.last_decision
            return
    raise AssertionError("no exact position with a choice")
