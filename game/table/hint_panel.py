"""The hint panel: the strongest bot's move for the person and what each choice is worth.

The panel is placed in a free spot of the table (beside a side seat, clear of every hand,
name plate, the trick and the message bar), so asking for a hint hides nothing. Cards are
written with their suit symbols (``Q♠``) everywhere in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pygame

from core.cards import card_label, parse_card
from core.errors import HeartsError
from game.table import theme
from game.table.hint_requests import CoachedHint
from game.table.layout import LIFT, Layout
from game.table.match.port import Hint, action_cards
from game.table.widgets import draw_panel, draw_text, wrap_text

THINKING = "Thinking about a hint…"
EXPLANATION = "Expected points this hand, against the others' average. Lower is better."
#: The most and the fewest candidates listed, best first (fewer where room is short).
MAX_CHOICES = 8
MIN_CHOICES = 2
BORDER = (120, 180, 255)


@dataclass(frozen=True)
class HintLine:
    """One line of the panel: its words, a value drawn at the right, and its look."""

    text: str
    value: str = ""
    strong: bool = False
    dim: bool = False


def pretty_cards(label: str) -> str:
    """Return card texts written with suit symbols (``QS TH`` → ``Q♠ 10♥``); other words stay."""
    parts = []
    for text in label.split():
        try:
            parts.append(card_label(parse_card(text)))
        except HeartsError:
            parts.append(text)
    return " ".join(parts)


def hint_lines(
    hint: Hint | None,
    passing: bool,
    text_px: int,
    width: int,
    choices: int = MAX_CHOICES,
    with_why: bool = True,
) -> list[HintLine]:
    """Return the panel's lines: the move, why it beats the runner-up (``with_why``), what the
    values mean, then the best ``choices``."""
    if hint is None:
        return [HintLine(THINKING, strong=True)]
    verb = "pass" if passing else "play"
    chosen = " ".join(card_label(card) for card in action_cards(hint.action))
    lines = [HintLine(f"Hint: {verb} {chosen}", strong=True)]
    if with_why and isinstance(hint, CoachedHint) and hint.why is not None:
        lines += [HintLine(line) for line in wrap_text(hint.why, text_px, width)]
    if hint.values:
        lines += [HintLine(line, dim=True) for line in wrap_text(EXPLANATION, text_px, width)]
        ranked = sorted(hint.values.items(), key=lambda item: item[1])[:choices]
        lines += [HintLine(pretty_cards(label), f"{value:+.1f}") for label, value in ranked]
    return lines


def obstacles(layout: Layout, passing: bool) -> list[pygame.Rect]:
    """Return what the panel must not cover: cards, plates, trick, bars (and the pass prompt)."""
    rects = [layout.top_bar, layout.message_area, *layout.name_plates]
    hand = layout.hand_area
    lift = round(layout.card_size[1] * LIFT)
    rects.append(pygame.Rect(0, hand.top - lift, layout.width, hand.height + lift))
    for seat in (1, 2, 3):
        rects.append(_cards_rect(layout, seat))
    card = pygame.Rect((0, 0), layout.card_size)
    trick = [card.move_to(center=centre) for centre in layout.trick_centres]
    rects.append(trick[0].unionall(trick[1:]))
    if passing:
        prompt = pygame.Rect(0, 0, min(layout.width, layout.px(640)), layout.px(130))
        prompt.center = (layout.centre[0], layout.centre[1] - layout.px(15))
        rects.append(prompt)
    return rects


def _cards_rect(layout: Layout, seat: int) -> pygame.Rect:
    """Return the rectangle a bot seat's full hand covers."""
    width, height = layout.small_card_size
    if seat in (1, 3):
        width, height = height, width
    spots = layout.opponent_positions(seat, 13)
    rects = [pygame.Rect(0, 0, width, height).move_to(center=spot) for spot in spots]
    return rects[0].unionall(rects[1:])


def free_spot(
    layout: Layout,
    size: tuple[int, int],
    blocked: Iterable[pygame.Rect],
    widths: Sequence[float] = (1.0, 0.8, 0.65, 0.5),
) -> pygame.Rect | None:
    """Return the highest spot for a panel of ``size`` that touches nothing in ``blocked``.

    Spots are tried beside West's cards, then beside East's, from the top bar down; the
    panel may be made narrower (to each share of its width in ``widths``) to fit. None when
    no spot is free.
    """
    margin = layout.px(12)
    blocked = [rect.inflate(margin, margin) for rect in blocked]
    step = max(1, layout.px(8))
    left_edge = _cards_rect(layout, 1).right + margin
    right_edge = _cards_rect(layout, 3).left - margin
    for width in (round(size[0] * share) for share in widths):
        for x in (left_edge, right_edge - width):
            y = layout.top_bar.bottom + margin
            while y + size[1] <= layout.height - margin:
                rect = pygame.Rect(x, y, width, size[1])
                hit = rect.collidelist(blocked)
                if hit < 0:
                    return rect
                y = max(y + step, blocked[hit].bottom)
    return None


def draw_hint_panel(
    surface: pygame.Surface, layout: Layout, hint: Hint | None, passing: bool
) -> pygame.Rect | None:
    """Draw the panel in a free spot, with as many choices as fit; return where it is.

    The why comes before the choices: the choices go first where room is short, then the
    why. None when not even the fewest choices find a free spot.
    """
    px = layout.text(15)
    padding = layout.px(10)
    line_h = round(px * 1.45)
    width = max(layout.px(250), px * 17)
    blocked = obstacles(layout, passing)
    for with_why in (True, False):
        for choices in range(MAX_CHOICES, MIN_CHOICES - 1, -1):
            # Narrowing the panel to fit wraps the why on more lines: measure at each width.
            for narrow in (1.0, 0.8, 0.65, 0.5):
                wide = round(width * narrow)
                lines = hint_lines(hint, passing, px, wide - 2 * padding, choices, with_why)
                rect = free_spot(layout, (wide, line_h * len(lines) + 2 * padding), blocked, (1.0,))
                if rect is not None:
                    draw_panel(surface, rect, (10, 30, 22, 245), BORDER)
                    _draw_lines(surface, rect, lines, px, line_h, padding)
                    return rect
    return None


def _draw_lines(
    surface: pygame.Surface,
    rect: pygame.Rect,
    lines: Sequence[HintLine],
    px: int,
    line_h: int,
    padding: int,
) -> None:
    y = rect.top + padding + line_h // 2
    inner = rect.width - 2 * padding
    for line in lines:
        colour = theme.TEXT_DIM if line.dim else theme.TEXT
        right = rect.right - padding
        value_width = 0
        if line.value:
            drawn = draw_text(surface, line.value, px, theme.TEXT, midright=(right, y))
            value_width = drawn.width + padding
        draw_text(
            surface,
            line.text,
            px,
            colour,
            bold=line.strong,
            midleft=(rect.left + padding, y),
            max_width=inner - value_width,
        )
        y += line_h
