"""A match as plain data: rules, seed, seats and every hand's deal and actions.

A match is fully defined by its rules, its seed and its action list: each hand's deal comes
from the seed, and replaying the actions reproduces every state exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from core.actions import Action
from core.errors import HeartsError
from core.rules import RuleSet
from core.seats import Seat

MAX_SEED = 2**63 - 1


def deal_for(seed: int, hand_index: int) -> tuple[int, int, int, int]:
    """Return the four 13-card masks dealt for the hand with this index of a seeded match."""
    deck = list(range(52))
    random.Random(f"mdhearts-deal/{seed}/{hand_index}").shuffle(deck)
    masks = [0, 0, 0, 0]
    for position, card in enumerate(deck):
        masks[position // 13] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


def validate_seed(seed: object) -> int:
    """Return the seed if it is a whole number in range, else raise with the reason."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise HeartsError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r:.40}")
    return seed


@dataclass
class HandRecord:
    """One hand of a match: its deal, pass direction and the actions taken so far."""

    deal: tuple[int, int, int, int]
    direction: str
    actions: list[Action] = field(default_factory=list)


@dataclass(frozen=True)
class EarlierHands:
    """The hands a long match's record folds into a summary: how many, and their totals.

    A record keeps its last hands in full; the ones before are summed up here, so no legal
    match outgrows its record however long it runs.
    """

    count: int = 0
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)


NO_EARLIER_HANDS = EarlierHands()


@dataclass
class MatchState:
    """Everything that defines a match; the current hand is the last one.

    ``hands`` are the hands after ``earlier`` (none, unless a long match was loaded).
    """

    rules: RuleSet
    seed: int
    seats: tuple[Seat, Seat, Seat, Seat]
    hands: list[HandRecord] = field(default_factory=list)
    earlier: EarlierHands = NO_EARLIER_HANDS

    def new_hand_record(self) -> HandRecord:
        """Return the record of the next hand to deal (not yet appended)."""
        index = self.earlier.count + len(self.hands)
        return HandRecord(deal_for(self.seed, index), self.rules.direction_of_hand(index))
