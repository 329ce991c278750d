"""The glyphs printed on cards: ranks and suit symbols rendered at their final size and cropped
to their ink, so they stay sharp and line up exactly (the condensed ``10`` is drawn larger and
scaled down smoothly)."""

from __future__ import annotations

from functools import lru_cache

import pygame

from core.cards import RANKS, SUIT_SYMBOLS
from game.table.fonts import render_text
from game.table.raster import RGB


def rank_label(rank: int) -> str:
    """Return a rank (0 = two .. 12 = ace) as printed on a card: ``10`` rather than ``T``."""
    return "10" if RANKS[rank] == "T" else RANKS[rank]


@lru_cache(maxsize=64)
def ink_ratio(text: str, bold: bool) -> float:
    """Return the ink height of ``text`` per pixel of font size."""
    rect = render_text(text, 200, (0, 0, 0), bold).get_bounding_rect()
    return max(rect.height, 1) / 200


def px_for_height(text: str, ink_height: float, bold: bool) -> int:
    """Return the font size whose ink for ``text`` is ``ink_height`` pixels tall."""
    return max(1, round(ink_height / ink_ratio(text, bold)))


@lru_cache(maxsize=1024)
def ink(text: str, px: int, colour: RGB, bold: bool, squeeze: float) -> pygame.Surface:
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


def suit_glyph(suit: int, ink_height: float, colour: RGB) -> pygame.Surface:
    """Return a suit symbol cropped to its ink, about ``ink_height`` pixels tall."""
    symbol = SUIT_SYMBOLS[suit]
    return ink(symbol, px_for_height(symbol, ink_height, False), colour, False, 1.0)


def rank_glyph(label: str, cap_height: float, colour: RGB) -> pygame.Surface:
    """Return a bold rank label cropped to its ink, with capitals ``cap_height`` tall.

    Letters reaching below the line (J, Q) are made a little smaller so they stay within 1.1
    times the cap height; ``10`` is condensed to suit a narrow index.
    """
    px = min(px_for_height("H", cap_height, True), px_for_height(label, cap_height * 1.1, True))
    return ink(label, px, colour, True, 0.78 if len(label) > 1 else 1.0)


def blit_centred(target: pygame.Surface, glyph: pygame.Surface, cx: float, cy: float) -> None:
    """Draw ``glyph`` with its centre at (cx, cy), snapped to whole pixels."""
    target.blit(glyph, (round(cx - glyph.get_width() / 2), round(cy - glyph.get_height() / 2)))


def upside_down(surface: pygame.Surface) -> pygame.Surface:
    """Return ``surface`` turned by 180 degrees, pixel for pixel."""
    return pygame.transform.flip(surface, True, True)
