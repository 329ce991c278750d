"""The table's colours and its felt background."""

from __future__ import annotations

from functools import lru_cache

import pygame

FELT = (22, 94, 58)
FELT_EDGE = (9, 48, 30)
PANEL = (10, 30, 22, 200)
PANEL_BORDER = (214, 190, 120)
TEXT = (244, 240, 228)
TEXT_DIM = (180, 196, 184)
ACCENT = (246, 204, 92)
DANGER = (236, 96, 88)
GOOD = (120, 220, 140)
BUTTON = (34, 70, 52)
BUTTON_HOVER = (52, 104, 76)
BUTTON_DISABLED = (40, 52, 46)
SHADE = (0, 0, 0, 150)


@lru_cache(maxsize=4)
def felt(size: tuple[int, int]) -> pygame.Surface:
    """Return the table's felt at a window size: a soft radial light over dark edges."""
    width, height = max(1, size[0]), max(1, size[1])
    small = pygame.Surface((64, 36))
    for y in range(36):
        for x in range(64):
            dx = (x - 31.5) / 32
            dy = (y - 17.5) / 18
            t = min(1.0, (dx * dx + dy * dy) ** 0.5 / 1.25)
            small.set_at(
                (x, y), [round(FELT[i] + (FELT_EDGE[i] - FELT[i]) * t * t) for i in range(3)]
            )
    surface = pygame.transform.smoothscale(small, (width, height))
    return surface.convert() if pygame.display.get_surface() is not None else surface


def shade(surface: pygame.Surface, alpha: int = SHADE[3], rect: pygame.Rect | None = None) -> None:
    """Darken ``surface`` (or its ``rect``) as black at ``alpha`` over it would: under pages.

    A multiply by the light left over gives the same colours (within one step) about three
    times faster than blending a window-sized translucent layer.
    """
    light = 255 - max(0, min(255, alpha))
    surface.fill((light, light, light), rect, special_flags=pygame.BLEND_RGB_MULT)
