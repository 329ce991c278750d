"""Playing-card art drawn by code at the exact pixel size the table needs.

Shapes (the rounded card, its border, court panels, the back's pattern, shadows and highlight
rings) are rasterised from signed distance fields, so their edges are antialiased at any size.
Ranks and suit symbols are DejaVu glyphs rendered at their final size (the condensed ``10`` is
drawn larger and scaled down smoothly) and placed by their ink bounds, so they stay sharp and
line up exactly. Cards narrower than ``COMPACT_WIDTH``, and large-print cards, trade the pip
layout for bigger indices and one big suit symbol; a large-print court keeps its figure beside
its one index.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import pygame

from core.cards import CLUBS, DIAMONDS, HEARTS, RANKS, SPADES, SUIT_SYMBOLS, rank_of, suit_of
from game.table.court_art import court_half
from game.table.fonts import render_text
from game.table.raster import RGB, Canvas, band, inside

CARD_ASPECT = 1.4
MIN_WIDTH = 16
COMPACT_WIDTH = 64
BACKS = ("blue", "red", "green")


RED: RGB = (204, 20, 38)
BLACK: RGB = (22, 22, 28)
BLUE: RGB = (20, 80, 205)
GREEN: RGB = (8, 128, 58)
TWO_COLOUR: dict[int, RGB] = {CLUBS: BLACK, DIAMONDS: RED, SPADES: BLACK, HEARTS: RED}
FOUR_COLOUR: dict[int, RGB] = {CLUBS: GREEN, DIAMONDS: BLUE, SPADES: BLACK, HEARTS: RED}

PAPER: RGB = (253, 253, 250)
EDGE: RGB = (128, 130, 138)
COURT_FILL: RGB = (251, 242, 214)
COURT_GOLD: RGB = (200, 152, 42)
BACK_COLOURS: dict[str, tuple[RGB, RGB]] = {
    "blue": ((30, 66, 150), (150, 182, 240)),
    "red": ((156, 26, 38), (240, 150, 150)),
    "green": ((22, 104, 62), (140, 210, 165)),
}
SHADOW_ALPHA = 95

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


@dataclass(frozen=True)
class CardStyle:
    """How cards look: four-colour suits, a large corner index, and the back's colour."""

    four_colour: bool = False
    large_print: bool = False
    back: str = "blue"

    def __post_init__(self) -> None:
        if self.back not in BACKS:
            raise ValueError(f"unknown card back {self.back!r}; expected one of {BACKS}")

    def suit_colour(self, suit: int) -> RGB:
        """Return the ink colour of a suit (0..3) in this style."""
        return (FOUR_COLOUR if self.four_colour else TWO_COLOUR)[suit]


def rank_label(rank: int) -> str:
    """Return a rank (0 = two .. 12 = ace) as printed on a card: ``10`` rather than ``T``."""
    return "10" if RANKS[rank] == "T" else RANKS[rank]


@lru_cache(maxsize=64)
def _ink_ratio(text: str, bold: bool) -> float:
    """Return the ink height of ``text`` per pixel of font size."""
    rect = render_text(text, 200, (0, 0, 0), bold).get_bounding_rect()
    return max(rect.height, 1) / 200


def _px_for_height(text: str, ink_height: float, bold: bool) -> int:
    """Return the font size whose ink for ``text`` is ``ink_height`` pixels tall."""
    return max(1, round(ink_height / _ink_ratio(text, bold)))


@lru_cache(maxsize=1024)
def _ink(text: str, px: int, colour: RGB, bold: bool, squeeze: float) -> pygame.Surface:
    """Return ``text`` cropped to its ink, its letters set close and ``squeeze`` times as wide.

    A squeezed text is drawn four times larger and scaled down smoothly, like a condensed face.
    """
    scale = 1 if squeeze == 1.0 else 4
    parts = [render_text(char, px * scale, colour, bold) for char in text]
    boxes = [part.get_bounding_rect() for part in parts]
    gap = max(1, round(px * scale * 0.05)) if len(parts) > 1 else 0
    width = sum(box.width for box in boxes) + gap * (len(parts) - 1)
    height = max(part.get_height() for part in parts)
    joined = pygame.Surface((max(width, 1), height), pygame.SRCALPHA)
    joined.fill((*colour, 0))
    x = 0
    for part, box in zip(parts, boxes, strict=True):
        joined.blit(part, (x, box.y), box)
        x += box.width + gap
    ink = joined.subsurface(joined.get_bounding_rect()).copy()
    if scale == 1:
        return ink
    width = max(1, round(ink.get_width() * squeeze / scale))
    size = (width, max(1, round(ink.get_height() / scale)))
    return pygame.transform.smoothscale(ink, size)


