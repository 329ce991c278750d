"""A plain-text score sheet of a match: the rules and seed, one row per finished hand, totals."""

from __future__ import annotations

from collections.abc import Sequence

from core.controller import Controller
from core.errors import HeartsError
from core.rules import JACK_OF_DIAMONDS_POINTS, MOON_POINTS, NO_TRICKS_BONUS_POINTS, RuleSet

MOON_MARK = "*"
_MOON_RULES = {
    "add": f"the moon adds {MOON_POINTS} to the others",
    "subtract": f"the moon takes {MOON_POINTS} from the shooter",
    "auto": f"the moon adds {MOON_POINTS} to the others, or takes it from the shooter "
    "when adding would lose the match",
}


def seat_name(seat: int) -> str:
    """Return the name a score sheet gives a seat: ``Seat 0`` .. ``Seat 3``."""
    return f"Seat {seat}"


def rules_summary(rules: RuleSet) -> str:
    """Return the rule options as one line of plain text."""
    parts = [
        "pass " + ", ".join(rules.pass_cycle),
        "2C leads" if rules.first_lead == "two_of_clubs" else "any club leads",
    ]
    if rules.no_points_first_trick:
        parts.append("no points on the first trick")
    if rules.must_break_hearts:
        parts.append("hearts must be broken")
    if rules.queen_breaks_hearts:
        parts.append("QS breaks hearts")
    parts.append(_MOON_RULES[rules.moon])
    if rules.jack_of_diamonds:
        parts.append(f"JD scores {JACK_OF_DIAMONDS_POINTS}")
    if rules.no_tricks_bonus:
        parts.append(f"no tricks scores {NO_TRICKS_BONUS_POINTS}")
    parts.append(f"game to {rules.end_score}")
    return "; ".join(parts)


def score_sheet(controller: Controller) -> str:
    """Return the score sheet of the match of ``controller`` as aligned plain text.

    One row per finished hand (number, pass direction, points per seat, ``*`` after the points
    of a seat that shot the moon), then the totals, then the winner once the match is over.
    The hands a long match's record folded are one row of their totals.
    """
    match = controller.match
    if match is None:
        raise HeartsError("no match in progress")
    header = ["Hand", "Pass", *(seat_name(seat) for seat in range(4))]
    rows = []
    earlier = match.earlier
    if earlier.count:
        rows.append([f"1-{earlier.count}", "", *_points(earlier.totals, [""] * 4)])
    for index, score in enumerate(controller.hand_scores):
        marks = [MOON_MARK if seat == score.moon_shooter else "" for seat in range(4)]
        number = str(earlier.count + index + 1)
        rows.append([number, match.hands[index].direction, *_points(score.points, marks)])
    totals = controller.totals
    footer = ["Total", "", *_points(totals, [""] * 4)]
    lines = [
        "MDHearts score sheet",
        f"Seed:  {match.seed}",
        "Seats: " + ", ".join(f"{seat_name(seat)} {kind}" for seat, kind in enumerate(match.seats)),
        f"Rules: {rules_summary(match.rules)}",
        "",
        *_table(header, rows, footer),
    ]
    if any(score.moon_shooter is not None for score in controller.hand_scores):
        lines.append(f"{MOON_MARK} shot the moon")
    winner = controller.winner
    if winner is not None:
        name = f"{seat_name(winner)} ({match.seats[winner]})"
        lines.append(f"Winner: {name} with {totals[winner]} points")
    elif controller.phase in ("pass", "play"):
        lines.append(f"Hand {controller.hand_number} is being played.")
    return "\n".join(lines) + "\n"


def _points(points: Sequence[int], marks: Sequence[str]) -> list[str]:
    """Return point cells; each keeps one character for a mark so the digits line up."""
    return [f"{value}{mark or ' '}" for value, mark in zip(points, marks, strict=True)]


def _table(header: list[str], rows: list[list[str]], footer: list[str]) -> list[str]:
    """Lay out rows under a header and above a footer: the second column left-aligned, the
    others right-aligned, separated by rules of dashes."""
    # Headers of point columns keep the mark slot too, so they end over the digits.
    header = header[:2] + [name + " " for name in header[2:]]
    widths = [max(len(row[column]) for row in (header, *rows, footer)) for column in range(6)]
    rule = "  ".join("-" * width for width in widths)

    def line(cells: list[str]) -> str:
        aligned = [
            cell.ljust(width) if column == 1 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(aligned).rstrip()

    return [line(header), rule, *(line(row) for row in rows), rule, line(footer)]
