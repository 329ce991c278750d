"""The title menu: continue the saved match, start one, watch bots, replays, settings,
statistics, help."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from core.cards import parse_cards
from core.seats import Seat
from game.table.card_art import CardArt, CardStyle
from game.table.scene import register
from game.table.scenes.menu import MenuItem, MenuScene, confirm_menu

if TYPE_CHECKING:
    from game.table.app import App

#: Time a title-menu frame may spend preparing cards and sounds ahead of the table: what a
#: frame at 60 Hz leaves after drawing the menu at 3840×2160, with room to spare.
TITLE_WARM_BUDGET_S = 0.008
#: The fans of cards on each side of the title menu, and how far each card turns.
LEFT_FAN = tuple(parse_cards("TH JH QH KH AH"))
RIGHT_FAN = tuple(parse_cards("2C 7D QS"))
FAN_STEP_DEGREES = 11.0
#: The least room between a fan and the window's edge or the menu (layout pixels), the
#: narrowest a fan's cards are drawn (layout pixels; else no fan is: the table's cards grow in
#: a tall window, so a share of their size would say nothing), and the fans kept turned.
FAN_MARGIN = 12
MIN_FAN_CARD_WIDTH = 55
KEPT_FANS = 4
#: How long a message about the saved match stays up.
LONG_TOAST_SECONDS = 8.0


def continue_match(app: App, *, programs_allowed: bool = False) -> bool:
    """Show the saved match at the table; False when there is none to continue.

    A match with seats played by programs (``engine:``) asks the person first, default No;
    one the table cannot play is left on disk untouched with a message.
    """
    found = app.matches.saved(programs_allowed=programs_allowed)
    for note in found.notes:
        app.toast(note, LONG_TOAST_SECONDS)
    if found.problem is not None:
        app.toast(found.problem[:1].upper() + found.problem[1:], LONG_TOAST_SECONDS)
        return False
    if found.programs:
        app.push(_consent_menu(app, found.programs))
        return True
    if found.match is None:
        return False
    app.replace_scene("table", found.match, resumed=True)
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

    def __init__(self, app: App) -> None:
        self.has_saved_game = app.dirs.save_file.exists()
        #: Both fans' turned cards by card width, style and zoom, oldest first.
        self._turned: dict[
            tuple[int, CardStyle, float], tuple[list[pygame.Surface], list[pygame.Surface]]
        ] = {}

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
                MenuItem(
                    "Continue the match",
                    resume,
                    enabled=lambda: self.has_saved_game,
                    why_not="No match is saved to continue: choose New match to start one",
                ),
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
            warm_budget_s=TITLE_WARM_BUDGET_S,
        )

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the menu with a fan of cards on each side, where there is room for one."""
        super().draw(surface)
        panel = self._geometry()[0]
        art = self.app.card_art()
        margin = self.app.layout.px(FAN_MARGIN)
        width = surface.get_width()
        sides = ((LEFT_FAN, 0, panel.left), (RIGHT_FAN, panel.right, width))
        zoom = min(
            fan_zoom(art.size, len(cards), right - left - 2 * margin)
            for cards, left, right in sides
        )
        if zoom * art.size[0] < self.app.layout.px(MIN_FAN_CARD_WIDTH):
            return
        fans = self._fans(art, zoom)
        if fans is None:
            return
        centre_y = panel.centery
        for images, (cards, left, right) in zip(fans, sides, strict=True):
            _draw_fan(surface, images, cards, art.size, zoom, ((left + right) // 2, centre_y))

    def _fans(
        self, art: CardArt, zoom: float
    ) -> tuple[list[pygame.Surface], list[pygame.Surface]] | None:
        """Return the turned cards of both fans in the art's style, made once its faces are
        drawn (by the warm-up, so no frame draws them); until then the fans of the style shown
        last at this size, so a changed style never leaves the sides empty."""
        key = (art.size[0], art.style, zoom)
        fans = self._turned.get(key)
        if fans is None and all(art.has_face(card) for card in LEFT_FAN + RIGHT_FAN):
            fans = (_turned_fan(art, LEFT_FAN, zoom), _turned_fan(art, RIGHT_FAN, zoom))
            self._turned[key] = fans
            while len(self._turned) > KEPT_FANS:
                del self._turned[next(iter(self._turned))]
        if fans is None:
            shown = [
                fan for (size, _, at), fan in self._turned.items() if (size, at) == (key[0], zoom)
            ]
            fans = shown[-1] if shown else None
        return fans

    def quit(self) -> None:
        """Leave the program."""
        self.app.running = False


def _fan_angles(count: int) -> list[float]:
    """Return how far each card of a fan of ``count`` turns, in degrees, left to right."""
    middle = (count - 1) / 2
    return [(middle - index) * FAN_STEP_DEGREES for index in range(count)]


def _fan_offsets(size: tuple[int, int], count: int, zoom: float) -> list[pygame.math.Vector2]:
    """Return each card's centre from the fan's pivot: each turns about a point below its
    centre, as a fan held in a hand."""
    lift = pygame.math.Vector2(0, -size[1] * 1.05 * zoom)
    return [lift.rotate(-angle) for angle in _fan_angles(count)]


def fan_bounds(size: tuple[int, int], count: int, zoom: float) -> pygame.Rect:
    """Return the box a fan of ``count`` cards of ``size`` at ``zoom`` covers, about its pivot."""
    box: pygame.Rect | None = None
    w, h = size[0] * zoom, size[1] * zoom
    for angle, offset in zip(_fan_angles(count), _fan_offsets(size, count, zoom), strict=True):
        turn = math.radians(angle)
        across = w * abs(math.cos(turn)) + h * abs(math.sin(turn)) + 2
        down = w * abs(math.sin(turn)) + h * abs(math.cos(turn)) + 2
        card = pygame.Rect(0, 0, math.ceil(across), math.ceil(down))
        card.center = (round(offset.x), round(offset.y))
        box = card if box is None else box.union(card)
    assert box is not None
    return box


def fan_zoom(size: tuple[int, int], count: int, room: int) -> float:
    """Return how large a fan may be drawn (1 at most) to fit ``room`` pixels across."""
    across = fan_bounds(size, count, 1.0).width
    return min(1.0, math.floor(100 * max(0, room) / across) / 100)


def _turned_fan(art: CardArt, cards: tuple[int, ...], zoom: float) -> list[pygame.Surface]:
    """Return the fan's cards turned to their angles at ``zoom``."""
    angles = _fan_angles(len(cards))
    return [
        pygame.transform.rotozoom(art.face(c), a, zoom) for c, a in zip(cards, angles, strict=True)
    ]


def _draw_fan(
    surface: pygame.Surface,
    images: list[pygame.Surface],
    cards: tuple[int, ...],
    size: tuple[int, int],
    zoom: float,
    centre: tuple[int, int],
) -> None:
    """Draw a fan's turned cards with the middle of its box at ``centre``."""
    box = fan_bounds(size, len(cards), zoom)
    pivot = (centre[0] - box.centerx, centre[1] - box.centery)
    for image, offset in zip(images, _fan_offsets(size, len(cards), zoom), strict=True):
        surface.blit(
            image, image.get_rect(center=(round(pivot[0] + offset.x), round(pivot[1] + offset.y)))
        )


register("title", TitleScene)
register("abandon_match", abandon_match_menu)
