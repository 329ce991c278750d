"""A page of text over the table: rules and keys, statistics, the score sheet.

A line is a string (wrapped to the panel) or a tuple of cells, drawn as a table row: the
first cell left-aligned, the others right-aligned in equal columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from game.table import theme
from game.table.scene import Scene
from game.table.widgets import (
    centred_rect,
    draw_close_hint,
    draw_dialog,
    draw_text,
    wrap_text,
)

Line = str | tuple[str, ...]


class TextPage(Scene):
    """Lines of text in a panel; any key or click closes it. ``lines`` may be a function."""

    overlay = True

    def __init__(
        self,
        app: object,
        title: str,
        lines: Sequence[Line] | Callable[[], Sequence[Line]],
    ) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.title = title
        self.lines = lines

    def handle(self, event: pygame.event.Event) -> None:
        """Close on Esc, Enter, Space or a click."""
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)
        ) or (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1):
            self.app.stack.remove(self)

    def panel(self) -> pygame.Rect:
        """Return the panel's rectangle."""
        layout = self.app.layout
        return centred_rect(layout.size, layout.px(900), layout.height, layout.px(20))

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the shaded table, the panel, the title and the wrapped lines."""
        layout = self.app.layout
        rect = self.panel()
        draw_dialog(surface, rect, self.title, layout.px(30), layout.px(36))
        px = layout.px(17)
        line_h = round(px * 1.45)
        y = rect.top + layout.px(76)
        left, width = rect.left + layout.px(30), rect.width - layout.px(60)
        lines = self.lines() if callable(self.lines) else self.lines
        for line in lines:
            rows: Sequence[Line] = (
                (line,) if isinstance(line, tuple) else wrap_text(line, px, width)
            )
            for row in rows or [""]:
                if y + line_h > rect.bottom - layout.px(40):
                    break
                if isinstance(row, tuple):
                    _draw_row(surface, row, px, left, width, y)
                else:
                    draw_text(surface, row, px, theme.TEXT, topleft=(left, y))
                y += line_h
        draw_close_hint(surface, rect, layout.px(14), layout.px(20))


def _draw_row(
    surface: pygame.Surface, cells: tuple[str, ...], px: int, left: int, width: int, top: int
) -> None:
    """Draw table cells across ``width``: the first left-aligned, the rest right-aligned."""
    column = width // max(1, len(cells))
    middle = top + round(px * 0.7)
    for index, cell in enumerate(cells):
        if index == 0:
            draw_text(surface, cell, px, theme.TEXT, midleft=(left, middle), max_width=column)
        else:
            right = left + (index + 1) * column
            draw_text(surface, cell, px, theme.TEXT, midright=(right, middle), max_width=column)
