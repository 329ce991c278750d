"""The hint: the review's own evaluation of the person's position, asked without waiting.

**Same evaluation as the review.** A hint is ``ai.review.analyse`` of the person's observation
with the table review's deals and seed (``TABLE_REVIEW_SAMPLES``, ``TABLE_REVIEW_SEED``, seeded
per decision by ``ai.review.decision_seed``): the search the review of that hand runs later on
the same decision. So whenever the review calls one choice clearly best, the hint recommended
it; a play is even searched on the very same deals, so its values are the review's.

**Why.** With the move comes one sentence on why it beats the runner-up: the next best choice
found that is clearly worse than it (the most tempting alternative the search can tell
apart), from the same tallies the review explains a loss with (``ai.explain``): "Why not 8♣:
8♣ keeps your clubs: you end up taking the Q♠ in 31% of deals (with A♥: 9%)." Choices within
the search's noise of the move are named first ("As good within the search's noise: 3♠."),
and when every choice is, the hint says so instead of explaining.

**Without waiting.** ``ThreadHints`` searches in a thread of this process (the compiled search
lets go of the interpreter while it plays deals out, so frames go on); a new request or a
cancel stops the one before within a batch of deals. ``InlineHints`` searches on the next poll,
for tools and tests whose bots answer inline too.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ai.bot import Budget
from ai.explain import explain
from ai.review import Analysis, Decision, analyse, decision_seed
from core.cards import card_label, card_text
from core.observation import Observation
from game.table.match.port import Hint
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED


@dataclass(frozen=True)
class CoachedHint(Hint):
    """A hint with the review's evaluation: the move, each candidate's cost (``values``, in
    points of Diff, lower is better), the runner-up, and why the move beats it.

    ``rival`` is the runner-up (the best candidate clearly worse than the move; None when
    there is none), ``close`` the candidates within the search's noise of the move, ``why``
    the words the panel shows (None when the move was the only candidate), ``part`` the part
    of the cost the explanation names (``ai.outcomes.PARTS``; None without a rival).
    """

    rival: tuple[int, ...] | None = None
    why: str | None = None
    part: str | None = None
    close: tuple[tuple[int, ...], ...] = ()


#: The most choices within the noise a hint names (the others are counted).
NAMED_CLOSE = 2


class HintCancelled(Exception):
    """A hint's search stopped because a newer request or a cancel replaced it."""


def _label(cards: tuple[int, ...]) -> str:
    return " ".join(card_text(card) for card in cards)


def _labels(cards: tuple[int, ...]) -> str:
    return " ".join(card_label(card) for card in cards)


def runner_up(analysis: Analysis) -> int | None:
    """Return the slot of the best candidate clearly worse than the best one (ties: the
    earliest), or None when every other is within the noise (or there is no other)."""
    close = set(analysis.best_choices())
    others = [slot for slot in range(len(analysis.candidates)) if slot not in close]
    if not others:
        return None
    return min(others, key=lambda slot: analysis.costs[slot])


def hint_of(observation: Observation, analysis: Analysis) -> CoachedHint:
    """Return the hint an analysis gives: its best candidate, every value, and why the best
    beats the runner-up (see the module notes)."""
    best = analysis.candidates[analysis.best]
    action: object = best if analysis.kind == "pass" else best[0]
    values = {
        _label(cards): round(cost, 3)
        for cards, cost in zip(analysis.candidates, analysis.costs, strict=True)
    }
    if len(analysis.candidates) == 1:
        return CoachedHint(action, values)
    close = tuple(analysis.candidates[slot] for slot in analysis.best_choices()[1:])
    named = ", ".join(_labels(cards) for cards in close[:NAMED_CLOSE])
    if len(close) > NAMED_CLOSE:
        named += f" and {len(close) - NAMED_CLOSE} more"
    rival_slot = runner_up(analysis)
    if rival_slot is None:
        why = f"Every other choice ({named}) is as good, within the search's noise."
        return CoachedHint(action, values, None, why, None, close)
    rival = analysis.candidates[rival_slot]
    explanation = explain(
        analysis.kind,
        observation.hand,
        rival,
        best,
        analysis.outcomes[rival_slot],
        analysis.outcomes[analysis.best],
    )
    why = f"Why not {_labels(rival)}: {explanation.text}"
    if close:
        why = f"As good within the search's noise: {named}. {why}"
    return CoachedHint(action, values, rival, why, explanation.part, close)


