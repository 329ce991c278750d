"""The local match's scores and rules as the score sheet, a hand's summary and the match
result show them (``MatchSheet``), read from its controller."""

from __future__ import annotations

from core.controller import Controller
from game.table.match.port import HUMAN_SEAT, MatchSheet


def match_sheet(controller: Controller) -> MatchSheet:
    """Return the scores and rules of the controller's match as the table shows them."""
    match = controller.match
    if match is None:
        return MatchSheet()
    taken: list[list[int]] = [[], [], [], []]
    for trick in controller.tricks:
        if trick.winner is not None:
            taken[trick.winner].extend(trick.cards)
    return MatchSheet(
        rules=match.rules,
        started=True,
        person_seated=match.seats[HUMAN_SEAT].is_human,
        first_hand=match.earlier.count + 1,
        earlier_totals=tuple(match.earlier.totals),
        hands=tuple(controller.hand_scores),
        totals=tuple(controller.totals),
        winner=controller.winner,
        hand_number=controller.hand_number,
        taken=tuple(tuple(cards) for cards in taken),
    )
