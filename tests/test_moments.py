"""Moments: the moon, the Q♠ taken, a match won or lost — shown, heard, skippable, and then gone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest
from table_driver import Driver, MakeDriver

from core import events as ev
from core.cards import QUEEN_OF_SPADES
from core.controller import Controller
from game.table.scenes.match_result import MatchOverScene
from game.table.scenes.moment import MOON_LIGHT, Moment
from game.table.scenes.summary import HandSummary
from game.table.session import TableSession


def heard(driver: Driver, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Return the list the names of the sounds played from now on are appended to."""
    played: list[str] = []
    monkeypatch.setattr(driver.app.sounds, "play", played.append)
    return played


def moment_on_top(driver: Driver) -> Moment | None:
    top = driver.top
    return top if isinstance(top, Moment) else None


def watch_until_a_moment(driver: Driver) -> Moment:
    """Watch the bots play until a moment opens; return it."""
    driver.app.start_match(watch=True)
    driver.run_until(lambda: moment_on_top(driver) is not None, 20_000)
    moment = moment_on_top(driver)
    assert moment is not None
    return moment


def test_taking_the_queen_of_spades_is_a_moment_the_table_waits_for(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = drivers()
    played = heard(driver, monkeypatch)
    moment = watch_until_a_moment(driver)
    assert moment.kind == "queen" and "takes the Q♠" in moment.title
    assert played[-1] == "queen"
    table = driver.table
    record = driver.record()
    shown = table.view.shown.trick_number if hasattr(table.view.shown, "trick_number") else None
    driver.step(30)  # the table waits under the moment
    assert moment_on_top(driver) is moment and driver.record() == record
    if shown is not None:
        assert table.view.shown.trick_number == shown
    driver.run_until(lambda: moment_on_top(driver) is None, 200)  # it ends by itself
    assert moment.finished and moment not in driver.app.scenes()


def test_a_key_or_a_click_skips_a_moment(drivers: MakeDriver) -> None:
    driver = drivers()
    moment = watch_until_a_moment(driver)
    driver.key(pygame.K_SPACE)
    assert moment.finished and moment_on_top(driver) is None
    second = Moment(driver.app, "won", "You win the match!")
    driver.app.push(second)
    driver.click((100, 100))
    assert second.finished and moment_on_top(driver) is None


def test_no_moment_at_the_instant_speed(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    app.change_settings(app.settings.with_changes(speed="instant"))
    app.start_match(watch=True)
    driver.run_until(lambda: isinstance(driver.top, HandSummary), 20_000)
    # every hand has a Q♠ taken: at the instant speed the hand ran to its summary without one


def test_shooting_the_moon_celebrates_then_shows_the_summary(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    played = heard(driver, monkeypatch)
    scored = ev.HandScored((26, 26, 0, 26), (26, 26, 0, 26), 2)
    table._cue("hand_scored", scored)
    moment = moment_on_top(driver)
    assert moment is not None and moment.kind == "moon"
    assert moment.title == "North (normal) shot the moon!"
    assert moment.subtitle == "Everyone else takes 26 points"
    assert played == ["moon"]
    driver.step(60)  # the moon has risen
    pixels = pygame.surfarray.pixels3d(pygame.display.get_surface())
    width, height = pixels.shape[:2]
    upper = pixels[width // 3 : 2 * width // 3, : height // 2].reshape(-1, 3).astype(int)
    moonlit = np.all(np.abs(upper - np.array(MOON_LIGHT)) < 8, axis=1)
    del pixels
    assert moonlit.sum() > 2000, moonlit.sum()
    driver.key(pygame.K_RETURN)
    assert isinstance(driver.top, HandSummary)  # the same key did not also close the summary


def declare_winner(monkeypatch: pytest.MonkeyPatch, winner: int) -> None:
    """Make the match at the table look won by ``winner`` (the record and the seat's view)."""
    monkeypatch.setattr(Controller, "winner", property(lambda self: winner))
    view = TableSession.view
    monkeypatch.setattr(
        TableSession, "view", lambda self: dataclasses.replace(view(self), winner=winner)
    )


@pytest.mark.parametrize(("winner", "kind"), [(0, "won"), (3, "lost")])
def test_the_end_of_a_match_is_a_moment_before_the_result(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, winner: int, kind: str
) -> None:
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    played = heard(driver, monkeypatch)
    declare_winner(monkeypatch, winner)
    table.flow.match_result()
    moment = moment_on_top(driver)
    assert moment is not None and moment.kind == kind
    assert played == ["win" if winner == 0 else "lose"]
    driver.run_until(lambda: isinstance(driver.top, MatchOverScene), 400)


def felt_light(driver: Driver) -> float:
    """Return how light a patch of the table's felt is (its median grey), away from the
    moment's band, the dialogs and the cards; confetti falling through it is left out."""
    screen = driver.app.screen
    width, height = screen.get_size()
    pixels = pygame.surfarray.array3d(screen)
    patch = pixels[
        round(width * 0.2) : round(width * 0.3), round(height * 0.12) : round(height * 0.2)
    ]
    return float(np.median(patch.mean(axis=2)))


@pytest.mark.parametrize("kind", ["won", "lost", "moon"])
def test_the_table_stays_dimmed_from_a_moment_into_the_dialog_after_it(
    drivers: MakeDriver, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A won or lost match's moment ends under the match result, a moon's under the hand's
    summary: the table is dimmed from one into the other, never lit up in between."""
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    driver.step()
    light = felt_light(driver)
    if kind == "moon":
        table._cue("hand_scored", ev.HandScored((26, 26, 0, 26), (26, 26, 0, 26), 2))
        dialog: type = HandSummary
    else:
        declare_winner(monkeypatch, 0 if kind == "won" else 3)
        table.flow.match_result()
        dialog = MatchOverScene
    moment = moment_on_top(driver)
    assert moment is not None and moment.kind == kind
    seen = []
    while not isinstance(driver.top, dialog):
        driver.step()
        if moment.age >= 0.3:  # it has come in
            seen.append(felt_light(driver))
    driver.step(3)
    under_dialog = felt_light(driver)
    assert under_dialog < light * 0.75, "the dialog shades the table"
    assert max(seen) <= under_dialog + 2, (
        f"the table lit up to {max(seen):.0f} between the moment and the dialog "
        f"(dimmed {under_dialog:.0f}, undimmed {light:.0f})"
    )


def test_the_queen_taken_on_the_last_trick_stays_dimmed_into_the_hand_summary(
    drivers: MakeDriver,
) -> None:
    """The Q♠ taken on a hand's last trick: its moment ends under the hand's summary at the
    summary's shade, never lighting the table up in between."""
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    driver.step()
    light = felt_light(driver)
    table._cue("trick_taken", ev.TrickWon(3, 13, (QUEEN_OF_SPADES, 40, 41, 42), 16))
    # the hand's summary waits for the moment
    table._cue("hand_scored", ev.HandScored((0, 0, 0, 26), (0, 0, 0, 26), None))
    moment = moment_on_top(driver)
    assert moment is not None and moment.kind == "queen" and moment.dialog_follows
    seen = []
    while not isinstance(driver.top, HandSummary):
        driver.step()
        if moment.age >= 0.3:  # it has come in
            seen.append(felt_light(driver))
    driver.step(3)
    under_dialog = felt_light(driver)
    assert under_dialog < light * 0.75, "the summary shades the table"
    assert max(seen) <= under_dialog + 2, (
        f"the table lit up to {max(seen):.0f} between the moment and the summary "
        f"(dimmed {under_dialog:.0f}, undimmed {light:.0f})"
    )


def test_the_moon_shooter_taking_the_queen_last_keeps_the_table_dimmed_into_the_summary(
    drivers: MakeDriver,
) -> None:
    """The shooter takes the Q♠ on the last trick: the queen's moment, the moon's, then the
    summary, with the table dimmed once and never lighter in between (the moon's shade starts
    where the queen's left it)."""
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    driver.step()
    table._cue("trick_taken", ev.TrickWon(2, 13, (QUEEN_OF_SPADES, 40, 41, 42), 16))
    table._cue("hand_scored", ev.HandScored((26, 26, 0, 26), (26, 26, 0, 26), 2))
    queen = moment_on_top(driver)
    assert queen is not None and queen.kind == "queen"
    while queen.age < 0.3:
        driver.step()
    shaded = felt_light(driver)  # the queen has come in
    kinds, seen = [], []
    while not isinstance(driver.top, HandSummary):
        driver.step()
        top = moment_on_top(driver)
        if top is not None and top.kind not in kinds:
            kinds.append(top.kind)
        seen.append(felt_light(driver))
    driver.step(3)
    under_summary = felt_light(driver)
    assert kinds == ["queen", "moon"]
    assert max(seen) <= max(shaded, under_summary) + 2, (
        f"the table lit up to {max(seen):.0f} between the queen and the summary "
        f"(dimmed {shaded:.0f} by the queen, {under_summary:.0f} by the summary)"
    )


def test_the_queen_taken_before_the_last_trick_fades_away(drivers: MakeDriver) -> None:
    """Play goes on after the Q♠ taken mid-hand: its moment's shade fades to nothing."""
    driver = drivers()
    driver.app.start_match()
    table = driver.table
    table._cue("trick_taken", ev.TrickWon(3, 5, (QUEEN_OF_SPADES, 40, 41, 42), 16))
    moment = moment_on_top(driver)
    assert moment is not None and moment.kind == "queen" and not moment.dialog_follows
    moment.age = moment.seconds - 0.01
    assert moment.shade_alpha() < 10
