"""What each step of the review page shows: the pass, a trick (or every hand, in hindsight),
the points lost over the hand, and the verdict on the person's decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ai.review import DecisionReview
from core.cards import card_label
from core.rules import pass_receiver
from game.table import theme
from game.table.hand_drawing import (
    FAN,
    NAME_COLUMN,
    draw_card_row,
    draw_seat_rows,
    draw_trick_cards,
    fit_art,
)
from game.table.hand_story import TrickStory, trick_caption
from game.table.scenes.review.verdicts import (
    GRADE_COLOURS,
    GRADE_WORDS,
    cards_text,
    total_line,
    verdict,
)
from game.table.widgets import draw_text, wrap_text

if TYPE_CHECKING:
    from game.table.scenes.review.page import ReviewPage

#: The gap between the rows of every hand in hindsight, at the base size.
ROW_GAP = 6
#: Each seat's place in the order of play, by its row in hindsight (the first led).
ORDINALS = ("1st, led", "2nd", "3rd", "4th")


def draw_verdict_lines(
    page: ReviewPage,
    surface: pygame.Surface,
    area: pygame.Rect,
    top: int,
    decision: DecisionReview | None,
    doing: str,
) -> None:
    """Write what the person did and the decision's class and better choice."""
    layout = page.app.layout
    if decision is None:
        return
    grade = decision.grade
    head = "Forced" if decision.forced else GRADE_WORDS[grade]
    colour = theme.TEXT_DIM if decision.forced else GRADE_COLOURS[grade]
    draw_text(
        surface,
        f"{head}: {doing}",
        layout.text(20),
        colour,
        bold=True,
        center=(area.centerx, top),
        max_width=area.width,
    )
    draw_text(
        surface,
        verdict(decision),
        layout.text(18),
        theme.TEXT,
        center=(area.centerx, top + round(layout.text(20) * 1.5)),
        max_width=area.width,
    )


