"""Typing the player's name: a small panel over the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.scene import Scene, register
from game.table.store.settings import MAX_NAME_LENGTH, SettingsError
from game.table.widgets import centred_rect, draw_dialog, draw_panel, draw_text

if TYPE_CHECKING:
    from game.table.app import App


class NameEntry(Scene):
    """Edit the player's name; Enter keeps it, Esc leaves it as it was."""

    overlay = True

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.text = app.settings.player_name
        self.problem = ""

    def handle(self, event: pygame.event.Event) -> bool:
        """Typed characters, Backspace, Enter and Esc."""
        if event.type == pygame.TEXTINPUT:
            if len(self.text) < MAX_NAME_LENGTH and event.text.isprintable():
                self.text += event.text[: MAX_NAME_LENGTH - len(self.text)]
                self.problem = ""
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.keep()
            elif event.key == pygame.K_ESCAPE:
                self.app.close_scene(self)
        return True

    def keep(self) -> None:
        """Save the name if it is valid, else say what is wrong."""
        try:
            settings = self.app.settings.with_changes(player_name=self.text)
        except SettingsError as error:
            self.problem = f"The name {error}"
            return
        self.app.change_settings(settings)
        self.app.close_scene(self)

    def panel(self) -> pygame.Rect:
        """Return the panel's rectangle."""
        layout = self.app.layout
        return centred_rect(layout.size, layout.px(520), layout.px(200), layout.px(20))

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the panel with the name being typed."""
        layout = self.app.layout
        rect = self.panel()
        draw_dialog(surface, rect, "Your name", layout.px(26), layout.px(34))
        field = pygame.Rect(0, 0, rect.width - layout.px(60), layout.px(44))
        field.center = (rect.centerx, rect.centery + layout.px(4))
        draw_panel(surface, field, (4, 16, 10, 255), theme.ACCENT)
        draw_text(
            surface,
            self.text + "|",
            layout.px(22),
            theme.TEXT,
            midleft=(field.left + layout.px(12), field.centery),
            max_width=field.width - layout.px(24),
        )
        hint = self.problem or "Enter keeps it · Esc cancels"
        draw_text(
            surface,
            hint,
            layout.px(15),
            theme.DANGER if self.problem else theme.TEXT_DIM,
            center=(rect.centerx, rect.bottom - layout.px(24)),
            max_width=rect.width - layout.px(20),
        )


register("name_entry", NameEntry)
