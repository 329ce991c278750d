"""A coach's review of one seat's decisions: what each cost, measured by the hard bot's search.

**What is measured.** For every decision of the seat in a hand — its pass and its plays — the
hard bot's search (``ai.hard``) values each candidate from the seat's ``Observation`` at that
moment, and from nothing else: the cards the seat could not see are dealt at random among the
deals consistent with what it knew, exactly as the bot deals them when it plays. A value is the
expected cost of the action for the hand in points of Diff: the seat's own points minus the
mean of the others' (shooting the moon counts −26), plus the match's weight when the hand may
end the match (``ai.hard.MATCH_WEIGHT``). The chosen action is valued on the same deals as
every other candidate (for a pass, the chosen three cards join the bot's candidate sets), so
``loss = cost(chosen) − cost(best)`` compares like with like and is never negative. A forced
play (one legal card) loses nothing and is not searched.

**What the numbers mean.** A loss of 1 means the choice gave away, on average, one point of
score difference against the table in this hand, compared with the best choice the search
found. ``classify`` names the size of a loss: *fine* below ``INACCURACY_POINTS``, an
*inaccuracy* below ``MISTAKE_POINTS``, a *mistake* from there up.

**Noise.** The search samples deals, so a loss is an estimate. Its *margin* is
``CLEAR_ERRORS`` standard errors of the difference between the two actions, taken deal by
deal over the deals that valued both (the luck of the cards cancels out of a paired
difference). A loss is *clear* when it exceeds its margin; a decision is an inaccuracy or a
mistake only when its loss is clear, and a loss of an inaccuracy's size that is not clear is
*too close to call* (graded fine). The *best choices* are the best one found and every other
candidate that is not clearly worse than it: when they are one action, the same search of the
same position on other deals, with at least as many (a hint's, made with ``analyse``), finds
the same best action, except by a chance of a few in a thousand.

**Why.** For a loss, the search's tallies (``ai.outcomes``) say what the chosen and the best
action led to over the same deals, and ``ai.explain`` says in one sentence which part of the
cost differs most, with both numbers.

**Totals.** ``Review.summary`` lists the inaccuracies, the mistakes and the losses too close
to call, and groups every other loss as small slips: the listed losses and the slips add up
to the total exactly (all are rounded to ``DECIMALS`` first).

**Repeatable.** Each decision's search is seeded from the review's seed, the hand, the seat
and the trick, and stops after ``samples`` deals: the same record, seed and sample count give
the same review on any machine, and a decision's review does not depend on which others are
reviewed with it. A time limit (``think_ms``) can cut a search short, and then the result may
depend on the machine's speed.

The functions take plain data and return plain data (frozen dataclasses with ``to_dict``), so
a worker process can run a review from a record's text and send the result back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.bot import Budget
from ai.explain import Explanation, explain
from ai.hard import HardBot
from ai.outcomes import Outcome
from core.actions import PassAction
from core.cards import card_text, count, has_card
from core.controller import Controller
from core.match import EarlierHands, HandRecord, MatchState
from core.observation import Observation
from core.record import loads_record

#: A decision losing at least this many points is an inaccuracy: a real but small slip.
INACCURACY_POINTS = 0.5
#: A decision losing at least this many points is a mistake: worth remembering.
MISTAKE_POINTS = 1.5
#: Deals searched per decision unless asked otherwise.
DEFAULT_SAMPLES = 1000
#: Most deals a decision may be searched on (more measure no better than the search plays).
MAX_SAMPLES = 10_000
#: The seed of a review unless asked otherwise, so a plain review always reads the same.
DEFAULT_SEED = 0
#: Decimals of the losses and costs a review reports.
DECIMALS = 2
#: Standard errors of a paired difference that make its margin: a loss beyond it is clear.
#: Three keep the chance that noise alone looks clear near one in a thousand.
CLEAR_ERRORS = 3.0

#: Called after each decision with the number reviewed so far and the number to review. It may
#: raise to stop the review (the exception goes through to the caller).
Progress = Callable[[int, int], None]


class ReviewError(ValueError):
    """A review that cannot be done: no such hand or seat in the record, or a bad setting."""


class ReviewCancelled(Exception):
    """A review stopped because its ``cancelled`` check said so."""


def classify(loss: float) -> str:
    """Return ``fine``, ``inaccuracy`` or ``mistake`` for a loss in points of Diff.

    >>> [classify(loss) for loss in (0.0, 0.49, 0.5, 1.49, 1.5, 7.0)]
    ['fine', 'fine', 'inaccuracy', 'inaccuracy', 'mistake', 'mistake']
    """
    if loss >= MISTAKE_POINTS:
        return "mistake"
    if loss >= INACCURACY_POINTS:
        return "inaccuracy"
    return "fine"


@dataclass(frozen=True)
class Decision:
    """One decision to review: the hand's number, what the seat saw, and what it chose.

    ``chosen`` is the card played, or the three cards passed in the order chosen. The
    observation is all a review reads: two decisions with equal fields are reviewed alike.
    """

    hand: int
    observation: Observation
    chosen: tuple[int, ...]

    @property
    def kind(self) -> str:
        """Return ``pass`` or ``play``."""
        return "pass" if self.observation.must_pass else "play"

    @property
    def trick(self) -> int | None:
        """Return the number (1–13) of the trick played to, or None for the pass."""
        return None if self.observation.must_pass else len(self.observation.tricks)


@dataclass(frozen=True)
class DecisionReview:
    """The review of one decision.

    ``chosen`` and ``best`` are one card or three (``best`` equals ``chosen`` when the choice
    was the best one found); ``loss`` is in points of Diff, rounded to ``DECIMALS``;
    ``chosen_cost`` and ``best_cost`` are the expected costs (None for a forced play, which is
    not searched); ``samples`` is the number of deals searched. ``margin`` is the loss's noise
    (``CLEAR_ERRORS`` paired standard errors; None when not measured: a forced play, or a
    review kept from before margins were measured, whose losses count as clear);
    ``close`` the other actions within the noise of the best one (the chosen one among them
    when it is); ``chosen_outcome`` and ``best_outcome`` what the two led to
    (``ai.outcomes``); ``explanation`` why the chosen action cost more (None when it was the
    best one).
    """

    hand: int
    seat: int
    kind: str
    trick: int | None
    chosen: tuple[int, ...]
    best: tuple[int, ...]
    loss: float
    chosen_cost: float | None
    best_cost: float | None
    samples: int
    margin: float | None = None
    close: tuple[tuple[int, ...], ...] = ()
    chosen_outcome: Outcome | None = None
    best_outcome: Outcome | None = None
    explanation: Explanation | None = None

    @property
    def clear(self) -> bool:
        """Return whether the loss is clear of the search's noise (see the module notes)."""
        return self.margin is None or self.loss > self.margin

    @property
    def grade(self) -> str:
        """Return the class of the loss: ``fine``, ``inaccuracy`` or ``mistake`` (a loss that
        is not clear of the noise is fine)."""
        return classify(self.loss) if self.clear else "fine"

    @property
    def too_close(self) -> bool:
        """Return whether the loss is of an inaccuracy's size but not clear of the noise."""
        return not self.clear and classify(self.loss) != "fine"

    @property
    def best_choices(self) -> tuple[tuple[int, ...], ...]:
        """Return the best action found and those within its noise (``close``), each in card
        order."""
        return (tuple(sorted(self.best)), *self.close)

    @property
    def forced(self) -> bool:
        """Return whether the seat had only one legal card."""
        return self.chosen_cost is None

    def to_dict(self) -> dict[str, Any]:
        """Return the decision as ``mdhearts review --json`` prints it."""
        return {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.kind,
            "trick": self.trick,
            "chosen": _cards_json(self.kind, self.chosen),
            "best": _cards_json(self.kind, self.best),
            "loss": self.loss,
            "margin": self.margin,
            "clear": self.clear,
            "too_close": self.too_close,
            "class": self.grade,
            "close": [_cards_json(self.kind, cards) for cards in self.close],
            "why": None if self.explanation is None else self.explanation.text,
            "why_part": None if self.explanation is None else self.explanation.part,
            "chosen_outcome": _outcome_json(self.chosen_outcome),
            "best_outcome": _outcome_json(self.best_outcome),
        }