def draw_pass(page: ReviewPage, surface: pygame.Surface, area: pygame.Rect) -> None:
    """Draw the hand dealt with the three cards passed marked, and the cards received."""
    layout = page.app.layout
    passing = page.story.passing
    assert passing is not None
    receiver = page.source.seat_name(pass_receiver(page.seat, passing.direction))
    px = layout.text(17)
    verdict_h = round(px * 5.5)
    art = fit_art(page.app, area, (area.height - 5 * px - verdict_h) / 1.12, len(passing.dealt))
    used = 5 * px + verdict_h + round(art.size[1] * 1.12)
    area = area.move(0, max(0, (area.height - used) // 2))
    draw_text(
        surface,
        f"Your pass to {receiver}: the hand you were dealt",
        px,
        theme.TEXT_DIM,
        center=(area.centerx, area.top + px),
        max_width=area.width,
    )
    step = min(art.size[0] * FAN, (area.width - art.size[0]) / 12)
    lift = round(art.size[1] * 0.12)
    centre = (area.centerx, area.top + 2 * px + lift + art.size[1] // 2)
    marked = {card: theme.ACCENT for card in passing.passed}
    rects = draw_card_row(surface, art, passing.dealt, centre, marked, step, area.width)
    bottom = max(rect.bottom for rect in rects)
    received = cards_text(passing.received) or "nothing"
    draw_text(
        surface,
        f"You received {received}",
        px,
        theme.TEXT,
        center=(area.centerx, bottom + round(px * 1.4)),
        max_width=area.width,
    )
    decision = page.decision(page.step)
    doing = f"you passed {cards_text(passing.passed)}"
    draw_verdict_lines(page, surface, area, bottom + round(px * 4), decision, doing)


def draw_trick(
    page: ReviewPage, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
) -> None:
    """Draw the trick's four cards in the order played (who led, who won) and the hand
    the person held before playing, their card marked; in hindsight, every hand instead."""
    if page.hindsight and trick.hands:
        draw_hindsight(page, surface, area, trick)
        return
    layout = page.app.layout
    px = layout.text(16)
    small = layout.text(14)
    fixed = 2 * px + round(small * 2) + round(px * 1.8) + round(px * 5)
    art = fit_art(page.app, area, (area.height - fixed) / 2.12, 13)
    used = fixed + round(art.size[1] * 2.12)
    area = area.move(0, max(0, (area.height - used) // 2))
    draw_trick_caption(page, surface, area, trick)
    width, height = art.size
    below = draw_trick_cards(
        surface,
        page.app,
        art,
        area,
        area.top + 2 * px,
        trick.plays,
        trick.winner,
        page.name_of,
        page.seat,
    )
    top = below + round(px * 0.9)
    draw_text(
        surface,
        "Your hand before you played",
        px,
        theme.TEXT_DIM,
        center=(area.centerx, top),
        max_width=area.width,
    )
    hand = trick.hand or (trick.chosen,)
    step = min(width * FAN, (area.width - width) / max(1, len(hand) - 1))
    lift = round(height * 0.12)
    row_centre = (area.centerx, top + round(px * 0.9) + lift + height // 2)
    marked = {trick.chosen: theme.ACCENT}
    rects = draw_card_row(surface, art, hand, row_centre, marked, step, area.width)
    bottom = max(rect.bottom for rect in rects)
    draw_trick_verdict(page, surface, area, trick, bottom + round(px * 1.6))


def draw_hindsight(
    page: ReviewPage, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
) -> None:
    """Draw every hand before the trick, one whole row a seat (none covers another), each
    seat's card of the trick ringed and its place in the order of play by its name."""
    layout = page.app.layout
    px = layout.text(16)
    gap = layout.px(ROW_GAP)
    fixed = 2 * px + round(px * 1.8) + round(px * 5)
    narrow = area.inflate(-2 * layout.px(NAME_COLUMN), 0)
    art = fit_art(page.app, narrow, (area.height - fixed - 3 * gap) / 4, 13)
    height = art.size[1]
    used = fixed + 4 * height + 3 * gap
    area = area.move(0, max(0, (area.height - used) // 2))
    draw_trick_caption(page, surface, area, trick)
    top = area.top + 2 * px + round(px * 0.4)
    draw_text(
        surface,
        "Hindsight: every hand before this trick",
        px,
        theme.ACCENT,
        center=(area.centerx, top),
        max_width=area.width,
    )
    notes = ["", "", "", ""]
    for order, (seat, _) in enumerate(trick.plays):
        notes[seat] = ORDINALS[order] + (", won it" if seat == trick.winner else "")
    bottom = draw_seat_rows(
        surface,
        page.app,
        art,
        area,
        top + round(px * 0.9),
        trick.hands,
        page.seat,
        page.name_of,
        {card: theme.ACCENT for _, card in trick.plays},
        notes,
        (height + gap) / height,
    )
    draw_trick_verdict(page, surface, area, trick, bottom + round(px * 1.6))


def draw_trick_caption(
    page: ReviewPage, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
) -> None:
    """Write who led the trick and who won it, at the top of ``area``."""
    layout = page.app.layout
    draw_text(
        surface,
        trick_caption(trick, page.seat, page.source.seat_name),
        layout.text(17),
        theme.TEXT_DIM,
        center=(area.centerx, area.top + layout.text(16)),
        max_width=area.width,
    )


def draw_trick_verdict(
    page: ReviewPage, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory, top: int
) -> None:
    """Write the verdict on the person's card of the trick from ``top``."""
    doing = f"you played {card_label(trick.chosen)}"
    draw_verdict_lines(page, surface, area, top, page.decision(page.step), doing)


def draw_total(page: ReviewPage, surface: pygame.Surface, area: pygame.Rect) -> None:
    """Draw the points lost to decisions and the flagged decisions, one a line."""
    layout = page.app.layout
    review = page.review
    assert review is not None
    px = layout.text(18)
    draw_text(
        surface,
        total_line(review),
        layout.text(24),
        theme.ACCENT,
        bold=True,
        center=(area.centerx, area.top + layout.text(24)),
        max_width=area.width,
    )
    y = area.top + layout.text(24) * 3
    flagged = [d for d in review.decisions if d.grade != "fine"]
    if not flagged:
        lines = [
            (
                "Every decision was fine: nothing the search could improve on by much.",
                theme.GOOD,
            )
        ]
    else:
        lines = [
            (
                f"{'Pass' if d.kind == 'pass' else f'Trick {d.trick}'}: "
                f"{GRADE_WORDS[d.grade].lower()}, you chose {cards_text(d.chosen)}; "
                f"{verdict(d).replace('Passing', 'passing', 1)}",
                GRADE_COLOURS[d.grade],
            )
            for d in flagged
        ]
    lines.append(
        (
            "A loss is in points against the table's average for this hand, measured by the "
            "hard bot's search over deals consistent with what you saw.",
            theme.TEXT_DIM,
        )
    )
    line_h = round(px * 1.45)
    for text, colour in lines:
        for part in wrap_text(text, px, area.width):
            if y + line_h > area.bottom:
                return
            draw_text(surface, part, px, colour, midleft=(area.left, y), max_width=area.width)
            y += line_h
        y += round(px * 0.3)
