"""The title menu's fans of cards: inside the window beside the menu, and in the deck the
settings choose, also while the settings are open over the menu."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from table_driver import Driver, MakeDriver, open_title

from game.table.scenes.menu import MenuScene
from game.table.scenes.title import TitleScene


def warmed_title(driver: Driver) -> TitleScene:
    """Show the title and run frames until every card is prepared (the fans then show)."""
    title = open_title(driver)
    driver.run_until(lambda: driver.app.warm_up(0.0), 2000)
    driver.step()
    return title


def side_pixels(driver: Driver, menu: MenuScene, side: str) -> np.ndarray:
    """Return the screen's pixels left or right of the menu's panel, as (x, y, rgb)."""
    panel = menu._geometry()[0]
    pixels = pygame.surfarray.array3d(driver.app.screen).astype(int)
    return pixels[: panel.left] if side == "left" else pixels[panel.right :]


def card_faces(pixels: np.ndarray) -> int:
    """Return how many pixels are as light as a card's face (the felt never is), shaded or not."""
    return int(np.all(pixels > 90, axis=2).sum())


def blue_pips(pixels: np.ndarray) -> int:
    """Return how many pixels are the four-colour deck's blue (its diamonds)."""
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return int(((b > 2 * r + 10) & (b > g + 30)).sum())


def test_the_fans_stay_behind_the_settings_and_take_the_new_deck(drivers: MakeDriver) -> None:
    driver = drivers()
    app = driver.app
    warmed_title(driver)
    app.push_scene("settings", overlay=True)
    settings = driver.top
    assert isinstance(settings, MenuScene)
    driver.step()
    before = card_faces(side_pixels(driver, settings, "left"))
    assert before > 2000, "the fans show beside the settings"
    assert blue_pips(side_pixels(driver, settings, "right")) == 0
    app.change_settings(app.settings.with_changes(four_colour=True, large_print=True))
    driver.step()
    assert card_faces(side_pixels(driver, settings, "left")) > before // 2, "the fans vanished"
    # The settings prepare the new deck while they are open; the fans then show it.
    driver.run_until(lambda: app.warm_up(0.0), 600)
    driver.step()
    assert card_faces(side_pixels(driver, settings, "left")) > before // 2
    assert blue_pips(side_pixels(driver, settings, "right")) > 50, "the fans kept the old deck"


@pytest.mark.parametrize("size", [(800, 600), (1024, 768), (1280, 720), (1024, 1280)])
def test_the_fans_stay_inside_the_window_beside_the_menu(
    drivers: MakeDriver, size: tuple[int, int]
) -> None:
    driver = drivers(size=size)
    title = warmed_title(driver)
    width = size[0]
    panel = title._geometry()[0]
    faces = np.all(pygame.surfarray.array3d(driver.app.screen) > 200, axis=2)
    columns = np.flatnonzero(faces.any(axis=1))
    left = columns[columns < panel.left]
    right = columns[columns >= panel.right]
    assert len(left) and len(right), "both fans show"
    margin = driver.app.layout.px(4)
    assert left.min() >= margin and right.max() < width - margin, "a fan is cut by the edge"
    assert left.max() < panel.left - margin and right.min() > panel.right + margin
