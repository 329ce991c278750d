"""Shooting the moon: how strong a hand is for it, and each seat's moon state.

Each seat is in one of four states, derived from the observation alone (so the same position
always gives the same states):

- ``inactive``: nothing suggests a moon;
- ``considering``: our hand is strong enough to think about it, or an opponent holds every
  point taken so far;
- ``committed``: we are going for it (strong hand, every point so far is ours), or an opponent
  holds enough points that we must stop them;
- ``aborted``: someone else has taken a point card, so this seat can no longer shoot.

``aborted`` is final: once another seat has taken a point card it stays so for the hand.
"""

from __future__ import annotations

from enum import Enum

from ai.knowledge import Knowledge
from ai.normal_params import NormalParams
from core.cards import HEARTS_MASK, POINT_CARDS_MASK, SUIT_MASKS, cards_of, count, suit_of


class MoonState(Enum):
    """Where a seat stands with respect to shooting the moon this hand."""

    INACTIVE = "inactive"
    CONSIDERING = "considering"
    COMMITTED = "committed"
    ABORTED = "aborted"


def higher_unseen(card: int, unseen: int) -> int:
    """Return how many unseen cards of the card's suit rank above it."""
    suit = suit_of(card)
    above = SUIT_MASKS[suit] & ~((2 << card) - 1)
    return count(unseen & above)


def moon_strength(hand: int, unseen: int) -> float:
    """Return 0..1: how well a hand can take every trick with points.

    Each card scores by how many unseen cards of its suit could beat it; long suits make their
    low cards winners once the high ones are gone. Hearts the hand cannot control weigh double.
    """
    cards = cards_of(hand)
    if not cards:
        return 0.0
    total = 0.0
    weight = 0.0
    for card in cards:
        beaten_by = higher_unseen(card, unseen)
        length = count(hand & SUIT_MASKS[suit_of(card)])
        control = (1.0, 0.55, 0.25)[beaten_by] if beaten_by < 3 else 0.0
        if length >= 5:
            control = max(control, 0.35)
        card_weight = 2.0 if hand & HEARTS_MASK & (1 << card) else 1.0
        total += control * card_weight
        weight += card_weight
    return total / weight


def moon_states(
    knowledge: Knowledge, hand: int, params: NormalParams
) -> tuple[MoonState, MoonState, MoonState, MoonState]:
    """Return the moon state of every seat as seen by ``knowledge.seat``."""
    states = []
    for seat in range(4):
        if not knowledge.can_shoot_moon(seat):
            states.append(MoonState.ABORTED)
            continue
        taken_points = knowledge.taken[seat] & POINT_CARDS_MASK
        if seat == knowledge.seat:
            strength = moon_strength(hand, knowledge.unseen)
            if strength >= params.moon_commit and taken_points:
                states.append(MoonState.COMMITTED)
            elif strength >= params.moon_consider:
                states.append(MoonState.CONSIDERING)
            else:
                states.append(MoonState.INACTIVE)
            continue
        hearts_left = count(HEARTS_MASK & (knowledge.unseen | hand))
        if (
            knowledge.points_taken[seat] >= params.moon_defend_points
            and hearts_left >= params.moon_defend_hearts_left
        ):
            states.append(MoonState.COMMITTED)
        elif taken_points:
            states.append(MoonState.CONSIDERING)
        else:
            states.append(MoonState.INACTIVE)
    return states[0], states[1], states[2], states[3]
