"""The coach in the background: the person's finished hands are reviewed as they end, the review
page then opens at once, a page's own review comes first, and a finished match's points lost
per decision join the statistics and their trend.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pygame
from positions import play_randomly
from table_driver import MakeDriver, open_title
from test_review_page import open_review, play_hand_by_keys, small_samples

from ai.review import classify, finished_hands, review_record
from core.controller import Controller
from core.record import dumps_record
from game.table.bot_requests import InlineBots
from game.table.coach import Coach, review_key
from game.table.review_requests import TABLE_REVIEW_SAMPLES, TABLE_REVIEW_SEED, InlineReviews
from game.table.scenes.pages import StatsPage
from game.table.scenes.review import ReviewPage
from game.table.session import TableSession
from game.table.store.review_file import load_reviews, reviews_text
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
    small_samples(driver)
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
    app.books.change_stats(stats)
    page = StatsPage(app)
    assert page.has_trend()
    app.push(page)
    driver.step()
    with_trend = pygame.image.tobytes(app.screen, "RGB")
    app.books.change_stats(
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


def test_reviews_are_kept_with_the_saved_match_and_reopen_at_once(
    drivers: MakeDriver, home: Path
) -> None:
    driver = drivers()
    summary = play_hand_by_keys(driver)
    session = driver.table.session
    driver.run_until(lambda: review_key(1) in session.reviews, max_frames=400)
    driver.step()
    kept = session.reviews[review_key(1)]
    driver.key(pygame.K_RETURN)  # on to the next hand; the match is saved
    assert summary is not driver.top
    driver.close()
    dirs = driver.app.dirs
    assert dirs.reviews_file.exists()
    # A later session continues the match: the review is there before anything computes.
    later = drivers()
    title = open_title(later)
    assert title.has_saved_game
    later.click(later.menu_item_pos("Continue the match"), frames=2)
    resumed = later.table.session
    assert resumed.reviews == {review_key(1): kept}
    assert later.app.coach.pending(resumed) == []
    later.app.push_scene("review", later.table, 1, 0)
    page = later.top
    assert isinstance(page, ReviewPage) and page.review == kept and not page.computing
    later.close()
    # A file of another match is left out; a file that is not JSON is set aside with a message.
    other = finished_session(5).controller
    assert load_reviews(dirs.reviews_file, other, finished_hands(other)) == ({}, None)
    dirs.reviews_file.write_text("{not json")
    reviews, message = load_reviews(dirs.reviews_file, resumed.controller, [1])
    assert reviews == {} and message is not None and "moved to" in message
    assert not dirs.reviews_file.exists()
    assert home.exists()


def test_a_review_that_does_not_fit_the_match_is_left_out(tmp_path: Path) -> None:
    session = finished_session(6)
    controller = session.controller
    hands = finished_hands(controller)
    coach = Coach(InlineReviews())
    for _ in range(40):
        coach.tick(session, page_open=False)
        if review_key(1) in session.reviews:
            break
    path = tmp_path / "reviews.json"
    path.write_text(reviews_text(controller, session.reviews))
    assert load_reviews(path, controller, hands) == (session.reviews, None)
    data = json.loads(path.read_text())
    good = data["reviews"][0]
    broken = [
        {**good, "hand": 999},
        {**good, "seat": 7},
        {**good, "decisions": [{**good["decisions"][1], "chosen": ["XX"]}]},
        {**good, "decisions": [{**good["decisions"][1], "loss": -1}]},
        {**good, "decisions": [{**good["decisions"][0], "chosen": ["QS"]}]},
        {**good, "decisions": [{**good["decisions"][0], "margin": -1}]},
        {**good, "decisions": [{**good["decisions"][0], "close": [["QS"]]}]},
        {**good, "decisions": [{**good["decisions"][0], "why": {"template": "nap"}}]},
        {**good, "decisions": [{**good["decisions"][0], "best_outcome": {"tallies": [1]}}]},
        "a review",
    ]
    data["reviews"] = [*broken, good]
    path.write_text(json.dumps(data))
    assert load_reviews(path, controller, hands) == (session.reviews, None)


def test_a_review_kept_before_margins_were_measured_grades_by_its_losses(tmp_path: Path) -> None:
    session = finished_session(6)
    controller = session.controller
    coach = Coach(InlineReviews())
    for _ in range(40):
        coach.tick(session, page_open=False)
        if review_key(1) in session.reviews:
            break
    kept = session.reviews[review_key(1)]
    assert any(decision.explanation is not None for decision in kept.decisions)
    data = json.loads(reviews_text(controller, session.reviews))
    new_fields = ("margin", "close", "chosen_outcome", "best_outcome", "why")
    for decision in data["reviews"][0]["decisions"]:
        for field in new_fields:
            del decision[field]
    path = tmp_path / "reviews.json"
    path.write_text(json.dumps(data))
    reviews, message = load_reviews(path, controller, finished_hands(controller))
    old = reviews[review_key(1)]
    assert message is None and len(old.decisions) == len(kept.decisions)
    for before, after in zip(kept.decisions, old.decisions, strict=True):
        assert after.margin is None and after.explanation is None and after.clear
        assert after.grade == classify(before.loss)
        assert (after.loss, after.best, after.chosen) == (before.loss, before.best, before.chosen)
