"""The review page: opened from the hand summary, computed off the frame loop, stepped through.

The App runs headless on the SDL dummy driver; the person's input is posted as real key and
mouse events (see table_driver.py).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import time
from typing import Any

import pygame
import pytest
from table_driver import Driver, MakeDriver
from test_processes import LINUX, is_gone, wait_until

from ai.explain import Explanation
from ai.review import DecisionReview, Review, review_record
from ai.review_worker import ReviewUpdate
from core.cards import FULL_DECK, mask_of
from game.table import review_requests
from game.table.coach import review_key
from game.table.review_requests import (
    TABLE_REVIEW_SEED,
    InlineReviews,
    WorkerReviews,
)
from game.table.scenes.pages import ScoreSheet
from game.table.scenes.review import ReviewPage, total_line
from game.table.scenes.summary import HandSummary

#: Few deals per decision, so the tests' reviews are quick (the page reads the same however many).
SAMPLES = 40


def play_hand_by_keys(driver: Driver) -> HandSummary:
    """Start a match and play the person's first hand with the keyboard; return the summary.

    The pass takes the focused card and the next two (↑ → ↑ → ↑, Enter); each play is the
    card the keyboard is on (always a legal one), with Enter.
    """
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    app.start_match()
    while True:
        driver.run_until(lambda: driver.ready_for_person() or driver.summary_shown())
        if driver.summary_shown():
            summary = driver.top
            assert isinstance(summary, HandSummary)
            return summary
        if driver.table.session.person_must_pass:
            for key in (pygame.K_UP, pygame.K_RIGHT, pygame.K_UP, pygame.K_RIGHT, pygame.K_UP):
                driver.key(key)
            driver.key(pygame.K_RETURN)
        else:
            driver.key(pygame.K_RETURN)


def open_review(driver: Driver, summary: HandSummary) -> ReviewPage:
    """Click the summary's "Review this hand" and return the page opened."""
    button = summary.review_button
    assert button is not None and button.label == "Review this hand"
    driver.step()
    driver.click(button.rect.center)
    page = driver.top
    assert isinstance(page, ReviewPage), driver.describe()
    return page


def reviewed(driver: Driver, page: ReviewPage) -> None:
    """Run frames until the page's review is done."""
    driver.run_until(lambda: page.review is not None or page.error is not None, max_frames=2000)
    assert page.error is None


def small_samples(driver: Driver) -> None:
    """Make the summary open reviews with ``SAMPLES`` deals per decision."""
    real = driver.app.push_scene

    def push(name: str, *args: object, **kwargs: object) -> None:
        if name == "review":
            kwargs.setdefault("samples", SAMPLES)
        real(name, *args, **kwargs)

    driver.app.push_scene = push  # type: ignore[method-assign]


