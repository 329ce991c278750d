"""The server's bots: decisions asked of the shared bot worker process, never on the loop.

``ServerBots`` submits a request for each seat a bot must play now and hands back, from
``poll``, the settled decisions that are still wanted: a request is dropped when its seat got a
newer request or was answered otherwise (its person came back). The worker
(``game.server.bot_worker``, built on ``ai.worker``) keeps each decision within its think
limit, plays the fallback move for a bot that fails, keeps a bounded number of bots (a table's
are forgotten when ``forget_table`` says it is over), and ends with the server, however it ends.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ai.think import Decision
from core.observation import Observation
from game.server.bot_worker import ServerBotWorker

#: Bot worker processes of a server unless told otherwise.
DEFAULT_WORKERS = 1

log = logging.getLogger("mdhearts.serve")


@dataclass(frozen=True)
class BotMove:
    """A settled decision for a seat of a table."""

    table_id: int
    seat: int
    decision: Decision


class ServerBots:
    """Bot decisions for every table, asked of a pool of worker processes (a table's bots
    always think in the same one: ``table_id % workers``)."""

    def __init__(self, limit_ms: float, workers: int = DEFAULT_WORKERS) -> None:
        self.limit_ms = limit_ms
        self.workers = [ServerBotWorker() for _ in range(max(1, workers))]
        self._requests: dict[tuple[int, int], tuple[int, int]] = {}
        self._latest: dict[tuple[int, int], tuple[int, int]] = {}
        #: What the log last said of each worker: its restarts, and whether it was broken.
        self._told = [(0, False) for _ in self.workers]

    def start(self) -> None:
        """Start the worker processes now, so the first decisions do not wait for them."""
        for worker in self.workers:
            worker.start()

    def close(self) -> None:
        """End the worker processes."""
        for worker in self.workers:
            worker.close()

    def worker_for(self, table_id: int) -> ServerBotWorker:
        """Return the worker in which the table's bots think."""
        return self.workers[table_id % len(self.workers)]

    def pending(self, table_id: int, seat: int) -> bool:
        """Return whether a decision for this seat is being made."""
        return (table_id, seat) in self._latest

    def ask(self, table_id: int, seat: int, observation: Observation, bot: str) -> None:
        """Ask the bot ``bot`` for the seat's decision (a table's bots are its own: the seed)."""
        number = table_id % len(self.workers)
        request = self.workers[number].submit(
            observation, bot, seed=table_id, limit_ms=self.limit_ms, supersede=False
        )
        self._requests[(number, request)] = (table_id, seat)
        self._latest[(table_id, seat)] = (number, request)

    def forget(self, table_id: int, seat: int) -> None:
        """Drop the decision being made for this seat (its result will be ignored)."""
        self._latest.pop((table_id, seat), None)

    def forget_table(self, table_id: int) -> None:
        """Drop every decision being made for a table, and the worker's bots for it (they are
        built again if the table asks once more)."""
        for key in [key for key in self._latest if key[0] == table_id]:
            del self._latest[key]
        self.worker_for(table_id).forget_seed(table_id)

    def poll(self) -> list[BotMove]:
        """Return the decisions ready now that are still wanted."""
        moves = []
        for number, worker in enumerate(self.workers):
            for result in worker.poll():
                request = (number, result.id)
                key = self._requests.pop(request, None)
                if key is None or self._latest.get(key) != request:
                    continue
                del self._latest[key]
                moves.append(BotMove(key[0], key[1], result.decision))
            self._tell(number, worker)
        return moves

    def _tell(self, number: int, worker: ServerBotWorker) -> None:
        """Log a worker that was replaced, or that keeps failing (fallback moves are played)."""
        restarts, broken = self._told[number]
        if worker.restarts > restarts:
            log.warning("bot worker %d ended and was started again", number)
        if worker.broken and not broken:
            log.error("bot worker %d keeps failing to start: bots play fallback moves", number)
        self._told[number] = (worker.restarts, worker.broken)

    @property
    def busy(self) -> bool:
        """Return whether any decision is being made."""
        return bool(self._latest)
