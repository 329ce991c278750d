"""The coach in the background: the person's finished hands are reviewed as they end, the review
page then opens at once, a page's own review comes first, and a finished match's points lost
per decision join the statistics and their trend.
"""

from __future__ import annotations

import random

import pygame
from positions import play_randomly
from table_driver import MakeDriver
from test_review_page import open_review, play_hand_by_keys

from ai.review import finished_hands, review_record
from core.controller import Controller
from core.record import dumps_record
from game.table.bot_requests import InlineBots
from game.table.coach import Coach, review_key
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED, InlineReviews
from game.table.scenes.pages import StatsPage
from game.table.session import TableSession
from game.table.store.stats import MatchResult, Statistics


def test_a_finished_hand_is_reviewed_in_the_background_and_its_page_opens_at_once(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    summary = play_hand_by_keys(driver)
    session = driver.table.session
    driver.run_until(lambda: review_key(1) in session.reviews, max_frames=400)
    expected = review_record(driver.record(), 0, [1], TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED)
    assert session.reviews[review_key(1)] == expected
    page = open_review(driver, summary)
    assert page.review == expected and not page.computing, "the coach's review is reused"


def test_a_review_page_comes_first_and_the_coach_asks_again_after_it(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    summary = play_hand_by_keys(driver)
    coach = driver.app.coach
    session = driver.table.session
    asked = coach.asked
    driver.step()
    assert coach.asked == asked + 1 or review_key(1) in session.reviews
    # The page asks for its own review (fewer deals): the coach's request is cancelled.
    real = driver.app.push_scene

    def push(name: str, *args: object, **kwargs: object) -> None:
        if name == "review":
            kwargs.setdefault("samples", 40)
        real(name, *args, **kwargs)

    driver.app.push_scene = push  # type: ignore[method-assign]
    session.reviews.pop(review_key(1), None)
    page = open_review(driver, summary)
    driver.run_until(lambda: page.review is not None, max_frames=400)
    assert review_key(1) not in session.reviews, "the coach waits while a page owns the reviews"
    driver.key(pygame.K_ESCAPE)
    driver.run_until(lambda: review_key(1) in session.reviews, max_frames=400)
    expected = review_record(driver.record(), 0, [1], TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED)
    assert session.reviews[review_key(1)] == expected


def finished_session(seed: int) -> TableSession:
    """Return a table session over a match played to its end by random moves."""
    controller = Controller()
    assert controller.new_match(None, seed, ["human", "bot:easy", "bot:easy", "bot:easy"]).ok
    play_randomly(controller, random.Random(seed), 100_000)
    return TableSession(controller, {1: "easy", 2: "easy", 3: "easy"}, InlineBots())


def test_the_match_review_counts_every_hands_unforced_decisions() -> None:
    session = finished_session(3)
    coach = Coach(InlineReviews())
    hands = finished_hands(session.controller)
    assert coach.match_review(session) is None
    for _ in range(20 * len(hands)):
        coach.tick(session, page_open=False)
        if not coach.pending(session):
            break
    assert not coach.pending(session)
    found = coach.match_review(session)
    assert found is not None
    record = dumps_record(session.controller)
    reviews = [
        review_record(record, 0, [hand], TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED) for hand in hands
    ]
    unforced = [d for review in reviews for d in review.decisions if not d.forced]
    assert found.decisions == len(unforced)
    assert abs(found.loss - sum(d.loss for d in unforced)) < 1e-9
    # Watching the bots, nobody's decisions are reviewed.
    watched = TableSession(
        session.controller, {0: "easy", 1: "easy", 2: "easy", 3: "easy"}, InlineBots()
    )
    assert coach.pending(watched) == [] and coach.match_review(watched) is None


def test_the_statistics_keep_each_matchs_loss_per_decision_once() -> None:
    stats = Statistics().with_match(True, 40, difficulty="hard")
    reviewed = stats.with_match_review(50, 12.5, "hard")
    assert reviewed.recent[-1].loss_per_decision == 0.25
    assert reviewed.loss_per_decision == 0.25 and reviewed.tally("hard").loss_per_decision == 0.25
    assert reviewed.with_match_review(50, 30.0, "hard") == reviewed, "a match counts once"
    again, warnings = Statistics.from_dict(reviewed.to_dict())
    assert again == reviewed and warnings == []
    # A version-2 file (no coach's counts) loads whole; a bad loss drops only that match.
    old = {"version": 2, "recent": [{"difficulty": "hard", "points": 40, "won": True}]}
    loaded, warnings = Statistics.from_dict(old)
    assert loaded.recent == (MatchResult("hard", 40, True),) and warnings == []
    bad = {"recent": [{"difficulty": "hard", "points": 4, "won": True, "loss_per_decision": -1}]}
    loaded, warnings = Statistics.from_dict(bad)
    assert loaded.recent == () and len(warnings) == 1


def test_the_statistics_page_draws_the_trend_of_the_loss(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    stats = Statistics()
    for number in range(6):
        stats = stats.with_match(number % 2 == 0, 50 + number, difficulty="normal")
        if number != 2:
            stats = stats.with_match_review(40, 4.0 + number, "normal")
    app.change_stats(stats)
    page = StatsPage(app)
    assert page.has_trend()
    app.stack.push(page)
    driver.step()
    with_trend = pygame.image.tobytes(app.screen, "RGB")
    app.change_stats(
        Statistics(
            **{
                **stats.__dict__,
                "recent": tuple(MatchResult(r.difficulty, r.points, r.won) for r in stats.recent),
            }
        )
    )
    assert not page.has_trend()
    driver.step()
    assert pygame.image.tobytes(app.screen, "RGB") != with_trend
