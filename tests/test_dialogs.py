"""Dialogs over the table: asking before a match is lost, opaque panels, one closing hint.

The App runs headless on the SDL dummy driver; the person's input is posted as real key and
mouse events (see table_driver.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from table_driver import Driver, MakeDriver, open_title

from core.cards import parse_card
from game.table.app import App
from game.table.scene import Scene, scene_named
from game.table.scenes.last_trick import LastTrick
from game.table.scenes.menu import MenuScene
from game.table.scenes.name_entry import NameEntry
from game.table.scenes.table import TableScene
from game.table.scenes.text_page import TextPage
from game.table.scenes.title import TitleScene
from game.table.widgets import CLOSE_HINT

QUESTION = "Abandon the match in progress?"


def saved_bytes(driver: Driver) -> bytes:
    """Return the saved match's bytes once every write asked for so far is done."""
    driver.app.saver.flush()
    return driver.app.dirs.save_file.read_bytes()


def title_with_a_saved_match(driver: Driver) -> tuple[TitleScene, bytes]:
    """Start a match, play until the person must act, leave to the title; return the save."""
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    driver.app.books.save_match(driver.table.session)
    driver.app.replace_scene("title")
    driver.step()
    title = driver.top
    assert isinstance(title, TitleScene) and title.has_saved_game
    return title, saved_bytes(driver)


def asked(driver: Driver) -> MenuScene:
    """Return the question on top, checking it defaults to keeping the match."""
    question = driver.top
    assert isinstance(question, MenuScene), driver.describe()
    assert question.title == QUESTION
    assert question.items[question.index].text() == "No, keep it"
    return question


def test_new_match_on_the_title_asks_and_no_keeps_the_saved_match(drivers: MakeDriver) -> None:
    driver = drivers()
    title, before = title_with_a_saved_match(driver)
    # Esc keeps the match and returns to the title.
    driver.click(driver.menu_item_pos("New match"), frames=3)
    asked(driver)
    assert saved_bytes(driver) == before
    driver.key(pygame.K_ESCAPE, frames=3)
    assert driver.top is title
    assert saved_bytes(driver) == before
    # Enter on the question chooses its default: No.
    assert driver.top is title and title.items[title.index].text() == "New match"
    driver.key(pygame.K_RETURN, frames=2)
    asked(driver)
    driver.key(pygame.K_RETURN, frames=3)
    assert driver.top is title
    assert saved_bytes(driver) == before
    # A click on "No" does the same.
    driver.click(driver.menu_item_pos("New match"), frames=2)
    asked(driver)
    driver.click(driver.menu_item_pos("No, keep it"), frames=3)
    assert driver.top is title
    assert saved_bytes(driver) == before
    # "Yes" starts a new match, which replaces the saved one.
    driver.click(driver.menu_item_pos("New match"), frames=2)
    asked(driver)
    driver.click(driver.menu_item_pos("Yes, start a new match"), frames=2)
    assert isinstance(driver.top, TableScene)
    driver.run_until(driver.ready_for_person)
    assert saved_bytes(driver) != before


def test_new_match_without_a_saved_match_starts_at_once(drivers: MakeDriver) -> None:
    driver = drivers()
    open_title(driver)
    driver.click(driver.menu_item_pos("New match"), frames=2)
    assert isinstance(driver.top, TableScene)


