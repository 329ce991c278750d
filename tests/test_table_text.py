"""Every text the table draws stays on screen and inside the panel it belongs to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from table_driver import make_dirs

import game.table.playing.painter as table_module
import game.table.scenes.match_result as match_result_module
import game.table.scenes.summary as summary_module
import game.table.widgets as widgets
from ai.registry import BOTS
from game.table import fonts
from game.table.app import App
from game.table.bot_requests import InlineBots
from game.tools.scripted import ScriptedTable

SIZES = [(800, 600), (1280, 720), (1920, 1080), (3840, 2160)]
LONG_NAME = "WWWWWWWWWWWWWWWW"  # the widest name the settings allow


@pytest.fixture
def texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, pygame.Rect]]]:
    """Record every line of text the table and the summary draw, with its rectangle."""
    drawn: list[tuple[str, pygame.Rect]] = []
    original = widgets.draw_text

    def recording(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        rect = original(surface, text, *args, **kwargs)
        drawn.append((text, rect.copy()))
        return rect

    for module in (table_module, summary_module, match_result_module, widgets):
        monkeypatch.setattr(module, "draw_text", recording)
    yield drawn


def _inside(outer: pygame.Rect, inner: pygame.Rect) -> bool:
    return outer.contains(inner)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_texts_fit_the_screen_and_their_panels(
    size: tuple[int, int], tmp_path: Path, texts: list[tuple[str, pygame.Rect]]
) -> None:
    app = App(make_dirs(tmp_path), size=size, bots=InlineBots())
    try:
        app.change_settings(app.settings.with_changes(player_name=LONG_NAME))
        table = ScriptedTable(app, seed=5)
        screen = pygame.Rect(0, 0, *size)
        for moment in (table.at_passing, table.at_mid_trick):
            assert moment()
            texts.clear()
            table.scene.draw(app.screen)
            assert texts, "the table drew no text"
            for text, rect in texts:
                assert _inside(screen, rect), (moment.__name__, text, rect)
            plates = app.layout.name_plates
            for text, rect in texts:
                for plate in plates:
                    if plate.collidepoint(rect.center):
                        assert _inside(plate, rect), (text, rect, plate)
            for button in table.scene.bar.top:
                label = [r for t, r in texts if t == button.label]
                assert label and _inside(button.rect, label[0]), button.label
        assert table.at_summary()
        scene = app.top_scene()
        assert isinstance(scene, summary_module.HandSummary)
        texts.clear()
        scene.draw(app.screen)
        panel = scene.panel()
        assert texts
        for text, rect in texts:
            assert _inside(panel, rect), (text, rect, panel)
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1024, 1280)], ids=lambda s: f"{s}")
def test_a_name_plate_shows_the_whole_name_at_its_text_size(
    size: tuple[int, int], tmp_path: Path, texts: list[tuple[str, pygame.Rect]]
) -> None:
    """With every bot's name and the widest numbers ("+26 · 100 pts"), each seat's name is
    drawn whole (no ellipsis) at the plate's text size, inside its plate."""
    app = App(make_dirs(tmp_path), size=size, bots=InlineBots())
    try:
        table = ScriptedTable(app, seed=5)
        assert table.at_mid_trick()
        scene = table.scene
        px = app.layout.text(15)
        for bot in BOTS:
            scene.session.bot_names = dict.fromkeys(range(4), bot)
            scene.view.shown.taken = [26, 26, 26, 26]
            scene.view.shown.totals = [100, 100, 100, 100]
            texts.clear()
            scene.draw(app.screen)
            assert any(text == "+26 · 100 pts" for text, _ in texts)
            for seat, plate in enumerate(app.layout.name_plates):
                name = scene.seat_name(seat)
                drawn = [(t, r) for t, r in texts if t.startswith(name)]
                assert len(drawn) == 1, (name, texts)
                text, rect = drawn[0]
                whole = {fonts.font(px, bold).size(text) for bold in (False, True)}
                assert rect.size in whole, (size, text, rect.size, whole)
                assert plate.contains(rect), (size, text, rect, plate)
    finally:
        app.close()
