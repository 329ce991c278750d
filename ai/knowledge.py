"""What one seat can deduce from its observation: unseen cards, voids, known cards, points.

Everything here is derived from an ``Observation`` alone, so it can never leak hidden cards.
Voids are kept per card group: clubs, diamonds, spades without the Q♠, the Q♠, hearts. The Q♠
has a group of its own because a seat that discards a point card on the first trick shows that
it holds only hearts and perhaps the Q♠.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.cards import (
    FULL_DECK,
    POINT_CARDS_MASK,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TWO_OF_CLUBS,
    count,
    has_card,
    suit_of,
)
from core.deductions import revealed_by_play
from core.kernel import trick_points
from core.observation import Observation
from core.rules import pass_receiver

QUEEN_BIT = 1 << QUEEN_OF_SPADES
#: Card groups used for voids and sampling: C, D, S without Q♠, Q♠, H.
GROUP_MASKS = (
    SUIT_MASKS[0],
    SUIT_MASKS[1],
    SUIT_MASKS[2] & ~QUEEN_BIT,
    QUEEN_BIT,
    SUIT_MASKS[3],
)
GROUP_COUNT = len(GROUP_MASKS)


def excluded_groups(mask: int) -> int:
    """Return a bit per card group that lies wholly inside ``mask`` (cards a seat lacks)."""
    groups = 0
    for group, cards in enumerate(GROUP_MASKS):
        if cards & ~mask == 0:
            groups |= 1 << group
    return groups


#: Per suit, the groups that make it up (spades: the Q♠ and the other spades).
_SUIT_GROUPS = tuple(excluded_groups(mask) for mask in SUIT_MASKS)


@dataclass(frozen=True)
class Knowledge:
    """One seat's deductions about the hand in progress."""

    seat: int
    #: Cards neither in this seat's hand nor played yet.
    unseen: int
    #: Cards known to be held by each seat now (its own hand for this seat).
    known: tuple[int, int, int, int]
    #: Per seat, a bit per card group the seat is known to be void in.
    voids: tuple[int, int, int, int]
    #: How many cards each seat still holds.
    remaining: tuple[int, int, int, int]
    #: Cards each seat has taken in tricks.
    taken: tuple[int, int, int, int]
    #: Points each seat has taken in tricks this hand.
    points_taken: tuple[int, int, int, int]

    @property
    def free(self) -> int:
        """Return the unseen cards whose holder is not known."""
        return self.unseen & ~(self.known[0] | self.known[1] | self.known[2] | self.known[3])

    def is_void(self, seat: int, suit: int) -> bool:
        """Return whether ``seat`` is known to hold no card of ``suit``."""
        groups = _SUIT_GROUPS[suit]
        return self.voids[seat] & groups == groups

    def can_shoot_moon(self, seat: int) -> bool:
        """Return whether ``seat`` could still take every point card this hand."""
        return all(self.taken[other] & POINT_CARDS_MASK == 0 for other in range(4) if other != seat)

    def possible(self, seat: int) -> int:
        """Return the mask of unseen cards ``seat`` might hold."""
        if seat == self.seat:
            return self.known[seat]
        mask = self.known[seat]
        for group, group_mask in enumerate(GROUP_MASKS):
            if not self.voids[seat] >> group & 1:
                mask |= self.free & group_mask
        return mask


def read_knowledge(observation: Observation) -> Knowledge:
    """Derive a seat's knowledge from its observation."""
    rules = observation.rules
    played_by = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    hearts_broken = False
    for index, trick in enumerate(observation.tricks):
        led = -1
        for position, card in enumerate(trick.cards):
            player = (trick.leader + position) % 4
            played_by[player] |= 1 << card
            for exclusion in revealed_by_play(player, card, led, index + 1, hearts_broken, rules):
                voids[player] |= excluded_groups(exclusion.mask)
            if position == 0:
                led = suit_of(card)
            hearts_broken = hearts_broken or rules.breaks_hearts(card)
        winner = trick.winner()
        if winner is not None:
            for card in trick.cards:
                taken[winner] |= 1 << card
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    seat = observation.seat
    known = [0, 0, 0, 0]
    known[seat] = observation.hand
    if observation.received is not None and observation.passed is not None:
        receiver = pass_receiver(seat, observation.direction)
        for card in observation.passed:
            if not has_card(played, card):
                known[receiver] |= 1 << card
    if observation.tricks and has_card(FULL_DECK & ~observation.hand & ~played, TWO_OF_CLUBS):
        # The first leader held the 2♣ (leading any club, it may still hold it).
        known[observation.tricks[0].leader] |= 1 << TWO_OF_CLUBS
    remaining = tuple(13 - count(mask) for mask in played_by)
    flags = rules.flags
    return Knowledge(
        seat=seat,
        unseen=FULL_DECK & ~observation.hand & ~played,
        known=(known[0], known[1], known[2], known[3]),
        voids=(voids[0], voids[1], voids[2], voids[3]),
        remaining=(remaining[0], remaining[1], remaining[2], remaining[3]),
        taken=(taken[0], taken[1], taken[2], taken[3]),
        points_taken=(
            trick_points(taken[0], flags),
            trick_points(taken[1], flags),
            trick_points(taken[2], flags),
            trick_points(taken[3], flags),
        ),
    )
