"""Drawing a hand that is over, for the pages that step through one: rows of cards, a trick's
four cards with their players' names, and every seat's hand one row a seat.

The review page and the replay page draw with these, so a hand reads alike on both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from game.table import theme
from game.table.card_art import CardArt
from game.table.layout import Layout
from game.table.widgets import Button, draw_text

if TYPE_CHECKING:
    from game.table.app import App

#: The largest cards on a page, as a share of the table's own.
MAX_CARD_SHARE = 1.4
#: How far apart the cards of a hand are fanned, as a share of a card's width, and the least
#: (every card's corner index still shows) when rows of every hand need bigger cards.
FAN = 0.62
TIGHT_FAN = 0.42
#: In the rows of every hand, the share of a card's height between one seat's row and the next.
ROW_PITCH = 0.5
#: Width of the seat names left of the rows of every hand, in layout pixels.
NAME_COLUMN = 150
#: How far a marked card is lifted, as a share of its height.
LIFT = 0.12
#: The panel of a page stepping through a hand, at the base size, and its margin to the window;
#: how much taller than ``PANEL_HEIGHT`` it may grow in a tall window.
PANEL_WIDTH = 1180
PANEL_HEIGHT = 680
PANEL_MARGIN = 16
TALL_SHARE = 1.5

Colour = tuple[int, int, int]


def hand_page_panel(layout: Layout) -> pygame.Rect:
    """Return the panel of a page stepping through a hand: nearly all the window."""
    width = min(layout.px(PANEL_WIDTH), layout.width - 2 * layout.px(PANEL_MARGIN))
    height = max(
        layout.px(PANEL_HEIGHT), min(round(width * 0.85), layout.px(PANEL_HEIGHT * TALL_SHARE))
    )
    return layout.panel(width, height, layout.px(PANEL_MARGIN))


def place_page_buttons(
    layout: Layout,
    rect: pygame.Rect,
    strip: Sequence[Button],
    back: Button,
    forward: Button,
    middle: Button,
    middle_width: int,
    step_width: int = 64,
) -> None:
    """Place a hand page's buttons in its panel ``rect``: the ``strip`` of steps (each at most
    ``step_width`` layout pixels wide) under the title, ``back`` and ``forward`` at the bottom
    corners and ``middle`` (at most ``middle_width`` wide) between them."""
    count = len(strip)
    gap = layout.px(6)
    room = rect.width - 2 * layout.px(24)
    width = min(layout.px(step_width), (room - (count - 1) * gap) // max(1, count))
    height = max(layout.px(30), round(layout.text(15) * 1.9))
    left = rect.centerx - (count * width + (count - 1) * gap) // 2
    top = rect.top + layout.px(64)
    for index, button in enumerate(strip):
        button.rect = pygame.Rect(left + index * (width + gap), top, width, height)
    nav_h = max(layout.px(40), round(layout.text(16) * 2.4))
    nav_w = min(layout.px(180), rect.width // 3)
    bottom = rect.bottom - layout.px(40)
    back.rect = pygame.Rect(0, 0, nav_w, nav_h)
    back.rect.bottomleft = (rect.left + layout.px(24), bottom)
    forward.rect = pygame.Rect(0, 0, nav_w, nav_h)
    forward.rect.bottomright = (rect.right - layout.px(24), bottom)
    room = forward.rect.left - back.rect.right - 2 * layout.px(16)
    middle.rect = pygame.Rect(0, 0, min(layout.px(middle_width), room), nav_h)
    middle.rect.midbottom = (rect.centerx, bottom)


def page_content_area(
    layout: Layout, rect: pygame.Rect, strip: Sequence[Button], back: Button
) -> pygame.Rect:
    """Return the room of a hand page between its strip of steps and its bottom buttons."""
    top = strip[0].rect.bottom + layout.px(14) if strip else rect.top + layout.px(64)
    bottom = back.rect.top - layout.px(10)
    inner = rect.inflate(-2 * layout.px(24), 0)
    return pygame.Rect(inner.left, top, inner.width, max(1, bottom - top))


def fit_art(app: App, area: pygame.Rect, height: float, count: int, fan: float = FAN) -> CardArt:
    """Return the card art for a row of ``count`` cards at most ``height`` pixels tall and,
    fanned ``fan`` of a card apart, no wider than ``area``: up to ``MAX_CARD_SHARE`` of the
    table's card."""
    art = app.card_art()
    width = art.size[0]
    tall = int(height / (art.size[1] / width))
    wide = int(area.width * 0.94 / (1 + fan * max(0, count - 1)))
    fitting = max(24, min(round(width * MAX_CARD_SHARE), tall, wide))
    return art if fitting == width else app.art.get(fitting, art.style)


