"""Watching the bots: hands-free from hand to hand, and every hand face up when asked.

Bots' cards may be shown face up only while watching: never when a person plays.
"""

from __future__ import annotations

import pygame
import pytest
from table_driver import Driver, MakeDriver

from core.controller import Controller
from core.record import dumps_record
from game.table.scenes.menu import MenuScene
from game.table.scenes.table import TableScene
from game.table.scenes.title import TitleScene
from game.table.watch import WATCH_PAUSE_S

FRAMES_PER_S = 60
#: The white share of the bots' cards drawn face down (white edges) and face up (white faces).
BACKS_AT_MOST = 0.35
FACES_AT_LEAST = 0.45


def bots_cards(table: TableScene) -> list[pygame.Rect]:
    """Return where the bots' cards are drawn now."""
    layout = table.app.layout
    rects = []
    for drawn in table.view.cards():
        if drawn.small and drawn.key[0] == "back":
            width, height = layout.small_card_size
            if drawn.rotated:
                width, height = height, width
            centre = (round(drawn.centre[0]), round(drawn.centre[1]))
            rects.append(pygame.Rect(0, 0, width, height).move_to(center=centre))
    return rects


def white_share(driver: Driver, table: TableScene) -> float:
    """Return the share of the bots' card area drawn white (card faces; backs are blue)."""
    driver.app.draw()
    screen = driver.app.screen
    white = pygame.mask.from_threshold(screen, (255, 255, 255), (40, 40, 40, 255))
    rects = bots_cards(table)
    assert rects, "no bot holds a card"
    inside = pygame.mask.Mask(screen.get_size())
    for rect in rects:
        inside.draw(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
    return white.overlap_area(inside, (0, 0)) / inside.count()


def mid_hand(driver: Driver, table: TableScene) -> None:
    """Run until a few tricks are played and the table has caught up, with nothing over it
    (taking the Q♠ plays a moment over the table, and a key would only skip the moment)."""
    session = table.session
    driver.run_until(
        lambda: (
            session.phase == "play"
            and len(table.view.shown.hand) <= 10
            and table.view.idle
            and driver.top is table
        ),
        20_000,
    )


def test_watching_goes_on_from_hand_to_hand_by_itself(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="fast"))
    app.start_match(watch=True)
    table = driver.table
    driver.run_until(driver.summary_shown, 20_000)
    driver.step(round(WATCH_PAUSE_S * FRAMES_PER_S) + 30)  # nobody touches anything
    assert driver.top is table
    assert table.session.controller.hand_number == 2


