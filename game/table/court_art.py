"""The figures of the court cards — king, queen and jack — drawn by code at any size.

Each figure is a bust in the manner of a classic double-headed court card: a robe in the suit's
colour with gold trim, a face, and the rank's headwear (a crown, a tiara, a feathered cap).
``court_half`` paints the upper half of the court panel; the card shows it again turned by 180
degrees below, as a real court card does. Every shape is a distance field (``raster``), so the
figures stay crisp at 4K.
"""

from __future__ import annotations

import numpy as np
import pygame

from game.table.raster import RGB, Canvas, band, inside

JACK, QUEEN, KING = 9, 10, 11

SKIN: RGB = (246, 214, 180)
INK: RGB = (40, 32, 30)
GOLD: RGB = (214, 164, 48)
PEARL: RGB = (250, 248, 240)
LIPS: RGB = (196, 112, 104)
HAIR: dict[int, RGB] = {KING: (214, 214, 220), QUEEN: (176, 112, 44), JACK: (92, 58, 32)}


def accent_of(colour: RGB) -> RGB:
    """Return the second colour of a figure's dress: navy beside a red suit, slate otherwise.

    A black suit's figure carries no red, so a glance at a card's colours still tells its suit.
    """
    red, green, blue = colour
    return (44, 72, 150) if red > max(green, blue) + 60 else (118, 124, 138)


class _Figure:
    """A canvas with the figure's own units: x from the centre, y up from the bottom edge."""

    def __init__(self, width: int, height: int) -> None:
        self.canvas = Canvas(width, height)
        self.unit = min(width, height / 1.3)  # one panel width, unless the panel is squat
        self.cx, self.base = width / 2, float(height)
        self.line = max(0.8, self.unit * 0.018)

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Return the pixel ``x`` units right of the centre and ``y`` units above the bottom."""
        return self.cx + x * self.unit, self.base - y * self.unit

    def box(self, x0: float, y0: float, x1: float, y1: float, radius: float) -> np.ndarray:
        """Return the distance to a rounded box from its top-left to its bottom-right corner."""
        return self.canvas.box(*self.at(x0, y0), *self.at(x1, y1), radius * self.unit)

    def ellipse(self, x: float, y: float, rx: float, ry: float, angle: float = 0.0) -> np.ndarray:
        """Return the distance to an ellipse centred at (x, y) with radii in units."""
        return self.canvas.ellipse(*self.at(x, y), rx * self.unit, ry * self.unit, angle)

    def circle(self, x: float, y: float, radius: float) -> np.ndarray:
        """Return the distance to a circle centred at (x, y)."""
        return self.canvas.circle(*self.at(x, y), radius * self.unit)

    def polygon(self, *points: tuple[float, float]) -> np.ndarray:
        """Return the distance to a convex polygon given clockwise as seen on the card."""
        return self.canvas.polygon([self.at(x, y) for x, y in points])

    def fill(self, distance: np.ndarray, colour: RGB) -> None:
        """Paint a shape without an outline."""
        self.canvas.paint(colour, inside(distance))

    def draw(self, distance: np.ndarray, colour: RGB) -> None:
        """Paint a shape with a thin ink outline."""
        self.canvas.paint(colour, inside(distance))
        self.canvas.paint(INK, band(distance, -self.line, 0.0))


def court_half(width: int, height: int, rank: int, colour: RGB) -> pygame.Surface:
    """Return the upper half of the court panel of ``rank`` (9 = J, 10 = Q, 11 = K).

    The surface is ``width`` x ``height`` with a clear background; the figure's shoulders meet
    the bottom edge, where the turned copy of the lower half joins it.
    """
    figure = _Figure(width, height)
    accent = accent_of(colour)
    if rank == QUEEN:
        figure.draw(figure.ellipse(0.0, 0.72, 0.27, 0.36), HAIR[QUEEN])
    _robe(figure, colour, accent)
    figure.draw(figure.box(-0.07, 0.6, 0.07, 0.42, 0.02), SKIN)  # the neck
    if rank == KING:
        figure.draw(figure.ellipse(0.0, 0.56, 0.15, 0.13), HAIR[KING])  # the beard
    if rank == JACK:
        figure.draw(figure.ellipse(0.0, 0.8, 0.19, 0.2), HAIR[JACK])
    figure.draw(figure.ellipse(0.0, 0.75, 0.165, 0.2), SKIN)
    if rank == KING:
        figure.draw(figure.ellipse(0.0, 0.675, 0.1, 0.022), HAIR[KING])  # the moustache
    _face(figure)
    if rank == KING:
        _crown(figure, colour, accent)
    elif rank == QUEEN:
        _tiara(figure, colour)
    else:
        _cap(figure, colour, accent)
    return figure.canvas.surface(INK)


def _robe(figure: _Figure, colour: RGB, accent: RGB) -> None:
    """Paint the shoulders: a robe in the suit's colour over a dress, with gold trim."""
    figure.draw(figure.ellipse(0.0, -0.02, 0.48, 0.5), colour)
    figure.draw(figure.polygon((-0.16, 0.46), (0.16, 0.46), (0.26, 0.0), (-0.26, 0.0)), accent)
    figure.fill(figure.polygon((0.16, 0.46), (0.21, 0.46), (0.32, 0.0), (0.26, 0.0)), GOLD)
    figure.fill(figure.polygon((-0.21, 0.46), (-0.16, 0.46), (-0.26, 0.0), (-0.32, 0.0)), GOLD)
    for step in range(3):  # buttons down the dress
        figure.fill(figure.circle(0.0, 0.34 - step * 0.12, 0.028), GOLD)


def _face(figure: _Figure) -> None:
    """Paint two eyes, a nose and a mouth."""
    for side in (-1.0, 1.0):
        figure.fill(figure.circle(side * 0.065, 0.78, 0.022), INK)
    figure.fill(figure.box(-0.008, 0.76, 0.008, 0.69, 0.0), INK)
    figure.fill(figure.ellipse(0.0, 0.64, 0.045, 0.016), LIPS)


def _crown(figure: _Figure, colour: RGB, accent: RGB) -> None:
    """Paint a king's crown: a gold band with three points, each tipped with a jewel."""
    for x in (-0.14, 0.0, 0.14):
        figure.draw(figure.polygon((x - 0.065, 0.95), (x, 1.14), (x + 0.065, 0.95)), GOLD)
        figure.draw(figure.circle(x, 1.15, 0.03), accent)
    figure.draw(figure.box(-0.19, 1.0, 0.19, 0.9, 0.015), GOLD)
    figure.draw(figure.circle(0.0, 0.95, 0.03), colour)


def _tiara(figure: _Figure, colour: RGB) -> None:
    """Paint a queen's tiara: a gold arc over the hair with pearls and a jewel in the middle."""
    arc = np.maximum(figure.ellipse(0.0, 0.9, 0.19, 0.1), -figure.box(-0.3, 0.9, 0.3, 0.7, 0.0))
    figure.draw(arc, GOLD)
    for x in (-0.12, 0.12):
        figure.draw(figure.circle(x, 0.95, 0.025), PEARL)
    figure.draw(figure.ellipse(0.0, 1.0, 0.04, 0.055), colour)


def _cap(figure: _Figure, colour: RGB, accent: RGB) -> None:
    """Paint a jack's cap in the suit's colour with a gold band and a feather."""
    figure.draw(figure.ellipse(0.16, 1.05, 0.05, 0.17, angle=0.6), accent)
    figure.draw(figure.ellipse(0.0, 0.93, 0.22, 0.11), colour)
    figure.draw(figure.box(-0.2, 0.9, 0.2, 0.85, 0.02), GOLD)