@dataclass(frozen=True)
class Review:
    """The review of a seat's decisions, in the order they were made."""

    decisions: tuple[DecisionReview, ...]

    @property
    def total_loss(self) -> float:
        """Return the points lost to all the decisions together."""
        return _points(sum(_hundredths(decision.loss) for decision in self.decisions))

    def summary(self) -> LossSummary:
        """Return the losses as listed (see the module notes, "Totals")."""
        listed = tuple(d for d in self.decisions if d.grade != "fine" or d.too_close)
        slips = [d for d in self.decisions if d not in listed and d.loss > 0]
        return LossSummary(
            listed,
            len(slips),
            _points(sum(_hundredths(d.loss) for d in slips)),
            self.total_loss,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the review as ``mdhearts review --json`` prints it."""
        summary = self.summary()
        return {
            "decisions": [decision.to_dict() for decision in self.decisions],
            "total_loss": self.total_loss,
            "small_slips": {"count": summary.slips, "loss": summary.slips_loss},
        }


@dataclass(frozen=True)
class LossSummary:
    """A review's losses as a coach lists them: the ``listed`` decisions (inaccuracies,
    mistakes, losses too close to call), the other decisions that lost something grouped as
    ``slips`` small slips losing ``slips_loss`` together, and the ``total``, which is the sum
    of the listed losses and ``slips_loss`` exactly."""

    listed: tuple[DecisionReview, ...]
    slips: int
    slips_loss: float
    total: float


def _hundredths(points: float) -> int:
    return round(points * 10.0**DECIMALS)


def _points(hundredths: int) -> float:
    return round(hundredths / 10.0**DECIMALS, DECIMALS)


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_dict()


def _cards_json(kind: str, cards: Sequence[int]) -> str | list[str]:
    if kind == "pass":
        return [card_text(card) for card in cards]
    return card_text(cards[0])


# -- the decisions of a hand ------------------------------------------------------------------


def hand_numbers(controller: Controller) -> range:
    """Return the numbers of the hands a record holds in full (a long match folds the first)."""
    match = _match_of(controller)
    first = match.earlier.count + 1
    return range(first, first + len(match.hands))


def finished_hands(controller: Controller) -> list[int]:
    """Return the numbers of the hands of the record that are played to the end."""
    numbers = hand_numbers(controller)
    return list(numbers[: len(controller.hand_scores)])


def seat_decisions(controller: Controller, seat: int, hand: int) -> list[Decision]:
    """Return ``seat``'s decisions in hand number ``hand`` of a match, in the order made.

    The hand is replayed from its deal; at each of the seat's actions the seat's observation
    is taken, so the decisions carry what the seat knew then and nothing more. An unfinished
    hand gives the decisions made so far. Raises ReviewError for a seat or hand not in it.
    """
    if not 0 <= seat <= 3:
        raise ReviewError(f"seat {seat} is not a seat: seats are 0 to 3")
    match = _match_of(controller)
    numbers = hand_numbers(controller)
    if hand not in numbers:
        raise ReviewError(_not_in_record(hand, numbers))
    index = hand - numbers.start
    record = match.hands[index]
    totals = list(match.earlier.totals)
    for score in controller.hand_scores[:index]:
        totals = [total + points for total, points in zip(totals, score.points, strict=True)]
    start = MatchState(
        match.rules,
        match.seed,
        match.seats,
        [HandRecord(record.deal, record.direction)],
        EarlierHands(hand - 1, (totals[0], totals[1], totals[2], totals[3])),
    )
    replay = Controller.from_match(start)
    decisions = []
    for action in record.actions:
        if action.seat == seat:
            chosen = action.cards if isinstance(action, PassAction) else (action.card,)
            decisions.append(Decision(hand, replay.observation(seat), chosen))
        if isinstance(action, PassAction):
            result = replay.submit_pass(action.seat, action.cards)
        else:
            result = replay.play_card(action.seat, action.card)
        if not result.ok:  # the record was checked when it was loaded
            raise RuntimeError(f"hand {hand} does not replay: {result.error}")
    return decisions


def _match_of(controller: Controller) -> MatchState:
    match = controller.match
    if match is None:
        raise ReviewError("there is no match to review")
    return match


def _not_in_record(hand: int, numbers: range) -> str:
    if len(numbers) == 1:
        return f"hand {hand} is not in the record: it holds hand {numbers.start} only"
    return f"hand {hand} is not in the record: it holds hands {numbers.start} to {numbers[-1]}"


# -- reviewing --------------------------------------------------------------------------------


def check_samples(samples: int) -> int:
    """Return ``samples`` if it is a usable number of deals per decision, else raise."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 0 < samples <= MAX_SAMPLES:
        raise ReviewError(f"samples must be a whole number from 1 to {MAX_SAMPLES}")
    return samples