def draw_card_row(
    surface: pygame.Surface,
    art: CardArt,
    cards: Sequence[int],
    centre: tuple[int, int],
    marked: dict[int, Colour],
    step: float,
    room: float | None = None,
) -> list[pygame.Rect]:
    """Draw a row of card faces centred on ``centre``, ``step`` apart; ring the ``marked``
    ones in their colour, lifted a little; return where each was drawn.

    With ``room`` (the widest the row may be), a marked card is shown whole: the card after
    it moves along to its right edge, and the other cards close up (never nearer than
    ``TIGHT_FAN`` of a card) so the row still fits.
    """
    width, height = art.size
    steps = [step] * max(0, len(cards) - 1)
    if room is not None:
        whole = [i for i, card in enumerate(cards[:-1]) if card in marked]
        gap = max(2, round(width * 0.04))
        for i in whole:
            steps[i] = max(step, width + gap)
        rest = len(steps) - len(whole)
        if rest and sum(steps) + width > room:
            fitted = (room - width - sum(steps[i] for i in whole)) / rest
            for i in range(len(steps)):
                if i not in whole:
                    steps[i] = max(width * TIGHT_FAN, min(step, fitted))
    left = centre[0] - (sum(steps) + width) / 2
    rects = []
    x = left
    for index, card in enumerate(cards):
        spot = pygame.Rect(round(x), 0, width, height)
        spot.centery = centre[1] - (round(height * LIFT) if card in marked else 0)
        surface.blit(art.face(card), spot)
        if card in marked:
            surface.blit(art.outline(marked[card]), spot)
        rects.append(spot)
        if index < len(steps):
            x += steps[index]
    return rects


def draw_trick_cards(
    surface: pygame.Surface,
    app: App,
    art: CardArt,
    area: pygame.Rect,
    top: int,
    plays: Sequence[tuple[int, int]],
    winner: int,
    name_of: Callable[[int], str],
    bold_seat: int | None = None,
) -> int:
    """Draw a trick's cards in the order played from ``top``, each player's name under its
    card, the winner's card ringed; return the y below the names."""
    layout = app.layout
    small = layout.text(14)
    width, height = art.size
    # Room under each card for its player's name, however small the cards are drawn.
    gap = max(layout.px(18), width // 4, layout.px(124) - width)
    winning = dict(plays)[winner]
    centre = (area.centerx, top + height // 2)
    cards = [card for _, card in plays]
    rects = draw_card_row(surface, art, cards, centre, {}, width + gap)
    for (seat, card), spot in zip(plays, rects, strict=True):
        if card == winning:
            surface.blit(art.outline(theme.ACCENT), spot)
        draw_text(
            surface,
            name_of(seat),
            small,
            theme.ACCENT if card == winning else theme.TEXT,
            bold=seat == bold_seat,
            center=(spot.centerx, spot.bottom + round(small * 0.9)),
            max_width=width + gap - 4,
        )
    return max(rect.bottom for rect in rects) + round(small * 2)


def draw_seat_rows(
    surface: pygame.Surface,
    app: App,
    art: CardArt,
    area: pygame.Rect,
    top: int,
    hands: Sequence[Sequence[int]],
    first_seat: int,
    name_of: Callable[[int], str],
    ringed: dict[int, Colour],
    notes: Sequence[str] = ("", "", "", ""),
    pitch_share: float = ROW_PITCH,
) -> int:
    """Draw every seat's cards (``hands`` by seat) one row a seat from ``first_seat`` on, each
    row ``pitch_share`` of a card's height below the one above (under 1, rows overlap so only
    the top of each card but the last row's shows), the seat's name (and its note, by seat)
    at the left and the ``ringed`` cards outlined in their colour; return the bottom."""
    layout = app.layout
    small = layout.text(14)
    width, height = art.size
    column = layout.px(NAME_COLUMN)
    pitch = round(height * pitch_share)
    most = max(1, *(len(cards) for cards in hands))
    step = min(width * FAN, (area.width - column - width) / max(1, most - 1))
    left = area.centerx - round(column + width + step * (most - 1)) // 2
    y = top
    for row in range(4):
        seat = (first_seat + row) % 4
        name_y = y + round(height * 0.22)
        draw_text(
            surface,
            name_of(seat),
            small,
            theme.TEXT,
            bold=seat == first_seat,
            midleft=(left, name_y if not notes[seat] else name_y - round(small * 0.55)),
            max_width=column - layout.px(8),
        )
        if notes[seat]:
            draw_text(
                surface,
                notes[seat],
                small,
                theme.TEXT_DIM,
                midleft=(left, name_y + round(small * 0.6)),
                max_width=column - layout.px(8),
            )
        for index, card in enumerate(hands[seat]):
            spot = pygame.Rect(left + column + round(index * step), y, width, height)
            surface.blit(art.face(card), spot)
            if card in ringed:
                surface.blit(art.outline(ringed[card]), spot)
        y += pitch
    return y - pitch + height
