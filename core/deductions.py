"""What plays show about hidden hands: the one owner of these deductions.

The engine protocol's view checks (``core.view``) and the bots' knowledge (``ai.knowledge``)
both read them from here, so a deduction is written once and worded once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.cards import (
    FULL_DECK,
    HEARTS,
    HEARTS_MASK,
    POINT_CARDS_MASK,
    SUIT_MASKS,
    SUIT_NAMES,
    has_card,
    suit_of,
)
from core.rules import RuleSet


@dataclass(frozen=True)
class Exclusion:
    """Cards a seat cannot hold from some play on, and why (a sentence)."""

    seat: int
    mask: int
    reason: str


def revealed_by_play(
    seat: int, card: int, led_suit: int, trick_number: int, hearts_broken: bool, rules: RuleSet
) -> Iterator[Exclusion]:
    """Yield what a legal play shows about the hand of the seat that made it.

    ``led_suit`` is -1 when the card leads the trick; ``trick_number`` counts from 1;
    ``hearts_broken`` is whether hearts were broken before this card.
    """
    if led_suit >= 0 and suit_of(card) != led_suit:
        yield Exclusion(
            seat,
            SUIT_MASKS[led_suit],
            f"seat {seat} showed it had no {SUIT_NAMES[led_suit]}s in trick {trick_number}",
        )
        if trick_number == 1 and rules.no_points_first_trick and has_card(POINT_CARDS_MASK, card):
            yield Exclusion(
                seat,
                FULL_DECK & ~POINT_CARDS_MASK,
                f"seat {seat} played a point card on the first trick, so it held "
                "only hearts and the QS",
            )
    if (
        led_suit < 0
        and trick_number > 1
        and suit_of(card) == HEARTS
        and not hearts_broken
        and rules.must_break_hearts
    ):
        yield Exclusion(
            seat,
            FULL_DECK & ~HEARTS_MASK,
            f"seat {seat} led a heart in trick {trick_number} before hearts were "
            "broken, so it held only hearts",
        )
