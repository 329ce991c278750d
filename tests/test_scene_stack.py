"""The stack of screens: input flows down from the top and stops where it is consumed; a
screen under another is paused and resumed, not entered again; screens go through the App.

The App runs headless on the SDL dummy driver; input is posted as real events.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
from table_driver import MakeDriver, open_title

import game.table.scenes
from game.table.scene import Scene, SceneStack
from game.table.scenes.menu import MenuScene
from game.table.scenes.table import TableScene


class Recorder(Scene):
    """A screen that writes down what the stack does to it and the events it is offered."""

    def __init__(self, app: Any, name: str, log: list[str], consumes: bool = True) -> None:
        super().__init__(app)
        self.name = name
        self.log = log
        self.consumes = consumes
        self.offered: list[int] = []

    def enter(self) -> None:
        self.log.append(f"{self.name} enter")

    def leave(self) -> None:
        self.log.append(f"{self.name} leave")

    def pause(self) -> None:
        self.log.append(f"{self.name} pause")

    def resume(self) -> None:
        self.log.append(f"{self.name} resume")

    def handle(self, event: pygame.event.Event) -> bool:
        self.offered.append(event.type)
        return self.consumes


def key_event(key: int = pygame.K_a) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)


def test_a_scene_under_another_is_paused_and_resumed_not_entered_again() -> None:
    log: list[str] = []
    stack = SceneStack()
    app = SimpleNamespace()
    below, above = Recorder(app, "below", log), Recorder(app, "above", log)
    stack.push(below)
    stack.push(above)
    assert log == ["below enter", "below pause", "above enter"]
    log.clear()
    stack.pop()
    assert log == ["above leave", "below resume"]
    log.clear()
    # Removing a screen that is not on top leaves it only: the top one goes on untouched.
    middle = Recorder(app, "middle", log)
    top = Recorder(app, "top", log)
    stack.push(middle)
    stack.push(top)
    log.clear()
    stack.remove(middle)
    assert log == ["middle leave"]
    assert stack.scenes == [below, top]
    log.clear()
    stack.remove(top)
    assert log == ["top leave", "below resume"]
    # Each scene was entered exactly once.
    assert [line for line in log if line.endswith("enter")] == []


def test_an_event_the_top_scene_consumes_goes_no_further() -> None:
    stack = SceneStack()
    app = SimpleNamespace()
    below = Recorder(app, "below", [])
    top = Recorder(app, "top", [], consumes=True)
    stack.push(below)
    stack.push(top)
    assert stack.handle(key_event()) is True
    assert top.offered == [pygame.KEYDOWN] and below.offered == []
    # One that the top scene lets through is offered to the scene below.
    top.consumes = False
    assert stack.handle(key_event()) is True
    assert below.offered == [pygame.KEYDOWN]
    below.consumes = False
    assert stack.handle(key_event()) is False


def test_the_app_offers_input_down_the_stack_until_a_screen_consumes_it(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    open_title(driver)
    app = driver.app
    below = Recorder(app, "below", [])
    top = Recorder(app, "top", [], consumes=True)
    app.push(below)
    app.push(top)
    driver.key(pygame.K_a)
    assert pygame.KEYDOWN in top.offered and pygame.KEYDOWN not in below.offered
    top.consumes = False
    driver.key(pygame.K_b)
    assert pygame.KEYDOWN in below.offered
    app.close_scene(top)
    app.close_scene(below)


def test_the_table_is_paused_under_its_menu_and_resumed_when_it_closes(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    driver.run_until(lambda: driver.ready_for_person())
    assert isinstance(table, TableScene) and not table.paused
    driver.key(pygame.K_ESCAPE)
    menu = driver.top
    assert isinstance(menu, MenuScene) and table.paused
    # Settings changed under the menu are followed once the table is back on top.
    speed = "fast" if driver.app.settings.speed != "fast" else "slow"
    driver.app.change_settings(driver.app.settings.with_changes(speed=speed))
    driver.key(pygame.K_ESCAPE)
    assert driver.top is table and not table.paused
    assert table.view.speed == speed


def test_a_moment_sounds_once_though_a_screen_opens_over_it_and_closes(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    open_title(driver)
    app = driver.app
    played: list[str] = []
    app.sounds.play = played.append  # type: ignore[method-assign]
    app.push_scene("moment", "queen", "West takes the Q♠")
    moment = driver.top
    app.push_scene("help")
    driver.key(pygame.K_ESCAPE)
    assert driver.top is moment
    assert played == ["queen"]


def test_nothing_reaches_into_the_apps_stack() -> None:
    # Screens, tools, benchmarks and tests open, close and look around through the App's
    # methods (push_scene, push, show_only, close_scene, scene_below, top_scene, scenes), so
    # the stack stays the loop's own (``game.table.loop``).
    root = Path(game.table.scenes.__file__).resolve().parents[3]
    own = root / "game" / "table" / "loop.py"
    paths = [*(root / "game").rglob("*.py"), *(root / "bench").rglob("*.py")]
    paths += [*(root / "tests").glob("*.py")]
    for path in sorted(paths):
        if path == own or path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8")
        found = re.findall(r"\.stack\b|\._stack\b", text)
        assert not found, f"{path.relative_to(root)} reaches into the App's stack: {found}"
