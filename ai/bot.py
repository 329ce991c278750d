"""What a bot is: a function of one seat's observation that picks a pass or a card."""

from __future__ import annotations

from typing import Protocol

from core.observation import Observation


class Bot(Protocol):
    """A seat player. It sees one ``Observation`` and nothing else."""

    def choose_pass(self, observation: Observation) -> tuple[int, int, int]:
        """Return three cards of the observed hand to pass."""
        ...

    def choose_play(self, observation: Observation) -> int:
        """Return a legal card to play."""
        ...
