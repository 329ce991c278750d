"""``mdhearts screenshots`` reaches every moment it names and saves each at the window size."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.tools.screenshots import take


def test_every_moment_is_saved_at_the_window_size(tmp_path: Path) -> None:
    saved = take(tmp_path, (800, 600), seed=7)
    names = [path.name for path in saved]
    expected = [
        "title",
        "table-passing",
        "table-hint",
        "table-mid-trick",
        "table-summary",
        "review",
        "review-hindsight",
        "moon",
        "settings-over-pause",
        "match-result",
        "statistics",
        "replays",
        "replay",
    ]
    assert names == [f"{name}-800x600.png" for name in expected]
    pictures = [pygame.image.load(str(path)) for path in saved]
    assert all(picture.get_size() == (800, 600) for picture in pictures)
    assert len({pygame.image.tobytes(picture, "RGB") for picture in pictures}) == len(expected)