def _symbol(suit: int, ink_height: float, colour: RGB) -> pygame.Surface:
    """Return a suit symbol cropped to its ink, about ``ink_height`` pixels tall."""
    symbol = SUIT_SYMBOLS[suit]
    return _ink(symbol, _px_for_height(symbol, ink_height, False), colour, False, 1.0)


def _rank(label: str, cap_height: float, colour: RGB) -> pygame.Surface:
    """Return a bold rank label cropped to its ink, with capitals ``cap_height`` tall.

    Letters reaching below the line (J, Q) are made a little smaller so they stay within 1.1
    times the cap height; ``10`` is condensed to suit a narrow index.
    """
    px = min(_px_for_height("H", cap_height, True), _px_for_height(label, cap_height * 1.1, True))
    return _ink(label, px, colour, True, 0.78 if len(label) > 1 else 1.0)


def _blit_centred(target: pygame.Surface, glyph: pygame.Surface, cx: float, cy: float) -> None:
    """Draw ``glyph`` with its centre at (cx, cy), snapped to whole pixels."""
    target.blit(glyph, (round(cx - glyph.get_width() / 2), round(cy - glyph.get_height() / 2)))


def _upside_down(surface: pygame.Surface) -> pygame.Surface:
    """Return ``surface`` turned by 180 degrees, pixel for pixel."""
    return pygame.transform.flip(surface, True, True)


