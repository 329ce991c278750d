"""How players pass: the danger of keeping a card, the pass a player is expected to make, and
the exchange of the passed cards.

A high spade (the Q♠, K♠ or A♠) is *guarded* when the hand holds enough low spades (two to
jack) to keep it safely: four for the Q♠; four for the K♠ or A♠, or three with the Q♠ (which
then takes the spade tricks they would). An unguarded one is among the first cards passed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from core.cards import (
    DECK_SIZE,
    HEARTS,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASKS,
    count,
    has_card,
    make_card,
    mask_of,
    rank_of,
    suit_of,
)
from core.rules import pass_receiver

KING_OF_SPADES = make_card(11, SPADES)
ACE_OF_SPADES = make_card(12, SPADES)
#: The spades a hand needs low spades to keep.
HIGH_SPADES = (QUEEN_OF_SPADES, KING_OF_SPADES, ACE_OF_SPADES)
#: The spades below the Q♠ (two to jack): what guards a high spade.
LOW_SPADES_MASK = SUIT_MASKS[SPADES] & ((1 << QUEEN_OF_SPADES) - 1)
#: Low spades that guard the Q♠, or the K♠ / A♠ without it; with the Q♠ one fewer will do.
GUARD_SPADES = 4
#: A heart's danger when passing, a base plus so much per rank: high hearts are passed early.
HEART_DANGER = (3.0, 1.5)


def guards(hand: int) -> tuple[bool, bool]:
    """Return whether ``hand`` would guard the Q♠, and the K♠ or A♠ (see the module notes)."""
    low = count(hand & LOW_SPADES_MASK)
    return low >= GUARD_SPADES, low >= GUARD_SPADES or (
        has_card(hand, QUEEN_OF_SPADES) and low >= GUARD_SPADES - 1
    )


def spade_guarded(card: int, hand: int) -> bool:
    """Return whether the high spade ``card`` is guarded in ``hand`` (see the module notes)."""
    queen, king_ace = guards(hand)
    return queen if card == QUEEN_OF_SPADES else king_ace


def pass_danger(card: int, hand: int, hearts: tuple[float, float] = HEART_DANGER) -> float:
    """Return how much keeping ``card`` in ``hand`` hurts (higher: pass it sooner); a heart's
    danger is ``hearts``: a base plus so much per rank."""
    return _danger(card, guards(hand), hearts)


def _danger(card: int, guarded: tuple[bool, bool], hearts: tuple[float, float]) -> float:
    # A card's danger depends on the hand only through how its high spades are guarded.
    if card == QUEEN_OF_SPADES:
        return 6.0 if guarded[0] else 30.0
    if card in (KING_OF_SPADES, ACE_OF_SPADES):
        return 8.0 if guarded[1] else 22.0
    if suit_of(card) == HEARTS:
        base, per_rank = hearts
        return base + per_rank * rank_of(card)
    return float(rank_of(card))


@cache
def _danger_order(guarded: tuple[bool, bool]) -> tuple[tuple[int, int], ...]:
    # Every card and its bit, most dangerous first (ties: the higher card).
    ranked = sorted(
        range(DECK_SIZE), key=lambda card: (-_danger(card, guarded, HEART_DANGER), -card)
    )
    return tuple((card, 1 << card) for card in ranked)


def expected_pass(hand: int) -> tuple[int, int, int]:
    """Return the pass another player is expected to make from ``hand``: its three most
    dangerous cards by ``pass_danger`` (ties: the higher card)."""
    picked = []
    for card, bit in _danger_order(guards(hand)):
        if hand & bit:
            picked.append(card)
            if len(picked) == 3:
                break
    first, second, third = sorted(picked)
    return first, second, third


def exchange(
    dealt: Sequence[int], passes: Mapping[int, Sequence[int]], direction: str
) -> list[int]:
    """Return the hands after every seat passes its cards in ``direction``."""
    hands = list(dealt)
    for giver, cards in passes.items():
        hands[giver] &= ~mask_of(cards)
    for giver, cards in passes.items():
        hands[pass_receiver(giver, direction)] |= mask_of(cards)
    return hands
