"""What a replay's step shows: a deal, the passes or a trick with every hand face up, or a
hand's score with every seat's total."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import pygame

from core.cards import mask_of
from core.kernel import trick_points
from core.rules import pass_receiver
from game.table import theme
from game.table.hand_drawing import (
    NAME_COLUMN,
    ROW_PITCH,
    TIGHT_FAN,
    draw_seat_rows,
    draw_trick_cards,
    fit_art,
)
from game.table.hand_story import HandStory, trick_caption
from game.table.scenes.replays.replay import Replay
from game.table.widgets import draw_text

if TYPE_CHECKING:
    from game.table.app import App


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: a hand's ``deal``, ``pass``, ``trick`` (with its number) or
    ``score``."""

    hand: int
    kind: str
    trick: int = 0

    @property
    def short(self) -> str:
        """Return the step's name on its button in the strip."""
        names = {"deal": "Deal", "pass": "Pass", "score": "Score"}
        return names.get(self.kind, str(self.trick))


class StepsPage(Protocol):
    """What drawing a step reads from the replay's page (``ReplayPage``); it changes nothing."""

    @property
    def app(self) -> App:
        """The running table (its layout and card art)."""

    @property
    def replay(self) -> Replay:
        """The kept match shown."""

    @property
    def first_hand(self) -> int:
        """The number of the match's first hand kept in the replay."""


def totals_before(page: StepsPage, hand: int) -> list[int]:
    """Return every seat's total before hand ``hand`` of the replay shown."""
    controller = page.replay.controller
    match = controller.match
    assert match is not None
    totals = list(match.earlier.totals)
    for score in controller.hand_scores[: hand - page.first_hand]:
        for seat in range(4):
            totals[seat] += score.points[seat]
    return totals


def draw_hands_step(
    page: StepsPage, surface: pygame.Surface, area: pygame.Rect, story: HandStory, step: ReplayStep
) -> None:
    """Draw a deal, the passes or a trick: a caption, the trick's cards for a trick, and
    every hand below, with the cards that move ringed."""
    layout = page.app.layout
    px = layout.text(17)
    small = layout.text(14)
    trick = story.tricks[step.trick - 1] if step.kind == "trick" else None
    fixed = 2 * px + (round(small * 2) + round(px * 0.9) if trick is not None else 0)
    rows = 1 + ROW_PITCH * 3 + (1.0 if trick is not None else 0.0)
    narrow = area.inflate(-2 * layout.px(NAME_COLUMN), 0)
    # A little room is kept around the rows, so the page never looks crammed.
    art = fit_art(page.app, narrow, 0.85 * (area.height - fixed) / rows, 13, TIGHT_FAN)
    used = fixed + round(art.size[1] * rows)
    area = area.move(0, max(0, (area.height - used) // 2))
    name_of = page.replay.seat_name
    totals = totals_before(page, step.hand)
    notes = [f"{totals[seat]} before" for seat in range(4)]
    hands: tuple[tuple[int, ...], ...] = story.deal
    ringed: dict[int, tuple[int, int, int]] = {}
    if step.kind == "deal":
        where = "no passing" if story.direction == "hold" else f"passing {story.direction}"
        caption = f"Hand {step.hand}: the deal ({where})"
    elif step.kind == "pass":
        caption = f"Hand {step.hand}: each passes the ringed cards {story.direction}"
        ringed = {card: theme.ACCENT for cards in story.passes for card in cards}
        to = page.replay.short_name
        notes = [f"to {to(pass_receiver(seat, story.direction))}" for seat in range(4)]
    else:
        assert trick is not None
        caption = trick_caption(trick, -1, name_of)
        hands = trick.hands
        ringed = {card: theme.ACCENT for _, card in trick.plays}
        taken = points_taken(page.replay, story, step.trick - 1)
        notes = [f"{taken[seat]} taken" for seat in range(4)]
    draw_text(
        surface,
        caption,
        px,
        theme.TEXT_DIM,
        center=(area.centerx, area.top + px),
        max_width=area.width,
    )
    top = area.top + 2 * px
    if trick is not None:
        top = draw_trick_cards(
            surface, page.app, art, area, top, trick.plays, trick.winner, name_of
        )
        top += round(px * 0.9)
    draw_seat_rows(surface, page.app, art, area, top, hands, 0, name_of, ringed, notes)


def points_taken(replay: Replay, story: HandStory, tricks: int) -> list[int]:
    """Return the points each seat took in the hand's first ``tricks`` tricks."""
    taken = [0, 0, 0, 0]
    flags = replay.controller.rules.flags
    for trick in story.tricks[:tricks]:
        taken[trick.winner] += trick_points(mask_of(card for _, card in trick.plays), flags)
    return taken


def draw_score(page: StepsPage, surface: pygame.Surface, area: pygame.Rect, hand: int) -> None:
    """Draw the hand's points and every seat's total after it."""
    layout = page.app.layout
    controller = page.replay.controller
    score = controller.hand_scores[hand - page.first_hand]
    before = totals_before(page, hand)
    px = layout.text(20)
    line_h = round(px * 1.8)
    y = area.top + px
    draw_text(
        surface,
        f"Hand {hand} scored",
        layout.text(24),
        theme.ACCENT,
        bold=True,
        center=(area.centerx, y),
        max_width=area.width,
    )
    y += line_h * 2
    columns = (0.25, 0.55, 0.75)
    for share, word in zip(columns, ("", "This hand", "Total"), strict=True):
        left = round(area.left + area.width * share)
        draw_text(surface, word, px, theme.TEXT_DIM, midleft=(left, y))
    for seat in range(4):
        y += line_h
        points = score.points[seat]
        cells = (
            page.replay.seat_name(seat),
            f"{points:+d}" if points else "0",
            str(before[seat] + points),
        )
        for share, text in zip(columns, cells, strict=True):
            draw_text(
                surface,
                text,
                px,
                theme.TEXT,
                bold=seat == score.moon_shooter,
                midleft=(round(area.left + area.width * share), y),
                max_width=round(area.width * 0.28),
            )
    if score.moon_shooter is not None:
        y += round(line_h * 1.5)
        draw_text(
            surface,
            f"{page.replay.seat_name(score.moon_shooter)} shot the moon",
            px,
            theme.ACCENT,
            center=(area.centerx, y),
            max_width=area.width,
        )
