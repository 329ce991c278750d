"""Replays: finished matches archived under the data folder, listed on the title menu, stepped
through with every hand shown, any hand of a person's match reviewed.

The archive is driven through the App (as the table archives a match); the pages are driven
with real key and mouse events on the headless table (see table_driver.py).
"""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime
from pathlib import Path

import pygame
import pytest
from positions import play_randomly
from table_driver import Driver, MakeDriver, open_title
from test_review_page import SAMPLES, small_samples

from ai.review import review_record
from core.actions import PlayAction
from core.cards import cards_of
from core.controller import Controller
from core.record import dumps_record, loads_record
from game.table.scenes.replays import ReplayList, ReplayPage, ReplayStep
from game.table.scenes.review import ReviewPage
from game.table.scenes.summary import HandSummary
from game.table.store.replays import (
    REPLAY_NAME,
    archived_files,
    list_replays,
    load_replay,
    replay_name,
)
from game.table.store.settings import Settings


def finished_match(seed: int, person: bool = True) -> Controller:
    """Return a match played to its end by random legal moves."""
    controller = Controller()
    first = "human" if person else "bot:easy"
    assert controller.new_match(None, seed, [first, "bot:hard", "bot:normal", "bot:easy"]).ok
    play_randomly(controller, random.Random(seed), 100_000)
    assert controller.phase == "match_over"
    return controller


def archive(driver: Driver, controller: Controller, second: int) -> Path:
    """Archive a match as the table does, as if it ended at ``second`` past 12:00 UTC."""
    folder = driver.app.dirs.replays
    name = replay_name(controller, datetime(2026, 11, 23, 12, 0, second, tzinfo=UTC))
    before = set(archived_files(folder))
    driver.app.books.archive_match(controller)
    assert driver.app.saver.flush()
    (new,) = set(archived_files(folder)) - before
    new.rename(folder / name)  # the real name holds the time now; the tests fix the order
    return folder / name


