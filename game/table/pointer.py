"""How the table marks the card pointed at (by the keys or the mouse): a white ring just
outside the card and a marker above it. Chosen cards are raised and ringed in gold instead, so
pointing never looks like choosing."""

from __future__ import annotations

import pygame

from game.table.anim import Point
from game.table.layout import LIFT, Layout

#: The ring around the card pointed at, and its dark outer edge.
FOCUS_RING = (250, 250, 250)
FOCUS_EDGE = (20, 20, 20)


def draw_focus_ring(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Ring the card at ``rect`` just outside its edge: white edged with dark, so it shows on
    cards and on the felt."""
    thickness = max(3, rect.width // 24)
    radius = max(4, rect.width // 12)
    for colour, grow in ((FOCUS_EDGE, 2 * thickness), (FOCUS_RING, thickness)):
        ring = rect.inflate(2 * grow, 2 * grow)
        pygame.draw.rect(surface, colour, ring, thickness, border_radius=radius + grow)


def draw_pointer(
    surface: pygame.Surface, layout: Layout, spots: dict[int, Point], card: int
) -> None:
    """Draw a marker pointing down at ``card`` of the hand resting at ``spots``: above where a
    chosen card rises, over the part of the card the next one leaves uncovered."""
    if card not in spots:
        return
    hand = list(spots)
    width, height = layout.card_size
    x, y = spots[card]
    index = hand.index(card)
    step = spots[hand[index + 1]][0] - x if index + 1 < len(hand) else width
    centre_x = round(x - width / 2 + min(width, step) / 2)
    tip = round(y - height / 2 - height * LIFT - layout.px(6))
    half = max(7, width // 6)
    points = [(centre_x - half, tip - half), (centre_x + half, tip - half), (centre_x, tip)]
    pygame.draw.polygon(surface, FOCUS_RING, points)
    pygame.draw.polygon(surface, FOCUS_EDGE, points, max(1, half // 5))
