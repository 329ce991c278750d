"""The match's hand-by-hand scores as table rows: the score sheet's and the match result's."""

from __future__ import annotations

from core.controller import Controller
from game.table.wording import SEAT_NAMES

#: A row of the table: its name (the hand's number, say) and one cell a seat.
Row = tuple[str, ...]
#: The note under the rows when a hand was shot.
MOON_NOTE = "* shot the moon"


def score_names(controller: Controller, person_name: str) -> Row:
    """Return the head row: "Hand" and each seat's name (the person's at seat 0)."""
    person = controller.seats[0].is_human
    return ("Hand", person_name if person else SEAT_NAMES[0], *SEAT_NAMES[1:])


def hand_rows(controller: Controller, most: int | None = None) -> list[Row]:
    """Return a row for each hand played (a moon's shooter marked ``*``), hands before the
    record's first as one row ("1-4"); with ``most``, the first hands are added up into one
    row so that no more than ``most`` rows are returned."""
    match = controller.match
    if match is None:
        return []
    earlier = match.earlier
    hands: list[tuple[int, int, tuple[int, ...], int | None]] = []
    if earlier.count:
        hands.append((1, earlier.count, tuple(earlier.totals), None))
    for number, score in enumerate(controller.hand_scores, start=earlier.count + 1):
        hands.append((number, number, tuple(score.points), score.moon_shooter))
    if most is not None and len(hands) > max(1, most):
        joined = hands[: len(hands) - max(1, most) + 1]
        points = tuple(sum(hand[2][seat] for hand in joined) for seat in range(4))
        hands = [(joined[0][0], joined[-1][1], points, None), *hands[len(joined) :]]
    rows: list[Row] = []
    for first, last, points, shooter in hands:
        label = str(first) if first == last else f"{first}-{last}"
        marks = ["*" if seat == shooter else "" for seat in range(4)]
        rows.append((label, *(f"{p}{m}" for p, m in zip(points, marks, strict=True))))
    return rows


def total_row(controller: Controller) -> Row:
    """Return the row of the match's totals."""
    return ("Total", *(str(total) for total in controller.totals))


def any_moon(controller: Controller) -> bool:
    """Return whether a hand of the match was shot (its row then carries a ``*``)."""
    return any(score.moon_shooter is not None for score in controller.hand_scores)
