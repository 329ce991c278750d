"""Undo at the table: it takes back only the person's moves, never a pass once exchanged."""

from __future__ import annotations

import pygame
from table_driver import MakeDriver


def test_undo_is_disabled_until_the_person_has_moved_in_the_hand(drivers: MakeDriver) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    driver.run_until(lambda: table.view.idle and driver.ready_for_person(), 3000)
    session = table.session
    assert session.person_must_pass
    assert len(session.controller.match.hands[-1].actions) == 3  # the bots have passed
    undo = next(button for button in table.bar.top if button.label == "Undo")
    driver.step()
    assert not undo.enabled
    before = driver.record()
    driver.click(undo.rect.center, frames=5)
    assert driver.record() == before  # no bot's pass was taken back
    assert session.person_must_pass

    for card in session.controller.hand(0)[:3]:
        driver.click_card(card)
    driver.key(pygame.K_RETURN, frames=5)
    driver.run_until(lambda: table.view.idle and driver.ready_for_person(), 3000)
    assert not session.person_must_pass
    driver.step()
    assert not undo.enabled  # the cards were exchanged: the pass stays
    before = driver.record()
    driver.click(undo.rect.center, frames=5)
    assert driver.record() == before
    assert table.message is not None
    assert table.message[0] == "Your pass cannot be taken back: the cards have been exchanged"
