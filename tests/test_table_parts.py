"""The table screen's parts: the keys as data, and a painter that never changes the table."""

from __future__ import annotations

import pygame
from table_driver import MakeDriver

from game.table.playing.controls import TableControls
from game.table.playing.keys import KEYS, key_command
from game.table.scenes.table import TableScene


def test_every_key_names_a_command_of_the_controls() -> None:
    for chord, command in KEYS.items():
        assert callable(getattr(TableControls, command.command, None)), (chord, command)


def test_keys_are_looked_up_with_their_modifiers_then_without() -> None:
    def command(key: int, mod: int = 0) -> str | None:
        found = key_command(key, mod)
        return None if found is None else found.command

    assert command(pygame.K_z, pygame.KMOD_CTRL) == "undo"
    assert command(pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT) == "redo"
    assert command(pygame.K_y, pygame.KMOD_CTRL | pygame.KMOD_SHIFT) == "redo"
    assert command(pygame.K_z) is None
    assert command(pygame.K_h, pygame.KMOD_SHIFT) == "hint"
    assert command(pygame.K_s, pygame.KMOD_CTRL) == "open_scores"
    assert command(pygame.K_RETURN) == command(pygame.K_KP_ENTER) == "confirm"
    assert not KEYS[(pygame.K_SPACE, 0)].while_moving and KEYS[(pygame.K_f, 0)].watching_only


def table_state(table: TableScene) -> str:
    """Describe everything a frame of the table could change."""
    buttons = [*table.bar.top, table.bar.pass_button]
    simple = {
        name: value
        for name, value in vars(table).items()
        if isinstance(value, (bool, int, float, str, list, tuple, set, dict, type(None)))
    }
    return repr(
        (
            sorted(simple.items(), key=lambda item: item[0]),
            [(b.label, b.enabled, tuple(b.rect), b.hovered) for b in buttons],
            table.view.shown,
            table.view.speed,
            table.view._motions,
            table.view._glides,
            table.session.view(),
        )
    )


def test_drawing_the_table_changes_nothing(drivers: MakeDriver) -> None:
    """Over a whole hand, each frame drawn once more leaves the table as it was."""
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    app.start_match()
    table = driver.table
    drawn = 0
    for _ in range(6000):
        if driver.summary_shown():
            break
        if driver.ready_for_person():
            seat = table.session.view()
            if seat.person_must_pass:
                for card in seat.hand[:3]:
                    driver.click_card(card)
                driver.click(table.bar.pass_button.rect.center)
            else:
                driver.click_card(seat.legal[0])
            continue
        app.advance(1 / 60)
        if app.top_scene() is not table:
            driver.step()
            continue
        before = table_state(table)
        table.draw(app.screen)
        drawn += 1
        assert table_state(table) == before, "drawing changed the table"
    assert driver.summary_shown() and drawn > 100, driver.describe()
