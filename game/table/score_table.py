"""The match's hand-by-hand scores as table rows: the score sheet's and the match result's."""

from __future__ import annotations

from game.table.match.port import MatchSheet
from game.table.wording import SEAT_NAMES

#: A row of the table: its name (the hand's number, say) and one cell a seat.
Row = tuple[str, ...]
#: The note under the rows when a hand was shot.
MOON_NOTE = "* shot the moon"


def score_names(sheet: MatchSheet, person_name: str) -> Row:
    """Return the head row: "Hand" and each seat's name (the person's at seat 0)."""
    return ("Hand", person_name if sheet.person_seated else SEAT_NAMES[0], *SEAT_NAMES[1:])


def hand_rows(sheet: MatchSheet, most: int | None = None) -> list[Row]:
    """Return a row for each hand played (a moon's shooter marked ``*``), hands before the
    record's first as one row ("1-4"); with ``most``, the first hands are added up into one
    row so that no more than ``most`` rows are returned."""
    if not sheet.started:
        return []
    hands: list[tuple[int, int, tuple[int, ...], int | None]] = []
    if sheet.earlier_count:
        hands.append((1, sheet.earlier_count, sheet.earlier_totals, None))
    for number, score in enumerate(sheet.hands, start=sheet.first_hand):
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


def total_row(sheet: MatchSheet) -> Row:
    """Return the row of the match's totals."""
    return ("Total", *(str(total) for total in sheet.totals))
