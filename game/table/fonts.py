"""The table's fonts: DejaVu Sans loaded by path, since pygame's default font has no ♠ ♥ ♦ ♣.

Fonts and rendered text are cached: the table draws the same labels every frame. Surfaces
returned by :func:`render_text` are shared, so callers must not draw on them.
"""

from __future__ import annotations

from functools import lru_cache

import pygame

from game.paths import asset_path

MIN_PX = 6
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

RGBA = tuple[int, int, int, int]


_fresh = False


def _forget() -> None:
    """Drop cached fonts and text: they die with the font module when pygame quits."""
    global _fresh
    _fresh = False
    _load.cache_clear()
    _render.cache_clear()


def _ensure_init() -> None:
    """Start pygame's font module if needed; fonts from before a ``pygame.quit`` are dropped."""
    global _fresh
    if not pygame.font.get_init():
        pygame.font.init()
    if not _fresh:
        _forget()
        _fresh = True
        pygame.register_quit(_forget)


@lru_cache(maxsize=64)
def _load(px: int, bold: bool) -> pygame.font.Font:
    return pygame.font.Font(str(asset_path("fonts", FONT_FILES[bold])), px)


def font(px: int, bold: bool = False) -> pygame.font.Font:
    """Return DejaVu Sans (or its bold face) at ``px`` pixels, at least ``MIN_PX``."""
    _ensure_init()
    return _load(max(MIN_PX, int(px)), bool(bold))


@lru_cache(maxsize=512)
def _render(text: str, px: int, colour: RGBA, bold: bool) -> pygame.Surface:
    return _load(px, bold).render(text, True, colour)


def render_text(
    text: str, px: int, colour: pygame.typing.ColorLike, bold: bool = False
) -> pygame.Surface:
    """Return antialiased text on a transparent surface; the surface is shared, do not modify it."""
    _ensure_init()
    c = pygame.Color(colour)
    return _render(text, max(MIN_PX, int(px)), (c.r, c.g, c.b, c.a), bool(bold))
