"""Asking bots for moves without waiting: the table's side of the bot worker.

The table submits a request and polls for its answer once a frame; it never blocks. Every
answer is a settled, legal ``Decision`` (the worker plays the fallback when a bot fails).
``InlineBots`` answers in this process on the next poll, for tools and tests that want no
second process.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Protocol

from ai.think import Decision, DirectRunner, ThinkConfig
from ai.worker import WorkerRunner
from core.observation import Observation

Report = Callable[[Decision], None]


class AsyncBots(Protocol):
    """Submit decisions, poll for the settled ones, cancel the ones no longer wanted."""

    def submit(
        self, observation: Observation, bot_name: str, seed: int | None, limit_ms: float | None
    ) -> int:
        """Ask for a decision and return its request id at once."""
        ...

    def poll(self) -> list[tuple[int, Decision]]:
        """Return the decisions settled since the last poll, without waiting."""
        ...

    def cancel_all(self) -> None:
        """Drop every request made so far."""
        ...

    def close(self) -> None:
        """Release what the bots hold."""
        ...


class WorkerBots(WorkerRunner):
    """Requests answered by the bot worker process; ``poll`` never waits.

    It is the worker runner (same config, telemetry report and worker ownership) with
    requests that are submitted and polled instead of awaited.
    """

    def start(self) -> None:
        """Start the worker process now, so the first bot move does not wait for it."""
        self.worker.start()

    def submit(
        self, observation: Observation, bot_name: str, seed: int | None, limit_ms: float | None
    ) -> int:
        """Queue a request with the think config's fallback and moon gates."""
        return self.worker.submit(
            observation,
            bot_name,
            seed=seed,
            limit_ms=limit_ms,
            fallback=self.config.fallback,
            moon_gates=self.config.moon_gates,
            supersede=False,
        )

    def poll(self) -> list[tuple[int, Decision]]:
        """Return the worker's settled decisions (stale ones are already dropped)."""
        settled = [(result.id, result.decision) for result in self.worker.poll()]
        if self.report is not None:
            for _, decision in settled:
                self.report(decision)
        return settled

    def close(self) -> None:
        """Drop the requests in flight; stop the worker if these bots started it."""
        self.worker.cancel_all()
        super().close()


class InlineBots:
    """Requests answered in this process, on the poll after their submission."""

    def __init__(self, config: ThinkConfig | None = None, report: Report | None = None) -> None:
        self.config = config or ThinkConfig()
        self._runner = DirectRunner(self.config, report)
        self._ids = itertools.count(1)
        self._queued: list[tuple[int, Observation, str, int | None]] = []

    def submit(
        self, observation: Observation, bot_name: str, seed: int | None, limit_ms: float | None
    ) -> int:
        """Queue a request; it is decided on the next poll."""
        request_id = next(self._ids)
        self._queued.append((request_id, observation, bot_name, seed))
        return request_id

    def poll(self) -> list[tuple[int, Decision]]:
        """Decide every queued request now and return the decisions."""
        queued, self._queued = self._queued, []
        return [
            (request_id, self._runner.decide(observation, name, seed))
            for request_id, observation, name, seed in queued
        ]

    def cancel_all(self) -> None:
        """Forget the queued requests."""
        self._queued.clear()

    def close(self) -> None:
        """Forget the queued requests and the bots."""
        self._queued.clear()
        self._runner.close()
