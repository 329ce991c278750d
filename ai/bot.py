"""What a bot is: a function of one seat's observation that picks a pass or a card.

A bot may think for a while; the ``Budget`` it is handed says until when, and whether the
decision was cancelled (the position was undone or a new game began). A bot that searches polls
``budget.expired()`` and answers with its best choice so far. After each decision a bot may
leave facts about it (samples, playouts, the value of every candidate) in ``last_decision``
for telemetry.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.observation import Observation


@dataclass
class Budget:
    """How long a decision may take: a deadline on ``time.perf_counter`` and a cancel check."""

    deadline: float | None = None
    cancelled: Callable[[], bool] = field(default=lambda: False)

    @classmethod
    def for_ms(
        cls, milliseconds: float | None, cancelled: Callable[[], bool] | None = None
    ) -> Budget:
        """Return a budget ending ``milliseconds`` from now (None: no time limit)."""
        deadline = None if milliseconds is None else time.perf_counter() + milliseconds / 1000
        return cls(deadline, cancelled or (lambda: False))

    def expired(self) -> bool:
        """Return whether the time is up or the decision was cancelled."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        return self.cancelled()

    def remaining_ms(self) -> float | None:
        """Return the milliseconds left, or None without a deadline."""
        if self.deadline is None:
            return None
        return max(0.0, (self.deadline - time.perf_counter()) * 1000)


class Bot(Protocol):
    """A seat player. It sees one ``Observation`` and nothing else."""

    #: Facts about the last decision for telemetry (may stay empty).
    last_decision: dict[str, Any]

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Return three cards of the observed hand to pass."""
        ...

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Return a legal card to play."""
        ...


def close_bot(bot: object) -> None:
    """Release what a bot holds (an external engine's process); most bots hold nothing."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()
