"""Playing-card art at the exact pixel size the table needs, drawn on demand and kept.

``CardArt`` keeps the surfaces ``CardPainter`` draws (``card_painter``), and can draw the ones
still missing a slice at a time (``warm``); ``CardArtCache`` keeps the art of the few sizes
and styles most recently used, so a resize shows at once with faces scaled from another size.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial

import pygame

from core.cards import rank_of
from game.table.card_painter import (
    CARD_ASPECT,
    COMPACT_WIDTH,
    COURT_RANKS,
    MIN_WIDTH,
    CardPainter,
)
from game.table.card_style import DEFAULT_STYLE, CardStyle
from game.table.frame_budget import FrameBudget

__all__ = ["CARD_ASPECT", "COMPACT_WIDTH", "MIN_WIDTH", "CardArt", "CardArtCache", "CardStyle"]


def _finish(surface: pygame.Surface) -> pygame.Surface:
    """Convert ``surface`` to the display's pixel format when a display mode is set."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


class CardArt(CardPainter):
    """The faces, back, shadow and highlight rings of cards ``width_px`` wide, drawn on demand
    and kept, so each is drawn once at a size.

    Cards narrower than ``COMPACT_WIDTH`` get a simpler face that stays readable: one large
    corner index and one big suit symbol.
    """

    def __init__(self, width_px: int, style: CardStyle = DEFAULT_STYLE) -> None:
        super().__init__(width_px, style)
        self._faces: dict[int, pygame.Surface] = {}
        self._back: pygame.Surface | None = None
        self._shadow: pygame.Surface | None = None
        self._outlines: dict[tuple[int, int, int, int], pygame.Surface] = {}
        #: The cache this art belongs to: while it is ``quick``, a face not drawn yet is scaled
        #: from another size it keeps (``face``).
        self.cache: CardArtCache | None = None
        self._stand_ins: dict[int, pygame.Surface] = {}

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
            self._shadow = _finish(self._draw_shadow())
        return self._shadow

    def outline(self, colour: pygame.typing.ColorLike) -> pygame.Surface:
        """Return a rounded ring along the card's edge in ``colour``, to mark a card."""
        c = pygame.Color(colour)
        key = (c.r, c.g, c.b, c.a)
        surface = self._outlines.get(key)
        if surface is None:
            surface = _finish(self._draw_outline(c))
            self._outlines[key] = surface
        return surface

    def warm(self, deadline: float | FrameBudget) -> bool:
        """Draw surfaces not drawn yet, each only if it is expected to be done by ``deadline``
        (a ``time.perf_counter()`` value, or a budget shared with other preparations).

        Return whether the back, the shadow and all 52 faces are now drawn. Nothing is drawn
        while the cache is quick (that frame must be ready at once).
        """
        if self.cache is not None and self.cache.quick:
            return False
        budget = FrameBudget.of(deadline)
        pieces: list[tuple[str, Callable[[], object]]] = []
        if self._back is None:
            pieces.append(("back", self.back))
        if self._shadow is None:
            pieces.append(("shadow", self.shadow))
        for card in range(52):
            if card not in self._faces:
                kind = "court" if rank_of(card) in COURT_RANKS else "face"
                pieces.append((kind, partial(self._draw_exact, card)))
        area = self.width * self.height
        for kind, draw in pieces:
            if not budget.allows(area * _RATES.get(kind, PRIOR_RATE)):
                return False
            start = time.perf_counter()
            draw()
            _learn_rate(kind, (time.perf_counter() - start) / area)
            budget.done()
        return True


#: Seconds a piece of card art takes per pixel of the card, by kind of piece (``back``,
#: ``shadow``, ``court`` face, other ``face``), as last seen: how ``CardArt.warm`` judges
#: whether a piece fits the time left. Before a kind is seen, ``PRIOR_RATE`` (on the slow side).
_RATES: dict[str, float] = {}
PRIOR_RATE = 1e-7


def _learn_rate(kind: str, rate: float) -> None:
    """Keep the rate of a kind of piece: a slower one at once, a faster one a quarter of the
    way, so one quick piece does not make the next look cheaper than it is."""
    known = _RATES.get(kind)
    _RATES[kind] = rate if known is None else max(rate, 0.75 * known + 0.25 * rate)


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

    def get(self, width_px: int, style: CardStyle = DEFAULT_STYLE) -> CardArt:
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
