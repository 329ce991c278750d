"""Hover moves a menu's or a list's focus only once the pointer really moves.

A window opening under a resting pointer gets a motion event at the pointer's place with no
movement (SDL sends it as the pointer enters the window). Following it gave the focus to the
item under the pointer: the title menu opened over "Quit", and Enter quit the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

import pygame
import pytest
from positions import play_randomly
from table_driver import Driver, MakeDriver, open_title

from core.controller import Controller
from core.record import dumps_record
from game.table.scene import Scene, scene_named
from game.table.scenes.menu import MenuScene
from game.table.scenes.pages import ScoreSheet
from game.table.scenes.replays import ReplayList
from game.table.scenes.table import TableScene
from game.table.scenes.title import continue_match
from game.table.store.replays import replay_name


def saved_match(hands: int = 1) -> Controller:
    """Return a person's match, played at random until hand ``hands`` is being passed."""
    controller = Controller()
    seats = ["human", "bot:normal", "bot:normal", "bot:normal"]
    assert controller.new_match(None, 7, seats).ok
    rng = random.Random(7)
    while controller.hand_number < hands or controller.phase != "pass":
        play_randomly(controller, rng, 1)
    return controller


def with_save(driver: Driver, hands: int = 1) -> None:
    """Write a saved match into the driver's folders."""
    dirs = driver.app.dirs
    dirs.save_file.parent.mkdir(parents=True, exist_ok=True)
    dirs.save_file.write_text(dumps_record(saved_match(hands)), encoding="utf-8")


def test_the_title_opened_under_the_pointer_keeps_its_focus_on_continue(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    with_save(driver)
    title = open_title(driver)
    assert title.items[title.index].text() == "Continue the match"
    driver.rest_pointer(driver.menu_item_pos("Quit"))  # the window opens over "Quit"
    driver.step()
    assert title.items[title.index].text() == "Continue the match"
    driver.key(pygame.K_RETURN, frames=2)
    assert driver.app.running, "Enter quit the game"
    assert isinstance(driver.top, TableScene)


def test_hover_follows_the_pointer_once_it_moves(drivers: MakeDriver) -> None:
    driver = drivers()
    with_save(driver)
    title = open_title(driver)
    quit_at = driver.menu_item_pos("Quit")
    driver.rest_pointer(quit_at)
    driver.step()
    # A motion to where the pointer rests is no movement either.
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=quit_at, rel=(3, 0), buttons=(0, 0, 0))
    )
    driver.step()
    assert title.items[title.index].text() == "Continue the match"
    driver.move((quit_at[0] + 4, quit_at[1]))
    driver.step()
    assert title.items[title.index].text() == "Quit"
    driver.move(driver.menu_item_pos("Settings"))
    driver.step()
    assert title.items[title.index].text() == "Settings"


def pause_menu(driver: Driver) -> Scene:
    """Return the pause menu over a resumed match."""
    with_save(driver)
    assert continue_match(driver.app)
    driver.step()
    return scene_named("pause_menu", driver.app, driver.table)


def settings_menu(driver: Driver) -> Scene:
    """Return the settings."""
    return scene_named("settings", driver.app, overlay=True)


def abandon_question(driver: Driver) -> Scene:
    """Return the question asked before a new match replaces the saved one."""
    return scene_named("abandon_match", driver.app)


def replay_list(driver: Driver) -> Scene:
    """Return the list of replays with three finished matches in it."""
    app = driver.app
    for second in range(3):
        controller = saved_match(1)
        rng = random.Random(second)
        while controller.phase != "match_over":
            play_randomly(controller, rng, 100)
        name = replay_name(controller, datetime(2026, 11, 23, 12, 0, second, tzinfo=UTC))
        app.dirs.replays.mkdir(parents=True, exist_ok=True)
        (app.dirs.replays / name).write_text(dumps_record(controller), encoding="utf-8")
    return ReplayList(app)


def score_sheet(driver: Driver) -> Scene:
    """Return the score sheet of a resumed match in its fourth hand."""
    with_save(driver, hands=4)
    assert continue_match(driver.app)
    driver.step()
    return ScoreSheet(driver.app, driver.table.session.sheet(), driver.table)


def focus_of(scene: Scene) -> object:
    """Return what the keyboard is on in a menu or a list."""
    if isinstance(scene, MenuScene):
        return scene.index
    if isinstance(scene, ReplayList):
        return scene.chosen
    assert isinstance(scene, ScoreSheet)
    return scene.chosen


def points_on_items(driver: Driver, scene: Scene) -> list[tuple[int, int]]:
    """Return a point on each item of a menu or a list (the last one first)."""
    if isinstance(scene, MenuScene):
        rows = scene._geometry()[1]
    elif isinstance(scene, ReplayList):
        rect = scene.panel()
        rows = [scene.row_rect(rect, index) for index in range(len(scene.entries))]
    else:
        assert isinstance(scene, ScoreSheet)
        rows = [scene.row_rect(scene.hand_row(hand)) for hand in scene.hands]
    assert len(rows) > 1
    return [row.center for row in reversed(rows)]


@pytest.mark.parametrize(
    "make",
    [pause_menu, settings_menu, abandon_question, replay_list, score_sheet],
    ids=["pause menu", "settings", "new match question", "replays", "score sheet"],
)
def test_every_menu_and_list_opened_under_the_pointer_keeps_its_focus(
    drivers: MakeDriver, make: Callable[[Driver], Scene]
) -> None:
    driver = drivers()
    scene = make(driver)
    driver.app.push(scene)
    driver.step()
    before = focus_of(scene)
    last = points_on_items(driver, scene)[0]
    driver.rest_pointer(last)
    driver.step()
    assert focus_of(scene) == before, "a resting pointer chose an item"
    driver.move((last[0] + 2, last[1]))
    driver.step()
    assert focus_of(scene) != before, "a moving pointer did not choose the item under it"
