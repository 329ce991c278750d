"""The table's saved match: seats it cannot play, programs it may start, saves kept on disk."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pygame
import pytest
from table_driver import Driver, MakeDriver, make_dirs, open_title

from core.controller import Controller
from core.record import dumps_record, loads_record
from game.table.scenes.table import TableScene
from game.table.scenes.title import TitleScene
from game.table.store.review_file import load_reviews

ENGINES = Path(__file__).resolve().parent / "engines"


def marker_engine(tmp_path: Path) -> tuple[str, Path]:
    """Return the command of an engine that leaves a marker file when it starts, and the marker."""
    marker = tmp_path / "engine-started"
    script = tmp_path / "marker_engine.py"
    script.write_text(
        "import pathlib, runpy, sys\n"
        f"pathlib.Path({str(marker)!r}).touch()\n"
        f"runpy.run_path({str(ENGINES / 'echo_engine.py')!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    return " ".join(shlex.quote(word) for word in (sys.executable, str(script))), marker


def save_match(home: Path, seats: list[str]) -> str:
    """Write a saved match with these seat texts (as a file might hold them); return its text."""
    controller = Controller()
    assert controller.new_match(seed=5).ok
    data = json.loads(dumps_record(controller))
    data["seats"] = seats
    text = json.dumps(data)
    dirs = make_dirs(home)
    dirs.state.mkdir(parents=True, exist_ok=True)
    dirs.save_file.write_text(text, encoding="utf-8")
    return text


def choose_continue(driver: Driver) -> TitleScene:
    """Open the title menu and choose "Continue the match" with the keyboard."""
    title = open_title(driver)
    assert title.index == driver.menu_index("Continue the match")
    driver.key(pygame.K_RETURN)
    return title


def toasts(driver: Driver) -> str:
    """Return the messages shown at the top of the window."""
    return " ".join(text for text, _ in driver.app.toasts)


# -- programs named by the save -------------------------------------------------------------


def test_an_engine_seat_asks_first_and_no_starts_nothing(
    drivers: MakeDriver, home: Path, tmp_path: Path
) -> None:
    command, marker = marker_engine(tmp_path)
    saved = save_match(home, ["human", f"engine:{command}", "bot", "bot"])
    driver = drivers()
    choose_continue(driver)
    asking = driver.top
    assert asking is not None and command in getattr(asking, "subtitle", "")
    assert driver.menu_index("No, do not start them") == 0
    driver.key(pygame.K_RETURN)  # the first item: No
    driver.step(30)
    assert isinstance(driver.top, TitleScene)
    assert not marker.exists()
    assert make_dirs(home).save_file.read_text(encoding="utf-8") == saved

    choose_continue(driver)
    driver.click(driver.menu_item_pos("Yes, start them and continue"))
    assert isinstance(driver.top, TableScene)
    driver.run_until(marker.exists, 3000)


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ("bot:engine:{command}", "seat 1: bad bot name 'engine:"),
        ("bot:os:system", "seat 1: bad bot name 'os:system'"),
        ("bot:wizard", "seat 1: unknown bot 'wizard'"),
    ],
)
def test_a_seat_the_table_cannot_play_is_refused_with_a_message(
    drivers: MakeDriver, home: Path, tmp_path: Path, seat: str, message: str
) -> None:
    command, marker = marker_engine(tmp_path)
    save_match(home, ["human", seat.format(command=command), "bot", "bot"])
    driver = drivers()
    title = open_title(driver)
    if title.items[0].usable():  # a seat the record refuses leaves nothing to continue
        driver.key(pygame.K_RETURN)
        driver.step(30)
    assert not isinstance(driver.top, TableScene)
    assert not marker.exists()
    assert message in toasts(driver)
    driver.step(5)  # and the table keeps running


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["bot", "human", "bot", "bot"], "person at seat 1"),
        (["human", "human", "human", "human"], "person at seat 1"),
    ],
)
def test_a_save_whose_person_is_not_at_seat_0_is_not_continued(
    drivers: MakeDriver, home: Path, seats: list[str], message: str
) -> None:
    saved = save_match(home, seats)
    driver = drivers()
    choose_continue(driver)
    driver.step(5)
    assert not isinstance(driver.top, TableScene)
    assert message in toasts(driver)
    assert make_dirs(home).save_file.read_text(encoding="utf-8") == saved


# -- saving after every trick -----------------------------------------------------------------


def finished_tricks(controller: Controller) -> int:
    """Return how many tricks the whole match has finished."""
    match = controller.match
    assert match is not None
    return sum(
        sum(1 for action in hand.actions if hasattr(action, "card")) // 4 for hand in match.hands
    )


def test_every_trick_is_on_disk_when_the_next_frame_starts(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    app.start_match()
    session = driver.table.session
    save_file = app.dirs.save_file
    for _ in range(4000):
        if session.controller.phase == "hand_over":
            break
        if driver.ready_for_person():
            if session.person_must_pass:
                session_cards = session.controller.hand(0)[:3]
                for card in session_cards:
                    driver.click_card(card)
                driver.key(pygame.K_RETURN)
            else:
                driver.click_card(session.legal_cards()[0])
        driver.step()
        on_disk = loads_record(save_file.read_text(encoding="utf-8"))
        assert finished_tricks(on_disk) == finished_tricks(session.controller)
    assert session.controller.phase == "hand_over"
    leftovers = [path.name for path in save_file.parent.iterdir() if path.name.startswith(".")]
    assert leftovers == []


def test_a_window_narrower_than_the_settings_allow_still_saves_them(
    drivers: MakeDriver, home: Path
) -> None:
    driver = drivers(size=(600, 1000))
    open_title(driver)
    app = driver.app
    app.change_settings(app.settings.with_changes(sound=False))
    assert app.saver.flush()
    driver.close()  # saves the settings once more, with the window's size
    saved = json.loads(make_dirs(home).settings_file.read_text(encoding="utf-8"))
    width, height = saved["window_size"]
    assert width >= 640 and height == 1000


def test_a_new_card_back_shows_at_every_seat(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.start_match()
    table = driver.table
    driver.run_until(lambda: table.view.idle and driver.ready_for_person(), 3000)

    def back_colours() -> dict[str, tuple[int, ...]]:
        """Return the colour at the middle of one back-up card of each bot seat, by direction."""
        driver.step()
        surface = pygame.display.get_surface()
        colours = {}
        for drawn in table.view.cards(table.pointer.lifted()):
            if drawn.card is None:
                x, y = round(drawn.centre[0]), round(drawn.centre[1])
                side = "north" if not drawn.rotated else ("west" if x < 640 else "east")
                colours[side] = tuple(surface.get_at((x, y)))[:3]  # the last drawn is on top
        return colours

    before = back_colours()
    assert set(before) == {"north", "west", "east"}
    new_back = "red" if app.settings.card_back != "red" else "green"
    app.change_settings(app.settings.with_changes(card_back=new_back))
    after = back_colours()
    assert all(after[side] != before[side] for side in before), (before, after)


# -- files of a newer version -------------------------------------------------------------------


def test_a_newer_statistics_file_is_kept_and_the_table_says_so_once(
    home: Path, drivers: MakeDriver
) -> None:
    dirs = make_dirs(home)
    dirs.data.mkdir(parents=True)
    newer = {"version": 4, "hands_played": 5, "hearts_taken": 31}
    dirs.statistics_file.write_text(json.dumps(newer), encoding="utf-8")
    original = dirs.statistics_file.read_bytes()
    driver = drivers()
    backup = dirs.data / "statistics.json.v4-backup"
    assert f"the original is kept as {backup.name}" in toasts(driver)
    assert backup.read_bytes() == original
    driver.app.books.change_stats(driver.app.books.stats.with_hand(3))  # a hand is counted
    driver.close()
    assert json.loads(dirs.statistics_file.read_text(encoding="utf-8"))["hands_played"] == 6
    assert backup.read_bytes() == original
    assert "kept as" not in toasts(drivers())


def test_a_newer_reviews_file_is_kept_beside_it(tmp_path: Path) -> None:
    controller = Controller()
    assert controller.new_match(seed=5).ok
    path = tmp_path / "current-game-reviews.json"
    path.write_text(json.dumps({"format": "mdhearts-reviews", "version": 2}), encoding="utf-8")
    reviews, message = load_reviews(path, controller, [])
    assert reviews == {}
    assert message == (
        "current-game-reviews.json is from a newer version of MDHearts (version 2); the "
        "original is kept as current-game-reviews.json.v2-backup"
    )
    assert (tmp_path / "current-game-reviews.json.v2-backup").read_bytes() == path.read_bytes()
