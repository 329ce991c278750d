"""The help page's rules: those of the match being played, not the settings' for the next one."""

from __future__ import annotations

import pygame
from table_driver import MakeDriver, open_title
from test_wording import page_lines

from core.rules import RuleSet
from game.table.scenes.text_page import TextPage

#: Rules that differ from the defaults in what the help page's line says.
CHANGED = RuleSet(jack_of_diamonds=True, end_score=50)


def rules_text(page: object) -> str:
    """Return the help page's line about the rules."""
    assert isinstance(page, TextPage)
    (line,) = [str(line) for line in page_lines(page) if "Rules" in str(line)]
    return line


def test_help_during_a_match_shows_the_match_rules_not_changed_settings(
    drivers: MakeDriver,
) -> None:
    driver = drivers()
    driver.app.start_match()
    driver.run_until(driver.ready_for_person)
    match_rules = driver.table.session.controller.rules
    assert match_rules == RuleSet()
    driver.app.change_settings(driver.app.settings.with_changes(rules=CHANGED))
    driver.key(pygame.K_ESCAPE)
    driver.click(driver.menu_item_pos("How to play"))
    line = rules_text(driver.top)
    assert line.startswith("Rules of this match:")
    assert "game to 100" in line
    assert "J♦" not in line and "game to 50" not in line


def test_help_from_the_title_says_its_rules_are_for_the_next_match(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.change_settings(driver.app.settings.with_changes(rules=CHANGED))
    open_title(driver)
    driver.click(driver.menu_item_pos("How to play"))
    line = rules_text(driver.top)
    assert line.startswith("Rules for the next match (from Settings):")
    assert "J♦ scores" in line and "game to 50" in line