def decision_seed(seed: int, decision: Decision) -> int:
    """Return the seed of one decision's search: from the review's seed and where it stands."""
    where = f"{seed}/{decision.hand}/{decision.observation.seat}/{decision.trick or 0}"
    return random.Random(f"mdhearts-review/{where}").getrandbits(63)


@dataclass(frozen=True)
class Analysis:
    """The values of the candidates of one decision, all measured on the same deals.

    ``kind`` is ``pass`` or ``play``; ``candidates`` hold one card each in play (every legal
    card, in card order) or three cards in a pass (in card order); ``costs`` are their expected
    costs in points of Diff for the hand, lower is better; ``best`` is the slot of the lowest
    (ties: the earliest); ``samples`` is the number of deals searched.
    """

    kind: str
    candidates: tuple[tuple[int, ...], ...]
    costs: tuple[float, ...]
    best: int
    samples: int
    #: Per candidate, the standard error of its cost minus the best one's, taken deal by deal
    #: (0 for the best one).
    errors: tuple[float, ...] = ()
    #: Per candidate, what its runs led to (``ai.outcomes``).
    outcomes: tuple[Outcome, ...] = ()

    def margin(self, slot: int) -> float:
        """Return the noise margin of a candidate's loss (``CLEAR_ERRORS`` standard errors)."""
        return CLEAR_ERRORS * self.errors[slot]

    def best_choices(self) -> tuple[int, ...]:
        """Return the slots of the best candidate and of every other candidate whose loss is
        not clear of the noise, best first, then in candidate order."""
        best = self.best
        close = [
            slot
            for slot in range(len(self.candidates))
            if slot != best and self.costs[slot] - self.costs[best] <= self.margin(slot)
        ]
        return (best, *close)