def coach_hint(
    observation: Observation,
    hand: int,
    samples: int = TABLE_REVIEW_SAMPLES,
    seed: int = TABLE_REVIEW_SEED,
    cancelled: Callable[[], bool] | None = None,
) -> CoachedHint:
    """Return the hint for the person's decision in hand number ``hand``: the review's search
    of the same decision (``samples`` deals, seeded as the review seeds it).

    Raises HintCancelled once ``cancelled`` holds, ValueError when the seat has nothing to
    decide.
    """
    decision_at = decision_seed(seed, Decision(hand, observation, ()))
    budget = None if cancelled is None else Budget.for_ms(None, cancelled)
    analysis = analyse(observation, samples, decision_at, budget)
    if cancelled is not None and cancelled():
        raise HintCancelled("the hint was asked again or cancelled")
    return hint_of(observation, analysis)


class AsyncHints(Protocol):
    """Submit one hint at a time, poll for it, cancel it."""

    def submit(self, observation: Observation, hand: int) -> int:
        """Ask for a hint (cancelling the one before) and return its id at once."""
        ...

    def poll(self) -> list[tuple[int, CoachedHint]]:
        """Return the hint asked for, once found, without waiting."""
        ...

    def cancel(self) -> None:
        """Stop the hint in flight; its answer is dropped."""
        ...


class InlineHints:
    """Hints searched in this process on the next poll (deterministic, for tools and tests)."""

    def __init__(self, samples: int = TABLE_REVIEW_SAMPLES) -> None:
        self.samples = samples
        self._ids = itertools.count(1)
        self._wanted: tuple[int, Observation, int] | None = None

    def submit(self, observation: Observation, hand: int) -> int:
        """Queue the hint; it is searched on the next poll."""
        request_id = next(self._ids)
        self._wanted = (request_id, observation, hand)
        return request_id

    def poll(self) -> list[tuple[int, CoachedHint]]:
        """Search the hint asked for, if any."""
        if self._wanted is None:
            return []
        request_id, observation, hand = self._wanted
        self._wanted = None
        return [(request_id, coach_hint(observation, hand, self.samples))]

    def cancel(self) -> None:
        """Forget the hint asked for."""
        self._wanted = None


class ThreadHints:
    """Hints searched in a thread of their own, one at a time; ``poll`` never waits."""

    def __init__(self, samples: int = TABLE_REVIEW_SAMPLES) -> None:
        self.samples = samples
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._wanted: int | None = None
        self._stop = threading.Event()
        self._found: list[tuple[int, CoachedHint]] = []

    def submit(self, observation: Observation, hand: int) -> int:
        """Start the search of a hint in a new thread, stopping the one before."""
        self.cancel()
        request_id = next(self._ids)
        stop = threading.Event()
        with self._lock:
            self._wanted, self._stop = request_id, stop
        thread = threading.Thread(
            target=self._search,
            args=(request_id, observation, hand, stop),
            name="mdhearts-hint",
            daemon=True,
        )
        thread.start()
        return request_id

    def _search(
        self, request_id: int, observation: Observation, hand: int, stop: threading.Event
    ) -> None:
        try:
            hint = coach_hint(observation, hand, self.samples, cancelled=stop.is_set)
        except (HintCancelled, ValueError):
            return
        with self._lock:
            if self._wanted == request_id:
                self._found.append((request_id, hint))

    def poll(self) -> list[tuple[int, CoachedHint]]:
        """Return the hint found since the last poll, if any."""
        with self._lock:
            found, self._found = self._found, []
        return found

    def cancel(self) -> None:
        """Stop the search in flight (within a batch of deals) and drop its answer."""
        with self._lock:
            self._stop.set()
            self._wanted = None
            self._found = []


class HintDesk:
    """The person's hint at the table: one asked at a time about one position (a stamp that
    changes with every move), its answer kept only while that position is the current one."""

    def __init__(self, hints: AsyncHints) -> None:
        self.hints = hints
        #: The position (stamp) the hint in flight was asked about.
        self._stamp: tuple[int, int] | None = None
        #: The hint found for the current position, once it has come.
        self.hint: Hint | None = None

    def ask(self, observation: Observation, hand: int, stamp: tuple[int, int]) -> None:
        """Ask for the hint of the position ``stamp`` (once: asking again waits on the same)."""
        if self._stamp != stamp:
            self.hints.submit(observation, hand)
            self._stamp = stamp

    def poll(self, stamp: tuple[int, int]) -> None:
        """Keep a hint that came for the position ``stamp``; drop one for an older position."""
        for _, hint in self.hints.poll():
            if self._stamp == stamp:
                self.hint = hint
            self._stamp = None

    def drop(self) -> None:
        """Stop the hint in flight and forget the one found (the position changed)."""
        self.hints.cancel()
        self._stamp = None
        self.hint = None