def test_new_match_in_the_pause_menu_asks_first(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    table = driver.table
    before = saved_bytes(driver)
    driver.key(pygame.K_ESCAPE, frames=2)
    pause = driver.top
    assert isinstance(pause, MenuScene) and pause.title == "Paused"
    driver.click(driver.menu_item_pos("New match"), frames=2)
    asked(driver)
    driver.key(pygame.K_ESCAPE, frames=2)
    assert driver.top is pause and driver.table is table
    assert saved_bytes(driver) == before
    driver.click(driver.menu_item_pos("New match"), frames=2)
    asked(driver)
    driver.key(pygame.K_DOWN)
    driver.key(pygame.K_RETURN, frames=2)
    assert isinstance(driver.top, TableScene) and driver.table is not table
    driver.run_until(driver.ready_for_person)
    assert saved_bytes(driver) != before


# -- panels hide what is below them -------------------------------------------------------


class Backdrop(Scene):
    """A screen of one colour, under the dialog being looked at."""

    def __init__(self, app: App, colour: tuple[int, int, int]) -> None:
        super().__init__(app)
        self.colour = colour

    def draw(self, surface: pygame.Surface) -> None:
        """Fill the window with the colour."""
        surface.fill(self.colour)


def fake_table(app: App) -> SimpleNamespace:
    """Return what the last-trick dialog reads of a table: a finished trick won by West."""
    cards = [(seat, parse_card(text)) for seat, text in enumerate(("2H", "QS", "KD", "TC"))]
    shown = SimpleNamespace(last_trick=cards, last_winner=1)
    return SimpleNamespace(
        view=SimpleNamespace(shown=shown), art=app.card_art, seat_name=lambda seat: "West"
    )


DIALOGS: dict[str, Callable[[App], Scene]] = {
    "settings": lambda app: scene_named("settings", app, overlay=True),
    "name entry": lambda app: scene_named("name_entry", app),
    "help": lambda app: scene_named("help", app),
    "statistics": lambda app: scene_named("statistics", app),
    "last trick": lambda app: LastTrick(app, fake_table(app)),  # type: ignore[arg-type]
    "abandon match": lambda app: scene_named("abandon_match", app),
}


def panel_of(scene: Scene) -> pygame.Rect:
    """Return a dialog's panel rectangle."""
    if isinstance(scene, MenuScene):
        return scene._geometry()[0]
    assert isinstance(scene, (TextPage, NameEntry, LastTrick))
    return scene.panel()


def drawn_over(app: App, dialog: Scene, colour: tuple[int, int, int]) -> pygame.Surface:
    """Return the window drawn with ``dialog`` over a screen of ``colour``."""
    app.show_only(Backdrop(app, colour))
    app.push(dialog)
    surface = pygame.Surface(app.layout.size)
    for scene in app.visible_scenes():
        scene.draw(surface)
    return surface


@pytest.mark.parametrize("size", [(1280, 720), (1024, 1280)])
@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_nothing_below_a_dialog_shows_through_its_panel(
    drivers: MakeDriver, name: str, size: tuple[int, int]
) -> None:
    app = drivers(size=size).app
    dialog = DIALOGS[name](app)
    over_magenta = drawn_over(app, dialog, (255, 0, 255))
    over_cyan = drawn_over(app, dialog, (0, 255, 255))
    inside = panel_of(dialog).inflate(-16, -16)
    differing = [
        (x, y)
        for x in range(inside.left, inside.right, 3)
        for y in range(inside.top, inside.bottom, 3)
        if over_magenta.get_at((x, y)) != over_cyan.get_at((x, y))
    ]
    assert not differing, f"{name}: {len(differing)} pixels show what is below, e.g. {differing[0]}"


@pytest.mark.parametrize("name", ["score_sheet", "pause_menu"])
def test_the_pages_over_a_match_are_opaque(drivers: MakeDriver, name: str) -> None:
    driver = drivers()
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    table = driver.table
    argument = table.session.sheet() if name == "score_sheet" else table
    page = scene_named(name, driver.app, argument)
    over_magenta = drawn_over(driver.app, page, (255, 0, 255))
    over_cyan = drawn_over(driver.app, page, (0, 255, 255))
    inside = panel_of(page).inflate(-16, -16)
    for x in range(inside.left, inside.right, 5):
        for y in range(inside.top, inside.bottom, 5):
            assert over_magenta.get_at((x, y)) == over_cyan.get_at((x, y)), (x, y)


# -- one closing hint ---------------------------------------------------------------------


def words_drawn(scene: Scene, monkeypatch: pytest.MonkeyPatch, module: object) -> list[str]:
    """Return every text ``scene`` draws through ``draw_text`` of its module and widgets."""
    import game.table.widgets as widgets

    seen: list[str] = []
    real = widgets.draw_text

    def recording(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> object:
        seen.append(text)
        return real(surface, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(widgets, "draw_text", recording)
    if hasattr(module, "draw_text"):
        monkeypatch.setattr(module, "draw_text", recording)
    scene.draw(pygame.Surface(scene.app.layout.size))
    return seen


@pytest.mark.parametrize("name", ["help", "statistics", "last trick"])
def test_every_page_says_how_to_close_it_in_the_same_words(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    import game.table.scenes.last_trick as last_trick
    import game.table.scenes.text_page as text_page

    app = drivers().app
    dialog = DIALOGS[name](app)
    module = last_trick if isinstance(dialog, LastTrick) else text_page
    assert CLOSE_HINT in words_drawn(dialog, monkeypatch, module)


@pytest.mark.parametrize("name", ["help", "last trick"])
def test_a_page_closes_on_esc_and_on_a_click(drivers: MakeDriver, name: str) -> None:
    driver = drivers()
    open_title(driver)
    for close in (lambda: driver.key(pygame.K_ESCAPE), lambda: driver.click((5, 5))):
        dialog = DIALOGS[name](driver.app)
        driver.app.push(dialog)
        driver.step()
        close()
        assert driver.top is not dialog


def test_the_shared_helpers_live_in_one_place() -> None:
    # The hint is written once: no screen spells it out itself.
    scenes = Path(__file__).resolve().parent.parent / "game" / "table" / "scenes"
    for path in scenes.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "to close" not in text, f"{path.name} words its own closing hint"


@pytest.mark.parametrize("size", [(1280, 720), (1024, 1280), (800, 600)])
def test_the_last_trick_shows_every_card_whole_inside_its_panel(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    app = drivers(size=size).app
    dialog = LastTrick(app, fake_table(app))  # type: ignore[arg-type]
    places = [place for _, _, place in dialog.places()]
    assert len(places) == 4
    for number, place in enumerate(places):
        assert dialog.panel().contains(place)
        for other in places[number + 1 :]:
            assert not place.colliderect(other), "one card of the last trick covers another"