def test_the_table_archives_a_finished_match_as_a_record_anyone_can_read(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant", opponents=("easy",) * 3))
    app.start_match(watch=True)
    # The watched match runs to its end; every hand summary is passed with Enter.
    for _ in range(40):
        driver.run_until(
            lambda: driver.summary_shown() or bool(archived_files(app.dirs.replays)),
            max_frames=20_000,
        )
        if archived_files(app.dirs.replays):
            break
        assert isinstance(driver.top, HandSummary)
        driver.key(pygame.K_RETURN)
    assert app.saver.flush()
    (path,) = archived_files(app.dirs.replays)
    assert REPLAY_NAME.match(path.name)
    kept = loads_record(path.read_bytes())
    assert kept.phase == "match_over"
    assert dumps_record(kept) == dumps_record(driver.table.session.controller)


def test_the_oldest_matches_beyond_the_number_kept_are_removed(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    folder = app.dirs.replays
    folder.mkdir(parents=True)
    foreign = folder / "my-notes.json"
    foreign.write_text("mine")
    app.change_settings(app.settings.with_changes(replays_kept=2))
    paths = [archive(driver, finished_match(seed), seed) for seed in (1, 2, 3)]
    assert archived_files(folder) == paths[1:]
    assert foreign.read_text() == "mine", "a file not of the archive is never touched"
    # With none kept, nothing is written and nothing removed.
    app.change_settings(app.settings.with_changes(replays_kept=0))
    app.books.archive_match(finished_match(4))
    assert app.saver.flush()
    assert archived_files(folder) == paths[1:]


def test_the_list_survives_bad_files_and_the_replay_refuses_them(home: Path) -> None:
    folder = home / "replays"
    folder.mkdir(parents=True)
    good = folder / "match-20261123-120001-00000001.json"
    good.write_text(dumps_record(finished_match(1)))
    cut = folder / "match-20261123-120002-00000002.json"
    cut.write_text(dumps_record(finished_match(2))[:500])
    unfinished = folder / "match-20261123-120003-00000003.json"
    controller = finished_match(3)
    early = Controller()
    assert early.new_match(None, 3, list(map(str, controller.seats))).ok
    unfinished.write_text(dumps_record(early))
    fifo = folder / "match-20261123-120004-00000004.json"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
    entries, messages = list_replays(folder)
    assert [entry.path for entry in entries] == [unfinished, good]
    assert any(cut.name in message and "moved to" in message for message in messages)
    assert not cut.exists(), "the cut file is set aside, not left to fail again"
    if hasattr(os, "mkfifo"):
        # A special file is never read (nothing waits on a FIFO): it is set aside as a bad one.
        assert any(fifo.name in message for message in messages)
        aside = sorted(path.name.split(".corrupt-")[0] for path in folder.glob("*.corrupt-*"))
        assert aside == [cut.name, fifo.name]
    replayed, message = load_replay(unfinished)
    assert replayed is None and message is not None and "not over" in message
    replayed, message = load_replay(good)
    assert replayed is not None and message is None


def open_list(driver: Driver) -> ReplayList:
    """Open the replays from the title menu with a click; return the list."""
    open_title(driver)
    driver.click(driver.menu_item_pos("Replays"), frames=2)
    page = driver.top
    assert isinstance(page, ReplayList), driver.describe()
    return page


def test_a_replay_steps_through_every_hand_with_all_cards_and_reviews_one(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    matches = {seed: finished_match(seed) for seed in (11, 12)}
    for seed, controller in matches.items():
        archive(driver, controller, seed)
    listing = open_list(driver)
    assert [entry.path.name[-13:-5] for entry in listing.entries] == ["0000000c", "0000000b"]
    driver.key(pygame.K_DOWN)
    driver.key(pygame.K_RETURN, frames=2)
    page = driver.top
    assert isinstance(page, ReplayPage), driver.describe()
    controller = matches[11]
    match = controller.match
    assert match is not None
    # The first step is hand 1's deal with every seat's 13 cards as dealt.
    assert page.step == ReplayStep(1, "deal")
    story = page.story(1)
    assert story.deal == tuple(tuple(cards_of(mask)) for mask in match.hands[0].deal)
    # → goes through the passes and the tricks in order, each trick's four cards as played.
    driver.key(pygame.K_RIGHT)
    assert page.step == ReplayStep(1, "pass")
    assert all(len(cards) == 3 for cards in story.passes)
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RIGHT)
    assert page.step == ReplayStep(1, "trick", 2)
    plays = [action for action in match.hands[0].actions if isinstance(action, PlayAction)]
    assert story.tricks[1].plays == tuple((play.seat, play.card) for play in plays[4:8])
    driver.key(pygame.K_END)
    assert page.step == ReplayStep(1, "score")
    driver.key(pygame.K_RIGHT)
    assert page.step == ReplayStep(2, "deal"), "→ at a hand's end goes on to the next hand"
    driver.key(pygame.K_DOWN)
    assert page.step.hand == 3
    driver.key(pygame.K_UP)
    driver.key(pygame.K_HOME)
    assert page.step == ReplayStep(2, "deal")
    # A click on the strip goes to that step.
    driver.step()
    button = next(b for b in page.step_buttons if b.label == "5")
    driver.click(button.rect.center)
    assert page.step == ReplayStep(2, "trick", 5)
    # R reviews the person's decisions in the hand shown, as mdhearts review does.
    small_samples(driver)
    driver.key(pygame.K_r, frames=2)
    review = driver.top
    assert isinstance(review, ReviewPage), driver.describe()
    driver.run_until(lambda: review.review is not None or review.error is not None, 3000)
    assert review.error is None
    record = dumps_record(controller)
    assert review.review == review_record(record, 0, [2], SAMPLES, review.key[3])
    driver.key(pygame.K_ESCAPE)
    assert driver.top is page
    driver.key(pygame.K_ESCAPE)
    assert driver.top is listing
    assert driver.max_step_s < 1.0


def test_a_watched_match_replays_without_a_review(drivers: MakeDriver) -> None:
    driver = drivers()
    archive(driver, finished_match(21, person=False), 21)
    listing = open_list(driver)
    driver.key(pygame.K_RETURN, frames=2)
    page = driver.top
    assert isinstance(page, ReplayPage)
    assert page.replay.person is None
    assert page.replay.seat_name(0) == "South (easy)"
    driver.key(pygame.K_r, frames=2)
    assert driver.top is page, "a watched match has no person's decisions to review"
    driver.key(pygame.K_ESCAPE)
    assert driver.top is listing


def test_the_list_scrolls_to_keep_the_chosen_match_in_view(drivers: MakeDriver) -> None:
    driver = drivers(size=(1024, 600))
    controller = finished_match(31)
    folder = driver.app.dirs.replays
    folder.mkdir(parents=True)
    text = dumps_record(controller)
    for second in range(40):
        (folder / f"match-20261123-1200{second:02d}-0000001f.json").write_text(text)
    listing = open_list(driver)
    shown = listing.shown_rows(listing.panel())
    assert shown < 40
    for _ in range(shown + 2):
        driver.key(pygame.K_DOWN)
    assert listing.chosen == shown + 2
    assert listing.first <= listing.chosen < listing.first + shown
    driver.key(pygame.K_HOME)
    assert (listing.chosen, listing.first) == (0, 0)


@pytest.mark.parametrize("value", [-1, 1001, "25", True, 2.5])
def test_a_bad_number_of_matches_kept_falls_back_to_the_default(value: object) -> None:
    settings, warnings = Settings.from_dict({"replays_kept": value})
    assert settings.replays_kept == Settings().replays_kept == 25
    assert len(warnings) == 1 and "replays_kept" in warnings[0]


def test_the_list_counts_one_hand_as_one_hand(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.table.scenes.replays import replay_list as scene
    from game.table.store.replays import ReplayEntry

    seats = finished_match(1).seats
    ended = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    entries = [
        ReplayEntry(Path(f"match-{hands}.json"), ended, seats, (0, 30, 40, 50), hands)
        for hands in (1, 2)
    ]
    monkeypatch.setattr(scene, "list_replays", lambda folder: (list(entries), []))
    drawn: list[str] = []
    real_draw_text = scene.draw_text

    def spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> object:
        drawn.append(text)
        return real_draw_text(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scene, "draw_text", spy)
    driver = drivers()
    open_list(driver)
    driver.step()
    assert "won, 0 to 30/40/50 · 1 hand" in drawn
    assert "won, 0 to 30/40/50 · 2 hands" in drawn


@pytest.mark.parametrize(("person", "receiver"), [(True, "to You"), (False, "to South")])
def test_a_replays_pass_names_the_person_as_the_table_does(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, person: bool, receiver: str
) -> None:
    """Hand 1 passes left: East's cards go to the bottom seat, "You" when a person played."""
    from game.table import hand_drawing

    driver = drivers()
    archive(driver, finished_match(11, person=person), 11)
    open_list(driver)
    driver.key(pygame.K_RETURN, frames=2)
    page = driver.top
    assert isinstance(page, ReplayPage)
    driver.key(pygame.K_RIGHT)
    assert page.step == ReplayStep(1, "pass")
    drawn: list[str] = []
    original = hand_drawing.draw_text

    def recording(surface: pygame.Surface, text: str, *args: object, **kw: object) -> object:
        drawn.append(text)
        return original(surface, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_drawing, "draw_text", recording)
    page.draw(driver.app.screen)
    notes = [text for text in drawn if text.startswith("to ")]
    assert notes == ["to West", "to North", "to East", receiver]
