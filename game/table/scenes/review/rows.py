"""What each step of the review page shows: the pass, a trick (or every hand, in hindsight),
the points lost over the hand, and the verdict on the person's decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygame

from ai.review import DecisionReview, Review
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
from game.table.hand_story import HandStory, TrickStory, trick_caption
from game.table.scenes.review.verdicts import (
    Step,
    cards_text,
    colour_of,
    heading,
    slips_line,
    summary_entry,
    total_line,
    verdict,
    why,
)
from game.table.widgets import draw_text, wrap_text

if TYPE_CHECKING:
    from game.table.app import App

#: The gap between the rows of every hand in hindsight, at the base size.
ROW_GAP = 6
#: Each seat's place in the order of play, by its row in hindsight (the first led).
ORDINALS = ("1st, led", "2nd", "3rd", "4th")


class SeatNames(Protocol):
    """Where the names shown for the seats come from (the page's ``HandSource``)."""

    def seat_name(self, seat: int) -> str:
        """Return the name shown for a seat."""
        ...


class ShownHand(Protocol):
    """What drawing a step reads from the review page (``ReviewPage``); it changes nothing."""

    @property
    def app(self) -> App:
        """The running table (its layout and card art)."""

    @property
    def source(self) -> SeatNames:
        """The match reviewed, for its seats' names."""

    @property
    def seat(self) -> int:
        """The seat whose decisions are reviewed."""

    @property
    def story(self) -> HandStory:
        """The hand reviewed, as told from the seat."""

    @property
    def review(self) -> Review | None:
        """The finished review, or None while it computes."""

    @property
    def hindsight(self) -> bool:
        """Whether every hand is shown face up on the trick steps."""

    @property
    def step(self) -> Step:
        """The step shown."""

    def name_of(self, seat: int) -> str:
        """Return a seat's name on the page."""
        ...

    def decision(self, step: Step) -> DecisionReview | None:
        """Return the review of the decision made at a step (None for the total)."""
        ...


#: A line of text to draw: its words, size, colour and weight.
Line = tuple[str, int, tuple[int, int, int], bool]


def verdict_block(
    page: ShownHand, decision: DecisionReview | None, doing: str, width: int
) -> list[Line]:
    """Return the lines judging a decision, wrapped to ``width``: what the person did and its
    class, the better choice with the loss and its margin, and why it cost more."""
    if decision is None:
        return []
    layout = page.app.layout
    head_px, px = layout.text(20), layout.text(18)
    lines: list[Line] = [
        (text, head_px, colour_of(decision), True)
        for text in wrap_text(f"{heading(decision)}: {doing}", head_px, width, bold=True)
    ]
    lines += [(text, px, theme.TEXT, False) for text in wrap_text(verdict(decision), px, width)]
    reason = why(decision)
    if reason is not None:
        lines += [(text, px, theme.TEXT_DIM, False) for text in wrap_text(reason, px, width)]
    return lines


def block_height(lines: list[Line]) -> int:
    """Return the height the lines take, drawn by ``draw_lines``."""
    return sum(round(px * 1.4) for _, px, _, _ in lines)


def draw_lines(surface: pygame.Surface, area: pygame.Rect, top: int, lines: list[Line]) -> None:
    """Draw the lines centred in ``area`` from ``top`` down."""
    y = top
    for text, px, colour, bold in lines:
        step = round(px * 1.4)
        draw_text(
            surface,
            text,
            px,
            colour,
            bold=bold,
            center=(area.centerx, y + step // 2),
            max_width=area.width,
        )
        y += step


def draw_pass(page: ShownHand, surface: pygame.Surface, area: pygame.Rect) -> None:
    """Draw the hand dealt with the three cards passed marked, and the cards received."""
    layout = page.app.layout
    passing = page.story.passing
    assert passing is not None
    receiver = page.source.seat_name(pass_receiver(page.seat, passing.direction))
    px = layout.text(17)
    decision = page.decision(page.step)
    block = verdict_block(page, decision, f"you passed {cards_text(passing.passed)}", area.width)
    verdict_h = round(px * 2.5) + block_height(block)
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
    draw_lines(surface, area, bottom + round(px * 2.5), block)


def draw_trick(
    page: ShownHand, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
) -> None:
    """Draw the trick's four cards in the order played (who led, who won) and the hand
    the person held before playing, their card marked; in hindsight, every hand instead."""
    if page.hindsight and trick.hands:
        draw_hindsight(page, surface, area, trick)
        return
    layout = page.app.layout
    px = layout.text(16)
    small = layout.text(14)
    block = trick_block(page, trick, area.width)
    fixed = 2 * px + round(small * 2) + round(px * 1.8) + round(px * 1.2) + block_height(block)
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
    draw_lines(surface, area, bottom + round(px * 1.2), block)


def draw_hindsight(
    page: ShownHand, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
) -> None:
    """Draw every hand before the trick, one whole row a seat (none covers another), each
    seat's card of the trick ringed and its place in the order of play by its name."""
    layout = page.app.layout
    px = layout.text(16)
    gap = layout.px(ROW_GAP)
    block = trick_block(page, trick, area.width)
    fixed = 2 * px + round(px * 1.8) + round(px * 1.2) + block_height(block)
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
    draw_lines(surface, area, bottom + round(px * 1.2), block)


def draw_trick_caption(
    page: ShownHand, surface: pygame.Surface, area: pygame.Rect, trick: TrickStory
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


def trick_block(page: ShownHand, trick: TrickStory, width: int) -> list[Line]:
    """Return the lines judging the person's card of the trick."""
    doing = f"you played {card_label(trick.chosen)}"
    return verdict_block(page, page.decision(page.step), doing, width)


#: The sizes the total step tries, largest first, until its lines fit (base size).
TOTAL_SIZES = (18, 17, 16, 15, 14, 13, 12)
#: How far a why line is set in under its decision (base size).
WHY_INDENT = 24
#: The note that ends the total step.
LOSS_NOTE = (
    "A loss is in points against the table's average for this hand, measured by the hard "
    "bot's search over deals consistent with what you saw; ± is the search's noise."
)


@dataclass(frozen=True)
class Entry:
    """A paragraph of the total step (or one of its wrapped lines): words, colour, and
    whether it is set in (a why line under its decision)."""

    text: str
    colour: tuple[int, int, int]
    indented: bool = False


def total_entries(review: Review, with_why: bool) -> list[Entry]:
    """Return the total step's paragraphs: each listed decision (and why), the small slips,
    the note on what a loss is."""
    summary = review.summary()
    entries = []
    for decision in summary.listed:
        entries.append(Entry(summary_entry(decision), colour_of(decision)))
        reason = why(decision)
        if with_why and reason is not None:
            entries.append(Entry(reason, theme.TEXT_DIM, indented=True))
    slips = slips_line(review)
    if slips is not None:
        entries.append(
            Entry(f"{slips} (decisions that lost less than half a point each)", theme.TEXT)
        )
    if not summary.listed:
        fine = "Every decision was fine: nothing the search could improve on by much."
        entries.insert(0, Entry(fine, theme.GOOD))
    entries.append(Entry(LOSS_NOTE, theme.TEXT_DIM))
    return entries


def fit_total(page: ShownHand, width: int, height: int) -> tuple[int, list[Entry]]:
    """Return the largest text size at which the total step's lines fit in ``width`` ×
    ``height``, and the lines (wrapped): with why each listed decision cost more if that fits
    at some size, else without."""
    layout = page.app.layout
    review = page.review
    assert review is not None
    indent = layout.px(WHY_INDENT)
    for with_why in (True, False):
        entries = total_entries(review, with_why)
        for size in TOTAL_SIZES:
            px = layout.text(size)
            lines = _wrapped(entries, px, width, indent)
            if len(lines) * round(px * 1.45) <= height:
                return px, lines
    px = layout.text(TOTAL_SIZES[-1])
    return px, _wrapped(total_entries(review, False), px, width, indent)


def _wrapped(entries: list[Entry], px: int, width: int, indent: int) -> list[Entry]:
    return [
        Entry(part, entry.colour, entry.indented)
        for entry in entries
        for part in wrap_text(entry.text, px, width - (indent if entry.indented else 0))
    ]


def draw_total(page: ShownHand, surface: pygame.Surface, area: pygame.Rect) -> None:
    """Draw the points lost to decisions, then what adds up to them: the listed decisions,
    one a line with why each cost more (where there is room), and the small slips."""
    layout = page.app.layout
    review = page.review
    assert review is not None
    title_px = layout.text(22)
    lines = wrap_text(total_line(review), title_px, area.width, bold=True)
    y = area.top
    for title in lines:
        draw_text(
            surface,
            title,
            title_px,
            theme.ACCENT,
            bold=True,
            center=(area.centerx, y + title_px),
            max_width=area.width,
        )
        y += round(title_px * 1.4)
    y += title_px
    px, body = fit_total(page, area.width, area.bottom - y)
    line_h = round(px * 1.45)
    for line in body:
        if y + line_h > area.bottom:
            return
        left = area.left + (layout.px(WHY_INDENT) if line.indented else 0)
        draw_text(
            surface,
            line.text,
            px,
            line.colour,
            midleft=(left, y + line_h // 2),
            max_width=area.right - left,
        )
        y += line_h