def _finish(surface: pygame.Surface) -> pygame.Surface:
    """Convert ``surface`` to the display's pixel format when a display mode is set."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


class CardArt:
    """The faces, back, shadow and highlight rings of cards ``width_px`` wide, drawn on demand.

    Cards narrower than ``COMPACT_WIDTH`` get a simpler face that stays readable: one large
    corner index and one big suit symbol.
    """

    def __init__(self, width_px: int, style: CardStyle = CardStyle()) -> None:
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
        self._faces: dict[int, pygame.Surface] = {}
        self._bases: dict[RGB | None, pygame.Surface] = {}
        self._back: pygame.Surface | None = None
        self._shadow: pygame.Surface | None = None
        self._outlines: dict[tuple[int, int, int, int], pygame.Surface] = {}
        #: The cache this art belongs to: while it is ``quick``, a face not drawn yet is scaled
        #: from another size it keeps (``face``).
        self.cache: CardArtCache | None = None
        self._stand_ins: dict[int, pygame.Surface] = {}

    @property
    def size(self) -> tuple[int, int]:
        """Return the (width, height) of every surface this art draws."""
        return self.width, self.height

    def face(self, card: int) -> pygame.Surface:
        """Return the face of ``card`` (0..51); the surface is shared, do not draw on it."""
        if not 0 <= card < 52:
            raise ValueError(f"not a card index: {card!r}")
        surface = self._faces.get(card)
        if surface is None:
            stand_in = self._stand_in(card)
            surface = stand_in if stand_in is not None else self._draw_exact(card)
        return surface

    def _draw_exact(self, card: int) -> pygame.Surface:
        """Draw and keep the face of ``card`` at this size."""
        surface = _finish(self._draw_face(card))
        self._faces[card] = surface
        return surface

    def _stand_in(self, card: int) -> pygame.Surface | None:
        """Return the face of ``card`` scaled from another size, while the cache is quick.

        The frame right after a resize uses these, so it is shown at once at the new size;
        the face itself is drawn by a later frame (``has_face`` stays false until then).
        """
        cache = self.cache
        if cache is None or not cache.quick:
            return None
        surface = self._stand_ins.get(card)
        if surface is None:
            source = cache.drawn_face(card, self.style)
            if source is None:
                return None
            surface = pygame.transform.smoothscale(source, self.size)
            self._stand_ins[card] = surface
        return surface

    @property
    def drawn(self) -> int:
        """Return how many faces are drawn at this size."""
        return len(self._faces)

    def has_face(self, card: int) -> bool:
        """Return whether the face of ``card`` is drawn already (``face`` would be instant)."""
        return card in self._faces

    def back(self) -> pygame.Surface:
        """Return the back of a card in the style's colour."""
        if self._back is None:
            self._back = _finish(self._draw_back())
        return self._back

    def shadow(self) -> pygame.Surface:
        """Return a soft translucent shadow the card's size, to draw just below and behind it."""
        if self._shadow is None:
            canvas = Canvas(self.width, self.height)
            blur = max(2.0, self.width * 0.045)
            distance = canvas.box(blur, blur, self.width - blur, self.height - blur, self.radius)
            t = np.clip((distance + blur) / (2 * blur), 0.0, 1.0)
            canvas.paint((0, 0, 0), 1.0 - t * t * (3 - 2 * t), SHADOW_ALPHA / 255)
            self._shadow = _finish(canvas.surface((0, 0, 0)))
        return self._shadow

    def outline(self, colour: pygame.typing.ColorLike) -> pygame.Surface:
        """Return a rounded ring along the card's edge in ``colour``, to mark a card."""
        c = pygame.Color(colour)
        key = (c.r, c.g, c.b, c.a)
        surface = self._outlines.get(key)
        if surface is None:
            canvas = Canvas(self.width, self.height)
            thickness = float(max(2, round(self.width * 0.035)))
            distance = canvas.box(0, 0, self.width, self.height, self.radius)
            canvas.paint((c.r, c.g, c.b), band(distance, -thickness, 0.0), c.a / 255)
            surface = _finish(canvas.surface((c.r, c.g, c.b)))
            self._outlines[key] = surface
        return surface

    def warm(self, deadline: float) -> bool:
        """Draw surfaces not drawn yet until ``time.perf_counter()`` reaches ``deadline``.

        Return whether the back, the shadow and all 52 faces are now drawn. Nothing is drawn
        while the cache is quick (that frame must be ready at once).
        """
        if self.cache is not None and self.cache.quick:
            return False
        if self._back is None:
            if time.perf_counter() >= deadline:
                return False
            self.back()
        if self._shadow is None:
            if time.perf_counter() >= deadline:
                return False
            self.shadow()
        for card in range(52):
            if card not in self._faces:
                if time.perf_counter() >= deadline:
                    return False
                self._draw_exact(card)
        return self._shadow is not None

    @cached_property
    def _column(self) -> tuple[float, float]:
        """Return the centre x of the corner index and the x where the card's middle starts."""
        ranks = [_rank(rank_label(rank), self.cap_height, BLACK) for rank in range(13)]
        suits = [_symbol(suit, self.index_suit, BLACK) for suit in range(4)]
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
            flipped = _upside_down(glyph)
            surface.blit(flipped, (w - x - glyph.get_width(), h - y - glyph.get_height()))

    def _draw_index(
        self, surface: pygame.Surface, card: int, colour: RGB, turned: bool = True
    ) -> None:
        """Draw the corner indices: the rank over the suit symbol, centred in one column (and
        turned in the opposite corner, if ``turned``)."""
        centre, _ = self._column
        rank = _rank(rank_label(rank_of(card)), self.cap_height, colour)
        suit = _symbol(suit_of(card), self.index_suit, colour)
        top = round(self.margin_y)
        self._place(surface, rank, round(centre - rank.get_width() / 2), top, turned)
        suit_top = round(self.margin_y + self.cap_height + self.index_gap)
        self._place(surface, suit, round(centre - suit.get_width() / 2), suit_top, turned)

    def _draw_face(self, card: int) -> pygame.Surface:
        """Draw a card's face: corner indices and the pips, the ace or the court figure."""
        rank = rank_of(card)
        colour = self.style.suit_colour(suit_of(card))
        court = rank in (9, 10, 11)
        surface = self._base(colour if court else None).copy()
        self._draw_index(surface, card, colour, turned=not (court and self.simple))
        if court and not self.compact:
            self._court_figure(surface, card, colour)
        elif self.simple:
            self._big_symbol(surface, card, colour)
        elif rank == 12:
            self._ace(surface, card, colour)
        else:
            self._pips(surface, card, colour)
        return surface

    def _big_symbol(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the middle of a compact or large-print face: one big suit symbol.

        The symbol fills the band the indices leave free (below the index on a compact card); a
        court card shows it in its panel (the corner index names the rank).
        """
        rank = rank_of(card)
        left, top, right, bottom = self._middle
        cx, cy = (left + right) / 2, (top + bottom) / 2
        room = min(right - left, bottom - top)
        if rank not in (9, 10, 11):
            share = 0.92 if rank == 12 else 0.72
            _blit_centred(surface, _symbol(suit_of(card), room * share, colour), cx, cy)
        else:
            _blit_centred(surface, _symbol(suit_of(card), room * 0.55, colour), cx, cy)

    def _pips(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the classic pip layout of a number card between the corner indices."""
        w, h = self.size
        _, inner = self._column
        count = rank_of(card) + 2
        top, bottom = self.margin_y, h - self.margin_y
        probe = _symbol(suit_of(card), 100, BLACK)
        aspect = probe.get_width() / probe.get_height()
        height = min((w - 2 * inner) / 2.6 / aspect, (bottom - top) / 7.6)
        pip = _symbol(suit_of(card), height, colour)
        flipped = _upside_down(pip)
        half_w = pip.get_width() / 2
        columns = {"L": inner + half_w, "C": w / 2, "R": w - inner - half_w}
        span = bottom - top - pip.get_height()
        for column, t in PIP_ROWS[count]:
            y = top + pip.get_height() / 2 + t * span
            _blit_centred(surface, flipped if t > 0.5 else pip, columns[column], y)

    def _ace(self, surface: pygame.Surface, card: int, colour: RGB) -> None:
        """Draw the ace's single large suit symbol, largest for the ace of spades."""
        w, h = self.size
        index_bottom = self.margin_y + self.cap_height + self.index_gap + self.index_suit
        room = (h / 2 - index_bottom - w * 0.06) * 2
        size = min(room, w * (0.55 if suit_of(card) == SPADES else 0.38))
        _blit_centred(surface, _symbol(suit_of(card), size, colour), w / 2, h / 2)

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
        suit = _symbol(suit_of(card), box.width * 0.2, colour)
        corner = (box.x + box.width * 0.16, box.y + box.height * 0.14)
        half.blit(suit, (round(corner[0] - box.x - suit.get_width() / 2), round(corner[1] - box.y)))
        surface.blit(half, box.topleft)
        surface.blit(_upside_down(half), (box.x, box.bottom + (round(bottom) - edge - box.y) % 2))
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
            _blit_centred(surface, _symbol(HEARTS, w * 0.17, light), w / 2, h / 2)
        return surface


class CardArtCache:
    """The card art of the few most recent (width, style) pairs; older sizes are dropped."""

    def __init__(self, keep: int = 4) -> None:
        self.keep = max(1, keep)
        self._arts: OrderedDict[tuple[int, CardStyle], CardArt] = OrderedDict()
        #: While true (the frame after a resize), faces not drawn yet at a size are scaled
        #: from another size kept, so that frame takes no time to draw.
        self.quick = False

    def drawn_face(self, card: int, style: CardStyle) -> pygame.Surface | None:
        """Return the face of ``card`` in ``style`` drawn at any size kept (the latest used)."""
        for (_, kept_style), art in reversed(self._arts.items()):
            if kept_style == style and art.has_face(card):
                return art.face(card)
        return None

    def get(self, width_px: int, style: CardStyle = CardStyle()) -> CardArt:
        """Return the art for cards ``width_px`` wide in ``style``, drawing it if new."""
        key = (int(width_px), style)
        art = self._arts.get(key)
        if art is None:
            art = CardArt(width_px, style)
            art.cache = self
            self._arts[key] = art
            while len(self._arts) > self.keep:
                # Sizes passed through by a resize, never drawn, go before those drawn.
                blank = [k for k, kept in self._arts.items() if k != key and kept.drawn == 0]
                del self._arts[blank[0] if blank else next(iter(self._arts))]
        else:
            self._arts.move_to_end(key)
        return art

    def __len__(self) -> int:
        """Return how many (width, style) pairs are kept."""
        return len(self._arts)

    def __contains__(self, key: object) -> bool:
        """Return whether the art for a (width, style) pair is kept."""
        return key in self._arts