def test_the_summary_reviews_the_hand_and_the_page_steps_through_it(drivers: MakeDriver) -> None:
    driver = drivers()
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    controller = driver.table.session.controller
    page = open_review(driver, summary)
    assert page.review is None and page.computing
    driver.step()
    assert 0 < page.done < page.total == 14, "the review reports its progress decision by decision"
    reviewed(driver, page)
    # The page's total is the CLI's review of the same record, seat, hand, seed and samples.
    expected = review_record(driver.record(), 0, [1], SAMPLES, TABLE_REVIEW_SEED)
    assert page.review == expected
    assert total_line(page.review).startswith(
        f"Points lost to decisions: {expected.total_loss:.2f}"
    )
    story = page.story
    assert story.passing is not None and len(story.tricks) == 13
    assert [trick.plays for trick in story.tricks] == [
        tuple((seat, card) for seat, card in zip(_order(t.leader), t.cards, strict=True))
        for t in controller.tricks
    ]
    # The pass first, then trick by trick with → and ←; End and Home go to the ends.
    assert page.step.kind == "pass"
    driver.key(pygame.K_RIGHT)
    assert (page.step.kind, page.step.trick) == ("trick", 1)
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RIGHT)
    assert page.step.trick == 3
    driver.key(pygame.K_LEFT)
    assert page.step.trick == 2
    decision = page.decision(page.step)
    assert decision is not None and decision.trick == 2
    assert decision.chosen == (story.tricks[1].chosen,)
    assert story.tricks[1].chosen not in controller.hand(0)
    driver.key(pygame.K_END)
    assert page.step.kind == "total"
    driver.key(pygame.K_RIGHT)
    assert page.step.kind == "total", "the last step stays the last"
    driver.key(pygame.K_HOME)
    assert page.step.kind == "pass"
    # The arrows and the strip's buttons step with the mouse.
    driver.step()
    driver.click(page.next_button.rect.center)
    assert page.step.trick == 1
    driver.click(page.step_buttons[7].rect.center)
    assert (page.step.kind, page.step.trick) == ("trick", 7)
    driver.click(page.back_button.rect.center)
    assert page.step.trick == 6
    # Esc closes it over the summary; reopened, the review is kept and shown at once.
    driver.key(pygame.K_ESCAPE)
    assert driver.top is summary
    steps = driver.app.reviews.steps  # type: ignore[attr-defined]
    again = open_review(driver, summary)
    assert again.review == expected and not again.computing
    driver.step(3)
    assert driver.app.reviews.steps == steps, "a cached review is not computed again"  # type: ignore[attr-defined]


def _order(leader: int) -> list[int]:
    return [(leader + offset) % 4 for offset in range(4)]


def test_esc_cancels_a_review_while_it_computes(drivers: MakeDriver) -> None:
    driver = drivers()
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    reviews = driver.app.reviews
    assert isinstance(reviews, InlineReviews)
    # The coach reviews the hand in the background first (with the table's deals): it is done
    # before the page opens, so nothing but the page's own review could compute after.
    coached = review_key(1)
    driver.run_until(lambda: coached in driver.table.session.reviews, max_frames=400)
    page = open_review(driver, summary)
    driver.step(2)
    assert page.computing and page.done < page.total
    driver.key(pygame.K_ESCAPE)
    assert driver.top is summary and not page.computing
    steps = reviews.steps
    driver.step(20)
    assert reviews.poll() == [], "the cancelled review goes on computing"
    assert reviews.steps == steps, "the cancelled review goes on computing"
    assert set(driver.table.session.reviews) == {coached}, "a cancelled review is not kept"


