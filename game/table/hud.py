"""Messages drawn over every screen: short notices that fade after a few seconds."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.table import theme
from game.table.layout import Layout
from game.table.widgets import draw_panel, draw_text, wrap_text

#: Most lines a notice takes; the rest of a longer one is shrunk onto the last line.
MAX_TOAST_LINES = 3


def draw_toasts(surface: pygame.Surface, layout: Layout, texts: Sequence[str]) -> None:
    """Draw the notices stacked below the top bar, newest last; a long one wraps."""
    px = layout.px(17)
    width = min(layout.width - layout.px(40), layout.px(900))
    line_h = round(px * 1.3)
    top = layout.top_bar.bottom + layout.px(8)
    for text in texts:
        lines = wrap_text(text, px, width - layout.px(24))
        if len(lines) > MAX_TOAST_LINES:
            lines = [*lines[: MAX_TOAST_LINES - 1], " ".join(lines[MAX_TOAST_LINES - 1 :])]
        rect = pygame.Rect(0, top, width, line_h * len(lines) + layout.px(14))
        rect.centerx = layout.width // 2
        draw_panel(surface, rect, (40, 24, 16, 245), theme.ACCENT)
        for number, line in enumerate(lines):
            centre = (rect.centerx, rect.top + layout.px(7) + line_h * number + line_h // 2)
            draw_text(surface, line, px, theme.TEXT, center=centre, max_width=width - layout.px(16))
        top = rect.bottom + layout.px(6)
