"""Asking for a hand's review without waiting: the table's side of the review worker.

The review page submits a review and polls for news once a frame; it never blocks. The real
reviews run in ``ai.review_worker.ReviewWorker``'s process; ``InlineReviews`` reviews one
decision per poll in this process, for tests and tools that want no second process: the same
results (each decision's search has its own seed), the same interface.
"""

from __future__ import annotations

import itertools
from typing import Protocol

from ai.review import DEFAULT_SEED, Decision, DecisionReview, Review, review_decision
from ai.review import seat_decisions as _seat_decisions
from ai.review_worker import ReviewUpdate, ReviewWorker
from core.errors import HeartsError
from core.record import loads_record

#: Deals searched per decision at the table: the same as ``mdhearts review``, so both read
#: alike. A hand's 14 decisions took 0.2–0.3 s with the compiled search on a 2-core machine,
#: 0.35 s for the first review with the worker's start (10 000 deals, the most, about 2 s).
TABLE_REVIEW_SAMPLES = 1000
#: The seed of the table's reviews, so a hand reviewed twice reads the same.
TABLE_REVIEW_SEED = DEFAULT_SEED


class AsyncReviews(Protocol):
    """Submit one review at a time, poll for its progress and result, cancel it."""

    def submit(self, record: str, seat: int, hand: int, samples: int, seed: int) -> int:
        """Ask for a review (cancelling the one before) and return its id at once."""
        ...

    def poll(self) -> list[ReviewUpdate]:
        """Return the news of the wanted review since the last poll, without waiting."""
        ...

    def cancel(self) -> None:
        """Stop the review in flight; its news is dropped."""
        ...

    def close(self) -> None:
        """Release what the reviews hold (the worker process)."""
        ...


#: The reviews of the bot worker's table: in a process of their own.
WorkerReviews = ReviewWorker


class InlineReviews:
    """Reviews computed in this process, one decision per poll (deterministic for tests)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._id: int | None = None
        self._todo: list[Decision] = []
        self._done: list[DecisionReview] = []
        self._settings = (0, 0)
        #: Ids submitted so far, and polls that reviewed a decision (for tests).
        self.submitted = 0
        self.steps = 0

    def submit(self, record: str, seat: int, hand: int, samples: int, seed: int) -> int:
        """Queue a review; its decisions are reviewed on the polls that follow."""
        self._id = request_id = next(self._ids)
        self.submitted += 1
        self._settings = (samples, seed)
        self._done = []
        try:
            self._todo = _seat_decisions(loads_record(record), seat, hand)
            self._error: str | None = None
        except (HeartsError, ValueError) as error:
            self._todo, self._error = [], str(error)
        return request_id

    def poll(self) -> list[ReviewUpdate]:
        """Review the next decision of the wanted review and report it."""
        request_id = self._id
        if request_id is None:
            return []
        if self._error is not None:
            self._id = None
            return [ReviewUpdate(request_id, 0, 0, error=self._error)]
        total = len(self._done) + len(self._todo)
        if self._todo:
            samples, seed = self._settings
            self._done.append(review_decision(self._todo.pop(0), samples, seed))
            self.steps += 1
        done = len(self._done)
        if self._todo:
            return [ReviewUpdate(request_id, done, total)]
        self._id = None
        return [ReviewUpdate(request_id, done, total, review=Review(tuple(self._done)))]

    def cancel(self) -> None:
        """Forget the review in flight."""
        self._id = None
        self._todo = []

    def close(self) -> None:
        """Forget the review in flight."""
        self.cancel()
