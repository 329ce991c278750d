"""The coach in the background: the person's finished hands reviewed one after another.

While the person plays, each hand they finish is reviewed through ``app.reviews`` (the review
worker process), one request at a time, so "Review this hand" usually opens at once and the
statistics learn, per match, the points lost per decision. The coach never competes with a
review page: while one is open, the page owns the reviews (its request cancels the coach's),
and the coach asks again once it closes. A review kept with the match is never asked again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.review import finished_hands
from core.controller import Controller
from core.record import dumps_record
from game.table.match.port import HUMAN_SEAT, ReviewKey
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED, AsyncReviews
from game.table.session import TableSession


@dataclass(frozen=True)
class MatchReview:
    """The person's decisions in every hand of a finished match, and the points they lost."""

    decisions: int
    loss: float


def review_key(hand: int) -> ReviewKey:
    """Return the key of the table's review of the person's decisions in ``hand``."""
    return (hand, HUMAN_SEAT, TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED)


class Coach:
    """Reviews the finished hands of the person's match at the table, in the background."""

    def __init__(self, reviews: AsyncReviews) -> None:
        self.reviews = reviews
        #: The controller and hand of the review asked for, while it computes.
        self._asked: tuple[Controller, int] | None = None
        #: The match whose hands' reviews failed, and those hands: not asked again.
        self._failed_in: Controller | None = None
        self._failed: set[int] = set()
        #: Reviews asked for so far (for tests).
        self.asked = 0

    def pending(self, session: TableSession) -> list[int]:
        """Return the person's finished hands of the match not reviewed yet."""
        if not session.person_plays:
            return []
        failed = self._failed if self._failed_in is session.controller else set()
        return [
            hand
            for hand in finished_hands(session.controller)
            if review_key(hand) not in session.reviews and hand not in failed
        ]

    def tick(self, session: TableSession | None, page_open: bool) -> None:
        """Move the background reviews on (never waits): collect news, or ask for the next
        hand. ``session`` is the table's match (None: no table), ``page_open`` whether a review
        page owns the reviews now."""
        if page_open:
            self._asked = None  # the page's own request cancelled ours
            return
        if self._asked is not None and (
            session is None or self._asked[0] is not session.controller
        ):
            self.reviews.cancel()
            self._asked = None
        if session is None:
            return
        if self._asked is None:
            hands = self.pending(session)
            if hands:
                record = dumps_record(session.controller)
                self.reviews.submit(
                    record, HUMAN_SEAT, hands[0], TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED
                )
                self._asked = (session.controller, hands[0])
                self.asked += 1
            return
        for news in self.reviews.poll():
            if self._asked is None:
                break
            controller, hand = self._asked
            if news.review is not None:
                session.reviews[review_key(hand)] = news.review
                self._asked = None
            elif news.error is not None:
                if self._failed_in is not controller:
                    self._failed_in, self._failed = controller, set()
                self._failed.add(hand)
                self._asked = None

    def match_review(self, session: TableSession) -> MatchReview | None:
        """Return the review of the whole match once it is over and every hand is reviewed."""
        if session.phase != "match_over" or not session.person_plays:
            return None
        found = [
            session.reviews.get(review_key(hand)) for hand in finished_hands(session.controller)
        ]
        if not found or any(review is None for review in found):
            return None
        # A forced play is no decision: it would only dilute the mean.
        decisions = [
            decision
            for review in found
            if review is not None
            for decision in review.decisions
            if not decision.forced
        ]
        return MatchReview(len(decisions), sum(decision.loss for decision in decisions))
