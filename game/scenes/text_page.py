"""A page of text over the table: rules and keys, statistics, the score sheet."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game import theme
from game.scene import Scene
from game.widgets import centred_rect, draw_dialog, draw_text, wrap_text


class TextPage(Scene):
    """Lines of text in a panel; any key or click closes it. ``lines`` may be a function."""

    overlay = True

    def __init__(
        self,
        app: object,
        title: str,
        lines: list[str] | Callable[[], list[str]],
        mono: bool = False,
    ) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.title = title
        self.lines = lines
        self.mono = mono

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
        lines = self.lines() if callable(self.lines) else self.lines
        for line in lines:
            for part in wrap_text(line, px, rect.width - layout.px(60)) if line else [""]:
                if y + line_h > rect.bottom - layout.px(40):
                    break
                draw_text(surface, part, px, theme.TEXT, topleft=(rect.left + layout.px(30), y))
                y += line_h
        draw_text(
            surface,
            "Press Esc or click to close",
            layout.px(14),
            theme.TEXT_DIM,
            center=(rect.centerx, rect.bottom - layout.px(20)),
        )