def analyse(
    observation: Observation,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    budget: Budget | None = None,
    include: Iterable[Sequence[int]] = (),
) -> Analysis:
    """Return the value of every legal card, or of the candidate passes, for the observing seat.

    A pass is valued over the hard bot's candidate sets and the ``include``d sets of three
    cards of the hand. The search stops after ``samples`` deals, or when the budget runs out
    (after one deal at least). Raises ValueError when the seat has no pass or play to make, or
    an included set is not three different cards of the hand.
    """
    check_samples(samples)
    bot = HardBot(seed=seed, max_samples=samples)
    if observation.must_pass:
        values = bot.pass_values(observation, budget, extra=include, min_samples=1)
    else:
        if any(True for _ in include):
            raise ValueError("only a pass has card sets to include")
        values = bot.play_values(observation, budget, min_samples=1)
    slots = range(len(values.candidates))
    best = values.best()
    return Analysis(
        "pass" if observation.must_pass else "play",
        values.candidates,
        tuple(values.mean(slot) for slot in slots),
        best,
        values.samples,
        tuple(0.0 if slot == best else values.paired(slot, best)[1] for slot in slots),
        tuple(values.outcome(slot) for slot in slots),
    )


def review_decision(
    decision: Decision,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    think_ms: float | None = None,
    *,
    cancelled: Callable[[], bool] | None = None,
) -> DecisionReview:
    """Return the review of one decision, searched on ``samples`` deals.

    ``think_ms`` stops the search sooner if it runs that long (after one deal at least).
    ``cancelled`` is asked between deals: once it holds, the search stops and ReviewCancelled
    is raised. Raises ValueError when the chosen action was not one the seat could take.
    """
    check_samples(samples)
    observation = decision.observation
    seat = observation.seat
    chosen = decision.chosen
    if decision.kind == "play":
        legal = observation.legal_mask()
        if len(chosen) != 1 or not has_card(legal, chosen[0]):
            raise ValueError(f"seat {seat} could not play {_text(chosen)}")
        if count(legal) == 1:
            return DecisionReview(
                decision.hand, seat, "play", decision.trick, chosen, chosen, 0.0, None, None, 0
            )
    analysis = analyse(
        observation,
        samples,
        decision_seed(seed, decision),
        Budget.for_ms(think_ms, cancelled) if think_ms is not None or cancelled else None,
        (chosen,) if decision.kind == "pass" else (),
    )
    if cancelled is not None and cancelled():
        raise ReviewCancelled(f"the review of hand {decision.hand} was cancelled")
    chosen_slot = analysis.candidates.index(tuple(sorted(chosen)))
    best_slot = analysis.best
    chosen_cost = analysis.costs[chosen_slot]
    best_cost = analysis.costs[best_slot]
    best = chosen if best_slot == chosen_slot else analysis.candidates[best_slot]
    why = None
    if best_slot != chosen_slot:
        why = explain(
            decision.kind,
            observation.hand,
            chosen,
            best,
            analysis.outcomes[chosen_slot],
            analysis.outcomes[best_slot],
        )
    # The best candidate has the lowest cost over the same deals: the loss is never below 0.
    return DecisionReview(
        decision.hand,
        seat,
        decision.kind,
        decision.trick,
        chosen,
        best,
        round(chosen_cost - best_cost, DECIMALS),
        round(chosen_cost, DECIMALS),
        round(best_cost, DECIMALS),
        analysis.samples,
        round(analysis.margin(chosen_slot), DECIMALS),
        tuple(analysis.candidates[slot] for slot in analysis.best_choices()[1:]),
        analysis.outcomes[chosen_slot],
        analysis.outcomes[best_slot],
        why,
    )