def test_a_person_closes_the_summary_when_playing(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    app.start_match()
    table = driver.table
    session = table.session
    while not driver.summary_shown():
        driver.run_until(lambda: driver.ready_for_person() or driver.summary_shown(), 20_000)
        if session.person_must_pass:
            table.selected = list(session.controller.hand(0))[:3]
            table.controls.pass_selected()
        elif session.person_must_play:
            table.controls.play(session.legal_cards()[0])
    driver.step(round(WATCH_PAUSE_S * FRAMES_PER_S) * 2)
    assert driver.summary_shown(), "the summary waits for the person"


def test_watching_shows_every_hand_face_up_when_asked(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.start_match(watch=True)
    table = driver.table
    mid_hand(driver, table)
    assert white_share(driver, table) < BACKS_AT_MOST, "bots' cards show before being asked"
    driver.key(pygame.K_f)
    assert table.show_all_hands
    assert white_share(driver, table) > FACES_AT_LEAST, "the bots' hands are not face up"
    driver.click(table.bar.hands.rect.center)  # the button hides them again
    assert white_share(driver, table) < BACKS_AT_MOST


def test_a_person_never_sees_the_bots_cards(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.start_match()
    table = driver.table
    session = table.session
    assert table.bar.hands not in table.bar.top
    driver.run_until(driver.ready_for_person, 5000)
    table.selected = list(session.controller.hand(0))[:3]
    table.controls.pass_selected()
    driver.run_until(driver.ready_for_person, 5000)
    driver.key(pygame.K_f)
    table.controls.toggle_hands()
    assert not table.show_all_hands
    table.show_all_hands = True  # even if it were set, a person's table keeps them hidden
    assert white_share(driver, table) < BACKS_AT_MOST


def test_a_watched_match_ends_and_the_next_watched_match_starts_by_itself(
    drivers: MakeDriver,
) -> None:
    from core.rules import RuleSet
    from game.table.scenes.match_result import MatchOverScene
    from game.table.watch import WATCH_MATCH_PAUSE_S

    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant", rules=RuleSet(end_score=10)))
    app.start_match(watch=True)
    first = driver.table
    driver.run_until(lambda: isinstance(driver.top, MatchOverScene), 60_000)
    result = driver.top
    assert isinstance(result, MatchOverScene) and result.buttons[0].label.startswith("Watch")
    driver.step(round(WATCH_MATCH_PAUSE_S * FRAMES_PER_S) + 30)  # nobody touches anything
    table = driver.table
    assert table is not first and driver.top is table
    assert not table.session.person_plays  # still watching, not a match for the person
    assert table.session.controller.hand_number == 1


def north_pixels(driver: Driver) -> bytes:
    """Return the pixels of North's cards and name plate as drawn now."""
    layout = driver.app.layout
    north = layout.opponent_areas[2].union(layout.name_plates[2])
    return bytes(driver.app.screen.subsurface(north.clip(driver.app.screen.get_rect())).get_view())


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1024, 1280), (800, 600)])
def test_the_watching_hint_leaves_north_uncovered(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    app = driver.app
    app.start_match(watch=True)
    table = driver.table
    driver.step(2)
    shown = table.message is not None or app.toasts
    assert shown, "watching says what it offers"
    app.draw()
    with_hint = north_pixels(driver)
    table.message, app.toasts = None, []
    app.draw()
    assert north_pixels(driver) == with_hint, "the hint covers North's cards or name plate"


def saved_match(driver: Driver) -> bytes:
    """Write a person's saved match into the driver's folders; return its bytes."""
    controller = Controller()
    assert controller.new_match(None, 5, ["human", "bot:normal", "bot:normal", "bot:normal"]).ok
    path = driver.app.dirs.save_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps_record(controller), encoding="utf-8")
    return path.read_bytes()


def saved_now(driver: Driver) -> bytes:
    """Return the saved match's bytes once every write asked for is done."""
    assert driver.app.saver.flush()
    return driver.app.dirs.save_file.read_bytes()


def test_the_pause_menu_says_a_watched_match_is_left_not_saved(drivers: MakeDriver) -> None:
    driver = drivers()
    before = saved_match(driver)
    driver.app.start_match(watch=True)
    driver.step()
    driver.key(pygame.K_ESCAPE)
    labels = [item.text() for item in driver.top.items]  # type: ignore[union-attr]
    assert "Leave to the title" in labels
    assert not any("Save" in label for label in labels), labels
    driver.click(driver.menu_item_pos("Leave to the title"), frames=2)
    assert isinstance(driver.top, TitleScene)
    assert saved_now(driver) == before, "leaving a watched match wrote the person's save"
    # A person's match still says it is saved.
    driver.app.start_match()
    driver.step()
    driver.key(pygame.K_ESCAPE)
    assert "Save and leave to the title" in [item.text() for item in driver.top.items]  # type: ignore[union-attr]


def test_new_match_while_watching_keeps_the_persons_saved_match(drivers: MakeDriver) -> None:
    """New match in the pause menu over a watched match asks before it replaces the saved
    match, and the watched matches that follow one another never touch it."""
    driver = drivers()
    before = saved_match(driver)
    app = driver.app
    app.start_match(watch=True)
    watched = driver.table
    driver.step()
    driver.key(pygame.K_ESCAPE)
    driver.click(driver.menu_item_pos("New match"), frames=2)
    question = driver.top
    assert isinstance(question, MenuScene) and question.title == "Abandon the match in progress?"
    driver.key(pygame.K_RETURN, frames=2)  # its default: No, keep it
    assert driver.table is watched
    assert saved_now(driver) == before
    # The next watched match, started from the result, leaves it alone too.
    app.push_scene("match_over", watched)
    driver.key(pygame.K_RETURN, frames=2)
    assert driver.table is not watched and not driver.table.session.person_plays
    driver.step(5)
    assert saved_now(driver) == before
