"""The review is honest about the search's noise: margins, clear calls, totals that add up, and
a hint on other deals that agrees with every clear call."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

import pytest
from test_review import played_hand

from ai.hard import HardBot
from ai.review import (
    CLEAR_ERRORS,
    Decision,
    DecisionReview,
    Review,
    analyse,
    review_decision,
    seat_decisions,
)
from core.rules import RuleSet


def review_of(losses: list[float], margin: float | None = 0.0) -> Review:
    """A review of plays that lost ``losses``, each with the noise ``margin``."""
    return Review(
        tuple(
            DecisionReview(1, 0, "play", 1 + n, (n,), (51,), loss, loss, 0.0, 10, margin)
            for n, loss in enumerate(losses)
        )
    )


def test_a_loss_counts_only_when_it_is_clear_of_its_margin() -> None:
    def decision(loss: float, margin: float | None) -> DecisionReview:
        return review_of([loss], margin).decisions[0]

    assert decision(2.0, 0.5).grade == "mistake" and decision(2.0, 0.5).clear
    assert decision(2.0, 2.0).grade == "fine" and decision(2.0, 2.0).too_close
    assert decision(0.7, 0.6).grade == "inaccuracy" and not decision(0.7, 0.6).too_close
    assert decision(0.7, 0.9).grade == "fine" and decision(0.7, 0.9).too_close
    # A small loss within its margin is fine, not too close to call.
    assert decision(0.3, 0.9).grade == "fine" and not decision(0.3, 0.9).too_close
    # A review kept from before margins were measured grades by the loss alone.
    assert decision(2.0, None).grade == "mistake" and decision(2.0, None).clear


def test_the_listed_losses_and_the_small_slips_add_up_to_the_total() -> None:
    rng = random.Random(3)
    for _ in range(200):
        losses = [
            round(rng.choice((0.0, rng.random() * 0.49, rng.random() * 5)), 2) for _ in range(30)
        ]
        margins = [round(rng.random(), 2) for _ in losses]
        review = Review(
            tuple(
                replace(decision, margin=margin)
                for decision, margin in zip(review_of(losses).decisions, margins, strict=True)
            )
        )
        summary = review.summary()
        hundredths = sum(round(d.loss * 100) for d in summary.listed)
        assert hundredths + round(summary.slips_loss * 100) == round(summary.total * 100)
        assert summary.total == review.total_loss == round(sum(losses), 2)
        assert summary.slips == sum(1 for d in review.decisions if d.loss > 0) - len(summary.listed)
        assert all(d.grade != "fine" or d.too_close for d in summary.listed)
    # Twelve small slips of 0.04 and one 0.03: 0.51, as the example reads.
    summary = review_of([0.04] * 12 + [0.03, 2.0]).summary()
    assert (summary.slips, summary.slips_loss, summary.total) == (13, 0.51, 2.51)


def test_a_margin_is_three_paired_standard_errors_of_the_deals_costs() -> None:
    controller = played_hand(5, "random")
    decision = next(d for d in seat_decisions(controller, 0, 1) if d.kind == "play")
    for observation in (decision.observation, seat_decisions(controller, 0, 1)[0].observation):
        bot = HardBot(seed=9, max_samples=50)
        values = (
            bot.pass_values(observation, min_samples=1)
            if observation.must_pass
            else bot.play_values(observation, min_samples=1)
        )
        analysis = analyse(observation, 50, 9)
        best = analysis.best
        per_run = values.runs // values.samples
        for slot in range(len(values.candidates)):
            if slot == best:
                assert analysis.errors[slot] == 0.0
                continue
            differences = [
                (a - b) / 3 / per_run
                for a, b in zip(values.by_deal[slot], values.by_deal[best], strict=True)
            ]
            error = statistics.stdev(differences) / math.sqrt(len(differences))
            assert analysis.errors[slot] == pytest.approx(error)
            assert analysis.margin(slot) == pytest.approx(CLEAR_ERRORS * error)
            assert analysis.costs[slot] - analysis.costs[best] == pytest.approx(
                statistics.fmean(differences)
            )


RULES = (RuleSet(), RuleSet(jack_of_diamonds=True), RuleSet(moon="subtract"))
#: Deals a review searches in the agreement test, and the hint (at least as many: "enough").
REVIEW_SAMPLES = 300
HINT_SAMPLES = 600


def agreement_positions(count: int) -> list[Decision]:
    """Decisions of seat 0 (random or normal play) in hands under several rules: passes and
    plays with a choice."""
    found: list[Decision] = []
    seed = 0
    while len(found) < count:
        controller = played_hand(seed, ("random", "normal")[seed % 2], RULES[seed % 3])
        for decision in seat_decisions(controller, 0, 1):
            if decision.kind == "pass" or decision.observation.legal_mask().bit_count() > 1:
                found.append(decision)
        seed += 1
    return found[:count]


#: Positions of the 200 where the hint may contradict the review (its clear calls or its best
#: choices). The margin is three standard errors, so noise alone contradicts a clear call a few
#: times in a thousand: 68 runs of this loop on other seeds (two readers) found at most one in
#: 200 positions, in 11 of the 68.
CONTRADICTIONS_ALLOWED = 1


def test_the_hint_agrees_with_the_clear_calls_of_the_review_on_200_positions() -> None:
    # The hint is the same evaluation (``analyse``) on other deals (another seed), with at
    # least the review's deals. Whenever the review calls the chosen action clearly worse,
    # the hint does not recommend it; whenever the review names one best choice clear of
    # every other, the hint recommends exactly that one; and the hint's choice is among the
    # review's best choices (those not clearly worse than its best). Each holds in every
    # position but, by the search's noise, at most one of the 200.
    decisions = agreement_positions(200)
    assert sum(1 for d in decisions if d.kind == "pass") >= 10
    single = clear = 0
    contradicted: list[tuple[int, str]] = []
    for number, decision in enumerate(decisions):
        review = review_decision(decision, REVIEW_SAMPLES, seed=number)
        hint = analyse(decision.observation, HINT_SAMPLES, seed=10_000 + number)
        recommended = hint.candidates[hint.best]
        if recommended not in review.best_choices:
            contradicted.append((number, f"hint {recommended} not among {review.best_choices}"))
        if review.loss > 0 and review.clear:
            clear += 1
            if recommended == tuple(sorted(decision.chosen)):
                contradicted.append((number, f"hint {recommended} clearly worse by the review"))
        if not review.close:
            single += 1
            if recommended != review.best:
                contradicted.append((number, f"hint {recommended}, the one best {review.best}"))
    positions = {number for number, _ in contradicted}
    assert len(positions) <= CONTRADICTIONS_ALLOWED, contradicted
    # The test means something: many calls were clear, and many positions had one best.
    print(f"clear calls {clear}, one best choice {single}, contradicted {contradicted}")
    assert clear > 40 and single > 50, (clear, single)
