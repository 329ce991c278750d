"""The words of the table's pages and settings: names, card notation, cut names, settings."""

from __future__ import annotations

import re
from typing import Any

import pygame
import pytest
from table_driver import Driver, MakeDriver, open_title

from core.rules import RuleSet
from game.table import widgets
from game.table.scene import scene_named
from game.table.scenes.menu import MenuScene
from game.table.scenes.text_page import TextPage
from game.table.store.settings import load_settings

TYPED_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")
LONG_NAME = "W" * 16


def page_lines(page: object) -> list[Any]:
    """Return the lines a text page shows now."""
    assert isinstance(page, TextPage)
    lines = page.lines() if callable(page.lines) else page.lines
    return list(lines)


def test_the_score_sheet_names_the_person_as_the_table_does(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    table = driver.table
    sheet = scene_named("score_sheet", driver.app, table.session.sheet())
    header = page_lines(sheet)[0]
    assert header == ("Hand", table.seat_name(0), "West", "North", "East")
    assert header[1] == "You"


def test_the_help_page_writes_cards_with_suit_symbols(drivers: MakeDriver) -> None:
    app = drivers().app
    for rules in (RuleSet(), RuleSet(jack_of_diamonds=True, queen_breaks_hearts=True)):
        app.settings = app.settings.with_changes(rules=rules)
        text = "\n".join(str(line) for line in page_lines(scene_named("help", app)))
        assert not TYPED_CARD.findall(text), TYPED_CARD.findall(text)
        assert "2♣" in text and "Q♠" in text
        if rules.jack_of_diamonds:
            assert "J♦" in text


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record the text and size of everything ``draw_text`` renders."""
    seen: list[tuple[str, int]] = []
    real = widgets.render_text

    def recording(text: str, px: int, colour: Any, bold: bool = False) -> pygame.Surface:
        seen.append((text, px))
        return real(text, px, colour, bold)

    monkeypatch.setattr(widgets, "render_text", recording)
    return seen


@pytest.mark.parametrize("width", [120, 160, 200])
def test_a_long_name_is_cut_with_an_ellipsis_and_stays_readable(
    monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    pygame.init()
    seen = drawn_texts(monkeypatch)
    surface = pygame.Surface((400, 60))
    rect = widgets.draw_text(
        surface, LONG_NAME, 20, (255, 255, 255), midleft=(0, 30), max_width=width
    )
    text, px = seen[-1]
    assert rect.width <= width
    assert text.endswith("…") and text[:-1] == LONG_NAME[: len(text) - 1]
    assert px >= 15, "the name shrank below a readable size instead of being cut"


def test_fit_text_keeps_what_fits_and_cuts_the_rest() -> None:
    pygame.init()
    assert widgets.fit_text("Ann", 18, 200) == "Ann"
    cut = widgets.fit_text(LONG_NAME, 18, 100)
    assert cut.endswith(widgets.ELLIPSIS) and len(cut) < len(LONG_NAME)
    assert widgets.fit_text(LONG_NAME, 18, 1) == "W…"


# -- the settings menu, driven by keys and clicks -----------------------------------------


def open_settings(driver: Driver) -> MenuScene:
    """Open the settings from the title menu with a click."""
    open_title(driver)
    driver.click(driver.menu_item_pos("Settings"), frames=2)
    menu = driver.top
    assert isinstance(menu, MenuScene) and menu.title == "Settings"
    return menu


def go_to(driver: Driver, menu: MenuScene, starts: str) -> None:
    """Move the keyboard focus down to the item whose label starts with ``starts``."""
    for _ in range(len(menu.items)):
        if menu.items[menu.index].text().startswith(starts):
            return
        driver.key(pygame.K_DOWN)
    raise AssertionError(f"no item starts with {starts!r}: {[i.text() for i in menu.items]}")


def test_settings_close_with_done_by_key_and_by_click(drivers: MakeDriver) -> None:
    driver = drivers()
    menu = open_settings(driver)
    assert menu.items[-1].text() == "Done"
    go_to(driver, menu, "Done")
    driver.key(pygame.K_RETURN, frames=2)
    assert driver.top is not menu and menu not in driver.app.scenes()
    menu = open_settings(driver)
    driver.click(driver.menu_item_pos("Done"), frames=2)
    assert menu not in driver.app.scenes()


def test_match_length_stops_at_its_ends_with_the_arrows(drivers: MakeDriver) -> None:
    driver = drivers()
    menu = open_settings(driver)
    go_to(driver, menu, "Match")
    scores = []
    for _ in range(5):
        driver.key(pygame.K_LEFT)
        scores.append(driver.app.settings.rules.end_score)
    assert scores == [75, 50, 50, 50, 50]
    for _ in range(5):
        driver.key(pygame.K_RIGHT)
        scores.append(driver.app.settings.rules.end_score)
    assert scores[5:] == [75, 100, 150, 150, 150]
    assert menu.items[menu.index].text() == "Match ends at: 150 points"
    # The file keeps its format: the rules hold the number.
    driver.app.saver.flush()
    saved, warnings = load_settings(driver.app.dirs.settings_file)
    assert not warnings and saved.rules.end_score == 150


def test_a_click_goes_round_the_choices(drivers: MakeDriver) -> None:
    driver = drivers()
    open_settings(driver)
    seen = []
    for _ in range(4):
        label = next(
            item.text()
            for item in driver.top.items  # type: ignore[union-attr]
            if item.text().startswith("Match")
        )
        driver.click(driver.menu_item_pos(label))
        seen.append(driver.app.settings.rules.end_score)
    assert seen == [150, 50, 75, 100]


def test_the_moon_rule_says_what_happens(drivers: MakeDriver) -> None:
    driver = drivers()
    menu = open_settings(driver)
    go_to(driver, menu, "Shooting the moon")
    labels = []
    for _ in range(3):
        labels.append(menu.items[menu.index].text())
        driver.key(pygame.K_RIGHT)
    assert labels[0] == "Shooting the moon: everyone else +26"
    assert labels[1] == "Shooting the moon: shooter −26"
    assert "+26" in labels[2] and "−26" in labels[2]
    assert not any("add" in label or "subtract" in label for label in labels)


def test_a_long_name_at_the_table_and_in_the_summary_ends_with_an_ellipsis(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.tools.scripted import ScriptedTable

    app = drivers().app
    app.change_settings(app.settings.with_changes(player_name=LONG_NAME, speed="instant"))
    table = ScriptedTable(app, seed=3)
    assert table.at_summary()
    seen = drawn_texts(monkeypatch)
    app.draw()
    # The name alone, as the plate and the summary draw it (messages about it may fit whole).
    names = [text for text, _ in seen if text and set(text.rstrip("…")) == {"W"}]
    assert len(names) >= 2, "the name is drawn on its plate and in the summary"
    # (The plate, its name on a line of its own, may have room for it whole.)
    for text in names:
        assert text == LONG_NAME or text.endswith("…"), f"{text!r} is cut without an ellipsis"
    assert any(text.endswith("…") for text in names), "the summary cuts the name"