def test_no_review_button_while_watching(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.change_settings(driver.app.settings.with_changes(speed="instant"))
    driver.app.start_match(watch=True)
    driver.run_until(driver.summary_shown)
    summary = driver.top
    assert isinstance(summary, HandSummary) and summary.review_button is None
    driver.key(pygame.K_r)
    assert driver.top is summary


def test_a_review_in_the_worker_keeps_frames_flowing_and_the_worker_ends_on_close(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frames go on while the worker reviews: each polls it without waiting, and none
    reviews a decision in this process (how long frames take is for ``python -m bench frames``)."""
    environ = {**os.environ, "MDH_THINK_LIMIT_MS": "50"}
    driver = drivers(inline=False, environ=environ)
    reviews = driver.app.reviews
    assert isinstance(reviews, WorkerReviews)
    summary = play_hand_by_keys(driver)

    def not_here(*args: object, **kwargs: object) -> None:
        raise AssertionError("a decision was reviewed in the table's process")

    monkeypatch.setattr(review_requests, "review_decision", not_here)
    # Many deals per decision, so the review takes many frames in the worker.
    driver.app.push_scene("review", driver.table, 1, 0, samples=10_000)
    page = driver.top
    assert isinstance(page, ReviewPage)
    results = NoWaiting(reviews._results)
    monkeypatch.setattr(reviews, "_results", results)
    polls = 0
    real_poll = reviews.poll

    def counted_poll() -> list[ReviewUpdate]:
        nonlocal polls
        polls += 1
        return real_poll()

    monkeypatch.setattr(reviews, "poll", counted_poll)
    frames = 0
    progress: list[int] = []
    while page.computing:
        driver.step()
        frames += 1
        if not progress or progress[-1] != page.done:
            progress.append(page.done)
        assert frames < 1_000_000, "the review never finished"
    assert page.review is not None and page.error is None
    # Every frame asked the worker for news without waiting, and the news came bit by bit:
    # frames went on between the steps of the review instead of waiting for the whole of it.
    assert polls >= frames and results.reads >= polls
    assert len(progress) > 3 and progress == sorted(progress), f"progress seen: {progress}"
    pid = reviews.pid
    assert pid is not None
    driver.key(pygame.K_ESCAPE)
    assert driver.top is summary
    driver.close()
    assert wait_until(lambda: is_gone(pid)), "the review worker outlived the table"


class NoWaiting:
    """A result queue that counts the reads that do not wait and refuses any that would."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue
        self.reads = 0

    def get_nowait(self) -> Any:
        self.reads += 1
        return self.queue.get_nowait()

    def get(self, *args: object, **kwargs: object) -> Any:
        raise AssertionError("a frame waited for the review worker")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.queue, name)


def cpu_seconds(pid: int) -> float:
    """Return the processor time a process has used so far (Linux)."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_closing_the_page_stops_the_review_in_the_worker(drivers: MakeDriver) -> None:
    driver = drivers(inline=False, environ={**os.environ, "MDH_THINK_LIMIT_MS": "50"})
    summary = play_hand_by_keys(driver)
    # The coach's review of the hand comes first, so the worker has nothing of its own to go
    # back to once the page's review is cancelled.
    reviews = driver.table.session.reviews
    driver.run_until(lambda: review_key(1) in reviews, max_frames=100_000)
    driver.app.push_scene("review", driver.table, 1, 0, samples=10_000)
    page = driver.top
    assert isinstance(page, ReviewPage)
    # Cancelled while it searches the pass (a second or more at these many deals).
    driver.run_until(lambda: page.started, max_frames=100_000)
    assert page.done == 0
    pid = driver.app.reviews.pid  # type: ignore[attr-defined]
    assert pid is not None
    driver.key(pygame.K_ESCAPE)
    assert driver.top is summary and not page.computing
    # The worker's search stops within milliseconds, then it rests, where the whole review would
    # take it seconds more.
    time.sleep(0.3)
    before = cpu_seconds(pid)
    time.sleep(0.8)
    assert cpu_seconds(pid) - before < 0.3, "the worker goes on with the closed page's review"
    # And it takes the next review at once.
    driver.app.push_scene("review", driver.table, 1, 0, samples=SAMPLES)
    quick = driver.top
    assert isinstance(quick, ReviewPage)
    driver.run_until(lambda: not quick.computing, max_frames=100_000)
    assert quick.review is not None


def drawn_at(driver: Driver, monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[int, int]:
    """Return a point on the first cell of the page's row reading ``text`` as drawn."""
    import game.table.scenes.text_page as text_page

    seen: list[tuple[int, int]] = []
    real = text_page.draw_text

    def recording(surface: pygame.Surface, words: str, *args: object, **kwargs: object) -> object:
        anchor = kwargs.get("midleft")
        if words == text and isinstance(anchor, tuple):
            seen.append((anchor[0] + 4, anchor[1]))
        return real(surface, words, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(text_page, "draw_text", recording)
        driver.step()
    assert seen, f"{text!r} is not drawn"
    return seen[0]


def test_the_score_sheet_reviews_any_finished_hand(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = drivers()
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    driver.key(pygame.K_RETURN)
    assert summary not in driver.app.scenes()
    driver.run_until(driver.ready_for_person)
    assert driver.table.session.controller.hand_number == 2
    driver.key(pygame.K_s)
    sheet = driver.top
    assert isinstance(sheet, ScoreSheet) and sheet.hands == [1]
    # ↓ chooses the hand, Enter opens its review.
    driver.key(pygame.K_DOWN)
    assert sheet.chosen == 0
    driver.key(pygame.K_RETURN)
    page = driver.top
    assert isinstance(page, ReviewPage) and page.story.hand == 1
    reviewed(driver, page)
    expected = review_record(driver.record(), 0, [1], SAMPLES, TABLE_REVIEW_SEED)
    assert page.review == expected
    driver.key(pygame.K_ESCAPE)
    assert driver.top is sheet
    # A click on the hand's row (where its number is written) opens it again, at once.
    driver.click(drawn_at(driver, monkeypatch, "1"))
    again = driver.top
    assert isinstance(again, ReviewPage) and again.review == expected and not again.computing
    driver.key(pygame.K_ESCAPE)
    # A click elsewhere on the sheet closes it, as on every page.
    driver.click(sheet.panel().midbottom)
    assert driver.top is driver.table


def test_the_score_sheet_of_a_watched_match_reviews_nothing(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.change_settings(driver.app.settings.with_changes(speed="instant"))
    driver.app.start_match(watch=True)
    driver.run_until(driver.summary_shown)
    driver.key(pygame.K_RETURN)
    driver.run_until(lambda: driver.top is driver.table and driver.table.view.idle)
    driver.key(pygame.K_s)
    sheet = driver.top
    assert isinstance(sheet, ScoreSheet) and sheet.hands == []
    driver.key(pygame.K_DOWN)
    driver.key(pygame.K_RETURN)
    assert driver.top is driver.table, "Enter closes a sheet with nothing to review"


@pytest.mark.parametrize("cycle", [["left"], ["hold"]])
def test_the_hand_story_holds_the_cards_as_they_were(cycle: list[str]) -> None:
    from ai.autoplay import play_bots
    from ai.registry import make_bot
    from core.controller import Controller
    from core.rules import RuleSet
    from game.table.hand_story import hand_story

    controller = Controller()
    rules = RuleSet.from_dict({"pass_cycle": cycle})
    assert controller.new_match(rules=rules, seed=11, seats=["human"] + ["bot:easy"] * 3).ok
    play_bots(controller, {seat: make_bot("easy", seat) for seat in range(4)})
    story = hand_story(controller, 0, 1)
    assert (story.passing is None) == (cycle == ["hold"])
    if story.passing is not None:
        assert len(story.passing.dealt) == 13 and set(story.passing.passed) <= set(
            story.passing.dealt
        )
        assert len(story.passing.received) == 3
    assert [len(trick.hand) for trick in story.tricks] == list(range(13, 0, -1))
    for trick, done in zip(story.tricks, controller.tricks, strict=True):
        assert trick.chosen in trick.hand
        assert [card for _, card in trick.plays] == done.cards
        assert trick.leader == done.leader and trick.winner == done.winner


def test_the_review_page_is_opaque_and_says_how_to_close_it(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_dialogs import drawn_over, words_drawn

    import game.table.scenes.review.page as review_module
    from game.table.widgets import CLOSE_HINT

    driver = drivers(size=(800, 600))
    small_samples(driver)
    page = open_review(driver, play_hand_by_keys(driver))
    reviewed(driver, page)
    for step in range(len(page.steps)):
        page.go(step)
        assert CLOSE_HINT in words_drawn(page, monkeypatch, review_module)
        over_magenta = drawn_over(driver.app, page, (255, 0, 255))
        over_cyan = drawn_over(driver.app, page, (0, 255, 255))
        inside = page.panel().inflate(-16, -16)
        for x in range(inside.left, inside.right, 7):
            for y in range(inside.top, inside.bottom, 7):
                assert over_magenta.get_at((x, y)) == over_cyan.get_at((x, y)), (step, x, y)


def _screen() -> bytes:
    surface = pygame.display.get_surface()
    assert surface is not None
    return pygame.image.tobytes(surface, "RGB")


def test_hindsight_shows_every_hand_only_when_asked(drivers: MakeDriver) -> None:
    driver = drivers()
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    controller = driver.table.session.controller
    page = open_review(driver, summary)
    reviewed(driver, page)
    review = page.review
    assert not page.hindsight, "hindsight is off until the person asks"
    # Every trick keeps all four hands as they were before its lead: each seat's card of the
    # trick is in its hand, and together they are every card not yet played.
    played = 0
    for trick, seen in zip(page.story.tricks, controller.tricks, strict=True):
        assert all(len(cards) == 13 - (trick.number - 1) for cards in trick.hands)
        assert sum(mask_of(cards) for cards in trick.hands) == FULL_DECK & ~played
        for seat, card in trick.plays:
            assert card in trick.hands[seat]
        played |= mask_of(seen.cards)
        assert trick.hands[0] == trick.hand
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RIGHT)
    shown = _screen()
    driver.key(pygame.K_h)
    assert page.hindsight and page.hindsight_button.label.startswith("Hindsight: hide")
    assert _screen() != shown, "the page draws the other hands"
    driver.click(page.hindsight_button.rect.center)
    assert not page.hindsight
    assert page.review is review, "hindsight changes what is shown, never the review"


class _Blits(pygame.Surface):
    """A window-sized surface that notes where each card face (an image of a card's shape) is
    drawn, and which of them get a ring drawn over them."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.cards: list[pygame.Rect] = []
        self.ringed: list[pygame.Rect] = []

    def blit(self, source, dest, area=None, special_flags=0):  # type: ignore[no-untyped-def,override]
        """Draw as a surface does, noting card faces and the rings over them."""
        rect = super().blit(source, dest, area, special_flags)
        width, height = source.get_size()
        if width >= 16 and abs(height / width - 1.4) < 0.03:
            spot = pygame.Rect(rect.topleft, (width, height))
            if self.cards and spot == self.cards[-1]:
                self.ringed.append(spot)  # a ring drawn over the card just drawn
            else:
                self.cards.append(spot)
        return rect


def test_the_review_shows_the_played_card_whole_and_hindsight_rows_apart(
    drivers: MakeDriver,
) -> None:
    """At 1280×720 the card played, raised in the hand below the trick, is covered by no
    other card; in hindsight every hand is a whole row of its own, no row over another."""
    driver = drivers(size=(1280, 720))
    small_samples(driver)
    summary = play_hand_by_keys(driver)
    page = open_review(driver, summary)
    reviewed(driver, page)
    for index, step in enumerate(page.steps):
        if step.kind != "trick":
            continue
        page.go(index)
        for hindsight in (False, True):
            page.hindsight = hindsight
            drawn = _Blits(driver.app.layout.size)
            page.draw(drawn)
            if not hindsight:
                raised = drawn.ringed[-1]  # the trick's winner first, then the card played
                later = drawn.cards[drawn.cards.index(raised) + 1 :]
                covering = [spot for spot in later if spot.colliderect(raised)]
                assert not covering, f"trick {step.trick}: the card played is covered"
                continue
            rows: dict[int, pygame.Rect] = {}
            for spot in drawn.cards:
                rows[spot.top] = rows.get(spot.top, spot).union(spot)
            tops = sorted(rows)[-4:]  # the four hands' rows, under anything above them
            assert len(tops) == 4, f"trick {step.trick}: rows at {tops}"
            for upper, lower in itertools.pairwise(tops):
                assert rows[upper].bottom <= lower, f"trick {step.trick}: rows overlap"


def _graded(decision: DecisionReview, loss: float, margin: float, why: str | None) -> Any:
    """Return ``decision`` with a made-up loss and margin (and a better card when it lost)."""
    better = tuple(card for card in range(52) if card not in decision.chosen)[
        : len(decision.chosen)
    ]
    explanation = None if why is None else Explanation("queen", "queen", loss, why)
    return dataclasses.replace(
        decision,
        best=better if loss > 0 else decision.chosen,
        loss=loss,
        margin=margin,
        chosen_cost=1.0 + loss,
        best_cost=1.0,
        close=(),
        explanation=explanation,
    )


#: Made-up losses of the first seven decisions (loss, margin, why): two small slips, an
#: inaccuracy, a loss too close to call and a mistake.
MADE_UP = (
    (0.30, 0.10, None),
    (0.80, 0.20, "With the A♠, you end up taking the Q♠ in 31% of deals (with 8♣: 9%)."),
    (0.20, 0.50, None),
    (0.60, 0.90, "With 7♦, you end up taking the Q♠ in 20% of deals (with 3♦: 16%)."),
    (2.00, 0.50, "6♥ keeps your spades: you end up taking the Q♠ in 28% of deals (with 3♠: 16%)."),
)


def _made_up_review(review: Review) -> Review:
    decisions = list(review.decisions)
    for index, (loss, margin, why) in enumerate(MADE_UP):
        decisions[index] = _graded(decisions[index], loss, margin, why)
    for index in range(len(MADE_UP), len(decisions)):
        decisions[index] = _graded(decisions[index], 0.0, 0.0, None)
    return Review(tuple(decisions))


def _words(page: ReviewPage, monkeypatch: pytest.MonkeyPatch) -> str:
    """Return all the page draws now, its wrapped lines joined again."""
    from test_dialogs import words_drawn

    import game.table.scenes.review.rows as rows_module

    with monkeypatch.context() as patch:
        return " ".join(words_drawn(page, patch, rows_module))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_total_step_lists_what_adds_up_to_the_total(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    small_samples(driver)
    page = open_review(driver, play_hand_by_keys(driver))
    reviewed(driver, page)
    assert page.review is not None
    page.review = review = _made_up_review(page.review)
    summary = review.summary()
    assert summary.total == 3.90 and summary.slips == 2 and summary.slips_loss == 0.50
    page.go(len(page.steps) - 1)
    words = _words(page, monkeypatch)
    assert "Points lost to decisions: 3.90" in words
    # Each listed loss with its margin, the loss too close to call named so, the small slips
    # grouped: what is listed adds up to the total.
    for loss, margin, _ in MADE_UP:
        if loss >= 0.5:
            assert f"by {loss:.2f} points (± {margin:.2f})" in words, (loss, words)
    assert "too close to call" in words.lower()
    assert "2 small slips: 0.50" in words
    listed = sum(loss for loss, _, _ in MADE_UP if loss >= 0.5)
    assert round(listed + summary.slips_loss, 2) == summary.total
    # Each listed decision says why.
    for _, _, why in MADE_UP:
        if why is not None:
            assert f"Why: {why}" in words


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_decision_step_says_why_and_how_sure(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    small_samples(driver)
    page = open_review(driver, play_hand_by_keys(driver))
    reviewed(driver, page)
    assert page.review is not None
    page.review = review = _made_up_review(page.review)
    for index, (loss, margin, why) in enumerate(MADE_UP):
        decision = review.decisions[index]
        step = next(i for i, s in enumerate(page.steps) if page.decision(s) == decision)
        page.go(step)
        words = _words(page, monkeypatch)
        if loss >= 0.5:
            assert f"by {loss:.2f} points (± {margin:.2f})" in words, words
        if why is not None:
            assert f"Why: {why}" in words, words
        if decision.too_close:
            assert "Too close to call" in words, words


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_a_long_total_drops_the_whys_before_any_decision(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """With every decision listed, each with a long why, the total step still lists every one
    (the whys go first, where they do not fit) and the slips add up."""
    driver = drivers(size=size)
    small_samples(driver)
    page = open_review(driver, play_hand_by_keys(driver))
    reviewed(driver, page)
    assert page.review is not None
    long_why = "A♥ wins this trick and keeps your clubs: " + "you end up taking the Q♠ " * 6
    decisions = [_graded(d, 2.0, 0.5, long_why) for d in page.review.decisions]
    page.review = review = Review(tuple(decisions))
    page.go(len(page.steps) - 1)
    words = _words(page, monkeypatch)
    assert f"Points lost to decisions: {review.total_loss:.2f}" in words
    for decision in review.decisions:
        where = "Pass:" if decision.kind == "pass" else f"Trick {decision.trick}:"
        assert where in words, (where, words)