def review_decisions(
    decisions: Iterable[Decision],
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    think_ms: float | None = None,
    progress: Progress | None = None,
    *,
    cancelled: Callable[[], bool] | None = None,
) -> Review:
    """Return the review of these decisions (see ``review_decision``), reporting progress.

    ``cancelled`` is asked during each search: once it holds, ReviewCancelled is raised.
    """
    check_samples(samples)
    todo = list(decisions)
    reviewed = []
    for decision in todo:
        reviewed.append(review_decision(decision, samples, seed, think_ms, cancelled=cancelled))
        if progress is not None:
            progress(len(reviewed), len(todo))
    return Review(tuple(reviewed))


def review_hands(
    controller: Controller,
    seat: int,
    hands: Iterable[int],
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    think_ms: float | None = None,
    progress: Progress | None = None,
) -> Review:
    """Return the review of ``seat``'s decisions in these hands of a match, hand by hand.

    ``controller`` holds the match, e.g. ``core.record.loads_record(text)``. Raises
    ReviewError for a seat or hand the record does not hold.
    """
    check_samples(samples)
    decisions = [decision for hand in hands for decision in seat_decisions(controller, seat, hand)]
    return review_decisions(decisions, samples, seed, think_ms, progress)


def review_record(
    record: str | bytes,
    seat: int,
    hands: Iterable[int],
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    think_ms: float | None = None,
    progress: Progress | None = None,
) -> Review:
    """Return the review of ``seat``'s decisions in these hands of a record's text.

    The whole input is plain data, so a worker process can be handed it. Raises RecordError
    for text that is not a valid record, ReviewError for a seat or hand it does not hold.
    """
    controller = loads_record(record)
    return review_hands(controller, seat, hands, samples, seed, think_ms, progress)


def _text(cards: Sequence[int]) -> str:
    return " ".join(card_text(card) for card in cards)
