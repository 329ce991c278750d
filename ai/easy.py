"""The easy bot: a plausible beginner with cheap rules of thumb and a little randomness."""

from __future__ import annotations

import random
from typing import Any

from ai.bot import Budget
from core.cards import HEARTS, QUEEN_OF_SPADES, cards_of, rank_of, suit_of
from core.observation import Observation

#: Chance of playing a random legal card instead of the rule of thumb.
BLUNDER_RATE = 0.15


def _danger(card: int) -> int:
    """Return how much a beginner wants to be rid of a card when passing."""
    if card == QUEEN_OF_SPADES:
        return 40
    if suit_of(card) == HEARTS:
        return 14 + rank_of(card)
    return rank_of(card)


class EasyBot:
    """Passes its highest cards, ducks under the trick when it can, dumps high cards when void."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass the three most dangerous-looking cards (with ties broken at random)."""
        cards = cards_of(observation.hand)
        self._rng.shuffle(cards)
        cards.sort(key=_danger, reverse=True)
        return cards[0], cards[1], cards[2]

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play by a rule of thumb, sometimes a random legal card."""
        legal = cards_of(observation.legal_mask())
        if len(legal) == 1:
            return legal[0]
        if self._rng.random() < BLUNDER_RATE:
            return self._rng.choice(legal)
        trick = observation.current_trick
        if trick is None or not trick.cards:
            # Lead the lowest card, preferring suits other than hearts.
            return min(legal, key=lambda card: (suit_of(card) == HEARTS, rank_of(card)))
        led = suit_of(trick.cards[0])
        if suit_of(legal[0]) != led:
            # Void in the led suit: throw the most dangerous card.
            return max(legal, key=_danger)
        highest = max(card for card in trick.cards if suit_of(card) == led)
        under = [card for card in legal if card < highest]
        if under:
            return max(under)
        return max(legal) if len(trick.cards) == 3 else min(legal)
