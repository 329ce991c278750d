"""Messages drawn over every screen: short notices that fade after a few seconds."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.table import theme
from game.table.layout import Layout
from game.table.widgets import draw_panel, draw_text


def draw_toasts(surface: pygame.Surface, layout: Layout, texts: Sequence[str]) -> None:
    """Draw the notices stacked below the top bar, newest last."""
    px = layout.px(17)
    width = min(layout.width - layout.px(40), layout.px(900))
    top = layout.top_bar.bottom + layout.px(8)
    for text in texts:
        rect = pygame.Rect(0, top, width, layout.px(34))
        rect.centerx = layout.width // 2
        draw_panel(surface, rect, (40, 24, 16, 230), theme.ACCENT)
        draw_text(
            surface, text, px, theme.TEXT, center=rect.center, max_width=width - layout.px(16)
        )
        top = rect.bottom + layout.px(6)
