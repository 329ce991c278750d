"""The title menu: continue the saved match, start one, watch bots, settings, stats, help."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from core.cards import parse_cards
from game.scenes.menu import MenuItem, MenuScene
from game.scenes.pages import help_page, stats_page
from game.scenes.settings_menu import settings_menu
from game.session import TableSession

if TYPE_CHECKING:
    from game.app import App

#: Time a title-menu frame may spend drawing cards ahead of the table.
TITLE_WARM_BUDGET_S = 0.03
#: The fans of cards on each side of the title menu, and how far each card turns.
LEFT_FAN = tuple(parse_cards("TH JH QH KH AH"))
RIGHT_FAN = tuple(parse_cards("2C 7D QS"))
FAN_STEP_DEGREES = 11.0


def start_match(app: App, watch: bool = False) -> None:
    """Start a new match with the settings' opponents and rules and show the table."""
    from game.scenes.table import TableScene

    settings = app.settings
    app.bots.cancel_all()
    session = TableSession.new_match(
        app.bots,
        settings.opponents,
        settings.rules,
        limit_ms=app.think.limit_ms,
        watch=watch,
    )
    app.stack.replace(TableScene(app, session))
    if not watch:
        app.save_game(session.controller)


def continue_match(app: App) -> bool:
    """Show the saved match at the table; False when there is none to continue."""
    from game.scenes.table import TableScene

    controller = app.load_saved_game()
    if controller is None:
        return False
    names = {
        seat: kind.partition(":")[2] or "normal"
        for seat, kind in enumerate(controller.seats)
        if kind != "human"
    }
    app.bots.cancel_all()
    session = TableSession(controller, names, app.bots, app.think.limit_ms)
    app.stack.replace(TableScene(app, session, resumed=True))
    return True


class TitleScene(MenuScene):
    """The first screen."""

    def __init__(self, app: App) -> None:
        self.has_saved_game = app.dirs.save_file.exists()
        self._turned: dict[tuple[int, int, float], pygame.Surface] = {}

        def resume() -> None:
            if not continue_match(app):
                self.has_saved_game = False
                self._move(1)
                app.toast("There is no saved match to continue")

        super().__init__(
            app,
            "MDHearts",
            [
                MenuItem("Continue the match", resume, enabled=lambda: self.has_saved_game),
                MenuItem("New match", lambda: start_match(app)),
                MenuItem("Watch the bots play", lambda: start_match(app, watch=True)),
                MenuItem("Settings", lambda: app.stack.push(settings_menu(app, overlay=True))),
                MenuItem("Statistics", lambda: app.stack.push(stats_page(app))),
                MenuItem("How to play", lambda: app.stack.push(help_page(app))),
                MenuItem("Quit", self.quit),
            ],
            subtitle="Hearts against bots that play fair",
            back=self.quit,
        )

    def update(self, dt: float) -> None:
        """Prepare the cards and sounds while the menu waits (nothing moves here)."""
        self.app.warm_up(TITLE_WARM_BUDGET_S)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the menu with a fan of cards on each side when the window is wide enough."""
        super().draw(surface)
        panel = self._geometry()[0]
        art = self.app.card_art()
        room = panel.left - art.size[1] * 1.4
        # The fans wait for their faces to be drawn by the warm-up, so no frame draws them.
        if room < 0 or not all(art.has_face(card) for card in LEFT_FAN + RIGHT_FAN):
            return
        centre_y = panel.centery + art.size[1]
        self._draw_fan(surface, LEFT_FAN, (panel.left // 2, centre_y))
        self._draw_fan(surface, RIGHT_FAN, ((panel.right + surface.get_width()) // 2, centre_y))

    def _draw_fan(
        self, surface: pygame.Surface, cards: tuple[int, ...], pivot: tuple[int, int]
    ) -> None:
        art = self.app.card_art()
        middle = (len(cards) - 1) / 2
        for index, card in enumerate(cards):
            angle = (middle - index) * FAN_STEP_DEGREES
            key = (art.size[0], card, angle)
            image = self._turned.get(key)
            if image is None:
                image = pygame.transform.rotozoom(art.face(card), angle, 1.0)
                self._turned[key] = image
            # Each card turns about a point below its centre, as a fan held in a hand.
            lift = pygame.math.Vector2(0, -art.size[1] * 1.05).rotate(-angle)
            surface.blit(image, image.get_rect(center=(pivot[0] + lift.x, pivot[1] + lift.y)))

    def quit(self) -> None:
        """Leave the program."""
        self.app.running = False
