"""The simplest bots: first legal card, and uniformly random legal cards."""

from __future__ import annotations

import random
from typing import Any

from ai.bot import Budget
from core.cards import cards_of
from core.observation import Observation


class FirstLegalBot:
    """Passes its three highest cards and always plays its lowest legal card."""

    def __init__(self) -> None:
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass the three cards with the highest index (hearts and spades high first)."""
        cards = cards_of(observation.hand)
        return cards[-1], cards[-2], cards[-3]

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play the lowest legal card."""
        return cards_of(observation.legal_mask())[0]


class RandomBot:
    """Passes and plays uniformly at random among legal choices; reproducible with a seed."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass three random cards."""
        first, second, third = self._rng.sample(cards_of(observation.hand), 3)
        return first, second, third

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Play a random legal card."""
        return self._rng.choice(cards_of(observation.legal_mask()))
