"""The title menu: continue the saved match, start one, watch bots, replays, settings,
statistics, help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from ai.registry import SeatRefused, check_seats, seat_player_names
from ai.review import finished_hands
from core.cards import parse_cards
from core.seats import Seat, engine_seats
from game.table.scene import register
from game.table.scenes.menu import MenuItem, MenuScene, confirm_menu
from game.table.session import TableSession
from game.table.store.review_file import load_reviews

if TYPE_CHECKING:
    from game.table.app import App

#: Time a title-menu frame may spend drawing cards ahead of the table.
TITLE_WARM_BUDGET_S = 0.03
#: The fans of cards on each side of the title menu, and how far each card turns.
LEFT_FAN = tuple(parse_cards("TH JH QH KH AH"))
RIGHT_FAN = tuple(parse_cards("2C 7D QS"))
FAN_STEP_DEGREES = 11.0
#: How long a message about the saved match stays up.
LONG_TOAST_SECONDS = 8.0


def table_seat_problem(seats: Sequence[Seat]) -> str | None:
    """Say why the table cannot play a match with these seats (None when it can).

    The table seats the person at seat 0 (or nobody, to watch); every other seat must be a
    bot or an engine program this program knows how to run. Nothing is started here.
    """
    others = [number for number, seat in enumerate(seats) if seat.is_human and number != 0]
    if others:
        return (
            f"the saved match has a person at seat {others[0]}, and the table seats you at "
            "seat 0 only: play it with mdhearts cli"
        )
    try:
        check_seats(seats, allow_engines=True)
    except SeatRefused as refused:
        return f"the saved match cannot be played here: {refused}"
    return None


def continue_match(app: App, *, programs_allowed: bool = False) -> bool:
    """Show the saved match at the table; False when there is none to continue.

    A match with seats played by programs (``engine:``) asks the person first, default No;
    one the table cannot play is left on disk untouched with a message.
    """
    controller = app.load_saved_game()
    if controller is None:
        return False
    problem = table_seat_problem(controller.seats)
    if problem is not None:
        app.toast(problem[:1].upper() + problem[1:], LONG_TOAST_SECONDS)
        return False
    engines = engine_seats(controller.seats)
    if engines and not programs_allowed:
        app.stack.push(_consent_menu(app, engines))
        return True
    names = seat_player_names(controller.seats, app.think.difficulty)
    app.bots.cancel_all()
    session = TableSession(controller, names, app.bots, app.think.limit_ms)
    reviews, message = load_reviews(app.dirs.reviews_file, controller, finished_hands(controller))
    if message:
        app.toast(message)
    session.reviews.update(reviews)
    session.reviews_saved = len(reviews)
    app.replace_scene("table", session, resumed=True)
    return True


def _consent_menu(app: App, engines: dict[int, Seat]) -> MenuScene:
    """Ask before the saved match's engine programs are started; the first item is No."""
    commands = "\n".join(f"seat {number}: {seat.command}" for number, seat in engines.items())
    return confirm_menu(
        app,
        "Start programs on this computer?",
        f"The saved match has seats played by programs:\n{commands}",
        "No, do not start them",
        "Yes, start them and continue",
        lambda: continue_match(app, programs_allowed=True),
    )


def new_match(app: App) -> None:
    """Start a new match; when a saved match would be replaced, ask first (default No)."""
    if app.dirs.save_file.exists():
        app.push_scene("abandon_match")
    else:
        app.start_match()


def abandon_match_menu(app: App) -> MenuScene:
    """Ask before a new match replaces the match in progress; nothing changes until Yes."""
    return confirm_menu(
        app,
        "Abandon the match in progress?",
        "A new match replaces the saved one, which cannot be continued afterwards.",
        "No, keep it",
        "Yes, start a new match",
        app.start_match,
    )


class TitleScene(MenuScene):
    """The first screen."""

    #: Whether the table's cards and sounds are all prepared (the fans then show).
    warmed = False

    def __init__(self, app: App) -> None:
        self.has_saved_game = app.dirs.save_file.exists()
        self._turned: dict[tuple[int, int, float], pygame.Surface] = {}

        def resume() -> None:
            had_file = app.dirs.save_file.exists()
            if not continue_match(app):
                self.has_saved_game = False
                self._move(1)
                if not had_file:
                    app.toast("There is no saved match to continue")

        super().__init__(
            app,
            "MDHearts",
            [
                MenuItem("Continue the match", resume, enabled=lambda: self.has_saved_game),
                MenuItem("New match", lambda: new_match(app)),
                MenuItem("Watch the bots play", lambda: app.start_match(watch=True)),
                MenuItem("Settings", lambda: app.push_scene("settings", overlay=True)),
                MenuItem("Replays", lambda: app.push_scene("replays")),
                MenuItem("Statistics", lambda: app.push_scene("statistics")),
                MenuItem("How to play", lambda: app.push_scene("help")),
                MenuItem("Quit", self.quit),
            ],
            subtitle="Hearts against bots that play fair",
            back=self.quit,
        )

    def update(self, dt: float) -> None:
        """Prepare the cards and sounds while the menu waits (nothing moves here)."""
        self.warmed = self.app.warm_up(TITLE_WARM_BUDGET_S)

    def frame_due_in(self) -> float | None:
        """Return 0 (a frame each tick) until the cards are prepared, then None: it is still."""
        return None if self.warmed else 0.0

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
                if art.has_face(card):  # not a stand-in scaled for a resize's first frame
                    self._turned[key] = image
            # Each card turns about a point below its centre, as a fan held in a hand.
            lift = pygame.math.Vector2(0, -art.size[1] * 1.05).rotate(-angle)
            surface.blit(image, image.get_rect(center=(pivot[0] + lift.x, pivot[1] + lift.y)))

    def quit(self) -> None:
        """Leave the program."""
        self.app.running = False


register("title", TitleScene)
register("abandon_match", abandon_match_menu)
