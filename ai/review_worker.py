"""Reviews computed in a worker process of their own, so the table's frames never wait for one.

**Why a second process, not a request to the bot worker.** A review searches every decision
of a hand, for a second or more; the bot worker answers one decision at a time, in order. Put
in its queue, a review would hold back the bots' moves, and cancelling it through the bot
worker's shared floor (the oldest id still wanted) would cancel the bots' requests made before
it too. Its own process keeps the two apart: one review at a time, cancelled by its own floor,
reported as progress messages, on the second core while the bots use the first. It is started
on the first review asked (not at all for a person who never asks) and then kept for the next.

Its life is the bot worker's (``ai.worker``): started with ``spawn``, ended at ``close`` (politely,
then by force) and at exit, and by itself as soon as its parent is gone (``end_with_parent``).
This module is free of pygame and the process entry point is a top-level function.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import pickle
import queue
import signal
from dataclasses import dataclass
from typing import Any

from ai.lifetime import close_at_exit
from ai.review import Review, ReviewCancelled, review_decisions, seat_decisions
from ai.worker import end_with_parent, spawn_process, stop_process
from core.record import loads_record


@dataclass(frozen=True)
class ReviewRequest:
    """One review asked of the worker: a seat's decisions in one hand of a record's text."""

    id: int
    record: str
    seat: int
    hand: int
    samples: int
    seed: int


@dataclass(frozen=True)
class ReviewUpdate:
    """News of a review: ``done`` of ``total`` decisions reviewed; then its review or error."""

    id: int
    done: int
    total: int
    review: Review | None = None
    error: str | None = None

    @property
    def finished(self) -> bool:
        """Return whether the review is over (reviewed, or failed with ``error``)."""
        return self.review is not None or self.error is not None


# -- the worker process -----------------------------------------------------------------------


def run_review(request: ReviewRequest, results: Any, floor: Any) -> None:
    """Review one request, putting a ``ReviewUpdate`` on ``results`` before the first decision
    and after every one.

    The search stops within a batch of deals (milliseconds) once ``floor.value`` (the oldest
    id still wanted) has passed the request's id, and then nothing more is reported.
    """

    def cancelled() -> bool:
        return bool(floor.value > request.id)

    def progress(done: int, total: int) -> None:
        results.put(ReviewUpdate(request.id, done, total))

    try:
        decisions = seat_decisions(loads_record(request.record), request.seat, request.hand)
        progress(0, len(decisions))
        review = review_decisions(
            decisions, request.samples, request.seed, None, progress, cancelled=cancelled
        )
    except ReviewCancelled:
        return
    except ValueError as error:  # a record or hand that cannot be reviewed
        results.put(ReviewUpdate(request.id, 0, 0, error=str(error)))
        return
    total = len(review.decisions)
    results.put(ReviewUpdate(request.id, total, total, review=review))


def review_worker_main(requests: Any, results: Any, floor: Any) -> None:
    """The review worker process: run requests until the ``None`` sentinel or its parent's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    end_with_parent()
    while True:
        try:
            request = requests.get()
        except (EOFError, OSError):  # the main process is gone
            return
        if request is None:
            return
        if floor.value <= request.id:
            run_review(request, results, floor)


# -- the main side ----------------------------------------------------------------------------


class ReviewWorker:
    """The review process seen from the main process: submit, poll, cancel, close.

    One review is wanted at a time: a new request cancels the one before. ``poll`` never waits.
    A worker that dies is reported as an error of the review in flight; the next request starts
    a new one.
    """

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._requests: Any = None
        self._results: Any = None
        self._floor: Any = None
        self._floor_id = 0
        self._ids = itertools.count(1)
        self._wanted: int | None = None
        close_at_exit(self)

    @property
    def pid(self) -> int | None:
        """Return the worker process id, or None when none runs."""
        return None if self._process is None else self._process.pid

    def _start(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        self._stop(kill=True)
        self._process, self._requests, self._results, self._floor = spawn_process(
            self._context, review_worker_main, "mdhearts-review-worker", self._floor_id
        )

    def _stop(self, kill: bool) -> None:
        process, requests, results = self._process, self._requests, self._results
        self._process = self._requests = self._results = self._floor = None
        stop_process(process, requests, results, kill)

    def submit(self, record: str, seat: int, hand: int, samples: int, seed: int) -> int:
        """Ask for a review of ``seat``'s decisions in hand ``hand``; return its id at once."""
        request_id = next(self._ids)
        self._set_floor(request_id)
        self._wanted = request_id
        self._start()
        with contextlib.suppress(ValueError, OSError):
            self._requests.put(ReviewRequest(request_id, record, seat, hand, samples, seed))
        return request_id

    def cancel(self) -> None:
        """Cancel the review in flight: the worker's search stops within milliseconds."""
        if self._wanted is not None:
            self._set_floor(self._wanted + 1)
        self._wanted = None

    def _set_floor(self, request_id: int) -> None:
        self._floor_id = request_id
        if self._floor is not None:
            self._floor.value = request_id

    def poll(self) -> list[ReviewUpdate]:
        """Return the news of the wanted review since the last poll, without waiting."""
        updates: list[ReviewUpdate] = []
        if self._results is None:
            return updates
        failed = False
        try:
            while True:
                update = self._results.get_nowait()
                if update.id == self._wanted:
                    updates.append(update)
        except queue.Empty:
            pass
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):
            failed = True
        if self._wanted is not None and updates and updates[-1].finished:
            self._wanted = None
        elif self._wanted is not None and (failed or not self._process.is_alive()):
            updates.append(ReviewUpdate(self._wanted, 0, 0, error="the review worker stopped"))
            self._wanted = None
            self._stop(kill=True)
        return updates

    def close(self) -> None:
        """Stop the worker (politely, then by force); a later request starts a new one."""
        self.cancel()
        self._stop(kill=False)
