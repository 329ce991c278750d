"""Playing-card faces and backs drawn by code at the exact pixel size the table needs.

Shapes (the rounded card, its border, court panels, the back's pattern, shadows and highlight
rings) are rasterised from signed distance fields, so their edges are antialiased at any size.
Ranks and suit symbols are glyphs placed by their ink bounds (``card_glyphs``). Cards narrower
than ``COMPACT_WIDTH``, and large-print cards, trade the pip layout for bigger indices and one
big suit symbol; a large-print court keeps its figure beside its one index.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pygame

from core.cards import HEARTS, SPADES, rank_of, suit_of
from game.table.card_glyphs import blit_centred, rank_glyph, rank_label, suit_glyph, upside_down
from game.table.card_style import (
    BACK_COLOURS,
    BLACK,
    COURT_FILL,
    COURT_GOLD,
    DEFAULT_STYLE,
    EDGE,
    PAPER,
    SHADOW_ALPHA,
    CardStyle,
)
from game.table.court_art import court_half
from game.table.raster import RGB, Canvas, band, inside

CARD_ASPECT = 1.4
MIN_WIDTH = 16
COMPACT_WIDTH = 64
#: The ranks (0 = two) of the court cards, drawn with a figure in a panel.
COURT_RANKS = (9, 10, 11)

PIP_ROWS: dict[int, tuple[tuple[str, float], ...]] = {
    2: (("C", 0.0), ("C", 1.0)),
    3: (("C", 0.0), ("C", 0.5), ("C", 1.0)),
    4: (("L", 0.0), ("R", 0.0), ("L", 1.0), ("R", 1.0)),
    5: (("L", 0.0), ("R", 0.0), ("C", 0.5), ("L", 1.0), ("R", 1.0)),
    6: (("L", 0.0), ("R", 0.0), ("L", 0.5), ("R", 0.5), ("L", 1.0), ("R", 1.0)),
    7: (("L", 0.0), ("R", 0.0), ("C", 0.25), ("L", 0.5), ("R", 0.5), ("L", 1.0), ("R", 1.0)),
    8: (
        ("L", 0.0), ("R", 0.0), ("C", 0.25), ("L", 0.5), ("R", 0.5),
        ("C", 0.75), ("L", 1.0), ("R", 1.0),
    ),
    9: (
        ("L", 0.0), ("R", 0.0), ("L", 1 / 3), ("R", 1 / 3), ("C", 0.5),
        ("L", 2 / 3), ("R", 2 / 3), ("L", 1.0), ("R", 1.0),
    ),
    10: (
        ("L", 0.0), ("R", 0.0), ("C", 1 / 6), ("L", 1 / 3), ("R", 1 / 3),
        ("L", 2 / 3), ("R", 2 / 3), ("C", 5 / 6), ("L", 1.0), ("R", 1.0),
    ),
}  # fmt: skip


class CardPainter:
    """Draws the faces, back, shadow and rings of cards ``width_px`` wide, each a new surface.

    Cards narrower than ``COMPACT_WIDTH`` get a simpler face that stays readable: one large
    corner index and one big suit symbol.
    """

    def __init__(self, width_px: int, style: CardStyle = DEFAULT_STYLE) -> None:
        self.width = max(MIN_WIDTH, int(width_px))
        self.height = round(self.width * CARD_ASPECT)
        self.style = style
        self.compact = self.width < COMPACT_WIDTH
        self.simple = self.compact or style.large_print
        w = self.width
        self.radius = max(4.0, w * 0.055)
        self.border = float(max(1, round(w * 0.008)))
        scale = 1.5 if style.large_print else 1.0
        self.cap_height = max(8.0, w * (0.2 if self.compact else 0.14)) * scale
        self.index_gap = self.cap_height * 0.3
        self.index_suit = self.cap_height * 0.8
        self.margin_x = max(3.0, w * 0.05)
        self.margin_y = max(3.0, w * 0.065)
        self._bases: dict[RGB | None, pygame.Surface] = {}

    @property
    def size(self) -> tuple[int, int]:
        """Return the (width, height) of every surface this art draws."""
        return self.width, self.height

    @cached_property
    def _column(self) -> tuple[float, float]:
        """Return the centre x of the corner index and the x where the card's middle starts."""
        ranks = [rank_glyph(rank_label(rank), self.cap_height, BLACK) for rank in range(13)]
        suits = [suit_glyph(suit, self.index_suit, BLACK) for suit in range(4)]
        widest = max(glyph.get_width() for glyph in ranks + suits)
        return self.margin_x + widest / 2, self.margin_x + widest + max(2.0, self.width * 0.06)

    @cached_property
    def _court_box(self) -> tuple[float, float, float, float]:
        """Return the box (left, top, right, bottom) of a court card's panel.

        Between the corner indices' columns, from top to bottom; a large-print court has its
        (large) index only at the top left and the panel takes the rest of the card, so a card
        overlapped by its neighbour still shows its index and the figure beside it. Below the
        index on a compact card.
        """
        w, h = self.size
        if self.compact:
            return self._middle
        _, inner = self._column
        right = w - self.margin_x if self.simple else w - inner  # large print: one index
        return inner, self.margin_y, right, h - self.margin_y

    @cached_property
    def _middle(self) -> tuple[float, float, float, float]:
        """Return the box (left, top, right, bottom) of the pips or the big symbol."""
        w, h = self.size
        if not self.simple:
            _, inner = self._column
            return inner, self.margin_y, w - inner, h - self.margin_y
        top = self.margin_y + self.cap_height + self.index_gap + self.index_suit
        top += max(2.0, w * 0.05)
        bottom = h - self.margin_y if self.compact else h - top
        return self.margin_x, top, w - self.margin_x, bottom

    def _blank(self) -> Canvas:
        """Return a canvas holding the bordered white card."""
        canvas = Canvas(self.width, self.height)
        distance = canvas.box(0, 0, self.width, self.height, self.radius)
        canvas.paint(EDGE, inside(distance))
        canvas.paint(PAPER, inside(distance + self.border))
        return canvas

    def _base(self, panel: RGB | None) -> pygame.Surface:
        """Return the plain card, or with a court panel edged in ``panel``; shared, so copy it."""
        surface = self._bases.get(panel)
        if surface is None:
            canvas = self._blank()
            if panel is not None:
                self._panel(canvas, *self._court_box, panel)
            surface = canvas.surface(EDGE)
            self._bases[panel] = surface
        return surface

    def _place(
        self, surface: pygame.Surface, glyph: pygame.Surface, x: int, y: int, turned: bool = True
    ) -> None:
        """Draw ``glyph`` at (x, y) and, unless compact or not ``turned``, upside down in the
        opposite corner."""
        surface.blit(glyph, (x, y))
        if turned and not self.compact:
            w, h = self.size
            flipped = upside_down(glyph)
            surface.blit(flipped, (w - x - glyph.get_width(), h - y - glyph.get_height()))

    def _draw_index(
        self, surface: pygame.Surface, card: int, colour: RGB, turned: bool = True
    ) -> None:
        """Draw the corner indices: the rank over the suit symbol, centred in one column (and
        turned in the opposite corner, if ``turned``)."""
        centre, _ = self._column
        rank = rank_glyph(rank_label(rank_of(card)), self.cap_height, colour)
        suit = suit_glyph(suit_of(card), self.index_suit, colour)
        top = round(self.margin_y)
        self._place(surface, rank, round(centre - rank.get_width() / 2), top, turned)
        suit_top = round(self.margin_y + self.cap_height + self.index_gap)
        self._place(surface, suit, round(centre - suit.get_width() / 2), suit_top, turned)

    def _draw_face(self, card: int) -> pygame.Surface:
        """Draw a card's face: corner indices and the pips, the ace or the court figure."""
        rank = rank_of(card)
        colour = self.style.suit_colour(suit_of(card))
        court = rank in COURT_RANKS
        surface = self._base(colour if court else None).copy()
        self._draw_index(surface, card, colour, turned=not (court and self.simple))
        if court and not self.compact:
            self._court_figure(surface, card, colour)
        elif self.simple:
            self._bigsymbol(surface, card, colour)
        elif rank == 12:
            self._ace(surface, card, colour)
        else:
            self._pips(surface, card, colour)
        return surface

    def _bigsymbol(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the middle of a compact or large-print face: one big suit symbol.

        The symbol fills the band the indices leave free (below the index on a compact card); a
        court card shows it in its panel (the corner index names the rank).
        """
        rank = rank_of(card)
        left, top, right, bottom = self._middle
        cx, cy = (left + right) / 2, (top + bottom) / 2
        room = min(right - left, bottom - top)
        if rank not in COURT_RANKS:
            share = 0.92 if rank == 12 else 0.72
            blit_centred(surface, suit_glyph(suit_of(card), room * share, colour), cx, cy)
        else:
            blit_centred(surface, suit_glyph(suit_of(card), room * 0.55, colour), cx, cy)

    def _pips(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the classic pip layout of a number card between the corner indices."""
        w, h = self.size
        _, inner = self._column
        count = rank_of(card) + 2
        top, bottom = self.margin_y, h - self.margin_y
        probe = suit_glyph(suit_of(card), 100, BLACK)
        aspect = probe.get_width() / probe.get_height()
        height = min((w - 2 * inner) / 2.6 / aspect, (bottom - top) / 7.6)
        pip = suit_glyph(suit_of(card), height, colour)
        flipped = upside_down(pip)
        half_w = pip.get_width() / 2
        columns = {"L": inner + half_w, "C": w / 2, "R": w - inner - half_w}
        span = bottom - top - pip.get_height()
        for column, t in PIP_ROWS[count]:
            y = top + pip.get_height() / 2 + t * span
            blit_centred(surface, flipped if t > 0.5 else pip, columns[column], y)

    def _ace(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the ace's single large suit symbol, largest for the ace of spades."""
        w, h = self.size
        index_bottom = self.margin_y + self.cap_height + self.index_gap + self.index_suit
        room = (h / 2 - index_bottom - w * 0.06) * 2
        size = min(room, w * (0.55 if suit_of(card) == SPADES else 0.38))
        blit_centred(surface, suit_glyph(suit_of(card), size, colour), w / 2, h / 2)

    def _panel(
        self, canvas: Canvas, left: float, top: float, right: float, bottom: float, colour: RGB
    ) -> None:
        """Paint a court card's framed panel: a cream field in a suit-coloured edge."""
        w = self.width
        box = (round(left), round(top), round(right), round(bottom))
        distance = canvas.box(*box, max(2.0, w * 0.035))
        canvas.paint(colour, inside(distance))
        canvas.paint(COURT_FILL, inside(distance + max(1, round(w * 0.01))))
        if w >= 90:
            inset = round(w * 0.03)
            rule = max(1, round(w * 0.007))
            canvas.paint(COURT_GOLD, band(distance, -inset - rule, -inset))

    def _court_figure(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw a court card's double-headed figure in its panel, with the suit beside each head.

        The panel's upper half holds the figure (``court_half``) and the lower half the same
        figure turned by 180 degrees; a gold rule marks where the two meet.
        """
        left, top, right, bottom = self._court_box
        edge = max(2, round(self.width * 0.035))
        box = pygame.Rect(round(left) + edge, round(top) + edge, 0, 0)
        box.size = (round(right) - edge - box.x, (round(bottom) - edge - box.y) // 2)
        half = court_half(box.width, box.height, rank_of(card), colour)
        suit = suit_glyph(suit_of(card), box.width * 0.2, colour)
        corner = (box.x + box.width * 0.16, box.y + box.height * 0.14)
        half.blit(suit, (round(corner[0] - box.x - suit.get_width() / 2), round(corner[1] - box.y)))
        surface.blit(half, box.topleft)
        surface.blit(upside_down(half), (box.x, box.bottom + (round(bottom) - edge - box.y) % 2))
        rule = max(1, round(self.width * 0.007))
        middle = box.bottom + (round(bottom) - edge - box.y) % 2 // 2
        surface.fill(COURT_GOLD, (box.x, middle - rule // 2, box.width, rule))

    def _draw_back(self) -> pygame.Surface:
        """Draw the back: a latticed field in the style's colour inside a white border."""
        w, h = self.size
        dark, light = BACK_COLOURS[self.style.back]
        canvas = self._blank()
        inset = float(max(2, round(w * 0.06)))
        field = canvas.box(inset, inset, w - inset, h - inset, max(1.5, self.radius - inset * 0.6))
        canvas.paint(dark, inside(field))
        period = max(5.0, w * 0.085)
        line = max(0.8, w * 0.01)
        u, v = canvas.x - w / 2, canvas.y - h / 2
        lattice = np.zeros_like(u)
        for diagonal in (u + v, u - v):
            phase = diagonal / (period * np.sqrt(2.0))
            across = np.abs(phase - np.rint(phase)) * period
            lattice = np.maximum(lattice, inside(across - line / 2))
        canvas.paint(light, lattice * inside(field + inset * 0.5), 0.55)
        frame = max(1.5, w * 0.03)
        canvas.paint(light, band(field, -frame - line, -frame))
        medallion = w >= COMPACT_WIDTH
        if medallion:
            ring = canvas.circle(w / 2, h / 2, w * 0.19)
            canvas.paint(dark, inside(ring))
            canvas.paint(light, band(ring, -line * 1.5, 0.0))
        surface = canvas.surface(EDGE)
        if medallion:
            blit_centred(surface, suit_glyph(HEARTS, w * 0.17, light), w / 2, h / 2)
        return surface

    def _draw_shadow(self) -> pygame.Surface:
        """Draw a soft translucent shadow the card's size."""
        canvas = Canvas(self.width, self.height)
        blur = max(2.0, self.width * 0.045)
        distance = canvas.box(blur, blur, self.width - blur, self.height - blur, self.radius)
        t = np.clip((distance + blur) / (2 * blur), 0.0, 1.0)
        canvas.paint((0, 0, 0), 1.0 - t * t * (3 - 2 * t), SHADOW_ALPHA / 255)
        return canvas.surface((0, 0, 0))

    def _draw_outline(self, c: pygame.Color) -> pygame.Surface:
        """Draw a rounded ring along the card's edge in the colour ``c``."""
        canvas = Canvas(self.width, self.height)
        thickness = float(max(2, round(self.width * 0.035)))
        distance = canvas.box(0, 0, self.width, self.height, self.radius)
        canvas.paint((c.r, c.g, c.b), band(distance, -thickness, 0.0), c.a / 255)
        return canvas.surface((c.r, c.g, c.b))
