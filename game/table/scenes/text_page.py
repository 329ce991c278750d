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
#: The panel's widest width, its margin to the window, and the room around the lines (in
#: layout pixels): above them (the title), below them (the hint) and on each side.
PANEL_WIDTH = 900
MARGIN = 20
TOP = 76
BOTTOM = 40
SIDE = 30


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

    def handle(self, event: pygame.event.Event) -> bool:
        """Close on Esc, Enter, Space or a click."""
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)
        ) or (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1):
            self.app.close_scene(self)
        return True

    def panel(self) -> pygame.Rect:
        """Return the panel's rectangle: as tall as its content, at most the window's height."""
        layout = self.app.layout
        width = min(layout.px(PANEL_WIDTH), layout.width - 2 * layout.px(MARGIN))
        height = (
            layout.px(TOP) + len(self.rows(width)) * self.line_height() + layout.px(BOTTOM)
        ) + self.extra_height()
        return centred_rect(layout.size, width, height, layout.px(MARGIN))

    def extra_height(self) -> int:
        """Return the height a page adds below its lines (none here)."""
        return 0

    def reserved_height(self) -> int:
        """Return the least room a page keeps below its lines when the window is short."""
        return self.extra_height()

    def text_px(self) -> int:
        """Return the size of the page's text."""
        return self.app.layout.px(17)

    def line_height(self) -> int:
        """Return the height of one line of the page."""
        return round(self.text_px() * 1.45)

    def rows(self, panel_width: int) -> list[Line]:
        """Return the lines as drawn in a panel ``panel_width`` wide: strings wrapped."""
        width = panel_width - 2 * self.app.layout.px(SIDE)
        lines = self.lines() if callable(self.lines) else self.lines
        rows: list[Line] = []
        for line in lines:
            if isinstance(line, tuple):
                rows.append(line)
            else:
                rows += wrap_text(line, self.text_px(), width) or [""]
        return rows

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the shaded table, the panel, the title, the wrapped lines and the hint."""
        layout = self.app.layout
        rect = self.panel()
        draw_dialog(surface, rect, self.title, layout.px(30), layout.px(36))
        self.draw_lines(surface, rect)
        draw_close_hint(surface, rect, layout.px(14), layout.px(20))

    def lines_bottom(self, rect: pygame.Rect) -> int:
        """Return the lowest y the lines may reach in the panel ``rect`` (above the hint)."""
        return rect.bottom - self.app.layout.px(BOTTOM)

    def draw_lines(self, surface: pygame.Surface, rect: pygame.Rect) -> int:
        """Draw the lines from the top of the panel ``rect``; return the y below the last."""
        layout = self.app.layout
        px, line_h = self.text_px(), self.line_height()
        y = rect.top + layout.px(TOP)
        left, width = rect.left + layout.px(SIDE), rect.width - 2 * layout.px(SIDE)
        for row in self.rows(rect.width):
            if y + line_h > self.lines_bottom(rect) - self.reserved_height():
                return y
            if isinstance(row, tuple):
                _draw_row(surface, row, px, left, width, y)
            else:
                draw_text(surface, row, px, theme.TEXT, topleft=(left, y))
            y += line_h
        return y


#: The share of a table row's width its first cell (the row's name) takes, in rows of 3+.
FIRST_CELL_SHARE = 0.3


def _draw_row(
    surface: pygame.Surface, cells: tuple[str, ...], px: int, left: int, width: int, top: int
) -> None:
    """Draw table cells across ``width``: the first left-aligned, the rest right-aligned."""
    first = round(width * FIRST_CELL_SHARE) if len(cells) > 2 else width // max(1, len(cells))
    column = (width - first) // max(1, len(cells) - 1)
    middle = top + round(px * 0.7)
    for index, cell in enumerate(cells):
        if index == 0:
            draw_text(surface, cell, px, theme.TEXT, midleft=(left, middle), max_width=first)
        else:
            right = left + first + index * column
            gap = max(4, px // 2)
            draw_text(
                surface, cell, px, theme.TEXT, midright=(right, middle), max_width=column - gap
            )
