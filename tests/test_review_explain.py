"""The coach says why: every template is met on real positions, and each names the part of
the cost that really differs most between the chosen and the better action."""

from __future__ import annotations

from dataclasses import replace

from test_review import played_hand

from ai import search_py as s
from ai.explain import TEMPLATES, explain, pass_effects, play_effects
from ai.outcomes import Outcome
from ai.review import Decision, DecisionReview, review_decision, seat_decisions
from core.cards import mask_of, parse_cards
from core.rules import RuleSet

RULES = (RuleSet(), RuleSet(jack_of_diamonds=True, no_tricks_bonus=True), RuleSet(moon="subtract"))
#: Match totals before the hand: none, and near the end for one seat or another.
SCORES = ((0, 0, 0, 0), (80, 95, 90, 85), (60, 98, 97, 99))
SAMPLES = 60
MOST_SEEDS = 400


def cost_parts(outcome: Outcome) -> dict[str, float]:
    """The parts of the mean cost in points, straight from the definitions in the docs: in
    a run with no moon a seat's points against the others' are its hearts, the Q♠, the J♦
    and the bonus against a quarter of each; a moon is −26 or +8⅔; the match its weight."""
    t, n = outcome.tallies, outcome.runs
    moons = t[s.TALLY_SHOT] + t[s.TALLY_CONCEDED]
    plain_runs = n - moons
    hearts_without_moon = t[s.TALLY_HEARTS] - 13 * t[s.TALLY_SHOT]
    queens_without_moon = t[s.TALLY_QUEEN] - t[s.TALLY_SHOT]
    jack = outcome.flags & RuleSet(jack_of_diamonds=True).flags
    bonus = outcome.flags & RuleSet(no_tricks_bonus=True).flags
    points = {
        "hearts": (hearts_without_moon - 13 / 4 * plain_runs) * 4 / 3,
        "queen": (queens_without_moon - plain_runs / 4) * 13 * 4 / 3,
        "jack": (t[s.TALLY_JACK] - n / 4) * -10 * 4 / 3 if jack else 0.0,
        "moon": -26 * t[s.TALLY_SHOT] + 26 / 3 * t[s.TALLY_CONCEDED],
        "bonus": -5 * t[s.TALLY_BONUS] + 5 / 3 * t[s.TALLY_OTHERS_BONUS] if bonus else 0.0,
        "match": outcome.match_weight / 3 * (t[s.TALLY_MATCH_LOST] - t[s.TALLY_MATCH_WON]),
    }
    return {name: value / n for name, value in points.items()}


def explained_decisions() -> list[DecisionReview]:
    """Reviewed decisions of seat 0 with a better choice than its own, under several rules and
    match totals, until every template has been met (or ``MOST_SEEDS`` hands)."""
    found: list[DecisionReview] = []
    templates: set[str] = set()
    for seed in range(MOST_SEEDS):
        controller = played_hand(seed, ("random", "normal")[seed % 2], RULES[seed % 3])
        scores = SCORES[seed // 3 % 3]
        for decision in seat_decisions(controller, 0, 1):
            decision = Decision(
                decision.hand, replace(decision.observation, scores=scores), decision.chosen
            )
            review = review_decision(decision, SAMPLES, seed=seed)
            if review.explanation is not None:
                found.append(review)
                templates.add(review.explanation.template)
        if templates == set(TEMPLATES):
            break
    return found


def test_every_template_is_met_and_names_the_part_that_differs_most() -> None:
    reviews = explained_decisions()
    assert {review.explanation.template for review in reviews if review.explanation} == set(
        TEMPLATES
    )
    for review in reviews:
        why = review.explanation
        chosen, best = review.chosen_outcome, review.best_outcome
        assert why is not None and chosen is not None and best is not None
        assert review.best != review.chosen and review.chosen_cost is not None
        mine, theirs = cost_parts(chosen), cost_parts(best)
        differences = {name: mine[name] - theirs[name] for name in mine}
        largest = max(differences.values())
        assert why.part in differences and differences[why.part] > largest - 1e-9, review
        assert why.difference == round(largest, 2)
        # The parts add up to the loss the review reports.
        assert sum(differences.values()) == _approx(review.loss)
        # The sentence gives both numbers of the part it names.
        assert _number(why.template, chosen) in why.text and _number(why.template, best) in why.text


def _approx(value: float) -> object:
    import pytest

    return pytest.approx(value, abs=0.011)


def _number(template: str, outcome: Outcome) -> str:
    rates = {
        "queen": outcome.queen,
        "jack": outcome.jack,
        "moon_conceded": outcome.conceded,
        "moon_shot": outcome.shot,
        "bonus": outcome.no_trick,
        "match_lost": outcome.match_lost,
        "match_won": outcome.match_won,
    }
    if template == "hearts":
        return f"{outcome.hearts:.1f}"
    return f"{round(100 * rates[template])}%"


def outcome(runs: int, **tallies: int) -> Outcome:
    counts = [0] * s.TALLY_SIZE
    for name, number in tallies.items():
        counts[getattr(s, f"TALLY_{name.upper()}")] = number
    return Outcome(runs, tuple(counts), 0, 150)


def cards(text: str) -> list[int]:
    return parse_cards(text)


def test_the_example_of_the_issue_reads_as_it_should() -> None:
    # A♥ wins the trick and keeps the clubs (8♣ was the last club): the Q♠ follows.
    hand = mask_of(cards("AH 3H 8C 2D 3D 4S"))
    chosen = outcome(100, queen=31, trick=90, hearts=150)
    better = outcome(100, queen=9, trick=10, hearts=150)
    why = explain("play", hand, cards("AH"), cards("8C"), chosen, better)
    assert why.text == (
        "A♥ wins this trick and keeps your clubs: you end up taking the Q♠ in 31% of deals "
        "(with 8♣: 9%)."
    )
    assert (why.template, why.part) == ("queen", "queen")


def test_what_a_play_does_at_once() -> None:
    hand = mask_of(cards("AH 3H 8C 2D 3D"))
    assert play_effects(hand, cards("8C")[0], cards("AH")[0], 0.1, 0.9) == [
        "lets this trick go",
        "empties your clubs",
    ]
    assert play_effects(hand, cards("2D")[0], cards("3D")[0], 0.4, 0.45) == []


def test_what_a_pass_does_to_the_hand() -> None:
    hand = mask_of(cards("QS 4S 9C 2C AH 3H 6D 7D 8D 9D TD JD QD"))
    assert pass_effects(hand, cards("9C 2C AH"), cards("QS 9C 2C")) == [
        "keeps the Q♠ with 1 other spade",
        "gives up your A♥, a stopper against the moon",
    ]
    assert pass_effects(hand, cards("QS 4S 2C"), cards("9C 2C AH")) == [
        "passes the Q♠",
        "empties your spades",
        "keeps your clubs",
    ]
    assert pass_effects(hand, cards("4S 9C 2C"), cards("QS 9C 2C")) == ["keeps the Q♠ unguarded"]
    # Two effects at most, joined by "and".
    why = explain(
        "pass",
        hand,
        cards("QS 4S 2C"),
        cards("9C 2C AH"),
        outcome(10, hearts=30),
        outcome(10, hearts=20),
    )
    assert why.text.startswith("Passing Q♠ 4♠ 2♣ passes the Q♠ and empties your spades: you end")
