"""The table's colours and its felt background."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
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


#: Where the felt's light ends: the distance from the centre, as a share of the half-diagonal
#: of the window's box (the corners are darkest).
FELT_REACH = 1.25


def _bayer(order: int) -> np.ndarray:
    """Return an ``order`` × ``order`` ordered-dither matrix of thresholds in (0, 1)."""
    matrix = np.array([[0, 2], [3, 1]])
    while matrix.shape[0] < order:
        matrix = np.block([[4 * matrix, 4 * matrix + 2], [4 * matrix + 3, 4 * matrix + 1]])
    return ((matrix + 0.5) / matrix.size).astype(np.float32)


def felt_shade(size: tuple[int, int]) -> np.ndarray:
    """Return how far each pixel is from the felt's light to its dark edge (0..1), by row.

    An array of ``(height, width)``: the square of the distance from the centre, in units of
    ``FELT_REACH`` times the half width and half height, up to 1.
    """
    width, height = max(1, size[0]), max(1, size[1])
    reach = np.float32(FELT_REACH**2)
    dx = ((np.arange(width, dtype=np.float32) + 0.5) / width * 2 - 1) ** 2 / reach
    dy = ((np.arange(height, dtype=np.float32) + 0.5) / height * 2 - 1) ** 2 / reach
    return np.minimum(dy[:, None] + dx[None, :], np.float32(1.0))


@lru_cache(maxsize=4)
def felt(size: tuple[int, int]) -> pygame.Surface:
    """Return the table's felt at a window size: a soft radial light over dark edges.

    The light is computed at the full size and ordered-dithered, so even a 4K window shows no
    bands where the colour steps by one level; one quarter is computed and mirrored into the
    other three (the light is symmetric), so a new size costs little.
    """
    width, height = max(1, size[0]), max(1, size[1])
    half_w, half_h = (width + 1) // 2, (height + 1) // 2
    shade = felt_shade((width, height))[:half_h, :half_w]
    dither = np.tile(_bayer(8), (half_h // 8 + 1, half_w // 8 + 1))[:half_h, :half_w]
    rgb = np.empty((half_h, half_w, 3), np.uint8)
    level = np.empty_like(shade)
    for channel in range(3):
        np.multiply(shade, np.float32(FELT_EDGE[channel] - FELT[channel]), out=level)
        level += dither
        level += np.float32(FELT[channel])
        rgb[..., channel] = level  # truncation after the dither's offset rounds by it
    quarter = pygame.image.frombuffer(rgb.tobytes(), (half_w, half_h), "RGB")
    surface = pygame.Surface((width, height))
    surface.blit(quarter, (0, 0))
    surface.blit(pygame.transform.flip(quarter, True, False), (width - half_w, 0))
    top = surface.subsurface((0, 0, width, half_h))
    surface.blit(pygame.transform.flip(top, False, True), (0, height - half_h))
    return surface.convert() if pygame.display.get_surface() is not None else surface


def shade(surface: pygame.Surface, alpha: int = SHADE[3], rect: pygame.Rect | None = None) -> None:
    """Darken ``surface`` (or its ``rect``) as black at ``alpha`` over it would: under pages.

    A multiply by the light left over gives the same colours (within one step) about three
    times faster than blending a window-sized translucent layer.
    """
    light = 255 - max(0, min(255, alpha))
    surface.fill((light, light, light), rect, special_flags=pygame.BLEND_RGB_MULT)
