"""Scoring a finished hand (moon and bonuses) and deciding who wins a match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.cards import POINT_CARDS_MASK
from core.kernel import trick_points
from core.rules import MOON_POINTS, NO_TRICKS_BONUS_POINTS, RuleSet


@dataclass(frozen=True)
class HandScore:
    """The result of one hand: points per seat with moon and bonuses applied."""

    points: tuple[int, int, int, int]
    taken_points: tuple[int, int, int, int]
    moon_shooter: int | None


def match_winner(totals: Sequence[int], end_score: int) -> int | None:
    """Return the winning seat if the match is over, else None.

    The match is over once a total reaches ``end_score`` and one seat alone has the lowest
    total; while the lowest total is shared, play goes on.
    """
    if max(totals) < end_score:
        return None
    lowest = min(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == lowest]
    return leaders[0] if len(leaders) == 1 else None


def score_hand(
    rules: RuleSet,
    taken: Sequence[int],
    tricks_won: Sequence[int],
    totals_before: Sequence[int],
) -> HandScore:
    """Score a finished hand from the cards each seat took (masks) and its trick counts."""
    flags = rules.flags
    taken_points = tuple(trick_points(mask, flags) for mask in taken)
    points = list(taken_points)
    shooter = next(
        (seat for seat in range(4) if taken[seat] & POINT_CARDS_MASK == POINT_CARDS_MASK), None
    )
    if shooter is not None:
        added = [
            p + (0 if s == shooter else MOON_POINTS) - (MOON_POINTS if s == shooter else 0)
            for s, p in enumerate(points)
        ]
        subtracted = [p - (2 * MOON_POINTS if s == shooter else 0) for s, p in enumerate(points)]
        if rules.moon == "add":
            points = added
        elif rules.moon == "subtract":
            points = subtracted
        else:
            after_add = [t + p for t, p in zip(totals_before, added, strict=True)]
            winner = match_winner(after_add, rules.end_score)
            points = subtracted if winner is not None and winner != shooter else added
    elif rules.no_tricks_bonus:
        points = [
            p + (NO_TRICKS_BONUS_POINTS if tricks_won[s] == 0 else 0) for s, p in enumerate(points)
        ]
    return HandScore(
        points=(points[0], points[1], points[2], points[3]),
        taken_points=(taken_points[0], taken_points[1], taken_points[2], taken_points[3]),
        moon_shooter=shooter,
    )
